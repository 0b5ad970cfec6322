use lagrange::Lagrangian;

// A force on an ignored coordinate, and a name that is not a coordinate: each is
// reported at its name in `ignore(...)`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(r, phi),
    kinetic = "1/2*m*(dot(r)^2 + r^2*dot(phi)^2)",
    potential = "1/2*k*r^2",
    force(phi = "tau"),
    ignore(phi, chi),
)]
struct Orbit {
    m: f64,
    k: f64,
    tau: f64,
}

fn main() {}

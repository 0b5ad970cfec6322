use lagrange::Lagrangian;

// Dissipation through the ignored coordinate's velocity: its momentum is not constant.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(r, phi),
    kinetic = "1/2*m*(dot(r)^2 + r^2*dot(phi)^2)",
    potential = "1/2*k*r^2",
    dissipation = "1/2*c*r^2*dot(phi)^2",
    ignore(phi),
)]
struct Orbit {
    m: f64,
    k: f64,
    c: f64,
}

fn main() {}

// A bad key comes first: it is the only error, and the keys after it (coordinates, the
// energies) are still read, so no "missing coordinates" or "no kinetic energy" follows.
use lagrange::Lagrangian;

#[derive(Lagrangian)]
#[lagrangian(
    damping = "1/2*c*dot(x)^2",
    kinetic = 1/2,
    coordinates(x),
    kinetic = "1/2*m*dot(x)^2",
    potential = "1/2*k*x^2",
)]
struct Damped {
    m: f64,
    k: f64,
    c: f64,
}

fn main() {}

// The potential energy may not depend on velocities.
use lagrange::Lagrangian;

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x),
    kinetic = "1/2*m*dot(x)^2",
    potential = "1/2*k*x^2 + c*x*dot(x)",
)]
struct Oscillator {
    m: f64,
    k: f64,
    c: f64,
}

fn main() {}

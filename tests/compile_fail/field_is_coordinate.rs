// `x` is both a field (parameter) and a coordinate.
use lagrange::Lagrangian;

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x),
    kinetic = "1/2*m*dot(x)^2",
    potential = "1/2*k*x^2",
)]
struct Oscillator {
    m: f64,
    k: f64,
    x: f64,
}

fn main() {}

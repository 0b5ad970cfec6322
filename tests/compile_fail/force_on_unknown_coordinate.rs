// A generalized force on `y`, which is not a declared coordinate.
use lagrange::Lagrangian;

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x),
    kinetic = "1/2*m*dot(x)^2",
    potential = "1/2*k*x^2",
    force(y = "f0*cos(w*t)"),
)]
struct Driven {
    m: f64,
    k: f64,
    f0: f64,
    w: f64,
}

fn main() {}

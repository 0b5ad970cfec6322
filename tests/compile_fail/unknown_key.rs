// `damping` is not a key of the attribute (the key is `dissipation`).
use lagrange::Lagrangian;

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x),
    kinetic = "1/2*m*dot(x)^2",
    potential = "1/2*k*x^2",
    damping = "1/2*c*dot(x)^2",
)]
struct Damped {
    m: f64,
    k: f64,
    c: f64,
}

fn main() {}

// `dot(y)` does not appear in the kinetic energy, so the mass matrix is singular and the
// equations do not determine the acceleration of `y`.
use lagrange::Lagrangian;

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y),
    kinetic = "1/2*m*dot(x)^2",
    potential = "1/2*k*(x^2 + y^2)",
)]
struct Degenerate {
    m: f64,
    k: f64,
}

fn main() {}

// No `coordinates(...)` in the attribute.
use lagrange::Lagrangian;

#[derive(Lagrangian)]
#[lagrangian(kinetic = "1/2*m*v^2", potential = "m*g*h")]
struct Point {
    m: f64,
    v: f64,
    g: f64,
    h: f64,
}

fn main() {}

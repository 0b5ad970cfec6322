// `g` is neither a coordinate, a field, `t` nor `pi`.
use lagrange::Lagrangian;

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta),
    kinetic = "1/2*m*l^2*dot(theta)^2",
    potential = "-m*g*l*cos(theta)",
)]
struct Pendulum {
    m: f64,
    l: f64,
}

fn main() {}

use lagrange::Lagrangian;

// `v` is not a field, `u` is declared twice, and `w` occurs in no expression.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x),
    kinetic = "1/2*m*dot(x)^2",
    force(x = "u"),
    inputs(u, v, u)
)]
struct Cart {
    m: f64,
    u: f64,
}

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x),
    kinetic = "1/2*m*dot(x)^2",
    force(x = "u"),
    inputs(u, w)
)]
struct Unused {
    m: f64,
    u: f64,
    w: f64,
}

fn main() {}

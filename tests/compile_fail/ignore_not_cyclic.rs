use lagrange::Lagrangian;

// The pendulum angle appears in V: it is not cyclic and cannot be ignored.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(r, theta),
    kinetic = "1/2*m*(dot(r)^2 + r^2*dot(theta)^2)",
    potential = "-m*g*r*cos(theta)",
    ignore(theta),
)]
struct SpringPendulum {
    m: f64,
    g: f64,
}

fn main() {}

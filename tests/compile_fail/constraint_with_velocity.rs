use lagrange::Lagrangian;

// A constraint on velocities is not holonomic.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2)",
    constraint = "dot(x) - y",
)]
struct Rolling {
    m: f64,
}

fn main() {}

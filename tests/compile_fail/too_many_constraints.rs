use lagrange::Lagrangian;

// Two constraints on two coordinates leave no motion; one involves no coordinate.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2)",
    constraint = "x^2 + y^2 - 1",
    constraint = "m - 1",
)]
struct Stuck {
    m: f64,
}

fn main() {}

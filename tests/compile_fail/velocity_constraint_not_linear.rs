use lagrange::Lagrangian;

// A velocity constraint must be linear in the velocities.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2)",
    velocity_constraint = "dot(x)^2 + dot(y)^2 - 1",
)]
struct Skid {
    m: f64,
}

fn main() {}

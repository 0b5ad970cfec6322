use lagrange::Lagrangian;

// A position needs 2 or 3 components.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x),
    particle(name = bead, mass = "m", position = ["x"]),
)]
struct Bead {
    m: f64,
}

fn main() {}

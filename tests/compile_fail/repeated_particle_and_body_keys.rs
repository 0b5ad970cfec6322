// A key given twice inside `particle(...)` or `body(...)` is an error, as it is at the
// top level; every repeated key is reported, and no "a particle needs …" follows.
use lagrange::Lagrangian;

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, theta),
    particle(name = bead, mass = "m", mass = "2*m", position = ["x", "0"]),
    body(
        name = plate,
        mass = "m",
        inertia = ["1", "1", "1"],
        rotation = about_z(theta),
        rotation = about_x(theta),
        position = ["0", "0", "0"],
        name = disc,
    ),
)]
struct Repeated {
    m: f64,
}

fn main() {}

use lagrange::Lagrangian;

// A shear is not a rotation: the derive samples RᵀR and det R.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta),
    body(
        name = plate,
        mass = "m",
        inertia = ["1", "1", "1"],
        rotation = ["1", "theta", "0", "0", "1", "0", "0", "0", "1"],
        position = ["0", "0", "0"],
    ),
)]
struct Sheared {
    m: f64,
}

fn main() {}

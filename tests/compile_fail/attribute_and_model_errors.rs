use lagrange::Lagrangian;

// A field of the wrong type and a bad model expression are reported in the same compile.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x),
    kinetic = "1/2*m*dot(x)^2",
    potential = "1/2*k*x^2 + c*dot(x)",
)]
struct Spring {
    m: f64,
    k: f32,
}

fn main() {}

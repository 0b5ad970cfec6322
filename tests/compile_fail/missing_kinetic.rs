// Neither `kinetic` nor `lagrangian` is given, only the potential energy.
use lagrange::Lagrangian;

#[derive(Lagrangian)]
#[lagrangian(coordinates(x), potential = "1/2*k*x^2")]
struct Spring {
    k: f64,
}

fn main() {}

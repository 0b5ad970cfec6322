use lagrange::Lagrangian;

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x),
    kinetic = "1/2*m*dot(x)^2",
    potential = "1/2*k*x^2",
    omit(everything, variational, derivatives, derivatives)
)]
struct Unknown {
    m: f64,
    k: f64,
}

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x),
    kinetic = "1/2*m*dot(x)^2",
    potential = "1/2*k*x^2",
    omit(derivatives, derivatives)
)]
struct Twice {
    m: f64,
    k: f64,
}

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x),
    kinetic = "1/2*m*dot(x)^2",
    potential = "1/2*k*x^2",
    omit = "variational"
)]
struct NotAList {
    m: f64,
    k: f64,
}

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x),
    kinetic = "1/2*m*dot(x)^2",
    potential = "1/2*k*x^2",
    omit()
)]
struct Empty {
    m: f64,
    k: f64,
}

fn main() {}

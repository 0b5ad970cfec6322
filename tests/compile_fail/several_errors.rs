// Several problems in one struct: all of them are reported by one compile.
//  - `x` is both a field and a coordinate,
//  - the potential uses the unknown name `g` and the velocity `dot(y)`,
//  - the force is on `z`, which is not a coordinate,
//  - the dissipation function does not parse.
use lagrange::Lagrangian;

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2)",
    potential = "m*g*y + k*y*dot(y)",
    force(z = "1"),
    dissipation = "1/2*c*dot(x)^^2",
)]
struct Broken {
    m: f64,
    k: f64,
    c: f64,
    x: f64,
}

fn main() {}

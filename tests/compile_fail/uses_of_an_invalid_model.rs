// The model has one error (a velocity in the potential). Uses of the type as a system
// add no second wave of errors: the derive emits a stub of its impls.
use lagrange::nalgebra::Vector1;
use lagrange::{Check, Lagrangian, LagrangianSystem, Simulation};

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x),
    kinetic = "1/2*m*dot(x)^2",
    potential = "1/2*k*x^2*dot(x)",
)]
struct Broken {
    m: f64,
    k: f64,
}

fn main() {
    let system = Broken { m: 1.0, k: 1.0 };
    println!("{}", Broken::INFO.equations_text);
    println!("{}", system.energy(0.0, &Vector1::new(1.0), &Vector1::new(0.0)));
    let _ = Simulation::new(&system).run(0.0, Vector1::new(1.0), Vector1::new(0.0), 1.0);
    let _ = Check::new().run::<Broken, lagrange::nalgebra::U1>(|_, _| vec![0.0]);
}

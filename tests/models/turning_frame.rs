//! A model shared by several test files.

use lagrange::Lagrangian;

/// A particle in a potential that turns uniformly at `omega` (anisotropic springs fixed in
/// the turning frame), written in that frame. `T` has terms of degree 1 and 0 in the
/// velocities, so `H` is not `T + V`. `L` has no explicit time, so the Jacobi integral
/// `h = T₂ − T₀ + V` is conserved, while `T + V` is not (the turning springs do work on
/// the particle).
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y, z),
    kinetic = "1/2*m*((dot(x) - omega*y)^2 + (dot(y) + omega*x)^2 + dot(z)^2)",
    potential = "1/2*(kx*x^2 + ky*y^2 + kz*z^2)"
)]
pub struct TurningFrame {
    pub m: f64,
    pub omega: f64,
    pub kx: f64,
    pub ky: f64,
    pub kz: f64,
}

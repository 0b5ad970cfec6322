//! Kinetic energy of point masses and rigid bodies (seed 000): `½ m |ṙ|²` for a particle,
//! `½ m |v_c|² + ½ ωᵀ I ω` for a body, with the body-frame angular velocity from
//! `ω× = Rᵀ Ṙ`. Velocities are total time derivatives of the given positions.

use crate::cas::{Session, Sym, Var};
use crate::model::CheckedModel;

/// `de/dt = ∂e/∂t + Σⱼ ∂e/∂qⱼ q̇ⱼ` over the model's `n` coordinates.
fn time_derivative(s: &Session, e: &Sym, n: usize) -> Sym {
    (0..n).fold(e.diff(Var::Time), |acc, j| {
        &acc + &(&e.diff(Var::Coordinate(j)) * &s.var(Var::Velocity(j)))
    })
}

/// `½ m |ṙ|²`.
fn translational(s: &Session, mass: &Sym, position: &[Sym], n: usize) -> Sym {
    let speed2 = position.iter().fold(s.int(0), |acc, x| {
        let v = time_derivative(s, x, n);
        &acc + &(&v * &v)
    });
    &(&s.half() * mass) * &speed2
}

/// The kinetic energy that the model's particles and bodies contribute.
pub(crate) fn of_bodies(s: &Session, model: &CheckedModel) -> Result<Sym, String> {
    let n = model.coordinates.len();
    let mut t = s.int(0);
    for (mass, position) in &model.particles {
        let position = position
            .iter()
            .map(|e| s.expr(e))
            .collect::<Result<Vec<_>, _>>()?;
        t = &t + &translational(s, &s.expr(mass)?, &position, n);
    }
    for body in &model.bodies {
        let mass = s.expr(&body.mass)?;
        let position = body
            .position
            .iter()
            .map(|e| s.expr(e))
            .collect::<Result<Vec<_>, _>>()?;
        let r = body
            .rotation
            .iter()
            .map(|row| row.iter().map(|e| s.expr(e)).collect::<Result<Vec<_>, _>>())
            .collect::<Result<Vec<_>, _>>()?;
        let rd: Vec<Vec<Sym>> = r
            .iter()
            .map(|row| row.iter().map(|e| time_derivative(s, e, n)).collect())
            .collect();
        // Ω = Rᵀ Ṙ, entry (i, j) = Σₖ R_ki Ṙ_kj; ω = (Ω₃₂, Ω₁₃, Ω₂₁).
        let omega_entry =
            |i: usize, j: usize| (0..3).fold(s.int(0), |acc, k| &acc + &(&r[k][i] * &rd[k][j]));
        let omega = [omega_entry(2, 1), omega_entry(0, 2), omega_entry(1, 0)];
        let inertia = body
            .inertia
            .iter()
            .map(|row| row.iter().map(|e| s.expr(e)).collect::<Result<Vec<_>, _>>())
            .collect::<Result<Vec<_>, _>>()?;
        let mut rotational = s.int(0);
        for i in 0..3 {
            for j in 0..3 {
                rotational = &rotational + &(&(&omega[i] * &inertia[i][j]) * &omega[j]);
            }
        }
        t = &(&t + &translational(s, &mass, &position, n)) + &(&s.half() * &rotational);
    }
    Ok(t)
}

/// For each body, the entries of `RᵀR` (row-major) followed by `det R`, to check that the
/// given orientation is a rotation.
pub(crate) fn orthogonality(s: &Session, model: &CheckedModel) -> Result<Vec<Vec<Sym>>, String> {
    model
        .bodies
        .iter()
        .map(|body| {
            let r = body
                .rotation
                .iter()
                .map(|row| row.iter().map(|e| s.expr(e)).collect::<Result<Vec<_>, _>>())
                .collect::<Result<Vec<_>, _>>()?;
            let mut out: Vec<Sym> = (0..9)
                .map(|ij| (0..3).fold(s.int(0), |acc, k| &acc + &(&r[k][ij / 3] * &r[k][ij % 3])))
                .collect();
            let minor = |a: usize, b: usize, c: usize, d: usize| {
                &(&r[1][a] * &r[2][b]) - &(&r[1][c] * &r[2][d])
            };
            let det = &(&(&r[0][0] * &minor(1, 2, 2, 1)) - &(&r[0][1] * &minor(0, 2, 2, 0)))
                + &(&r[0][2] * &minor(0, 1, 1, 0));
            out.push(det);
            Ok(out)
        })
        .collect()
}

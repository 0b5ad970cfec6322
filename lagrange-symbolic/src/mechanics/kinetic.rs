//! Kinetic energy of point masses and rigid bodies: `½ m |ṙ|²` for a particle,
//! `½ m |v_c|² + ½ ωᵀ I ω` for a body, with the body-frame angular velocity from
//! `ω× = Rᵀ Ṙ`. Velocities are total time derivatives of the given positions.

use super::rotation;
use crate::cas::{Session, Sym, Var};
use crate::model::{CheckedBody, CheckedModel, Matrix3, Orientation};
use crate::syntax::Expr;

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
        let omega = angular_velocity(s, body, n)?;
        let inertia = matrix(s, &body.inertia)?;
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

/// `−Σ m g·r` over the model's particles and bodies (`r` the centre of mass; a particle
/// in the plane uses `g`'s first two components), or 0 without a gravity field.
pub(crate) fn gravity_potential(s: &Session, model: &CheckedModel) -> Result<Sym, String> {
    let Some(g) = &model.gravity else {
        return Ok(s.int(0));
    };
    let g = g.iter().map(|e| s.expr(e)).collect::<Result<Vec<_>, _>>()?;
    let masses_and_positions = model
        .particles
        .iter()
        .map(|(m, r)| (m, r.as_slice()))
        .chain(
            model
                .bodies
                .iter()
                .map(|b| (&b.mass, b.position.as_slice())),
        );
    let mut v = s.int(0);
    for (mass, position) in masses_and_positions {
        let mut work = s.int(0);
        for (gi, ri) in g.iter().zip(position) {
            work = &work + &(gi * &s.expr(ri)?);
        }
        v = &v - &(&s.expr(mass)? * &work);
    }
    Ok(v)
}

/// The body-frame angular velocity. For the named parametrizations the closed forms
/// (which `Rᵀ Ṙ` reproduces only up to `sin² + cos² = 1`, an identity symbolica does not
/// apply): about a fixed axis, the angle's rate on that axis; for z-x-z Euler angles
/// `(φ̇ sin θ sin ψ + θ̇ cos ψ, φ̇ sin θ cos ψ − θ̇ sin ψ, φ̇ cos θ + ψ̇)`. For an explicit
/// matrix, `ω× = Rᵀ Ṙ`: `ω = (Ω₃₂, Ω₁₃, Ω₂₁)` with `Ω = Rᵀ Ṙ`.
fn angular_velocity(s: &Session, body: &CheckedBody, n: usize) -> Result<[Sym; 3], String> {
    let rate = |e: &Expr| s.expr(e).map(|a| time_derivative(s, &a, n));
    Ok(match &body.orientation {
        Orientation::About(axis, angle) => {
            let w = rate(angle)?;
            let (zero, one) = (s.int(0), s.int(1));
            let unit = |k| {
                if k == *axis as usize {
                    one.clone()
                } else {
                    zero.clone()
                }
            };
            [&unit(0) * &w, &unit(1) * &w, &unit(2) * &w]
        }
        Orientation::EulerZxz([phi, theta, psi]) => {
            let (phid, thetad, psid) = (rate(phi)?, rate(theta)?, rate(psi)?);
            let (th, ps) = (s.expr(theta)?, s.expr(psi)?);
            let (st, ct, sp, cp) = (th.sin(), th.cos(), ps.sin(), ps.cos());
            [
                &(&(&phid * &st) * &sp) + &(&thetad * &cp),
                &(&(&phid * &st) * &cp) - &(&thetad * &sp),
                &(&phid * &ct) + &psid,
            ]
        }
        Orientation::Product(factors) => {
            // ω ← Rᵢᵀ ω + aᵢ α̇ᵢ factor by factor: the body-frame angular velocity of
            // R₁ R₂ … Rₖ, each term in the frame of the factors so far.
            let zero = || [s.int(0), s.int(0), s.int(0)];
            let mut omega = zero();
            for (axis, angle) in factors {
                let r = matrix(s, &rotation::about(*axis, angle))?;
                let mut turned = zero();
                for (i, entry) in turned.iter_mut().enumerate() {
                    *entry = (0..3).fold(s.int(0), |acc, k| &acc + &(&r[k][i] * &omega[k]));
                }
                let k = *axis as usize;
                turned[k] = &turned[k] + &rate(angle)?;
                omega = turned;
            }
            omega
        }
        Orientation::Matrix(r) => {
            let r = matrix(s, r)?;
            let rd: Vec<Vec<Sym>> = r
                .iter()
                .map(|row| row.iter().map(|e| time_derivative(s, e, n)).collect())
                .collect();
            let omega_entry =
                |i: usize, j: usize| (0..3).fold(s.int(0), |acc, k| &acc + &(&r[k][i] * &rd[k][j]));
            [omega_entry(2, 1), omega_entry(0, 2), omega_entry(1, 0)]
        }
    })
}

fn matrix(s: &Session, m: &Matrix3) -> Result<Vec<Vec<Sym>>, String> {
    m.iter()
        .map(|row| row.iter().map(|e| s.expr(e)).collect())
        .collect()
}

/// For each body, the entries of `RᵀR` (row-major) followed by `det R`, to check that the
/// given orientation is a rotation.
pub(crate) fn orthogonality(s: &Session, model: &CheckedModel) -> Result<Vec<Vec<Sym>>, String> {
    model
        .bodies
        .iter()
        .map(|body| {
            let r = matrix(s, &rotation::matrix(&body.orientation))?;
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

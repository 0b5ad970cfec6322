//! The dynamic functions of particles and bodies, `P`, `Λ`, `T`, `J`, `I`, and the total
//! rate `dΦ/dt` a balance law sets against its right-hand side.

use super::{Mass, Turning};
use crate::cas::{Session, Sym, Var};
use crate::mechanics::kinetic;

/// `P` (3), `Λ` (3), `T`, `J`, `I`.
pub(super) fn dynamic_functions(s: &Session, masses: &[Mass], n: usize) -> Vec<Sym> {
    let zero = || s.int(0);
    let mut out: Vec<Sym> = (0..9).map(|_| zero()).collect();
    let dot = |a: &[Sym; 3], b: &[Sym; 3]| (0..3).fold(zero(), |acc, i| &acc + &(&a[i] * &b[i]));
    for Mass { mass, com, body } in masses {
        let velocity: [Sym; 3] = std::array::from_fn(|i| kinetic::time_derivative(s, &com[i], n));
        let moment = cross(com, &velocity);
        for a in 0..3 {
            out[a] = &out[a] + &(mass * &velocity[a]);
            out[3 + a] = &out[3 + a] + &(mass * &moment[a]);
        }
        out[6] = &out[6] + &(&(&s.half() * mass) * &dot(&velocity, &velocity));
        out[7] = &out[7] + &(mass * &dot(com, &velocity));
        out[8] = &out[8] + &(mass * &dot(com, com));
        if let Some(Turning {
            r, omega, inertia, ..
        }) = body
        {
            // The spin R Θ ω, the rotational energy ½ ωᵀ Θ ω and the points' spread
            // Σ m ρ² = tr Θ / 2 about the centre of mass.
            let spin_body: [Sym; 3] = std::array::from_fn(|i| {
                (0..3).fold(zero(), |acc, j| &acc + &(&inertia[i][j] * &omega[j]))
            });
            for (a, row) in r.iter().enumerate() {
                let spin = (0..3).fold(zero(), |acc, j| &acc + &(&row[j] * &spin_body[j]));
                out[3 + a] = &out[3 + a] + &spin;
            }
            out[6] = &out[6] + &(&s.half() * &dot(omega, &spin_body));
            let trace = &(&inertia[0][0] + &inertia[1][1]) + &inertia[2][2];
            out[8] = &out[8] + &(&s.half() * &trace);
        }
    }
    out
}

fn cross(a: &[Sym; 3], b: &[Sym; 3]) -> [Sym; 3] {
    std::array::from_fn(|i| {
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        &(&a[j] * &b[k]) - &(&a[k] * &b[j])
    })
}

/// `dΦ/dt = ∂Φ/∂t + Σ ∂Φ/∂qᵢ q̇ᵢ + Σ ∂Φ/∂q̇ᵢ q̈ᵢ` of a function of `(t, q, q̇)`.
pub(super) fn total_rate(s: &Session, phi: &Sym, n: usize) -> Sym {
    (0..n).fold(kinetic::time_derivative(s, phi, n), |acc, i| {
        &acc + &(&phi.diff(Var::Velocity(i)) * &s.var(Var::Acceleration(i)))
    })
}

//! Structure-preserving fixed-step methods for conservative systems, on the canonical
//! variables `(q, p)` and solved by Newton's method with the generated Jacobians
//! `M = ∂p/∂q̇`, `∂p/∂q` and `∂²L/∂q∂q`.
//!
//! - Gauss–Legendre collocation with `s` stages (order `2s`, symplectic), applied to
//!   `q̇ = ∂H/∂p`, `ṗ = −∂H/∂q` with the stage velocities `Vᵢ` as unknowns: the stage
//!   positions are `Qᵢ = q + h Σⱼ aᵢⱼ Vⱼ`, and `Vᵢ` solves
//!   `p(Qᵢ, Vᵢ) = p + h Σⱼ aᵢⱼ ∂L/∂q(Qⱼ, Vⱼ)`.
//! - The variational integrator of the midpoint discrete Lagrangian
//!   `L_d(a, b) = h L((a + b)/2, (b − a)/h)` (Thomson & Tait §§326–327, least action made
//!   discrete): the discrete Euler–Lagrange equations `p_k = −D₁L_d(q_k, q_{k+1})`,
//!   `p_{k+1} = D₂L_d(q_k, q_{k+1})`, solved for `q_{k+1}`. By discrete Noether, the
//!   momentum of a cyclic coordinate is conserved exactly (to round-off and the Newton
//!   tolerance).
//!
//! The action integrals, when a run carries them, follow each method's own quadrature:
//! the Gauss–Legendre weights at the stages, and for the variational integrator the
//! discrete Lagrangian itself, `S_{k+1} = S_k + L_d(q_k, q_{k+1})`.

use std::ops::ControlFlow;

use nalgebra::{DMatrix, DVector, DefaultAllocator, Dim, OVector, U1};

use super::{ActionIntegrals, FixedSteps, Rhs, State, Step};
use crate::error::Error;
use crate::size::DimAllocator;
use crate::solve::NEWTON_ITERATIONS;
use crate::solve::linalg;
use crate::system::LagrangianSystem;

/// A Butcher tableau of Gauss–Legendre collocation.
struct Tableau {
    a: Vec<Vec<f64>>,
    b: Vec<f64>,
    c: Vec<f64>,
}

fn gauss_legendre(stages: usize) -> Result<Tableau, Error> {
    let r3 = 3f64.sqrt();
    let r15 = 15f64.sqrt();
    Ok(match stages {
        1 => Tableau {
            a: vec![vec![0.5]],
            b: vec![1.0],
            c: vec![0.5],
        },
        2 => Tableau {
            a: vec![vec![0.25, 0.25 - r3 / 6.0], vec![0.25 + r3 / 6.0, 0.25]],
            b: vec![0.5, 0.5],
            c: vec![0.5 - r3 / 6.0, 0.5 + r3 / 6.0],
        },
        3 => Tableau {
            a: vec![
                vec![5.0 / 36.0, 2.0 / 9.0 - r15 / 15.0, 5.0 / 36.0 - r15 / 30.0],
                vec![5.0 / 36.0 + r15 / 24.0, 2.0 / 9.0, 5.0 / 36.0 - r15 / 24.0],
                vec![5.0 / 36.0 + r15 / 30.0, 2.0 / 9.0 + r15 / 15.0, 5.0 / 36.0],
            ],
            b: vec![5.0 / 18.0, 4.0 / 9.0, 5.0 / 18.0],
            c: vec![0.5 - r15 / 10.0, 0.5, 0.5 + r15 / 10.0],
        },
        s => {
            return Err(Error::InvalidInput(format!(
                "Gauss–Legendre takes 1, 2 or 3 stages, got {s}"
            )));
        }
    })
}

/// Newton's method: `update` applies one correction and returns its norm and the size
/// of the unknowns; it stops when the correction is at round-off, or has stopped
/// shrinking once it is tiny.
fn newton(t: f64, mut update: impl FnMut() -> Result<(f64, f64), Error>) -> Result<(), Error> {
    let mut previous = f64::INFINITY;
    for _ in 0..NEWTON_ITERATIONS {
        let (step, scale) = update()?;
        if !step.is_finite() {
            return Err(Error::NonFiniteState { t });
        }
        if step <= 1e-14 * scale || (step <= 1e-10 * scale && step >= previous) {
            return Ok(());
        }
        previous = step;
    }
    Err(Error::NoConvergence {
        t,
        iterations: NEWTON_ITERATIONS,
    })
}

/// One step of a one-step map on the canonical variables: `q_{k+1}`, `p_{k+1}`, and the
/// increment of the action integrals over the step.
type Advanced<N> = (OVector<f64, N>, OVector<f64, N>, ActionIntegrals);

/// Runs a one-step map `(t, t_next, q, q̇, p, carried) → (q_{k+1}, p_{k+1}, ΔA, ΔS)` on
/// the canonical variables over `steps` (the increments only where `carried` says the run
/// carries the action integrals), recording each step with a Hermite interpolant from the
/// accelerations at both ends. Needs a conservative model.
fn drive<S: LagrangianSystem<N>, N: Dim>(
    rhs: &mut Rhs<'_, S>,
    method: &str,
    steps: &FixedSteps,
    y0: State<N>,
    mut on_step: impl FnMut(&Step<N>) -> Result<ControlFlow<()>, Error>,
    mut advance: impl FnMut(
        &S,
        f64,
        f64,
        &State<N>,
        &OVector<f64, N>,
        bool,
    ) -> Result<Advanced<N>, Error>,
) -> Result<(), Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    let system = rhs.system;
    crate::system::variational(system.info(), &format!("the {method} integrator"))?;
    if !system.info().constraints.is_empty() {
        return Err(Error::InvalidInput(format!(
            "the {method} integrator does not handle holonomic constraints; use Rk4 or DormandPrince"
        )));
    }
    if system.info().forced_or_dissipative {
        return Err(Error::InvalidInput(format!(
            "the {method} integrator needs a conservative model (no generalized force, no dissipation)"
        )));
    }
    let mut y = y0;
    let mut p = system.momenta(steps.t0, &y.q, &y.qd);
    let mut f = rhs.eval(steps.t0, &y)?;
    let mut g = None;
    for (t, t_next) in steps.iter() {
        let (q1, p1, increment) = advance(system, t, t_next, &y, &p, rhs.action.is_some())?;
        let qd1 = system.velocities(t_next, &q1, &p1)?;
        let y1 = State::new(q1, qd1);
        let f1 = rhs.eval(t_next, &y1)?;
        let step = Step::new((t, y, f), (t_next, y1, f1), None);
        let (step, g1) =
            rhs.carry_action(step, g, |_, _, _| [increment, ActionIntegrals::default()]);
        if on_step(&step)?.is_break() {
            return Ok(());
        }
        [_, (y, f)] = step.into_ends();
        (p, g) = (p1, g1);
    }
    Ok(())
}

/// Gauss–Legendre with `stages` stages on the grid `steps`.
pub(super) fn gauss<S: LagrangianSystem<N>, N: Dim>(
    rhs: &mut Rhs<'_, S>,
    stages: usize,
    steps: &FixedSteps,
    y0: State<N>,
    on_step: impl FnMut(&Step<N>) -> Result<ControlFlow<()>, Error>,
) -> Result<(), Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    let tableau = gauss_legendre(stages)?;
    let s = stages;
    drive(
        rhs,
        "Gauss–Legendre",
        steps,
        y0,
        on_step,
        |system, t, t_next, y, p, carried| {
            let h = t_next - t;
            let (dim, n) = (y.q.shape_generic().0, y.q.len());
            let times: Vec<f64> = tableau.c.iter().map(|c| t + c * h).collect();
            let stage_q = |v: &[OVector<f64, N>], i: usize| {
                (0..s).fold(y.q.clone(), |acc, j| acc + &v[j] * (h * tableau.a[i][j]))
            };
            let mut v: Vec<OVector<f64, N>> = vec![y.qd.clone(); s];
            newton(t, || {
                let q: Vec<_> = (0..s).map(|i| stage_q(&v, i)).collect();
                // Each generated function once per stage.
                let mass: Vec<_> = (0..s)
                    .map(|i| system.mass_matrix(times[i], &q[i], &v[i]))
                    .collect();
                let pq: Vec<_> = (0..s)
                    .map(|i| system.momentum_jacobian(times[i], &q[i], &v[i]))
                    .collect();
                let hess: Vec<_> = (0..s)
                    .map(|i| system.lagrangian_hessian(times[i], &q[i], &v[i]))
                    .collect();
                let rate: Vec<_> = (0..s)
                    .map(|j| system.momentum_rate(times[j], &q[j], &v[j]))
                    .collect();
                let mut residual = DVector::zeros(s * n);
                let mut jacobian = DMatrix::zeros(s * n, s * n);
                for i in 0..s {
                    let g = (0..s).fold(system.momenta(times[i], &q[i], &v[i]) - p, |acc, j| {
                        acc - &rate[j] * (h * tableau.a[i][j])
                    });
                    residual.rows_mut(i * n, n).copy_from_slice(g.as_slice());
                    for l in 0..s {
                        let mut block = (&pq[i] - pq[l].transpose()) * (h * tableau.a[i][l]);
                        for (j, hj) in hess.iter().enumerate() {
                            block -= hj * (h * h * tableau.a[i][j] * tableau.a[j][l]);
                        }
                        if i == l {
                            block += &mass[i];
                        }
                        jacobian
                            .view_mut((i * n, l * n), (n, n))
                            .copy_from_slice(block.as_slice());
                    }
                }
                let delta = jacobian
                    .lu()
                    .solve(&residual)
                    .ok_or_else(|| Error::singular(t, y.q.as_slice(), y.qd.as_slice()))?;
                for (i, vi) in v.iter_mut().enumerate() {
                    *vi -= OVector::<f64, N>::from_iterator_generic(
                        dim,
                        U1,
                        delta.rows(i * n, n).iter().copied(),
                    );
                }
                Ok((
                    delta.norm(),
                    1.0 + v.iter().map(|x| x.norm()).fold(0.0, f64::max),
                ))
            })?;
            let q: Vec<_> = (0..s).map(|i| stage_q(&v, i)).collect();
            let q1 = (0..s).fold(y.q.clone(), |acc, j| acc + &v[j] * (h * tableau.b[j]));
            let p1 = (0..s).fold(p.clone(), |acc, j| {
                acc + system.momentum_rate(times[j], &q[j], &v[j]) * (h * tableau.b[j])
            });
            let increment =
                (0..s)
                    .filter(|_| carried)
                    .fold(ActionIntegrals::default(), |acc, j| {
                        acc + ActionIntegrals::rates(system, times[j], &q[j], &v[j])
                            * (h * tableau.b[j])
                    });
            Ok((q1, p1, increment))
        },
    )
}

/// The midpoint variational integrator on the grid `steps`.
pub(super) fn variational<S: LagrangianSystem<N>, N: Dim>(
    rhs: &mut Rhs<'_, S>,
    steps: &FixedSteps,
    y0: State<N>,
    on_step: impl FnMut(&Step<N>) -> Result<ControlFlow<()>, Error>,
) -> Result<(), Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    drive(
        rhs,
        "variational",
        steps,
        y0,
        on_step,
        |system, t, t_next, y, p, carried| {
            let h = t_next - t;
            let tm = t + 0.5 * h;
            // Unknown: the discrete velocity w, with q_{k+1} = q_k + h w and midpoint
            // m = q_k + h w / 2 (solving for w rather than q_{k+1} keeps the Newton system
            // scaled like M, not M / h, so the momenta stay conserved to round-off).
            let mut w = y.qd.clone();
            newton(t, || {
                let m = &y.q + &w * (0.5 * h);
                // D₁L_d(q_k, q_{k+1}) = h/2 ∂L/∂q − ∂L/∂q̇ at (m, w); the equation is p_k + D₁L_d = 0.
                let residual =
                    p + system.momentum_rate(tm, &m, &w) * (0.5 * h) - system.momenta(tm, &m, &w);
                // ∂/∂w with ∂m/∂w = h/2.
                let pq = system.momentum_jacobian(tm, &m, &w);
                let jacobian = system.lagrangian_hessian(tm, &m, &w) * (0.25 * h * h)
                    + (pq.transpose() - pq) * (0.5 * h)
                    - system.mass_matrix(tm, &m, &w);
                let delta = linalg::solve_general(jacobian, residual)
                    .ok_or_else(|| Error::singular(t, y.q.as_slice(), y.qd.as_slice()))?;
                w -= &delta;
                Ok((delta.norm(), 1.0 + w.norm()))
            })?;
            let m = &y.q + &w * (0.5 * h);
            // p_{k+1} = D₂L_d(q_k, q_{k+1}) = h/2 ∂L/∂q + ∂L/∂q̇ at (m, w).
            let p1 = system.momentum_rate(tm, &m, &w) * (0.5 * h) + system.momenta(tm, &m, &w);
            // S gains L_d(q_k, q_{k+1}) = h L(m, w), and A its partner h p(m, w)·w.
            let increment = if carried {
                ActionIntegrals::rates(system, tm, &m, &w) * h
            } else {
                ActionIntegrals::default()
            };
            Ok((&y.q + w * h, p1, increment))
        },
    )
}

#[cfg(test)]
mod tests {
    use crate::integrate::{Integrator, State};
    use crate::size::DimAllocator;
    use crate::test_systems::{Oscillator, Pendulum, PolarParticle};
    use nalgebra::{DefaultAllocator, Dim, U1, U2, Vector1, Vector2};

    /// Final (t, y) of a run.
    fn run<S: crate::LagrangianSystem<N>, N: Dim>(
        integrator: Integrator,
        system: &S,
        y0: &State<N>,
        t_end: f64,
        mut each: impl FnMut(&State<N>),
    ) -> State<N>
    where
        DefaultAllocator: DimAllocator<N>,
    {
        let mut last = y0.clone();
        integrator
            .run(system, 0.0, y0.clone(), t_end, 10_000_000, |s| {
                last = s.end().clone();
                each(&last);
            })
            .unwrap();
        last
    }

    /// ω = 2: x = cos 2t.
    fn oscillator_error(integrator: Integrator) -> f64 {
        let osc = Oscillator { m: 1.0, k: 4.0 };
        let y0 = State::new(Vector1::new(1.0), Vector1::new(0.0));
        let t = 2.0;
        let y = run(integrator, &osc, &y0, t, |_| {});
        (y.q[0] - (2.0 * t).cos()).abs() + (y.qd[0] + 2.0 * (2.0 * t).sin()).abs()
    }

    #[test]
    fn gauss_legendre_has_order_two_s() {
        for (stages, dt, expected) in [(1, 0.02, 4.0), (2, 0.05, 16.0), (3, 0.2, 64.0)] {
            let coarse = oscillator_error(Integrator::GaussLegendre { dt, stages });
            let fine = oscillator_error(Integrator::GaussLegendre {
                dt: dt / 2.0,
                stages,
            });
            let ratio = coarse / fine;
            assert!(
                (0.75 * expected..1.33 * expected).contains(&ratio),
                "{stages} stages: error ratio {ratio}, expected about {expected}"
            );
        }
    }

    #[test]
    fn the_variational_integrator_is_the_implicit_midpoint_rule() {
        // Two derivations of one method (discrete Euler–Lagrange in positions, and
        // one-stage collocation in velocities) must agree to round-off.
        let pendulum = Pendulum {
            m: 1.0,
            l: 1.0,
            g: 9.81,
        };
        let y0 = State::new(Vector1::new(2.0), Vector1::new(0.0));
        let a = run(
            Integrator::Variational { dt: 0.01 },
            &pendulum,
            &y0,
            5.0,
            |_| {},
        );
        let b = run(
            Integrator::GaussLegendre {
                dt: 0.01,
                stages: 1,
            },
            &pendulum,
            &y0,
            5.0,
            |_| {},
        );
        assert!(
            (a.q - b.q).norm() < 1e-11 && (a.qd - b.qd).norm() < 1e-11,
            "{a:?} vs {b:?}"
        );
    }

    #[test]
    fn energy_error_stays_bounded_while_rk4_drifts() {
        let pendulum = Pendulum {
            m: 1.0,
            l: 1.0,
            g: 9.81,
        };
        let y0 = State::new(Vector1::new(2.5), Vector1::new(0.0));
        let energy = |y: &State<U1>| {
            use crate::LagrangianSystem;
            pendulum.energy(0.0, &y.q, &y.qd)
        };
        let e0 = energy(&y0);
        let dt = 0.05;
        let worst = |integrator: Integrator, t_end: f64| {
            let mut worst = 0.0f64;
            run(integrator, &pendulum, &y0, t_end, |y| {
                worst = worst.max((energy(y) - e0).abs())
            });
            worst
        };
        for integrator in [
            Integrator::GaussLegendre { dt, stages: 2 },
            Integrator::Variational { dt },
        ] {
            // Bounded: ten times longer, no larger error.
            let (short, long) = (worst(integrator, 200.0), worst(integrator, 2000.0));
            assert!(
                long < 1.5 * short,
                "{integrator:?}: {short:e} then {long:e}"
            );
        }
        let (short, long) = (
            worst(Integrator::Rk4 { dt }, 200.0),
            worst(Integrator::Rk4 { dt }, 2000.0),
        );
        assert!(
            long > 5.0 * short,
            "RK4 should drift: {short:e} then {long:e}"
        );
    }

    #[test]
    fn cyclic_momentum_is_conserved_to_round_off() {
        let particle = PolarParticle { m: 1.5 };
        let y0 = State::new(Vector2::new(1.0, 0.0), Vector2::new(0.3, 0.8));
        let p_phi = |y: &State<U2>| particle.m * y.q[0] * y.q[0] * y.qd[1];
        let p0 = p_phi(&y0);
        let mut worst = 0.0f64;
        run(
            Integrator::Variational { dt: 0.01 },
            &particle,
            &y0,
            20.0,
            |y| worst = worst.max((p_phi(y) - p0).abs()),
        );
        assert!(worst < 1e-13, "p_phi drift {worst:e}");
    }
}

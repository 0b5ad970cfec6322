//! A found motion, with Hamilton's relations (Thomson & Tait §§329–330) computed from the
//! variational equations: the derivatives of `S` or `A` in the ends, the time and the
//! energy, obtained by differentiating through the boundary-value problem, beside what the
//! relations say they are.

use nalgebra::{DMatrix, DVector, DefaultAllocator, Dim, OVector, U1};

use super::flow::{Point, flow};
use super::foci::{AT_FOCUS, Foci};
use super::shoot::Guess;
use super::{Condition, Connect, Motion};
use crate::error::Error;
use crate::size::DimAllocator;
use crate::system::LagrangianSystem;

/// One of Hamilton's relations for a found motion.
#[derive(Debug, Clone, PartialEq)]
pub struct Relation {
    /// What was computed, e.g. `∂S/∂x₁` or `H(q₁, ∂S/∂q₁) + ∂S/∂τ`.
    pub derivative: String,
    /// What the relation says it equals, e.g. `p_x(τ)`, `−H`, `τ` or `0`.
    pub law: String,
    /// The value computed from the variational equations.
    pub computed: f64,
    /// The value of [`law`](Self::law) along the motion.
    pub expected: f64,
}

impl Relation {
    /// `computed − expected`.
    pub fn difference(&self) -> f64 {
        self.computed - self.expected
    }
}

/// Below this smallest singular value of the scaled Jacobian of the ends (see
/// [`solve_transposed`]), the end point counts as a kinetic focus of the start.
const FOCUS_TOLERANCE: f64 = 1e-8;

/// `Bᵀ g = r`, where `B` is the Jacobian of the end conditions in the unknowns; `scaled`
/// is `B` made dimensionless (`∂q/∂q̇₀` over the time, the bordering vectors as unit
/// vectors). Errors when the end point is a kinetic focus of the start.
fn solve_transposed(
    b: DMatrix<f64>,
    scaled: DMatrix<f64>,
    r: DVector<f64>,
) -> Result<DVector<f64>, Error> {
    let focus = || {
        Error::NoMotion(format!(
            "the end point is a {AT_FOCUS}: the motions from q₀ meet there again, so the ends do not determine the motion and Hamilton's functions have no derivatives there"
        ))
    };
    let smallest = scaled.singular_values().min();
    if smallest.is_nan() || smallest <= FOCUS_TOLERANCE {
        return Err(focus());
    }
    b.transpose().lu().solve(&r).ok_or_else(focus)
}

/// The motion of the solution `fine`, found with `steps` steps and confirmed by its
/// change `accuracy` from half as many, with its relations and foci; an error when a
/// number of it is not finite.
pub(super) fn motion<S: LagrangianSystem<N>, N: Dim>(
    c: &Connect<'_, S, N>,
    fine: Guess<N>,
    accuracy: f64,
    steps: usize,
) -> Result<Motion<N>, Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    let system = c.system;
    let (t0, q0, v) = (c.t0, c.from.clone(), fine.velocity.clone());
    let (n, dim) = (q0.len(), q0.shape_generic().0);
    // ∂h/∂q̇₀ = M q̇₀ and ∂h/∂q₀ = (∂p/∂q)ᵀ q̇₀ − ∂L/∂q, h = p·q̇ − L.
    let h_v = system.mass_matrix(t0, &q0, &v) * &v;
    let h_q =
        system.momentum_jacobian(t0, &q0, &v).transpose() * &v - system.momentum_rate(t0, &q0, &v);
    let start = Point::start(t0, q0.clone(), v.clone());
    let mut foci = Foci::new(system, c.condition, &start, &h_v, fine.time);
    let mut path = vec![(t0, q0.clone(), v.clone())];
    let end = flow(system, start, fine.time, steps, |_, after| {
        path.push((after.t, after.q.clone(), after.qd.clone()));
        foci.visit(after)
    })?;
    let tau = end.t;
    let (q1, v1) = (end.q, end.qd);
    let p0 = system.momenta(t0, &q0, &v);
    let p1 = system.momenta(tau, &q1, &v1);
    let h1 = system.jacobi_integral(tau, &q1, &v1);
    let names = &system.info().coordinates;
    let mut relations = Vec::new();
    let phi_v = DMatrix::from_column_slice(n, n, end.q_v.as_slice());
    match c.condition {
        Condition::Time(_) => {
            // S(q₀, q₁, τ) through q̇₀(q₀, q₁, τ): Φ_v dq̇₀ = dq₁ − Φ_q dq₀ − q̇₁ dτ.
            let scaled = &phi_v / (tau - t0);
            let r = DVector::from_column_slice(end.s_v.as_slice());
            let g = solve_transposed(phi_v, scaled, r)?;
            let g = OVector::<f64, N>::from_column_slice_generic(dim, U1, g.as_slice());
            let by_start = end.s_q - end.q_q.transpose() * &g;
            let by_time = system.lagrangian(tau, &q1, &v1) - g.dot(&v1);
            relations.extend(end_relations("S", names, [&p0, &p1], &g, &by_start));
            relations.push(Relation {
                derivative: "∂S/∂τ".into(),
                law: "−H".into(),
                computed: by_time,
                expected: -h1,
            });
            let h = system.jacobi_integral(tau, &q1, &system.velocities(tau, &q1, &g)?);
            relations.push(Relation {
                derivative: "H(q(τ), ∂S/∂q(τ)) + ∂S/∂τ".into(),
                law: "0".into(),
                computed: h + by_time,
                expected: 0.0,
            });
        }
        Condition::Energy(e) => {
            // A(q₀, q₁, E) through (q̇₀, τ): B (dq̇₀, dτ) = (dq₁ − Φ_q dq₀, dE − ∂h/∂q₀ dq₀),
            // B = [[Φ_v, q̇₁], [∂h/∂q̇₀ᵀ, 0]].
            let mut b = DMatrix::zeros(n + 1, n + 1);
            b.view_mut((0, 0), (n, n)).copy_from(&phi_v);
            b.view_mut((0, n), (n, 1)).copy_from_slice(v1.as_slice());
            b.view_mut((n, 0), (1, n)).copy_from_slice(h_v.as_slice());
            let rate = system.momenta(tau, &q1, &v1).dot(&v1);
            let r = DVector::from_iterator(n + 1, end.a_v.iter().copied().chain([rate]));
            let mut scaled = b.clone();
            scaled.view_mut((0, 0), (n, n)).scale_mut(1.0 / (tau - t0));
            scaled
                .view_mut((0, n), (n, 1))
                .scale_mut(1.0 / v1.norm().max(f64::MIN_POSITIVE));
            scaled
                .view_mut((n, 0), (1, n))
                .scale_mut(1.0 / h_v.norm().max(f64::MIN_POSITIVE));
            let g = solve_transposed(b, scaled, r)?;
            let by_end = OVector::<f64, N>::from_column_slice_generic(dim, U1, &g.as_slice()[..n]);
            let by_energy = g[n];
            let by_start = end.a_q - end.q_q.transpose() * &by_end - h_q * by_energy;
            relations.extend(end_relations("A", names, [&p0, &p1], &by_end, &by_start));
            relations.push(Relation {
                derivative: "∂A/∂E".into(),
                law: "τ".into(),
                computed: by_energy,
                expected: tau - t0,
            });
            let h = system.jacobi_integral(tau, &q1, &system.velocities(tau, &q1, &by_end)?);
            relations.push(Relation {
                derivative: "H(q(τ), ∂A/∂q(τ)) − E".into(),
                law: "0".into(),
                computed: h - e,
                expected: 0.0,
            });
        }
    }
    let energy = system.jacobi_integral(t0, &q0, &v);
    if !all_finite([energy, end.s, end.a], [&v1, &p0, &p1], &relations) {
        return Err(Error::NoMotion(format!(
            "the solution with q̇₀ = {:?} has numbers that are not finite (its energy {energy}, S = {}, A = {}): it is no motion double precision can state",
            v.as_slice(),
            end.s,
            end.a
        )));
    }
    Ok(Motion {
        initial_velocity: v,
        final_velocity: v1,
        time: tau - t0,
        energy,
        principal: end.s,
        action: end.a,
        initial_momenta: p0,
        final_momenta: p1,
        relations,
        foci: foci.before(tau),
        accuracy,
        path,
    })
}

/// Hamilton's relations at the ends for his function `f` (`S` or `A`): its derivatives
/// `by_end` in the coordinates at the end, equal to the momenta there, then `by_start`
/// in those at the start, equal to minus the momenta there (`[p0, p1]`).
fn end_relations<N: Dim>(
    f: &str,
    names: &[impl std::fmt::Display],
    [p0, p1]: [&OVector<f64, N>; 2],
    by_end: &OVector<f64, N>,
    by_start: &OVector<f64, N>,
) -> Vec<Relation>
where
    DefaultAllocator: DimAllocator<N>,
{
    let n = p0.len();
    let mut relations = Vec::new();
    for i in 0..n {
        let q = &names[i];
        relations.push(Relation {
            derivative: format!("∂{f}/∂{q}(τ)"),
            law: format!("p_{q}(τ)"),
            computed: by_end[i],
            expected: p1[i],
        });
    }
    for i in 0..n {
        let q = &names[i];
        relations.push(Relation {
            derivative: format!("∂{f}/∂{q}(0)"),
            law: format!("−p_{q}(0)"),
            computed: by_start[i],
            expected: -p0[i],
        });
    }
    relations
}

/// Whether every number of a found motion is finite: the `scalars`, the entries of `v1`,
/// `p0` and `p1`, and both sides of the `relations`, in that order.
fn all_finite<N: Dim>(
    scalars: [f64; 3],
    [v1, p0, p1]: [&OVector<f64, N>; 3],
    relations: &[Relation],
) -> bool
where
    DefaultAllocator: DimAllocator<N>,
{
    scalars
        .into_iter()
        .chain(v1.iter().chain(p0.iter()).chain(p1.iter()).copied())
        .chain(relations.iter().flat_map(|r| [r.computed, r.expected]))
        .all(f64::is_finite)
}

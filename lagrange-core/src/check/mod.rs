//! Checking derived equations of motion against reference equations, e.g. from a textbook.
//!
//! The reference is given in residual form `r(t, q, q̇, q̈) = 0`, any number of equations.
//! At random states the system's accelerations `q̈*` are substituted and each residual is
//! compared with its own size: `r` is affine in `q̈`, `r = A q̈ − b`, so with
//! `scale = |r(q̈ = 0)| + |r(2q̈*) − r(q̈*)| + Σₖ |r(q̈* + eₖ) − r(q̈*)| = |b| + |A q̈*| + Σₖ |Aᵢₖ|`
//! the relative residual is `|r(q̈*)| / scale` (the absolute residual where
//! `scale < 1e-12`). The last term, the equation's inertia coefficients at unit
//! acceleration, keeps the measure meaningful at nearly static states, where `b` and
//! `A q̈*` both nearly vanish and round-off would dominate. This is invariant under
//! rescaling the equations, so the reference may be any rescaling or recombination of the
//! derived ones.
//!
//! A reference that does not involve the accelerations checks nothing (`0 = 0`, or
//! `ddot(y) − ddot(y)`, has residual 0 at every state). So the rows `Aᵢ = ∂rᵢ/∂q̈`, taken
//! numerically from the same probes at each sampled state, must have full rank together
//! (rank `min(m, N)` for `m` equations; more equations than coordinates may then
//! recombine each other): an equation whose row is zero, or, short of full rank, a
//! combination of the earlier rows, at every sampled state is listed in
//! [`CheckReport::uninformative`]. (A residual may still be an auxiliary identity, such as
//! two energies that must agree; the `lagrange check` command refuses such equations.)

use std::ops::Range;

use lagrange_common::SplitMix64;
use nalgebra::{DefaultAllocator, Dim, OVector, U1};

use crate::error::Error;
use crate::size::DimAllocator;
use crate::system::{FromParameterValues, LagrangianSystem};

mod outcome;

pub use outcome::{CheckReport, EquationReport, Witness};

/// A state at which the residuals are evaluated.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample<N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// Time.
    pub t: f64,
    /// Generalized coordinates.
    pub q: OVector<f64, N>,
    /// Generalized velocities.
    pub qd: OVector<f64, N>,
    /// Accelerations to substitute (the system's, or the probes `0` and `2q̈*`).
    pub qdd: OVector<f64, N>,
}

/// Settings of a check: how many random states, drawn from which ranges.
///
/// Defaults: 200 samples, `q ∈ [-1.5, 1.5)`, `q̇ ∈ [-2, 2)`, `t ∈ [0, 3)`, parameters in
/// `[0.5, 2)`, a fixed seed. A range with `start == end` pins the value.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    samples: usize,
    seed: u64,
    time: Range<f64>,
    coordinates: Range<f64>,
    velocities: Range<f64>,
    parameters: Range<f64>,
    coordinate: Vec<(String, Range<f64>)>,
    velocity: Vec<(String, Range<f64>)>,
    parameter: Vec<(String, Range<f64>)>,
}

impl Default for Check {
    fn default() -> Self {
        Check {
            samples: 200,
            seed: 0x1a91_a96e_5eed_0001,
            time: 0.0..3.0,
            coordinates: -1.5..1.5,
            velocities: -2.0..2.0,
            parameters: 0.5..2.0,
            coordinate: Vec::new(),
            velocity: Vec::new(),
            parameter: Vec::new(),
        }
    }
}

impl Check {
    /// A check with the default settings.
    pub fn new() -> Self {
        Check::default()
    }

    /// Draws coordinate `name` from `range` (an unknown name is an error at [`run`](Self::run)).
    pub fn coordinate(mut self, name: &str, range: Range<f64>) -> Self {
        self.coordinate.push((name.to_string(), range));
        self
    }

    /// Draws the velocity of coordinate `name` from `range`.
    pub fn velocity(mut self, name: &str, range: Range<f64>) -> Self {
        self.velocity.push((name.to_string(), range));
        self
    }

    /// Draws parameter `name` from `range`.
    pub fn parameter(mut self, name: &str, range: Range<f64>) -> Self {
        self.parameter.push((name.to_string(), range));
        self
    }

    /// Draws every coordinate not named by [`coordinate`](Self::coordinate) from `range`.
    pub fn all_coordinates(mut self, range: Range<f64>) -> Self {
        self.coordinates = range;
        self
    }

    /// Draws every velocity not named by [`velocity`](Self::velocity) from `range`.
    pub fn all_velocities(mut self, range: Range<f64>) -> Self {
        self.velocities = range;
        self
    }

    /// Draws every parameter not named by [`parameter`](Self::parameter) from `range`.
    pub fn all_parameters(mut self, range: Range<f64>) -> Self {
        self.parameters = range;
        self
    }

    /// Draws the time from `range`.
    pub fn time(mut self, range: Range<f64>) -> Self {
        self.time = range;
        self
    }

    /// Number of random states.
    pub fn samples(mut self, samples: usize) -> Self {
        self.samples = samples;
        self
    }

    /// Seed of the random states.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Evaluates `residuals` of the reference equations at random states of the derived
    /// system `S` (see [`run_on`](Self::run_on)).
    pub fn run<S, N: Dim>(
        &self,
        residuals: impl FnMut(&S, &Sample<N>) -> Vec<f64>,
    ) -> Result<CheckReport, Error>
    where
        S: FromParameterValues<N>,
        DefaultAllocator: DimAllocator<N>,
    {
        let prototype = S::from_parameter_values(&vec![1.0; S::PARAMETER_COUNT])?;
        self.run_on(&prototype, residuals)
    }

    /// Evaluates `residuals` of the reference equations at random states of systems like
    /// `prototype` (its names, with parameter values drawn from the ranges).
    ///
    /// States where the system's accelerations fail (a singular mass matrix) are skipped and
    /// counted. Errors with [`Error::InvalidInput`] for unknown names, bad ranges, no samples
    /// or residual vectors of changing or zero length, with the error of
    /// [`with_parameter_values`](LagrangianSystem::with_parameter_values), and with
    /// [`Error::CheckFailed`] when every state is skipped.
    pub fn run_on<S, N: Dim>(
        &self,
        prototype: &S,
        mut residuals: impl FnMut(&S, &Sample<N>) -> Vec<f64>,
    ) -> Result<CheckReport, Error>
    where
        S: LagrangianSystem<N>,
        DefaultAllocator: DimAllocator<N>,
    {
        if self.samples == 0 {
            return Err(Error::InvalidInput(
                "a check needs at least one sample".into(),
            ));
        }
        let info = prototype.info();
        let n = prototype.dimension();
        let coordinates: Vec<&str> = info.coordinates.iter().map(|c| c.as_ref()).collect();
        let parameters: Vec<&str> = info.parameters.iter().map(|p| p.as_ref()).collect();
        let q_ranges = resolve(
            "coordinate",
            &coordinates,
            &self.coordinates,
            &self.coordinate,
        )?;
        let qd_ranges = resolve("velocity", &coordinates, &self.velocities, &self.velocity)?;
        let p_ranges = resolve("parameter", &parameters, &self.parameters, &self.parameter)?;
        check_range("time", &self.time)?;

        let mut rng = SplitMix64::new(self.seed);
        let mut equations: Vec<EquationReport> = Vec::new();
        // Whether each equation added a direction to `∂r/∂q̈` at some sampled state.
        let mut informative: Vec<bool> = Vec::new();
        let (mut evaluated, mut skipped) = (0, 0);
        for index in 0..self.samples {
            let values: Vec<f64> = p_ranges.iter().map(|r| rng.uniform(r)).collect();
            let system = prototype.with_parameter_values(&values)?;
            let t = rng.uniform(&self.time);
            let q = OVector::from_fn_generic(n, U1, |i, _| rng.uniform(&q_ranges[i]));
            let qd = OVector::from_fn_generic(n, U1, |i, _| rng.uniform(&qd_ranges[i]));
            let Ok(qdd) = system.accelerations(t, &q, &qd) else {
                skipped += 1;
                continue;
            };
            let sample = Sample { t, q, qd, qdd };
            let Probes { r, r0, r2, probes } = probe(&mut residuals, &system, &sample, n);
            let m = r.len();
            if m == 0
                || r0.len() != m
                || r2.len() != m
                || probes.iter().any(|p| p.len() != m)
                || !(equations.is_empty() || equations.len() == m)
            {
                return Err(Error::InvalidInput(format!(
                    "the residual function must return the same nonzero number of residuals \
                     at every state (got {}, {} and {} at sample {index})",
                    r.len(),
                    r0.len(),
                    r2.len()
                )));
            }
            evaluated += 1;
            let rows: Vec<Vec<f64>> = (0..m)
                .map(|i| probes.iter().map(|p| p[i] - r[i]).collect())
                .collect();
            let scales: Vec<f64> = (0..m).map(|i| r0[i].abs() + r[i].abs()).collect();
            informative.resize(m, false);
            let (independent, nonzero) = independent_rows(&rows, &scales);
            // Full rank: more equations than coordinates may recombine each other.
            let full = independent.len() == m.min(n.value());
            for i in if full { nonzero } else { independent } {
                informative[i] = true;
            }
            let witness = || Witness {
                sample: index,
                t,
                q: sample.q.as_slice().to_vec(),
                qd: sample.qd.as_slice().to_vec(),
                qdd: sample.qdd.as_slice().to_vec(),
                parameters: values.clone(),
            };
            record_worst(&mut equations, &rows, [&r, &r0, &r2], witness);
        }
        if evaluated == 0 {
            return Err(Error::CheckFailed(format!(
                "the accelerations failed at all {skipped} sampled states"
            )));
        }
        Ok(CheckReport {
            worst: equations.iter().map(|e| e.worst).fold(0.0, f64::max),
            uninformative: (0..informative.len())
                .filter(|&i| !informative[i])
                .collect(),
            equations,
            evaluated,
            skipped,
            coordinates: coordinates.iter().map(|c| c.to_string()).collect(),
            parameters: parameters.iter().map(|p| p.to_string()).collect(),
        })
    }
}

/// The residuals at one sampled state: at its accelerations `q̈`, at `0`, at `2q̈`, and at
/// `q̈` plus each unit vector in turn.
struct Probes {
    r: Vec<f64>,
    r0: Vec<f64>,
    r2: Vec<f64>,
    probes: Vec<Vec<f64>>,
}

/// Evaluates `residuals` of `system` at `sample` and at the accelerations [`Probes`]
/// holds, in that order; `n` is the number of coordinates.
fn probe<S, N: Dim>(
    residuals: &mut impl FnMut(&S, &Sample<N>) -> Vec<f64>,
    system: &S,
    sample: &Sample<N>,
    n: N,
) -> Probes
where
    DefaultAllocator: DimAllocator<N>,
{
    let r = residuals(system, sample);
    let r0 = residuals(
        system,
        &Sample {
            qdd: OVector::zeros_generic(n, U1),
            ..sample.clone()
        },
    );
    let r2 = residuals(
        system,
        &Sample {
            qdd: &sample.qdd * 2.0,
            ..sample.clone()
        },
    );
    // The coefficients |A_ik| of each acceleration, from unit probes.
    let probes: Vec<Vec<f64>> = (0..n.value())
        .map(|k| {
            let mut unit = sample.qdd.clone();
            unit[k] += 1.0;
            residuals(
                system,
                &Sample {
                    qdd: unit,
                    ..sample.clone()
                },
            )
        })
        .collect();
    Probes { r, r0, r2, probes }
}

/// Records in `equations` (one report per equation) the relative residual of each
/// equation at a sampled state where its residuals are `r`, `r0` and `r2` (at `q̈`, `0`,
/// `2q̈`) and its rows of `∂r/∂q̈` are `rows`, with the state from `witness` where it is
/// the worst so far.
fn record_worst(
    equations: &mut Vec<EquationReport>,
    rows: &[Vec<f64>],
    [r, r0, r2]: [&[f64]; 3],
    witness: impl Fn() -> Witness,
) {
    for i in 0..r.len() {
        let inertia: f64 = rows[i].iter().map(|a| a.abs()).sum();
        let rel = relative_residual(r[i], r0[i], r2[i], inertia);
        match equations.get_mut(i) {
            None => equations.push(EquationReport {
                worst: rel,
                at: witness(),
            }),
            Some(eq) if rel > eq.worst => {
                eq.worst = rel;
                eq.at = witness();
            }
            Some(_) => {}
        }
    }
}

/// The rows of `∂r/∂q̈` (one per equation) that add a direction to the rows before them,
/// by Gram–Schmidt in order, and the rows that are not zero. A row counts as zero below
/// `1e-10` of its equation's size `scales[i]` (round-off of the probes), and as dependent
/// when less than `1e-8` of it is left after projecting out the earlier directions.
fn independent_rows(rows: &[Vec<f64>], scales: &[f64]) -> (Vec<usize>, Vec<usize>) {
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    let mut basis: Vec<Vec<f64>> = Vec::new();
    let (mut independent, mut nonzero) = (Vec::new(), Vec::new());
    for (i, row) in rows.iter().enumerate() {
        let size = norm(row);
        if size.is_nan() || size == 0.0 || size <= 1e-10 * scales[i] {
            continue;
        }
        nonzero.push(i);
        let mut rest = row.clone();
        for b in &basis {
            let along: f64 = rest.iter().zip(b).map(|(x, y)| x * y).sum();
            rest.iter_mut().zip(b).for_each(|(x, y)| *x -= along * y);
        }
        let left = norm(&rest);
        if left > 1e-8 * size {
            basis.push(rest.iter().map(|x| x / left).collect());
            independent.push(i);
        }
    }
    (independent, nonzero)
}

/// `|r| / (|r0| + |r2 − r| + inertia)`, or `|r|` when that scale is below `1e-12`; NaN
/// becomes `∞`.
fn relative_residual(r: f64, r0: f64, r2: f64, inertia: f64) -> f64 {
    let scale = r0.abs() + (r2 - r).abs() + inertia;
    let rel = if scale < 1e-12 {
        r.abs()
    } else {
        r.abs() / scale
    };
    if rel.is_nan() { f64::INFINITY } else { rel }
}

fn check_range(what: &str, range: &Range<f64>) -> Result<(), Error> {
    if range.start.is_finite() && range.end.is_finite() && range.start <= range.end {
        Ok(())
    } else {
        Err(Error::InvalidInput(format!(
            "the range of {what} must be finite and increasing, got {range:?}"
        )))
    }
}

/// The range of each of `names`: the last one given by name, else `default`.
fn resolve(
    kind: &str,
    names: &[&str],
    default: &Range<f64>,
    given: &[(String, Range<f64>)],
) -> Result<Vec<Range<f64>>, Error> {
    if let Some((unknown, _)) = given.iter().find(|(n, _)| !names.contains(&n.as_str())) {
        return Err(Error::InvalidInput(format!(
            "unknown {kind} `{unknown}` (known: {names:?})"
        )));
    }
    names
        .iter()
        .map(|name| {
            let range = given
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map_or(default, |(_, r)| r);
            check_range(&format!("{kind} `{name}`"), range)?;
            Ok(range.clone())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use nalgebra::U2;

    use super::*;
    use crate::test_systems::{Oscillator, Pendulum, PolarParticle};

    /// `l θ̈ + g sin θ = 0`: the pendulum's equation divided by `m l`.
    fn pendulum(sys: &Pendulum, s: &Sample<U1>) -> Vec<f64> {
        vec![sys.l * s.qdd[0] + sys.g * s.q[0].sin()]
    }

    #[test]
    fn correct_reference_passes() {
        let report = Check::new()
            .coordinate("theta", 0.3..2.8)
            .velocity("theta", -1.0..1.0)
            .parameter("m", 1.0..3.0)
            .time(0.0..5.0)
            .samples(500)
            .run::<Pendulum, U1>(pendulum)
            .unwrap();
        assert_eq!((report.evaluated, report.skipped), (500, 0));
        assert_eq!(report.equations.len(), 1);
        assert!(report.worst < 1e-14, "{report}");
        report.assert_below(1e-12).unwrap();
    }

    #[test]
    fn wrong_sign_fails() {
        let report = Check::new()
            .run::<Pendulum, U1>(|sys, s| vec![sys.l * s.qdd[0] - sys.g * s.q[0].sin()])
            .unwrap();
        // r = l θ̈* − g sin θ = −2 g sin θ against a scale of 2 |g sin θ| + l.
        assert!(report.worst > 0.5, "{report}");
        let Err(Error::CheckFailed(msg)) = report.assert_below(1e-9) else {
            panic!("a wrong equation must fail");
        };
        assert!(
            msg.contains("residuals[0]") && msg.contains("theta = "),
            "{msg}"
        );
    }

    #[test]
    fn rescaled_and_recombined_references_pass() {
        // r̈ − r φ̇² = 0 and r φ̈ + 2 ṙ φ̇ = 0, then their sum and difference.
        let report = Check::new()
            .coordinate("r", 0.5..2.0)
            .run::<PolarParticle, U2>(|_, s| {
                let (r, rd, phid) = (s.q[0], s.qd[0], s.qd[1]);
                let e1 = s.qdd[0] - r * phid * phid;
                let e2 = r * s.qdd[1] + 2.0 * rd * phid;
                vec![e1, e2, e1 + e2, 3.0 * e1 - e2]
            })
            .unwrap();
        assert_eq!(report.equations.len(), 4);
        report.assert_below(1e-12).unwrap();
    }

    #[test]
    fn one_wrong_equation_among_several_is_named() {
        let report = Check::new()
            .coordinate("r", 0.5..2.0)
            .run::<PolarParticle, U2>(|_, s| {
                let (r, rd, phid) = (s.q[0], s.qd[0], s.qd[1]);
                vec![s.qdd[0] - r * phid * phid, r * s.qdd[1] + rd * phid]
            })
            .unwrap();
        assert!(report.equations[0].worst < 1e-12);
        assert!(report.equations[1].worst > 1e-3);
        let err = report.assert_below(1e-9).unwrap_err().to_string();
        assert!(err.contains("residuals[1]"), "{err}");
    }

    #[test]
    fn states_at_rest_are_measured_against_the_inertia() {
        // At x = ẋ = 0 the oscillator is at rest: both sides of m ẍ + k x = 0 vanish.
        let rest = Check::new()
            .coordinate("x", 0.0..0.0)
            .velocity("x", 0.0..0.0);
        let report = rest
            .run::<Oscillator, U1>(|sys, s| vec![sys.m * s.qdd[0] + sys.k * s.q[0]])
            .unwrap();
        assert_eq!(report.worst, 0.0);
        // A spurious constant is measured against the inertia coefficient m ∈ [0.5, 2).
        let report = rest
            .run::<Oscillator, U1>(|sys, s| vec![sys.m * s.qdd[0] + sys.k * s.q[0] + 1e-3])
            .unwrap();
        assert!(
            report.worst > 1e-3 / 2.1 && report.worst < 1e-3 / 0.5,
            "{report}"
        );
    }

    #[test]
    fn samples_follow_the_ranges_and_the_seed() {
        let mut seen = Vec::new();
        Check::new()
            .coordinate("theta", 0.3..2.8)
            .velocity("theta", -1.0..1.0)
            .parameter("m", 1.0..3.0)
            .time(4.0..5.0)
            .samples(50)
            .run::<Pendulum, U1>(|sys, s| {
                seen.push((sys.m, sys.l, s.t, s.q[0], s.qd[0]));
                pendulum(sys, s)
            })
            .unwrap();
        // Residuals at q̈*, 0, 2q̈* and one unit probe per coordinate: four per sample.
        assert_eq!(seen.len(), 200);
        for &(m, l, t, q, qd) in &seen {
            assert!((1.0..3.0).contains(&m) && (0.5..2.0).contains(&l));
            assert!((4.0..5.0).contains(&t) && (0.3..2.8).contains(&q));
            assert!((-1.0..1.0).contains(&qd));
        }
        let worst = |seed| {
            Check::new()
                .seed(seed)
                .run::<Pendulum, U1>(|sys, s| vec![s.qdd[0] + sys.g * s.q[0].sin()])
                .unwrap()
                .worst
        };
        assert_eq!(worst(7), worst(7));
        assert_ne!(worst(7), worst(8));
    }

    #[test]
    fn singular_states_are_skipped() {
        // At r = 0 the polar mass matrix diag(m, m r²) is singular.
        let result = Check::new()
            .coordinate("r", 0.0..0.0)
            .run::<PolarParticle, U2>(|_, s| vec![s.qdd[0]]);
        assert!(matches!(result, Err(Error::CheckFailed(_))), "{result:?}");
    }

    #[test]
    fn bad_settings_are_rejected() {
        let residual = |sys: &Pendulum, s: &Sample<U1>| pendulum(sys, s);
        let cases = [
            Check::new().coordinate("phi", 0.0..1.0),
            Check::new().velocity("x", 0.0..1.0),
            Check::new().parameter("k", 0.0..1.0),
            Check::new().samples(0),
            Check::new().time(1.0..0.0),
            Check::new().all_coordinates(f64::NAN..1.0),
            Check::new().all_parameters(0.0..f64::INFINITY),
            Check::new().all_velocities(2.0..1.0),
        ];
        for check in cases {
            let result = check.run::<Pendulum, U1>(residual);
            assert!(matches!(result, Err(Error::InvalidInput(_))), "{check:?}");
        }
        let mut calls = 0;
        let result = Check::new().run::<Pendulum, U1>(|_, _| {
            calls += 1;
            vec![0.0; 1 + calls / 3]
        });
        assert!(matches!(result, Err(Error::InvalidInput(_))));
        let empty = Check::new().run::<Pendulum, U1>(|_, _| Vec::new());
        assert!(matches!(empty, Err(Error::InvalidInput(_))));
        let report = Check::new().run::<Pendulum, U1>(pendulum).unwrap();
        assert!(matches!(
            report.assert_below(f64::NAN),
            Err(Error::InvalidInput(_))
        ));
    }

    #[test]
    fn references_without_accelerations_are_named() {
        type Residuals = fn(&PolarParticle, &Sample<U2>) -> Vec<f64>;
        let cases: [(Residuals, Vec<usize>); 4] = [
            // `0 = 0` passes with residual 0 unless refused.
            (
                |_, s| vec![s.qdd[0] - s.q[0] * s.qd[1].powi(2), 0.0],
                vec![1],
            ),
            // Accelerations that cancel.
            (
                |_, s| vec![s.qdd[1] - s.qdd[1], s.qdd[0] - s.q[0] * s.qd[1].powi(2)],
                vec![0],
            ),
            // The same equation twice says nothing about the second coordinate.
            (
                |_, s| {
                    let radial = s.qdd[0] - s.q[0] * s.qd[1].powi(2);
                    vec![radial, 2.0 * radial]
                },
                vec![1],
            ),
            // Velocity terms alone.
            (
                |_, s| {
                    vec![
                        s.qdd[0] - s.q[0] * s.qd[1].powi(2),
                        s.qd[0] * s.qd[1] * 0.0 + s.q[0] - s.q[0],
                    ]
                },
                vec![1],
            ),
        ];
        for (residuals, expected) in cases {
            let report = Check::new()
                .coordinate("r", 0.5..2.0)
                .run::<PolarParticle, U2>(residuals)
                .unwrap();
            assert_eq!(report.uninformative, expected, "{report}");
        }
        // Both equations of motion, in any combination, pass.
        let report = Check::new()
            .coordinate("r", 0.5..2.0)
            .run::<PolarParticle, U2>(|_, s| {
                let radial = s.qdd[0] - s.q[0] * s.qd[1].powi(2);
                let angular = s.q[0] * s.qdd[1] + 2.0 * s.qd[0] * s.qd[1];
                vec![radial + angular, radial - angular]
            })
            .unwrap();
        assert!(report.uninformative.is_empty());
        report.assert_below(1e-12).unwrap();
    }
}

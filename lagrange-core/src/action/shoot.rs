//! Shooting: Newton's method on the initial velocity (and, at a given energy, the time),
//! from several starts, with the exact Jacobian of the end point from the variational
//! equations.

use nalgebra::{DMatrix, DVector, DefaultAllocator, Dim, OVector, U1};

use super::flow::{Point, flow};
use super::foci::AT_FOCUS;
use super::relations::motion;
use super::{
    ACCURACY, Condition, Connect, MAX_STEPS, Motion, RANGE, REFINEMENTS, SHOOTING_ITERATIONS,
    Search,
};
use crate::error::{Error, Short};
use crate::size::DimAllocator;
use crate::system::{Conserved, LagrangianSystem};

/// Steps of the motion along which a start's times of passage are guessed.
const APPROACH_STEPS: usize = 256;

/// The most times of passage one initial velocity gives at a given energy.
const PASSAGES: usize = 3;

/// The fewest steps of the first, coarse search from a start.
const ROUGH_STEPS: usize = 64;

/// How near, relatively, a start's coarse solution must be to a motion already found to
/// be taken for it: well above the coarse grid's error, well below the distance between
/// distinct motions.
const ROUGH_MATCH: f64 = 1e-4;

/// Halvings of a Newton step that does not reduce the residual.
const LINE_SEARCH: usize = 12;

/// The unknowns of the shooting: `q̇₀`, and the time for the energy condition.
#[derive(Debug, Clone)]
pub(super) struct Guess<N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    pub velocity: OVector<f64, N>,
    pub time: f64,
}

/// What the refinement of a start's solution came to.
enum Refined<N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// A motion, confirmed on `steps` steps: its change when they were doubled.
    Confirmed {
        fine: Guess<N>,
        accuracy: f64,
        steps: usize,
    },
    /// A solution of the integration that further steps did not confirm, and why.
    Unconfirmed(String),
}

pub(super) fn search<S: LagrangianSystem<N>, N: Dim>(
    c: &Connect<'_, S, N>,
) -> Result<Search<N>, Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    applies(c)?;
    let starts = match c.starts.is_empty() {
        true => default_starts(c)?,
        false => {
            let starts: Vec<Vec<Guess<N>>> = c
                .starts
                .iter()
                .map(|v| guess(c, v.clone()))
                .collect::<Result<_, _>>()?;
            starts.into_iter().flatten().collect()
        }
    };
    let mut motions: Vec<Motion<N>> = Vec::new();
    let mut failures: Vec<(usize, Error)> = Vec::new();
    let mut unconfirmed = Vec::new();
    // The coarse solutions sought further, so that two starts do not refine the same one.
    let mut sought: Vec<Guess<N>> = Vec::new();
    for (k, start) in starts.iter().enumerate() {
        // Newton's method first on a coarse grid, which is cheap where a start fails; a
        // start that lands on a motion already found stops there. Then on the steps asked
        // for and on twice as many, doubled until the change is within ACCURACY.
        let rough = (c.steps / 8).max(ROUGH_STEPS.min(c.steps));
        let near = |x: &Guess<N>, velocity: &OVector<f64, N>, time: f64, tolerance: f64| {
            (velocity - &x.velocity).norm() <= tolerance * (1.0 + x.velocity.norm())
                && (time - x.time).abs() <= tolerance * x.time
        };
        let found = |x: &Guess<N>, tolerance: f64| {
            let motion = |m: &Motion<N>| near(x, &m.initial_velocity, m.time, tolerance);
            motions.iter().any(motion)
        };
        let refined = converge(c, start.clone(), rough).and_then(|x| {
            // A coarse solution already sought from another start is not sought again.
            let before = |d: &Guess<N>| near(&x, &d.velocity, d.time, ROUGH_MATCH);
            if found(&x, ROUGH_MATCH) || sought.iter().any(before) {
                return Ok(None);
            }
            sought.push(x.clone());
            if in_no_time(c, &x) {
                return Err(Error::NoMotion(
                    "it reached the target in no time: the start is the target, and staying there is no motion".into(),
                ));
            }
            refine(c, x).map(Some)
        });
        match refined {
            Ok(None) => {}
            Ok(Some(Refined::Unconfirmed(why))) => {
                unconfirmed.push(format!(
                    "start {} (q̇₀ = {:?}): {why}",
                    k + 1,
                    start.velocity.as_slice()
                ));
            }
            Ok(Some(Refined::Confirmed {
                fine,
                accuracy,
                steps,
            })) => {
                if found(&fine, 1e-6) {
                    continue;
                }
                match motion(c, fine, accuracy, steps) {
                    Ok(m) => motions.push(m),
                    Err(e) => failures.push((k, e)),
                }
            }
            Err(e) => failures.push((k, e)),
        }
    }
    if motions.is_empty() {
        let between = format!(
            "from {:?} to {:?} {}",
            c.from.as_slice(),
            c.to.as_slice(),
            match c.condition {
                Condition::Time(tau) => format!("in time {tau:?}"),
                Condition::Energy(e) => format!("at energy {e:?}"),
            }
        );
        let tried: Vec<String> = failures
            .iter()
            .map(|(k, e)| {
                format!(
                    "start {} (q̇₀ = {:?}): {e}",
                    k + 1,
                    starts[*k].velocity.as_slice()
                )
            })
            .chain(unconfirmed)
            .collect();
        if !tried.is_empty() && tried.iter().all(|why| why.contains(AT_FOCUS)) {
            return Err(Error::NoMotion(format!(
                "no natural motion {between}: the end point is at or near a {AT_FOCUS}, where the motions from q₀ meet again, so there the ends do not determine one motion and the points beside it are out of reach"
            )));
        }
        return Err(Error::NoMotion(format!(
            "no natural motion {between} was found from {} start{}: {}",
            starts.len(),
            if starts.len() == 1 { "" } else { "s" },
            tried.join("; ")
        )));
    }
    let key = |m: &Motion<N>| match c.condition {
        Condition::Time(_) => m.principal,
        Condition::Energy(_) => m.action,
    };
    motions.sort_by(|a, b| key(a).total_cmp(&key(b)));
    Ok(Search {
        motions,
        unconfirmed,
    })
}

/// Whether a solution of the energy condition stays at the start: the path `|q̇₀| τ` is
/// below the configurations' round-off.
fn in_no_time<S, N: Dim>(c: &Connect<'_, S, N>, x: &Guess<N>) -> bool
where
    DefaultAllocator: DimAllocator<N>,
{
    let scale = 1.0 + c.from.norm() + c.to.norm();
    matches!(c.condition, Condition::Energy(_)) && x.velocity.norm() * x.time <= 1e-8 * scale
}

/// The solution from `x` on the steps asked for and on twice as many, the steps doubled
/// (at most [`REFINEMENTS`] times, within [`MAX_STEPS`], and only while the change at
/// least halves) until the two agree within [`ACCURACY`]: a motion confirmed, or a
/// solution of the integration that is none.
fn refine<S: LagrangianSystem<N>, N: Dim>(
    c: &Connect<'_, S, N>,
    x: Guess<N>,
) -> Result<Refined<N>, Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    let mut steps = c.steps;
    let mut coarse = converge(c, x, steps)?;
    let mut refinement = 0;
    let mut previous: Option<f64> = None;
    loop {
        let fine = converge(c, coarse.clone(), 2 * steps)
            .and_then(|fine| Ok((change(c, &fine, &coarse, 2 * steps)?, fine)));
        let (accuracy, fine) = match fine {
            Ok(pair) => pair,
            Err(e) => {
                return Ok(Refined::Unconfirmed(format!(
                    "a solution on {steps} steps (q̇₀ = {:?}) is lost on {}: {e}",
                    coarse.velocity.as_slice(),
                    2 * steps
                )));
            }
        };
        if accuracy <= ACCURACY {
            return Ok(Refined::Confirmed {
                fine,
                accuracy,
                steps: 2 * steps,
            });
        }
        // Fourth-order steps divide the change by about 16 each time they are doubled; a
        // change that does not even halve belongs to no solution the steps converge to.
        let converging = previous.is_none_or(|p| accuracy <= 0.5 * p);
        if refinement == REFINEMENTS || 4 * steps > MAX_STEPS || !converging {
            return Ok(Refined::Unconfirmed(format!(
                "a solution (q̇₀ = {:?}) still changes by {accuracy:.1e} (relative) when its {} steps are doubled, more than the {ACCURACY:.0e} a motion is reported within: not confirmed as a motion",
                fine.velocity.as_slice(),
                steps
            )));
        }
        (coarse, steps, refinement) = (fine, 2 * steps, refinement + 1);
        previous = Some(accuracy);
    }
}

/// The change in a solution's `(q̇₀, S, A, τ)` between `coarse` on `steps / 2` steps and
/// `fine` on `steps`, relative to their size: the estimate of the integration's error.
fn change<S: LagrangianSystem<N>, N: Dim>(
    c: &Connect<'_, S, N>,
    fine: &Guess<N>,
    coarse: &Guess<N>,
    steps: usize,
) -> Result<f64, Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    let end = |x: &Guess<N>, steps: usize| {
        let start = Point::start(c.t0, c.from.clone(), x.velocity.clone());
        flow(c.system, start, x.time, steps, |_, _| Ok(()))
    };
    let (f, k) = (end(fine, steps)?, end(coarse, steps / 2)?);
    // Each change relative to its size; the actions' to the larger action, since `S`
    // may vanish where `A` does not.
    let relative = |change: f64, size: f64| change / size.max(f64::MIN_POSITIVE);
    let actions = f.s.abs().max(f.a.abs());
    let accuracy = [
        relative(
            (&fine.velocity - &coarse.velocity).norm(),
            fine.velocity.norm(),
        ),
        relative((f.s - k.s).abs(), actions),
        relative((f.a - k.a).abs(), actions),
        relative((fine.time - coarse.time).abs(), fine.time),
    ]
    .into_iter()
    .fold(0.0, f64::max);
    // A NaN is no estimate: it confirms nothing.
    Ok(if accuracy.is_nan() {
        f64::INFINITY
    } else {
        accuracy
    })
}

/// Refuses what the method does not cover, before any integration.
fn applies<S: LagrangianSystem<N>, N: Dim>(c: &Connect<'_, S, N>) -> Result<(), Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    let info = c.system.info();
    crate::system::variational(info, "least and varying action")?;
    crate::system::derivatives(info, "least and varying action")?;
    let refuse = |why: String| Err(Error::InvalidInput(format!("{}: {why}", info.name)));
    if info.forced_or_dissipative {
        return refuse("forces, dissipation or inputs act; least and varying action are about conservative systems (Thomson & Tait §326)".into());
    }
    if !info.constraints.is_empty() {
        return refuse("motions between configurations are found for systems without constraints; express the constraints through the coordinates".into());
    }
    if !(1..=MAX_STEPS).contains(&c.steps) {
        return refuse(format!(
            "{} steps: between 1 and {MAX_STEPS} Runge–Kutta steps",
            c.steps
        ));
    }
    let finite = |v: &OVector<f64, N>| v.iter().all(|x| x.is_finite());
    if !finite(&c.from) || !finite(&c.to) || !c.t0.is_finite() {
        return refuse("the configurations and the start time must be finite".into());
    }
    if c.starts.iter().any(|v| !finite(v)) {
        return refuse("a start velocity is not finite".into());
    }
    let beyond = |what: String| {
        refuse(format!(
            "{what} is beyond what double precision resolves here: the method forms its square; keep times between {} and {}, and coordinates and the straight path's speed below {}",
            Short(1.0 / RANGE),
            Short(RANGE),
            Short(RANGE)
        ))
    };
    if let Some(q) = c.from.iter().chain(c.to.iter()).find(|q| q.abs() > RANGE) {
        return beyond(format!("the coordinate {}", Short(*q)));
    }
    if c.t0.abs() > RANGE {
        return beyond(format!("the start time {}", Short(c.t0)));
    }
    match c.condition {
        Condition::Time(tau) if !(tau.is_finite() && tau > 0.0) => refuse(format!(
            "the time of passage must be finite and positive, got {}",
            Short(tau)
        )),
        Condition::Time(tau) if !(1.0 / RANGE..=RANGE).contains(&tau) => {
            beyond(format!("the time of passage {}", Short(tau)))
        }
        Condition::Time(tau) if (&c.to - &c.from).norm() / tau > RANGE => beyond(format!(
            "the straight path's speed {}",
            Short((&c.to - &c.from).norm() / tau)
        )),
        Condition::Energy(e) if !e.is_finite() => {
            refuse(format!("the energy must be finite, got {}", Short(e)))
        }
        Condition::Energy(_) if info.conserved == Conserved::None => refuse(
            "it conserves no energy (its Lagrangian depends on t), so no motion has a given energy"
                .into(),
        ),
        Condition::Energy(e) => {
            let rest = OVector::zeros_generic(c.from.shape_generic().0, U1);
            let potential = c.system.jacobi_integral(c.t0, &c.from, &rest);
            if e < potential {
                return refuse(format!(
                    "the energy {e} is below the potential {potential} at the start, so no motion starts there with it"
                ));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The starts from the velocity `v`: for the energy condition, `v` scaled to the energy,
/// with each time at which that motion passes near `q₁`.
fn guess<S: LagrangianSystem<N>, N: Dim>(
    c: &Connect<'_, S, N>,
    v: OVector<f64, N>,
) -> Result<Vec<Guess<N>>, Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    match c.condition {
        Condition::Time(time) => Ok(vec![Guess { velocity: v, time }]),
        Condition::Energy(e) => {
            let (t0, q0) = (c.t0, &c.from);
            // h(λ v) = h₀ + λ² T₂(v) for the usual T: solve for λ.
            let rest = OVector::zeros_generic(v.shape_generic().0, U1);
            let h0 = c.system.jacobi_integral(t0, q0, &rest);
            let m = c.system.mass_matrix(t0, q0, &rest);
            let t2 = 0.5 * v.dot(&(m * &v));
            if t2.is_nan() || t2 <= 0.0 || e.is_nan() || e <= h0 {
                return Err(Error::NoMotion(format!(
                    "at energy {e:?} no motion starts from {:?} with a velocity along {:?} (the potential there is {h0:?})",
                    q0.as_slice(),
                    v.as_slice()
                )));
            }
            let velocity = v * ((e - h0) / t2).sqrt();
            Ok(passages(c, &velocity)
                .into_iter()
                .map(|time| Guess {
                    velocity: velocity.clone(),
                    time,
                })
                .collect())
        }
    }
}

/// The times at which the motion from `q₀` with `velocity` passes nearest `q₁`: the local
/// minima of its distance to `q₁` within four times the straight path's time at its
/// initial speed (at least 4 time units, for ends that coincide), the earliest
/// [`PASSAGES`] of those within half the ends' distance (or the nearest one alone). Each
/// is a start's time of passage.
fn passages<S: LagrangianSystem<N>, N: Dim>(
    c: &Connect<'_, S, N>,
    velocity: &OVector<f64, N>,
) -> Vec<f64>
where
    DefaultAllocator: DimAllocator<N>,
{
    let distance = (&c.to - &c.from).norm();
    let horizon = 4.0 * (distance / velocity.norm()).max(1.0);
    // (time, miss) at each step; a motion that leaves the domain before the horizon (a
    // singular mass matrix, a non-finite state) is searched up to where it went.
    let mut misses = Vec::with_capacity(APPROACH_STEPS);
    let start = Point::start(c.t0, c.from.clone(), velocity.clone());
    let _ = flow(c.system, start, horizon, APPROACH_STEPS, |_, after| {
        misses.push((after.t - c.t0, (&after.q - &c.to).norm()));
        Ok(())
    });
    let minima: Vec<(f64, f64)> = (0..misses.len())
        .filter(|&i| {
            let before = i.checked_sub(1).map_or(f64::INFINITY, |j| misses[j].1);
            let after = misses.get(i + 1).map_or(f64::INFINITY, |m| m.1);
            misses[i].1 <= before && misses[i].1 <= after
        })
        .map(|i| misses[i])
        .collect();
    let near: Vec<f64> = minima
        .iter()
        .filter(|(_, miss)| *miss <= 0.5 * distance)
        .take(PASSAGES)
        .map(|&(t, _)| t)
        .collect();
    if !near.is_empty() {
        return near;
    }
    let nearest = minima.iter().min_by(|a, b| a.1.total_cmp(&b.1));
    vec![nearest.map_or(horizon, |&(t, _)| t)]
}

/// The straight path's velocity `d/τ` (`d = q₁ − q₀`), then for each coordinate `i` and
/// `k = ±1, ±2` that velocity plus `k π σ eᵢ`, `σ = max(|d|, 1)/τ` (for the energy
/// condition the same directions with `τ = 1`, scaled to the energy). Starts that cannot
/// reach the energy are left out.
fn default_starts<S: LagrangianSystem<N>, N: Dim>(
    c: &Connect<'_, S, N>,
) -> Result<Vec<Guess<N>>, Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    let d = &c.to - &c.from;
    let tau = match c.condition {
        Condition::Time(tau) => tau,
        Condition::Energy(_) => 1.0,
    };
    let base = &d / tau;
    let sigma = d.norm().max(1.0) / tau;
    let mut velocities = vec![base.clone()];
    for i in 0..base.len() {
        for k in [1.0, -1.0, 2.0, -2.0] {
            let mut v = base.clone();
            v[i] += k * std::f64::consts::PI * sigma;
            velocities.push(v);
        }
    }
    let mut starts = Vec::new();
    let mut first_error = None;
    for v in velocities {
        match guess(c, v) {
            Ok(g) => starts.extend(g),
            Err(e) => first_error = first_error.or(Some(e)),
        }
    }
    match (starts.is_empty(), first_error) {
        (true, Some(e)) => Err(e),
        _ => Ok(starts),
    }
}

/// The end point of the motion from the guess, with the residual `F` and its Jacobian.
fn residual<S: LagrangianSystem<N>, N: Dim>(
    c: &Connect<'_, S, N>,
    x: &Guess<N>,
    steps: usize,
) -> Result<(DVector<f64>, DMatrix<f64>), Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    let start = Point::start(c.t0, c.from.clone(), x.velocity.clone());
    let end = flow(c.system, start, x.time, steps, |_, _| Ok(()))?;
    let miss = &end.q - &c.to;
    let n = miss.len();
    Ok(match c.condition {
        Condition::Time(_) => (
            DVector::from_column_slice(miss.as_slice()),
            DMatrix::from_column_slice(n, n, end.q_v.as_slice()),
        ),
        Condition::Energy(e) => {
            let (t0, q0, v) = (c.t0, &c.from, &x.velocity);
            let h = c.system.jacobi_integral(t0, q0, v);
            // ∂h/∂q̇₀ = M q̇₀.
            let w = c.system.mass_matrix(t0, q0, v) * v;
            let f = DVector::from_iterator(n + 1, miss.iter().copied().chain([h - e]));
            let mut j = DMatrix::zeros(n + 1, n + 1);
            j.view_mut((0, 0), (n, n))
                .copy_from_slice(end.q_v.as_slice());
            j.view_mut((0, n), (n, 1))
                .copy_from_slice(end.qd.as_slice());
            j.view_mut((n, 0), (1, n)).copy_from_slice(w.as_slice());
            (f, j)
        }
    })
}

/// Why Newton's method may stall: said when the end point hardly depends on the
/// initial velocity (the smallest singular value of `∂q(τ)/∂q̇₀` below `10⁻⁶ τ`), as
/// at a kinetic focus of the start, where the motions from `q₀` all meet.
fn near_focus<N: Dim>(j: &DMatrix<f64>, x: &Guess<N>) -> String
where
    DefaultAllocator: DimAllocator<N>,
{
    let n = x.velocity.len();
    let end = j.view((0, 0), (n, n)).into_owned();
    let smallest = end.singular_values().min();
    if smallest < 1e-6 * x.time {
        format!(
            " (∂q(τ)/∂q̇₀ is nearly singular: the end point is at or near a {AT_FOCUS}, where the motions from q₀ meet, and other end points are out of reach)"
        )
    } else {
        String::new()
    }
}

/// Newton's method from `x` with `steps` Runge–Kutta steps, each Newton step halved
/// until the residual decreases.
fn converge<S: LagrangianSystem<N>, N: Dim>(
    c: &Connect<'_, S, N>,
    mut x: Guess<N>,
    steps: usize,
) -> Result<Guess<N>, Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    let scale = 1.0 + c.from.norm() + c.to.norm();
    let tolerance = 1e-12 * scale;
    let (mut f, mut j) = residual(c, &x, steps)?;
    for _ in 0..SHOOTING_ITERATIONS {
        if f.norm() <= tolerance {
            return Ok(x);
        }
        let delta = j
            .clone()
            .lu()
            .solve(&f)
            .filter(|d| d.iter().all(|v| v.is_finite()));
        let Some(delta) = delta else {
            return Err(Error::NoMotion(format!(
                "the end point does not depend regularly on the start at residual {:.3e}: ∂q(τ)/∂q̇₀ is singular, as at a {AT_FOCUS}",
                f.norm()
            )));
        };
        let mut lambda = 1.0;
        let mut accepted = None;
        for _ in 0..LINE_SEARCH {
            let mut trial = x.clone();
            let n = trial.velocity.len();
            for i in 0..n {
                trial.velocity[i] -= lambda * delta[i];
            }
            if let Condition::Energy(_) = c.condition {
                trial.time -= lambda * delta[n];
            }
            if trial.time > 0.0
                && let Ok((ft, jt)) = residual(c, &trial, steps)
                && ft.norm() < f.norm()
            {
                accepted = Some((trial, ft, jt));
                break;
            }
            lambda *= 0.5;
        }
        let Some((trial, ft, jt)) = accepted else {
            // No step reduces the residual: converged as far as round-off allows, or stuck.
            if f.norm() <= 1e3 * tolerance {
                return Ok(x);
            }
            return Err(Error::NoMotion(format!(
                "Newton's method stalled at residual {:.3e}{}",
                f.norm(),
                near_focus(&j, &x)
            )));
        };
        (x, f, j) = (trial, ft, jt);
    }
    if f.norm() <= tolerance {
        return Ok(x);
    }
    Err(Error::NoMotion(format!(
        "Newton's method did not converge in {SHOOTING_ITERATIONS} iterations (residual {:.3e})",
        f.norm()
    )))
}

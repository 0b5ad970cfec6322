//! Least action and varying action (Thomson & Tait §§326–330): the natural motions that
//! join two configurations, their actions, Hamilton's relations for the principal and
//! characteristic functions checked along them, and the kinetic foci that decide whether
//! an action is least or only stationary.
//!
//! - The **principal function** `S(q₀, q₁, τ) = ∫ L dt` over the natural motion from `q₀`
//!   to `q₁` in the time `τ`: `∂S/∂q₁ = p₁`, `∂S/∂q₀ = −p₀`, `∂S/∂τ = −H`, so that
//!   `H(q₁, ∂S/∂q₁) + ∂S/∂τ = 0`.
//! - The **characteristic function** `A(q₀, q₁, E) = ∫ 2T dt` (here `∫ p·q̇ dt`, which is
//!   `∫ 2T dt` when `T` is quadratic in the velocities) over the natural motion from `q₀` to
//!   `q₁` with energy `E`: `∂A/∂q₁ = p₁`, `∂A/∂q₀ = −p₀`, `∂A/∂E = τ`, so that
//!   `H(q₁, ∂A/∂q₁) = E` (§330, the characteristic equation).
//!
//! [`Connect`] finds the motions (T&T §327's problem) by shooting on the initial velocity,
//! Newton's method with the exact Jacobian `∂q(τ)/∂q̇₀` from the variational equations. It
//! computes the derivatives of `S` and `A` from those equations too — differentiating
//! through the solution of the boundary-value problem, not assuming Hamilton's relations —
//! and reports them beside `p₁`, `−p₀`, `−H` and `τ`: the relations are a checked output.

mod flow;
mod foci;
mod relations;
mod shoot;
#[cfg(test)]
mod tests;

use nalgebra::{DefaultAllocator, Dim, OVector};

use crate::error::Error;
use crate::size::DimAllocator;
use crate::system::{LagrangianSystem, TimedPhase};

pub use relations::Relation;

/// Runge–Kutta steps along a motion, unless [`Connect::steps`] says otherwise.
pub const DEFAULT_STEPS: usize = 2000;

/// The most Runge–Kutta steps [`Connect::steps`] accepts: the path of a motion is kept,
/// one state a step.
pub const MAX_STEPS: usize = 1_000_000;

/// Newton iterations of the shooting from one start.
pub const SHOOTING_ITERATIONS: usize = 60;

/// The largest change of a motion's `q̇₀`, `S`, `A` and `τ` (each relative to its size)
/// when its steps are doubled for it to be reported: its estimate of the integration error,
/// and so how closely it reaches the target. The steps are doubled until the change is
/// within it, or the solution is dropped as not confirmed.
pub const ACCURACY: f64 = 1e-8;

/// The most times the steps of one solution are doubled to confirm it (`2⁴` times the
/// steps asked for, within [`MAX_STEPS`]); it stops sooner when the change does not at
/// least halve with each doubling, as it would if the steps converged to a motion.
pub const REFINEMENTS: usize = 4;

/// The largest time, coordinate or straight-path speed `|q₁ − q₀|/τ` accepted, and the
/// inverse of the smallest time: the method forms their squares (kinetic energies,
/// `∂q/∂q̇₀` against `τ`), which double precision holds only between about 10⁻³⁰⁸ and
/// 10³⁰⁸.
pub const RANGE: f64 = 1e150;

/// What the motions sought hold fixed besides the two configurations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Condition {
    /// The time of passage `τ` (the principal function's problem).
    Time(f64),
    /// The energy `E`, the value of the Jacobi integral `h = p·q̇ − L` (`T + V` for the
    /// usual `T`; the characteristic function's problem, T&T §327).
    Energy(f64),
}

/// The natural motions of a conservative system from one configuration to another, in a
/// given time or at a given energy (Thomson & Tait §327).
#[derive(Debug, Clone)]
pub struct Connect<'s, S, N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    system: &'s S,
    t0: f64,
    from: OVector<f64, N>,
    to: OVector<f64, N>,
    condition: Condition,
    starts: Vec<OVector<f64, N>>,
    steps: usize,
}

/// A natural motion from `q₀` to `q₁`, with its actions, Hamilton's relations as computed
/// and as expected, and the kinetic foci of `q₀` along it.
#[derive(Debug, Clone, PartialEq)]
pub struct Motion<N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// The initial velocity `q̇₀` that sends the system from `q₀` to `q₁`.
    pub initial_velocity: OVector<f64, N>,
    /// The velocity `q̇₁` on arrival.
    pub final_velocity: OVector<f64, N>,
    /// The time of passage `τ`.
    pub time: f64,
    /// The energy `E`, the Jacobi integral at the start.
    pub energy: f64,
    /// The principal function `S = ∫ L dt`.
    pub principal: f64,
    /// The action `A = ∫ p·q̇ dt` (`∫ 2T dt` for a `T` quadratic in the velocities).
    pub action: f64,
    /// `p₀`.
    pub initial_momenta: OVector<f64, N>,
    /// `p₁`.
    pub final_momenta: OVector<f64, N>,
    /// Hamilton's relations for this motion's problem: each derivative of `S` (time
    /// condition) or of `A` (energy condition) computed from the variational equations,
    /// beside the value the relation says it has; and the residual of the partial
    /// differential equation the function satisfies.
    pub relations: Vec<Relation>,
    /// The kinetic foci of `q₀` strictly between the ends, in time order: where
    /// neighbouring motions from `q₀` under the same condition meet the motion again
    /// (`∂q(t)/∂q̇₀` singular for the time condition; the same matrix bordered by the energy
    /// for the energy condition), each with its multiplicity.
    pub foci: Vec<Focus>,
    /// The change in the joining motion's `(q̇₀, S, A)` when the steps are doubled,
    /// relative to their size: an estimate of the integration error.
    pub accuracy: f64,
    /// The motion at each step: `(t, q, q̇)`.
    pub path: Vec<TimedPhase<N>>,
}

/// What a search found: the motions confirmed, and the solutions of the integration that
/// were dropped because doubling the steps did not confirm them (see [`ACCURACY`]).
#[derive(Debug, Clone)]
pub struct Search<N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// The motions, least action first (as [`Connect::solve`] returns them).
    pub motions: Vec<Motion<N>>,
    /// One sentence for each solution dropped, saying why.
    pub unconfirmed: Vec<String>,
}

/// A kinetic focus of the start (T&T §§356–358): a time at which neighbouring motions from
/// `q₀` meet the motion again.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Focus {
    /// The time, on the clock of the motion's path (the start at `t₀`).
    pub time: f64,
    /// How many independent neighbouring motions meet there: the dimension of the kernel of
    /// `∂q(t)/∂q̇₀` (bordered at a given energy). The isotropic oscillator's focus at half a
    /// period has multiplicity 2 in the plane.
    pub multiplicity: usize,
}

impl<N: Dim> Motion<N>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// Whether the action is least among the paths near this one (no kinetic focus
    /// between the ends, T&T §§327, 356), rather than only stationary (§328).
    pub fn is_least(&self) -> bool {
        self.foci.is_empty()
    }

    /// The number of foci between the ends, each counted with its multiplicity: the
    /// number of independent directions in which a nearby path with the same ends has less
    /// action (the index of the second variation, Morse's theorem).
    pub fn index(&self) -> usize {
        self.foci.iter().map(|f| f.multiplicity).sum()
    }
}

impl<'s, S: LagrangianSystem<N>, N: Dim> Connect<'s, S, N>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// The motions of `system` from `from` to `to` in the time `time`.
    pub fn in_time(system: &'s S, from: OVector<f64, N>, to: OVector<f64, N>, time: f64) -> Self {
        Self::new(system, from, to, Condition::Time(time))
    }

    /// The motions of `system` from `from` to `to` with energy `energy`.
    pub fn at_energy(
        system: &'s S,
        from: OVector<f64, N>,
        to: OVector<f64, N>,
        energy: f64,
    ) -> Self {
        Self::new(system, from, to, Condition::Energy(energy))
    }

    /// The motions of `system` from `from` to `to` under `condition`.
    pub fn new(
        system: &'s S,
        from: OVector<f64, N>,
        to: OVector<f64, N>,
        condition: Condition,
    ) -> Self {
        Connect {
            system,
            t0: 0.0,
            from,
            to,
            condition,
            starts: Vec::new(),
            steps: DEFAULT_STEPS,
        }
    }

    /// The time of the start (0 unless set; it matters for a Lagrangian with `t`).
    pub fn start_time(mut self, t0: f64) -> Self {
        self.t0 = t0;
        self
    }

    /// Initial velocities to start Newton's method from, one solution sought from each.
    /// Without any, the starts are the straight path's velocity `(q₁ − q₀)/τ` (scaled to
    /// the energy for the energy condition) and its variants (see [`solve`](Self::solve)).
    pub fn starts(mut self, starts: impl IntoIterator<Item = OVector<f64, N>>) -> Self {
        self.starts = starts.into_iter().collect();
        self
    }

    /// Runge–Kutta steps along each motion ([`DEFAULT_STEPS`] unless set): the first
    /// grid, doubled as a motion is confirmed (see [`ACCURACY`]).
    pub fn steps(mut self, steps: usize) -> Self {
        self.steps = steps;
        self
    }

    /// The distinct motions found from the starts, in the order of their actions (`S`
    /// for the time condition, `A` for the energy condition), least first. Each is
    /// confirmed: its steps doubled until it changes by at most [`ACCURACY`].
    ///
    /// Errors with [`Error::InvalidInput`] for a system this does not apply to (forces,
    /// dissipation or constraints act; a non-finite or non-positive time; a time,
    /// coordinate or speed beyond [`RANGE`]; an energy condition on a system that conserves
    /// no energy, or an energy below the potential at the start), and with
    /// [`Error::NoMotion`] when no start gives a motion, saying what was tried (in one
    /// sentence when the end point is a kinetic focus of the start).
    pub fn solve(&self) -> Result<Vec<Motion<N>>, Error> {
        self.search().map(|s| s.motions)
    }

    /// As [`solve`](Self::solve), with the solutions that were dropped as not confirmed.
    pub fn search(&self) -> Result<Search<N>, Error> {
        shoot::search(self)
    }
}

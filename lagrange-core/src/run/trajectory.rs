//! A recorded solution: times, states, invariants along it, integrator statistics, CSV output.

use std::fmt::Write as _;
use std::io::{BufWriter, Write};
use std::path::Path;

use nalgebra::{DefaultAllocator, Dim, OVector};

use super::balance::Balance;
use super::event::Occurrence;
use crate::error::Error;
use crate::integrate::{ActionIntegrals, State, Stats};
use crate::size::DimAllocator;
use crate::system::{Conserved, LagrangianSystem, TimedPhase};
use crate::system::{DynamicFunctions, Theorem};

/// Below this `|I(t0)|`, an invariant's drift is measured as absolute, not relative: a
/// relative drift means nothing for an integral that starts at (nearly) zero.
pub const RELATIVE_FLOOR: f64 = 1e-12;

/// A quantity that should stay constant along the trajectory, sampled at every recorded point.
#[derive(Debug, Clone, PartialEq)]
pub struct Invariant {
    /// `energy`, `jacobi_integral`, `p_<coordinate>` for the momentum of a cyclic
    /// coordinate, or the function of a general theorem that gives an integral
    /// (`momentum_x`, `angular_momentum_z`, …; see [`Theorem::function_name`]).
    pub name: String,
    /// Its value at each recorded point.
    pub values: Vec<f64>,
    /// Indices into `values` where a reset event restarted the motion (the value after the
    /// reset). A reset changes an integral on purpose (an impact takes energy), so the
    /// drift is measured from the value there on.
    pub restarts: Vec<usize>,
}

impl Invariant {
    /// The value at the first recorded point.
    pub fn initial(&self) -> Option<f64> {
        self.values.first().copied()
    }

    /// `max |I(t) − I(t0)|` over the recorded points (NaN if any value is NaN), with `t0`
    /// the start of the run or the latest reset before `t` (see
    /// [`restarts`](Self::restarts)).
    pub fn drift(&self) -> f64 {
        let bounds: Vec<usize> = std::iter::once(0)
            .chain(self.restarts.iter().copied())
            .chain(std::iter::once(self.values.len()))
            .collect();
        bounds
            .windows(2)
            .filter_map(|w| {
                let segment = self.values.get(w[0]..w[1])?;
                let reference = *segment.first()?;
                Some(segment.iter().map(move |v| (v - reference).abs()))
            })
            .flatten()
            .fold(
                0.0,
                |worst, d| if d.is_nan() || d > worst { d } else { worst },
            )
    }

    /// Whether the drift is measured relative to `|I(t0)|`: it is above [`RELATIVE_FLOOR`].
    pub fn is_relative(&self) -> bool {
        self.initial().is_some_and(|i| i.abs() > RELATIVE_FLOOR)
    }

    /// [`relative_drift`](Self::relative_drift) when [`is_relative`](Self::is_relative),
    /// the absolute [`drift`](Self::drift) otherwise.
    pub fn scaled_drift(&self) -> f64 {
        if self.is_relative() {
            self.relative_drift()
        } else {
            self.drift()
        }
    }

    /// [`drift`](Self::drift) divided by `|I(t0)|` (by the smallest positive `f64` if that is 0).
    pub fn relative_drift(&self) -> f64 {
        let initial = self.initial().unwrap_or(0.0);
        self.drift() / initial.abs().max(f64::MIN_POSITIVE)
    }
}

/// The value of the integral `theorem` gives (`T + V` for the kinetic-energy theorem).
fn integral_value<N: Dim, S: LagrangianSystem<N>>(
    system: &S,
    theorem: Theorem,
    t: f64,
    y: &State<N>,
    functions: Option<DynamicFunctions>,
) -> f64
where
    DefaultAllocator: DimAllocator<N>,
{
    match theorem {
        Theorem::KineticEnergy => system.energy(t, &y.q, &y.qd),
        other => functions.map_or(f64::NAN, |f| f.of(other)),
    }
}

/// The recorded solution of a [`Simulation`](crate::Simulation).
#[derive(Debug, Clone, PartialEq)]
pub struct Trajectory<N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    coordinates: Vec<String>,
    times: Vec<f64>,
    q: Vec<OVector<f64, N>>,
    qd: Vec<OVector<f64, N>>,
    invariants: Vec<Invariant>,
    ignored_names: Vec<String>,
    ignored: Vec<Vec<f64>>,
    events: Vec<Occurrence<N>>,
    /// `A` and `S` at each recorded point, when the run records them.
    action: Option<(Vec<f64>, Vec<f64>)>,
    /// Whether the next recorded point is the state a reset restarted from.
    restart_pending: bool,
    stats: Stats,
}

impl<N: Dim> Trajectory<N>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// An empty trajectory with the invariants `S` declares, and the action integrals if
    /// `record_action`.
    pub(crate) fn new<S: LagrangianSystem<N>>(
        system: &S,
        record_action: bool,
    ) -> Result<Self, Error> {
        let info = system.info();
        let names = &info.coordinates;
        let n = system.dimension().value();
        let conserved = info.conserved.name().map(str::to_string);
        let cyclic = info
            .cyclic
            .iter()
            .map(|&i| {
                names.get(i).map(|name| format!("p_{name}")).ok_or_else(|| {
                    Error::InvalidInput(format!("cyclic coordinate index {i} is not below {n}"))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let invariants = conserved
            .into_iter()
            .chain(cyclic)
            .chain(
                info.theorem_integrals()
                    .map(|t| t.integral_name().to_string()),
            )
            .map(|name| Invariant {
                name,
                values: Vec::new(),
                restarts: Vec::new(),
            })
            .collect();
        Ok(Trajectory {
            coordinates: names.iter().map(|n| n.to_string()).collect(),
            times: Vec::new(),
            q: Vec::new(),
            qd: Vec::new(),
            invariants,
            ignored_names: Vec::new(),
            ignored: Vec::new(),
            events: Vec::new(),
            action: record_action.then(Default::default),
            restart_pending: false,
            stats: Stats::default(),
        })
    }

    /// Records the state `y` at `t`, the action integrals there (if the trajectory
    /// records them: NaN where `action` is `None`) and the invariants.
    pub(crate) fn push<S: LagrangianSystem<N>>(
        &mut self,
        system: &S,
        t: f64,
        y: &State<N>,
        action: Option<ActionIntegrals>,
    ) {
        self.times.push(t);
        self.q.push(y.q.clone());
        self.qd.push(y.qd.clone());
        if let Some((a, s)) = &mut self.action {
            a.push(action.map_or(f64::NAN, |v| v.action));
            s.push(action.map_or(f64::NAN, |v| v.principal));
        }
        if std::mem::take(&mut self.restart_pending) {
            for invariant in &mut self.invariants {
                invariant.restarts.push(invariant.values.len());
            }
        }
        let mut slots = self.invariants.iter_mut();
        let info = system.info();
        if info.conserved != Conserved::None
            && let Some(slot) = slots.next()
        {
            let value = system.conserved_value(t, &y.q, &y.qd);
            slot.values.push(value.unwrap_or(f64::NAN));
        }
        if !info.cyclic.is_empty() {
            let p = system.momenta(t, &y.q, &y.qd);
            // Cyclic first: `zip` would take a slot past the last cyclic coordinate.
            for (&i, slot) in info.cyclic.iter().zip(slots.by_ref()) {
                slot.values.push(p[i]);
            }
        }
        if info.theorem_integrals().next().is_some() {
            let functions = system.dynamic_functions(t, &y.q, &y.qd);
            for (theorem, slot) in info.theorem_integrals().zip(slots) {
                let value = integral_value(system, theorem, t, y, functions);
                slot.values.push(value);
            }
        }
    }

    /// Each balance law of the general theorems whose premise holds for `system` (see
    /// [`ModelInfo::theorems`](crate::ModelInfo::theorems)) along this trajectory: its
    /// function, its rate at the motion's accelerations and its right-hand side at every
    /// recorded point. `system` must be the one that produced the trajectory. Errors
    /// when the accelerations cannot be found at a recorded point.
    pub fn balance_laws<S: LagrangianSystem<N>>(&self, system: &S) -> Result<Vec<Balance>, Error> {
        let holding: Vec<Theorem> = system
            .info()
            .theorems
            .iter()
            .filter(|t| t.holds)
            .map(|t| t.theorem)
            .collect();
        let mut laws: Vec<Balance> = holding
            .iter()
            .map(|&theorem| Balance {
                theorem,
                values: Vec::with_capacity(self.len()),
                rates: Vec::with_capacity(self.len()),
                right_hand_sides: Vec::with_capacity(self.len()),
            })
            .collect();
        if laws.is_empty() {
            return Ok(laws);
        }
        for ((&t, q), qd) in self.times.iter().zip(&self.q).zip(&self.qd) {
            let qdd = system.accelerations(t, q, qd)?;
            let functions = system.dynamic_functions(t, q, qd);
            let pairs = system.balance(t, q, qd, &qdd);
            if pairs.len() != laws.len() {
                return Err(Error::InvalidInput(format!(
                    "`{}` gives {} balance values for {} theorems that hold",
                    system.info().name,
                    pairs.len(),
                    laws.len()
                )));
            }
            for (law, (rate, rhs)) in laws.iter_mut().zip(pairs) {
                law.values
                    .push(functions.map_or(f64::NAN, |f| f.of(law.theorem)));
                law.rates.push(rate);
                law.right_hand_sides.push(rhs);
            }
        }
        Ok(laws)
    }

    /// Records the ignored coordinates at the latest time.
    pub(crate) fn push_ignored(&mut self, values: &[f64]) {
        self.ignored.push(values.to_vec());
    }

    /// Names the ignored coordinates recorded with [`push_ignored`](Self::push_ignored).
    pub(crate) fn name_ignored(&mut self, names: &[&str]) {
        self.ignored_names = names.iter().map(|n| n.to_string()).collect();
    }

    /// Names of the ignored coordinates recovered by quadrature (empty unless the
    /// trajectory comes from [`Simulation::run_reduced`](crate::Simulation::run_reduced)).
    pub fn ignored_names(&self) -> &[String] {
        &self.ignored_names
    }

    /// The ignored coordinates at each recorded time, in the order of
    /// [`ignored_names`](Self::ignored_names).
    pub fn ignored(&self) -> &[Vec<f64>] {
        &self.ignored
    }

    /// Records an event that fired; after a reset, the next point starts a new reference
    /// for the invariants' drift.
    pub(crate) fn push_event(&mut self, occurrence: Occurrence<N>) {
        self.restart_pending |= occurrence.after.is_some();
        self.events.push(occurrence);
    }

    /// The events that fired, in time order.
    pub fn events(&self) -> &[Occurrence<N>] {
        &self.events
    }

    /// The occurrences of the event called `name`, in time order.
    pub fn events_named<'s>(&'s self, name: &'s str) -> impl Iterator<Item = &'s Occurrence<N>> {
        self.events.iter().filter(move |e| e.name == name)
    }

    /// Appends `piece`, which starts where this trajectory ends (its first point, the same
    /// as the last one here, is not repeated), and adds up the statistics. Both must come
    /// from the same system, so that they record the same invariants.
    pub(crate) fn append(&mut self, piece: Trajectory<N>) {
        let skip = usize::from(!self.is_empty());
        self.times.extend(piece.times.iter().skip(skip));
        self.q.extend(piece.q.into_iter().skip(skip));
        self.qd.extend(piece.qd.into_iter().skip(skip));
        for (mine, theirs) in self.invariants.iter_mut().zip(piece.invariants) {
            let offset = mine.values.len() - skip;
            mine.restarts.extend(
                theirs
                    .restarts
                    .iter()
                    .map(|r| r + offset)
                    .filter(|&r| r > 0),
            );
            mine.values.extend(theirs.values.iter().skip(skip));
        }
        self.ignored.extend(piece.ignored.into_iter().skip(skip));
        // The piece's action integrals start from 0 where it starts.
        if let (Some((a, s)), Some((pa, ps))) = (&mut self.action, piece.action) {
            let (a0, s0) = (a.last().copied(), s.last().copied());
            a.extend(pa.iter().skip(skip).map(|v| v + a0.unwrap_or(0.0)));
            s.extend(ps.iter().skip(skip).map(|v| v + s0.unwrap_or(0.0)));
        }
        self.events.extend(piece.events);
        self.stats.accepted += piece.stats.accepted;
        self.stats.rejected += piece.stats.rejected;
        self.stats.evaluations += piece.stats.evaluations;
    }

    /// Stores the statistics of the integration that produced the trajectory.
    pub(crate) fn set_stats(&mut self, stats: Stats) {
        self.stats = stats;
    }

    /// The action `A = ∫ p·q̇ dt` from the start at each recorded time, if the run
    /// recorded it ([`Simulation::record_action`](crate::Simulation::record_action)).
    pub fn action(&self) -> Option<&[f64]> {
        self.action.as_ref().map(|(a, _)| a.as_slice())
    }

    /// The principal function `S = ∫ L dt` from the start at each recorded time, if the
    /// run recorded it ([`Simulation::record_action`](crate::Simulation::record_action)).
    pub fn principal_function(&self) -> Option<&[f64]> {
        self.action.as_ref().map(|(_, s)| s.as_slice())
    }

    /// Names of the generalized coordinates.
    pub fn coordinates(&self) -> &[String] {
        &self.coordinates
    }

    /// Recorded times, increasing, except at a reset event: the states before and after
    /// it are both recorded at its time.
    pub fn times(&self) -> &[f64] {
        &self.times
    }

    /// Coordinates at the recorded times.
    pub fn q(&self) -> &[OVector<f64, N>] {
        &self.q
    }

    /// Velocities at the recorded times.
    pub fn qd(&self) -> &[OVector<f64, N>] {
        &self.qd
    }

    /// The last recorded point `(t, q, q̇)`.
    pub fn last(&self) -> Option<TimedPhase<N>> {
        Some((
            *self.times.last()?,
            self.q.last()?.clone(),
            self.qd.last()?.clone(),
        ))
    }

    /// Number of recorded points.
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// Whether no point is recorded.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// The invariants: the conserved scalar first (if the model has one), then the momentum of
    /// each cyclic coordinate, then the integrals the general theorems give (momenta and
    /// angular momenta, in the order of [`ModelInfo::theorems`](crate::ModelInfo::theorems),
    /// and `energy` when the kinetic-energy theorem finds `T + V` conserved though the
    /// model's conserved integral is not the energy: forces that do no work).
    pub fn invariants(&self) -> &[Invariant] {
        &self.invariants
    }

    /// The invariant called `name`.
    pub fn invariant(&self, name: &str) -> Option<&Invariant> {
        self.invariants.iter().find(|i| i.name == name)
    }

    /// Statistics of the integration.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Writes the trajectory as CSV: `t`, the coordinates, their velocities (`dot_<name>`),
    /// the ignored coordinates of a reduced run, the invariants by name, then `action` and
    /// `principal` where the run recorded `A` and `S`. Numbers are written in shortest
    /// round-trip form.
    pub fn write_csv(&self, mut out: impl Write) -> Result<(), Error> {
        let action_names = ["action", "principal"].map(str::to_string);
        let header = std::iter::once("t".to_string())
            .chain(self.coordinates.iter().map(|c| c.to_string()))
            .chain(self.coordinates.iter().map(|c| format!("dot_{c}")))
            .chain(self.ignored_names.iter().map(|c| c.to_string()))
            .chain(self.invariants.iter().map(|i| i.name.clone()))
            .chain(self.action.iter().flat_map(|_| action_names.clone()))
            .collect::<Vec<_>>()
            .join(",");
        writeln!(out, "{header}")?;
        let mut row = String::new();
        for (k, t) in self.times.iter().enumerate() {
            row.clear();
            let values = self.q[k]
                .iter()
                .chain(self.qd[k].iter())
                .chain(self.ignored.get(k).into_iter().flatten())
                .chain(self.invariants.iter().filter_map(|i| i.values.get(k)))
                .chain(self.action.iter().flat_map(|(a, s)| [&a[k], &s[k]]));
            // Writing to a `String` cannot fail.
            let _ = write!(row, "{t:e}");
            for v in values {
                let _ = write!(row, ",{v:e}");
            }
            writeln!(out, "{row}")?;
        }
        Ok(())
    }

    /// Writes the CSV of [`write_csv`](Self::write_csv) to the file at `path`.
    pub fn save_csv(&self, path: impl AsRef<Path>) -> Result<(), Error> {
        let mut out = BufWriter::new(std::fs::File::create(path)?);
        self.write_csv(&mut out)?;
        out.flush()?;
        Ok(())
    }

    /// A plain-text table of the invariants: name, initial value, maximal absolute drift and
    /// relative drift.
    pub fn drift_table(&self) -> String {
        let width = self
            .invariants
            .iter()
            .map(|i| i.name.chars().count())
            .chain([9])
            .max()
            .unwrap_or(9);
        let mut table = format!(
            "{:<width$}  {:>24}  {:>11}  {:>11}\n",
            "invariant", "initial value", "max |drift|", "relative"
        );
        for i in &self.invariants {
            let initial = i.initial().unwrap_or(f64::NAN);
            let relative = if i.is_relative() {
                format!("{:>11.3e}", i.relative_drift())
            } else {
                format!("{:>11}", "—")
            };
            let _ = writeln!(
                table,
                "{:<width$}  {:>24.16e}  {:>11.3e}  {relative}",
                i.name,
                initial,
                i.drift(),
            );
        }
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_systems::{PolarParticle, state};
    use nalgebra::{SVector, U2};

    fn polar_trajectory() -> Trajectory<U2> {
        let sys = PolarParticle { m: 2.0 };
        let mut traj = Trajectory::new(&sys, false).unwrap();
        for k in 0..5 {
            let (q, qd) = state([1.0 + k as f64, 0.1 * k as f64], [0.5, 1.0 / 3.0]);
            traj.push(&sys, 0.25 * k as f64, &State::new(q, qd), None);
        }
        traj
    }

    #[test]
    fn invariants_are_named_and_evaluated() {
        let traj = polar_trajectory();
        let names: Vec<_> = traj.invariants().iter().map(|i| i.name.as_str()).collect();
        assert_eq!(names, ["energy", "p_phi"]);
        // p_phi = m r² φ̇ at r = 1 + k.
        let p = &traj.invariant("p_phi").unwrap().values;
        for (k, p) in p.iter().enumerate() {
            let r = 1.0 + k as f64;
            assert!((p - 2.0 * r * r / 3.0).abs() < 1e-14);
        }
    }

    #[test]
    fn drift_is_measured_from_the_first_value() {
        let inv = Invariant {
            name: "energy".into(),
            values: vec![-2.0, -2.5, -1.0, -2.0],
            restarts: vec![],
        };
        assert_eq!(inv.drift(), 1.0);
        assert_eq!(inv.relative_drift(), 0.5);
        let nan = Invariant {
            name: "x".into(),
            values: vec![1.0, f64::NAN, 1.0],
            restarts: vec![],
        };
        assert!(nan.drift().is_nan());
        let empty = Invariant {
            name: "x".into(),
            values: vec![],
            restarts: vec![],
        };
        assert_eq!(empty.drift(), 0.0);
    }

    #[test]
    fn a_reset_starts_a_new_reference_for_the_drift() {
        // An impact takes 40 % of the energy at index 2; the flights drift by 1e-9 and 2e-9.
        let inv = Invariant {
            name: "energy".into(),
            values: vec![10.0, 10.0 + 1e-9, 10.0, 6.0, 6.0 - 2e-9],
            restarts: vec![3],
        };
        assert!((inv.drift() - 2e-9).abs() < 1e-15, "{}", inv.drift());
    }

    #[test]
    fn csv_has_header_and_one_row_per_point_and_round_trips() {
        let traj = polar_trajectory();
        let mut out = Vec::new();
        traj.write_csv(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("t,r,phi,dot_r,dot_phi,energy,p_phi"));
        let rows: Vec<Vec<f64>> = lines
            .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
            .collect();
        assert_eq!(rows.len(), traj.len());
        for (k, row) in rows.iter().enumerate() {
            assert_eq!(row.len(), 7);
            assert_eq!(row[0], traj.times()[k]);
            assert_eq!(row[2], traj.q()[k][1]);
            assert_eq!(row[4], traj.qd()[k][1]);
            assert_eq!(row[6], traj.invariants()[1].values[k]);
        }
    }

    #[test]
    fn save_csv_writes_a_file() {
        let traj = polar_trajectory();
        let path = std::env::temp_dir().join(format!("lagrange-core-{}.csv", std::process::id()));
        traj.save_csv(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(text.lines().count(), 1 + traj.len());
        let missing = std::env::temp_dir()
            .join("no-such-dir-lagrange")
            .join("x.csv");
        assert!(matches!(traj.save_csv(missing), Err(Error::Io(_))));
    }

    #[test]
    fn drift_table_lists_every_invariant() {
        let table = polar_trajectory().drift_table();
        let lines: Vec<_> = table.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].starts_with("invariant"));
        assert!(lines[1].starts_with("energy"));
        assert!(lines[2].starts_with("p_phi"));
    }

    #[test]
    fn accessors_report_the_last_point() {
        let traj = polar_trajectory();
        assert_eq!(traj.len(), 5);
        assert!(!traj.is_empty());
        let (t, q, qd) = traj.last().unwrap();
        assert_eq!(t, 1.0);
        assert_eq!(q, SVector::from([5.0, 0.4]));
        assert_eq!(qd, SVector::from([0.5, 1.0 / 3.0]));
        assert_eq!(traj.coordinates(), ["r", "phi"]);
        assert_eq!(traj.stats(), Stats::default());
    }
}

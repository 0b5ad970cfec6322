//! The settings of one run: the integrator by name, the times, the step or output interval
//! and the tolerance, from the caller's overrides (the command line, Python's arguments)
//! over the file's `[simulation]` table. The one reading of that table: `generate` takes
//! its defaults from it too.

use lagrange_core::{Integrator, Short};

use super::ModelFile;
use crate::LoadError;

/// Tolerance of the adaptive integrator unless the file or the caller gives one.
const DEFAULT_TOLERANCE: f64 = 1e-10;

/// Output points (adaptive integrator) or steps (fixed-step ones) unless a `dt` is given.
const DEFAULT_INTERVALS: f64 = 1000.0;

/// An integration method by name.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Method {
    Rk4,
    DormandPrince,
    GaussLegendre(usize),
    Variational,
}

impl Method {
    /// Reads a name as `--integrator` takes it.
    fn parse(name: &str) -> Option<Method> {
        match name {
            "rk4" => Some(Method::Rk4),
            "dp54" | "dormand-prince" => Some(Method::DormandPrince),
            "gauss-legendre" => Some(Method::GaussLegendre(2)),
            "gauss-legendre-1" => Some(Method::GaussLegendre(1)),
            "gauss-legendre-2" => Some(Method::GaussLegendre(2)),
            "gauss-legendre-3" => Some(Method::GaussLegendre(3)),
            "variational" => Some(Method::Variational),
            _ => None,
        }
    }
}

/// What a caller sets over the file's `[simulation]` table; `None` keeps the file's.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Overrides {
    /// Start time.
    pub t_start: Option<f64>,
    /// End time.
    pub t_end: Option<f64>,
    /// The integrator by name: `rk4`, `dp54` (or `dormand-prince`), `gauss-legendre` (or
    /// `-1`, `-2`, `-3`), `variational`.
    pub integrator: Option<String>,
    /// Step of a fixed-step integrator, output interval of the adaptive one.
    pub dt: Option<f64>,
    /// Tolerance of the adaptive integrator.
    pub tolerance: Option<f64>,
    /// Record the adaptive integrator at least every `(t_end − t_start)/1000`, whatever
    /// the file's `dt` (for a report's smooth plots).
    pub fine_output: bool,
}

/// The settings of one run, from the caller's overrides over the file's defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Start time.
    pub t0: f64,
    /// End time.
    pub t_end: f64,
    method: Method,
    /// Step (fixed-step methods) or output interval (Dormand–Prince).
    dt: f64,
    tolerance: f64,
}

impl Settings {
    /// Merges `args` over the file's `[simulation]` table and checks the values.
    pub fn resolve(args: &Overrides, file: &ModelFile) -> Result<Settings, LoadError> {
        let defaults = &file.simulation;
        let path = file.shown_path();
        let t0 = args.t_start.or(defaults.t_start).unwrap_or(0.0);
        let t_end = args.t_end.or(defaults.t_end).ok_or_else(|| {
            LoadError(format!(
                "{path}: no end time: set `t_end` in the file's [simulation] table (`simulate` also takes --t-end)"
            ))
        })?;
        let (t0_, t_end_) = (Short(t0), Short(t_end));
        if !(t0.is_finite() && t_end.is_finite() && t_end > t0) {
            return Err(LoadError(format!(
                "{path}: the end time {t_end_} must be finite and after the start time {t0_}"
            )));
        }
        if !(t_end - t0).is_finite() {
            return Err(LoadError(format!(
                "{path}: the span from {t0_} to {t_end_} is beyond the floating-point numbers: no step can cover it"
            )));
        }
        let name = args
            .integrator
            .as_deref()
            .or(defaults.integrator.as_deref())
            .unwrap_or("dp54");
        let method = Method::parse(name).ok_or_else(|| {
            LoadError(format!(
                "{path}: unknown integrator `{name}`: use rk4, dp54, gauss-legendre (or gauss-legendre-1, -2, -3) or variational"
            ))
        })?;
        let fine = (t_end - t0) / DEFAULT_INTERVALS;
        let dt = match (args.dt, defaults.dt) {
            (Some(dt), _) => dt,
            (None, Some(dt)) if args.fine_output && method == Method::DormandPrince => dt.min(fine),
            (None, Some(dt)) => dt,
            (None, None) => fine,
        };
        let tolerance = args
            .tolerance
            .or(defaults.tolerance)
            .unwrap_or(DEFAULT_TOLERANCE);
        if args.dt.is_none() && defaults.dt.is_none() && dt == 0.0 {
            return Err(LoadError(format!(
                "{path}: the span from {t0_} to {t_end_} is too short to divide into {DEFAULT_INTERVALS} steps: give --dt"
            )));
        }
        for (what, value) in [("dt", dt), ("tolerance", tolerance)] {
            if !(value.is_finite() && value > 0.0) {
                return Err(LoadError(format!(
                    "{path}: {what} must be finite and positive, got {}",
                    Short(value)
                )));
            }
        }
        Ok(Settings {
            t0,
            t_end,
            method,
            dt,
            tolerance,
        })
    }

    /// The file's `[simulation]` table alone, by the same rules (what `generate` writes as
    /// its solver's defaults).
    pub fn of_file(file: &ModelFile) -> Result<Settings, LoadError> {
        Settings::resolve(&Overrides::default(), file)
    }

    /// The step, when the integrator is RK4.
    pub fn rk4_step(&self) -> Option<f64> {
        (self.method == Method::Rk4).then_some(self.dt)
    }

    /// The runtime's integrator.
    pub fn integrator(&self) -> Integrator {
        match self.method {
            Method::Rk4 => Integrator::Rk4 { dt: self.dt },
            Method::DormandPrince => Integrator::dormand_prince(self.tolerance, self.tolerance),
            Method::GaussLegendre(stages) => Integrator::GaussLegendre {
                dt: self.dt,
                stages,
            },
            Method::Variational => Integrator::Variational { dt: self.dt },
        }
    }

    /// The output interval: `dt` for the adaptive method; fixed-step methods record
    /// every step.
    pub fn output_interval(&self) -> Option<f64> {
        (self.method == Method::DormandPrince).then_some(self.dt)
    }

    /// One line for the summary.
    pub fn describe(&self) -> String {
        let method = match self.method {
            Method::Rk4 => format!("rk4 with dt = {}", Short(self.dt)),
            Method::DormandPrince => format!(
                "dp54 with tolerance {:e}, output every {}",
                self.tolerance,
                Short(self.dt)
            ),
            Method::GaussLegendre(s) => {
                format!("gauss-legendre ({s} stages) with dt = {}", Short(self.dt))
            }
            Method::Variational => format!("variational with dt = {}", Short(self.dt)),
        };
        format!(
            "{method}, from t = {} to {}",
            Short(self.t0),
            Short(self.t_end)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integrator_names() {
        assert_eq!(Method::parse("dp54"), Some(Method::DormandPrince));
        assert_eq!(Method::parse("dormand-prince"), Some(Method::DormandPrince));
        assert_eq!(
            Method::parse("gauss-legendre"),
            Some(Method::GaussLegendre(2))
        );
        assert_eq!(
            Method::parse("gauss-legendre-3"),
            Some(Method::GaussLegendre(3))
        );
        assert_eq!(Method::parse("gauss-legendre-4"), None);
        assert_eq!(Method::parse("euler"), None);
    }

    #[test]
    fn only_dormand_prince_samples_at_an_output_interval() {
        let settings = |method| Settings {
            t0: 0.0,
            t_end: 1.0,
            method,
            dt: 0.1,
            tolerance: 1e-8,
        };
        let dp = settings(Method::DormandPrince);
        assert_eq!(dp.output_interval(), Some(0.1));
        assert_eq!(dp.integrator(), Integrator::dormand_prince(1e-8, 1e-8));
        let gl = settings(Method::GaussLegendre(3));
        assert_eq!(gl.output_interval(), None);
        assert_eq!(
            gl.integrator(),
            Integrator::GaussLegendre { dt: 0.1, stages: 3 }
        );
    }
}

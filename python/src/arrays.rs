//! The model at states given as NumPy arrays: `q` of shape `(n,)` is one state, `(m, n)` a
//! batch of `m`, each row's result the bits of a single call (the runtime's `Batch`, over
//! the processor's threads, with the interpreter's lock released).

use lagrange_core::{Batch, Error, LagrangianSystem, TimedPhase};
use nalgebra::{DMatrix, DVector, Dyn};
use numpy::ndarray::{ArrayD, IxDyn};
use numpy::{AllowTypeChange, IntoPyArray, PyArrayDyn, PyArrayLikeDyn};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::model::{Model, error};

/// An array argument: anything NumPy turns into real floats (a complex array, whose
/// imaginary part the cast would drop, is refused).
struct Input<'py>(PyArrayLikeDyn<'py, f64, AllowTypeChange>);

impl<'a, 'py> FromPyObject<'a, 'py> for Input<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_none() {
            return Err(PyTypeError::new_err(
                "expected an array of floats, not None",
            ));
        }
        let numpy = obj.py().import("numpy")?;
        if numpy.call_method1("iscomplexobj", (obj,))?.is_truthy()? {
            return Err(PyTypeError::new_err(
                "a state is real: this array is complex (take its .real if that is what is meant)",
            ));
        }
        obj.extract().map(Input)
    }
}

impl Input<'_> {
    fn as_array(&self) -> numpy::ndarray::ArrayViewD<'_, f64> {
        self.0.as_array()
    }
}

/// States read from the arguments: one or a batch.
struct States {
    states: Vec<TimedPhase<Dyn>>,
    batch: bool,
    /// The number of coordinates.
    n: usize,
}

/// The rows of `array`, `(n,)` or `(m, n)`, as vectors; `name` is the argument's.
fn rows(array: &Input<'_>, name: &str, n: usize) -> PyResult<(Vec<DVector<f64>>, bool)> {
    let view = array.as_array();
    let shape = view.shape().to_vec();
    let bad = || {
        PyValueError::new_err(format!(
            "{name} has shape {shape:?}: expected ({n},) for one state or (m, {n}) for m states"
        ))
    };
    match shape.as_slice() {
        [k] if *k == n => Ok((vec![DVector::from_iterator(n, view.iter().copied())], false)),
        [_, k] if *k == n => Ok((
            view.rows()
                .into_iter()
                .map(|row| DVector::from_iterator(n, row.iter().copied()))
                .collect(),
            true,
        )),
        _ => Err(bad()),
    }
}

impl States {
    /// `(t, q, q̇)` from `q` and `qd` (zero velocities when `None`) of the same shape.
    fn read(model: &Model, t: f64, q: &Input<'_>, qd: Option<&Input<'_>>) -> PyResult<States> {
        let n = model.size();
        let (q, batch) = rows(q, "q", n)?;
        let qd = match qd {
            Some(qd) => {
                let (qd, qd_batch) = rows(qd, "qd", n)?;
                if qd_batch != batch || qd.len() != q.len() {
                    return Err(PyValueError::new_err(format!(
                        "q has {} state(s) and qd {}: give them the same shape",
                        q.len(),
                        qd.len()
                    )));
                }
                qd
            }
            None => vec![DVector::zeros(n); q.len()],
        };
        let states = q.into_iter().zip(qd).map(|(q, qd)| (t, q, qd)).collect();
        Ok(States { states, batch, n })
    }

    /// The rows of `qdd` beside these states.
    fn accelerations(&self, qdd: &Input<'_>) -> PyResult<Vec<DVector<f64>>> {
        let (qdd, batch) = rows(qdd, "qdd", self.n)?;
        if batch != self.batch || qdd.len() != self.states.len() {
            return Err(PyValueError::new_err(format!(
                "qdd has {} row(s) for {} state(s): give it the shape of q",
                qdd.len(),
                self.states.len()
            )));
        }
        Ok(qdd)
    }

    /// The results as one array: each result's shape, after a leading axis for a batch.
    fn array<'py>(
        &self,
        py: Python<'py>,
        shape: &[usize],
        results: impl IntoIterator<Item = Vec<f64>>,
    ) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
        let mut full = Vec::with_capacity(shape.len() + 1);
        if self.batch {
            full.push(self.states.len());
        }
        full.extend_from_slice(shape);
        let data: Vec<f64> = results.into_iter().flatten().collect();
        let array = ArrayD::from_shape_vec(IxDyn(&full), data)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(array.into_pyarray(py))
    }
}

/// A matrix's entries row by row, as NumPy lays out an array.
fn row_major(m: &DMatrix<f64>) -> Vec<f64> {
    m.transpose().as_slice().to_vec()
}

/// Each result, or the first state's error with its index.
fn each_ok<R>(results: Vec<Result<R, Error>>, batch: bool) -> PyResult<Vec<R>> {
    results
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            r.map_err(|e| match batch {
                true => error(format!("state {i}: {e}")),
                false => error(e),
            })
        })
        .collect()
}

#[pymethods]
impl Model {
    /// The mass matrix `M(q)` at each state: `(n, n)`, or `(m, n, n)` for a batch.
    #[pyo3(signature = (q, qd = None, t = 0.0))]
    fn mass_matrix<'py>(
        &self,
        py: Python<'py>,
        q: Input<'py>,
        qd: Option<Input<'py>>,
        t: f64,
    ) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
        let states = States::read(self, t, &q, qd.as_ref())?;
        let m = py.detach(|| self.system.mass_matrix_each(&states.states));
        let n = states.n;
        states.array(py, &[n, n], m.iter().map(row_major))
    }

    /// The forcing `f(t, q, q̇)` of `M q̈ = f` at each state.
    #[pyo3(signature = (q, qd = None, t = 0.0))]
    fn forcing<'py>(
        &self,
        py: Python<'py>,
        q: Input<'py>,
        qd: Option<Input<'py>>,
        t: f64,
    ) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
        let states = States::read(self, t, &q, qd.as_ref())?;
        let f: Vec<DVector<f64>> = py.detach(|| {
            states
                .states
                .iter()
                .map(|(t, q, qd)| self.system.forcing(*t, q, qd))
                .collect()
        });
        let n = states.n;
        states.array(py, &[n], f.iter().map(|f| f.as_slice().to_vec()))
    }

    /// The accelerations `q̈` at each state (forward dynamics).
    #[pyo3(signature = (q, qd = None, t = 0.0))]
    fn accelerations<'py>(
        &self,
        py: Python<'py>,
        q: Input<'py>,
        qd: Option<Input<'py>>,
        t: f64,
    ) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
        let states = States::read(self, t, &q, qd.as_ref())?;
        let qdd = py.detach(|| self.system.accelerations_each(&states.states));
        let qdd = each_ok(qdd, states.batch)?;
        let n = states.n;
        states.array(py, &[n], qdd.iter().map(|a| a.as_slice().to_vec()))
    }

    /// The generalized forces `M q̈ − f` that give the accelerations `qdd` at each state
    /// (inverse dynamics).
    #[pyo3(signature = (q, qd, qdd, t = 0.0))]
    fn inverse_dynamics<'py>(
        &self,
        py: Python<'py>,
        q: Input<'py>,
        qd: Input<'py>,
        qdd: Input<'py>,
        t: f64,
    ) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
        let states = States::read(self, t, &q, Some(&qd))?;
        let qdd = states.accelerations(&qdd)?;
        let tau = py
            .detach(|| self.system.inverse_dynamics_each(&states.states, &qdd))
            .map_err(error)?;
        let n = states.n;
        states.array(py, &[n], tau.iter().map(|a| a.as_slice().to_vec()))
    }

    /// The accelerations and their derivatives at each state: `(q̈, ∂q̈/∂q, ∂q̈/∂q̇,
    /// ∂q̈/∂p)`, the last by parameter in the order of `parameters`.
    #[pyo3(signature = (q, qd = None, t = 0.0))]
    #[allow(clippy::type_complexity)]
    fn acceleration_jacobians<'py>(
        &self,
        py: Python<'py>,
        q: Input<'py>,
        qd: Option<Input<'py>>,
        t: f64,
    ) -> PyResult<(
        Bound<'py, PyArrayDyn<f64>>,
        Bound<'py, PyArrayDyn<f64>>,
        Bound<'py, PyArrayDyn<f64>>,
        Bound<'py, PyArrayDyn<f64>>,
    )> {
        let states = States::read(self, t, &q, qd.as_ref())?;
        let jacobians = py.detach(|| self.system.acceleration_jacobians_each(&states.states));
        let jacobians = each_ok(jacobians, states.batch)?;
        let n = states.n;
        Ok((
            states.array(
                py,
                &[n],
                jacobians
                    .iter()
                    .map(|j| j.accelerations.as_slice().to_vec()),
            )?,
            states.array(
                py,
                &[n, n],
                jacobians.iter().map(|j| row_major(&j.coordinates)),
            )?,
            states.array(
                py,
                &[n, n],
                jacobians.iter().map(|j| row_major(&j.velocities)),
            )?,
            states.array(
                py,
                &[n, self.file.model.parameters.len()],
                jacobians.iter().map(|j| row_major(&j.parameters)),
            )?,
        ))
    }

    /// The energy `T + V` at each state: a float, or `(m,)` for a batch.
    #[pyo3(signature = (q, qd = None, t = 0.0))]
    fn energy<'py>(
        &self,
        py: Python<'py>,
        q: Input<'py>,
        qd: Option<Input<'py>>,
        t: f64,
    ) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
        let states = States::read(self, t, &q, qd.as_ref())?;
        let e: Vec<f64> = py.detach(|| {
            states
                .states
                .iter()
                .map(|(t, q, qd)| self.system.energy(*t, q, qd))
                .collect()
        });
        states.array(py, &[], e.into_iter().map(|e| vec![e]))
    }
}

//! The model at states given as NumPy arrays: `q` of shape `(n,)` is one state, `(m, n)` a
//! batch of `m`, each row's result the bits of a single call (the runtime's `Batch`, over
//! the processor's threads, with the interpreter's lock released).

use lagrange_core::{Batch, BatchError, BatchStates, JacobianBuffers};
use numpy::ndarray::{ArrayD, IxDyn};
use numpy::{
    AllowTypeChange, IntoPyArray, PyArrayDescrMethods, PyArrayDyn, PyArrayLikeDyn, PyUntypedArray,
    PyUntypedArrayMethods,
};
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
        // An array's type is read directly; anything else is asked of NumPy.
        let complex = match obj.cast::<PyUntypedArray>() {
            Ok(array) => array.dtype().kind() == b'c',
            Err(_) => {
                let numpy = obj.py().import("numpy")?;
                numpy.call_method1("iscomplexobj", (obj,))?.is_truthy()?
            }
        };
        if complex {
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

/// States read from the arguments, one or a batch, laid out flat as the runtime's batches
/// take them.
struct States {
    t: f64,
    q: Vec<f64>,
    qd: Vec<f64>,
    /// Whether the arguments were a batch `(m, n)` rather than one state `(n,)`.
    batch: bool,
    /// The number of states.
    m: usize,
    /// The number of coordinates.
    n: usize,
}

/// The values of `array`, `(n,)` or `(m, n)`, state after state, with `m` (1 for one
/// state) and whether it was a batch; `name` is the argument's.
fn rows(array: &Input<'_>, name: &str, n: usize) -> PyResult<(Vec<f64>, usize, bool)> {
    let view = array.as_array();
    let (m, batch) = match view.shape() {
        [k] if *k == n => (1, false),
        [m, k] if *k == n => (*m, true),
        shape => {
            return Err(PyValueError::new_err(format!(
                "{name} has shape {shape:?}: expected ({n},) for one state or (m, {n}) for m states"
            )));
        }
    };
    // In the array's logical order, whatever its layout in memory.
    Ok((view.iter().copied().collect(), m, batch))
}

impl States {
    /// `(t, q, q̇)` from `q` and `qd` (zero velocities when `None`) of the same shape.
    fn read(model: &Model, t: f64, q: &Input<'_>, qd: Option<&Input<'_>>) -> PyResult<States> {
        let n = model.size();
        let (q, m, batch) = rows(q, "q", n)?;
        let qd = match qd {
            Some(qd) => {
                let (qd, qd_m, qd_batch) = rows(qd, "qd", n)?;
                if qd_batch != batch || qd_m != m {
                    return Err(PyValueError::new_err(format!(
                        "q has {m} state(s) and qd {qd_m}: give them the same shape"
                    )));
                }
                qd
            }
            None => vec![0.0; q.len()],
        };
        Ok(States {
            t,
            q,
            qd,
            batch,
            m,
            n,
        })
    }

    /// The states as the runtime's batches take them.
    fn flat(&self) -> BatchStates<'_> {
        BatchStates {
            t: self.t,
            q: &self.q,
            qd: &self.qd,
        }
    }

    /// The values of `qdd` beside these states.
    fn accelerations(&self, qdd: &Input<'_>) -> PyResult<Vec<f64>> {
        let (qdd, m, batch) = rows(qdd, "qdd", self.n)?;
        if batch != self.batch || m != self.m {
            return Err(PyValueError::new_err(format!(
                "qdd has {m} row(s) for {} state(s): give it the shape of q",
                self.m
            )));
        }
        Ok(qdd)
    }

    /// A result's values for every state (`width` a state), zero until written.
    fn buffer(&self, width: usize) -> Vec<f64> {
        vec![0.0; self.m * width]
    }

    /// One result of `shape` per state, written by `fill` (a batch method of the runtime
    /// given these states and the result's values) without the interpreter's lock.
    fn computed<'py>(
        &self,
        py: Python<'py>,
        shape: &[usize],
        fill: impl FnOnce(BatchStates<'_>, &mut [f64]) -> Result<(), BatchError> + Send,
    ) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
        let mut out = self.buffer(shape.iter().product());
        py.detach(|| fill(self.flat(), &mut out))
            .map_err(|e| self.error(e))?;
        self.array(py, shape, out)
    }

    /// The results as one array: each result's `shape`, after a leading axis for a batch.
    fn array<'py>(
        &self,
        py: Python<'py>,
        shape: &[usize],
        data: Vec<f64>,
    ) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
        let mut full = Vec::with_capacity(shape.len() + 1);
        if self.batch {
            full.push(self.m);
        }
        full.extend_from_slice(shape);
        let array = ArrayD::from_shape_vec(IxDyn(&full), data)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(array.into_pyarray(py))
    }

    /// A batch's error as Python's: a state's named by its index in a batch.
    fn error(&self, e: BatchError) -> PyErr {
        match e {
            BatchError::State { error: e, .. } if !self.batch => error(e),
            e => error(e),
        }
    }
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
        let n = states.n;
        states.computed(py, &[n, n], |s, out| self.system.mass_matrix_into(s, out))
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
        let n = states.n;
        states.computed(py, &[n], |s, out| self.system.forcing_into(s, out))
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
        let n = states.n;
        states.computed(py, &[n], |s, out| self.system.accelerations_into(s, out))
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
        let n = states.n;
        states.computed(py, &[n], |s, out| {
            self.system.inverse_dynamics_into(s, &qdd, out)
        })
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
        let (n, p) = (states.n, self.file.model.parameters.len());
        let (mut qdd, mut dq) = (states.buffer(n), states.buffer(n * n));
        let (mut dqd, mut dp) = (states.buffer(n * n), states.buffer(n * p));
        let buffers = JacobianBuffers {
            accelerations: &mut qdd,
            coordinates: &mut dq,
            velocities: &mut dqd,
            parameters: &mut dp,
        };
        py.detach(|| {
            self.system
                .acceleration_jacobians_into(states.flat(), buffers)
        })
        .map_err(|e| states.error(e))?;
        Ok((
            states.array(py, &[n], qdd)?,
            states.array(py, &[n, n], dq)?,
            states.array(py, &[n, n], dqd)?,
            states.array(py, &[n, p], dp)?,
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
        states.computed(py, &[], |s, out| self.system.energy_into(s, out))
    }
}

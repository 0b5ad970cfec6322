//! `Model.linearize`, `equilibrium`, `modes` and Hamilton's form: the runtime's analysis
//! at a state.

use lagrange_core::{LagrangianSystem, equilibrium, linearize, normal_modes};
use nalgebra::DMatrix;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::model::{Model, error};

/// Two vectors, as Hamilton's canonical equations give `(q̇, ṗ)`.
type Pair<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<f64>>);

/// `m` as a NumPy array, row by row.
fn array<'py>(py: Python<'py>, m: &DMatrix<f64>) -> Bound<'py, PyArray2<f64>> {
    let data = m.transpose().as_slice().to_vec();
    Array2::from_shape_vec((m.nrows(), m.ncols()), data)
        .expect("a matrix's entries fill its shape")
        .into_pyarray(py)
}

#[pymethods]
impl Model {
    /// The linearization `δẋ = A δx + B δu` of the motion at `(t, q, q̇)`, `x = (q, q̇)`,
    /// from the exact derivatives: a dict of `A` `(2n, 2n)`, `B` `(2n, inputs)` (the
    /// inputs in the order of `info["inputs"]`) and `rate`, `ẋ` at the state (zero at an
    /// equilibrium). `numpy.linalg.eigvals(A)` gives its stability.
    #[pyo3(signature = (q, qd = None, t = 0.0))]
    fn linearize<'py>(
        &self,
        py: Python<'py>,
        q: Vec<f64>,
        qd: Option<Vec<f64>>,
        t: f64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let q = self.vector(q, "q")?;
        let qd = self.vector(qd.unwrap_or_else(|| vec![0.0; self.size()]), "qd")?;
        let linear = py
            .detach(|| linearize(&self.system, t, &q, &qd))
            .map_err(error)?;
        let dict = PyDict::new(py);
        dict.set_item("A", array(py, &linear.a))?;
        dict.set_item("B", array(py, &linear.b))?;
        dict.set_item("rate", PyArray1::from_slice(py, linear.rate.as_slice()))?;
        Ok(dict)
    }

    /// The normal modes of the small oscillations about the equilibrium `q`: a dict of
    /// `omega_squared` `(k,)` (the eigenvalues of `K v = ω² M v`, negative along an unstable
    /// direction) and `shapes` `(k, n)` (each row a mode shape `v`, `vᵀ M v = 1`).
    /// Refused where small motions are not normal modes (`q` no equilibrium, gyroscopic or
    /// damping terms, a constrained model).
    #[pyo3(signature = (q, t = 0.0))]
    fn modes<'py>(&self, py: Python<'py>, q: Vec<f64>, t: f64) -> PyResult<Bound<'py, PyDict>> {
        let q = self.vector(q, "q")?;
        let modes = py
            .detach(|| normal_modes(&self.system, t, &q))
            .map_err(error)?;
        let omega_squared: Vec<f64> = modes.iter().map(|m| m.omega_squared).collect();
        let shapes = DMatrix::from_fn(modes.len(), q.len(), |k, i| modes[k].shape[i]);
        let dict = PyDict::new(py);
        dict.set_item("omega_squared", PyArray1::from_slice(py, &omega_squared))?;
        dict.set_item("shapes", array(py, &shapes))?;
        Ok(dict)
    }

    /// The momenta `p = ∂L/∂q̇` at `(t, q, q̇)`.
    #[pyo3(signature = (q, qd, t = 0.0))]
    fn momenta<'py>(
        &self,
        py: Python<'py>,
        q: Vec<f64>,
        qd: Vec<f64>,
        t: f64,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let (q, qd) = (self.vector(q, "q")?, self.vector(qd, "qd")?);
        let p = self.system.momenta(t, &q, &qd);
        Ok(PyArray1::from_slice(py, p.as_slice()))
    }

    /// Hamilton's function `H(t, q, p)`.
    #[pyo3(signature = (q, p, t = 0.0))]
    fn hamiltonian(&self, q: Vec<f64>, p: Vec<f64>, t: f64) -> PyResult<f64> {
        let (q, p) = (self.vector(q, "q")?, self.vector(p, "p")?);
        self.system.hamiltonian(t, &q, &p).map_err(error)
    }

    /// Hamilton's canonical equations at `(t, q, p)`: `(q̇, ṗ)`.
    #[pyo3(signature = (q, p, t = 0.0))]
    fn canonical<'py>(
        &self,
        py: Python<'py>,
        q: Vec<f64>,
        p: Vec<f64>,
        t: f64,
    ) -> PyResult<Pair<'py>> {
        let (q, p) = (self.vector(q, "q")?, self.vector(p, "p")?);
        let (qd, pd) = self.system.canonical_rhs(t, &q, &p).map_err(error)?;
        Ok((
            PyArray1::from_slice(py, qd.as_slice()),
            PyArray1::from_slice(py, pd.as_slice()),
        ))
    }

    /// The equilibrium (`q̈ = 0` at rest) nearest the configuration `guess`, by Newton's
    /// method on the exact derivatives.
    #[pyo3(signature = (guess, t = 0.0))]
    fn equilibrium<'py>(
        &self,
        py: Python<'py>,
        guess: Vec<f64>,
        t: f64,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let guess = self.vector(guess, "guess")?;
        let q = py
            .detach(|| equilibrium(&self.system, t, &guess))
            .map_err(error)?;
        Ok(PyArray1::from_slice(py, q.as_slice()))
    }
}

//! A URDF robot as a model file: what `lagrange import` prints and what the Python
//! package loads, so that a robot is read by the same route as a written model.

use std::collections::{BTreeMap, BTreeSet};

use lagrange_symbolic::model::Model;
use lagrange_symbolic::source::urdf;
use serde::Serialize;

/// A model file's text made from a URDF, and the URDF elements it ignored.
#[derive(Debug, Clone)]
pub struct ImportedFile {
    /// The model file (TOML): the model, `g = 9.81` and every input 0 in `[values]`, the
    /// initial configuration.
    pub text: String,
    /// The names of the elements ignored (not dynamics), like `visual` or `limit`.
    pub ignored: BTreeSet<String>,
}

/// The model file of the robot in `urdf` (a URDF document's text). The error says what
/// in the URDF could not be read.
pub fn import_urdf(urdf: &str, options: urdf::Options) -> Result<ImportedFile, String> {
    let imported = urdf::import(urdf, options)?;
    let mut values: BTreeMap<String, f64> = [("g".to_string(), 9.81)].into();
    values.extend(imported.model.inputs.iter().map(|u| (u.clone(), 0.0)));
    let file = File {
        model: imported.model,
        values,
        initial: Initial {
            q: imported.initial,
        },
    };
    let text = toml::to_string(&file).map_err(|e| format!("cannot write the model file: {e}"))?;
    Ok(ImportedFile {
        text,
        ignored: imported.ignored,
    })
}

/// What the model file holds besides the model.
#[derive(Serialize)]
struct File {
    model: Model,
    values: BTreeMap<String, f64>,
    initial: Initial,
}

#[derive(Serialize)]
struct Initial {
    q: BTreeMap<String, f64>,
}

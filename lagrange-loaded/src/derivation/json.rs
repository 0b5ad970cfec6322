//! `lagrange derive --format json`: the model, its parameter values and the derivation.

use lagrange_symbolic::equations::Derived;
use serde::Serialize;

use crate::LoadError;
use crate::file::ModelFile;

/// What `--format json` prints.
#[derive(Serialize)]
struct Document<'a> {
    model: &'a lagrange_symbolic::model::Model,
    /// Parameter values by name, in the model's parameter order.
    values: serde_json::Map<String, serde_json::Value>,
    derived: &'a Derived,
}

/// The parameter values by name as JSON numbers; a value that is not finite (which JSON
/// cannot hold, and serde would silently write as `null`) is an error naming it.
pub fn values(
    file: &ModelFile,
    values: &[f64],
) -> Result<serde_json::Map<String, serde_json::Value>, LoadError> {
    file.model
        .parameters
        .iter()
        .zip(values)
        .map(|(p, &v)| {
            serde_json::Number::from_f64(v)
                .map(|n| (p.clone(), serde_json::Value::Number(n)))
                .ok_or_else(|| {
                    LoadError(format!(
                        "{}: the value of the parameter `{p}` is {v}, which JSON cannot represent: give a finite number in [values]",
                        file.shown_path()
                    ))
                })
        })
        .collect()
}

/// The JSON document: the model, its parameter `values` and the derivation.
pub fn document(
    file: &ModelFile,
    values: serde_json::Map<String, serde_json::Value>,
    derived: &Derived,
) -> Result<String, LoadError> {
    let document = Document {
        model: &file.model,
        values,
        derived,
    };
    serde_json::to_string_pretty(&document)
        .map_err(|e| LoadError(format!("cannot write JSON: {e}")))
}

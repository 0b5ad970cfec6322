//! A computed result as `linearize`, `modes` and `connect` give it: a number to ten
//! significant digits, a document as JSON, and a runtime error as the command's failure,
//! naming the model file.

use lagrange_core::Error;
use serde::Serialize;

use crate::Failure;
use lagrange_loaded::file::ModelFile;

/// A runtime error as the command's failure, naming the file.
pub(crate) fn failure(file: &ModelFile, what: &str, e: Error) -> Failure {
    Failure(format!("{}: {what}: {e}", file.path.display()))
}

/// The document as JSON (the runtime returns finite results or an error).
pub(crate) fn json(document: &impl Serialize) -> Result<String, Failure> {
    serde_json::to_string_pretty(document).map_err(|e| Failure(format!("cannot write JSON: {e}")))
}

/// A number for the text output: ten significant digits.
pub(crate) fn number(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if (1e-4..1e6).contains(&x.abs()) {
        let digits = (9 - x.abs().log10().floor() as i32).max(0) as usize;
        let s = format!("{x:.digits$}");
        let s = if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        };
        if s == "-0" { "0".into() } else { s }
    } else {
        format!("{x:.9e}")
    }
}

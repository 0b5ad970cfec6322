//! Where in a model file an error is: model errors and failures located at the line and
//! column of the key they concern (the engine's `source` finds it), with user text
//! escaped and shortened.

use lagrange_symbolic::model::ModelError;
use lagrange_symbolic::source::{item_location, item_subject, key_location};
use lagrange_symbolic::syntax::print::escape_text;

use super::ModelFile;
use crate::LoadError;

impl ModelFile {
    /// Every model error as one message, one line each: `file:line:column: key = "…":
    /// message`, with user text escaped and shortened.
    pub fn model_errors(&self, errors: &[ModelError]) -> LoadError {
        let lines: Vec<String> = errors
            .iter()
            .map(|e| {
                let (line, column) = item_location(&self.text, e.item);
                format!(
                    "{}:{line}:{column}: {}: {}",
                    self.shown_path(),
                    item_subject(&self.model, e.item),
                    escape_text(&e.message)
                )
            })
            .collect();
        LoadError(lines.join("\nerror: "))
    }

    /// The file's path as messages show it.
    pub fn shown_path(&self) -> String {
        escape_text(&self.path.display().to_string())
    }

    /// A failure located at the first line that starts with `key`.
    pub(crate) fn failure_at(&self, key: &str, message: String) -> LoadError {
        let (line, column) = key_location(&self.text, key).unwrap_or((1, 1));
        LoadError(format!(
            "{}:{line}:{column}: {}",
            self.shown_path(),
            escape_text(&message)
        ))
    }
}

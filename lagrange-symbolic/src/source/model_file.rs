//! The model of a model file: its `[model]` table and `[[draw]]` entries, read into the
//! same [`Model`] the derive's attribute builds. The file's other tables (values, initial
//! state, simulation, inputs, events) belong to the command and are not read here.

use serde::Deserialize;

use super::located::location;
use crate::model::{Draw, Model};

#[derive(Deserialize)]
struct Tables {
    model: Model,
    #[serde(default)]
    draw: Vec<Draw>,
}

/// The model of the model file `text`, its `[[draw]]` entries among the model's; an error
/// is the line and column it is at, with its message.
pub fn model_of(text: &str) -> Result<Model, ((usize, usize), String)> {
    let tables: Tables = toml::from_str(text).map_err(|e| {
        let at = e.span().map_or((1, 1), |span| location(text, span.start));
        (at, e.message().to_string())
    })?;
    let mut model = tables.model;
    model.draw.extend(tables.draw);
    Ok(model)
}

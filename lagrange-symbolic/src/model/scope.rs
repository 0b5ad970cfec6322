//! The names an expression of a model may use, and the parsing of model expressions
//! against them.

use std::collections::{HashMap, HashSet};

use super::bounds;
use super::error::item_label;
use super::{Item, Model, ModelError};
use crate::syntax::print::excerpt_text;
use crate::syntax::{Expr, PI, TIME};

/// The names an expression of a model may use.
pub(super) struct Scope<'a> {
    pub(super) model: &'a Model,
    /// `p.x`, `p.y`, `p.z` of particles and bodies, replaced by their position components.
    pub(super) components: HashMap<String, Expr>,
}

impl Scope<'_> {
    pub(super) fn parse(
        &self,
        item: Item,
        source: &str,
        allow_velocity: bool,
    ) -> Result<Expr, Vec<ModelError>> {
        let what = item_label(item);
        let expr = Expr::parse(source).map_err(|e| {
            vec![ModelError {
                item,
                message: format!("{what} does not parse: {e}"),
            }]
        })?;
        let mut errors = Vec::new();
        let mut reported = HashSet::new();
        expr.for_each_leaf(&mut |leaf| {
            let problem = match leaf {
                Expr::Name(n) => (!self.is_value(n)).then(|| {
                    format!(
                        "unknown name `{}` in {what}: not a coordinate, a parameter (field), `t` or `pi`",
                        excerpt_text(n)
                    )
                }),
                Expr::Velocity(q) if !self.model.coordinates.contains(q) => {
                    Some(format!("`dot({q})` in {what}, but `{q}` is not a coordinate"))
                }
                Expr::Velocity(q) if !allow_velocity => {
                    let hint = match item {
                        Item::Constraint(_) => {
                            " (a constraint linear in the velocities, as rolling is, is a `velocity_constraint`)"
                        }
                        _ => "",
                    };
                    Some(format!("{what} depends on the velocity `dot({q})`; it may depend only on t, coordinates and parameters{hint}"))
                }
                Expr::Velocity(_) => None,
                Expr::Acceleration(q) => Some(format!(
                    "`ddot({q})` in {what}: accelerations cannot appear in a model"
                )),
                _ => None,
            };
            if let Some(message) = problem
                && reported.insert(message.clone())
            {
                errors.push(ModelError { item, message });
            }
        });
        if !errors.is_empty() {
            return Err(errors);
        }
        let expr = expr.substitute(&|n| self.components.get(n).cloned());
        let problems = bounds::problems(&expr, what);
        if problems.is_empty() {
            Ok(expr)
        } else {
            Err(problems
                .into_iter()
                .map(|message| ModelError { item, message })
                .collect())
        }
    }

    fn is_value(&self, name: &str) -> bool {
        name == TIME
            || name == PI
            || self.components.contains_key(name)
            || self.model.coordinates.iter().any(|c| c == name)
            || self.model.parameters.iter().any(|p| p == name)
    }
}

//! The checks of a model's drawing: the points a report's animation draws besides the
//! particles and bodies, and the lines between points.

use std::collections::HashSet;

use super::checked::CheckedDraw;
use super::names;
use super::scope::Scope;
use super::{Item, Model, ModelError};
use crate::syntax::print::excerpt_text;
use crate::syntax::{Expr, Rational};

/// The fixed point every drawing knows: the origin of the fixed frame.
pub const ORIGIN: &str = "origin";

/// The most drawing entries a model may have.
pub const MAX_DRAWN: usize = 1000;

impl Model {
    /// Each entry: a new point with 2 or 3 components of position (functions of `t`, the
    /// coordinates and the parameters) under a fresh name, or a particle or body by its
    /// name; a line only to a known point other than itself.
    pub(super) fn check_drawing(
        &self,
        scope: &Scope<'_>,
        errors: &mut Vec<ModelError>,
    ) -> Vec<CheckedDraw> {
        if self.draw.len() > MAX_DRAWN {
            errors.push(ModelError {
                item: Item::Draw(MAX_DRAWN),
                message: format!(
                    "{} drawing entries: at most {MAX_DRAWN} are drawn",
                    self.draw.len()
                ),
            });
            return Vec::new();
        }
        let massive: HashSet<&str> = self
            .particles
            .iter()
            .map(|p| p.name.as_str())
            .chain(self.bodies.iter().map(|b| b.name.as_str()))
            .collect();
        let declared: HashSet<&str> = self
            .coordinates
            .iter()
            .chain(&self.parameters)
            .map(String::as_str)
            .collect();
        let mut drawn: HashSet<&str> = HashSet::new();
        for d in &self.draw {
            if !d.at.is_empty() {
                drawn.insert(d.point.as_str());
            }
        }
        let mut placed = HashSet::new();
        let mut checked = Vec::new();
        for (i, d) in self.draw.iter().enumerate() {
            let item = Item::Draw(i);
            let mut err = |message: String| errors.push(ModelError { item, message });
            let shown = excerpt_text(&d.point);
            if let Some(problem) = names::problem(&d.point, "a drawn point") {
                err(problem);
                continue;
            }
            let at = if d.at.is_empty() {
                if !massive.contains(d.point.as_str()) {
                    err(format!(
                        "`{shown}` is no particle or body: give its position with `at`"
                    ));
                    continue;
                }
                None
            } else {
                if d.point == ORIGIN || massive.contains(d.point.as_str()) {
                    err(format!(
                        "`{shown}` is already a point of the drawing: name the new point otherwise, or leave out `at`"
                    ));
                    continue;
                }
                if declared.contains(d.point.as_str()) {
                    err(format!(
                        "`{shown}` is a coordinate or parameter: name the drawn point otherwise"
                    ));
                    continue;
                }
                if !placed.insert(d.point.as_str()) {
                    err(format!("the point `{shown}` is placed twice"));
                    continue;
                }
                if !(2..=3).contains(&d.at.len()) {
                    err(format!(
                        "the point `{shown}` has {} position components: give 2 (plane) or 3",
                        d.at.len()
                    ));
                    continue;
                }
                let mut components = Vec::new();
                for source in &d.at {
                    match scope.parse(item, source, false) {
                        Ok(e) => components.push(e),
                        Err(e) => errors.extend(e),
                    }
                }
                if components.len() != d.at.len() {
                    continue;
                }
                components.resize(3, Expr::Number(Rational::int(0)));
                <[Expr; 3]>::try_from(components).ok()
            };
            if let Some(link) = &d.link {
                let known = link == ORIGIN
                    || massive.contains(link.as_str())
                    || drawn.contains(link.as_str());
                if !known || *link == d.point {
                    errors.push(ModelError {
                        item,
                        message: format!(
                            "the line from `{shown}` goes to `{}`, which is no other particle, body, drawn point or `{ORIGIN}`",
                            excerpt_text(link)
                        ),
                    });
                    continue;
                }
            }
            checked.push(CheckedDraw {
                point: d.point.clone(),
                at,
                link: d.link.clone(),
            });
        }
        checked
    }
}

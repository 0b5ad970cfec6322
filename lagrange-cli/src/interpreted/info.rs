//! The runtime's [`ModelInfo`] of derived equations: names, printed forms, drawing,
//! constraints, inputs, and the general theorems the engine decided.

use lagrange_core::{ConstraintInfo, Drawing, DrawnPoint, Formula, ModelInfo, TheoremInfo};
use lagrange_symbolic::equations::{Equations, Premise};

/// The [`ModelInfo`] of derived equations, owned.
pub(crate) fn model_info(equations: &Equations) -> ModelInfo {
    let texts = |names: &[String]| names.iter().cloned().map(Into::into).collect::<Vec<_>>();
    let constraints = equations.constraints.iter().flat_map(|c| {
        c.text
            .iter()
            .zip(&c.scleronomic)
            .map(|(text, &scleronomic)| ConstraintInfo {
                text: text.clone().into(),
                scleronomic,
            })
    });
    ModelInfo {
        name: equations.name.clone().into(),
        coordinates: texts(&equations.coordinates).into(),
        parameters: texts(&equations.parameters).into(),
        cyclic: equations.cyclic.clone().into(),
        conserved: equations.conserved,
        forced_or_dissipative: equations.forced_or_dissipative,
        equations_text: equations.text().into(),
        equations_latex: equations.latex().into(),
        equations_mathml: equations.mathml().into(),
        formulas: equations
            .printed_formulas()
            .iter()
            .map(|f| Formula {
                name: f.name.clone().into(),
                text: f.text.clone().into(),
                mathml: f.mathml.clone().into(),
            })
            .collect::<Vec<_>>()
            .into(),
        drawing: equations.drawing.as_ref().map(|d| Drawing {
            points: d
                .points
                .iter()
                .map(|p| DrawnPoint {
                    name: p.name.clone().into(),
                    kind: p.kind,
                })
                .collect::<Vec<_>>()
                .into(),
            links: d.links.clone().into(),
            frames: d.frames.clone().into(),
        }),
        constraints: constraints.collect::<Vec<_>>().into(),
        inputs: equations.inputs.clone().into(),
        theorems: theorem_infos(equations).into(),
    }
}

/// The runtime's account of the general theorems the engine decided.
fn theorem_infos(equations: &Equations) -> Vec<TheoremInfo> {
    let Some(theorems) = &equations.theorems else {
        return Vec::new();
    };
    theorems
        .laws
        .iter()
        .map(|law| {
            let (holds, why) = match &law.premise {
                Premise::Holds { symmetry, .. } => (true, symmetry.clone()),
                Premise::NotEstablished(why) => (false, why.clone()),
            };
            TheoremInfo {
                theorem: law.theorem,
                holds,
                why: why.into(),
                integral: law.integral,
            }
        })
        .collect()
}

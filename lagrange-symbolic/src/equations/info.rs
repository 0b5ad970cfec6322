//! What derived equations tell the runtime about their model, [`ModelInfo`], decided here
//! once: the derive writes it as a constant, the command's interpreter owns it. The
//! types are the runtime's, from the vocabulary both share.

pub use lagrange_common::{
    ConstraintInfo, Drawing, DrawnPoint, Formula, ModelInfo, Text, TheoremInfo,
};

use super::{Equations, Premise};

impl Equations {
    /// The runtime's account of these equations: names, printed forms, drawing,
    /// constraints, inputs and the general theorems as the engine decided them.
    pub fn model_info(&self) -> ModelInfo {
        let texts = |names: &[String]| names.iter().cloned().map(Into::into).collect::<Vec<_>>();
        let constraints =
            self.constraints.iter().flat_map(|c| {
                let holonomic = c.text.len() - c.on_velocities.min(c.text.len());
                c.text.iter().zip(&c.scleronomic).enumerate().map(
                    move |(i, (text, &scleronomic))| ConstraintInfo {
                        text: text.clone().into(),
                        scleronomic,
                        on_velocities: i >= holonomic,
                    },
                )
            });
        let formulas = self.printed_formulas().into_iter().map(|f| Formula {
            name: f.name.into(),
            text: f.text.into(),
            mathml: f.mathml.into(),
        });
        let drawing = self.drawing.as_ref().map(|d| Drawing {
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
        });
        let laws = self.theorems.iter().flat_map(|t| &t.laws);
        let theorems = laws.map(|law| {
            let (holds, why) = match &law.premise {
                Premise::Holds { symmetry, .. } => (true, symmetry),
                Premise::NotEstablished(why) => (false, why),
            };
            TheoremInfo {
                theorem: law.theorem,
                holds,
                why: why.clone().into(),
                integral: law.integral,
            }
        });
        ModelInfo {
            name: self.name.clone().into(),
            coordinates: texts(&self.coordinates).into(),
            parameters: texts(&self.parameters).into(),
            cyclic: self.cyclic.clone().into(),
            conserved: self.conserved,
            forced_or_dissipative: self.forced_or_dissipative,
            equations_text: self.text().into(),
            equations_latex: self.latex().into(),
            equations_mathml: self.mathml().into(),
            formulas: formulas.collect::<Vec<_>>().into(),
            drawing,
            constraints: constraints.collect::<Vec<_>>().into(),
            inputs: self.inputs.clone().into(),
            theorems: theorems.collect::<Vec<_>>().into(),
            mass_matrix_tree: self.mass_matrix_tree().into(),
        }
    }

    /// [`ModelInfo::mass_matrix_tree`]: the shape of `M` from its identically zero entries
    /// in the dynamics program. Empty when an entry off the chains is not zero, and when
    /// every chain is the whole of `q` before it (a dense `M`: nothing to skip).
    pub fn mass_matrix_tree(&self) -> Vec<Option<usize>> {
        let n = self.coordinates.len();
        let zero = self.programs.dynamics.zero_outputs();
        let [m, _] = super::layout::Layout::of(self).dynamics();
        if zero.len() < m.end {
            return Vec::new();
        }
        let nonzero = |i: usize, j: usize| !zero[i * n + j] || !zero[j * n + i];
        let parents: Vec<Option<usize>> = (0..n)
            .map(|i| (0..i).rev().find(|&j| nonzero(i, j)))
            .collect();
        for i in 0..n {
            let mut on_chain = vec![false; i];
            let mut j = parents[i];
            while let Some(k) = j {
                on_chain[k] = true;
                j = parents[k];
            }
            if (0..i).any(|j| nonzero(i, j) && !on_chain[j]) {
                return Vec::new();
            }
        }
        let dense = parents
            .iter()
            .enumerate()
            .all(|(i, &parent)| parent == i.checked_sub(1));
        if dense { Vec::new() } else { parents }
    }
}

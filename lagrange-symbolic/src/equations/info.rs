//! What derived equations tell the runtime about their model, [`ModelInfo`], decided here
//! once: the derive writes it as a constant, the command's interpreter owns it. The
//! types are the runtime's, from the vocabulary both share.

pub use lagrange_common::{
    ConstraintInfo, Drawing, DrawnPoint, Formula, ModelInfo, Omitted, Text, TheoremInfo,
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
            omitted: Omitted::NONE,
        }
    }

    /// [`ModelInfo::mass_matrix_tree`]: the shape of `M` from its identically zero entries
    /// in the dynamics program (`tree_of_shape`); empty for a model with constraints,
    /// whose motion is solved dense.
    pub fn mass_matrix_tree(&self) -> Vec<Option<usize>> {
        let n = self.coordinates.len();
        let zero = self.programs.dynamics.zero_outputs();
        let [m, _] = self.layout().dynamics();
        if self.constraints.is_some() || zero.len() < m.end {
            return Vec::new();
        }
        tree_of_shape(n, &zero[m])
    }
}

/// The tree of the shape of an `n × n` matrix whose entries `zero` (row-major) says are
/// zero: entry `i` the nearest earlier `j` with `(i, j)` or `(j, i)` not zero. Empty when
/// a non-zero entry lies off the chains `i, λ(i), λ(λ(i)), …`, and when every chain is the
/// whole of what comes before (a dense matrix: nothing to skip).
fn tree_of_shape(n: usize, zero: &[bool]) -> Vec<Option<usize>> {
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

#[cfg(test)]
mod tests {
    use super::tree_of_shape;

    /// The row-major zero pattern of the symmetric matrix with non-zero `entries` (and
    /// its diagonal).
    fn pattern(n: usize, entries: &[(usize, usize)]) -> Vec<bool> {
        let mut zero = vec![true; n * n];
        for i in 0..n {
            zero[i * n + i] = false;
        }
        for &(i, j) in entries {
            zero[i * n + j] = false;
            zero[j * n + i] = false;
        }
        zero
    }

    #[test]
    fn a_tree_shape_gives_its_tree_and_other_shapes_none() {
        // 0 → 1 → 2 and 0 → 3: M_21, M_20, M_10, M_30 may be non-zero.
        let tree = pattern(4, &[(1, 0), (2, 1), (2, 0), (3, 0)]);
        assert_eq!(tree_of_shape(4, &tree), [None, Some(0), Some(1), Some(0)]);
        // A diagonal matrix: every coordinate a root.
        assert_eq!(tree_of_shape(3, &pattern(3, &[])), [None, None, None]);
        // 1 and 2 under 0, M_32 and M_31: 3's chain is 3 → 2 → 0, M_31 off it: no tree.
        let off = pattern(4, &[(1, 0), (2, 0), (3, 2), (3, 1)]);
        assert_eq!(tree_of_shape(4, &off), [None; 0]);
        // A chain 0 → 1 → 2 with M_20 = 0 is still a chain: dense, nothing to skip.
        let chain_gap = pattern(3, &[(1, 0), (2, 1)]);
        assert!(tree_of_shape(3, &chain_gap).is_empty());
        // 1 and 2 both under 0: M_20 but not M_21.
        let siblings = pattern(3, &[(1, 0), (2, 0)]);
        assert_eq!(tree_of_shape(3, &siblings), [None, Some(0), Some(0)]);
        // Dense: nothing to skip.
        let dense = pattern(3, &[(1, 0), (2, 0), (2, 1)]);
        assert!(tree_of_shape(3, &dense).is_empty());
    }
}

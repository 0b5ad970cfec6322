//! A model file's derivation written out: as text (`text.rs`), as a LaTeX document
//! (`latex.rs`, from `templates/latex/report.tex`) or as JSON (`json.rs`): what
//! `lagrange derive` prints and the Python package's `derivation`. Here: what the text and
//! the LaTeX read of the equations alike.

use lagrange_symbolic::equations::{Equations, Symbolic};
use lagrange_symbolic::syntax::Expr;

pub mod json;
pub mod latex;
pub mod text;

/// The upper triangle of the (symmetric) mass matrix without its zero entries:
/// `(i, j, Mᵢⱼ)`.
fn mass_entries(symbolic: &Symbolic) -> impl Iterator<Item = (usize, usize, &Expr)> {
    symbolic
        .mass_matrix
        .iter()
        .enumerate()
        .flat_map(|(i, row)| row.iter().enumerate().skip(i).map(move |(j, m)| (i, j, m)))
        .filter(|(_, _, m)| !m.is_zero())
}

/// The names of the cyclic coordinates.
fn cyclic(eq: &Equations) -> Vec<&str> {
    eq.cyclic
        .iter()
        .map(|&i| eq.coordinates[i].as_str())
        .collect()
}

/// The non-zero entries of the printed linearization, as (matrix, row, column, value):
/// `K` and `C` by coordinates, `B` by coordinate and input.
fn linearization_entries(eq: &Equations) -> Vec<(&'static str, &str, &str, &Expr)> {
    let Some(l) = eq.symbolic.as_ref().and_then(|s| s.linearization.as_ref()) else {
        return Vec::new();
    };
    let inputs: Vec<&str> = eq
        .inputs
        .iter()
        .map(|&k| eq.parameters[k].as_str())
        .collect();
    let coordinates: Vec<&str> = eq.coordinates.iter().map(String::as_str).collect();
    [
        ("K", &l.coordinates, &coordinates),
        ("C", &l.velocities, &coordinates),
        ("B", &l.inputs, &inputs),
    ]
    .into_iter()
    .flat_map(|(name, rows, columns)| {
        let coordinates = &coordinates;
        rows.iter().enumerate().flat_map(move |(i, row)| {
            row.iter()
                .zip(columns.iter())
                .filter(|(value, _)| !value.is_zero())
                .map(move |(value, &column)| (name, coordinates[i], column, value))
        })
    })
    .collect()
}

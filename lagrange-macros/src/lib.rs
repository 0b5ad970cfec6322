//! `#[derive(Lagrangian)]`: the proc-macro front end of lagrange.
//!
//! The attributes are read into a `lagrange_symbolic::model::Model` (`attr`), the engine
//! derives the equations (or `source` reads them from the crate's `.lagrange/` folder
//! when the engine is off), and the straight-line programs become Rust code (`expand`,
//! `program`). Use it through the `lagrange` crate, which re-exports it.

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

mod attr;
mod expand;
mod file;
mod program;
mod source;

/// Derives `lagrange::LagrangianSystem<Const<N>>` from `#[lagrangian(...)]`; see the `lagrange`
/// crate for the attribute syntax.
#[proc_macro_derive(Lagrangian, attributes(lagrangian))]
pub fn derive_lagrangian(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}

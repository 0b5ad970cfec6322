//! Tokens out: the `LagrangianSystem` impl generated from the derived equations.

use lagrange_symbolic::equations::{Conserved, Equations, Input};
use lagrange_symbolic::ir::Program;
use lagrange_symbolic::print;
use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use crate::attr::{self, Parsed};
use crate::program;

/// Expands `#[derive(Lagrangian)]`.
pub fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    let parsed = attr::parse(input);
    let model_errors = |errors: Vec<lagrange_symbolic::model::ModelError>| {
        errors
            .into_iter()
            .map(|e| syn::Error::new(parsed.span(e.item), e.message))
    };
    if let Some(reading) = &parsed.errors {
        // Report what the model checks find too, without running the engine.
        let checks = parsed.model.check().err().unwrap_or_default();
        let all = std::iter::once(reading.clone()).chain(model_errors(checks));
        return Err(attr::combine(all).unwrap_or_else(|| reading.clone()));
    }
    let equations = lagrange_symbolic::derive(&parsed.model).map_err(|errors| {
        attr::combine(model_errors(errors))
            .unwrap_or_else(|| syn::Error::new(input.ident.span(), "the model is invalid"))
    })?;
    implementation(input, &parsed, &equations)
}

fn implementation(
    input: &DeriveInput,
    parsed: &Parsed,
    eq: &Equations,
) -> syn::Result<TokenStream> {
    let name = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let n = eq.coordinates.len();
    let fields = &parsed.fields;
    let inputs = eq.inputs();
    let read_input = |i: usize| match inputs.get(i) {
        Input::Time => quote!(t),
        Input::Coordinate(k) => quote!(q[#k]),
        Input::Velocity(k) => quote!(qd[#k]),
        Input::Parameter(k) => {
            let field = &fields[k];
            quote!(self.#field)
        }
    };
    let body = |p: &Program| program::block(p, &read_input);
    let dynamics = body(&eq.programs.dynamics)?;
    let lagrangian = body(&eq.programs.lagrangian)?;
    let energy = body(&eq.programs.energy)?;
    let jacobi = body(&eq.programs.jacobi_integral)?;
    let momenta = body(&eq.programs.momenta)?;

    let coordinates = &eq.coordinates;
    let parameters = &eq.parameters;
    let cyclic = &eq.cyclic;
    let conserved = match eq.conserved {
        Conserved::Energy => quote!(Energy),
        Conserved::JacobiIntegral => quote!(JacobiIntegral),
        Conserved::None => quote!(None),
    };
    let text = print::equations_text(eq);
    let latex = print::equations_latex(eq);
    let parameter_count = fields.len();
    let indices = 0..parameter_count;
    let nn = n * n;
    let core = quote!(::lagrange::core);
    let vector = quote!(#core::nalgebra::SVector<f64, #n>);
    let matrix = quote!(#core::nalgebra::SMatrix<f64, #n, #n>);
    Ok(quote! {
        #[automatically_derived]
        impl #impl_generics #core::LagrangianSystem<#n> for #name #ty_generics #where_clause {
            const COORDINATES: [&'static str; #n] = [#(#coordinates),*];
            const PARAMETERS: &'static [&'static str] = &[#(#parameters),*];
            const CYCLIC: &'static [usize] = &[#(#cyclic),*];
            const CONSERVED: #core::Conserved = #core::Conserved::#conserved;
            const EQUATIONS_TEXT: &'static str = #text;
            const EQUATIONS_LATEX: &'static str = #latex;

            fn parameter_values(&self) -> ::std::vec::Vec<f64> {
                ::std::vec![#(self.#fields),*]
            }

            fn from_parameter_values(values: &[f64]) -> ::core::result::Result<Self, #core::Error> {
                if values.len() != #parameter_count {
                    return ::core::result::Result::Err(#core::Error::InvalidInput(::std::format!(
                        "{} takes {} parameter values, got {}",
                        ::core::stringify!(#name), #parameter_count, values.len()
                    )));
                }
                ::core::result::Result::Ok(Self { #(#fields: values[#indices]),* })
            }

            fn mass_matrix(&self, t: f64, q: &#vector, qd: &#vector) -> #matrix {
                self.mass_matrix_and_forcing(t, q, qd).0
            }

            fn forcing(&self, t: f64, q: &#vector, qd: &#vector) -> #vector {
                self.mass_matrix_and_forcing(t, q, qd).1
            }

            #[allow(unused_variables, clippy::all)]
            fn mass_matrix_and_forcing(&self, t: f64, q: &#vector, qd: &#vector) -> (#matrix, #vector) {
                let values: [f64; #nn + #n] = #dynamics;
                (
                    <#matrix>::from_row_slice(&values[..#nn]),
                    <#vector>::from_column_slice(&values[#nn..]),
                )
            }

            #[allow(unused_variables, clippy::all)]
            fn lagrangian(&self, t: f64, q: &#vector, qd: &#vector) -> f64 {
                let [value]: [f64; 1] = #lagrangian;
                value
            }

            #[allow(unused_variables, clippy::all)]
            fn energy(&self, t: f64, q: &#vector, qd: &#vector) -> f64 {
                let [value]: [f64; 1] = #energy;
                value
            }

            #[allow(unused_variables, clippy::all)]
            fn jacobi_integral(&self, t: f64, q: &#vector, qd: &#vector) -> f64 {
                let [value]: [f64; 1] = #jacobi;
                value
            }

            #[allow(unused_variables, clippy::all)]
            fn momenta(&self, t: f64, q: &#vector, qd: &#vector) -> #vector {
                let values: [f64; #n] = #momenta;
                <#vector>::from_column_slice(&values)
            }
        }
    })
}

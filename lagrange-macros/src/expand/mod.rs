//! Tokens out: the data and programs of the derived equations (`INFO`, the `Programs`
//! impl over which the runtime implements the system's traits), and for a model that
//! ignores coordinates the reduced system type with its own.
//!
//! The full system's items are in [`system`], its `ModelInfo` constant in [`info`], the
//! reduced system in [`reduced`]; here are the entry point, the stub of a model with
//! errors and what they share.

mod info;
mod reduced;
mod system;

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;
use syn::spanned::Spanned;

use crate::attr::{self, Parsed};
pub(super) use crate::program::CORE;
use crate::source;
use lagrange_symbolic::equations::Derived;
use lagrange_symbolic::model::Model;
use reduced::reduced_system;
use system::system_impl;

/// Expands `#[derive(Lagrangian)]`. When the model has errors, they come with a stub of
/// the impls, so that uses of the type do not add a second wave of errors.
pub(crate) fn derive(input: &DeriveInput) -> TokenStream {
    let parsed = attr::parse(input);
    derive_checked(input, &parsed).unwrap_or_else(|error| {
        let error = error.into_compile_error();
        let stub = stub(input, &parsed.model);
        quote!(#error #stub)
    })
}

/// The expansion, or the errors in the model.
fn derive_checked(input: &DeriveInput, parsed: &Parsed) -> syn::Result<TokenStream> {
    let model_errors = |errors: Vec<lagrange_symbolic::model::ModelError>| {
        errors.into_iter().map(|e| {
            let message = match &parsed.file {
                Some(file) => file.message(&parsed.model, &e),
                None => e.message,
            };
            syn::Error::new(parsed.span(e.item), message)
        })
    };
    if let Some(reading) = &parsed.errors {
        // Report what the model checks find too, without running the engine (unless the
        // model was to come from a file that did not give it).
        let checks = if parsed.file_failed {
            Vec::new()
        } else {
            parsed.model.check().err().unwrap_or_default()
        };
        let all = std::iter::once(reading.clone()).chain(model_errors(checks));
        return Err(attr::combine(all).unwrap_or_else(|| reading.clone()));
    }
    let (derived, tracking) = source::derive(&parsed.model).map_err(|errors| {
        attr::combine(model_errors(errors))
            .unwrap_or_else(|| syn::Error::new(input.ident.span(), "the model is invalid"))
    })?;
    let system = expand(input, parsed, &derived)?;
    let file = match &parsed.file {
        Some(file) => file.tracking()?,
        None => TokenStream::new(),
    };
    Ok(quote!(#system #tracking #file))
}

fn expand(input: &DeriveInput, parsed: &Parsed, derived: &Derived) -> syn::Result<TokenStream> {
    let target = Target::of(input);
    let full = system_impl(&target, &parsed.fields, &derived.full, parsed.omitted, None)?;
    let reduced = match &derived.reduced {
        Some(reduced) => {
            if !input.generics.params.is_empty() {
                return Err(syn::Error::new(
                    input.generics.span(),
                    "`ignore(...)` is not supported on generic structs",
                ));
            }
            reduced_system(input, parsed, reduced)?
        }
        None => TokenStream::new(),
    };
    Ok(quote!(#full #reduced))
}

/// The type the impls are for, with its generics.
pub(super) struct Target {
    /// `<…>` of the impl.
    pub(super) generics: TokenStream,
    /// The type with its parameters.
    pub(super) ty: TokenStream,
    /// The where clause.
    pub(super) where_clause: TokenStream,
}

impl Target {
    /// The struct the derive is on.
    pub(super) fn of(input: &DeriveInput) -> Target {
        let name = &input.ident;
        let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
        Target {
            generics: quote!(#impl_generics),
            ty: quote!(#name #ty_generics),
            where_clause: quote!(#where_clause),
        }
    }

    /// `impl<…> trait for Type where …`, or the inherent `impl<…> Type where …`.
    pub(super) fn header(&self, trait_path: Option<TokenStream>) -> TokenStream {
        let Target {
            generics,
            ty,
            where_clause,
        } = self;
        match trait_path {
            Some(path) => quote!(impl #generics #path for #ty #where_clause),
            None => quote!(impl #generics #ty #where_clause),
        }
    }
}

/// For a model with errors: its `INFO` (what was read of it) and impls of the traits the
/// derive implements, whose functions are never called because the crate does not compile.
fn stub(input: &DeriveInput, model: &Model) -> TokenStream {
    let target = Target::of(input);
    let n = model.coordinates.len();
    let k = model.constraints.len() + model.velocity_constraints.len();
    let cow = quote!(::std::borrow::Cow::Borrowed);
    let name = &model.name;
    let coordinates = &model.coordinates;
    let parameters = &model.parameters;
    let holonomic = model.constraints.iter().map(|text| (text, false));
    let on_velocities = model.velocity_constraints.iter().map(|text| (text, true));
    let constraints = holonomic.chain(on_velocities).map(|(text, on_velocities)| {
        quote!(#CORE::ConstraintInfo { text: #cow(#text), scleronomic: false, on_velocities: #on_velocities })
    });
    let never = quote!(::core::unreachable!("the model has errors"));
    let inherent = target.header(None);
    let dimension = quote!(#CORE::nalgebra::Const<#n>);
    let programs = target.header(Some(quote!(#CORE::Programs)));
    let from_values = target.header(Some(quote!(#CORE::FromParameterValues<#dimension>)));
    quote! {
        #[automatically_derived]
        #inherent {
            /// What was read of the model, which has errors.
            pub const INFO: #CORE::ModelInfo = #CORE::ModelInfo {
                name: #cow(#name),
                coordinates: #cow(&[#(#cow(#coordinates)),*]),
                parameters: #cow(&[#(#cow(#parameters)),*]),
                cyclic: #cow(&[]),
                conserved: #CORE::Conserved::None,
                forced_or_dissipative: false,
                equations_text: #cow(""),
                equations_latex: #cow(""),
                equations_mathml: #cow(""),
                formulas: #cow(&[]),
                drawing: ::core::option::Option::None,
                constraints: #cow(&[#(#constraints),*]),
                inputs: #cow(&[]),
                theorems: #cow(&[]),
                mass_matrix_tree: #cow(&[]),
                omitted: #CORE::Omitted::NONE,
            };
        }

        #[automatically_derived]
        #from_values {
            const PARAMETER_COUNT: usize = 0;
            fn from_parameter_values(_: &[f64]) -> ::core::result::Result<Self, #CORE::Error> { #never }
        }

        #[automatically_derived]
        #programs {
            type Coordinates = #dimension;
            type Constraints = #CORE::nalgebra::Const<#k>;
            fn model(&self) -> &#CORE::ModelInfo { &Self::INFO }
            fn parameters(&self) -> ::std::vec::Vec<f64> { #never }
            fn with_parameters(&self, _: &[f64]) -> ::core::result::Result<Self, #CORE::Error> { #never }
            fn run(
                &self,
                _: #CORE::Quantity,
                _: &#CORE::system::Arguments<'_, #dimension>,
                _: &mut dyn ::core::ops::FnMut(&mut [f64]),
            ) {
                #never
            }
        }
    }
}

//! The `ModelInfo` constant: the engine's account of a model
//! ([`Equations::model_info`]) written as a Rust constant.

use lagrange_symbolic::equations::info::{
    ConstraintInfo, Drawing, DrawnPoint, Formula, ModelInfo, Omitted, TheoremInfo,
};
use lagrange_symbolic::equations::{Axis, Conserved, Equations, PointKind, Theorem};
use proc_macro2::TokenStream;
use quote::quote;

use super::CORE;

// Longer than 120 lines because it spells one constant, field by field, destructuring
// every struct so that a new field does not compile until it is written: a split would
// scatter the fields of one literal.
/// The `ModelInfo` constant of a model's equations, whose generated code leaves out the
/// groups `omitted`. The value is the engine's; this only spells it, field by field,
/// destructuring every struct so that a field added to the shared vocabulary does not
/// compile here until it is written.
pub(super) fn model_info(eq: &Equations, omitted: Omitted) -> TokenStream {
    let cow = quote!(::std::borrow::Cow::Borrowed);
    let ModelInfo {
        name,
        coordinates,
        parameters,
        cyclic,
        conserved,
        forced_or_dissipative,
        equations_text,
        equations_latex,
        equations_mathml,
        formulas,
        drawing,
        constraints,
        inputs,
        theorems,
        mass_matrix_tree,
        omitted: _,
    } = eq.model_info();
    let Omitted {
        variational,
        derivatives,
    } = omitted;
    let (name, coordinates, parameters) = (&*name, coordinates.iter(), parameters.iter());
    let (cyclic, inputs) = (cyclic.iter(), inputs.iter());
    let mass_matrix_tree = mass_matrix_tree.iter().map(|parent| match parent {
        Some(j) => quote!(::core::option::Option::Some(#j)),
        None => quote!(::core::option::Option::None),
    });
    let conserved = match conserved {
        Conserved::Energy => quote!(Energy),
        Conserved::JacobiIntegral => quote!(JacobiIntegral),
        Conserved::None => quote!(None),
    };
    let (text, latex, mathml) = (&*equations_text, &*equations_latex, &*equations_mathml);
    let formulas = formulas.iter().map(|Formula { name, text, mathml }| {
        let (name, text, mathml) = (&**name, &**text, &**mathml);
        quote!(#CORE::Formula { name: #cow(#name), text: #cow(#text), mathml: #cow(#mathml) })
    });
    let drawing = match drawing {
        Some(Drawing {
            points,
            links,
            frames,
        }) => {
            let points = points.iter().map(|DrawnPoint { name, kind }| {
                let name = &**name;
                let kind = match kind {
                    PointKind::Particle => quote!(Particle),
                    PointKind::Body => quote!(Body),
                    PointKind::Joint => quote!(Joint),
                    PointKind::Point => quote!(Point),
                };
                quote!(#CORE::DrawnPoint { name: #cow(#name), kind: #CORE::PointKind::#kind })
            });
            let links = links.iter().map(|(a, b)| match b {
                Some(b) => quote!((#a, ::core::option::Option::Some(#b))),
                None => quote!((#a, ::core::option::Option::None)),
            });
            let frames = frames.iter();
            quote! {
                ::core::option::Option::Some(#CORE::Drawing {
                    points: #cow(&[#(#points),*]),
                    links: #cow(&[#(#links),*]),
                    frames: #cow(&[#(#frames),*]),
                })
            }
        }
        None => quote!(::core::option::Option::None),
    };
    let constraints = constraints
        .iter()
        .map(
            |ConstraintInfo {
                 text,
                 scleronomic,
                 on_velocities,
             }| {
                let text = &**text;
                quote!(#CORE::ConstraintInfo { text: #cow(#text), scleronomic: #scleronomic, on_velocities: #on_velocities })
            },
        );
    let theorems = theorems.iter().map(
        |TheoremInfo {
             theorem: which,
             holds,
             why,
             integral,
         }| {
            let (which, why) = (theorem(*which), &**why);
            quote! {
                #CORE::TheoremInfo {
                    theorem: #which,
                    holds: #holds,
                    why: #cow(#why),
                    integral: #integral,
                }
            }
        },
    );
    quote! {
        #CORE::ModelInfo {
            name: #cow(#name),
            coordinates: #cow(&[#(#cow(#coordinates)),*]),
            parameters: #cow(&[#(#cow(#parameters)),*]),
            cyclic: #cow(&[#(#cyclic),*]),
            conserved: #CORE::Conserved::#conserved,
            forced_or_dissipative: #forced_or_dissipative,
            equations_text: #cow(#text),
            equations_latex: #cow(#latex),
            equations_mathml: #cow(#mathml),
            formulas: #cow(&[#(#formulas),*]),
            drawing: #drawing,
            constraints: #cow(&[#(#constraints),*]),
            inputs: #cow(&[#(#inputs),*]),
            theorems: #cow(&[#(#theorems),*]),
            mass_matrix_tree: #cow(&[#(#mass_matrix_tree),*]),
            omitted: #CORE::Omitted { variational: #variational, derivatives: #derivatives },
        }
    }
}

/// The runtime's constant for a theorem. The matches are exhaustive: a theorem added to
/// the vocabulary the engine and the runtime share does not compile here until the derive
/// writes it.
fn theorem(theorem: Theorem) -> TokenStream {
    let axis = |a: Axis| match a {
        Axis::X => quote!(#CORE::Axis::X),
        Axis::Y => quote!(#CORE::Axis::Y),
        Axis::Z => quote!(#CORE::Axis::Z),
    };
    match theorem {
        Theorem::Momentum(a) => {
            let a = axis(a);
            quote!(#CORE::Theorem::Momentum(#a))
        }
        Theorem::AngularMomentum(a) => {
            let a = axis(a);
            quote!(#CORE::Theorem::AngularMomentum(#a))
        }
        Theorem::KineticEnergy => quote!(#CORE::Theorem::KineticEnergy),
        Theorem::Virial => quote!(#CORE::Theorem::Virial),
        Theorem::MomentOfInertia => quote!(#CORE::Theorem::MomentOfInertia),
    }
}

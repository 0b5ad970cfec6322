//! The `ModelInfo` constant: what a model declares and derived, as the runtime reads it.

use lagrange_symbolic::equations::{Axis, Conserved, Equations, PointKind, Premise, Theorem};
use proc_macro2::TokenStream;
use quote::quote;

use super::CORE;

/// The `ModelInfo` constant of a model's equations.
pub(super) fn model_info(eq: &Equations) -> TokenStream {
    let cow = quote!(::std::borrow::Cow::Borrowed);
    let name = &eq.name;
    let coordinates = &eq.coordinates;
    let parameters = &eq.parameters;
    let cyclic = &eq.cyclic;
    let conserved = match eq.conserved {
        Conserved::Energy => quote!(Energy),
        Conserved::JacobiIntegral => quote!(JacobiIntegral),
        Conserved::None => quote!(None),
    };
    let forced_or_dissipative = eq.forced_or_dissipative;
    let inputs = &eq.inputs;
    let text = eq.text();
    let latex = eq.latex();
    let mathml = eq.mathml();
    let formulas = eq.printed_formulas();
    let formulas = formulas.iter().map(|f| {
        let (name, text, mathml) = (&f.name, &f.text, &f.mathml);
        quote!(#CORE::Formula { name: #cow(#name), text: #cow(#text), mathml: #cow(#mathml) })
    });
    let drawing = match &eq.drawing {
        Some(d) => {
            let points = d.points.iter().map(|p| {
                let name = &p.name;
                let kind = match p.kind {
                    PointKind::Particle => quote!(Particle),
                    PointKind::Body => quote!(Body),
                    PointKind::Joint => quote!(Joint),
                    PointKind::Point => quote!(Point),
                };
                quote!(#CORE::DrawnPoint { name: #cow(#name), kind: #CORE::PointKind::#kind })
            });
            let links = d.links.iter().map(|(a, b)| match b {
                Some(b) => quote!((#a, ::core::option::Option::Some(#b))),
                None => quote!((#a, ::core::option::Option::None)),
            });
            let frames = &d.frames;
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
    let constraints = eq.constraints.iter().flat_map(|c| {
        c.text.iter().zip(&c.scleronomic).map(|(text, scleronomic)| {
            quote!(#CORE::ConstraintInfo { text: #cow(#text), scleronomic: #scleronomic })
        })
    });
    let laws = eq.theorems.iter().flat_map(|t| &t.laws);
    let theorems = laws.map(|law| {
        let theorem = theorem(law.theorem);
        let (holds, why) = match &law.premise {
            Premise::Holds { symmetry, .. } => (true, symmetry),
            Premise::NotEstablished(why) => (false, why),
        };
        let integral = law.integral;
        quote! {
            #CORE::TheoremInfo {
                theorem: #theorem,
                holds: #holds,
                why: #cow(#why),
                integral: #integral,
            }
        }
    });
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

//! Tokens out: the `LagrangianSystem` impl generated from the derived equations, and for
//! a model that ignores coordinates the reduced system type with its impls.

use lagrange_symbolic::equations::{
    ConstraintEquations, Derived, Equations, Input, PointKind, Premise, Reduced,
};
use lagrange_symbolic::ir::Program;
use lagrange_symbolic::syntax::print;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::{DeriveInput, Ident};

use crate::attr::{self, Parsed};
use crate::{program, source};
use lagrange_symbolic::model::Model;

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
    let (derived, tracking) = source::derive(&parsed.model).map_err(|errors| {
        attr::combine(model_errors(errors))
            .unwrap_or_else(|| syn::Error::new(input.ident.span(), "the model is invalid"))
    })?;
    let system = expand(input, parsed, &derived)?;
    Ok(quote!(#system #tracking))
}

fn expand(input: &DeriveInput, parsed: &Parsed, derived: &Derived) -> syn::Result<TokenStream> {
    let target = Target::of(input);
    let full = system_impl(&target, &parsed.fields, &derived.full)?;
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

/// The path of the runtime crate, as the facade re-exports it.
const CORE: Core = Core;

struct Core;

impl quote::ToTokens for Core {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        tokens.extend(quote!(::lagrange::core));
    }
}

/// The type the impls are for, with its generics.
struct Target {
    /// `<…>` of the impl.
    generics: TokenStream,
    /// The type with its parameters.
    ty: TokenStream,
    /// The where clause.
    where_clause: TokenStream,
}

impl Target {
    /// The struct the derive is on.
    fn of(input: &DeriveInput) -> Target {
        let name = &input.ident;
        let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
        Target {
            generics: quote!(#impl_generics),
            ty: quote!(#name #ty_generics),
            where_clause: quote!(#where_clause),
        }
    }

    /// `impl<…> trait for Type where …`, or the inherent `impl<…> Type where …`.
    fn header(&self, trait_path: Option<TokenStream>) -> TokenStream {
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

/// The inherent constants, `LagrangianSystem<n>` and `FromParameterValues<n>` impls (and
/// for a constrained model `ConstrainedSystem<n, k>`).
fn system_impl(target: &Target, fields: &[Ident], eq: &Equations) -> syn::Result<TokenStream> {
    let n = eq.coordinates.len();
    let header = target.header(Some(quote!(#CORE::LagrangianSystem<#n>)));
    let inherent = target.header(None);
    let from_values = target.header(Some(quote!(#CORE::FromParameterValues<#n>)));
    let inputs = eq.inputs();
    let read_input = |i: usize| match inputs.get(i) {
        Input::Time => quote!(t),
        Input::Coordinate(k) => quote!(q[#k]),
        Input::Velocity(k) => quote!(qd[#k]),
        Input::Parameter(k) => {
            let field = &fields[k];
            quote!(self.#field)
        }
        Input::Acceleration(k) => quote!(qdd[#k]),
        Input::Multiplier(k) => quote!(multipliers[#k]),
    };
    let body = |p: &Program| program::block(p, &read_input);
    let dynamics = body(&eq.programs.dynamics)?;
    let lagrangian = body(&eq.programs.lagrangian)?;
    let energy = body(&eq.programs.energy)?;
    let jacobi = body(&eq.programs.jacobi_integral)?;
    let momenta = body(&eq.programs.momenta)?;
    let momentum_rate = body(&eq.programs.momentum_rate)?;
    let momentum_jacobian = body(&eq.programs.momentum_jacobian)?;
    let hessian = body(&eq.programs.lagrangian_hessian)?;
    let residual_jacobians = body(&eq.programs.residual_jacobians)?;
    let m = eq.parameters.len();
    let residual_jacobian_count = 2 * n * n + n * m;

    let info = model_info(eq);
    let parameter_count = fields.len();
    let indices = 0..parameter_count;
    let type_name = &eq.name;
    let nn = n * n;
    let vector = quote!(#CORE::nalgebra::SVector<f64, #n>);
    let matrix = quote!(#CORE::nalgebra::SMatrix<f64, #n, #n>);
    let wrenches = match &eq.joint_wrenches {
        Some(w) => {
            let program = body(&w.program)?;
            let bodies = &w.bodies;
            let b = bodies.len();
            let outputs = 6 * b;
            let elements = (0..b).map(|k| {
                let (f, m) = (6 * k, 6 * k + 3);
                quote! {
                    #CORE::JointWrench {
                        force: #CORE::nalgebra::Vector3::new(values[#f], values[#f + 1], values[#f + 2]),
                        moment: #CORE::nalgebra::Vector3::new(values[#m], values[#m + 1], values[#m + 2]),
                    }
                }
            });
            quote! {
                /// The jointed bodies, in the order of
                /// [`joint_wrenches`](Self::joint_wrenches).
                pub const JOINTED_BODIES: [&'static str; #b] = [#(#bodies),*];

                /// The wrench each joint transmits to its body at `(t, q, q̇, q̈)`: the
                /// Newton–Euler equations of the bodies summed from the leaves of the tree
                /// (inertia and the gravity field; other forces are not in them).
                #[allow(unused_variables, clippy::all)]
                pub fn joint_wrenches(&self, t: f64, q: &#vector, qd: &#vector, qdd: &#vector) -> [#CORE::JointWrench; #b] {
                    let values: [f64; #outputs] = #program;
                    [#(#elements),*]
                }
            }
        }
        None => TokenStream::new(),
    };
    let drawing_items = match &eq.drawing {
        Some(d) => {
            // A position depends on no velocity; were one read, NaN would say so.
            let read_position = |i: usize| match inputs.get(i) {
                Input::Velocity(_) => quote!(f64::NAN),
                _ => read_input(i),
            };
            let program = program::block(&d.program, &read_position)?;
            let outputs = d.program.outputs;
            quote! {
                #[allow(unused_variables, clippy::all)]
                fn drawing(&self, t: f64, q: &#vector) -> ::std::vec::Vec<f64> {
                    let values: [f64; #outputs] = #program;
                    values.to_vec()
                }
            }
        }
        None => TokenStream::new(),
    };
    let theorem_items = match &eq.theorems {
        Some(theorems) => {
            let functions = body(&theorems.dynamic_functions)?;
            let balance = body(&theorems.balance)?;
            let outputs = theorems.balance.outputs;
            let pairs = outputs / 2;
            quote! {
                #[allow(unused_variables, clippy::all)]
                fn dynamic_functions(&self, t: f64, q: &#vector, qd: &#vector)
                    -> ::core::option::Option<#CORE::DynamicFunctions> {
                    let values: [f64; 9] = #functions;
                    ::core::option::Option::Some(#CORE::DynamicFunctions::from_values(values))
                }

                #[allow(unused_variables, clippy::all)]
                fn balance(&self, t: f64, q: &#vector, qd: &#vector, qdd: &#vector)
                    -> ::std::vec::Vec<(f64, f64)> {
                    let values: [f64; #outputs] = #balance;
                    (0..#pairs).map(|k| (values[2 * k], values[2 * k + 1])).collect()
                }
            }
        }
        None => TokenStream::new(),
    };
    let (constrained_items, constrained_impl) = match &eq.constraints {
        Some(c) => constraint_impls(target, &read_input, c, n, m)?,
        None => (TokenStream::new(), TokenStream::new()),
    };
    Ok(quote! {
        #constrained_impl

        #[automatically_derived]
        #inherent {
            /// What the model declares and what its derivation decided about it.
            pub const INFO: #CORE::ModelInfo = #info;

            #wrenches
        }

        #[automatically_derived]
        #from_values {
            const PARAMETER_COUNT: usize = #parameter_count;

            fn from_parameter_values(values: &[f64]) -> ::core::result::Result<Self, #CORE::Error> {
                if values.len() != #parameter_count {
                    return ::core::result::Result::Err(#CORE::Error::InvalidInput(::std::format!(
                        "{} takes {} parameter values, got {}",
                        #type_name, #parameter_count, values.len()
                    )));
                }
                ::core::result::Result::Ok(Self { #(#fields: values[#indices]),* })
            }
        }

        #[automatically_derived]
        #header {
            #constrained_items

            #theorem_items
            #drawing_items

            fn info(&self) -> &#CORE::ModelInfo {
                &Self::INFO
            }

            fn parameter_values(&self) -> ::std::vec::Vec<f64> {
                ::std::vec![#(self.#fields),*]
            }

            fn with_parameter_values(&self, values: &[f64]) -> ::core::result::Result<Self, #CORE::Error> {
                <Self as #CORE::FromParameterValues<#n>>::from_parameter_values(values)
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

            #[allow(unused_variables, clippy::all)]
            fn momentum_rate(&self, t: f64, q: &#vector, qd: &#vector) -> #vector {
                let values: [f64; #n] = #momentum_rate;
                <#vector>::from_column_slice(&values)
            }

            #[allow(unused_variables, clippy::all)]
            fn momentum_jacobian(&self, t: f64, q: &#vector, qd: &#vector) -> #matrix {
                let values: [f64; #nn] = #momentum_jacobian;
                <#matrix>::from_row_slice(&values)
            }

            #[allow(unused_variables, clippy::all)]
            fn lagrangian_hessian(&self, t: f64, q: &#vector, qd: &#vector) -> #matrix {
                let values: [f64; #nn] = #hessian;
                <#matrix>::from_row_slice(&values)
            }

            #[allow(unused_variables, clippy::all)]
            fn residual_jacobians(&self, t: f64, q: &#vector, qd: &#vector, qdd: &#vector) -> #CORE::ResidualJacobians<#n> {
                let values: [f64; #residual_jacobian_count] = #residual_jacobians;
                #CORE::ResidualJacobians {
                    coordinates: <#matrix>::from_row_slice(&values[..#nn]),
                    velocities: <#matrix>::from_row_slice(&values[#nn..2 * #nn]),
                    parameters: #CORE::nalgebra::DMatrix::from_row_slice(#n, #m, &values[2 * #nn..]),
                }
            }
        }
    })
}

/// For a model with errors: its `INFO` (what was read of it) and impls of the traits the
/// derive implements, whose functions are never called because the crate does not compile.
fn stub(input: &DeriveInput, model: &Model) -> TokenStream {
    let target = Target::of(input);
    let n = model.coordinates.len();
    let k = model.constraints.len();
    let cow = quote!(::std::borrow::Cow::Borrowed);
    let name = &model.name;
    let coordinates = &model.coordinates;
    let parameters = &model.parameters;
    let constraints = model
        .constraints
        .iter()
        .map(|text| quote!(#CORE::ConstraintInfo { text: #cow(#text), scleronomic: false }));
    let vector = quote!(#CORE::nalgebra::SVector<f64, #n>);
    let matrix = quote!(#CORE::nalgebra::SMatrix<f64, #n, #n>);
    let never = quote!(::core::unreachable!("the model has errors"));
    let inherent = target.header(None);
    let system = target.header(Some(quote!(#CORE::LagrangianSystem<#n>)));
    let from_values = target.header(Some(quote!(#CORE::FromParameterValues<#n>)));
    let constrained = (k > 0).then(|| {
        let header = target.header(Some(quote!(#CORE::ConstrainedSystem<#n, #k>)));
        let values = quote!(#CORE::nalgebra::SVector<f64, #k>);
        let jacobian = quote!(#CORE::nalgebra::SMatrix<f64, #k, #n>);
        quote! {
            #[automatically_derived]
            #header {
                fn constraint_values(&self, _: f64, _: &#vector) -> #values { #never }
                fn constraint_jacobian(&self, _: f64, _: &#vector) -> #jacobian { #never }
                fn constraint_time_derivative(&self, _: f64, _: &#vector) -> #values { #never }
                fn constraint_velocities(&self, _: f64, _: &#vector, _: &#vector) -> #values { #never }
                fn constraint_jacobian_and_bias(&self, _: f64, _: &#vector, _: &#vector) -> (#jacobian, #values) { #never }
                fn constraint_jacobians(&self, _: f64, _: &#vector, _: &#vector, _: &#vector, _: &#values) -> #CORE::ConstraintJacobians<#n, #k> { #never }
            }
        }
    });
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
            };
        }

        #[automatically_derived]
        #from_values {
            const PARAMETER_COUNT: usize = 0;
            fn from_parameter_values(_: &[f64]) -> ::core::result::Result<Self, #CORE::Error> { #never }
        }

        #[automatically_derived]
        #system {
            fn info(&self) -> &#CORE::ModelInfo { &Self::INFO }
            fn parameter_values(&self) -> ::std::vec::Vec<f64> { #never }
            fn with_parameter_values(&self, _: &[f64]) -> ::core::result::Result<Self, #CORE::Error> { #never }
            fn mass_matrix(&self, _: f64, _: &#vector, _: &#vector) -> #matrix { #never }
            fn forcing(&self, _: f64, _: &#vector, _: &#vector) -> #vector { #never }
            fn lagrangian(&self, _: f64, _: &#vector, _: &#vector) -> f64 { #never }
            fn energy(&self, _: f64, _: &#vector, _: &#vector) -> f64 { #never }
            fn jacobi_integral(&self, _: f64, _: &#vector, _: &#vector) -> f64 { #never }
            fn momenta(&self, _: f64, _: &#vector, _: &#vector) -> #vector { #never }
            fn momentum_rate(&self, _: f64, _: &#vector, _: &#vector) -> #vector { #never }
            fn momentum_jacobian(&self, _: f64, _: &#vector, _: &#vector) -> #matrix { #never }
            fn lagrangian_hessian(&self, _: f64, _: &#vector, _: &#vector) -> #matrix { #never }
            fn residual_jacobians(&self, _: f64, _: &#vector, _: &#vector, _: &#vector) -> #CORE::ResidualJacobians<#n> { #never }
        }

        #constrained
    }
}

/// The `ModelInfo` constant of a model's equations.
fn model_info(eq: &Equations) -> TokenStream {
    let cow = quote!(::std::borrow::Cow::Borrowed);
    let name = &eq.name;
    let coordinates = &eq.coordinates;
    let parameters = &eq.parameters;
    let cyclic = &eq.cyclic;
    let conserved = match eq.conserved.name() {
        Some(name) => quote!(::core::option::Option::Some(#name)),
        None => quote!(::core::option::Option::None),
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
        let name = law.theorem.function_name();
        let (holds, why) = match &law.premise {
            Premise::Holds { symmetry, .. } => (true, symmetry),
            Premise::NotEstablished(why) => (false, why),
        };
        let integral = law.integral;
        quote! {
            #CORE::TheoremInfo {
                theorem: #CORE::__private::theorem(#name),
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
            conserved: #CORE::__private::conserved(#conserved),
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

/// For a constrained model: the `LagrangianSystem` items that make its motion the
/// constrained one (accelerations, drift projection, initial check), and the
/// `ConstrainedSystem` impl.
fn constraint_impls(
    target: &Target,
    read_input: &dyn Fn(usize) -> TokenStream,
    c: &ConstraintEquations,
    n: usize,
    m: usize,
) -> syn::Result<(TokenStream, TokenStream)> {
    let k = c.text.len();
    let kn = k * n;
    let nn = n * n;
    let body = |p: &Program| program::block(p, read_input);
    let values = body(&c.values)?;
    let jacobian = body(&c.jacobian)?;
    let time_derivative = body(&c.time_derivative)?;
    let velocities = body(&c.velocities)?;
    let dynamics = body(&c.dynamics)?;
    let jacobians = body(&c.jacobians)?;
    let jacobian_count = 2 * kn + k * m + nn + n * m;
    // Offsets of the blocks of `jacobians`: ∂s/∂q, ∂s/∂q̇, ∂s/∂p, ∂(Jᵀλ)/∂q, ∂(Jᵀλ)/∂p.
    let (sv, sp, rq, rp) = (kn, 2 * kn, 2 * kn + k * m, 2 * kn + k * m + nn);
    let vector = quote!(#CORE::nalgebra::SVector<f64, #n>);
    let constraint_vector = quote!(#CORE::nalgebra::SVector<f64, #k>);
    let jacobian_matrix = quote!(#CORE::nalgebra::SMatrix<f64, #k, #n>);
    let constrained = quote!(#CORE::ConstrainedSystem<#n, #k>);
    let impl_header = target.header(Some(constrained.clone()));
    let items = quote! {
        fn accelerations(&self, t: f64, q: &#vector, qd: &#vector) -> ::core::result::Result<#vector, #CORE::Error> {
            <Self as #constrained>::constrained_motion(self, t, q, qd).map(|m| m.accelerations)
        }

        #[allow(clippy::type_complexity)]
        fn project(&self, t: f64, q: &#vector, qd: &#vector)
            -> ::core::result::Result<::core::option::Option<(#vector, #vector)>, #CORE::Error> {
            <Self as #constrained>::project_onto_constraints(self, t, q, qd).map(::core::option::Option::Some)
        }

        fn check_initial_state(&self, t: f64, q: &#vector, qd: &#vector) -> ::core::result::Result<(), #CORE::Error> {
            <Self as #constrained>::check_consistent(self, t, q, qd, #CORE::__private::CONSISTENCY_TOLERANCE)
        }

        fn acceleration_jacobians(&self, t: f64, q: &#vector, qd: &#vector)
            -> ::core::result::Result<#CORE::AccelerationJacobians<#n>, #CORE::Error> {
            <Self as #constrained>::constrained_acceleration_jacobians(self, t, q, qd)
        }
    };
    let implementation = quote! {
        #[automatically_derived]
        #impl_header {
            #[allow(unused_variables, clippy::all)]
            fn constraint_values(&self, t: f64, q: &#vector) -> #constraint_vector {
                let qd = &<#vector>::zeros();
                let values: [f64; #k] = #values;
                <#constraint_vector>::from_column_slice(&values)
            }

            #[allow(unused_variables, clippy::all)]
            fn constraint_jacobian(&self, t: f64, q: &#vector) -> #jacobian_matrix {
                let qd = &<#vector>::zeros();
                let values: [f64; #kn] = #jacobian;
                <#jacobian_matrix>::from_row_slice(&values)
            }

            #[allow(unused_variables, clippy::all)]
            fn constraint_time_derivative(&self, t: f64, q: &#vector) -> #constraint_vector {
                let qd = &<#vector>::zeros();
                let values: [f64; #k] = #time_derivative;
                <#constraint_vector>::from_column_slice(&values)
            }

            #[allow(unused_variables, clippy::all)]
            fn constraint_velocities(&self, t: f64, q: &#vector, qd: &#vector) -> #constraint_vector {
                let values: [f64; #k] = #velocities;
                <#constraint_vector>::from_column_slice(&values)
            }

            #[allow(unused_variables, clippy::all)]
            fn constraint_jacobian_and_bias(&self, t: f64, q: &#vector, qd: &#vector) -> (#jacobian_matrix, #constraint_vector) {
                let values: [f64; #kn + #k] = #dynamics;
                (
                    <#jacobian_matrix>::from_row_slice(&values[..#kn]),
                    <#constraint_vector>::from_column_slice(&values[#kn..]),
                )
            }

            #[allow(unused_variables, clippy::all)]
            fn constraint_jacobians(&self, t: f64, q: &#vector, qd: &#vector, qdd: &#vector, multipliers: &#constraint_vector)
                -> #CORE::ConstraintJacobians<#n, #k> {
                let values: [f64; #jacobian_count] = #jacobians;
                #CORE::ConstraintJacobians {
                    acceleration_coordinates: <#jacobian_matrix>::from_row_slice(&values[..#sv]),
                    acceleration_velocities: <#jacobian_matrix>::from_row_slice(&values[#sv..#sp]),
                    acceleration_parameters: #CORE::nalgebra::DMatrix::from_row_slice(#k, #m, &values[#sp..#rq]),
                    reaction_coordinates: #CORE::nalgebra::SMatrix::<f64, #n, #n>::from_row_slice(&values[#rq..#rp]),
                    reaction_parameters: #CORE::nalgebra::DMatrix::from_row_slice(#n, #m, &values[#rp..]),
                }
            }
        }
    };
    Ok((items, implementation))
}

/// The reduced system type `<Name>Reduced`, its `LagrangianSystem` and `ReducedSystem`
/// impls, the Routhian as text and LaTeX, and constructors from the full system.
fn reduced_system(
    input: &DeriveInput,
    parsed: &Parsed,
    reduced: &Reduced,
) -> syn::Result<TokenStream> {
    let full = &input.ident;
    let vis = &input.vis;
    let name = format_ident!("{}Reduced", full);
    let momentum_fields: Vec<Ident> = reduced.equations.parameters[parsed.fields.len()..]
        .iter()
        .map(|p| Ident::new(p, Span::call_site()))
        .collect();
    let fields: Vec<Ident> = parsed
        .fields
        .iter()
        .cloned()
        .chain(momentum_fields.iter().cloned())
        .collect();
    let system = system_impl(
        &Target {
            generics: TokenStream::new(),
            ty: quote!(#name),
            where_clause: TokenStream::new(),
        },
        &fields,
        &reduced.equations,
    )?;

    let n = reduced.equations.coordinates.len();
    let k = reduced.ignored.len();
    let inputs = reduced.equations.inputs();
    let read_input = |i: usize| match inputs.get(i) {
        Input::Time => quote!(t),
        Input::Coordinate(j) => quote!(q[#j]),
        Input::Velocity(j) => quote!(qd[#j]),
        Input::Parameter(j) => {
            let field = &fields[j];
            quote!(self.#field)
        }
        Input::Acceleration(j) => quote!(qdd[#j]),
        Input::Multiplier(j) => quote!(multipliers[#j]),
    };
    let velocities = program::block(&reduced.ignored_velocities, &read_input)?;
    let ignored = &reduced.ignored;
    let retained = &reduced.retained;
    let ignored_indices = &reduced.ignored_indices;
    let full_n = retained.len() + k;
    let original = &parsed.fields;
    let slots = 0..k;
    let routhian_text = print::text(&reduced.routhian);
    let routhian_latex = print::latex(&reduced.routhian);
    let doc = format!(
        "`{full}` reduced over its ignored coordinates ({}) by Routh's method; generated by `#[derive(Lagrangian)]`.\n\nThe fields are `{full}`'s parameters and the constant momenta of the ignored coordinates.",
        ignored.join(", ")
    );
    let momentum_docs = ignored
        .iter()
        .map(|chi| format!("The constant momentum `∂L/∂{chi}̇` of the ignored coordinate `{chi}`."));
    let original_docs = original.iter().map(|f| format!("`{full}::{f}`."));
    let vector = |m: usize| quote!(#CORE::nalgebra::SVector<f64, #m>);
    let (vn, vk, vfull) = (vector(n), vector(k), vector(full_n));
    Ok(quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, Copy, PartialEq)]
        #[allow(non_snake_case)] // the fields mirror the model's parameter names
        #vis struct #name {
            #( #[doc = #original_docs] pub #original: f64, )*
            #( #[doc = #momentum_docs] pub #momentum_fields: f64, )*
        }

        #system

        #[automatically_derived]
        impl #CORE::ReducedSystem<#n, #k> for #name {
            fn ignored_names(&self) -> [&str; #k] {
                Self::IGNORED
            }

            #[allow(unused_variables, clippy::all)]
            fn ignored_velocities(&self, t: f64, q: &#vn, qd: &#vn) -> #vk {
                let values: [f64; #k] = #velocities;
                <#vk>::from_column_slice(&values)
            }
        }

        impl #name {
            /// Names of the ignored coordinates.
            pub const IGNORED: [&'static str; #k] = [#(#ignored),*];
            /// The Routhian `R = L − Σ C χ̇` with the ignored velocities eliminated, as text.
            pub const ROUTHIAN_TEXT: &'static str = #routhian_text;
            /// The Routhian as LaTeX.
            pub const ROUTHIAN_LATEX: &'static str = #routhian_latex;
        }

        impl #full {
            /// The reduced system with the given constant momenta of the ignored coordinates.
            pub fn reduced(&self, momenta: [f64; #k]) -> #name {
                #name {
                    #( #original: self.#original, )*
                    #( #momentum_fields: momenta[#slots], )*
                }
            }

            /// The reduced system whose momenta are those of a full state, and that state's
            /// retained coordinates and velocities.
            pub fn reduce_state(&self, t: f64, q: &#vfull, qd: &#vfull) -> (#name, #vn, #vn) {
                use #CORE::LagrangianSystem as _;
                let p = self.momenta(t, q, qd);
                let reduced = self.reduced([#(p[#ignored_indices]),*]);
                (
                    reduced,
                    <#vn>::from_column_slice(&[#(q[#retained]),*]),
                    <#vn>::from_column_slice(&[#(qd[#retained]),*]),
                )
            }
        }
    })
}

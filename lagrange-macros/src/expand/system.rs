//! The full system's inherent constants, its `LagrangianSystem<Const<n>>` and
//! `FromParameterValues<Const<n>>` impls.

use lagrange_symbolic::equations::info::Omitted;
use lagrange_symbolic::equations::layout::{self, Layout};
use lagrange_symbolic::equations::{Equations, Input};
use lagrange_symbolic::ir::Program;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Ident;

use super::constraints::constraint_impls;
use super::info::model_info;
use super::{CORE, Target};
use crate::program;

/// The inherent constants, `LagrangianSystem<Const<n>>` and `FromParameterValues<Const<n>>`
/// impls (and for a constrained model `ConstrainedSystem<Const<n>, Const<k>>`).
pub(super) fn system_impl(
    target: &Target,
    fields: &[Ident],
    eq: &Equations,
    omitted: Omitted,
) -> syn::Result<TokenStream> {
    let n = eq.coordinates.len();
    let header = target.header(Some(
        quote!(#CORE::LagrangianSystem<#CORE::nalgebra::Const<#n>>),
    ));
    let inherent = target.header(None);
    let from_values = target.header(Some(
        quote!(#CORE::FromParameterValues<#CORE::nalgebra::Const<#n>>),
    ));
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
    // `M` and `f`, and `M` alone (without the forcing's operations), into `values`, an
    // array of zeros: most of a tree's `M` is known zeros.
    let values = format_ident!("values");
    let into_values = |p: &Program| {
        let order: Vec<usize> = (0..p.outputs).collect();
        program::block_into_zeros(p, &read_input, &order, &values)
    };
    let dynamics = into_values(&eq.programs.dynamics)?;
    let layout = Layout::of(eq);
    let mass_only = into_values(
        &eq.programs
            .dynamics
            .restricted(layout.dynamics()[0].clone()),
    )?;
    let lagrangian = body(&eq.programs.lagrangian)?;
    let energy = body(&eq.programs.energy)?;
    let jacobi = body(&eq.programs.jacobi_integral)?;
    let momenta = body(&eq.programs.momenta)?;
    let vector = quote!(#CORE::nalgebra::SVector<f64, #n>);
    let matrix = quote!(#CORE::nalgebra::SMatrix<f64, #n, #n>);
    let nn = n * n;
    let left_out = |group: &str, function: &str| {
        let message = Omitted::message(&eq.name, group, &format!("`{function}`"));
        quote!(::core::panic!("{}", #message))
    };
    let variational_items = if omitted.variational {
        let [rate, jacobian, hessian] =
            ["momentum_rate", "momentum_jacobian", "lagrangian_hessian"]
                .map(|f| left_out("variational", f));
        quote! {
            fn momentum_rate(&self, _: f64, _: &#vector, _: &#vector) -> #vector { #rate }
            fn momentum_jacobian(&self, _: f64, _: &#vector, _: &#vector) -> #matrix { #jacobian }
            fn lagrangian_hessian(&self, _: f64, _: &#vector, _: &#vector) -> #matrix { #hessian }
        }
    } else {
        let momentum_rate = body(&eq.programs.momentum_rate)?;
        let momentum_jacobian = body(&eq.programs.momentum_jacobian)?;
        let hessian = body(&eq.programs.lagrangian_hessian)?;
        quote! {
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
        }
    };
    let derivative_items = if omitted.derivatives {
        let [rows, blocks] =
            ["residual_jacobian_rows", "residual_jacobians"].map(|f| left_out("derivatives", f));
        quote! {
            fn residual_jacobian_rows(&self, _: f64, _: &#vector, _: &#vector, _: &#vector) -> ::std::vec::Vec<f64> { #rows }
            fn residual_jacobians(&self, _: f64, _: &#vector, _: &#vector, _: &#vector) -> #CORE::ResidualJacobians<#CORE::nalgebra::Const<#n>> { #blocks }
        }
    } else {
        let residual_jacobian_rows = program::block_into_zeros(
            &eq.programs.residual_jacobians,
            &read_input,
            &layout.residual_jacobian_rows(),
            &format_ident!("__out"),
        )?;
        let residual_jacobian_count = layout::outputs(&layout.residual_jacobians());
        quote! {
            #[allow(unused_variables, clippy::all)]
            fn residual_jacobian_rows(&self, t: f64, q: &#vector, qd: &#vector, qdd: &#vector) -> ::std::vec::Vec<f64> {
                let mut rows = ::std::vec![0.0f64; #residual_jacobian_count];
                let __out: &mut [f64; #residual_jacobian_count] =
                    ::core::convert::TryInto::try_into(&mut rows[..])
                        .expect("a vector of the rows' length");
                #residual_jacobian_rows;
                rows
            }
            fn residual_jacobians(&self, t: f64, q: &#vector, qd: &#vector, qdd: &#vector) -> #CORE::ResidualJacobians<#CORE::nalgebra::Const<#n>> {
                let rows = self.residual_jacobian_rows(t, q, qd, qdd);
                #CORE::ResidualJacobians::from_rows(#CORE::nalgebra::Const::<#n>, &rows)
                    .expect("the derived program writes the rows of the residual's derivatives")
            }
        }
    };
    let inverse_dynamics = body(&eq.programs.inverse_dynamics)?;
    let [mass, forcing] = layout.dynamics().map(|r| block(&r));
    let dynamics_count = layout::outputs(&layout.dynamics());

    let info = model_info(eq, omitted);
    let parameter_count = fields.len();
    let indices = 0..parameter_count;
    let type_name = &eq.name;
    let wrenches = match &eq.joint_wrenches {
        Some(w) => {
            let program = body(&w.program)?;
            let bodies = &w.bodies;
            let b = bodies.len();
            let outputs = layout::joint_wrenches(b);
            let elements = (0..b).map(|k| {
                let [force, moment] = layout::joint_wrench(k).map(|r| block(&r));
                quote! {
                    #CORE::JointWrench {
                        force: #CORE::nalgebra::Vector3::from_column_slice(#force),
                        moment: #CORE::nalgebra::Vector3::from_column_slice(#moment),
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
            let read_position = |i: usize| match inputs.of_positions(i) {
                None => quote!(f64::NAN),
                Some(_) => read_input(i),
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
            let function_count = layout::DYNAMIC_FUNCTIONS;
            let balance = body(&theorems.balance)?;
            let holding = theorems.laws.iter().filter(|law| law.holds()).count();
            let outputs = layout::balances(holding);
            let pairs = (0..holding).map(|k| {
                let [rate, law] = layout::balance(k);
                quote!((values[#rate], values[#law]))
            });
            quote! {
                #[allow(unused_variables, clippy::all)]
                fn dynamic_functions(&self, t: f64, q: &#vector, qd: &#vector)
                    -> ::core::option::Option<#CORE::DynamicFunctions> {
                    let values: [f64; #function_count] = #functions;
                    ::core::option::Option::Some(#CORE::__private::dynamic_functions(values))
                }

                #[allow(unused_variables, clippy::all)]
                fn balance(&self, t: f64, q: &#vector, qd: &#vector, qdd: &#vector)
                    -> ::std::vec::Vec<(f64, f64)> {
                    let values: [f64; #outputs] = #balance;
                    ::std::vec![#(#pairs),*]
                }
            }
        }
        None => TokenStream::new(),
    };
    let (constrained_items, constrained_impl) = match &eq.constraints {
        Some(c) => constraint_impls(
            target,
            &read_input,
            c,
            layout,
            omitted.derivatives.then_some(&*eq.name),
        )?,
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
                <Self as #CORE::FromParameterValues<#CORE::nalgebra::Const<#n>>>::from_parameter_values(values)
            }

            // `M` alone is the dynamics program without the forcing's operations: the
            // same bits either way, so a build with debug assertions (a debug build by
            // default) takes them from the whole program and compiles one program less.
            #[allow(unused_variables, clippy::all)]
            fn mass_matrix(&self, t: f64, q: &#vector, qd: &#vector) -> #matrix {
                #[cfg(not(debug_assertions))]
                {
                    let mut values = [0.0f64; #nn];
                    {
                        let values = &mut values;
                        #mass_only
                    }
                    <#matrix>::from_row_slice(&values)
                }
                #[cfg(debug_assertions)]
                {
                    self.mass_matrix_and_forcing(t, q, qd).0
                }
            }

            fn forcing(&self, t: f64, q: &#vector, qd: &#vector) -> #vector {
                self.mass_matrix_and_forcing(t, q, qd).1
            }

            #[allow(unused_variables, clippy::all)]
            fn mass_matrix_and_forcing(&self, t: f64, q: &#vector, qd: &#vector) -> (#matrix, #vector) {
                let mut values = [0.0f64; #dynamics_count];
                {
                    let values = &mut values;
                    #dynamics
                }
                (
                    <#matrix>::from_row_slice(#mass),
                    <#vector>::from_column_slice(#forcing),
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

            #variational_items

            #derivative_items

            #[allow(unused_variables, clippy::all)]
            fn inverse_dynamics(&self, t: f64, q: &#vector, qd: &#vector, qdd: &#vector) -> #vector {
                let values: [f64; #n] = #inverse_dynamics;
                <#vector>::from_column_slice(&values)
            }
        }
    })
}

/// `&values[range]`: a block of a program's outputs, as [`Layout`] places it.
pub(super) fn block(range: &std::ops::Range<usize>) -> TokenStream {
    let (start, end) = (range.start, range.end);
    quote!(&values[#start..#end])
}

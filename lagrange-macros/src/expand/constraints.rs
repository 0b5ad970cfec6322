//! A constrained model's `LagrangianSystem` items and `ConstrainedSystem` impl.

use lagrange_symbolic::equations::ConstraintEquations;
use lagrange_symbolic::equations::info::Omitted;
use lagrange_symbolic::equations::layout::{self, Layout};
use lagrange_symbolic::ir::Program;
use proc_macro2::TokenStream;
use quote::quote;

use super::system::block;
use super::{CORE, Target};
use crate::program;

/// For a constrained model: the `LagrangianSystem` items that make its motion the
/// constrained one (accelerations, drift projection, initial check), and the
/// `ConstrainedSystem` impl; `without_derivatives`, the model's name when it is derived
/// with `omit(derivatives)`, leaves out `constraint_jacobians`.
pub(super) fn constraint_impls(
    target: &Target,
    read_input: &dyn Fn(usize) -> TokenStream,
    c: &ConstraintEquations,
    layout: Layout,
    without_derivatives: Option<&str>,
) -> syn::Result<(TokenStream, TokenStream)> {
    let (n, m, k) = (layout.coordinates, layout.parameters, layout.constraints);
    let kn = k * n;
    let body = |p: &Program| program::block(p, read_input);
    let values = body(&c.values)?;
    let jacobian = body(&c.jacobian)?;
    let time_derivative = body(&c.time_derivative)?;
    let velocities = body(&c.velocities)?;
    let dynamics = body(&c.dynamics)?;
    let [jacobian_block, bias] = layout.constraint_dynamics().map(|r| block(&r));
    let dynamics_count = layout::outputs(&layout.constraint_dynamics());
    let [sq, sv, sp, rq, rp] = layout.constraint_jacobians().map(|r| block(&r));
    let jacobian_count = layout::outputs(&layout.constraint_jacobians());
    let vector = quote!(#CORE::nalgebra::SVector<f64, #n>);
    let constraint_vector = quote!(#CORE::nalgebra::SVector<f64, #k>);
    let jacobian_matrix = quote!(#CORE::nalgebra::SMatrix<f64, #k, #n>);
    let constrained =
        quote!(#CORE::ConstrainedSystem<#CORE::nalgebra::Const<#n>, #CORE::nalgebra::Const<#k>>);
    let impl_header = target.header(Some(constrained.clone()));
    let signature = quote! {
        fn constraint_jacobians(&self, t: f64, q: &#vector, qd: &#vector, qdd: &#vector, multipliers: &#constraint_vector)
            -> #CORE::ConstraintJacobians<#CORE::nalgebra::Const<#n>, #CORE::nalgebra::Const<#k>>
    };
    let constraint_jacobians = if let Some(model) = without_derivatives {
        let message = Omitted::message(model, "derivatives", "`constraint_jacobians`");
        quote! {
            #[allow(unused_variables)]
            #signature { ::core::panic!("{}", #message) }
        }
    } else {
        let jacobians = body(&c.jacobians)?;
        quote! {
            #[allow(unused_variables, clippy::all)]
            #signature {
                let values: [f64; #jacobian_count] = #jacobians;
                #CORE::ConstraintJacobians {
                    acceleration_coordinates: <#jacobian_matrix>::from_row_slice(#sq),
                    acceleration_velocities: <#jacobian_matrix>::from_row_slice(#sv),
                    acceleration_parameters: #CORE::nalgebra::DMatrix::from_row_slice(#k, #m, #sp),
                    reaction_coordinates: #CORE::nalgebra::SMatrix::<f64, #n, #n>::from_row_slice(#rq),
                    reaction_parameters: #CORE::nalgebra::DMatrix::from_row_slice(#n, #m, #rp),
                }
            }
        }
    };
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
            -> ::core::result::Result<#CORE::AccelerationJacobians<#CORE::nalgebra::Const<#n>>, #CORE::Error> {
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
                let values: [f64; #dynamics_count] = #dynamics;
                (
                    <#jacobian_matrix>::from_row_slice(#jacobian_block),
                    <#constraint_vector>::from_column_slice(#bias),
                )
            }

            #constraint_jacobians
        }
    };
    Ok((items, implementation))
}

//! A system's data and programs: its inherent `INFO`, its `FromParameterValues<Const<n>>`
//! glue and its `Programs` impl, one function per derived program writing into a buffer
//! its caller provides. The runtime implements `LagrangianSystem`, `ConstrainedSystem` and
//! `ReducedSystem` over `Programs`, once for the derive and the command's interpreter.

use lagrange_symbolic::equations::info::Omitted;
use lagrange_symbolic::equations::layout;
use lagrange_symbolic::equations::{Conserved, Equations, Input};
use lagrange_symbolic::ir::Program;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Ident;

use super::info::model_info;
use super::{CORE, Target};
use crate::program;

/// One derived program as `Programs::run` runs it.
struct Derived {
    /// The `Quantity` it computes (a variant's name).
    quantity: &'static str,
    program: Program,
    /// Where its outputs go: output `order[i]` at position `i` of the buffer.
    order: Vec<usize>,
    /// Compiled only in a build without debug assertions (`M` alone).
    release_only: bool,
    /// Written output by output into the zeroed buffer, skipping the outputs known to be
    /// `+0` (`M`, `f` and the residual's derivatives, mostly zeros for a tree); the other
    /// programs write the buffer as one array, which compiles to less in a debug build.
    sparse: bool,
    /// Buffers of more outputs than this are on the heap, the rest on the stack.
    stack_limit: usize,
}

impl Derived {
    fn new(quantity: &'static str, program: &Program) -> Derived {
        Derived {
            quantity,
            order: (0..program.outputs).collect(),
            program: program.clone(),
            release_only: false,
            sparse: false,
            stack_limit: STACK_OUTPUTS,
        }
    }

    /// The name of its function ([`function_name`]).
    fn function(&self) -> Ident {
        function_name(self.quantity)
    }
}

/// The name of the function of the program of `quantity` (a variant's name):
/// `__lagrange_` and the quantity in snake case.
fn function_name(quantity: &str) -> Ident {
    let mut name = String::from("__lagrange");
    for c in quantity.chars() {
        if c.is_uppercase() {
            name.push('_');
        }
        name.push(c.to_ascii_lowercase());
    }
    format_ident!("{name}")
}

/// The arm of `Programs::run` for `Quantity::IntegralAndLagrangian`, for a model `eq`
/// that conserves an integral: its program and `L`'s run in turn into one buffer of two
/// values. Both are inlined into the step guard that asks for them in a build without
/// debug assertions, where the compiler computes what they share once; no third program
/// is compiled.
fn integral_and_lagrangian_arm(eq: &Equations) -> Option<TokenStream> {
    let integral = function_name(match eq.conserved {
        Conserved::Energy => "Energy",
        Conserved::JacobiIntegral => "JacobiIntegral",
        Conserved::None => return None,
    });
    let lagrangian = function_name("Lagrangian");
    Some(quote! {
        #CORE::Quantity::IntegralAndLagrangian => {
            let mut values = [0.0f64; 2];
            self.#integral(arguments, &mut |v: &mut [f64]| values[0] = v[0]);
            self.#lagrangian(arguments, &mut |v: &mut [f64]| values[1] = v[0]);
            read(&mut values[..])
        }
    })
}

/// The programs of `eq` that its generated code runs (those of the groups `omitted`
/// leaves out are not), with a reduced model's `ignored_velocities`.
fn derived_programs(
    eq: &Equations,
    omitted: Omitted,
    ignored_velocities: Option<&Program>,
) -> Vec<Derived> {
    let p = &eq.programs;
    let layout = eq.layout();
    let mass = eq
        .programs
        .dynamics
        .restricted(layout.dynamics()[0].clone());
    let mut all = vec![
        Derived {
            sparse: true,
            ..Derived::new("Dynamics", &p.dynamics)
        },
        Derived {
            release_only: true,
            sparse: true,
            ..Derived::new("MassMatrix", &mass)
        },
        Derived::new("Lagrangian", &p.lagrangian),
        Derived::new("Energy", &p.energy),
        Derived::new("JacobiIntegral", &p.jacobi_integral),
        Derived::new("Momenta", &p.momenta),
        Derived::new("InverseDynamics", &p.inverse_dynamics),
    ];
    if !omitted.variational {
        all.extend([
            Derived::new("MomentumRate", &p.momentum_rate),
            Derived::new("MomentumJacobian", &p.momentum_jacobian),
            Derived::new("LagrangianHessian", &p.lagrangian_hessian),
        ]);
    }
    if !omitted.derivatives {
        all.push(Derived {
            order: layout.residual_jacobian_rows(),
            sparse: true,
            stack_limit: HEAP_ROWS,
            ..Derived::new("ResidualJacobianRows", &p.residual_jacobians)
        });
    }
    if let Some(theorems) = &eq.theorems {
        all.push(Derived::new(
            "DynamicFunctions",
            &theorems.dynamic_functions,
        ));
        all.push(Derived::new("Balance", &theorems.balance));
    }
    if let Some(drawing) = &eq.drawing {
        all.push(Derived::new("Drawing", &drawing.program));
    }
    if let Some(c) = &eq.constraints {
        all.extend([
            Derived::new("ConstraintValues", &c.values),
            Derived::new("ConstraintJacobian", &c.jacobian),
            Derived::new("ConstraintTimeDerivative", &c.time_derivative),
            Derived::new("ConstraintVelocities", &c.velocities),
            Derived::new("ConstraintDynamics", &c.dynamics),
        ]);
        if !omitted.derivatives {
            all.push(Derived::new("ConstraintJacobians", &c.jacobians));
        }
    }
    if let Some(program) = ignored_velocities {
        all.push(Derived::new("IgnoredVelocities", program));
    }
    all
}

/// The stack limit of a program's buffer ([`Derived::stack_limit`]) but the residual's
/// derivatives'.
const STACK_OUTPUTS: usize = 4096;

/// The residual's derivatives of more outputs than this come in a buffer on the heap:
/// they are solved while the dynamics' buffer is alive, and two large stack buffers
/// cost the G1's ∇FD 6 % (2,552 rows' entries) where a small one on the heap costs a
/// UR5's 8 % (measured with `cargo bench --bench robots`).
const HEAP_ROWS: usize = 1024;

/// The inherent `INFO`, the `FromParameterValues<Const<n>>` and `Programs` impls of `eq`
/// (and of a reduced model its `ignored_velocities`), whose parameters are the struct's
/// `fields`.
pub(super) fn system_impl(
    target: &Target,
    fields: &[Ident],
    eq: &Equations,
    omitted: Omitted,
    ignored_velocities: Option<&Program>,
) -> syn::Result<TokenStream> {
    let n = eq.coordinates.len();
    let k = eq.layout().constraints;
    let size = |d: usize| quote!(#CORE::nalgebra::Const<#d>);
    let (dimension, constraints) = (size(n), size(k));
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
    let arguments = quote!(#CORE::system::Arguments<'_, #dimension>);
    let mut functions = Vec::new();
    let mut arms = Vec::new();
    for derived in derived_programs(eq, omitted, ignored_velocities) {
        let last = derived.program.inputs.checked_sub(1).map(|i| inputs.get(i));
        functions.push(function(&derived, last, &arguments, &read_input)?);
        arms.push(arm(&derived, n));
    }
    arms.extend(integral_and_lagrangian_arm(eq));

    let info = model_info(eq, omitted);
    let type_name = &eq.name;
    let wrenches = joint_wrenches(eq, &read_input)?;
    let inherent = target.header(None);
    let from_values = parameter_glue(target, fields, &dimension, type_name);
    let programs = target.header(Some(quote!(#CORE::Programs)));
    Ok(quote! {
        #[automatically_derived]
        #inherent {
            /// What the model declares and what its derivation decided about it.
            pub const INFO: #CORE::ModelInfo = #info;

            #wrenches

            #(#functions)*
        }

        #from_values

        #[automatically_derived]
        #programs {
            type Coordinates = #dimension;
            type Constraints = #constraints;

            fn model(&self) -> &#CORE::ModelInfo {
                &Self::INFO
            }

            fn parameters(&self) -> ::std::vec::Vec<f64> {
                ::std::vec![#(self.#fields),*]
            }

            fn with_parameters(&self, values: &[f64]) -> ::core::result::Result<Self, #CORE::Error> {
                <Self as #CORE::FromParameterValues<#dimension>>::from_parameter_values(values)
            }

            #[inline(always)]
            fn run(
                &self,
                quantity: #CORE::Quantity,
                arguments: &#arguments,
                read: &mut dyn ::core::ops::FnMut(&mut [f64]),
            ) {
                match quantity {
                    #(#arms)*
                    _ => #CORE::__private::no_program(#type_name, quantity),
                }
            }
        }
    })
}

/// The private inherent function of one derived program: it runs the program into a
/// buffer of its own (so a caller's stack frame holds only the buffer it uses) and hands
/// the buffer to `read`; `last` is the input the program's last slot reads. A build
/// without debug assertions inlines it into the runtime's method that asks for it, as
/// the derive's methods once held their programs (the reader is then a direct call: the
/// G1's ID 2 % faster, its release build no slower); a debug build compiles it once.
fn function(
    derived: &Derived,
    last: Option<Input>,
    arguments: &TokenStream,
    read_input: &dyn Fn(usize) -> TokenStream,
) -> syn::Result<TokenStream> {
    let function = derived.function();
    let count = derived.program.outputs;
    let values = format_ident!("values");
    let buffer_and_body = if derived.sparse || count > derived.stack_limit {
        let zeros = if count > derived.stack_limit {
            quote!(::std::vec![0.0f64; #count])
        } else {
            quote!([0.0f64; #count])
        };
        let body =
            program::block_into_zeros(&derived.program, read_input, &derived.order, &values)?;
        quote! {
            let mut values = #zeros;
            #body
        }
    } else {
        let array = program::block(&derived.program, read_input)?;
        quote!(let mut values: [f64; #count] = #array;)
    };
    // A program's inputs are the model's, then (for some) the accelerations, then the
    // multipliers: it is given what its last slot reaches.
    let accelerations = matches!(last, Some(Input::Acceleration(_) | Input::Multiplier(_)))
        .then(|| quote!(let qdd = arguments.accelerations();));
    let multipliers = matches!(last, Some(Input::Multiplier(_)))
        .then(|| quote!(let multipliers = arguments.multipliers;));
    let release = derived
        .release_only
        .then(|| quote!(#[cfg(not(debug_assertions))]));
    Ok(quote! {
        #release
        #[cfg_attr(not(debug_assertions), inline(always))]
        #[allow(unused_variables, clippy::all)]
        fn #function(&self, arguments: &#arguments, read: &mut dyn ::core::ops::FnMut(&mut [f64])) {
            let (t, q, qd) = (arguments.t, arguments.q, arguments.qd);
            #accelerations
            #multipliers
            #buffer_and_body
            read(&mut values[..])
        }
    })
}

/// The arm of `Programs::run` for one derived program of a model of `n` coordinates.
fn arm(derived: &Derived, n: usize) -> TokenStream {
    let function = derived.function();
    let quantity = format_ident!("{}", derived.quantity);
    if !derived.release_only {
        return quote!(#CORE::Quantity::#quantity => self.#function(arguments, read),);
    }
    // `M` alone has the bits of the dynamics' first block: a build with debug assertions
    // (a debug build by default) takes them from there and compiles one program less.
    let nn = n * n;
    quote! {
        #CORE::Quantity::#quantity => {
            #[cfg(not(debug_assertions))]
            self.#function(arguments, read);
            #[cfg(debug_assertions)]
            self.__lagrange_dynamics(arguments, &mut |values: &mut [f64]| read(&mut values[..#nn]));
        }
    }
}

/// `FromParameterValues<Const<n>>`: the struct from its parameters' values, in the order
/// of its `fields`.
fn parameter_glue(
    target: &Target,
    fields: &[Ident],
    dimension: &TokenStream,
    type_name: &str,
) -> TokenStream {
    let parameter_count = fields.len();
    let indices = 0..parameter_count;
    let from_values = target.header(Some(quote!(#CORE::FromParameterValues<#dimension>)));
    quote! {
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
    }
}

/// For a tree of bodies: `JOINTED_BODIES` and `joint_wrenches`, inherent items outside
/// the runtime's traits.
fn joint_wrenches(
    eq: &Equations,
    read_input: &dyn Fn(usize) -> TokenStream,
) -> syn::Result<TokenStream> {
    let Some(w) = &eq.joint_wrenches else {
        return Ok(TokenStream::new());
    };
    let n = eq.coordinates.len();
    let vector = quote!(#CORE::nalgebra::SVector<f64, #n>);
    let program = program::block(&w.program, read_input)?;
    let bodies = &w.bodies;
    let b = bodies.len();
    let outputs = layout::joint_wrenches(b);
    let elements = (0..b).map(|k| {
        let [force, moment] = layout::joint_wrench(k).map(|r| {
            let (start, end) = (r.start, r.end);
            quote!(&values[#start..#end])
        });
        quote! {
            #CORE::JointWrench {
                force: #CORE::nalgebra::Vector3::from_column_slice(#force),
                moment: #CORE::nalgebra::Vector3::from_column_slice(#moment),
            }
        }
    });
    Ok(quote! {
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
    })
}

//! Models loaded at run time (`lagrange-loaded`, what the command runs), compiled against
//! interpreted: every quantity the runtime reads, over enough calls that each program is
//! compiled partway (`COMPILE_AFTER`), must have the interpreter's bits before and after.
//! The interpreter is the reference: `lagrange-cli`'s `cli_generate` shows its bits are
//! the derive's.
//! The residual derivatives are compiled with their outputs in another order (row by
//! row) than they are interpreted, so the derivatives of `q̈` check that reordering.

use lagrange_core::nalgebra::{DVector, Dyn};
use lagrange_core::{Conserved, ConstrainedSystem, LagrangianSystem};
use lagrange_loaded::{Backend, COMPILE_AFTER, Loaded};
use lagrange_symbolic::equations::Equations;
use lagrange_symbolic::source::{self, urdf};

/// The workspace root.
fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

/// The bits of every number, NaNs as one (as the other bitwise tests compare them).
fn bits<'a>(values: impl IntoIterator<Item = &'a f64>) -> Vec<u64> {
    values
        .into_iter()
        .map(|x| if x.is_nan() { f64::NAN } else { *x }.to_bits())
        .collect()
}

/// A state `(t, q, q̇)` of the `k`-th call.
type State = (f64, DVector<f64>, DVector<f64>);

/// Everything `system` gives at `(t, q, q̇)`.
fn quantities<S: LagrangianSystem<Dyn>>(system: &S, (t, q, qd): &State) -> Vec<u64> {
    let (t, q, qd) = (*t, q, qd);
    let mut v = Vec::new();
    let jacobians = system.acceleration_jacobians(t, q, qd).expect("∂q̈");
    // `q̈` solved where the program wrote `M` (row by row), against the derivatives' `q̈`
    // solved on nalgebra's copy of `M` (column by column): the same operations, the same
    // bits.
    let qdd = system.accelerations(t, q, qd).expect("q̈");
    assert_eq!(bits(qdd.iter()), bits(jacobians.accelerations.iter()));
    v.extend(bits(jacobians.accelerations.iter()));
    v.extend(bits(jacobians.coordinates.iter()));
    v.extend(bits(jacobians.velocities.iter()));
    v.extend(bits(jacobians.parameters.iter()));
    v.extend(bits(system.mass_matrix(t, q, qd).iter()));
    v.extend(bits(system.inverse_dynamics(t, q, qd, qd).iter()));
    v.extend(bits([system.energy(t, q, qd)].iter()));
    v.extend(bits(system.momenta(t, q, qd).iter()));
    v
}

/// `equations` with `values`, compiled and interpreted, agree at every call, the `k`-th
/// at `state(k)`, in [`quantities`] and in `extra`'s.
fn agree(
    equations: &Equations,
    values: &[f64],
    state: impl Fn(usize) -> State,
    extra: impl Fn(&Loaded, &State) -> Vec<u64>,
) {
    let compiled = Loaded::with_backend(equations, values, Backend::Compiled).expect("loaded");
    let interpreted =
        Loaded::with_backend(equations, values, Backend::Interpreted).expect("loaded");
    let every = |system: &Loaded, state: &State| {
        let mut v = quantities(system, state);
        v.extend(extra(system, state));
        v
    };
    for k in 0..COMPILE_AFTER as usize + 20 {
        let state = state(k);
        assert_eq!(
            every(&compiled, &state),
            every(&interpreted, &state),
            "{}: call {k}",
            equations.name
        );
    }
}

#[test]
fn a_robot_compiled_has_the_interpreters_bits() {
    let text = source::read_file(&root().join("lagrange-cli/tests/fixtures/arm3.urdf"))
        .expect("the fixture");
    let options = urdf::Options {
        merge_fixed: false,
        actuated: true,
    };
    let model = urdf::import(&text, options).expect("imported").model;
    let equations = lagrange_symbolic::derive(&model).expect("derived").full;
    let mut values: Vec<f64> = (0..equations.parameters.len())
        .map(|i| 0.3 * i as f64 - 0.4)
        .collect();
    values[0] = 9.81;
    let n = equations.coordinates.len();
    let walk = |k: usize| {
        let x = k as f64 * 0.173;
        (
            0.01 * k as f64,
            DVector::from_fn(n, |i, _| (x + i as f64).sin()),
            DVector::from_fn(n, |i, _| (0.7 * x - i as f64).cos()),
        )
    };
    agree(&equations, &values, walk, |_, _| Vec::new());
}

#[test]
fn a_constrained_model_compiled_has_the_interpreters_bits() {
    let path = root().join("examples/models/cartesian_pendulum.toml");
    let text = source::read_file(&path).expect("the model file");
    let model = source::model_of(&text).expect("the model");
    let equations = lagrange_symbolic::derive(&model).expect("derived").full;
    let values: Vec<f64> = (0..equations.parameters.len())
        .map(|i| 1.0 + 0.5 * i as f64)
        .collect();
    // On the circle of radius `l` (the second value), moving along it.
    let l = values[1];
    let on_circle = |k: usize| {
        let angle = k as f64 * 0.173;
        (
            0.0,
            DVector::from_vec(vec![l * angle.sin(), -l * angle.cos()]),
            DVector::from_vec(vec![angle.cos(), angle.sin()]),
        )
    };
    agree(&equations, &values, on_circle, |system, (t, q, qd)| {
        let mut v = bits(system.constraint_values(*t, q).iter());
        v.extend(bits(system.constraint_jacobian(*t, q).iter()));
        let motion = system.constrained_motion(*t, q, qd).expect("the motion");
        v.extend(bits(motion.accelerations.iter()));
        v.extend(bits(motion.multipliers.iter()));
        v
    });
}

/// A kinetic energy that is not positive definite, `(ẋ² − ẏ²)/2`, with `V = (x² + y²)/2`:
/// `M` has no Cholesky factor, so `q̈` comes from LU on `M` made again, and is
/// `(−x, y)` exactly (`M` is diagonal, ±1): by the single call, into a caller's slice and
/// over a batch, compiled and interpreted.
#[test]
fn an_indefinite_mass_matrix_is_solved_by_lu() {
    let text = r#"
        [model]
        name = "Saddle"
        coordinates = ["x", "y"]
        kinetic = "1/2*dot(x)^2 - 1/2*dot(y)^2"
        potential = "1/2*x^2 + 1/2*y^2"
    "#;
    let model = source::model_of(text).expect("the model");
    let equations = lagrange_symbolic::derive(&model).expect("derived").full;
    for backend in [Backend::Compiled, Backend::Interpreted] {
        let system = Loaded::with_backend(&equations, &[], backend).expect("loaded");
        for k in 0..COMPILE_AFTER as usize + 20 {
            let (x, y) = (0.3 + 0.01 * k as f64, -1.7 + 0.02 * k as f64);
            let (q, qd) = (
                DVector::from_vec(vec![x, y]),
                DVector::from_vec(vec![0.5, 0.25]),
            );
            let qdd = system.accelerations(0.0, &q, &qd).expect("q̈");
            assert_eq!(qdd.as_slice(), [-x, y], "{backend:?}, call {k}");
            let mut out = [f64::NAN; 2];
            system
                .write_accelerations(0.0, &q, &qd, &mut out)
                .expect("q̈");
            assert_eq!(out, [-x, y]);
        }
        let states = lagrange_core::BatchStates {
            t: 0.0,
            q: &[1.0, 2.0, -3.0, 0.5],
            qd: &[0.0; 4],
        };
        let mut out = [f64::NAN; 4];
        lagrange_core::Batch::accelerations_into(&system, states, &mut out).expect("q̈");
        assert_eq!(out, [-1.0, 2.0, 3.0, 0.5]);
    }
}

/// A call with vectors of other lengths than the model's (nalgebra's `Dyn` does not check
/// them) reads its arguments laid end to end, compiled as interpreted: compiled code is
/// made for the model's layout, not for the call that happens to compile it, and a call of
/// another layout is interpreted.
#[test]
fn a_call_of_another_layout_reads_what_the_interpreter_reads() {
    let path = root().join("examples/models/double_pendulum.toml");
    let text = source::read_file(&path).expect("the model file");
    let model = source::model_of(&text).expect("the model");
    let equations = lagrange_symbolic::derive(&model).expect("derived").full;
    let values = [1.0, 1.5, 1.0, 0.8, 9.81];
    let compiled = Loaded::with_backend(&equations, &values, Backend::Compiled).expect("loaded");
    let interpreted =
        Loaded::with_backend(&equations, &values, Backend::Interpreted).expect("loaded");
    let (q, qd) = (
        DVector::from_vec(vec![0.3, -0.2]),
        DVector::from_vec(vec![0.1, 0.4]),
    );
    // Malformed at the call that compiles the energy's program, and after it.
    let long = DVector::from_vec(vec![0.3, -0.2, 7.0]);
    for k in 0..COMPILE_AFTER as usize + 20 {
        let malformed = [COMPILE_AFTER as usize, COMPILE_AFTER as usize + 10].contains(&k);
        let (q, qd) = if malformed { (&long, &qd) } else { (&q, &qd) };
        assert_eq!(
            compiled.energy(0.0, q, qd).to_bits(),
            interpreted.energy(0.0, q, qd).to_bits(),
            "call {k}"
        );
    }
    assert_eq!(
        compiled.energy(0.0, &long, &qd).to_bits(),
        interpreted.energy(0.0, &long, &qd).to_bits()
    );
}

/// Equations handed to `Loaded` by a caller, not read from the store: a program of the
/// wrong shape is refused when the model is loaded, naming the model and the program,
/// rather than panicking at its first run.
#[test]
fn equations_of_the_wrong_shape_are_refused_when_loaded() {
    let path = root().join("examples/models/double_pendulum.toml");
    let text = source::read_file(&path).expect("the model file");
    let model = source::model_of(&text).expect("the model");
    let derived = lagrange_symbolic::derive(&model).expect("derived");
    let values = vec![1.0; derived.full.parameters.len()];
    for backend in [Backend::Compiled, Backend::Interpreted] {
        assert!(Loaded::with_backend(&derived.full, &values, backend).is_ok());
        let mut damaged = derived.full.clone();
        damaged.programs.dynamics.outputs -= 1;
        let error = Loaded::with_backend(&damaged, &values, backend)
            .err()
            .expect("refused");
        assert!(
            error.0.contains("DoublePendulum") && error.0.contains("`dynamics`"),
            "{error}"
        );
    }
}

/// The step guard's integral and `L`, run as one joined program, have the bits of their
/// own programs, compiled and interpreted, for each kind of integral (none for a model
/// whose time is explicit).
#[test]
fn the_guards_integral_and_lagrangian_have_their_own_programs_bits() {
    let model = |text: &str| {
        let model = source::model_of(text).expect("the model");
        lagrange_symbolic::derive(&model).expect("derived").full
    };
    let file = |name: &str| {
        let text = source::read_file(&root().join("examples/models").join(name)).expect("read");
        model(&text)
    };
    let explicit_time = model(
        "[model]\nname = \"Driven\"\ncoordinates = [\"x\"]\nparameters = [\"m\", \"k\"]\n\
         kinetic = \"1/2*m*dot(x)^2\"\npotential = \"1/2*k*x^2*cos(t)\"\n",
    );
    // Referred to axes turning at a constant rate: `T` has terms of first and zeroth
    // degree in the velocities.
    let turning = model(
        "[model]\nname = \"Turning\"\ncoordinates = [\"x\", \"y\"]\nparameters = [\"m\", \"w\", \"k\"]\n\
         kinetic = \"1/2*m*((dot(x) - w*y)^2 + (dot(y) + w*x)^2)\"\npotential = \"1/2*k*(x^2 + y^2)\"\n",
    );
    let cases = [
        (file("double_pendulum.toml"), Conserved::Energy),
        (turning, Conserved::JacobiIntegral),
        (explicit_time, Conserved::None),
    ];
    for (equations, kind) in cases {
        assert_eq!(equations.conserved, kind, "{}", equations.name);
        let n = equations.coordinates.len();
        let values: Vec<f64> = (0..equations.parameters.len())
            .map(|i| 1.0 + 0.25 * i as f64)
            .collect();
        for backend in [Backend::Compiled, Backend::Interpreted] {
            let system = Loaded::with_backend(&equations, &values, backend).expect("loaded");
            for k in 0..COMPILE_AFTER as usize + 20 {
                let x = k as f64 * 0.173;
                let t = 0.01 * k as f64;
                let q = DVector::from_fn(n, |i, _| (x + i as f64).sin());
                let qd = DVector::from_fn(n, |i, _| (0.7 * x - i as f64).cos());
                let joined = system.conserved_value_and_lagrangian(t, &q, &qd);
                let apart = system
                    .conserved_value(t, &q, &qd)
                    .map(|c| (c, system.lagrangian(t, &q, &qd)));
                assert_eq!(joined.is_some(), kind != Conserved::None);
                assert_eq!(
                    joined.map(|(c, l)| bits(&[c, l])),
                    apart.map(|(c, l)| bits(&[c, l])),
                    "{} {backend:?}: call {k}",
                    equations.name
                );
            }
        }
    }
}

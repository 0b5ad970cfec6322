//! `lagrange generate` end to end: for every model file in `examples/models/`, the
//! generated Rust crate (built with `cargo build --offline`) and the generated C (built
//! with gcc) integrate `t ∈ [0, 1]` with RK4 and must agree with the macro path — the
//! example's `#[derive(Lagrangian)]` struct run by `lagrange::Simulation` with
//! `Integrator::Rk4` — to 1e-12 relative to the state's size, and print the derive's
//! equations. Also: the errors of bad invocations, and edited templates.
//!
//! For models with holonomic constraints, whose generated solvers repeat the runtime's
//! Schur-complement solve and projection operation for operation, the trajectories must
//! agree bit for bit, and the constraints (evaluated here from their closed forms) stay
//! satisfied to round-off: the Cartesian pendulum of `examples/models/`, and a particle on
//! the circle where a sphere meets a tilted plane (two constraints), written by the test.
//!
//! And bit for bit: at the model file's state and two others, the six programs the
//! generated code exposes (dynamics, `L`, energy, Jacobi integral, momenta and their
//! rate) computed five ways — the derive (the example's struct), the interpreter
//! (`Program::evaluate` on the derivation the command stored), the machine code compiled
//! on load (`ir::jit`, with and without FMA instructions), the generated Rust compiled
//! with rustc -O and the generated C compiled with gcc -O2 — have the same bits: all five
//! are backends of the IR's one walk.
//!
//! Over 600 lines, and kept whole: every test here compares the same backends on the same
//! derivations, and they share its builders and comparisons.

// The example models are included as modules: user code, `pub` as users write it.
#![allow(unreachable_pub)]

mod external;

use external::gcc_available;
use lagrange::nalgebra::Const;

#[path = "../../examples/bicycle.rs"]
#[allow(dead_code)]
mod bicycle;
#[path = "../../examples/cartesian_pendulum.rs"]
#[allow(dead_code)]
mod cartesian_pendulum;
#[path = "../../examples/central_orbit_routh.rs"]
#[allow(dead_code)]
mod central_orbit_routh;
#[path = "../../examples/chaplygin_sleigh.rs"]
#[allow(dead_code)]
mod chaplygin_sleigh;
#[path = "../../examples/double_pendulum.rs"]
#[allow(dead_code)]
mod double_pendulum;
#[path = "../../examples/heavy_top.rs"]
#[allow(dead_code)]
mod heavy_top;
#[path = "../../examples/projectile.rs"]
#[allow(dead_code)]
mod projectile;
#[path = "../../examples/rolling_disk.rs"]
#[allow(dead_code)]
mod rolling_disk;
#[path = "../../examples/spherical_pendulum.rs"]
#[allow(dead_code)]
mod spherical_pendulum;
#[path = "../../examples/tt_a_spherical_point.rs"]
#[allow(dead_code)]
mod tt_a_spherical_point;
#[path = "../../examples/tt_b_string_through_hole.rs"]
#[allow(dead_code)]
mod tt_b_string_through_hole;
#[path = "../../examples/tt_c_folding_door.rs"]
#[allow(dead_code)]
mod tt_c_folding_door;
#[path = "../../examples/tt_e_rotating_axes.rs"]
#[allow(dead_code)]
mod tt_e_rotating_axes;
#[path = "../../examples/tt_f_moving_string.rs"]
#[allow(dead_code)]
mod tt_f_moving_string;
#[path = "../../examples/tt_g1_door_ignoring_psi.rs"]
#[allow(dead_code)]
mod tt_g1_door_ignoring_psi;
#[path = "../../examples/tt_g_gyrostat.rs"]
#[allow(dead_code)]
mod tt_g_gyrostat;
#[path = "../../examples/two_body.rs"]
#[allow(dead_code)]
mod two_body;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use lagrange::nalgebra::SVector;
use lagrange::{FromParameterValues, Integrator, Lagrangian, Simulation};
use lagrange_symbolic::ir::jit::{Compiled, Fma};
use lagrange_symbolic::store::{self, Entry};

/// End of the compared run.
const T_END: f64 = 1.0;
/// The RK4 step of both paths.
const DT: f64 = 0.01;
/// Largest difference allowed, relative to `max(1, |state|)` (or `max(1, |integral|)`).
const TOLERANCE: f64 = 1e-12;

/// Every model file whose generated solver is compared, by stem, with its example's struct.
/// A model file not listed fails [`every_model_file_is_compared`].
const COMPARED: &[&str] = &[
    "bicycle",
    "cartesian_pendulum",
    "central_orbit_routh",
    "chaplygin_sleigh",
    "double_pendulum",
    "heavy_top",
    "projectile",
    "rolling_disk",
    "spherical_pendulum",
    "tt_a_spherical_point",
    "tt_b_string_through_hole",
    "tt_c_folding_door",
    "tt_e_rotating_axes",
    "tt_f_moving_string",
    "tt_g1_door_ignoring_psi",
    "tt_g_gyrostat",
    "two_body",
];

/// Model files compared with `lagrange simulate` only ([`every_shipped_model_matches_simulate`]):
/// their motion depends on what the model file adds at run time (inputs that follow
/// `[inputs]` signals, `[[events]]`), which the derive's struct does not carry.
const RUN_TIME: &[&str] = &["bouncing_ball", "cart_pole"];

/// A trajectory as named columns.
type Columns = BTreeMap<String, Vec<f64>>;

/// The workspace root: the example models and the templates.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("lagrange-cli sits in the workspace")
        .to_path_buf()
}

fn model_path(stem: &str) -> PathBuf {
    root().join("examples/models").join(format!("{stem}.toml"))
}

/// A fresh directory for one case under the test's scratch dir in `target/`.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cli_generate")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The user-wide cache of the command runs of this test, where the interpreter's
/// programs are read from.
fn cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cli_generate")
        .join("cache")
}

/// Runs the built `lagrange` command.
fn lagrange(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lagrange"))
        .args(args)
        .env(store::ENV_CACHE_DIR, cache())
        .env_remove(store::ENV_CACHE)
        .output()
        .expect("run lagrange")
}

/// Runs a command and returns its standard output; panics with its stderr on failure.
fn checked(command: &mut Command) -> String {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"));
    assert!(
        output.status.success(),
        "{command:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// `lagrange generate MODEL --out DIR --target TARGET`, which must succeed.
fn generate(stem: &str, model: &Path, target: &str) -> PathBuf {
    let out = scratch(&format!("{stem}/{target}"));
    let output = lagrange(&[
        "generate",
        model.to_str().expect("UTF-8 path"),
        "--out",
        out.to_str().expect("UTF-8 path"),
        "--target",
        target,
    ]);
    assert!(
        output.status.success(),
        "generate {stem} --target {target}:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    out
}

/// The model file's `[values]` in the parameter order of `names`, and its `[initial]`
/// coordinates and velocities by coordinate name, read independently of `lagrange`.
struct FileValues {
    parameters: Vec<(String, f64)>,
    q: Vec<(String, f64)>,
    qd: Vec<(String, f64)>,
}

fn number(value: &toml::Value) -> f64 {
    match value {
        toml::Value::Float(x) => *x,
        toml::Value::Integer(i) => *i as f64,
        other => panic!("not a number: {other}"),
    }
}

fn file_values(model: &Path, parameters: &[&str], coordinates: &[&str]) -> FileValues {
    let stem = model.display();
    let text = std::fs::read_to_string(model).expect("model file");
    let table: toml::Table = text.parse().expect("TOML");
    let get = |path: &[&str], name: &str, default: Option<f64>| {
        let mut value = Some(&table[path[0]]);
        for key in &path[1..] {
            value = value.and_then(|v| v.get(key));
        }
        value
            .and_then(|v| v.get(name))
            .map(number)
            .or(default)
            .unwrap_or_else(|| panic!("{stem}: no {path:?}.{name}"))
    };
    FileValues {
        parameters: parameters
            .iter()
            .map(|p| (p.to_string(), get(&["values"], p, None)))
            .collect(),
        q: coordinates
            .iter()
            .map(|c| (c.to_string(), get(&["initial", "q"], c, None)))
            .collect(),
        qd: coordinates
            .iter()
            .map(|c| (c.to_string(), get(&["initial", "qd"], c, Some(0.0))))
            .collect(),
    }
}

/// The macro path: the derive's system with the file's values, integrated by
/// `Simulation` with RK4; every step is a sample. Returns the equations text and columns.
fn reference<S: FromParameterValues<Const<N>>, const N: usize>(
    model: &Path,
) -> (String, Columns, FileValues) {
    let prototype_names = {
        // Names are the model's; any instance tells them.
        let zero = S::from_parameter_values(&vec![0.0; S::PARAMETER_COUNT]).expect("system");
        let info = zero.info();
        let strings = |names: &[lagrange::core::Text]| -> Vec<String> {
            names.iter().map(|s| s.to_string()).collect()
        };
        (strings(&info.parameters), strings(&info.coordinates))
    };
    let (parameters, coordinates) = prototype_names;
    fn as_str(v: &[String]) -> Vec<&str> {
        v.iter().map(String::as_str).collect()
    }
    let values = file_values(model, &as_str(&parameters), &as_str(&coordinates));
    let system = S::from_parameter_values(
        &values
            .parameters
            .iter()
            .map(|(_, v)| *v)
            .collect::<Vec<_>>(),
    )
    .expect("system from the file's values");
    let q0 = SVector::<f64, N>::from_iterator(values.q.iter().map(|(_, v)| *v));
    let qd0 = SVector::<f64, N>::from_iterator(values.qd.iter().map(|(_, v)| *v));
    let trajectory = Simulation::new(&system)
        .integrator(Integrator::Rk4 { dt: DT })
        .run(0.0, q0, qd0, T_END)
        .expect("reference run");
    let mut columns = Columns::new();
    columns.insert("t".into(), trajectory.times().to_vec());
    for (i, name) in coordinates.iter().enumerate() {
        columns.insert(name.clone(), trajectory.q().iter().map(|q| q[i]).collect());
        columns.insert(
            format!("dot_{name}"),
            trajectory.qd().iter().map(|qd| qd[i]).collect(),
        );
    }
    for invariant in trajectory.invariants() {
        columns.insert(invariant.name.clone(), invariant.values.clone());
    }
    (system.info().equations_text.to_string(), columns, values)
}

/// Reads the generated program's CSV into named columns, keeping the header order.
fn parse_csv(text: &str) -> (Vec<String>, Columns) {
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .expect("a header")
        .split(',')
        .map(str::to_string)
        .collect();
    let mut columns: Columns = header.iter().map(|h| (h.clone(), Vec::new())).collect();
    for line in lines {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len(), header.len(), "row `{line}`");
        for (name, field) in header.iter().zip(fields) {
            let value = field
                .parse::<f64>()
                .unwrap_or_else(|e| panic!("`{field}` in `{line}`: {e}"));
            columns.get_mut(name).expect("column").push(value);
        }
    }
    (header, columns)
}

/// The largest difference of the generated trajectory from the reference, relative to
/// the state's size at each sample (integrals: relative to the integral's size).
/// Panics if the columns or the sample times differ.
fn max_difference(what: &str, reference: &Columns, header: &[String], generated: &Columns) -> f64 {
    let mut expected: Vec<&String> = reference.keys().collect();
    let mut got: Vec<&String> = header.iter().collect();
    expected.sort();
    got.sort();
    assert_eq!(got, expected, "{what}: CSV columns");
    let times = &reference["t"];
    assert_eq!(
        generated["t"].len(),
        times.len(),
        "{what}: number of samples"
    );
    let state: Vec<&String> = header
        .iter()
        .filter(|h| *h != "t" && reference.contains_key(*h))
        .take_while(|h| !is_integral(h))
        .collect();
    let mut worst: f64 = 0.0;
    for k in 0..times.len() {
        assert!(
            (generated["t"][k] - times[k]).abs() <= 1e-15 * times[k].abs().max(1.0),
            "{what}: sample {k} at t = {} instead of {}",
            generated["t"][k],
            times[k]
        );
        let size = state
            .iter()
            .map(|h| reference[*h][k].abs())
            .fold(1.0, f64::max);
        for name in header.iter().filter(|h| *h != "t") {
            let (a, b) = (generated[name][k], reference[name][k]);
            let scale = if is_integral(name) {
                b.abs().max(1.0)
            } else {
                size
            };
            let difference = (a - b).abs() / scale;
            assert!(
                difference <= TOLERANCE,
                "{what}: {name} at t = {}: {a} vs {b} (relative {difference:e})",
                times[k]
            );
            worst = worst.max(difference);
        }
    }
    worst
}

/// Whether a CSV column is an integral (the energy, the Jacobi integral, a momentum).
fn is_integral(name: &str) -> bool {
    name == "energy" || name == "jacobi_integral" || name.starts_with("p_")
}

/// The generated crate's package name, from its Cargo.toml.
fn package_name(dir: &Path) -> String {
    let manifest: toml::Table = std::fs::read_to_string(dir.join("Cargo.toml"))
        .expect("generated Cargo.toml")
        .parse()
        .expect("TOML");
    manifest["package"]["name"]
        .as_str()
        .expect("package name")
        .to_string()
}

/// Builds the generated crate in `crate_dir` (`cargo build --offline`, into its own
/// target folder: crates of one model generated by two tests share a package name);
/// returns its binary.
fn build_rust(crate_dir: &Path) -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let target_dir = crate_dir.join("target");
    checked(
        Command::new(&cargo)
            .args(["build", "--offline", "--quiet", "--manifest-path"])
            .arg(crate_dir.join("Cargo.toml"))
            .env("CARGO_TARGET_DIR", &target_dir)
            // Built to be run once: no debug information, no incremental state on disk.
            .env("CARGO_PROFILE_DEV_DEBUG", "false")
            .env("CARGO_INCREMENTAL", "0"),
    );
    target_dir.join("debug").join(package_name(crate_dir))
}

/// Compiles the generated C in `c_dir` with gcc; returns the program.
fn build_c(c_dir: &Path) -> PathBuf {
    let binary = c_dir.join("solver");
    checked(
        Command::new("gcc")
            .args(["-O2", "-std=c99", "-Wall", "-o"])
            .arg(&binary)
            .arg(c_dir.join("main.c"))
            .arg(c_dir.join("model.c"))
            .arg("-lm"),
    );
    binary
}

/// Generates, builds and runs both targets for one model file of `examples/models/` and
/// compares them with the derive's system `S`.
fn compare<S: FromParameterValues<Const<N>>, const N: usize>(stem: &str) -> Vec<Columns> {
    compare_file::<S, N>(stem, &model_path(stem))
}

/// [`compare`] for the model file `model`, named `stem`; for a model with constraints, the
/// trajectories must also agree bit for bit. Returns the generated trajectories as columns
/// (Rust, then C if gcc is available).
fn compare_file<S: FromParameterValues<Const<N>>, const N: usize>(
    stem: &str,
    model: &Path,
) -> Vec<Columns> {
    let (equations, reference, values) = reference::<S, N>(model);
    let constrained = !S::from_parameter_values(&vec![0.0; S::PARAMETER_COUNT])
        .expect("system")
        .info()
        .constraints
        .is_empty();
    let times = ["--t0", "0", "--t-end", "1", "--dt", "0.01"];

    // Rust: the model file's defaults, built into the crate.
    let crate_dir = generate(stem, model, "rust");
    for file in [
        "Cargo.toml",
        "README.md",
        "src/main.rs",
        "src/model.rs",
        "src/solver.rs",
    ] {
        assert!(crate_dir.join(file).is_file(), "{stem}: no {file}");
    }
    let binary = build_rust(&crate_dir);
    let printed = checked(Command::new(&binary).arg("--equations"));
    assert_eq!(printed.trim_end(), equations, "{stem}: Rust equations");
    let csv = checked(Command::new(&binary).args(times));
    // The binary has run; its build folder is not needed again (the suite's disk use).
    let _ = std::fs::remove_dir_all(crate_dir.join("target"));
    let (header, columns) = parse_csv(&csv);
    let rust = max_difference(&format!("{stem} (Rust)"), &reference, &header, &columns);
    eprintln!("{stem}: Rust max relative difference {rust:e}");
    if constrained {
        assert_same_bits(&format!("{stem} (Rust)"), &reference, &columns);
    }
    let mut generated = vec![columns];

    // C: every value given through --file, from the model file read here.
    if !gcc_available() {
        return generated;
    }
    let c_dir = generate(stem, model, "c");
    let binary = build_c(&c_dir);
    let settings: String = values
        .parameters
        .iter()
        .chain(&values.q)
        .map(|(name, v)| format!("{name} = {v:?}\n"))
        .chain(
            values
                .qd
                .iter()
                .map(|(name, v)| format!("dot_{name} = {v:?}  # velocity\n")),
        )
        .collect();
    let settings_path = c_dir.join("values.txt");
    std::fs::write(&settings_path, format!("# {stem}\n{settings}")).expect("values file");
    let printed = checked(Command::new(&binary).arg("--equations"));
    assert_eq!(printed.trim_end(), equations, "{stem}: C equations");
    let csv = checked(
        Command::new(&binary)
            .args(times)
            .arg("--file")
            .arg(&settings_path),
    );
    let (header, columns) = parse_csv(&csv);
    let c = max_difference(&format!("{stem} (C)"), &reference, &header, &columns);
    eprintln!("{stem}: C max relative difference {c:e}");
    if constrained {
        assert_same_bits(&format!("{stem} (C)"), &reference, &columns);
    }
    generated.push(columns);

    bit_for_bit::<S, N>(stem, model, &values, &crate_dir, &c_dir);
    generated
}

/// Asserts that every column of `generated` has the bits of the reference's.
fn assert_same_bits(what: &str, reference: &Columns, generated: &Columns) {
    for (name, values) in generated {
        let expected = &reference[name];
        for (k, (a, b)) in values.iter().zip(expected).enumerate() {
            assert!(
                a.to_bits() == b.to_bits(),
                "{what}: {name} at sample {k}: {a:e} vs {b:e}, not bit for bit"
            );
        }
    }
    eprintln!("{what}: bit for bit");
}

/// A point `(t, q, q̇, p)` of the bitwise comparison.
type Point = (f64, Vec<f64>, Vec<f64>, Vec<f64>);

/// The model file's state at `t = 0` and two others (coordinates and velocities
/// shifted; parameters kept, to stay in their domain).
fn points(values: &FileValues) -> Vec<Point> {
    let p: Vec<f64> = values.parameters.iter().map(|(_, v)| *v).collect();
    let q: Vec<f64> = values.q.iter().map(|(_, v)| *v).collect();
    let qd: Vec<f64> = values.qd.iter().map(|(_, v)| *v).collect();
    let shift = |v: &[f64], by: f64| -> Vec<f64> {
        v.iter()
            .enumerate()
            .map(|(i, x)| x + by * (i as f64 + 1.0))
            .collect()
    };
    vec![
        (0.0, q.clone(), qd.clone(), p.clone()),
        (0.37, shift(&q, 0.11), shift(&qd, -0.23), p.clone()),
        (1.9, shift(&q, -0.07), shift(&qd, 0.61), p),
    ]
}

/// Bit patterns, with every NaN as one pattern (NaN payloads are not part of the
/// contract).
fn bits(values: impl IntoIterator<Item = f64>) -> Vec<u64> {
    values
        .into_iter()
        .map(|x| {
            if x.is_nan() {
                f64::NAN.to_bits()
            } else {
                x.to_bits()
            }
        })
        .collect()
}

/// `v` as Rust or C array elements that read back exactly.
fn from_bits(v: &[f64], lang_c: bool) -> String {
    v.iter()
        .map(|x| {
            if lang_c {
                format!("from_bits({:#x}ull)", x.to_bits())
            } else {
                format!("f64::from_bits({:#x})", x.to_bits())
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Hex words, one line per point, as the harnesses print them.
fn parse_bits(text: &str) -> Vec<Vec<u64>> {
    text.lines()
        .map(|l| {
            l.split(' ')
                .map(|w| u64::from_str_radix(w, 16).expect("hex"))
                .map(|b| bits([f64::from_bits(b)])[0])
                .collect()
        })
        .collect()
}

/// Program `k` of a list evaluated at inputs into outputs, by one backend.
type Evaluate<'a> = &'a dyn Fn(usize, &[f64], &mut [f64]);

/// The comparison of the module documentation for one model.
fn bit_for_bit<S: FromParameterValues<Const<N>>, const N: usize>(
    stem: &str,
    model: &Path,
    values: &FileValues,
    crate_dir: &Path,
    c_dir: &Path,
) {
    let points = points(values);

    // The derive.
    let derive: Vec<Vec<u64>> = points
        .iter()
        .map(|(t, q, qd, p)| {
            let s = S::from_parameter_values(p).expect("system");
            let q = SVector::<f64, N>::from_column_slice(q);
            let qd = SVector::<f64, N>::from_column_slice(qd);
            let (m, f) = s.mass_matrix_and_forcing(*t, &q, &qd);
            let mut v: Vec<f64> = (0..N * N).map(|k| m[(k / N, k % N)]).collect();
            v.extend(f.iter());
            v.push(s.lagrangian(*t, &q, &qd));
            v.push(s.energy(*t, &q, &qd));
            v.push(s.jacobi_integral(*t, &q, &qd));
            v.extend(s.momenta(*t, &q, &qd).iter());
            v.extend(s.momentum_rate(*t, &q, &qd).iter());
            bits(v)
        })
        .collect();

    // The interpreter, on the entry the command stored.
    let text = std::fs::read_to_string(model).expect("model file");
    let table: toml::Table = text.parse().expect("TOML");
    let name = table["model"]["name"].as_str().expect("model name");
    let mut entries = Vec::new();
    // This build's folder of the cache: the command and this test link the same engine,
    // and folders of earlier builds may hold entries of older formats.
    let folder = cache().join(store::cache_subdir());
    for file in std::fs::read_dir(&folder).expect("this engine's cache folder") {
        let path = file.expect("entry").path();
        let entry: Entry = serde_json::from_str(&std::fs::read_to_string(&path).expect("entry"))
            .expect("an entry");
        if entry.model.name == name {
            entries.push(entry);
        }
    }
    assert_eq!(entries.len(), 1, "{stem}: entries named {name}");
    let programs = &entries[0].derived.full.programs;
    let six = [
        &programs.dynamics,
        &programs.lagrangian,
        &programs.energy,
        &programs.jacobi_integral,
        &programs.momenta,
        &programs.momentum_rate,
    ];
    let run = |evaluate: Evaluate<'_>| -> Vec<Vec<u64>> {
        points
            .iter()
            .map(|(t, q, qd, p)| {
                let inputs: Vec<f64> = std::iter::once(*t)
                    .chain(q.iter().copied())
                    .chain(qd.iter().copied())
                    .chain(p.iter().copied())
                    .collect();
                let mut v = Vec::new();
                for (k, program) in six.iter().enumerate() {
                    let mut out = vec![f64::NAN; program.outputs];
                    evaluate(k, &inputs, &mut out);
                    v.extend(out);
                }
                bits(v)
            })
            .collect()
    };
    let interpreted = run(&|k, inputs, out| six[k].evaluate(inputs, out));
    assert_eq!(interpreted, derive, "{stem}: interpreter vs derive");

    // Compiled on load, with the FMA instructions (where the processor has them) and
    // without (the C library's `fma`).
    for fma in [Fma::Detect, Fma::Library] {
        let compiled: Vec<Compiled> = six
            .iter()
            .map(|program| Compiled::with_fma(program, fma).expect("compiled"))
            .collect();
        let jit = run(&|k, inputs, out| compiled[k].evaluate(inputs, out));
        assert_eq!(jit, derive, "{stem}: compiled on load ({fma:?}) vs derive");
    }

    // The generated Rust.
    let dir = scratch(&format!("{stem}/bits"));
    let calls: String = points
        .iter()
        .map(|(t, q, qd, p)| {
            format!(
                "    run({}, [{}], [{}], [{}]);\n",
                from_bits(&[*t], false),
                from_bits(q, false),
                from_bits(qd, false),
                from_bits(p, false)
            )
        })
        .collect();
    let model_rs = crate_dir.join("src/model.rs");
    let harness = format!(
        "#[path = {model_rs:?}]\nmod model;\nuse std::hint::black_box as b;\n\
         fn run(t: f64, q: [f64; model::N], qd: [f64; model::N], p: [f64; model::P]) {{\n\
         let (m, f) = model::dynamics(b(t), b(&q), b(&qd), b(&p));\n\
         let mut v: Vec<f64> = m.iter().flatten().copied().collect();\n\
         v.extend(f);\n\
         v.push(model::lagrangian(b(t), b(&q), b(&qd), b(&p)));\n\
         v.push(model::energy(b(t), b(&q), b(&qd), b(&p)));\n\
         v.push(model::jacobi_integral(b(t), b(&q), b(&qd), b(&p)));\n\
         v.extend(model::momenta(b(t), b(&q), b(&qd), b(&p)));\n\
         v.extend(model::momentum_rate(b(t), b(&q), b(&qd), b(&p)));\n\
         let w: Vec<String> = v.iter().map(|x| format!(\"{{:x}}\", x.to_bits())).collect();\n\
         println!(\"{{}}\", w.join(\" \"));\n}}\nfn main() {{\n{calls}}}\n"
    );
    std::fs::write(dir.join("bits.rs"), harness).expect("harness");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let binary = dir.join("bits");
    checked(
        Command::new(rustc)
            .args([
                "--edition",
                "2021",
                "-A",
                "warnings",
                "-C",
                "opt-level=3",
                "-o",
            ])
            .arg(&binary)
            .arg(dir.join("bits.rs")),
    );
    let rust = parse_bits(&checked(&mut Command::new(&binary)));
    assert_eq!(rust, derive, "{stem}: generated Rust vs derive");

    // The generated C.
    let header = std::fs::read_to_string(c_dir.join("model.h")).expect("model.h");
    let prefix = header
        .lines()
        .find_map(|l| {
            l.strip_prefix("void ")?
                .split_once("_dynamics(")
                .map(|(p, _)| p)
        })
        .expect("the dynamics function");
    let calls: String = points
        .iter()
        .map(|(t, q, qd, p)| {
            let array = |v: &[f64]| format!("{{{}}}", from_bits(v, true));
            format!(
                "    {{ double q[] = {}; double qd[] = {}; double p[] = {}; run({}, q, qd, p); }}\n",
                array(q),
                array(qd),
                if p.is_empty() { "{0}".to_string() } else { array(p) },
                from_bits(&[*t], true)
            )
        })
        .collect();
    let harness = format!(
        "#include <stdio.h>\n#include <string.h>\n#include <stdint.h>\n#include \"model.h\"\n\
         #define N {N}\n\
         static double from_bits(uint64_t b) {{ double x; memcpy(&x, &b, 8); return x; }}\n\
         static void put(double x, int first) {{ uint64_t b; memcpy(&b, &x, 8); printf(first ? \"%llx\" : \" %llx\", (unsigned long long)b); }}\n\
         static void run(double t, const double q[], const double qd[], const double p[]) {{\n\
         double m[N][N], f[N], mom[N], rate[N];\n\
         {prefix}_dynamics(t, q, qd, p, m, f);\n\
         for (int i = 0; i < N * N; i++) put(m[i / N][i % N], i == 0);\n\
         for (int i = 0; i < N; i++) put(f[i], 0);\n\
         put({prefix}_lagrangian(t, q, qd, p), 0);\n\
         put({prefix}_energy(t, q, qd, p), 0);\n\
         put({prefix}_jacobi_integral(t, q, qd, p), 0);\n\
         {prefix}_momenta(t, q, qd, p, mom);\n\
         for (int i = 0; i < N; i++) put(mom[i], 0);\n\
         {prefix}_momentum_rate(t, q, qd, p, rate);\n\
         for (int i = 0; i < N; i++) put(rate[i], 0);\n\
         printf(\"\\n\");\n}}\nint main(void) {{\n{calls}    return 0;\n}}\n"
    );
    std::fs::write(dir.join("bits.c"), harness).expect("harness");
    let binary = dir.join("bits-c");
    checked(
        Command::new("gcc")
            .args(["-O2", "-std=c99", "-o"])
            .arg(&binary)
            .arg("-I")
            .arg(c_dir)
            .arg(dir.join("bits.c"))
            .arg(c_dir.join("model.c"))
            .arg("-lm"),
    );
    let c = parse_bits(&checked(&mut Command::new(&binary)));
    assert_eq!(c, derive, "{stem}: generated C vs derive");
    eprintln!(
        "{stem}: derive, interpreter, Rust and C agree bit for bit at {} points",
        points.len()
    );
}

/// One test per compared model file.
/// One test per compared model file; `=> check` also runs `check` on the generated
/// trajectories.
macro_rules! compared {
    ($($stem:ident :: $system:ident < $n:literal > $(=> $check:path)?),* $(,)?) => {
        $(
            #[test]
            fn $stem() {
                let _generated = compare::<$stem::$system, $n>(stringify!($stem));
                $($check(&_generated);)?
            }
        )*
        /// The stems the tests above cover, to check against [`COMPARED`].
        const TESTED: &[&str] = &[$(stringify!($stem)),*];
    };
}

compared! {
    bicycle::Bicycle<8>,
    cartesian_pendulum::CartesianPendulum<2> => pendulum_stays_on_its_circle,
    central_orbit_routh::Orbit<2>,
    chaplygin_sleigh::ChaplyginSleigh<3>,
    double_pendulum::DoublePendulum<2>,
    heavy_top::HeavyTop<3>,
    projectile::Projectile<2>,
    rolling_disk::RollingDisk<5>,
    spherical_pendulum::SphericalPendulum<3>,
    tt_a_spherical_point::SphericalPoint<3>,
    tt_b_string_through_hole::StringThroughHole<2>,
    tt_c_folding_door::FoldingDoor<2>,
    tt_e_rotating_axes::RotatingAxes<3>,
    tt_f_moving_string::MovingString<2>,
    tt_g1_door_ignoring_psi::DoorG1<2>,
    tt_g_gyrostat::Gyrostat<3>,
    two_body::TwoBody<6>,
}

/// Round-off in `G`: the projection after each step leaves `|G|` at a few units in the
/// last place of the squared lengths involved.
const CONSTRAINT_ROUND_OFF: f64 = 8.0 * f64::EPSILON;

/// The largest `|G|` over the samples of `columns`, `G` given by `g(sample)`.
fn max_constraint(columns: &Columns, g: impl Fn(usize) -> f64) -> f64 {
    (0..columns["t"].len())
        .map(|k| g(k).abs())
        .fold(0.0, f64::max)
}

/// The Cartesian pendulum's generated trajectories keep `x² + y² = l²` to round-off.
fn pendulum_stays_on_its_circle(generated: &[Columns]) {
    let model = model_path("cartesian_pendulum");
    let l = file_values(&model, &["l"], &[]).parameters[0].1;
    for columns in generated {
        let (x, y) = (&columns["x"], &columns["y"]);
        let drift = max_constraint(columns, |k| x[k] * x[k] + y[k] * y[k] - l * l);
        eprintln!("cartesian_pendulum: max |x² + y² − l²| = {drift:e}");
        assert!(drift <= CONSTRAINT_ROUND_OFF * l * l, "|G| = {drift:e}");
    }
}

/// A particle of mass `m` on the circle where the sphere `|r| = a` meets the tilted plane
/// `z = s·x + h`, under gravity `g` along −z: two constraints.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y, z),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2 + dot(z)^2)",
    potential = "m*g*z",
    constraint = "x^2 + y^2 + z^2 - a^2",
    constraint = "z - s*x - h"
)]
struct SphereAndPlane {
    m: f64,
    a: f64,
    s: f64,
    h: f64,
    g: f64,
}

/// [`SphereAndPlane`] as a model file, from a consistent state: on both surfaces, moving
/// along their intersection (the cross product of their normals).
#[test]
fn two_constraints_are_generated_and_compared() {
    let (m, a, s, h, g) = (1.5, 1.0, 0.5, 0.2, 9.81);
    let x: f64 = 0.3;
    let z = s * x + h;
    let y = (a * a - x * x - z * z).sqrt();
    let speed = 0.8;
    let (vx, vy, vz) = (y * speed, (-s * z - x) * speed, s * y * speed);
    let dir = scratch("sphere_and_plane");
    let model = dir.join("sphere_and_plane.toml");
    std::fs::write(
        &model,
        format!(
            "[model]\nname = \"SphereAndPlane\"\ncoordinates = [\"x\", \"y\", \"z\"]\n\
             parameters = [\"m\", \"a\", \"s\", \"h\", \"g\"]\n\
             kinetic = \"1/2*m*(dot(x)^2 + dot(y)^2 + dot(z)^2)\"\npotential = \"m*g*z\"\n\
             constraint = [\"x^2 + y^2 + z^2 - a^2\", \"z - s*x - h\"]\n\n\
             [values]\nm = {m:?}\na = {a:?}\ns = {s:?}\nh = {h:?}\ng = {g:?}\n\n\
             [initial]\nq = {{ x = {x:?}, y = {y:?}, z = {z:?} }}\n\
             qd = {{ x = {vx:?}, y = {vy:?}, z = {vz:?} }}\n\n\
             [simulation]\nt_end = 10.0\n"
        ),
    )
    .expect("model file");
    let generated = compare_file::<SphereAndPlane, 3>("sphere_and_plane", &model);
    for columns in &generated {
        let (x, y, z) = (&columns["x"], &columns["y"], &columns["z"]);
        let sphere = max_constraint(columns, |k| x[k] * x[k] + y[k] * y[k] + z[k] * z[k] - a * a);
        let plane = max_constraint(columns, |k| z[k] - s * x[k] - h);
        eprintln!("sphere_and_plane: max |G| = {sphere:e} (sphere), {plane:e} (plane)");
        assert!(
            sphere <= CONSTRAINT_ROUND_OFF * a * a,
            "sphere: |G| = {sphere:e}"
        );
        assert!(plane <= CONSTRAINT_ROUND_OFF * a, "plane: |G| = {plane:e}");
    }
}

/// The generated solvers refuse an initial state off the constraints, as the runtime
/// does, naming the constraint: `x = 0.5` with `y = −cos 1` is off the unit circle.
#[test]
fn generated_solvers_refuse_an_inconsistent_initial_state() {
    let model = model_path("cartesian_pendulum");
    let mut binaries = vec![build_rust(&generate("inconsistent", &model, "rust"))];
    if gcc_available() {
        binaries.push(build_c(&generate("inconsistent", &model, "c")));
    }
    for binary in binaries {
        let output = Command::new(&binary)
            .args(["x=0.5", "--t-end", "0.1"])
            .output()
            .expect("run the generated solver");
        assert_fails(
            &output,
            &[
                "initial state violates the constraint x^2 + y^2 - l^2 = 0",
                "G = ",
            ],
        );
        assert!(output.stdout.is_empty(), "{binary:?} wrote a CSV");
        let consistent = Command::new(&binary)
            .args(["--t-end", "0.1"])
            .output()
            .expect("run the generated solver");
        assert!(consistent.status.success(), "{binary:?}");
    }
}

#[test]
fn every_model_file_is_compared() {
    let mut stems: Vec<String> = std::fs::read_dir(root().join("examples/models"))
        .expect("examples/models")
        .filter_map(|entry| {
            let path = entry.expect("entry").path();
            (path.extension()? == "toml").then(|| path.file_stem()?.to_str().map(str::to_string))?
        })
        .collect();
    stems.sort();
    let mut covered: Vec<&str> = COMPARED
        .iter()
        .copied()
        .chain(RUN_TIME.iter().copied())
        .collect();
    covered.sort();
    assert_eq!(stems, covered, "model files vs the stems this test covers");
    assert_eq!(TESTED, COMPARED);
}

/// Asserts a failed run with a message containing every one of `needles`, and no panic.
fn assert_fails(output: &Output, needles: &[&str]) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "should fail; stderr:\n{stderr}");
    assert!(!stderr.contains("panicked"), "panicked:\n{stderr}");
    for needle in needles {
        assert!(stderr.contains(needle), "`{needle}` not in:\n{stderr}");
    }
}

#[test]
fn a_missing_model_file_is_an_error() {
    let out = scratch("missing");
    let output = lagrange(&[
        "generate",
        "no/such/model.toml",
        "--out",
        out.to_str().expect("UTF-8 path"),
    ]);
    assert_fails(&output, &["error:", "cannot read `no/such/model.toml`"]);
}

#[test]
fn an_unknown_target_is_an_error() {
    let out = scratch("bad_target");
    let model = model_path("double_pendulum");
    let output = lagrange(&[
        "generate",
        model.to_str().expect("UTF-8 path"),
        "--out",
        out.to_str().expect("UTF-8 path"),
        "--target",
        "fortran",
    ]);
    assert_fails(&output, &["fortran", "--target", "rust", "c"]);
}

#[test]
fn an_unwritable_output_directory_is_an_error() {
    let dir = scratch("unwritable");
    let file = dir.join("a_file");
    std::fs::write(&file, "not a directory").expect("file");
    let out = file.join("out");
    let model = model_path("double_pendulum");
    let output = lagrange(&[
        "generate",
        model.to_str().expect("UTF-8 path"),
        "--out",
        out.to_str().expect("UTF-8 path"),
    ]);
    assert_fails(&output, &["error:", "cannot create", "a_file"]);
}

#[test]
fn edited_templates_are_used_and_their_errors_reported() {
    let dir = scratch("templates");
    let templates = dir.join("templates");
    let copy = |from: &Path, to: &Path| {
        for file in [
            "Cargo.toml.tera",
            "README.md.tera",
            "src/main.rs.tera",
            "src/model.rs.tera",
            "src/solver.rs.tera",
        ] {
            let target = to.join(file);
            std::fs::create_dir_all(target.parent().expect("parent")).expect("dir");
            std::fs::copy(from.join(file), &target).expect("copy template");
        }
    };
    copy(&root().join("templates/rust"), &templates.join("rust"));
    let readme = templates.join("rust/README.md.tera");
    let text = std::fs::read_to_string(&readme).expect("README template");
    std::fs::write(&readme, format!("EDITED for {{{{ name }}}}\n{text}")).expect("edit");
    let model = model_path("double_pendulum");
    let run = |out: &Path| {
        lagrange(&[
            "generate",
            model.to_str().expect("UTF-8 path"),
            "--out",
            out.to_str().expect("UTF-8 path"),
            "--templates",
            templates.to_str().expect("UTF-8 path"),
        ])
    };
    let out = dir.join("out");
    let output = run(&out);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let generated = std::fs::read_to_string(out.join("README.md")).expect("README");
    assert!(
        generated.starts_with("EDITED for DoublePendulum\n"),
        "{generated}"
    );

    // A template that renders invalid Rust names itself and leaves the text to inspect.
    let solver = templates.join("rust/src/solver.rs.tera");
    std::fs::write(&solver, "pub fn broken( {").expect("break");
    let output = run(&dir.join("broken"));
    assert_fails(&output, &["rust/src/solver.rs.tera", "invalid Rust"]);
    assert!(dir.join("broken/src/solver.rs").is_file());

    // And a template with a tera error names the template.
    std::fs::write(&solver, "{{ no_such_variable }}").expect("break");
    let output = run(&dir.join("broken2"));
    assert_fails(&output, &["rust/src/solver.rs.tera", "no_such_variable"]);
}

//! `lagrange simulate` end to end: its numbers against the derive path (the same models as
//! `#[derive(Lagrangian)]` structs, integrated by `Simulation` with the same integrator),
//! its plot, its errors, and its silence on a stderr that is not a terminal.
//!
//! Over 600 lines, and kept whole: one command, `lagrange simulate`, and its outputs.

use lagrange::nalgebra::Const;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use lagrange::nalgebra::Vector2;
use lagrange::{Integrator, Lagrangian, Simulation, Trajectory};

/// Largest difference allowed between a CSV value of the command and of the derive path.
const AGREEMENT: f64 = 1e-12;

/// `examples/models/double_pendulum.toml`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta1, theta2),
    kinetic = "1/2*(m1+m2)*l1^2*dot(theta1)^2 + m2*l1*l2*cos(theta1-theta2)*dot(theta1)*dot(theta2) + 1/2*m2*l2^2*dot(theta2)^2",
    potential = "-(m1+m2)*g*l1*cos(theta1) - m2*g*l2*cos(theta2)"
)]
struct DoublePendulum {
    m1: f64,
    m2: f64,
    l1: f64,
    l2: f64,
    g: f64,
}

/// `examples/models/cartesian_pendulum.toml`: a holonomic constraint.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2)",
    potential = "m*g*y",
    constraint = "x^2 + y^2 - l^2"
)]
struct CartesianPendulum {
    m: f64,
    l: f64,
    g: f64,
}

/// `examples/models/tt_a_spherical_point.toml`: generalized forces.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(r, theta, phi),
    kinetic = "1/2*m*(dot(r)^2 + r^2*dot(theta)^2 + r^2*sin(theta)^2*dot(phi)^2)",
    force(r = "F", theta = "G*r", phi = "H*r*sin(theta)")
)]
#[allow(non_snake_case)]
struct SphericalPoint {
    m: f64,
    F: f64,
    G: f64,
    H: f64,
}

/// A particle in a plane, in polar coordinates, on an isotropic spring: energy and the
/// cyclic momentum `p_phi` are conserved.
const POLAR_SPRING: &str = r#"
[model]
name = "PolarSpring"
coordinates = ["r", "phi"]
parameters = ["m", "k"]
kinetic = "1/2*m*(dot(r)^2 + r^2*dot(phi)^2)"
potential = "1/2*k*r^2"

[values]
m = 1.0
k = 4.0

[initial]
q = { r = 1.0, phi = 0.0 }
qd = { r = 0.0, phi = 1.0 }
"#;

fn lagrange(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lagrange"))
        .args(args)
        .output()
        .expect("the lagrange binary runs")
}

fn model(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/models")
        .join(name)
        .display()
        .to_string()
}

/// A path in the temporary directory, unique to this test process.
fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "lagrange-cli-simulate-{}-{name}",
        std::process::id()
    ))
}

/// Writes `text` to a temporary model file and returns its path.
fn model_file(name: &str, text: &str) -> String {
    let path = temp(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Runs `simulate` on `file` with `args` and returns the CSV it writes.
fn simulate_csv(file: &str, args: &[&str]) -> String {
    let csv = temp(&format!(
        "{}.csv",
        Path::new(file).file_stem().unwrap().to_string_lossy()
    ));
    let csv_arg = csv.display().to_string();
    let mut all = vec!["simulate", file, "--out", &csv_arg];
    all.extend_from_slice(args);
    let output = lagrange(&all);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(&csv).unwrap();
    std::fs::remove_file(&csv).unwrap();
    text
}

/// The header and the rows of a CSV.
fn parse(csv: &str) -> (String, Vec<Vec<f64>>) {
    let mut lines = csv.lines();
    let header = lines.next().expect("a header").to_string();
    let rows = lines
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    (header, rows)
}

/// The largest difference between the command's CSV and the trajectory's, after checking
/// that they have the same columns and times.
fn max_difference<const N: usize>(cli: &str, trajectory: &Trajectory<Const<N>>) -> f64 {
    let mut reference = Vec::new();
    trajectory.write_csv(&mut reference).unwrap();
    let (header, rows) = parse(cli);
    let (expected_header, expected) = parse(&String::from_utf8(reference).unwrap());
    assert_eq!(header, expected_header);
    assert_eq!(rows.len(), expected.len());
    let mut worst = 0.0_f64;
    for (row, expected) in rows.iter().zip(&expected) {
        assert_eq!(row.len(), expected.len());
        assert_eq!(row[0], expected[0], "times");
        for (a, b) in row.iter().zip(expected) {
            worst = worst.max((a - b).abs());
        }
    }
    worst
}

const RK4: [&str; 6] = ["--integrator", "rk4", "--dt", "1e-3", "--t-end", "1"];

fn rk4<S: lagrange::LagrangianSystem<Const<N>>, const N: usize>(
    system: &S,
    q0: [f64; N],
    qd0: [f64; N],
) -> Trajectory<Const<N>> {
    Simulation::new(system)
        .integrator(Integrator::Rk4 { dt: 1e-3 })
        .run(0.0, q0.into(), qd0.into(), 1.0)
        .unwrap()
}

#[test]
fn double_pendulum_agrees_with_the_derive() {
    let cli = simulate_csv(&model("double_pendulum.toml"), &RK4);
    let pendulum = DoublePendulum {
        m1: 1.0,
        m2: 1.0,
        l1: 1.0,
        l2: 1.0,
        g: 9.81,
    };
    let half_pi = std::f64::consts::FRAC_PI_2;
    let derived = rk4(&pendulum, [half_pi, half_pi], [0.0, 0.0]);
    assert_eq!(derived.len(), 1001);
    let difference = max_difference(&cli, &derived);
    eprintln!("double pendulum: max |CLI − derive| = {difference:e}");
    assert!(difference <= AGREEMENT, "{difference:e}");
}

#[test]
fn constrained_cartesian_pendulum_agrees_with_the_derive() {
    let cli = simulate_csv(&model("cartesian_pendulum.toml"), &RK4);
    let pendulum = CartesianPendulum {
        m: 1.0,
        l: 1.0,
        g: 9.81,
    };
    let q0 = Vector2::new(0.841_470_984_807_896_5, -0.540_302_305_868_139_8);
    let derived = rk4(&pendulum, q0.into(), [0.0; 2]);
    let difference = max_difference(&cli, &derived);
    eprintln!("cartesian pendulum: max |CLI − derive| = {difference:e}");
    assert!(difference <= AGREEMENT, "{difference:e}");
}

#[test]
fn forced_spherical_point_agrees_with_the_derive() {
    // The example file with the forces switched on.
    let text = std::fs::read_to_string(model("tt_a_spherical_point.toml"))
        .unwrap()
        .replace("F = 0.0", "F = 0.3")
        .replace("G = 0.0", "G = -0.2")
        .replace("H = 0.0", "H = 0.1");
    let file = model_file("forced_point.toml", &text);
    let cli = simulate_csv(&file, &RK4);
    std::fs::remove_file(&file).unwrap();
    let point = SphericalPoint {
        m: 2.0,
        F: 0.3,
        G: -0.2,
        H: 0.1,
    };
    let derived = rk4(&point, [1.0, 1.0, 0.0], [0.0, 0.2, 0.5]);
    // The forces move the point off the force-free straight line.
    let free = rk4(
        &SphericalPoint {
            F: 0.0,
            G: 0.0,
            H: 0.0,
            ..point
        },
        [1.0, 1.0, 0.0],
        [0.0, 0.2, 0.5],
    );
    let (_, q, _) = derived.last().unwrap();
    let (_, q_free, _) = free.last().unwrap();
    assert!((q - q_free).norm() > 1e-2, "{q} vs {q_free}");
    let difference = max_difference(&cli, &derived);
    eprintln!("forced spherical point: max |CLI − derive| = {difference:e}");
    assert!(difference <= AGREEMENT, "{difference:e}");
}

#[test]
fn dormand_prince_is_the_default_sampled_at_dt() {
    let cli = simulate_csv(
        &model("double_pendulum.toml"),
        &["--t-end", "2", "--dt", "0.25"],
    );
    let pendulum = DoublePendulum {
        m1: 1.0,
        m2: 1.0,
        l1: 1.0,
        l2: 1.0,
        g: 9.81,
    };
    let half_pi = std::f64::consts::FRAC_PI_2;
    let derived = Simulation::new(&pendulum)
        .integrator(Integrator::dormand_prince(1e-10, 1e-10))
        .output_interval(0.25)
        .run(0.0, Vector2::new(half_pi, half_pi), Vector2::zeros(), 2.0)
        .unwrap();
    assert_eq!(derived.len(), 9);
    let difference = max_difference(&cli, &derived);
    assert!(difference <= AGREEMENT, "{difference:e}");
}

/// The `<polyline>` elements of an SVG with more than `points` points: the data series.
fn series(svg: &str, points: usize) -> usize {
    svg.split("<polyline")
        .skip(1)
        .filter(|element| {
            let end = element.find("/>").unwrap_or(element.len());
            element[..end].matches(',').count() > points
        })
        .count()
}

#[test]
fn plot_has_a_series_per_coordinate_and_per_invariant() {
    let file = model_file("polar_spring.toml", POLAR_SPRING);
    let svg_path = temp("polar_spring.svg");
    let svg_arg = svg_path.display().to_string();
    let output = lagrange(&[
        "simulate", &file, "--t-end", "5", "--dt", "0.01", "--plot", &svg_arg,
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    std::fs::remove_file(&svg_path).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..100.min(svg.len())]);
    assert!(svg.trim_end().ends_with("</svg>"));
    // r and phi above; the drift of energy and p_phi below: 501 points each.
    assert_eq!(series(&svg, 500), 4);
    for label in [
        ">coordinates</text>",
        ">r</text>",
        ">phi</text>",
        ">drift of the invariants</text>",
        ">energy (relative)</text>",
        ">p_phi (relative)</text>",
    ] {
        assert!(svg.contains(label), "no `{label}` in the plot");
    }

    // Without invariants (the forced point conserves nothing) only the coordinates.
    let forced = std::fs::read_to_string(model("tt_a_spherical_point.toml"))
        .unwrap()
        .replace("F = 0.0", "F = 0.3");
    let file = model_file("forced_point_plot.toml", &forced);
    let output = lagrange(&["simulate", &file, "--dt", "0.01", "--plot", &svg_arg]);
    assert!(output.status.success(), "{}", stderr(&output));
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    std::fs::remove_file(&svg_path).unwrap();
    std::fs::remove_file(&file).unwrap();
    assert_eq!(series(&svg, 500), 3);
    assert!(!svg.contains("drift of the invariants"));
}

/// The command fails with a message on stderr that mentions `expected`, and does not panic.
fn fails_with(args: &[&str], expected: &str) {
    let output = lagrange(args);
    let message = stderr(&output);
    assert!(!output.status.success(), "{args:?} succeeded");
    assert!(message.starts_with("error: "), "{message}");
    assert!(message.contains(expected), "{args:?}: {message}");
    assert!(!message.contains("panicked"), "{message}");
}

#[test]
fn errors_are_messages_not_panics() {
    let without_t_end = model_file("polar_no_end.toml", POLAR_SPRING);
    fails_with(&["simulate", &without_t_end], "no end time");
    fails_with(&["simulate", &without_t_end], &without_t_end);
    // `generate` reads the [simulation] table by the same rules: no end time of 10 by
    // default, no integrator name in upper case.
    let out = temp("polar_no_end_solver").display().to_string();
    fails_with(&["generate", &without_t_end, "--out", &out], "no end time");
    let upper_case = format!("{POLAR_SPRING}\n[simulation]\nt_end = 1.0\nintegrator = \"RK4\"\n");
    std::fs::write(&without_t_end, upper_case).unwrap();
    for command in ["simulate", "generate"] {
        fails_with(
            &[command, &without_t_end, "--out", &out],
            "unknown integrator `RK4`",
        );
    }
    assert!(!std::path::Path::new(&out).exists());
    std::fs::remove_file(&without_t_end).unwrap();

    let pendulum = model("double_pendulum.toml");
    fails_with(
        &["simulate", &pendulum, "--integrator", "euler"],
        "unknown integrator `euler`",
    );
    fails_with(&["simulate", &pendulum, "--dt", "0"], "dt must be");
    fails_with(&["simulate", &pendulum, "--dt", "-1"], "dt must be");
    fails_with(&["simulate", &pendulum, "--tolerance=-1e-9"], "tolerance");
    fails_with(&["simulate", &pendulum, "--t-end", "-1"], "end time");
    fails_with(&["simulate", "no/such/model.toml"], "no/such/model.toml");

    // Spans and step counts that cannot be integrated are refused up front, in the user's
    // numbers (short, and only those given: no `dt` the user did not give), and a run
    // that stops says when without contradicting itself.
    let pendulum = pendulum.as_str();
    for (args, says) in [
        (
            &["--t-start", "-1e308", "--t-end", "1e308"][..],
            "the span from -1e308 to 1e308 is beyond the floating-point numbers",
        ),
        (
            &["--t-end", "1e9", "--integrator", "rk4", "--dt", "1e-3"][..],
            "dt = 0.001 from t = 0 to 1e9 takes 1e12 steps, more than max_steps = 1000000",
        ),
        (
            &[
                "--t-start",
                "1e20",
                "--t-end",
                "1.00001e20",
                "--integrator",
                "rk4",
                "--dt",
                "1e-3",
            ][..],
            "a step dt = 0.001 does not advance the time near t = 1.00001e20",
        ),
        (
            &["--t-end", "1e300", "--integrator", "rk4"][..],
            "integration stopped: mass matrix is singular or the accelerations are not finite at t = 5e296",
        ),
    ] {
        let mut all = vec!["simulate", pendulum];
        all.extend(args);
        fails_with(&all, says);
        let message = stderr(&lagrange(&all));
        assert!(!message.contains("got inf"), "{message}");
        let digits = message
            .split(|c: char| !c.is_ascii_digit())
            .map(str::len)
            .max()
            .unwrap_or(0);
        assert!(digits <= 17, "a number in full: {message}");
    }

    // Off the constraint x² + y² = l².
    let text = std::fs::read_to_string(model("cartesian_pendulum.toml"))
        .unwrap()
        .replace("y = -0.5403023058681398", "y = -0.6");
    let inconsistent = model_file("inconsistent.toml", &text);
    fails_with(&["simulate", &inconsistent], "integration failed");
    fails_with(&["simulate", &inconsistent], &inconsistent);
    std::fs::remove_file(&inconsistent).unwrap();
}

#[test]
fn no_progress_bar_when_stderr_is_not_a_terminal() {
    // Long enough for the bar to appear on a terminal: lengthened until it takes over
    // a second (on a fast machine or an optimized build).
    let mut t_end = 150.0;
    let (output, elapsed) = loop {
        let start = Instant::now();
        let output = lagrange(&[
            "simulate",
            &model("double_pendulum.toml"),
            "--t-end",
            &t_end.to_string(),
            "--tolerance",
            "1e-12",
        ]);
        let elapsed = start.elapsed();
        if elapsed > Duration::from_millis(1200) || t_end > 1e4 {
            break (output, elapsed);
        }
        t_end *= 4.0;
    };
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(elapsed > Duration::from_millis(1200), "{elapsed:?}");
    assert_eq!(stderr(&output), "");
    assert!(String::from_utf8_lossy(&output.stdout).contains("energy"));
}

/// A radial fall from rest at r = 1 with μ = 1 towards the centre of a central force.
const RADIAL_FALL: &str = r#"
[model]
name = "RadialFall"
coordinates = ["r"]
parameters = ["m", "mu"]
kinetic = "1/2*m*dot(r)^2"
potential = "-mu*m/r"

[values]
m = 1.0
mu = 1.0

[initial]
q = { r = 1.0 }
qd = { r = 0.0 }
"#;

#[test]
fn a_run_through_a_singularity_stops_and_keeps_what_it_computed() {
    // From rest at r₀ the fall reaches r = 0 at (π/2)·√(r₀³/(2μ)).
    let free_fall = std::f64::consts::FRAC_PI_2 * 0.5f64.sqrt();
    let file = model_file("radial_fall.toml", RADIAL_FALL);
    let dt = 0.002;
    for integrator in ["rk4", "gauss-legendre", "variational", "dp54"] {
        let (csv, svg, html) = (temp("fall.csv"), temp("fall.svg"), temp("fall.html"));
        let output = lagrange(&[
            "simulate",
            &file,
            "--t-end",
            "2",
            "--dt",
            &dt.to_string(),
            "--integrator",
            integrator,
            "--out",
            &csv.display().to_string(),
            "--plot",
            &svg.display().to_string(),
            "--html",
            &html.display().to_string(),
        ]);
        let message = stderr(&output);
        assert!(!output.status.success(), "{integrator}: {message}");
        assert!(message.contains(&html.display().to_string()), "{message}");
        let page = std::fs::read_to_string(&html).unwrap();
        assert!(page.contains("<p>The run stopped: "), "{integrator}");
        assert!(page.contains("(stopped at t = "), "{integrator}");
        assert!(message.contains("integration stopped: "), "{message}");
        assert!(message.contains("recorded up to t = "), "{message}");
        assert!(message.contains(&csv.display().to_string()), "{message}");
        let (_, rows) = parse(&std::fs::read_to_string(&csv).unwrap());
        let last = rows.last().unwrap();
        assert!(
            (free_fall - 2.0 * dt..=free_fall).contains(&last[0]),
            "{integrator}: the partial CSV ends at t = {}",
            last[0]
        );
        assert!(
            rows.iter().all(|row| row[1] > 0.0),
            "{integrator}: r ≤ 0 recorded"
        );
        assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
        std::fs::remove_file(&csv).unwrap();
        std::fs::remove_file(&svg).unwrap();
        std::fs::remove_file(&html).unwrap();
    }
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn output_paths_are_checked_before_the_run() {
    let csv = temp("checked-first.csv");
    let csv_arg = csv.display().to_string();
    let missing = temp("no-such-folder").join("plot.svg");
    let missing_arg = missing.display().to_string();
    let pendulum = model("double_pendulum.toml");
    let args = [
        "simulate",
        &pendulum,
        "--out",
        &csv_arg,
        "--plot",
        &missing_arg,
    ];
    fails_with(&args, "does not exist");
    // The run would have written the CSV before the plot.
    assert!(!csv.exists(), "the run went ahead");
    let folder = temp("a-folder");
    std::fs::create_dir_all(&folder).unwrap();
    fails_with(
        &[
            "simulate",
            &pendulum,
            "--out",
            &folder.display().to_string(),
        ],
        "is a folder",
    );
    std::fs::remove_dir(&folder).unwrap();
}

/// `ẍ = −x` by RK4 with step h multiplies the energy by |R(ih)|² per step, with
/// R(z) = 1 + z + z²/2 + z³/6 + z⁴/24: 1 − h⁶/72 + h⁸/576 (exactly 0.98785 for h = 1).
#[test]
fn a_drifting_conserved_quantity_is_reported() {
    let file = model_file(
        "oscillator.toml",
        r#"
[model]
name = "Oscillator"
coordinates = ["x"]
parameters = ["m", "k"]
kinetic = "1/2*m*dot(x)^2"
potential = "1/2*k*x^2"

[values]
m = 1.0
k = 1.0

[initial]
q = { x = 1.0 }
qd = { x = 0.0 }
"#,
    );
    let run = |dt: &str| {
        lagrange(&[
            "simulate",
            &file,
            "--integrator",
            "rk4",
            "--t-end",
            "10",
            "--dt",
            dt,
        ])
    };
    // h = 1: ten steps lose 1 − 0.98785¹⁰ ≈ 11.5 % of the energy.
    let coarse = run("1");
    assert!(coarse.status.success(), "{}", stderr(&coarse));
    let warning = stderr(&coarse);
    assert!(
        warning.contains("warning: energy drifts by 1.1"),
        "{warning}"
    );
    // h = 0.1: a hundred steps lose about 100·h⁶/72 ≈ 1.4e-6.
    let fine = run("0.1");
    assert!(fine.status.success());
    assert_eq!(stderr(&fine), "");
    std::fs::remove_file(&file).unwrap();
}

/// A CSV's columns by name.
fn columns(csv: &str) -> std::collections::BTreeMap<String, Vec<f64>> {
    let (header, rows) = parse(csv);
    header
        .split(',')
        .enumerate()
        .map(|(i, name)| (name.to_string(), rows.iter().map(|r| r[i]).collect()))
        .collect()
}

/// `simulate --reduced` against the full run of the same file with the same tolerance:
/// the retained coordinates and velocities, and the ignored coordinates recovered by
/// quadrature, agree to the integration tolerance (`tolerance` is the file's). The
/// momenta the reduced run holds are the full state's at the start, bit for bit (the
/// full run's `p_…` column there), and the full run's own stay within the tolerance.
fn reduced_agrees_with_full(file: &str, tolerance: f64, ignored: &[&str]) {
    let path = model(file);
    let full = columns(&simulate_csv(&path, &[]));
    let csv = temp(&format!("{file}-reduced.csv"));
    let csv_arg = csv.display().to_string();
    let output = lagrange(&["simulate", &path, "--reduced", "--out", &csv_arg]);
    assert!(output.status.success(), "{}", stderr(&output));
    let reduced = columns(&std::fs::read_to_string(&csv).unwrap());
    std::fs::remove_file(&csv).unwrap();
    let summary = String::from_utf8(output.stdout).unwrap();
    let line = summary.lines().next().unwrap();
    assert!(line.starts_with("reduced over "), "{summary}");

    assert_eq!(reduced["t"], full["t"], "{file}: sample times");
    let mut compared = 0;
    for (name, values) in &reduced {
        if name == "t" || name == "jacobi_integral" {
            continue;
        }
        let expected = &full[name];
        for (k, (a, b)) in values.iter().zip(expected).enumerate() {
            let bound = 100.0 * tolerance * b.abs().max(1.0);
            assert!(
                (a - b).abs() <= bound,
                "{file}: {name} at t = {}: reduced {a} vs full {b}",
                full["t"][k]
            );
        }
        compared += 1;
    }
    // The retained coordinates and velocities, and the ignored coordinates.
    let coordinates = full.keys().filter(|k| k.starts_with("dot_")).count();
    assert_eq!(
        compared,
        2 * (coordinates - ignored.len()) + ignored.len(),
        "{file}: {reduced:?}"
    );
    for chi in ignored {
        assert!(reduced.contains_key(*chi), "{file}: no column {chi}");
        let initial = full[&format!("p_{chi}")][0];
        assert!(
            line.contains(&format!("p_{chi} = {initial:?}")),
            "{file}: p_{chi} = {initial:?} is not the held momentum: {line}"
        );
        for p in &full[&format!("p_{chi}")] {
            assert!((p - initial).abs() <= 100.0 * tolerance * initial.abs().max(1.0));
        }
    }
}

#[test]
fn reduced_orbit_agrees_with_the_full_one() {
    reduced_agrees_with_full("central_orbit_routh.toml", 1e-10, &["phi"]);
}

#[test]
fn reduced_heavy_top_agrees_with_the_full_one() {
    reduced_agrees_with_full("heavy_top.toml", 1e-12, &["phi", "psi"]);
}

#[test]
fn reduced_refuses_events_it_cannot_watch() {
    let orbit = std::fs::read_to_string(model("central_orbit_routh.toml")).unwrap();
    let with_event = orbit.replace(
        "[simulation]",
        "[[events]]\nname = \"apocentre\"\nwhen = \"dot(r)\"\ndirection = \"falling\"\n\n[simulation]",
    );
    assert_ne!(with_event, orbit);
    let file = model_file("orbit_with_event.toml", &with_event);
    let output = lagrange(&["simulate", &file, "--reduced"]);
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(message.contains("--reduced runs neither"), "{message}");
    assert!(!message.contains("panicked"), "{message}");
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn reduced_needs_a_model_that_ignores_coordinates() {
    let output = lagrange(&["simulate", &model("double_pendulum.toml"), "--reduced"]);
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(
        message.contains("--reduced needs a model that ignores"),
        "{message}"
    );
    assert!(!message.contains("panicked"), "{message}");
}

#[test]
fn the_action_and_principal_function_follow_the_projectiles_closed_form() {
    // `examples/models/projectile.toml`: m = 1, g = 9.81, from the origin with
    // (ẋ, ẏ) = (8, 9). With v_y(t) = 9 − g t and y(t) = 9 t − g t²/2,
    // A = ∫ m (64 + v_y²) dt and S = ∫ (½ m (64 + v_y²) − m g y) dt.
    let (m, g, vx, vy) = (1.0_f64, 9.81_f64, 8.0_f64, 9.0_f64);
    let kinetic_twice =
        |t: f64| m * (vx * vx * t + vy * vy * t - vy * g * t * t + g * g * t.powi(3) / 3.0);
    let potential = |t: f64| m * g * (vy * t * t / 2.0 - g * t.powi(3) / 6.0);
    let csv = simulate_csv(&model("projectile.toml"), &["--action", "--dt", "0.01"]);
    let columns = columns(&csv);
    let (times, a, s) = (&columns["t"], &columns["action"], &columns["principal"]);
    assert_eq!(times.len(), 151);
    for (k, &t) in times.iter().enumerate() {
        let action = kinetic_twice(t);
        let principal = 0.5 * action - potential(t);
        assert!(
            (a[k] - action).abs() < 1e-9 * (1.0 + action),
            "A({t}) = {} vs {action}",
            a[k]
        );
        assert!(
            (s[k] - principal).abs() < 1e-9 * (1.0 + action),
            "S({t}) = {} vs {principal}",
            s[k]
        );
    }
    let output = lagrange(&["simulate", &model("projectile.toml"), "--action"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let summary = String::from_utf8_lossy(&output.stdout);
    let printed = |name: &str| -> f64 {
        let start = summary
            .find(name)
            .unwrap_or_else(|| panic!("{name} in {summary}"));
        let rest = &summary[start + name.len()..];
        rest.split([',', '\n'])
            .next()
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    };
    let action = kinetic_twice(1.5);
    let principal = 0.5 * action - potential(1.5);
    assert!(
        (printed("A = ∫ p·q̇ dt =") - action).abs() < 1e-9 * action,
        "{summary}"
    );
    assert!(
        (printed("S = ∫ L dt =") - principal).abs() < 1e-9 * action,
        "{summary}"
    );
    // Without the flag, no action columns.
    let plain = simulate_csv(&model("projectile.toml"), &["--dt", "0.01"]);
    assert_eq!(plain.lines().next(), Some("t,x,y,dot_x,dot_y,energy,p_x"));
}

/// `LAGRANGE_JIT` read as a user sets it: `0` and `off` interpret and say so, any other
/// value compiles and says it was not understood (a value that is not UTF-8 too), unset or
/// `1` compiles and says nothing of it; the numbers are the same every way.
#[test]
fn lagrange_jit_says_how_it_was_read() {
    use std::os::unix::ffi::OsStrExt;
    let file = model("double_pendulum.toml");
    let run = |value: Option<&std::ffi::OsStr>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_lagrange"));
        command.args(["simulate", &file, "--t-end", "0.5", "--integrator", "rk4"]);
        command.env_remove("LAGRANGE_JIT");
        if let Some(value) = value {
            command.env("LAGRANGE_JIT", value);
        }
        let output = command.output().expect("the lagrange binary runs");
        assert!(output.status.success(), "{}", stderr(&output));
        (stderr(&output), output.stdout)
    };
    // Standard error may also say that the model is being derived (a cache miss).
    let (quiet, numbers) = run(None);
    assert!(!quiet.contains("LAGRANGE_JIT"), "{quiet}");
    for (value, note) in [
        (&b"1"[..], None),
        (b"0", Some("interpreted, not compiled")),
        (b"off", Some("interpreted, not compiled")),
        (b"banana", Some("is neither `0` nor `off`")),
        (b"0\xff", Some("is neither `0` nor `off`")),
    ] {
        let (said, printed) = run(Some(std::ffi::OsStr::from_bytes(value)));
        match note {
            None => assert!(!said.contains("LAGRANGE_JIT"), "{value:?}: {said}"),
            Some(note) => assert!(said.contains(note), "{value:?}: {said}"),
        }
        assert_eq!(printed, numbers, "{value:?}");
    }
}

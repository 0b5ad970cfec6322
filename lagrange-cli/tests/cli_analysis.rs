//! `lagrange linearize`, `lagrange modes`, inputs driven by `[inputs]` signals and
//! `[[events]]`, end to end, against closed forms: the cart-pole's upright linearization,
//! the double pendulum's normal modes, Thomson & Tait's Example B reduced to a steady
//! orbit, a feedback loop that follows its linear theory, and a bouncing ball. Models
//! larger than any size compiled in (the interpreter sizes its vectors at run time): a
//! hanging chain of twelve masses against its closed-form small oscillations, and a
//! ten-joint arm imported from a URDF through `simulate`, `linearize` and `report`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use lagrange::nalgebra::{DMatrix, DVector};
use serde_json::Value;

fn model(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../examples/models/{name}"));
    path.to_str().unwrap().to_string()
}

fn lagrange(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lagrange"))
        .args(args)
        .output()
        .unwrap()
}

/// The standard output of a command that must succeed.
fn success(args: &[&str]) -> String {
    let o = lagrange(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{args:?} failed:\n{err}");
    String::from_utf8(o.stdout).unwrap()
}

/// The message of a command that must fail cleanly.
fn failure(args: &[&str]) -> String {
    let o = lagrange(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!o.status.success(), "{args:?} succeeded");
    assert!(!err.contains("panicked"), "{args:?} panicked:\n{err}");
    err
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&success(args)).unwrap()
}

fn matrix(v: &Value) -> DMatrix<f64> {
    let rows: Vec<Vec<f64>> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect()
        })
        .collect();
    DMatrix::from_fn(rows.len(), rows[0].len(), |i, j| rows[i][j])
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lagrange-analysis-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_cart_pole_upright_is_the_textbook_linearization() {
    // M = 1, m = 0.1, l = 0.5, g = 9.81 in the file; θ from the upward vertical, u on the cart.
    let (big, m, l, g) = (1.0, 0.1, 0.5, 9.81);
    let doc = json(&[
        "linearize",
        &model("cart_pole.toml"),
        "--at",
        "x=0,theta=0,dot(x)=0,dot(theta)=0",
        "--at",
        "u=0",
        "--format",
        "json",
    ]);
    assert_eq!(
        doc["state"],
        serde_json::json!(["x", "theta", "dot(x)", "dot(theta)"])
    );
    assert_eq!(doc["inputs"], serde_json::json!(["u"]));
    let mut a = DMatrix::zeros(4, 4);
    a[(0, 2)] = 1.0;
    a[(1, 3)] = 1.0;
    a[(2, 1)] = -m * g / big;
    a[(3, 1)] = (big + m) * g / (big * l);
    let b = DMatrix::from_column_slice(4, 1, &[0.0, 0.0, 1.0 / big, -1.0 / (big * l)]);
    assert!((matrix(&doc["a"]) - a).amax() < 1e-13, "{}", doc["a"]);
    assert!((matrix(&doc["b"]) - b).amax() < 1e-13, "{}", doc["b"]);
    assert_eq!(doc["stability"], "unstable");
    // The growth rate of the fall: √((M + m) g / (M l)).
    let growth = doc["eigenvalues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e[0].as_f64().unwrap())
        .fold(f64::MIN, f64::max);
    assert!((growth - ((big + m) * g / (big * l)).sqrt()).abs() < 1e-12);
}

#[test]
fn the_double_pendulum_modes_are_the_closed_form() {
    // Equal masses and lengths (1, 1) and g = 9.81: ω² = (g/l)(2 ∓ √2), shapes ∝ (1, ±√2).
    let doc = json(&[
        "modes",
        &model("double_pendulum.toml"),
        "--at",
        "theta1=0.3,theta2=-0.2",
        "--format",
        "json",
    ]);
    let q = &doc["equilibrium"];
    assert!(q[0].as_f64().unwrap().abs() < 1e-12 && q[1].as_f64().unwrap().abs() < 1e-12);
    assert_eq!(doc["stability"], "marginal");
    let modes = doc["modes"].as_array().unwrap();
    for (mode, sign) in modes.iter().zip([1.0, -1.0]) {
        let expected = 9.81 * (2.0 - sign * 2f64.sqrt());
        let w2 = mode["omega_squared"].as_f64().unwrap();
        assert!(
            (w2 - expected).abs() < 1e-12 * expected,
            "{w2} vs {expected}"
        );
        let shape = &mode["shape"];
        let ratio = shape[1].as_f64().unwrap() / shape[0].as_f64().unwrap();
        assert!((ratio - sign * 2f64.sqrt()).abs() < 1e-10, "{ratio}");
        let period = mode["period"].as_f64().unwrap();
        assert!((period - std::f64::consts::TAU / expected.sqrt()).abs() < 1e-12);
    }
    let text = success(&["modes", &model("double_pendulum.toml")]);
    assert!(
        text.contains("equilibrium theta1 = 0, theta2 = 0"),
        "{text}"
    );
    assert!(text.contains("ω² = 5.746564953"), "{text}");
}

#[test]
fn an_ignored_coordinate_makes_equilibria_steady_motions() {
    // Thomson & Tait §319, Example B, reduced over θ: with p = m r² θ̇ from the given
    // state, the circular orbit has p² / (m r₀³) = m′ g and the radial oscillation about it
    // ω² = 3 p² / (m r₀⁴ (m + m′)).
    let dir = scratch("routh");
    let source = std::fs::read_to_string(model("tt_b_string_through_hole.toml")).unwrap();
    let file = dir.join("b.toml");
    std::fs::write(
        &file,
        source.replace("[model]", "[model]\nignore = [\"theta\"]"),
    )
    .unwrap();
    let (m, mp, g) = (1.0, 0.5, 9.81);
    let (r, theta_dot) = (1.3, 2.0);
    let p: f64 = m * r * r * theta_dot;
    let doc = json(&[
        "modes",
        file.to_str().unwrap(),
        "--at",
        "r=1.3,dot(theta)=2",
        "--format",
        "json",
    ]);
    let r0 = (p * p / (m * mp * g)).cbrt();
    let found = doc["equilibrium"][0].as_f64().unwrap();
    assert!((found - r0).abs() < 1e-12 * r0, "{found} vs {r0}");
    let w2 = doc["modes"][0]["omega_squared"].as_f64().unwrap();
    let expected = 3.0 * p * p / (m * r0.powi(4) * (m + mp));
    assert!(
        (w2 - expected).abs() < 1e-10 * expected,
        "{w2} vs {expected}"
    );
    let text = success(&["modes", file.to_str().unwrap(), "--at", "r=1.3"]);
    assert!(
        text.starts_with("reduced over theta with the constant momenta p_theta = 3.38"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_feedback_signal_follows_its_linear_theory() {
    // From a small tilt the closed loop ẋ = (A + B K) x is linear to O(θ₀³): the run of the
    // file's feedback signal must follow e^{(A + B K) t} x₀.
    let dir = scratch("feedback");
    let theta0 = 1e-3;
    let source = std::fs::read_to_string(model("cart_pole.toml"))
        .unwrap()
        .replace("theta = 0.2", &format!("theta = {theta0}"));
    let file = dir.join("cart.toml");
    std::fs::write(&file, source).unwrap();
    let csv = dir.join("run.csv");
    success(&[
        "simulate",
        file.to_str().unwrap(),
        "--t-end",
        "3",
        "--dt",
        "0.5",
        "--out",
        csv.to_str().unwrap(),
    ]);
    let (big, m, l, g) = (1.0, 0.1, 0.5, 9.81);
    let k = [
        2.675840978593272,
        34.50392048929664,
        4.0647298674821615,
        7.53236493374108,
    ];
    let mut closed = DMatrix::zeros(4, 4);
    closed[(0, 2)] = 1.0;
    closed[(1, 3)] = 1.0;
    closed[(2, 1)] = -m * g / big;
    closed[(3, 1)] = (big + m) * g / (big * l);
    let b = DVector::from_column_slice(&[0.0, 0.0, 1.0 / big, -1.0 / (big * l)]);
    for j in 0..4 {
        for i in 0..4 {
            closed[(i, j)] += b[i] * k[j];
        }
    }
    let x0 = DVector::from_column_slice(&[0.0, theta0, 0.0, 0.0]);
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut rows = 0;
    for line in text.lines().skip(1) {
        let values: Vec<f64> = line.split(',').map(|v| v.parse().unwrap()).collect();
        let t = values[0];
        let linear = (&closed * t).exp() * &x0;
        for i in 0..4 {
            assert!(
                (values[1 + i] - linear[i]).abs() < 1e-8,
                "t = {t}: state {i} is {} where linear theory says {}",
                values[1 + i],
                linear[i]
            );
        }
        rows += 1;
    }
    assert_eq!(rows, 7);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn wrong_points_and_signals_are_clear_errors() {
    let cart = model("cart_pole.toml");
    let message = failure(&["linearize", &cart, "--at", "phi=1"]);
    assert!(message.contains("`phi` is not a coordinate"), "{message}");
    let message = failure(&["linearize", &cart, "--at", "theta=abc"]);
    assert!(message.contains("not a finite number"), "{message}");
    let message = failure(&["linearize", &cart, "--at", "theta"]);
    assert!(message.contains("expected name=value"), "{message}");
    // A name given twice is named, not silently the last value.
    let message = failure(&["linearize", &cart, "--at", "theta=1,theta=2"]);
    assert!(
        message.contains("--at `theta=2`: `theta` is given twice"),
        "{message}"
    );
    let message = failure(&["modes", &cart, "--at", "x=1", "--at", "x=2"]);
    assert!(
        message.contains("--at `x=2`: `x` is given twice"),
        "{message}"
    );
    // A constant force: no equilibrium anywhere.
    let dir = scratch("errors");
    let pushed = dir.join("pushed.toml");
    let source = std::fs::read_to_string(&cart).unwrap();
    let constant = source
        .replace(
            "[inputs]\nu = \"k_x*x + k_theta*theta + k_dx*dot(x) + k_dtheta*dot(theta)\"\n",
            "",
        )
        .replace("k_dx = ", "u = 1.0\nk_dx = ");
    assert_ne!(constant, source);
    std::fs::write(&pushed, constant).unwrap();
    let message = failure(&["modes", pushed.to_str().unwrap()]);
    assert!(message.contains("no equilibrium"), "{message}");
    // A signal may not read an input, nor a name the model does not have.
    for (signal, name) in [("2*u", "u"), ("y + 1", "y")] {
        let file = dir.join("signal.toml");
        let text = source.replace(
            "u = \"k_x*x + k_theta*theta + k_dx*dot(x) + k_dtheta*dot(theta)\"",
            &format!("u = \"{signal}\""),
        );
        std::fs::write(&file, text).unwrap();
        let message = failure(&["simulate", file.to_str().unwrap()]);
        assert!(
            message.contains(&format!("unknown name `{name}`")),
            "{message}"
        );
    }
    // A signal for a parameter that is not declared an input, and a value for a
    // coordinate: the message says what the name is and where it goes.
    let ball = std::fs::read_to_string(model("bouncing_ball.toml")).unwrap();
    for (text, says) in [
        (
            source.replace("[inputs]\n", "[inputs]\nk_x = \"1\"\n"),
            "`k_x` in [inputs] is not declared in `inputs = [...]` (u): it is a parameter; give its value in [values], or declare it in `inputs = [...]`",
        ),
        (
            ball.replace("[initial]", "[inputs]\ng = \"9.81\"\n\n[initial]"),
            "`g` in [inputs] is not declared in `inputs = [...]` (the model declares none): it is a parameter",
        ),
        (
            ball.replace("e = 0.8", "e = 0.8\ny = 2.0"),
            "`y` in [values] is not a parameter (m, g, e): it is a coordinate; give its initial value in [initial]",
        ),
    ] {
        let file = dir.join("names.toml");
        std::fs::write(&file, text).unwrap();
        let message = failure(&["simulate", file.to_str().unwrap()]);
        assert!(message.contains(says), "{message}");
    }
    // An input with both a constant and a signal.
    let both = dir.join("both.toml");
    std::fs::write(&both, source.replace("k_dx = ", "u = 0.5\nk_dx = ")).unwrap();
    let message = failure(&["simulate", both.to_str().unwrap()]);
    assert!(
        message.contains("both a value in [values] and a signal"),
        "{message}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn file_events_bounce_a_ball_at_the_closed_form_times() {
    // Dropped from 1 with g = 9.81 and e = 0.8: impacts at t₁ = √(2/g),
    // t_{n+1} = t_n + 2 eⁿ √(2/g); apexes at e^{2n}.
    let out = success(&["simulate", &model("bouncing_ball.toml"), "--t-end", "3"]);
    let event = |name: &str| -> Vec<(f64, f64)> {
        out.lines()
            .filter_map(|l| l.trim().strip_prefix(&format!("{name} at t = ")))
            .map(|rest| {
                let (t, y) = rest.split_once(": y = ").unwrap();
                (t.parse().unwrap(), y.parse().unwrap())
            })
            .collect()
    };
    let (g, e) = (9.81f64, 0.8f64);
    let fall = (2.0 / g).sqrt();
    let floors = event("floor");
    assert!(floors.len() >= 5, "{out}");
    let mut expected = fall;
    for (n, &(t, _)) in floors.iter().enumerate() {
        assert!((t - expected).abs() < 1e-9, "impact {n}: {t} vs {expected}");
        expected += 2.0 * e.powi(n as i32 + 1) * fall;
    }
    for (n, &(_, y)) in event("apex").iter().enumerate() {
        let height = e.powi(2 * (n as i32 + 1));
        assert!(
            (y - height).abs() < 1e-6 * height,
            "apex {n}: {y} vs {height}"
        );
    }
    // Between impacts the energy is conserved; the impacts themselves do not count as drift.
    assert!(!out.contains("warning"), "{out}");
}

#[test]
fn wrong_events_are_clear_errors() {
    let dir = scratch("events");
    let source = std::fs::read_to_string(model("bouncing_ball.toml")).unwrap();
    for (from, to, needle) in [
        (
            "direction = \"falling\"\nreset",
            "direction = \"down\"\nreset",
            "unknown direction `down`",
        ),
        (
            "reset = { \"dot(y)\"",
            "reset = { \"dot(z)\"",
            "resets `dot(z)`",
        ),
        (
            "reset = { \"dot(y)\" = \"-e*dot(y)\" }",
            "action = \"bounce\"",
            "unknown action `bounce`",
        ),
        (
            "reset = { \"dot(y)\"",
            "action = \"stop\"\nreset = { \"dot(y)\"",
            "use action = \"reset\"",
        ),
        ("when = \"y\"", "when = \"y + h\"", "unknown name `h`"),
    ] {
        let text = source.replacen(from, to, 1);
        assert_ne!(text, source, "{from}");
        let file = dir.join("ball.toml");
        std::fs::write(&file, text).unwrap();
        let message = failure(&["simulate", file.to_str().unwrap()]);
        assert!(message.contains(needle), "{needle}: {message}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[allow(clippy::excessive_precision)] // Table 2's digits as the paper prints them
fn the_benchmark_bicycle_in_minimal_variables_has_the_papers_eigenvalues() {
    // Meijaard et al. 2007, Table 2, at 5 m/s (the file's [initial] speed).
    let bicycle = model("bicycle.toml");
    let minimal = [
        "--minimal",
        "x,y,psi,phi,delta,thetaR,thetaF",
        "--speeds",
        "phi,delta,thetaR",
    ];
    let mut args = vec![
        "linearize",
        &bicycle,
        "--at",
        "dot(phi)=0",
        "--format",
        "json",
    ];
    args.extend(minimal);
    let document = json(&args);
    let minimal_doc = &document["minimal"];
    assert_eq!(minimal_doc["state"].as_array().unwrap().len(), 10);
    assert_eq!(matrix(&minimal_doc["a"]).shape(), (10, 10));
    let eigenvalues: Vec<(f64, f64)> = minimal_doc["eigenvalues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|z| (z[0].as_f64().unwrap(), z[1].as_f64().unwrap()))
        .collect();
    for (re, im) in [
        (-14.07838969279820, 0.0),
        (-0.77534188219585, 4.46486771378823),
        (-0.77534188219585, -4.46486771378823),
        (-0.32286642900409, 0.0),
    ] {
        assert!(
            eigenvalues
                .iter()
                .any(|z| (z.0 - re).abs() < 1e-10 * 15.0 && (z.1 - im).abs() < 1e-10 * 15.0),
            "{re} {im}i not among {eigenvalues:?}"
        );
    }
    // The others are the free directions: position, heading, wheel angles and speed.
    let zero = eigenvalues.iter().filter(|z| z.0.hypot(z.1) < 1e-6).count();
    assert_eq!(zero, 6, "{eigenvalues:?}");
    // The text names the minimal variables.
    let mut args = vec!["linearize", &bicycle];
    args.extend(minimal);
    let text = success(&args);
    assert!(text.contains("in minimal variables: dz/dt = A dz + B du, z = (x, y, psi, phi, delta, thetaR, thetaF, dot(phi), dot(delta), dot(thetaR))"), "{text}");
    // Choices that cannot work, each said.
    for (coordinates, speeds, says) in [
        (
            "x,y,psi,phi,delta,thetaR,theta",
            "phi,delta,thetaR",
            "do not parametrize",
        ),
        (
            "x,y,psi,phi,delta,thetaR,wheel",
            "phi,delta,thetaR",
            "`wheel` is not a coordinate",
        ),
        (
            "x,y,psi,phi,delta,thetaR",
            "phi,delta,thetaR",
            "do not parametrize it",
        ),
        // A name given twice is named, as `connect --to` names it.
        (
            "x,y,psi,phi,delta,thetaR,thetaF",
            "phi,phi,thetaR",
            "--speeds names `phi` twice",
        ),
        (
            "x,y,psi,phi,phi,thetaR,thetaF",
            "phi,delta,thetaR",
            "--minimal names `phi` twice",
        ),
    ] {
        let message = failure(&[
            "linearize",
            &bicycle,
            "--minimal",
            coordinates,
            "--speeds",
            speeds,
        ]);
        assert!(
            message.contains(says),
            "{coordinates} / {speeds}: {message}"
        );
    }
    let pendulum = model("double_pendulum.toml");
    let message = failure(&[
        "linearize",
        &pendulum,
        "--minimal",
        "theta1",
        "--speeds",
        "theta1",
    ]);
    assert!(message.contains("no constraints"), "{message}");
    let message = failure(&[
        "modes",
        &pendulum,
        "--minimal",
        "theta1",
        "--speeds",
        "theta1",
    ]);
    assert!(
        message.contains("options of `lagrange linearize`"),
        "{message}"
    );
}

/// The masses of the hanging chain, from the pivot down.
fn masses(n: usize) -> Vec<f64> {
    (0..n).map(|k| 1.0 + 0.25 * k as f64).collect()
}

/// A planar chain of `n` point masses on massless rods of length `l`, each angle from the
/// downward vertical, written as particles.
fn chain_model(n: usize) -> String {
    let names: Vec<String> = (1..=n).map(|k| format!("\"theta{k}\"")).collect();
    let mut file = format!(
        "[model]\nname = \"HangingChain\"\ncoordinates = [{}]\nparameters = [\"l\", \"g\"]\ngravity = [\"0\", \"0\", \"-g\"]\n",
        names.join(", ")
    );
    for (k, m) in masses(n).iter().enumerate() {
        let sum = |f: &str| {
            (1..=k + 1)
                .map(|i| format!("{f}(theta{i})"))
                .collect::<Vec<_>>()
                .join(" + ")
        };
        file.push_str(&format!(
            "\n[[model.particle]]\nname = \"bob{}\"\nmass = \"{m}\"\nposition = [\"l*({})\", \"0\", \"-l*({})\"]\n",
            k + 1,
            sum("sin"),
            sum("cos")
        ));
    }
    let at: Vec<String> = (1..=n).map(|k| format!("theta{k} = 0.0")).collect();
    file.push_str(&format!(
        "\n[values]\nl = 0.5\ng = 9.81\n\n[initial]\nq = {{ {} }}\n",
        at.join(", ")
    ));
    file
}

#[test]
fn a_hanging_chain_of_twelve_masses_has_the_closed_form_normal_modes() {
    // Small oscillations about the hanging state (angles from the vertical, rods of
    // length l): M_ij = l² Σ_{k ≥ max(i,j)} m_k and K = diag(g l Σ_{k ≥ i} m_k); the
    // squared frequencies are the eigenvalues of K in the metric M, computed here with
    // nalgebra from these formulas alone.
    let n = 12;
    let dir = scratch("hanging_chain");
    let path = dir.join("chain.toml");
    std::fs::write(&path, chain_model(n)).unwrap();
    let (l, g) = (0.5, 9.81);
    let m = masses(n);
    let below = |i: usize| m[i..].iter().sum::<f64>();
    let mass = DMatrix::from_fn(n, n, |i, j| l * l * below(i.max(j)));
    let stiffness = DMatrix::from_fn(n, n, |i, j| if i == j { g * l * below(i) } else { 0.0 });
    let factor = mass.cholesky().unwrap();
    let inverse = factor.l().try_inverse().unwrap();
    let symmetric = &inverse * stiffness * inverse.transpose();
    let mut expected: Vec<f64> = symmetric
        .symmetric_eigen()
        .eigenvalues
        .iter()
        .copied()
        .collect();
    expected.sort_by(f64::total_cmp);

    let at: Vec<String> = (1..=n).map(|k| format!("theta{k}=0.05")).collect();
    let doc: Value = serde_json::from_str(&success(&[
        "modes",
        path.to_str().unwrap(),
        "--at",
        &at.join(","),
        "--format",
        "json",
    ]))
    .unwrap();
    let equilibrium = doc["equilibrium"].as_array().unwrap();
    assert_eq!(equilibrium.len(), n);
    assert!(
        equilibrium
            .iter()
            .all(|q| q.as_f64().unwrap().abs() < 1e-10)
    );
    assert_eq!(doc["stability"], "marginal");
    let mut found: Vec<f64> = doc["modes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|mode| mode["omega_squared"].as_f64().unwrap())
        .collect();
    found.sort_by(f64::total_cmp);
    assert_eq!(found.len(), n);
    for (w2, reference) in found.iter().zip(&expected) {
        assert!(
            (w2 - reference).abs() <= 1e-10 * reference,
            "ω² = {w2}, closed form {reference}"
        );
    }
}

/// A URDF of `n` links in a chain, each turning about z, y or x in turn.
fn arm_urdf(n: usize) -> String {
    let axes = ["0 0 1", "0 1 0", "1 0 0"];
    let mut urdf =
        String::from("<?xml version=\"1.0\"?>\n<robot name=\"arm\">\n  <link name=\"base\"/>\n");
    for i in 0..n {
        let parent = if i == 0 {
            "base".to_string()
        } else {
            format!("link{}", i - 1)
        };
        urdf.push_str(&format!(
            "  <link name=\"link{i}\"><inertial><origin xyz=\"0.1 0.01 0\"/><mass value=\"{}\"/><inertia ixx=\"0.01\" ixy=\"0.001\" ixz=\"0\" iyy=\"0.02\" iyz=\"0\" izz=\"0.025\"/></inertial></link>\n  <joint name=\"joint{i}\" type=\"revolute\"><parent link=\"{parent}\"/><child link=\"link{i}\"/><origin xyz=\"0.2 0 0\" rpy=\"0 0 0.1\"/><axis xyz=\"{}\"/><limit lower=\"-2\" upper=\"2\" effort=\"1\" velocity=\"1\"/></joint>\n",
            1.0 + 0.1 * i as f64,
            axes[i % 3]
        ));
    }
    urdf.push_str("</robot>\n");
    urdf
}

#[test]
fn a_ten_joint_arm_from_a_urdf_is_simulated_linearized_and_reported() {
    let n = 10;
    let dir = scratch("ten_joint_arm");
    let urdf = dir.join("arm.urdf");
    std::fs::write(&urdf, arm_urdf(n)).unwrap();
    let mut model = success(&["import", urdf.to_str().unwrap()]);
    // Released from a bent pose; a tight tolerance so that the energy, which nothing
    // dissipates, is the check of the run.
    model = model
        .replace("joint1 = 0.0", "joint1 = 0.5")
        .replace("joint4 = 0.0", "joint4 = -0.3");
    model.push_str(
        "\n[simulation]\nt_end = 1.0\nintegrator = \"dormand-prince\"\ntolerance = 1e-11\n",
    );
    let path = dir.join("arm.toml");
    std::fs::write(&path, &model).unwrap();
    let path = path.to_str().unwrap();

    let csv = dir.join("arm.csv");
    let summary = success(&["simulate", path, "--out", csv.to_str().unwrap()]);
    let energy = summary
        .lines()
        .find(|line| line.starts_with("energy"))
        .unwrap_or_else(|| panic!("no energy line in\n{summary}"));
    let relative: f64 = energy.split_whitespace().last().unwrap().parse().unwrap();
    assert!(relative < 1e-9, "{energy}");
    let header = std::fs::read_to_string(&csv).unwrap();
    let header = header.lines().next().unwrap();
    assert!(
        header.contains("joint9") && header.contains("dot_joint9"),
        "{header}"
    );

    // At rest: A = [0 I; ∂q̈/∂q 0], 20 × 20.
    let doc: Value =
        serde_json::from_str(&success(&["linearize", path, "--format", "json"])).unwrap();
    let a = doc["a"].as_array().unwrap();
    assert_eq!(a.len(), 2 * n);
    for (i, row) in a.iter().enumerate() {
        let row = row.as_array().unwrap();
        assert_eq!(row.len(), 2 * n);
        for (j, x) in row.iter().enumerate() {
            let x = x.as_f64().unwrap();
            if i < n {
                assert_eq!(x, if j == n + i { 1.0 } else { 0.0 }, "A[{i}][{j}]");
            } else if j >= n {
                assert!(
                    x.abs() < 1e-12,
                    "A[{i}][{j}] = {x}: no velocity terms at rest"
                );
            }
        }
    }

    let html = dir.join("arm.html");
    success(&["report", path, "-o", html.to_str().unwrap()]);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("joint9"));
}

#[test]
fn a_tree_deeper_than_the_limit_is_refused_by_name() {
    // 24 joint coordinates from the fixed frame are the limit (a chain of 30 took more
    // than 7 GB to derive); the 25th link is refused, naming it, before any derivation.
    let dir = scratch("too_deep");
    for (n, fits) in [(24, true), (25, false)] {
        let urdf = dir.join(format!("arm{n}.urdf"));
        std::fs::write(&urdf, arm_urdf(n)).unwrap();
        let output = lagrange(&["import", urdf.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.success(), fits, "{n}: {stderr}");
        if !fits {
            assert!(
                stderr.contains(
                    "body `link24` is 25 joint coordinates from the fixed frame; the limit is 24"
                ),
                "{stderr}"
            );
        }
    }
}

/// `V = k x⁴` has one equilibrium, x = 0, where its stiffness `12 k x²` vanishes: Newton's
/// method closes in on it only linearly (x → 2x/3), and `modes` once refused it ("did not
/// converge … with residual 1.5e-26"). It is found, and said to be degenerate.
#[test]
fn a_degenerate_equilibrium_is_found_and_said_to_be_degenerate() {
    let dir = scratch("quartic");
    let file = dir.join("quartic.toml");
    std::fs::write(
        &file,
        "[model]\nname = \"Quartic\"\ncoordinates = [\"x\"]\nparameters = [\"m\", \"k\"]\n\
         kinetic = \"1/2*m*dot(x)^2\"\npotential = \"k*x^4\"\n\n\
         [values]\nm = 1.0\nk = 1.0\n\n[initial]\nq = { x = 1.0 }\n",
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let text = success(&["modes", file]);
    assert!(
        text.contains("degenerate: the stiffness vanishes there"),
        "{text}"
    );
    let document = json(&["modes", file, "--format", "json"]);
    assert_eq!(document["degenerate"], Value::Bool(true), "{document}");
    let x = document["equilibrium"][0].as_f64().unwrap();
    assert!(x.abs() < 1e-6, "x = {x}, not the equilibrium 0");
    // A regular equilibrium is not degenerate.
    let document = json(&["modes", &model("double_pendulum.toml"), "--format", "json"]);
    assert_eq!(document["degenerate"], Value::Bool(false), "{document}");
    std::fs::remove_dir_all(&dir).unwrap();
}

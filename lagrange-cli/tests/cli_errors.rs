//! Error messages of `lagrange derive` for hostile or broken model files: each names the
//! file, the line and key of the offending item and its expression, carries no terminal
//! escape codes and no giant numbers, and the command never panics.

use std::path::PathBuf;
use std::process::Command;

const PENDULUM: &str = "[model]
name = \"Pendulum\"
coordinates = [\"theta\"]
parameters = [\"m\", \"l\", \"g\"]
kinetic = \"1/2*m*l^2*dot(theta)^2\"
potential = \"-m*g*l*cos(theta)\"

[values]
m = 1.0
l = 1.0
g = 9.81
";

/// Runs `lagrange derive` on `text` (with the cache off) and returns its standard error;
/// the command must fail without a panic.
fn derive_fails(test: &str, text: &str) -> (String, String) {
    let file = model_file(test, text);
    let o = Command::new(env!("CARGO_BIN_EXE_lagrange"))
        .args(["derive", file.to_str().unwrap()])
        .env("LAGRANGE_CACHE", "off")
        .output()
        .unwrap();
    let message = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!o.status.success(), "{test} succeeded");
    assert!(!message.contains("panicked"), "{test}: {message}");
    assert!(
        !message.chars().any(|c| c.is_control() && c != '\n'),
        "{test}: control characters in {message:?}"
    );
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        !stdout.contains('\u{1b}'),
        "{test}: escape codes on stdout: {stdout:?}"
    );
    (file.to_str().unwrap().to_string(), message)
}

#[test]
fn an_engine_error_names_the_file_key_line_and_expression() {
    // The checks cannot see that `theta - theta` is zero; the engine can. Before, this
    // was reported at `1:1` without the key or the expression.
    let text = PENDULUM.replace("-m*g*l*cos(theta)", "-m*g*l*cos(theta) + 1/(theta - theta)");
    let (file, message) = derive_fails("engine", &text);
    assert!(
        message.contains(&format!(
            "{file}:6:1: potential = \"-m*g*l*cos(theta) + 1/(theta - theta)\": "
        )),
        "{message}"
    );
    assert!(message.contains("`1/(theta - theta)`"), "{message}");
}

#[test]
fn an_undefined_constant_is_an_error_at_its_key() {
    // `sinh(theta - sqrt(0^0))` derived `f = 0`: the potential silently disappeared.
    let text = PENDULUM.replace("-m*g*l*cos(theta)", "m*sinh(theta - sqrt(0^0))");
    let (file, message) = derive_fails("undefined", &text);
    assert!(
        message.contains(&format!("{file}:6:1: potential = ")),
        "{message}"
    );
    assert!(message.contains("`0^0`"), "{message}");
}

#[test]
fn escape_codes_in_user_text_are_escaped() {
    let text = PENDULUM.replace("\"Pendulum\"", "\"Pen\\u001b[2Jdulum\"");
    let (_, message) = derive_fails("escape", &text);
    assert!(message.contains("\\u{1b}[2J"), "{message}");
    assert!(message.contains("ASCII identifier"), "{message}");
    let text = PENDULUM.replace("-m*g*l*cos(theta)", "-m*g*l*cos(theta)\\u001b[31m");
    let (_, message) = derive_fails("escape-expression", &text);
    assert!(message.contains("does not parse"), "{message}");
}

#[test]
fn a_giant_number_is_shown_shortened() {
    let digits = "7".repeat(30_000);
    let text = PENDULUM.replace("-m*g*l*cos(theta)", &format!("-m*g*l*cos(theta)*{digits}"));
    let (_, message) = derive_fails("digits", &text);
    assert!(message.contains("(30000 digits)"), "{message}");
    assert!(message.len() < 1_000, "{} bytes", message.len());
}

#[test]
fn a_path_in_a_name_is_rejected_before_the_cache() {
    // `../../x/evil` as a model name made the cache write outside its folder.
    let text = PENDULUM.replace("\"Pendulum\"", "\"../../x/evil\"");
    let (file, message) = derive_fails("path", &text);
    assert!(
        message.contains(&format!("{file}:2:1: name = \"../../x/evil\": ")),
        "{message}"
    );
    assert!(message.contains("ASCII identifier"), "{message}");
}

#[test]
fn hostile_drawing_entries_are_errors_at_their_entry() {
    let with = |entries: &str| format!("{PENDULUM}\n{entries}");
    let cases: [(&str, &str, &str); 8] = [
        (
            "injected-name",
            "[[draw]]\npoint = \"</svg><script>x\"\nat = [\"l\", \"0\"]\n",
            "cannot name a drawn point: a name is an ASCII identifier",
        ),
        (
            "unknown",
            "[[draw]]\npoint = \"bob\"\n",
            "`bob` is no particle or body: give its position with `at`",
        ),
        (
            "origin",
            "[[draw]]\npoint = \"origin\"\nat = [\"0\", \"0\"]\n",
            "`origin` is already a point of the drawing",
        ),
        (
            "parameter",
            "[[draw]]\npoint = \"l\"\nat = [\"0\", \"0\"]\n",
            "`l` is a coordinate or parameter",
        ),
        (
            "one-component",
            "[[draw]]\npoint = \"p\"\nat = [\"l\"]\n",
            "the point `p` has 1 position components: give 2 (plane) or 3",
        ),
        (
            "velocity",
            "[[draw]]\npoint = \"p\"\nat = [\"dot(theta)\", \"0\"]\n",
            "depends on the velocity `dot(theta)`",
        ),
        (
            "dangling-link",
            "[[draw]]\npoint = \"p\"\nat = [\"l*sin(theta)\", \"0\"]\nlink = \"q\"\n",
            "the line from `p` goes to `q`, which is no other particle, body, drawn point or `origin`",
        ),
        (
            "twice",
            "[[draw]]\npoint = \"p\"\nat = [\"l\", \"0\"]\n\n[[draw]]\npoint = \"p\"\nat = [\"0\", \"l\"]\n",
            "the point `p` is placed twice",
        ),
    ];
    for (test, entries, expected) in cases {
        let (file, message) = derive_fails(test, &with(entries));
        assert!(message.contains(expected), "{test}: {message}");
        assert!(message.contains(&format!("{file}:")), "{test}: {message}");
        assert!(message.contains("draw["), "{test}: {message}");
    }
    // More entries than are drawn: refused before anything is parsed.
    let many = "[[draw]]\npoint = \"p\"\nat = [\"l\", \"0\"]\n".repeat(1001);
    let (_, message) = derive_fails("many", &with(&many));
    assert!(
        message.contains("1001 drawing entries: at most 1000"),
        "{message}"
    );
}

/// A sleigh on a knife edge, for the velocity constraints' errors.
const SLEIGH: &str = "[model]
name = \"Sleigh\"
coordinates = [\"x\", \"y\", \"theta\"]
parameters = [\"m\", \"I\", \"a\"]
kinetic = \"1/2*m*(dot(x)^2 + dot(y)^2) + 1/2*I*dot(theta)^2\"
velocity_constraint = [\"dot(y)*cos(theta) - dot(x)*sin(theta) - a*dot(theta)\"]

[values]
m = 1.0
I = 0.2
a = 0.4
";

#[test]
fn a_velocity_constraint_that_is_not_linear_in_the_velocities_or_has_none_is_refused_at_its_key() {
    for (bad, expected) in [
        ("dot(x)^2 + dot(y)^2 - 1", "is not linear in the velocities"),
        ("sin(dot(x)) - dot(y)", "is not linear in the velocities"),
        ("x/dot(y)", "is not linear in the velocities"),
        (
            "x - y",
            "involves no velocity: a relation between coordinates is a holonomic `constraint`",
        ),
        (
            "dot(z)",
            "`dot(z)` in the velocity constraint, but `z` is not a coordinate",
        ),
    ] {
        let text = SLEIGH.replace("dot(y)*cos(theta) - dot(x)*sin(theta) - a*dot(theta)", bad);
        let (file, message) = derive_fails("velocity", &text);
        assert!(
            message.contains(&format!("{file}:6:1: velocity_constraint[0]")),
            "{bad}: {message}"
        );
        assert!(message.contains(expected), "{bad}: {message}");
    }
}

#[test]
fn more_constraints_than_velocities_leave_no_freedom() {
    let text = SLEIGH.replace(
        "velocity_constraint = [\"dot(y)*cos(theta) - dot(x)*sin(theta) - a*dot(theta)\"]",
        "constraint = [\"x - y\"]\nvelocity_constraint = [\"dot(x)\", \"dot(theta)\", \"dot(y) - dot(x)\"]",
    );
    let (_, message) = derive_fails("too-many", &text);
    assert!(
        message.contains("4 constraints on 3 coordinates leave no freedom"),
        "{message}"
    );
    assert!(message.contains("velocity_constraint[1]"), "{message}");
}

/// `text` written as `model.toml` in a scratch folder of the test's own.
fn model_file(test: &str, text: &str) -> PathBuf {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("lagrange-cli-errors-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("model.toml");
    std::fs::write(&file, text).unwrap();
    file
}

/// Runs `lagrange` with `args` on `text` (cache off, in the file's folder); returns
/// success and standard error.
fn run_on(test: &str, text: &str, args: &[&str]) -> (bool, String) {
    let file = model_file(test, text);
    let o = Command::new(env!("CARGO_BIN_EXE_lagrange"))
        .arg(args[0])
        .arg(&file)
        .args(&args[1..])
        .current_dir(file.parent().unwrap())
        .env("LAGRANGE_CACHE", "off")
        .output()
        .unwrap();
    let message = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!message.contains("panicked"), "{test}: {message}");
    (o.status.success(), message)
}

/// A coin rolling upright along x (`rolls = "R"`), started at `theta` with spin `spin`.
fn coin(radius: &str, theta: f64, spin: f64) -> String {
    format!(
        "[model]
name = \"Coin\"
coordinates = [\"x\", \"y\", \"psi\", \"theta\", \"phi\"]
parameters = [\"m\", \"A\", \"C\", \"R\", \"g\"]
gravity = [\"0\", \"0\", \"-g\"]

[[model.body]]
name = \"disk\"
mass = \"m\"
inertia = [\"A\", \"A\", \"C\"]
rotation = \"euler_zxz(psi, theta, phi)\"
position = [\"x\", \"y\", \"R*sin(theta)\"]
rolls = \"{radius}\"

[values]
m = 0.01
A = 3.6e-7
C = 7.2e-7
R = 0.012
g = 9.81

[initial]
q = {{ x = 0.0, y = 0.0, psi = 0.0, theta = {theta}, phi = 0.0 }}
qd = {{ x = {}, y = 0.0, psi = 0.0, theta = 0.0, phi = {spin} }}
",
        -0.012 * spin
    )
}

#[test]
fn a_rolling_wheel_needs_a_positive_radius_and_an_axle_that_is_not_always_vertical() {
    for radius in ["-1", "0", "0*5"] {
        let (ok, message) = run_on("radius", &coin(radius, 1.5, 20.0), &["derive"]);
        assert!(!ok, "rolls = {radius}");
        assert!(
            message.contains("`rolls` takes the wheel's radius, a positive length"),
            "{message}"
        );
    }
    // A radius that does not parse, or reads a velocity, is an error naming `rolls`.
    for (radius, says) in [
        ("R R", "`rolls`: the body does not parse"),
        ("dot(x)", "`rolls`: the body depends on the velocity"),
    ] {
        let (ok, message) = run_on("radius-key", &coin(radius, 1.5, 20.0), &["derive"]);
        assert!(!ok && message.contains(says), "{radius}: {message}");
    }
    // A wheel on a slide has one rolling condition; with one more constraint on its two
    // coordinates nothing can move, and the error says which conditions count.
    let slide = "[model]
name = \"Cart\"
coordinates = [\"x\", \"phi\"]
parameters = [\"R\"]
velocity_constraint = [\"dot(x) - 1\"]
[[model.body]]
name = \"slide\"
mass = \"1\"
inertia = [\"0\", \"0\", \"0\"]
joint = \"prismatic(x)\"
axis = [\"1\", \"0\", \"0\"]
[[model.body]]
name = \"wheel\"
mass = \"1\"
inertia = [\"1\", \"1\", \"2\"]
joint = \"revolute(phi)\"
parent = \"slide\"
origin = [\"0\", \"0\", \"R\"]
rpy = [\"-pi/2\", \"0\", \"0\"]
axis = [\"0\", \"0\", \"1\"]
rolls = \"R\"
[values]
R = 0.5
";
    let (ok, message) = run_on("slide", slide, &["derive"]);
    assert!(!ok);
    assert!(
        message.contains("2 constraints on 2 coordinates, 1 of them the rolling of body `wheel` along x, leave no freedom"),
        "{message}"
    );
    // A puck turning only about the vertical lies flat in every state.
    let puck = coin("R", 1.5, 0.0).replace("euler_zxz(psi, theta, phi)", "about_z(psi)");
    let (ok, message) = run_on("puck", &puck, &["derive"]);
    assert!(!ok);
    assert!(
        message.contains(
            "body `disk` rolls, but its z axis (the wheel's axle) is vertical in every state"
        ),
        "{message}"
    );
}

#[test]
fn a_state_where_a_constraint_is_undefined_or_violated_is_refused_with_the_reason() {
    // The coin lying flat (θ = 0) has no contact point: the constraint is not a number.
    let (ok, message) = run_on(
        "flat",
        &coin("R", 0.0, 0.0),
        &["simulate", "--t-end", "1", "--out", "run.csv"],
    );
    assert!(!ok);
    assert!(
        message.contains("is not defined at this state"),
        "{message}"
    );
    assert!(
        message.contains("characters) = 0`"),
        "the derived rolling condition is abbreviated: {message}"
    );
    assert!(message.len() < 1500, "{} bytes: {message}", message.len());
    // Spinning without rolling forward violates the no-slip condition: linearize refuses
    // the state as simulate does.
    let slipping = coin("R", 1.5, 20.0).replace("x = -0.24", "x = 0.0");
    for command in [
        &["linearize"][..],
        &["simulate", "--t-end", "1", "--out", "run.csv"][..],
    ] {
        let (ok, message) = run_on("slipping", &slipping, command);
        assert!(!ok, "{command:?}");
        assert!(
            message.contains("the state violates the constraint"),
            "{command:?}: {message}"
        );
        assert!(!message.contains("project it with"), "{message}");
    }
}

#[test]
fn parameter_values_must_be_finite_and_prescribed_motions_are_named() {
    let (ok, message) = run_on(
        "nan",
        &SLEIGH.replace("a = 0.4", "a = nan"),
        &["simulate", "--t-end", "1", "--out", "run.csv"],
    );
    assert!(!ok);
    assert!(
        message.contains("the value of `a` is NaN: parameters take finite numbers"),
        "{message}"
    );
    // As many constraints as coordinates: the motion is prescribed; the command says so.
    let prescribed = PENDULUM.replace(
        "potential = \"-m*g*l*cos(theta)\"",
        "velocity_constraint = [\"dot(theta) - t\"]",
    ) + "[initial]\nq = { theta = 0.0 }\nqd = { theta = 0.0 }\n";
    let (ok, message) = run_on(
        "prescribed",
        &prescribed,
        &["simulate", "--t-end", "1", "--out", "run.csv"],
    );
    assert!(!ok);
    assert!(
        message.contains("its 1 constraints prescribe the motion of all 1 coordinates"),
        "{message}"
    );
}

#[test]
fn a_velocity_constraint_whose_velocities_cancel_is_refused() {
    for bad in ["0*dot(x) + x - y", "dot(x) - dot(x) + y"] {
        let text = SLEIGH.replace("dot(y)*cos(theta) - dot(x)*sin(theta) - a*dot(theta)", bad);
        let (_, message) = derive_fails("cancel", &text);
        assert!(
            message.contains("velocity_constraint[0]")
                && message.contains("involves no velocity once simplified"),
            "{bad}: {message}"
        );
    }
}

#[test]
fn a_mass_inertia_or_radius_given_a_value_no_body_has_is_refused_at_that_value() {
    // Before, `R = -0.012` simulated (the disk under the ground, the energy below zero)
    // while `rolls = "-0.012"` was refused: one rule now holds for numbers and values.
    let simulate = ["simulate", "--t-end", "0.01", "--out", "run.csv"];
    for (from, to, says) in [
        (
            "R = 0.012",
            "R = -0.012",
            ":19:1: body `disk`: `rolls` takes the wheel's radius, a positive length, not -0.012 (with R = -0.012 in [values])",
        ),
        (
            "m = 0.01",
            "m = -0.01",
            ":16:1: body `disk`: the mass is -0.01, and a mass is a finite number, not negative (with m = -0.01 in [values])",
        ),
        (
            "A = 3.6e-7",
            "A = -3.6e-7",
            ":17:1: body `disk`: the inertia tensor is not positive semi-definite",
        ),
    ] {
        let text = coin("R", 1.5, 20.0).replace(from, to);
        let (ok, message) = run_on("values", &text, &simulate);
        assert!(!ok, "{to}");
        assert!(message.contains(says), "{to}: {message}");
    }
    // A value given on the command line is held to the same rule.
    let (ok, message) = run_on(
        "at",
        &coin("R", 1.5, 20.0),
        &["linearize", "--at", "theta=1.5,R=-0.5"],
    );
    assert!(!ok);
    assert!(
        message.contains("error: --at: body `disk`: `rolls` takes the wheel's radius, a positive length, not -0.5 (with R = -0.5 in --at)"),
        "{message}"
    );
    // The same quantities written as numbers are refused at the body.
    for (from, to, says) in [
        ("mass = \"m\"", "mass = \"-1\"", "the mass is -1"),
        (
            "inertia = [\"A\", \"A\", \"C\"]",
            "inertia = [\"1\", \"-1\", \"1\"]",
            "not positive semi-definite",
        ),
    ] {
        let text = coin("R", 1.5, 20.0).replace(from, to);
        let (ok, message) = run_on("numbers", &text, &["derive"]);
        assert!(!ok, "{to}");
        assert!(
            message.contains(":7:1: body[0]: body `disk`") && message.contains(says),
            "{to}: {message}"
        );
    }
    // A radius that moves with the configuration is no rigid wheel: its rate would be
    // missing from the no-slip condition.
    let (ok, message) = run_on("moving", &coin("theta", 1.5, 20.0), &["derive"]);
    assert!(!ok);
    assert!(
        message.contains(
            "`rolls` takes the wheel's radius, which must be constant: parameters and numbers only"
        ),
        "{message}"
    );
}

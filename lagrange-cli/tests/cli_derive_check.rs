//! `lagrange derive` and `lagrange check` end to end: every model file in every format,
//! every shipped reference (transcribed from the textbook), a wrong reference, and the
//! error messages for broken files.

mod external;

use external::{Tool, find_program};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Once;

/// What compiling the LaTeX documents needs, and `LAGRANGE_REQUIRE_PDFLATEX`, which makes
/// it mandatory.
static PDFLATEX: Tool = Tool {
    skipped: "compiling the LaTeX documents",
    programs: "pdflatex",
    install: "apt-get install --no-install-recommends texlive-latex-base",
    require: "LAGRANGE_REQUIRE_PDFLATEX",
    explained: Once::new(),
};

/// The shipped model files.
fn models() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/models");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 11, "model files: {files:?}");
    files
}

/// Whether a shipped model is a kinematic tree too deep to expand, whose equations have no
/// printed form (the bicycle, 7 degrees of freedom from its rear contact to its front
/// wheel): its text says so, its JSON has programs and no symbolic form, and LaTeX is
/// refused with the reason.
fn too_deep(model: &Path) -> bool {
    model.file_stem().is_some_and(|stem| stem == "bicycle")
}

/// The shipped references, each with its model (of the same file name).
fn references() -> Vec<(PathBuf, PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/models/reference");
    let mut pairs: Vec<(PathBuf, PathBuf)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .map(|r| (dir.join("..").join(r.file_name().unwrap()), r))
        .collect();
    pairs.sort();
    assert!(pairs.len() >= 9, "references: {pairs:?}");
    pairs
}

fn lagrange(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lagrange"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs a command that must fail cleanly; returns its message.
fn failure(args: &[&str]) -> String {
    let o = lagrange(args);
    let message = stderr(&o);
    assert!(!o.status.success(), "{args:?} succeeded:\n{}", stdout(&o));
    assert!(
        !message.contains("panicked"),
        "{args:?} panicked:\n{message}"
    );
    // A note that the engine ran may come first.
    assert!(
        message.lines().any(|l| l.starts_with("error: ")),
        "{args:?}:\n{message}"
    );
    message
}

/// A scratch directory of its own for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lagrange-cli-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn derive_prints_every_model_as_text() {
    for model in models() {
        let o = lagrange(&["derive", path(&model)]);
        assert!(o.status.success(), "{model:?}: {}", stderr(&o));
        let text = stdout(&o);
        let sections: &[&str] = if too_deep(&model) {
            &[
                "Equations of motion:",
                "(too deep or too large to expand)",
                "Conserved:",
                "Cyclic coordinates:",
                "Constraints:",
            ]
        } else {
            &[
                "Lagrangian:",
                "Equations of motion:",
                "Mass matrix M",
                "Forcing f",
                "Momenta:",
                "Jacobi integral:",
                "Conserved:",
                "Cyclic coordinates:",
            ]
        };
        for section in sections {
            assert!(text.contains(section), "{model:?} lacks {section}:\n{text}");
        }
        assert_eq!(
            text.contains("too large to expand"),
            too_deep(&model),
            "{model:?}"
        );
    }
}

#[test]
fn derive_text_names_the_textbook_facts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/models");
    let text = |name: &str| {
        let o = lagrange(&["derive", path(&dir.join(name))]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        stdout(&o)
    };
    // Example B: θ is cyclic and the energy is conserved.
    let b = text("tt_b_string_through_hole.toml");
    assert!(b.contains("Cyclic coordinates: theta"), "{b}");
    assert!(b.contains("Conserved: the energy"), "{b}");
    // Example E: the rotation is prescribed in time, nothing is conserved.
    let e = text("tt_e_rotating_axes.toml");
    assert!(e.contains("Conserved: none"), "{e}");
    // Example G: the fly-wheel's rotation is ignored; the reduced system follows.
    let g = text("tt_g_gyrostat.toml");
    assert!(g.contains("Routh's reduction, ignoring phi"), "{g}");
    assert!(g.contains("R = "), "{g}");
    assert!(g.contains("GyrostatReduced"), "{g}");
    // The constrained pendulum: its constraint and that it is scleronomic.
    let c = text("cartesian_pendulum.toml");
    assert!(c.contains("G1 := "), "{c}");
    assert!(c.contains("scleronomic"), "{c}");
    assert!(c.contains("lambda1"), "{c}");
    // A rolling wheel's derived conditions are named, their kilobytes left to the JSON.
    let disk = text("rolling_disk.toml");
    assert!(
        disk.contains("G1 := the rolling of body `disk` along x, from the body's pose ("),
        "{disk}"
    );
    let constraints = disk.split("Constraints:").nth(1).unwrap();
    assert!(
        constraints.lines().take(3).all(|line| line.len() < 300),
        "{constraints}"
    );
}

#[test]
fn derive_json_is_the_model_and_its_derivation() {
    for model in models() {
        let o = lagrange(&["derive", path(&model), "--format", "json"]);
        assert!(o.status.success(), "{model:?}: {}", stderr(&o));
        let json: serde_json::Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{model:?}: not JSON ({e}):\n{}", stdout(&o)));
        let n = json["model"]["coordinates"].as_array().unwrap().len();
        let full = &json["derived"]["full"];
        if too_deep(&model) {
            assert!(full["symbolic"].is_null(), "{model:?}");
            assert_eq!(full["dynamics_by_recursion"], true, "{model:?}");
            assert!(full["programs"]["dynamics"].is_object(), "{model:?}");
            continue;
        }
        let mass = full["symbolic"]["mass_matrix"]
            .as_array()
            .unwrap_or_else(|| panic!("{model:?}: no mass matrix"));
        assert_eq!(mass.len(), n, "{model:?}");
        assert!(mass.iter().all(|row| row.as_array().unwrap().len() == n));
        let parameters = json["model"]["parameters"].as_array().unwrap();
        assert_eq!(json["values"].as_object().unwrap().len(), parameters.len());
        let ignores = json["model"]["ignore"]
            .as_array()
            .is_some_and(|i| !i.is_empty());
        assert_eq!(json["derived"]["reduced"].is_object(), ignores, "{model:?}");
    }
}

#[test]
fn derive_latex_is_a_complete_document() {
    // Without pdflatex the documents are still checked as text, but not compiled.
    let pdflatex = find_program("pdflatex")
        .map_err(|why| PDFLATEX.missing(&why).unwrap_or_else(|e| panic!("{e}")))
        .ok();
    let dir = scratch("latex");
    for model in models() {
        let o = lagrange(&["derive", path(&model), "--format", "latex"]);
        if too_deep(&model) {
            assert!(!o.status.success(), "{model:?}");
            assert!(stderr(&o).contains("too large to expand"), "{}", stderr(&o));
            continue;
        }
        assert!(o.status.success(), "{model:?}: {}", stderr(&o));
        let tex = stdout(&o);
        assert!(tex.contains("\\documentclass{article}"), "{model:?}");
        assert!(tex.contains("\\usepackage{amsmath}"), "{model:?}");
        assert!(tex.contains("\\begin{align*}"), "{model:?}");
        assert!(tex.trim_end().ends_with("\\end{document}"), "{model:?}");
        assert_eq!(
            tex.matches("\\begin{align*}").count(),
            tex.matches("\\end{align*}").count()
        );
        // The file name's underscores are escaped in text mode.
        assert!(!tex.contains("models/tt_") && !tex.contains("models/cartesian_"));
        if let Some(pdflatex) = &pdflatex {
            let stem = model.file_stem().unwrap().to_str().unwrap();
            write(&dir, &format!("{stem}.tex"), &tex);
            let run = Command::new(pdflatex)
                .args(["-interaction=nonstopmode", "-halt-on-error"])
                .arg(format!("{stem}.tex"))
                .current_dir(&dir)
                .output()
                .unwrap();
            assert!(
                run.status.success(),
                "{stem}.tex does not compile:\n{}",
                String::from_utf8_lossy(&run.stdout)
            );
        }
    }
}

#[test]
fn every_shipped_reference_passes() {
    for (model, reference) in references() {
        let o = lagrange(&["check", path(&model), "--reference", path(&reference)]);
        let out = stdout(&o);
        assert!(o.status.success(), "{reference:?}:\n{out}\n{}", stderr(&o));
        assert!(out.contains("worst relative residual"), "{out}");
        assert!(!out.contains("MISMATCH"), "{out}");
    }
}

#[test]
fn a_sign_flip_in_a_reference_fails_and_names_the_equation() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/models");
    let right =
        std::fs::read_to_string(root.join("reference/tt_b_string_through_hole.toml")).unwrap();
    // Flip the sign of the centrifugal term of the r equation.
    let wrong = right.replace("- m*r*dot(theta)^2", "+ m*r*dot(theta)^2");
    assert_ne!(wrong, right);
    let dir = scratch("sign");
    let reference = write(&dir, "wrong.toml", &wrong);
    let model = root.join("tt_b_string_through_hole.toml");
    let message = failure(&["check", path(&model), "--reference", &reference]);
    assert!(message.contains("equation `r`"), "{message}");
    assert!(!message.contains("equation `theta`"), "{message}");

    // A wrong gyroscopic sign in the reduced equations of Example G fails too.
    let right = std::fs::read_to_string(root.join("reference/tt_g_gyrostat.toml")).unwrap();
    let wrong = right.replace("+ p_phi*sin(theta)*dot(psi)", "- p_phi*sin(theta)*dot(psi)");
    assert_ne!(wrong, right);
    let reference = write(&dir, "wrong_g.toml", &wrong);
    let model = root.join("tt_g_gyrostat.toml");
    let message = failure(&["check", path(&model), "--reference", &reference]);
    assert!(message.contains("equation `theta`"), "{message}");
    assert!(!message.contains("equation `psi`"), "{message}");
}

#[test]
fn the_tolerance_flag_is_honoured() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/models");
    let model = root.join("double_pendulum.toml");
    let reference = root.join("reference/double_pendulum.toml");
    let o = lagrange(&["check", path(&model), "--reference", path(&reference)]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Round-off is not zero: a zero tolerance fails.
    failure(&[
        "check",
        path(&model),
        "--reference",
        path(&reference),
        "--tolerance",
        "0",
    ]);
}

/// A small valid model file with one line replaced.
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

#[test]
fn a_missing_file_is_an_error() {
    let message = failure(&["derive", "/nonexistent/model.toml"]);
    assert!(
        message.contains("cannot read `/nonexistent/model.toml`"),
        "{message}"
    );
    let model = models()[0].clone();
    let message = failure(&[
        "check",
        path(&model),
        "--reference",
        "/nonexistent/ref.toml",
    ]);
    assert!(
        message.contains("cannot read `/nonexistent/ref.toml`"),
        "{message}"
    );
}

#[test]
fn a_toml_syntax_error_has_file_line_and_column() {
    let dir = scratch("syntax");
    let file = write(
        &dir,
        "broken.toml",
        &PENDULUM.replace("l = 1.0", "l = = 1.0"),
    );
    let message = failure(&["derive", &file]);
    assert!(message.contains(&format!("{file}:10:")), "{message}");
}

#[test]
fn an_unknown_name_in_an_expression_is_located() {
    let dir = scratch("name");
    let file = write(
        &dir,
        "unknown.toml",
        &PENDULUM.replace("-m*g*l*cos(theta)", "-m*gee*l*cos(theta)"),
    );
    let message = failure(&["derive", &file]);
    assert!(message.contains("gee"), "{message}");
    assert!(message.contains(&format!("{file}:6:")), "{message}");

    // In a reference: the equation and the name, at the equation's line.
    let reference = write(
        &dir,
        "reference.toml",
        "source = \"none\"\n[equations]\ntheta = \"m*l^2*ddot(theta) + m*g*l*sin(thetta)\"\n",
    );
    let good = write(&dir, "good.toml", PENDULUM);
    let message = failure(&["check", &good, "--reference", &reference]);
    assert!(message.contains("unknown name `thetta`"), "{message}");
    assert!(message.contains("equation `theta`"), "{message}");
    assert!(message.contains(&format!("{reference}:3:")), "{message}");
}

#[test]
fn a_missing_value_is_named() {
    let dir = scratch("value");
    let file = write(&dir, "novalue.toml", &PENDULUM.replace("g = 9.81\n", ""));
    let message = failure(&["derive", &file]);
    assert!(message.contains("`g`"), "{message}");
    assert!(message.contains("[values]"), "{message}");
}

#[test]
fn unknown_keys_are_rejected() {
    let dir = scratch("keys");
    let file = write(
        &dir,
        "key.toml",
        &PENDULUM.replace("potential =", "potentail ="),
    );
    let message = failure(&["derive", &file]);
    assert!(message.contains("potentail"), "{message}");
    assert!(message.contains(&format!("{file}:6:")), "{message}");

    let file = write(&dir, "value.toml", &format!("{PENDULUM}k = 2.0\n"));
    let message = failure(&["derive", &file]);
    assert!(message.contains("`k`"), "{message}");

    let good = write(&dir, "good.toml", PENDULUM);
    let reference = write(
        &dir,
        "reference.toml",
        "source = \"none\"\nsystem = \"full\"\n[equations]\ntheta = \"ddot(theta)\"\n",
    );
    let message = failure(&["check", &good, "--reference", &reference]);
    assert!(message.contains("system"), "{message}");
    assert!(message.contains(&format!("{reference}:2:")), "{message}");
}

#[test]
fn derive_json_refuses_a_value_json_cannot_hold() {
    let dir = scratch("json-nan");
    for (value, shown) in [("nan", "NaN"), ("inf", "inf"), ("-inf", "-inf")] {
        let file = write(
            &dir,
            "free.toml",
            &format!(
                "[model]\nname = \"Free\"\ncoordinates = [\"x\"]\nparameters = [\"m\"]\nkinetic = \"1/2*m*dot(x)^2\"\n\n[values]\nm = {value}\n"
            ),
        );
        let message = failure(&["derive", &file, "--format", "json"]);
        assert!(message.contains("`m`"), "{message}");
        assert!(message.contains(shown), "{message}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_reference_that_ignores_the_accelerations_is_refused_by_name() {
    let dir = scratch("uninformative");
    let model = write(
        &dir,
        "free.toml",
        "[model]\nname = \"Free\"\ncoordinates = [\"x\", \"y\"]\nparameters = [\"m\"]\nkinetic = \"1/2*m*(dot(x)^2 + dot(y)^2)\"\n\n[values]\nm = 1.0\n",
    );
    for (equations, silent, fine) in [
        ("x = \"0\"\ny = \"m*ddot(y)\"", "`x`", "`y`"),
        ("x = \"m*ddot(x)\"\ny = \"ddot(y) - ddot(y)\"", "`y`", "`x`"),
        ("x = \"m*ddot(x)\"\ny = \"2*m*ddot(x)\"", "`y`", "`x`"),
    ] {
        let reference = write(
            &dir,
            "reference.toml",
            &format!("source = \"Newton's second law\"\n[equations]\n{equations}\n"),
        );
        let message = failure(&["check", &model, "--reference", &reference]);
        assert!(
            message.contains(&format!("equation {silent} does not depend")),
            "{message}"
        );
        assert!(!message.contains(&format!("equation {fine}")), "{message}");
    }
    // The witness of a mismatch names the state as the model's expressions do.
    let reference = write(
        &dir,
        "reference.toml",
        "source = \"a wrong sign\"\n[equations]\nx = \"m*ddot(x) + 1\"\ny = \"m*ddot(y)\"\n",
    );
    let message = failure(&["check", &model, "--reference", &reference]);
    assert!(message.contains("equation `x`"), "{message}");
    assert!(
        message.contains("dot(y) = ") && message.contains("ddot(x) = "),
        "{message}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn reference_text_is_escaped_in_messages() {
    // An equation's label and expression come from the reference file: a terminal escape
    // sequence in them must not reach the terminal.
    let dir = scratch("escaped");
    let model = write(
        &dir,
        "free.toml",
        "[model]\nname = \"Free\"\ncoordinates = [\"x\"]\nparameters = [\"m\"]\nkinetic = \"1/2*m*dot(x)^2\"\n\n[values]\nm = 1.0\n",
    );
    let reference = write(
        &dir,
        "reference.toml",
        "source = \"test\"\n[equations]\n\"x\\u001b[31m\" = \"m*ddot(x) + k\\u001b[0m\"\n",
    );
    let message = failure(&["check", &model, "--reference", &reference]);
    assert!(!message.contains('\u{1b}'), "{message:?}");
    assert!(message.contains("\\u{1b}"), "{message:?}");
}

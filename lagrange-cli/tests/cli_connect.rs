//! `lagrange connect` end to end: the projectile of Thomson & Tait §327 through a point at a
//! given energy, by its low and its high aim, against the closed forms; and the command's
//! errors for what it does not cover and for careless input.

use std::path::Path;
use std::process::{Command, Output};

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

fn success(args: &[&str]) -> String {
    let o = lagrange(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{args:?} failed:\n{err}");
    String::from_utf8(o.stdout).unwrap()
}

fn failure(args: &[&str]) -> String {
    let o = lagrange(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!o.status.success(), "{args:?} succeeded");
    assert!(!err.contains("panicked"), "{args:?} panicked:\n{err}");
    err
}

const G: f64 = 9.81;

#[test]
fn the_projectile_reaches_a_point_by_a_low_and_a_high_aim() {
    let projectile = model("projectile.toml");
    let (v, x, y) = (12.0_f64, 9.0, 2.0);
    let energy = format!("{}", 0.5 * v * v);
    let out = success(&[
        "connect",
        &projectile,
        "--to",
        "x=9,y=2",
        "--energy",
        &energy,
        "--format",
        "json",
    ]);
    let doc: Value = serde_json::from_str(&out).unwrap();
    let motions = doc["motions"].as_array().unwrap();
    assert_eq!(motions.len(), 2);
    let root = (v.powi(4) - G * (G * x * x + 2.0 * y * v * v)).sqrt();
    for (motion, sign) in motions.iter().zip([-1.0, 1.0]) {
        let alpha = ((v * v + sign * root) / (G * x)).atan();
        let velocity: Vec<f64> = motion["initial_velocity"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert!(
            (velocity[0] - v * alpha.cos()).abs() < 1e-9 * v,
            "{velocity:?}"
        );
        assert!(
            (velocity[1] - v * alpha.sin()).abs() < 1e-9 * v,
            "{velocity:?}"
        );
        let tau = x / (v * alpha.cos());
        assert!((motion["time"].as_f64().unwrap() - tau).abs() < 1e-10 * tau);
        assert_eq!(motion["least"].as_bool().unwrap(), sign < 0.0);
        for r in motion["relations"].as_array().unwrap() {
            let (c, e) = (
                r["computed"].as_f64().unwrap(),
                r["expected"].as_f64().unwrap(),
            );
            assert!((c - e).abs() < 1e-8 * (1.0 + e.abs()), "{r}");
        }
    }
    let text = success(&[
        "connect",
        &projectile,
        "--to",
        "x=9,y=2",
        "--energy",
        &energy,
    ]);
    assert!(text.contains("2 natural motions"), "{text}");
    assert!(text.contains("motion 1 of 2: least"), "{text}");
    assert!(
        text.contains("motion 2 of 2: stationary, not least"),
        "{text}"
    );
    let by_energy = text.lines().find(|l| l.trim_start().starts_with("∂A/∂E "));
    assert!(by_energy.is_some_and(|l| l.contains("= τ ")), "{text}");
}

#[test]
fn in_a_given_time_there_is_one_motion_and_its_principal_function() {
    let out = success(&[
        "connect",
        &model("projectile.toml"),
        "--from",
        "x=1,m=2",
        "--to",
        "x=5,y=-1",
        "--time",
        "0.8",
        "--steps",
        "400",
        "--format",
        "json",
    ]);
    let doc: Value = serde_json::from_str(&out).unwrap();
    let m = &doc["motions"][0];
    let (m_, tau) = (2.0, 0.8);
    let (vx, vy) = (4.0 / tau, -1.0 / tau + G * tau / 2.0);
    let kinetic =
        0.5 * m_ * (vx * vx * tau + vy * vy * tau - vy * G * tau * tau + G * G * tau.powi(3) / 3.0);
    let potential = m_ * G * (vy * tau * tau / 2.0 - G * tau.powi(3) / 6.0);
    let s = kinetic - potential;
    let found = m["principal"].as_f64().unwrap();
    assert!((found - s).abs() < 1e-10 * s.abs(), "{found} vs {s}");
}

#[test]
fn what_connect_does_not_cover_and_careless_input_fail_with_a_message() {
    let projectile = model("projectile.toml");
    let missing = failure(&["connect", &projectile, "--to", "x=9", "--time", "1"]);
    assert!(missing.contains("missing: y"), "{missing}");
    let unknown = failure(&["connect", &projectile, "--to", "x=9,z=2", "--time", "1"]);
    assert!(unknown.contains("`z` is not a coordinate"), "{unknown}");
    let twice = failure(&["connect", &projectile, "--to", "x=9,x=2,y=1", "--time", "1"]);
    assert!(twice.contains("twice"), "{twice}");
    let both = failure(&[
        "connect",
        &projectile,
        "--to",
        "x=9,y=2",
        "--time",
        "1",
        "--energy",
        "3",
    ]);
    assert!(both.contains("cannot be used with"), "{both}");
    let negative = failure(&["connect", &projectile, "--to", "x=9,y=2", "--time", "-1"]);
    assert!(negative.contains("finite and positive"), "{negative}");
    let nan = failure(&["connect", &projectile, "--to", "x=NaN,y=2", "--time", "1"]);
    assert!(nan.contains("not a finite number"), "{nan}");
    let start = failure(&[
        "connect",
        &projectile,
        "--to",
        "x=9,y=2",
        "--time",
        "1",
        "--start",
        "dot(z)=1",
    ]);
    assert!(start.contains("not the velocity"), "{start}");
    let low = failure(&["connect", &projectile, "--to", "x=9,y=2", "--energy", "-1"]);
    assert!(low.contains("potential"), "{low}");
    let hostile = failure(&[
        "connect",
        &projectile,
        "--to",
        "x\u{202e}=9,y=2",
        "--time",
        "1",
    ]);
    assert!(!hostile.contains('\u{202e}'), "{hostile}");
    // An input force acts on the cart: not a conservative system.
    let driven = failure(&[
        "connect",
        &model("cart_pole.toml"),
        "--to",
        "x=1,theta=0",
        "--time",
        "1",
    ]);
    assert!(driven.contains("conservative"), "{driven}");
}

/// A model file written for one test, in a scratch folder of its own.
fn written(test: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!(
        "lagrange-cli-connect-{}-{test}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("model.toml");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

const SPHERE: &str = r#"
[model]
name = "Sphere"
coordinates = ["theta", "phi"]
parameters = ["m", "R"]
kinetic = "1/2*m*R^2*(dot(theta)^2 + sin(theta)^2*dot(phi)^2)"
potential = "0"

[values]
m = 1.0
R = 1.0
"#;

const MAGNETIC: &str = r#"
[model]
name = "Magnetic"
coordinates = ["x", "y"]
parameters = ["m", "w"]
lagrangian = "1/2*m*(dot(x)^2 + dot(y)^2) + 1/2*m*w*(x*dot(y) - y*dot(x))"

[values]
m = 1.0
w = 1.4
"#;

const OSCILLATOR: &str = r#"
[model]
name = "Oscillator"
coordinates = ["x"]
parameters = ["m", "k"]
kinetic = "1/2*m*dot(x)^2"
potential = "1/2*k*x^2"

[values]
m = 1.0
k = 1.0
"#;

/// The motions of a JSON document.
fn motions(out: &str) -> Vec<Value> {
    let doc: Value = serde_json::from_str(out).unwrap();
    doc["motions"].as_array().unwrap().clone()
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
fn on_a_sphere_only_great_circles_that_reach_the_target_are_reported() {
    // S = E τ for every motion; the start q̇₀ = (2.748361, 0.003847) that a fixed step
    // took for a motion ends, integrated accurately, at (1.011, 2.743).
    let sphere = written("sphere", SPHERE);
    let out = success(&[
        "connect",
        &sphere,
        "--from",
        "theta=0.6,phi=-0.4",
        "--to",
        "theta=2.0,phi=1.1",
        "--time",
        "1.7",
        "--format",
        "json",
    ]);
    let found = motions(&out);
    assert!(!found.is_empty(), "{out}");
    for m in &found {
        let v = numbers(&m["initial_velocity"]);
        assert!(
            (v[0] - 2.748361).abs() > 1e-3 || (v[1] - 0.003847).abs() > 1e-3,
            "the spurious motion is reported: {m}"
        );
        let (e, s) = (
            m["energy"].as_f64().unwrap(),
            m["principal"].as_f64().unwrap(),
        );
        let speed2 = v[0] * v[0] + (0.6_f64.sin() * v[1]).powi(2);
        assert!((e - 0.5 * speed2).abs() < 1e-9 * e, "{m}");
        assert!(
            (s - e * 1.7).abs() < 1e-8 * s,
            "S = {s} vs E τ = {}",
            e * 1.7
        );
    }
}

#[test]
fn past_one_turn_in_a_magnetic_field_the_motion_is_only_stationary_with_a_double_focus() {
    let magnetic = written("magnetic", MAGNETIC);
    let turn = 2.0 * std::f64::consts::PI / 1.4;
    for (time, least) in [("3.0", true), ("6.0", false), ("7.5", false)] {
        let args = [
            "connect",
            &magnetic,
            "--from",
            "x=0.3,y=-0.2",
            "--to",
            "x=0.5,y=0.4",
            "--time",
            time,
        ];
        let out = success(&[&args[..], &["--format", "json"]].concat());
        let found = motions(&out);
        assert_eq!(found.len(), 1, "{out}");
        assert_eq!(
            found[0]["least"].as_bool().unwrap(),
            least,
            "τ = {time}: {out}"
        );
        let foci = found[0]["foci"].as_array().unwrap();
        if least {
            assert!(foci.is_empty(), "{out}");
            continue;
        }
        assert_eq!(foci.len(), 1, "{out}");
        assert!(
            (foci[0]["time"].as_f64().unwrap() - turn).abs() < 1e-8 * turn,
            "{out}"
        );
        assert_eq!(foci[0]["multiplicity"].as_u64().unwrap(), 2, "{out}");
        let text = success(&args);
        assert!(text.contains("stationary, not least"), "{text}");
        assert!(text.contains("multiplicity 2"), "{text}");
    }
}

#[test]
fn what_double_precision_cannot_resolve_and_what_is_no_motion_are_refused() {
    let projectile = model("projectile.toml");
    // A distance whose square overflows, a time whose square underflows.
    let far = failure(&["connect", &projectile, "--to", "x=1e300,y=0", "--time", "1"]);
    assert!(far.contains("double precision"), "{far}");
    let brief = failure(&[
        "connect",
        &projectile,
        "--to",
        "x=1,y=0",
        "--time",
        "1e-300",
    ]);
    assert!(brief.contains("double precision"), "{brief}");
    assert!(brief.lines().count() <= 2, "{brief}");
    // Up and down again: τ = 2v/g at E = ½ m v², never the zero-time solution.
    let out = success(&[
        "connect",
        &projectile,
        "--to",
        "x=0,y=0",
        "--energy",
        "72",
        "--format",
        "json",
    ]);
    let found = motions(&out);
    assert!(!found.is_empty(), "{out}");
    for m in &found {
        assert!(
            m["time"].as_f64().unwrap() > 1e-3,
            "a zero-time solution: {out}"
        );
    }
    let up = 2.0 * 12.0 / G;
    let throw = found
        .iter()
        .find(|m| (m["time"].as_f64().unwrap() - up).abs() < 1e-9 * up)
        .unwrap_or_else(|| panic!("no motion in 2v/g: {out}"));
    // Its top, where it is at rest, is the kinetic focus t = v/(g sin α) of the aims.
    assert!(!throw["least"].as_bool().unwrap(), "{throw}");
    let top = throw["foci"][0]["time"].as_f64().unwrap();
    assert!((top - up / 2.0).abs() < 1e-8 * up, "{throw}");
    // A bouncing ball's floor is an event that connect would not honour.
    let ball = failure(&[
        "connect",
        &model("bouncing_ball.toml"),
        "--to",
        "y=-5",
        "--time",
        "2",
    ]);
    assert!(ball.contains("[[events]]"), "{ball}");
    let low = failure(&[
        "connect",
        &projectile,
        "--from",
        "y=3",
        "--to",
        "x=9,y=2",
        "--energy",
        "1",
    ]);
    assert!(low.contains("below the potential"), "{low}");
    // Every motion from x = 0.3 is at −0.3 after half a period: one sentence says so.
    let oscillator = written("oscillator", OSCILLATOR);
    let half = format!("{}", std::f64::consts::PI);
    let focus = failure(&[
        "connect",
        &oscillator,
        "--from",
        "x=0.3",
        "--to",
        "x=-0.3",
        "--time",
        &half,
    ]);
    assert_eq!(focus.matches("kinetic focus").count(), 1, "{focus}");
}

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

//! `lagrange import` end to end on a 3-link spatial arm (`tests/fixtures/arm3.urdf`): the
//! imported model file moves as the same arm written by hand as a tree (so every origin,
//! axis, `rpy` and turned inertial frame was carried over), its gravity torques are those of
//! the potential written out by hand, a `<mimic>` coupling holds along a run, and what the
//! model cannot use is reported.

#![allow(unreachable_pub)] // the included example's items are public for its own crate

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use lagrange::nalgebra::{DMatrix, SVector};
use lagrange::{LagrangianSystem, linearize};
use serde_json::Value;

#[path = "../../examples/urdf_arm.rs"]
#[allow(dead_code)]
mod urdf_arm;

use urdf_arm::Arm;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/arm3.urdf")
}

fn lagrange(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lagrange"))
        .args(args)
        .output()
        .unwrap()
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lagrange-import-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_imported_arm_moves_as_the_arm_written_by_hand() {
    let output = lagrange(&["import", fixture().to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    for ignored in [
        "visual",
        "collision",
        "limit",
        "transmission",
        "material",
        "root link",
    ] {
        assert!(
            stderr.contains(ignored),
            "`{ignored}` not reported: {stderr}"
        );
    }
    let dir = scratch("arm");
    let file = dir.join("arm3.toml");
    std::fs::write(&file, &output.stdout).unwrap();
    // A state away from any equilibrium: A holds ∂q̈/∂(q, q̇) and the rate q̈ itself.
    let (q, qd) = ([0.3, -0.7, 1.1], [0.5, -0.2, 0.9]);
    let at = format!(
        "waist_joint={},shoulder={},elbow={},dot(waist_joint)={},dot(shoulder)={},dot(elbow)={}",
        q[0], q[1], q[2], qd[0], qd[1], qd[2]
    );
    let (rate, rows) = linearized(&file, &at);
    let arm = Arm { g: 9.81 };
    let hand = linearize(&arm, 0.0, &SVector::from(q), &SVector::from(qd)).unwrap();
    for (got, want) in rate.iter().zip(hand.rate.iter()) {
        assert!(
            (got - want).abs() < 1e-12 * (1.0 + want.abs()),
            "{rate:?} vs {}",
            hand.rate
        );
    }
    let a = DMatrix::from_fn(6, 6, |i, j| rows[i][j]);
    assert!(
        (a - &hand.a).amax() < 1e-11 * (1.0 + hand.a.amax()),
        "{}",
        hand.a
    );
    // The imported tree is evaluated by the recursions, and `derive` says so.
    let derived = lagrange(&["derive", file.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&derived.stdout);
    assert!(
        text.contains("Evaluated: M by the composite-rigid-body algorithm"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_arms_gravity_torques_are_those_of_its_potential() {
    // V = g Σ m z: the waist's centre stays at 0.15; with s = the shoulder angle about y
    // (turning x toward −z) the upper arm's centre is at 0.2 − 0.2 sin s, the forearm's at
    // 0.2 − 0.4 sin s − 0.15 sin(s + e), the tool at 0.2 − 0.4 sin s − 0.3 sin(s + e).
    // At rest f = −∂V/∂q.
    let arm = Arm { g: 9.81 };
    let g = 9.81;
    for (s, e) in [(0.3, -0.7), (1.2, 0.4), (-0.5, 2.0)] {
        let q = SVector::from([0.8, s, e]);
        let f = arm.forcing(0.0, &q, &SVector::zeros());
        let (c1, c12) = (f64::cos(s), f64::cos(s + e));
        let shoulder =
            g * (1.5 * 0.2 * c1 + 1.0 * (0.4 * c1 + 0.15 * c12) + 0.5 * (0.4 * c1 + 0.3 * c12));
        let elbow = g * (1.0 * 0.15 * c12 + 0.5 * 0.3 * c12);
        let expected = [0.0, shoulder, elbow];
        for (got, want) in f.iter().zip(expected) {
            assert!((got - want).abs() < 1e-12, "{f} vs {expected:?}");
        }
    }
}

#[test]
fn what_the_model_cannot_express_is_an_error() {
    let source = std::fs::read_to_string(fixture()).unwrap();
    let dir = scratch("errors");
    let cases = [
        (source.replace("type=\"continuous\"", "type=\"floating\""), "floating"),
        (source.replace("<axis xyz=\"0 2 0\"/>", "<axis xyz=\"0 2 0\"/><mimic joint=\"elbow\"/>"), "mimics itself"),
        (source.replace("<axis xyz=\"0 2 0\"/>", "<axis xyz=\"0 2 0\"/><mimic joint=\"knee\"/>"), "`knee`, which is not a movable joint"),
        (source.replace("<axis xyz=\"0 2 0\"/>", "<axis xyz=\"0 2 0\"/><mimic/>"), "mimics no joint"),
        (
            source.replace("<axis xyz=\"0 2 0\"/>", "<axis xyz=\"0 2 0\"/><mimic joint=\"shoulder\"/><mimic joint=\"waist_joint\"/>"),
            "a second `<mimic>`",
        ),
        (
            source
                .replace("<axis xyz=\"0 2 0\"/>", "<axis xyz=\"0 2 0\"/><mimic joint=\"shoulder\"/>")
                .replace("<limit lower=\"-2\" upper=\"2\" effort=\"50\"", "<mimic joint=\"elbow\"/><limit lower=\"-2\" upper=\"2\" effort=\"50\""),
            "mimic each other in a cycle",
        ),
        (source.replace("<axis xyz=\"0 2 0\"/>", "<axis xyz=\"0 2 0\"/><mimic joint=\"shoulder\" multiplier=\"nan\"/>"), "`multiplier` is not a finite number"),
        (source.replace("<child link=\"tool\"/>", "<child link=\"forearm\"/>"), "two parent joints"),
        (source.replace("<parent link=\"forearm\"/>", "<parent link=\"hand\"/>"), "`hand`, which is not defined"),
        (source.replace("<origin xyz=\"0.4 0 0\"/>", "<origin xyz=\"0.4 0 nan\"/>"), "not three finite numbers"),
        (source.replace("damping=\"0.1\"", "damping=\"-0.1\""), "negative damping"),
        (source.replace("damping=\"0.1\"", "damping=\"1.7e308\""), "`1.7e308` is beyond 10^38"),
        (source.replace("<origin xyz=\"0.3 0 0\"/>", "<origin xyz=\"0.3 -2e38 0\"/>"), "`-2e38` is beyond 10^38"),
        (source.replace("damping=\"0.1\"", "damping=\"inf\""), "`damping` is not a finite number"),
        (source.replace("<robot name=\"arm3\">", "<robt name=\"arm3\">").replace("</robot>", "</robt>"), "not `robot`"),
        ("<robot name=\"empty\"></robot>".to_string(), "the robot has no `<link>`"),
        (
            "<robot name=\"loop\"><link name=\"a\"/><link name=\"b\"/><joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/></joint><joint name=\"k\" type=\"revolute\"><parent link=\"b\"/><child link=\"a\"/></joint></robot>".to_string(),
            "the joints form a cycle",
        ),
        ("<robot><link name=\"a\"/>".to_string(), "not valid XML"),
        (
            "<!DOCTYPE r [<!ENTITY a \"aaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]><robot name=\"&b;\"/>".to_string(),
            "not valid XML",
        ),
    ];
    refused(&dir, &cases);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Imports each URDF of `cases` (saved in `dir`): the command must fail without a panic,
/// write no model, and say the case's words.
fn refused(dir: &Path, cases: &[(String, &str)]) {
    for (text, needle) in cases {
        let file = dir.join("refused.urdf");
        std::fs::write(&file, text).unwrap();
        let output = lagrange(&["import", file.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{needle}: succeeded");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(stderr.contains(needle), "{needle}: {stderr}");
        assert!(output.stdout.is_empty(), "{needle}: wrote a model");
    }
}

#[test]
fn what_cad_exports_leave_in_is_read_and_reported() {
    // A `<mimic>` on a fixed joint (Talos's grippers) couples nothing; a 1.5e-66 of
    // round-off (iCub's frames) is past the 38th decimal place, beyond the engine's
    // exact fractions. Both import as the arm without them, and the notes say so.
    let source = std::fs::read_to_string(fixture()).unwrap();
    let dir = scratch("cad");
    let model = |text: &str| {
        let file = imported(&dir, "cad", text);
        file.lines().skip(1).collect::<Vec<_>>().join("\n")
    };
    let plain = model(&source);
    let notes = |text: &str| {
        let urdf = dir.join("notes.urdf");
        std::fs::write(&urdf, text).unwrap();
        let output = lagrange(&["import", urdf.to_str().unwrap()]);
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let mimic = source.replace(
        "<origin xyz=\"0.3 0 0\"/>",
        "<origin xyz=\"0.3 0 0\"/><mimic joint=\"elbow\"/>",
    );
    assert_eq!(model(&mimic), plain);
    let stderr = notes(&mimic);
    assert!(
        stderr.contains("mimic of the fixed joint `tool_mount`"),
        "{stderr}"
    );
    let tiny = source.replace(
        "<origin xyz=\"0.3 0 0\"/>",
        "<origin xyz=\"0.3 0 1.5e-66\"/>",
    );
    assert_eq!(model(&tiny), plain);
    let stderr = notes(&tiny);
    assert!(
        stderr.contains("digits past the 38th decimal place")
            && stderr.contains("line 51: `1.5e-66` read as 0"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_mimic_joint_follows_the_joint_it_mimics() {
    // The elbow mimics the shoulder: elbow = 2 shoulder + 0.1 (URDF's `<mimic>`), imported
    // as a holonomic constraint, from the import's initial state (every other angle 0).
    let source = std::fs::read_to_string(fixture()).unwrap().replace(
        "<axis xyz=\"0 2 0\"/>",
        "<axis xyz=\"0 2 0\"/><mimic joint=\"shoulder\" multiplier=\"2\" offset=\"0.1\"/>",
    );
    let dir = scratch("mimic");
    let mut model = imported(&dir, "mimic", &source);
    assert!(
        model.contains("constraint = [\"elbow - (2)*shoulder - (0.1)\"]"),
        "{model}"
    );
    assert!(model.contains("elbow = 0.1"), "{model}");
    model.push_str(
        "\n[simulation]\nt_end = 1.0\nintegrator = \"dormand-prince\"\ntolerance = 1e-10\n",
    );
    let file = dir.join("mimic.toml");
    std::fs::write(&file, model).unwrap();
    let csv = dir.join("mimic.csv");
    let run = lagrange(&[
        "simulate",
        file.to_str().unwrap(),
        "--out",
        csv.to_str().unwrap(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let table = std::fs::read_to_string(&csv).unwrap();
    let mut lines = table.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (shoulder, elbow) = (column("shoulder"), column("elbow"));
    let mut moved = 0.0f64;
    for line in lines {
        let row: Vec<f64> = line.split(',').map(|x| x.parse().unwrap()).collect();
        assert!(
            (row[elbow] - 2.0 * row[shoulder] - 0.1).abs() < 1e-9,
            "{line}"
        );
        moved = moved.max(row[shoulder].abs());
    }
    assert!(moved > 0.1, "the arm did not move: {moved}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_chain_of_mimics_starts_on_its_constraints() {
    // The shoulder mimics the waist (3·waist + 0.25) and the elbow the shoulder
    // (2·shoulder + 0.5): with the waist at 0 the shoulder starts at 0.25 and the elbow at
    // 1.0, which `linearize` accepts (it refuses states off the constraints).
    let source = std::fs::read_to_string(fixture())
        .unwrap()
        .replace(
            "<axis xyz=\"0 2 0\"/>",
            "<axis xyz=\"0 2 0\"/><mimic joint=\"shoulder\" multiplier=\"2\" offset=\"0.5\"/>",
        )
        .replace(
            "<limit lower=\"-2\" upper=\"2\" effort=\"50\"",
            "<mimic joint=\"waist_joint\" multiplier=\"3\" offset=\"0.25\"/><limit lower=\"-2\" upper=\"2\" effort=\"50\"",
        );
    let dir = scratch("mimic-chain");
    let model = imported(&dir, "chain", &source);
    assert!(
        model.contains("shoulder = 0.25") && model.contains("elbow = 1.0"),
        "{model}"
    );
    let file = dir.join("chain.toml");
    std::fs::write(&file, model).unwrap();
    let rate = numbers(&linearization(&file, "waist_joint=0")["rate"]);
    assert_eq!(rate.len(), 6);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_actuated_import_drives_each_joint_by_its_input() {
    // `--actuated`: an input `tau_q` on every joint `q`. The linearization's B is then
    // [0; M⁻¹]: no input acts on the velocities' rates directly, and the block on the
    // accelerations is symmetric positive definite (the inverse of a mass matrix).
    let output = lagrange(&["import", "--actuated", fixture().to_str().unwrap()]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let model = String::from_utf8(output.stdout).unwrap();
    assert!(
        model.contains("inputs = [\"tau_waist_joint\", \"tau_shoulder\", \"tau_elbow\"]"),
        "{model}"
    );
    let dir = scratch("actuated");
    let file = dir.join("actuated.toml");
    std::fs::write(&file, model).unwrap();
    let b = rows(&linearization(&file, "shoulder=0.4,elbow=-0.9")["b"]);
    assert_eq!((b.len(), b[0].len()), (6, 3));
    assert!(b[..3].iter().flatten().all(|&x| x == 0.0), "{b:?}");
    let lower = DMatrix::from_fn(3, 3, |i, j| b[3 + i][j]);
    assert!(
        (&lower - lower.transpose()).amax() < 1e-12 * lower.amax(),
        "{lower}"
    );
    assert!(lower.clone().cholesky().is_some(), "{lower}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The model file `lagrange import` writes for the URDF `source`, saved in `dir` as
/// `name.urdf` first.
fn imported(dir: &Path, name: &str, source: &str) -> String {
    let urdf = dir.join(format!("{name}.urdf"));
    std::fs::write(&urdf, source).unwrap();
    let output = lagrange(&["import", urdf.to_str().unwrap()]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// The document of `lagrange linearize --format json` for the model file `file` at `at`.
fn linearization(file: &Path, at: &str) -> Value {
    let run = lagrange(&[
        "linearize",
        file.to_str().unwrap(),
        "--at",
        at,
        "--format",
        "json",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    serde_json::from_slice(&run.stdout).unwrap()
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn rows(v: &Value) -> Vec<Vec<f64>> {
    v.as_array().unwrap().iter().map(numbers).collect()
}

/// `A` and `ẋ` of `lagrange linearize` for the model file `file` at `at`.
fn linearized(file: &Path, at: &str) -> (Vec<f64>, Vec<Vec<f64>>) {
    let doc = linearization(file, at);
    (numbers(&doc["rate"]), rows(&doc["a"]))
}

#[test]
fn merging_fixed_joints_keeps_the_motion_with_fewer_bodies() {
    // The arm with its fixed tool turned by rpy and a gripper hinged on the tool: merged,
    // the tool becomes part of the forearm and the gripper hangs from the forearm.
    let source = std::fs::read_to_string(fixture()).unwrap();
    let source = source
        .replace(
            "<origin xyz=\"0.3 0 0\"/>",
            "<origin xyz=\"0.3 0 0.05\" rpy=\"0.3 -0.4 0.5\"/>",
        )
        .replace(
            "</robot>",
            r#"<link name="gripper"><inertial><origin xyz="0.04 0.01 0" rpy="0.2 0 0"/><mass value="0.2"/>
                 <inertia ixx="0.0002" ixy="0.00001" ixz="0" iyy="0.0003" iyz="0" izz="0.0001"/></inertial></link>
               <joint name="grip" type="revolute"><parent link="tool"/><child link="gripper"/>
                 <origin xyz="0.05 0.02 0" rpy="0.1 0 0.2"/><axis xyz="0 0 1"/></joint>
               <link name="camera"><inertial><mass value="0.3"/><inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial></link>
               <joint name="camera_mount" type="fixed"><parent link="base_link"/><child link="camera"/><origin xyz="1 0 0"/></joint>
               </robot>"#,
        );
    let dir = scratch("merge");
    let urdf = dir.join("arm4.urdf");
    std::fs::write(&urdf, source).unwrap();
    let mut files = Vec::new();
    for (name, flags) in [("kept", &[][..]), ("merged", &["--fixed-joint-merge"][..])] {
        let mut args = vec!["import", urdf.to_str().unwrap()];
        args.extend(flags);
        let output = lagrange(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{stderr}");
        let text = String::from_utf8(output.stdout).unwrap();
        let bodies = text.matches("[[model.body]]").count();
        if flags.is_empty() {
            assert_eq!(bodies, 6, "{text}");
        } else {
            assert_eq!(bodies, 4, "{text}");
            assert!(stderr.contains("`tool` merged into `forearm`"), "{stderr}");
            assert!(
                stderr.contains("`camera` merged into `the fixed frame`"),
                "{stderr}"
            );
        }
        let file = dir.join(format!("{name}.toml"));
        std::fs::write(&file, text).unwrap();
        files.push(file);
    }
    let at = "waist_joint=0.3,shoulder=-0.7,elbow=1.1,grip=0.4,dot(waist_joint)=0.5,dot(shoulder)=-0.2,dot(elbow)=0.9,dot(grip)=-1.3";
    let (rate_kept, a_kept) = linearized(&files[0], at);
    let (rate_merged, a_merged) = linearized(&files[1], at);
    for (x, y) in rate_kept.iter().zip(&rate_merged) {
        assert!(
            (x - y).abs() < 1e-10 * (1.0 + x.abs()),
            "{rate_kept:?} vs {rate_merged:?}"
        );
    }
    for (row_kept, row_merged) in a_kept.iter().zip(&a_merged) {
        for (x, y) in row_kept.iter().zip(row_merged) {
            assert!(
                (x - y).abs() < 1e-9 * (1.0 + x.abs()),
                "{a_kept:?} vs {a_merged:?}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_arm_too_deep_to_expand_derives_by_its_recursions() {
    // Seven links with alternating axes: deeper than the engine expands, within the
    // command's eight coordinates.
    let mut urdf = String::from("<robot name=\"snake\"><link name=\"l0\"/>");
    for k in 1..=7 {
        let axis = if k % 2 == 0 { "0 1 0" } else { "0 0 1" };
        urdf.push_str(&format!(
            "<link name=\"l{k}\"><inertial><origin xyz=\"0.1 0 0\"/><mass value=\"1\"/>\
             <inertia ixx=\"0.001\" ixy=\"0\" ixz=\"0\" iyy=\"0.002\" iyz=\"0\" izz=\"0.002\"/></inertial></link>\
             <joint name=\"j{k}\" type=\"revolute\"><parent link=\"l{}\"/><child link=\"l{k}\"/>\
             <origin xyz=\"0.2 0 0\"/><axis xyz=\"{axis}\"/></joint>",
            k - 1
        ));
    }
    urdf.push_str("</robot>");
    let dir = scratch("snake");
    let path = dir.join("snake.urdf");
    std::fs::write(&path, urdf).unwrap();
    let output = lagrange(&["import", path.to_str().unwrap()]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let file = dir.join("snake.toml");
    std::fs::write(&file, &output.stdout).unwrap();
    let derived = lagrange(&["derive", file.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&derived.stdout);
    assert!(
        derived.status.success(),
        "{}",
        String::from_utf8_lossy(&derived.stderr)
    );
    assert!(text.contains("too large to expand"), "{text}");
    assert!(text.contains("Cyclic coordinates: j1"), "{text}");
    let latex = lagrange(&["derive", file.to_str().unwrap(), "--format", "latex"]);
    let stderr = String::from_utf8_lossy(&latex.stderr);
    assert!(
        !latex.status.success() && stderr.contains("too large to expand"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Its linearization runs from the traced programs.
    let at = (1..=7)
        .map(|k| format!("j{k}=0.{k}"))
        .collect::<Vec<_>>()
        .join(",");
    let (rate, a) = linearized(&file, &at);
    assert_eq!((rate.len(), a.len()), (14, 14));
    assert!(rate.iter().all(|x| x.is_finite()));
    // Its report draws every link: seven centres of mass and seven joints.
    let html = dir.join("snake.html");
    let report = lagrange(&[
        "report",
        file.to_str().unwrap(),
        "--t-end",
        "0.5",
        "-o",
        html.to_str().unwrap(),
    ]);
    assert!(
        report.status.success(),
        "{}",
        String::from_utf8_lossy(&report.stderr)
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(!page.contains("No animation"));
    assert_eq!(page.matches("<circle data-node=").count(), 14);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn what_a_urdf_gives_twice_or_no_body_could_have_is_refused_at_its_line() {
    // Before, each of these imported without a word: the first of two links or joints of
    // one name dropped or renamed (a `<mimic>` then bound to the renamed one), the last of
    // two elements read, a negative mass or an inertia no distribution of mass has.
    let source = std::fs::read_to_string(fixture()).unwrap();
    let dir = scratch("refused");
    // Each `(from, to, message)`: `from` replaced by `to` is refused with `message`.
    let mut cases: Vec<(&str, String, &str)> = vec![
        (
            "  <transmission",
            "  <link name=\"tool\"><inertial><mass value=\"1000\"/></inertial></link>\n  <transmission".into(),
            "line 55: a second link named `tool` (the first at line 33)",
        ),
        (
            "<joint name=\"tool_mount\"",
            "<joint name=\"elbow\"".into(),
            "line 51: a second joint named `elbow` (the first at line 45)",
        ),
        (
            "<mass value=\"1\"/>",
            "<mass value=\"-50\"/>".into(),
            "line 29: link `forearm`: the mass is -50",
        ),
        (
            "iyy=\"0.02\"",
            "iyy=\"-1\"".into(),
            "line 14: link `waist`: the inertia tensor is not positive semi-definite: it has the principal moment -1",
        ),
        (
            // A positive diagonal, yet the moments are 0.07, 0.01 and -0.03.
            "ixx=\"0.02\" ixy=\"0\"",
            "ixx=\"0.02\" ixy=\"0.05\"".into(),
            "line 14: link `waist`: the inertia tensor is not positive semi-definite: it has the principal moment -0.03",
        ),
        (
            "<inertia ixx=\"0.02\"",
            "<inertia ixx=\"0.02\" ixx=\"0.03\"".into(),
            "not valid XML",
        ),
        (
            // Its square is below the smallest normal number: the quotients by its length
            // are no unit vector (before: accepted here, refused later as "the imported
            // model does not check").
            "<axis xyz=\"0 0 1\"/>",
            "<axis xyz=\"1e-160 0 0\"/>".into(),
            "line 36: joint `waist_joint` has the axis `1e-160 0 0`, too short to give a direction: give a unit vector",
        ),
        (
            "<axis xyz=\"0 0 1\"/>",
            "<axis xyz=\"0 0 0\"/>".into(),
            "line 36: joint `waist_joint` has the axis `0 0 0`, too short to give a direction",
        ),
    ];
    // An element given a second time, on the next line.
    for (first, second, message) in [
        (
            "izz=\"0.0001\"/></inertial>",
            "<inertial><mass value=\"9\"/></inertial>",
            "line 35: `<link name=\"tool\">` has a second `<inertial>` (the first at line 34)",
        ),
        (
            "<mass value=\"1.5\"/>",
            "<mass value=\"15\"/>",
            "line 23: `<inertial>` has a second `<mass>` (the first at line 22)",
        ),
        (
            "<origin xyz=\"0.3 0 0\"/>",
            "<origin xyz=\"9 0 0\"/>",
            "line 54: `<joint name=\"tool_mount\">` has a second `<origin>` (the first at line 53)",
        ),
        (
            "<axis xyz=\"0 0 1\"/>",
            "<axis xyz=\"1 0 0\"/>",
            "line 39: `<joint name=\"waist_joint\">` has a second `<axis>` (the first at line 38)",
        ),
        (
            "<parent link=\"waist\"/>",
            "<parent link=\"base_link\"/>",
            "line 42: `<joint name=\"shoulder\">` has a second `<parent>` (the first at line 41)",
        ),
        (
            "<child link=\"forearm\"/>",
            "<child link=\"tool\"/>",
            "line 47: `<joint name=\"elbow\">` has a second `<child>` (the first at line 46)",
        ),
        (
            "<dynamics damping=\"0.1\"/>",
            "<dynamics damping=\"5\"/>",
            "line 50: `<joint name=\"elbow\">` has a second `<dynamics>` (the first at line 49)",
        ),
    ] {
        cases.push((first, format!("{first}\n    {second}"), message));
    }
    let cases: Vec<(String, &str)> = cases
        .into_iter()
        .map(|(from, to, message)| (source.replace(from, &to), message))
        .collect();
    refused(&dir, &cases);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn joints_named_like_functions_are_renamed_as_other_reserved_names() {
    // `t` and `pi` were renamed, `sin` and the other functions refused as "reserved".
    let source = std::fs::read_to_string(fixture()).unwrap();
    let dir = scratch("functions");
    for name in ["sin", "exp", "sqrt", "dot", "t"] {
        let text = source.replace("\"waist_joint\"", &format!("\"{name}\""));
        let model = imported(&dir, name, &text);
        assert!(
            model.contains(&format!(
                "coordinates = [\"joint_{name}\", \"shoulder\", \"elbow\"]"
            )),
            "{model}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_chain_too_deep_is_one_error_not_one_per_link_below() {
    // Before: the depth error, then each link below it "not a body declared before it".
    // (100 links: more than 256 coordinates would be refused for their number first.)
    let mut urdf = String::from("<robot name=\"chain\"><link name=\"l0\"/>");
    for k in 1..=100 {
        urdf.push_str(&format!(
            "<link name=\"l{k}\"><inertial><mass value=\"1\"/>\
             <inertia ixx=\"0.001\" ixy=\"0\" ixz=\"0\" iyy=\"0.001\" iyz=\"0\" izz=\"0.001\"/></inertial></link>\
             <joint name=\"j{k}\" type=\"revolute\"><parent link=\"l{}\"/><child link=\"l{k}\"/>\
             <origin xyz=\"0 0 -0.1\"/><axis xyz=\"0 1 0\"/></joint>",
            k - 1
        ));
    }
    urdf.push_str("</robot>");
    let dir = scratch("chain");
    let path = dir.join("chain.urdf");
    std::fs::write(&path, urdf).unwrap();
    let output = lagrange(&["import", path.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains("body `l25` is 25 joint coordinates from the fixed frame; the limit is 24"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 2, "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_reader_that_closes_the_pipe_early_ends_the_command_quietly() {
    // `lagrange import star500.urdf | head -c 10` and `lagrange derive bicycle.toml
    // --format json | head -c 10` panicked ("failed printing to stdout: Broken pipe")
    // with exit code 101. Neither output (about 120 KB and 6 MB) fits in the pipe's
    // buffer: the command writes after the reader has gone.
    // 250 arms (at most 256 coordinates are derived), each with two tools on fixed
    // joints, so that the model written is larger than the pipe's buffer.
    let mut urdf = String::from("<robot name=\"star\"><link name=\"hub\"/>");
    for k in 0..250 {
        urdf.push_str(&format!(
            "<link name=\"arm{k}\"><inertial><mass value=\"1\"/></inertial></link>\
             <joint name=\"j{k}\" type=\"revolute\"><parent link=\"hub\"/><child link=\"arm{k}\"/>\
             <origin xyz=\"0.{k} 0 0\"/><axis xyz=\"0 0 1\"/></joint>"
        ));
        for tool in ["a", "b"] {
            urdf.push_str(&format!(
                "<link name=\"tool{k}{tool}\"><inertial><mass value=\"1\"/></inertial></link>\
                 <joint name=\"f{k}{tool}\" type=\"fixed\"><parent link=\"arm{k}\"/>\
                 <child link=\"tool{k}{tool}\"/><origin xyz=\"0.1 0 0\"/></joint>"
            ));
        }
    }
    urdf.push_str("</robot>");
    let dir = scratch("pipe");
    let path = dir.join("star.urdf");
    std::fs::write(&path, urdf).unwrap();
    let bicycle = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/models/bicycle.toml");
    for (args, start) in [
        (vec!["import", path.to_str().unwrap()], "# Imported"),
        (
            vec!["derive", bicycle.to_str().unwrap(), "--format", "json"],
            "{\n  \"model",
        ),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_lagrange"))
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut head = [0u8; 10];
        std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut head).unwrap();
        drop(child.stdout.take());
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(String::from_utf8_lossy(&head), start);
        assert!(
            output.status.success(),
            "{args:?}: {:?}: {stderr}",
            output.status
        );
        assert!(
            !stderr.contains("panicked") && !stderr.contains("error"),
            "{args:?}: {stderr}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

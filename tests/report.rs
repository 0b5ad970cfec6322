//! The HTML report from a derived system (`Trajectory::save_html`, `HtmlReport`): what
//! the animation draws is where the model puts its particles, bodies and joints (against
//! positions and rotations written out here by hand), and the plotted reaction of a
//! pendulum's rod is its tension from the energy integral, `m g (3 cos θ − 2 cos θ₀)`.

#[path = "../examples/double_pendulum.rs"]
#[allow(dead_code)]
mod double_pendulum;
#[path = "../examples/furuta_pendulum.rs"]
#[allow(dead_code)]
mod furuta_pendulum;

use double_pendulum::DoublePendulum;
use furuta_pendulum::Furuta;
use lagrange::nalgebra::{Vector2, Vector3};
use lagrange::{HtmlReport, Integrator, Lagrangian, LagrangianSystem, PointKind, Simulation};

/// A pendulum bob in Cartesian coordinates, held at `l` from the origin by a constraint.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y),
    particle(name = bob, mass = "m", position = ["x", "y"]),
    gravity = ["0", "-g", "0"],
    constraint = "x^2 + y^2 - l^2"
)]
struct BobOnARod {
    m: f64,
    l: f64,
    g: f64,
}

/// Two links jointed about `y`, hanging along `−z`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta, phi),
    body(name = upper, mass = "m1", inertia = ["0", "0", "0"], joint = revolute(theta), axis = ["0", "1", "0"],
         com = ["0", "0", "-l1"]),
    body(name = lower, mass = "m2", inertia = ["0", "0", "0"], parent = upper, joint = revolute(phi),
         axis = ["0", "1", "0"], origin = ["0", "0", "-l1"], com = ["0", "0", "-l2"]),
    gravity = ["0", "0", "-g"],
)]
struct Links {
    m1: f64,
    m2: f64,
    l1: f64,
    l2: f64,
    g: f64,
}

fn close(a: &[f64], b: &[f64], tolerance: f64) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() <= tolerance, "{a:?}\n{b:?}");
    }
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("lagrange-report-{}-{name}", std::process::id()))
}

#[test]
fn the_rods_plotted_reaction_is_its_tension() {
    let p = BobOnARod {
        m: 1.5,
        l: 0.8,
        g: 9.81,
    };
    let theta0: f64 = 1.1;
    let q0 = Vector2::new(p.l * theta0.sin(), -p.l * theta0.cos());
    let trajectory = Simulation::new(&p)
        .integrator(Integrator::dormand_prince(1e-12, 1e-12))
        .output_interval(0.01)
        .run(0.0, q0, Vector2::zeros(), 3.0)
        .unwrap();
    let report = HtmlReport::new(&trajectory, &p)
        .constraint_forces(&trajectory, &p)
        .unwrap();
    let series = report.added_series();
    assert_eq!(series.len(), 2);
    assert_eq!(series[0].name, "|λ1 ∇G1|");
    for (q, reaction) in trajectory.q().iter().zip(&series[0].values) {
        let cos_theta = -q[1] / p.l;
        let tension = p.m * p.g * (3.0 * cos_theta - 2.0 * theta0.cos());
        assert!(
            (reaction - tension).abs() < 1e-8 * tension,
            "{reaction} {tension}"
        );
    }
    // The bob is drawn where it is, and the page names it.
    let info = BobOnARod::INFO.drawing.clone().unwrap();
    assert_eq!(info.points.len(), 1);
    assert_eq!(
        (info.points[0].name.as_ref(), info.points[0].kind),
        ("bob", PointKind::Particle)
    );
    let q = Vector2::new(0.3, -0.7);
    close(&p.drawing(0.0, &q), &[0.3, -0.7, 0.0], 0.0);
    let path = temp("bob.html");
    report.save(&path).unwrap();
    let page = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(page.contains("<title>bob</title>"));
    assert!(page.contains("|λ1 ∇G1| against t"));
}

#[test]
fn the_attribute_names_points_to_draw() {
    let p = DoublePendulum {
        m1: 1.0,
        m2: 1.0,
        l1: 0.9,
        l2: 0.6,
        g: 9.81,
    };
    let info = DoublePendulum::INFO.drawing.clone().unwrap();
    let names: Vec<&str> = info.points.iter().map(|p| p.name.as_ref()).collect();
    assert_eq!(names, ["bob1", "bob2"]);
    assert!(info.points.iter().all(|p| p.kind == PointKind::Point));
    assert_eq!(info.links.as_ref(), [(0, None), (1, Some(0))]);
    let (a, b) = (0.3_f64, -2.0_f64);
    let bob1 = [p.l1 * a.sin(), -p.l1 * a.cos(), 0.0];
    let bob2 = [bob1[0] + p.l2 * b.sin(), bob1[1] - p.l2 * b.cos(), 0.0];
    let expected: Vec<f64> = bob1.iter().chain(&bob2).copied().collect();
    close(&p.drawing(0.0, &Vector2::new(a, b)), &expected, 1e-15);
}

#[test]
fn a_chain_is_drawn_joint_to_joint() {
    let links = Links {
        m1: 1.0,
        m2: 2.0,
        l1: 0.7,
        l2: 0.4,
        g: 9.81,
    };
    let info = Links::INFO.drawing.clone().unwrap();
    let names: Vec<&str> = info.points.iter().map(|p| p.name.as_ref()).collect();
    assert_eq!(names, ["upper", "lower", "upper.joint", "lower.joint"]);
    // Each joint to its body's centre, and the lower joint to the upper one.
    assert_eq!(
        info.links.as_ref(),
        [(2, Some(0)), (3, Some(1)), (3, Some(2))]
    );
    assert_eq!(info.frames.as_ref(), [0, 1]);
    let (theta, phi) = (0.4_f64, -1.2_f64);
    let values = links.drawing(0.0, &Vector2::new(theta, phi));
    // About y: R_y(a) (0, 0, −l) = (−l sin a, 0, −l cos a).
    let hang = |a: f64, l: f64| [-l * a.sin(), 0.0, -l * a.cos()];
    let upper = hang(theta, links.l1);
    let lower_joint = upper;
    let lower = {
        let d = hang(theta + phi, links.l2);
        [lower_joint[0] + d[0], 0.0, lower_joint[2] + d[2]]
    };
    let r = |a: f64| [a.cos(), 0.0, a.sin(), 0.0, 1.0, 0.0, -a.sin(), 0.0, a.cos()];
    let expected: Vec<f64> = upper
        .iter()
        .chain(&lower)
        .chain(&[0.0, 0.0, 0.0])
        .chain(&lower_joint)
        .chain(&r(theta))
        .chain(&r(theta + phi))
        .copied()
        .collect();
    close(&values, &expected, 1e-14);
}

#[test]
fn save_html_writes_the_whole_page() {
    let furuta = Furuta {
        M: 0.3,
        m: 0.1,
        L: 0.4,
        l: 0.25,
        J: 1e-4,
        g: 9.81,
    };
    // Where the example's model puts the bodies, written out again.
    let (t1, t2) = (0.7_f64, 2.1_f64);
    let values = furuta.drawing(0.0, &Vector2::new(t1, t2));
    let arm = Vector3::new(furuta.L / 2.0 * t1.cos(), furuta.L / 2.0 * t1.sin(), 0.0);
    let pendulum = Vector3::new(
        furuta.L * t1.cos() + furuta.l * t1.sin() * t2.sin(),
        furuta.L * t1.sin() - furuta.l * t1.cos() * t2.sin(),
        furuta.l * t2.cos(),
    );
    close(&values[..3], arm.as_slice(), 1e-15);
    close(&values[3..6], pendulum.as_slice(), 1e-15);
    let trajectory = Simulation::new(&furuta)
        .output_interval(0.01)
        .run(0.0, Vector2::new(0.0, 0.3), Vector2::new(2.0, 0.0), 2.0)
        .unwrap();
    let path = temp("furuta.html");
    trajectory.save_html(&furuta, &path).unwrap();
    let page = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("content=\"default-src 'none';"));
    assert!(page.contains("<math display=\"block\"><mtable>"));
    assert!(page.contains("an oblique view of 3-D space"));
    assert!(page.contains("<code>angular_momentum_z</code>"));
    assert_eq!(page.matches("<svg class=\"plot\"").count(), 2);
    assert_eq!(page.matches("data-node=").count(), 2);
    assert!(!page.contains("src=") && !page.contains("href=\"http"));
}

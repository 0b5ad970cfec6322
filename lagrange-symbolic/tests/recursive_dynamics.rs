//! A kinematic tree's `M` and `f` come from the composite-rigid-body and recursive
//! Newton–Euler algorithms traced into code; the printed equations come from
//! differentiating the expanded Lagrangian. Two independent derivations: at random states
//! the program must reproduce the printed `M` and `f` to round-off, for revolute,
//! prismatic, fixed, spherical and free joints, offsets turned by `rpy`, full inertia
//! tensors, parameters in the data, and a written potential, force and dissipation.

use lagrange_symbolic::derive;
use lagrange_symbolic::model::Model;
use lagrange_symbolic::syntax::Expr;

fn model(json: &str) -> Model {
    serde_json::from_str(json).unwrap()
}

/// splitmix64 in [-1, 1).
struct Sample(u64);
impl Sample {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
}

/// Compares the dynamics program with the printed `M` and `f` at `states` random states;
/// returns the program's operation count.
fn agree(model: &Model, parameters: &[f64], states: usize) -> usize {
    let derived = derive(model).unwrap_or_else(|e| panic!("{e:?}"));
    let eq = &derived.full;
    assert!(eq.dynamics_by_recursion, "{} was not traced", model.name);
    let n = eq.coordinates.len();
    let mut sample = Sample(n as u64 * 7919);
    for _ in 0..states {
        let t = sample.next();
        let q: Vec<f64> = (0..n).map(|_| 3.0 * sample.next()).collect();
        let qd: Vec<f64> = (0..n).map(|_| 2.0 * sample.next()).collect();
        let mut inputs = vec![t];
        inputs.extend(&q);
        inputs.extend(&qd);
        inputs.extend(parameters);
        let mut out = vec![0.0; n * n + n];
        eq.programs.dynamics.evaluate(&inputs, &mut out);
        let leaf = |e: &Expr| -> Option<f64> {
            let index = |names: &[String], x: &str| names.iter().position(|c| c == x);
            match e {
                Expr::Name(x) if x == "t" => Some(t),
                Expr::Name(x) => index(&eq.coordinates, x)
                    .map(|i| q[i])
                    .or_else(|| index(&eq.parameters, x).map(|k| parameters[k])),
                Expr::Velocity(x) => index(&eq.coordinates, x).map(|i| qd[i]),
                _ => None,
            }
        };
        let scale = out.iter().fold(1.0f64, |m, x| m.max(x.abs()));
        for i in 0..n {
            for j in 0..n {
                let symbolic = eq.symbolic.mass_matrix[i][j].evaluate(&leaf).unwrap();
                let traced = out[i * n + j];
                assert!(
                    (symbolic - traced).abs() <= 1e-12 * scale,
                    "{}: M[{i}][{j}] = {traced} traced, {symbolic} printed",
                    model.name
                );
            }
            let symbolic = eq.symbolic.forcing[i].evaluate(&leaf).unwrap();
            let traced = out[n * n + i];
            assert!(
                (symbolic - traced).abs() <= 1e-12 * scale,
                "{}: f[{i}] = {traced} traced, {symbolic} printed",
                model.name
            );
        }
    }
    jacobians_match_differences(eq, parameters, &mut sample);
    eq.programs.dynamics.operation_count()
}

/// The residual's derivatives (traced by forward mode over the Newton–Euler recursion)
/// against central differences of `M q̈ − f` from the dynamics program (the composite
/// bodies), at a random state and random accelerations.
fn jacobians_match_differences(
    eq: &lagrange_symbolic::equations::Equations,
    parameters: &[f64],
    sample: &mut Sample,
) {
    let n = eq.coordinates.len();
    let m = parameters.len();
    let mut x = vec![sample.next()];
    x.extend((0..2 * n).map(|_| 2.0 * sample.next()));
    x.extend(parameters);
    let qdd: Vec<f64> = (0..n).map(|_| sample.next()).collect();
    let residual = |x: &[f64]| -> Vec<f64> {
        let mut out = vec![0.0; n * n + n];
        eq.programs.dynamics.evaluate(x, &mut out);
        (0..n)
            .map(|i| (0..n).map(|j| out[i * n + j] * qdd[j]).sum::<f64>() - out[n * n + i])
            .collect()
    };
    let mut inputs = x.clone();
    inputs.extend(&qdd);
    let mut jacobians = vec![0.0; 2 * n * n + n * m];
    eq.programs
        .residual_jacobians
        .evaluate(&inputs, &mut jacobians);
    for k in 0..2 * n + m {
        let h = 1e-6 * x[1 + k].abs().max(1.0);
        let (mut up, mut down) = (x.clone(), x.clone());
        up[1 + k] += h;
        down[1 + k] -= h;
        let (ru, rd) = (residual(&up), residual(&down));
        let (block, width, column) = if k < n {
            (0, n, k)
        } else if k < 2 * n {
            (n * n, n, k - n)
        } else {
            (2 * n * n, m, k - 2 * n)
        };
        for i in 0..n {
            let difference = (ru[i] - rd[i]) / (2.0 * h);
            let exact = jacobians[block + i * width + column];
            assert!(
                (difference - exact).abs() < 1e-6 * exact.abs().max(1.0),
                "{}: ∂r{i}/∂x{k} = {exact} traced, {difference} by differences",
                eq.name
            );
        }
    }
}

#[test]
fn a_spatial_six_joint_arm() {
    let arm = model(
        r#"{
        "name": "Arm6", "coordinates": ["q1","q2","q3","q4","q5","q6"], "parameters": ["g"],
        "gravity": ["0","0","-g"],
        "body": [
          {"name":"shoulder","mass":"3.7","inertia":["0.0103","0.0103","0.00666"],"joint":"revolute(q1)","axis":["0","0","1"],"origin":["0","0","0.089159"]},
          {"name":"upper","mass":"8.393","inertia":["0.2269","0.2269","0.0151"],"parent":"shoulder","joint":"revolute(q2)","axis":["0","1","0"],"origin":["0","0.13585","0"],"rpy":["0","pi/2","0"],"com":["0","0","0.28"]},
          {"name":"fore","mass":"2.275","inertia":["0.0494","0.0494","0.004"],"parent":"upper","joint":"revolute(q3)","axis":["0","1","0"],"origin":["0","-0.1197","0.425"],"com":["0","0","0.25"]},
          {"name":"wrist1","mass":"1.219","inertia":["0.00111","0.00111","0.00219"],"parent":"fore","joint":"revolute(q4)","axis":["0","1","0"],"origin":["0","0","0.39225"],"rpy":["0","pi/2","0"]},
          {"name":"wrist2","mass":"1.219","inertia":["0.00111","0.00111","0.00219"],"parent":"wrist1","joint":"revolute(q5)","axis":["0","0","1"],"origin":["0","0.093","0"]},
          {"name":"wrist3","mass":"0.1879","inertia":["0.000171","0.000171","0.000033"],"parent":"wrist2","joint":"revolute(q6)","axis":["0","1","0"],"origin":["0","0","0.09465"]}
        ]}"#,
    );
    agree(&arm, &[9.81], 5);
}

/// A planar chain of `n` point masses on massless rods, relative angles, as a tree.
fn chain(n: usize) -> (Model, Vec<f64>) {
    let coordinates: Vec<String> = (1..=n).map(|i| format!("\"q{i}\"")).collect();
    let bodies: Vec<String> = (1..=n)
        .map(|i| {
            let parent = if i == 1 { String::new() } else { format!("\"parent\":\"b{}\",", i - 1) };
            let origin = if i == 1 { "0".to_string() } else { format!("l{}", i - 1) };
            format!(
                r#"{{"name":"b{i}","mass":"m{i}","inertia":["0","0","0"],{parent}"joint":"revolute(q{i})","axis":["0","0","1"],"origin":["{origin}","0","0"],"com":["l{i}","0","0"]}}"#
            )
        })
        .collect();
    let parameters: Vec<String> = (1..=n)
        .map(|i| format!("\"m{i}\""))
        .chain((1..=n).map(|i| format!("\"l{i}\"")))
        .chain(["\"g\"".to_string()])
        .collect();
    let json = format!(
        r#"{{"name":"Chain{n}","coordinates":[{}],"parameters":[{}],"gravity":["0","-g","0"],"body":[{}]}}"#,
        coordinates.join(","),
        parameters.join(","),
        bodies.join(",")
    );
    let values = (0..n)
        .map(|i| 1.0 + 0.1 * i as f64)
        .chain((0..n).map(|i| 0.5 + 0.05 * i as f64))
        .chain([9.81])
        .collect();
    (model(&json), values)
}

#[test]
fn planar_chains() {
    for n in [2, 4, 6] {
        let (chain, values) = chain(n);
        let start = std::time::Instant::now();
        let ops = agree(&chain, &values, 3);
        eprintln!("chain {n}: ops {ops} in {:?}", start.elapsed());
    }
}

#[test]
fn every_joint_with_written_terms() {
    // A cart on a spring (prismatic, with a force and dissipation) carrying a pendulum
    // whose joint frame is turned by rpy, with a full inertia tensor and a fixed tool.
    let cart = model(
        r#"{
        "name": "Cart", "coordinates": ["x","th"], "parameters": ["M","m","l","k","c","F","g"],
        "potential": "1/2*k*x^2", "force": {"x": "F*cos(t)"}, "dissipation": "1/2*c*dot(x)^2 + 1/10*dot(th)^2*x^2",
        "gravity": ["0","0","-g"],
        "body": [
          {"name":"cart","mass":"M","inertia":["1","2","3"],"joint":"prismatic(x)","axis":["1","0","0"]},
          {"name":"pole","mass":"m","inertia":["0.02","0.03","0.01","0.001","-0.002","0.003"],"parent":"cart","joint":"revolute(th)","axis":["0","1","0"],"origin":["0.1","0","l/4"],"rpy":["0.3","-0.2","0.5"],"com":["0","0.05","l"]},
          {"name":"tool","mass":"m/3","inertia":["0.001","0.002","0.003"],"parent":"pole","joint":"fixed","origin":["0","0","2*l"],"rpy":["0","pi/2","0"],"com":["0.01","0","0"]}
        ]}"#,
    );
    agree(&cart, &[2.0, 0.7, 0.9, 3.0, 0.4, 1.5, 9.81], 4);

    // A ball joint under a turning arm with a slider on it (Coriolis), and a floating
    // body with a hinged flap.
    let ball = model(
        r#"{
        "name": "Ball", "coordinates": ["w","a","b","c","s"], "parameters": ["g"],
        "gravity": ["0.5","-g","0"],
        "body": [
          {"name":"arm","mass":"1","inertia":["0.1","0.2","0.3"],"joint":"revolute(w)","axis":["0","0","1"]},
          {"name":"bob","mass":"2","inertia":["0.05","0.06","0.07","0.01","0","0.02"],"parent":"arm","joint":"spherical(a, b, c)","origin":["0.6","0","0"],"com":["0","0","-0.4"]},
          {"name":"slider","mass":"0.3","inertia":["0.01","0.01","0.02"],"parent":"arm","joint":"prismatic(s)","axis":["0","0.6","0.8"],"origin":["0.1","0","0"],"com":["0.02","0","0"]}
        ]}"#,
    );
    agree(&ball, &[9.81], 4);
    let floating = model(
        r#"{
        "name": "Floating", "coordinates": ["x","y","z","a","b","c","f"], "parameters": ["g"],
        "gravity": ["0","0","-g"],
        "body": [
          {"name":"base","mass":"3","inertia":["0.3","0.4","0.5","0.01","0.02","0.03"],"joint":"free(x, y, z, a, b, c)","origin":["0","0","1"],"com":["0.1","0","0"]},
          {"name":"flap","mass":"0.5","inertia":["0.01","0.02","0.03"],"parent":"base","joint":"revolute(f)","axis":["0.6","0.8","0"],"origin":["0.2","0","0.1"],"com":["0","0","0.2"]}
        ]}"#,
    );
    agree(&floating, &[9.81], 3);
}

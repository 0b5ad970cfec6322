//! A kinematic tree's `M` and `f` come from the composite-rigid-body and recursive
//! Newton–Euler algorithms traced into code; the printed equations come from
//! differentiating the expanded Lagrangian. Two independent derivations: at random states
//! the program must reproduce the printed `M` and `f` to round-off, for revolute,
//! prismatic, fixed, spherical and free joints, offsets turned by `rpy`, full inertia
//! tensors, parameters in the data, and a written potential, force and dissipation. The
//! inverse dynamics (Newton–Euler with the accelerations) must reproduce `M q̈ − f`.

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
        // The printed trees, lowered without the engine, at the state and q̈ = 0.
        let symbolic = eq.symbolic.as_ref().unwrap();
        let printed: Vec<Expr> = symbolic
            .mass_matrix
            .iter()
            .flatten()
            .chain(&symbolic.forcing)
            .cloned()
            .collect();
        let mut values = vec![0.0; n * n + n];
        let at: Vec<f64> = inputs.iter().copied().chain(vec![0.0; n]).collect();
        eq.lower(&printed).unwrap().evaluate(&at, &mut values);
        let scale = out.iter().fold(1.0f64, |m, x| m.max(x.abs()));
        for i in 0..n {
            for j in 0..n {
                let symbolic = values[i * n + j];
                let traced = out[i * n + j];
                assert!(
                    (symbolic - traced).abs() <= 1e-12 * scale,
                    "{}: M[{i}][{j}] = {traced} traced, {symbolic} printed",
                    model.name
                );
            }
            let symbolic = values[n * n + i];
            let traced = out[n * n + i];
            assert!(
                (symbolic - traced).abs() <= 1e-12 * scale,
                "{}: f[{i}] = {traced} traced, {symbolic} printed",
                model.name
            );
        }
        // Inverse dynamics (Newton–Euler with q̈) against the printed M q̈ − f.
        let qdd: Vec<f64> = (0..n).map(|_| 2.0 * sample.next()).collect();
        let mut tau = vec![0.0; n];
        let with_qdd: Vec<f64> = inputs.iter().chain(&qdd).copied().collect();
        eq.programs.inverse_dynamics.evaluate(&with_qdd, &mut tau);
        for i in 0..n {
            let printed =
                (0..n).map(|j| values[i * n + j] * qdd[j]).sum::<f64>() - values[n * n + i];
            assert!(
                (printed - tau[i]).abs() <= 1e-12 * scale,
                "{}: τ[{i}] = {} by Newton–Euler, {printed} printed",
                model.name,
                tau[i]
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
    // Inverse dynamics (Newton–Euler with q̈) against M q̈ − f (M by the composite bodies).
    let mut tau = vec![0.0; n];
    eq.programs.inverse_dynamics.evaluate(&inputs, &mut tau);
    for (i, (tau, r)) in tau.iter().zip(residual(&x)).enumerate() {
        assert!(
            (tau - r).abs() <= 1e-12 * r.abs().max(1.0),
            "{}: τ[{i}] = {tau} by Newton–Euler, {r} from M q̈ − f",
            eq.name
        );
    }
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

/// The first `k` links of a UR5-like spatial arm.
fn spatial_arm(k: usize) -> Model {
    let links = [
        r#"{"name":"shoulder","mass":"3.7","inertia":["0.0103","0.0103","0.00666"],"joint":"revolute(q1)","axis":["0","0","1"],"origin":["0","0","0.089159"]}"#,
        r#"{"name":"upper","mass":"8.393","inertia":["0.2269","0.2269","0.0151"],"parent":"shoulder","joint":"revolute(q2)","axis":["0","1","0"],"origin":["0","0.13585","0"],"rpy":["0","pi/2","0"],"com":["0","0","0.28"]}"#,
        r#"{"name":"fore","mass":"2.275","inertia":["0.0494","0.0494","0.004"],"parent":"upper","joint":"revolute(q3)","axis":["0","1","0"],"origin":["0","-0.1197","0.425"],"com":["0","0","0.25"]}"#,
        r#"{"name":"wrist1","mass":"1.219","inertia":["0.00111","0.00111","0.00219"],"parent":"fore","joint":"revolute(q4)","axis":["0","1","0"],"origin":["0","0","0.39225"],"rpy":["0","pi/2","0"]}"#,
        r#"{"name":"wrist2","mass":"1.219","inertia":["0.00111","0.00111","0.00219"],"parent":"wrist1","joint":"revolute(q5)","axis":["0","0","1"],"origin":["0","0.093","0"]}"#,
        r#"{"name":"wrist3","mass":"0.1879","inertia":["0.000171","0.000171","0.000033"],"parent":"wrist2","joint":"revolute(q6)","axis":["0","1","0"],"origin":["0","0","0.09465"]}"#,
    ];
    let coordinates: Vec<String> = (1..=k).map(|i| format!(r#""q{i}""#)).collect();
    model(&format!(
        r#"{{"name":"Arm{k}","coordinates":[{}],"parameters":["g"],"gravity":["0","0","-g"],"body":[{}]}}"#,
        coordinates.join(","),
        links[..k].join(",")
    ))
}

#[test]
fn a_spatial_arm() {
    for k in [3, 4] {
        agree(&spatial_arm(k), &[9.81], 5);
    }
    // Six links are past the expanded route's budget: the recursions alone.
    let six = derive(&spatial_arm(6)).unwrap().full;
    assert!(six.dynamics_by_recursion && six.symbolic.is_none());
}

/// A floating base with a flap on `joint` (`fixed`, or `revolute(f)` with `f` declared
/// as the last of `extra` coordinates).
fn floating_json(joint: &str, extra: &str) -> String {
    format!(
        r#"{{
        "name": "Floating", "coordinates": ["x","y","z","a","b","c"{extra}], "parameters": ["g"],
        "gravity": ["0","0","-g"],
        "body": [
          {{"name":"base","mass":"3","inertia":["0.3","0.4","0.5","0.01","0.02","0.03"],"joint":"free(x, y, z, a, b, c)","origin":["0","0","1"],"com":["0.1","0","0"]}},
          {{"name":"flap","mass":"0.5","inertia":["0.01","0.02","0.03"],"parent":"base","joint":"{joint}",{}"origin":["0.2","0","0.1"],"com":["0","0","0.2"]}}
        ]}}"#,
        if joint == "fixed" {
            ""
        } else {
            r#""axis":["0.6","0.8","0"],"#
        }
    )
}

/// `T` from the links' velocities (half the sum of the energy and the Lagrangian
/// programs) against `½ q̇ᵀ M q̇` with `M` from the composite bodies, at `x`.
fn kinetic_energy_matches_the_mass_matrix(eq: &lagrange_symbolic::equations::Equations, x: &[f64]) {
    let n = eq.coordinates.len();
    let kinetic = (run(&eq.programs.energy, x)[0] + run(&eq.programs.lagrangian, x)[0]) / 2.0;
    let dynamics = run(&eq.programs.dynamics, x);
    let qd = &x[1 + n..1 + 2 * n];
    let quadratic: f64 = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| qd[i] * dynamics[i * n + j] * qd[j])
                .sum::<f64>()
        })
        .sum::<f64>()
        / 2.0;
    assert!(
        (kinetic - quadratic).abs() < 1e-12 * (1.0 + kinetic.abs()),
        "{}: T = {kinetic} from velocities, {quadratic} from M",
        eq.name
    );
}

#[test]
fn a_floating_base_with_a_hinged_flap_is_too_deep_to_expand() {
    let floating = model(&floating_json("revolute(f)", r#","f""#));
    let eq = derive(&floating).unwrap().full;
    assert!(eq.symbolic.is_none());
    // Gravity along z: the base's x and y are cyclic, and the tracer proves it.
    assert_eq!(eq.cyclic, vec![0, 1]);
    let mut sample = Sample(5);
    for _ in 0..3 {
        let mut x = vec![0.0];
        x.extend((0..14).map(|_| 2.0 * sample.next()));
        x.push(9.81);
        kinetic_energy_matches_the_mass_matrix(&eq, &x);
    }
    jacobians_match_differences(&eq, &[9.81], &mut sample);
}

/// A planar chain of `n` point masses on massless rods, relative angles, as a tree, in
/// the field `gravity`.
fn chain_in(n: usize, gravity: &str) -> (Model, Vec<f64>) {
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
        r#"{{"name":"Chain{n}","coordinates":[{}],"parameters":[{}],"gravity":{gravity},"body":[{}]}}"#,
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

fn chain(n: usize) -> (Model, Vec<f64>) {
    chain_in(n, r#"["0","-g","0"]"#)
}

#[test]
fn planar_chains() {
    for n in [2, 3] {
        let (chain, values) = chain(n);
        let start = std::time::Instant::now();
        let ops = agree(&chain, &values, 3);
        eprintln!("chain {n}: ops {ops} in {:?}", start.elapsed());
    }
    // Four links are past the expanded route's budget (an estimated 9·10⁴ terms).
    let four = derive(&chain(4).0).unwrap().full;
    assert!(four.dynamics_by_recursion && four.symbolic.is_none());
}

/// An arm of `k` revolute joints whose joint frames are turned alternately by
/// `(-a, 0, b)` and `(0, b, 0)` roll-pitch-yaw, where `a` and `b` are a quarter and a half
/// turn: written as Kinova's URDF writes them (`1.57079632679`, `3.14159265359`) or
/// exactly (`pi/2`, `pi`).
fn arm(k: usize, decimal: bool) -> Model {
    let (a, b) = if decimal {
        ("1.57079632679", "3.14159265359")
    } else {
        ("pi/2", "pi")
    };
    let bodies: Vec<String> = (1..=k)
        .map(|i| {
            let parent = if i == 1 { String::new() } else { format!(r#""parent":"b{}","#, i - 1) };
            let rpy = if i % 2 == 0 { format!(r#"["-{a}","0","{b}"]"#) } else { format!(r#"["0","{b}","0"]"#) };
            format!(
                r#"{{"name":"b{i}","mass":"{}","inertia":["0.01","0.02","0.015","0.001","0","0.002"],{parent}"joint":"revolute(q{i})","axis":["0","0","1"],"origin":["0","0.0016","-0.11875"],"rpy":{rpy},"com":["0.01","-0.002","-0.0605"]}}"#,
                1.0 + 0.1 * i as f64
            )
        })
        .collect();
    let coordinates: Vec<String> = (1..=k).map(|i| format!(r#""q{i}""#)).collect();
    model(&format!(
        r#"{{"name":"Arm","coordinates":[{}],"parameters":["g"],"gravity":["0","0","-g"],"body":[{}]}}"#,
        coordinates.join(","),
        bodies.join(",")
    ))
}

#[test]
fn a_tree_too_large_to_expand_that_must_be_expanded_is_refused_with_its_size() {
    // Routh's reduction needs the Lagrangian expanded: a chain of five links about
    // vertical axes (its first angle cyclic) is past the budget, and is refused before
    // its energy is built, naming the estimate and the reason.
    let (mut chain, _) = chain_in(5, r#"["0","0","-g"]"#);
    chain.ignore = vec!["q1".into()];
    let errors = derive(&chain).unwrap_err();
    let message = format!("{errors:?}");
    assert!(
        message.contains("terms once expanded") && message.contains("Routh's reduction"),
        "{message}"
    );
    // Without `ignore` the same chain is derived by its recursions, q1 found cyclic.
    chain.ignore.clear();
    let eq = derive(&chain).unwrap().full;
    assert!(eq.dynamics_by_recursion && eq.symbolic.is_none());
    assert_eq!(eq.cyclic, vec![0]);
}

#[test]
fn a_deep_arm_the_recursions_do_not_take_is_refused_before_its_poses_outgrow_memory() {
    // Twelve joints whose frames are turned by decimal angles, and a particle beside them:
    // not a tree the recursions derive, so it would be expanded, and its composed
    // rotations grow about ninefold per joint (this one took more than 3.5 GB before it
    // failed). The estimate stops composing them once past the budget and refuses it.
    let mut arm = arm(12, true);
    arm.particles.push(lagrange_symbolic::model::Particle {
        name: "p".into(),
        mass: "1".into(),
        position: vec!["q1".into(), "0".into(), "0".into()],
    });
    let message = format!("{:?}", derive(&arm).unwrap_err());
    assert!(
        message.contains("terms once expanded") && message.contains("without particles"),
        "{message}"
    );
    // Without the particle the recursions take it.
    arm.particles.clear();
    assert!(derive(&arm).unwrap().full.dynamics_by_recursion);
}

#[test]
fn a_shallow_arm_turned_by_decimal_angles_is_derived_by_its_recursions() {
    // The route is chosen by an estimate of the expanded kinetic energy's size that
    // depends on the poses' structure, not on how close an angle is to a quarter turn:
    // decimals near quarter turns, whose sines and cosines never fold, make the arm too
    // large to expand, however shallow (Kinova's six joints grew past 24 GB expanded).
    // Exact quarter turns fold to 0 and ±1, and the same arm is expanded; the two
    // derivations agree to the decimals' distance from the exact turns (about 5·10⁻¹²).
    let decimal = derive(&arm(3, true)).unwrap().full;
    assert!(decimal.dynamics_by_recursion && decimal.symbolic.is_none());
    let exact = derive(&arm(3, false)).unwrap().full;
    assert!(exact.symbolic.is_some());
    let mut sample = Sample(3);
    for _ in 0..4 {
        let mut inputs = vec![0.0];
        inputs.extend((0..6).map(|_| 2.0 * sample.next()));
        inputs.push(9.81);
        let (mut ours, mut theirs) = (vec![0.0; 12], vec![0.0; 12]);
        decimal.programs.dynamics.evaluate(&inputs, &mut ours);
        exact.programs.dynamics.evaluate(&inputs, &mut theirs);
        let scale = theirs.iter().fold(1.0f64, |m, x| m.max(x.abs()));
        for (a, b) in ours.iter().zip(&theirs) {
            assert!(
                (a - b).abs() <= 1e-10 * scale,
                "{ours:?} against {theirs:?}"
            );
        }
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
    // A floating body (six degrees of freedom deep) with a flap fixed to it.
    let floating = model(&floating_json("fixed", ""));
    agree(&floating, &[9.81], 3);
}

/// The same chain in absolute angles `θₖ = q₁ + … + qₖ`, `T` and `V` written from the
/// masses' positions `Σⱼ≤ₖ lⱼ (sin θⱼ, −cos θⱼ)`: derived by expanding its Lagrangian.
fn absolute_chain(n: usize) -> Model {
    let sum =
        |f: &dyn Fn(usize) -> String, k: usize| (1..=k).map(f).collect::<Vec<_>>().join(" + ");
    let kinetic = (1..=n)
        .map(|k| {
            let x = sum(&|j| format!("l{j}*cos(t{j})*dot(t{j})"), k);
            let y = sum(&|j| format!("l{j}*sin(t{j})*dot(t{j})"), k);
            format!("1/2*m{k}*(({x})^2 + ({y})^2)")
        })
        .collect::<Vec<_>>()
        .join(" + ");
    let height = |k| format!("m{k}*({})", sum(&|j| format!("l{j}*cos(t{j})"), k));
    let potential = format!(
        "-g*({})",
        (1..=n).map(height).collect::<Vec<_>>().join(" + ")
    );
    Model {
        name: format!("Absolute{n}"),
        coordinates: (1..=n).map(|i| format!("t{i}")).collect(),
        parameters: (1..=n)
            .map(|i| format!("m{i}"))
            .chain((1..=n).map(|i| format!("l{i}")))
            .chain(["g".to_string()])
            .collect(),
        kinetic: Some(kinetic),
        potential: Some(potential),
        ..Model::default()
    }
}

fn run(program: &lagrange_symbolic::ir::Program, inputs: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; program.outputs];
    program.evaluate(inputs, &mut out);
    out
}

/// Central differences of `program`'s outputs along input `k`, row-major by output.
fn differences(program: &lagrange_symbolic::ir::Program, x: &[f64], k: usize) -> Vec<f64> {
    let h = 1e-6;
    let (mut up, mut down) = (x.to_vec(), x.to_vec());
    up[k] += h;
    down[k] -= h;
    run(program, &up)
        .iter()
        .zip(run(program, &down))
        .map(|(a, b)| (a - b) / (2.0 * h))
        .collect()
}

#[test]
fn a_chain_too_deep_to_expand_moves_as_the_chain_in_absolute_angles() {
    use lagrange_symbolic::EXPANDED_TREE_DEPTH;
    use lagrange_symbolic::equations::Conserved;
    let n = EXPANDED_TREE_DEPTH + 2;
    // Gravity along x: the tree's masses sit at Σ lⱼ (cos θⱼ, sin θⱼ).
    let (tree, parameters) = chain_in(n, r#"["g","0","0"]"#);
    let start = std::time::Instant::now();
    let traced = derive(&tree).unwrap();
    eprintln!("chain of {n} as a tree derived in {:?}", start.elapsed());
    let traced = traced.full;
    assert!(traced.symbolic.is_none() && traced.dynamics_by_recursion);
    assert_eq!(traced.conserved, Conserved::Energy);
    assert!(traced.cyclic.is_empty());
    let expanded = derive(&absolute_chain(n)).unwrap().full;
    let mut sample = Sample(17);
    for _ in 0..4 {
        let q: Vec<f64> = (0..n).map(|_| 2.0 * sample.next()).collect();
        let qd: Vec<f64> = (0..n).map(|_| sample.next()).collect();
        let qdd: Vec<f64> = (0..n).map(|_| sample.next()).collect();
        let cumulative = |x: &[f64]| -> Vec<f64> {
            x.iter()
                .scan(0.0, |acc, v| {
                    *acc += v;
                    Some(*acc)
                })
                .collect()
        };
        let state = |q: &[f64], qd: &[f64]| -> Vec<f64> {
            let mut x = vec![0.0];
            x.extend(q);
            x.extend(qd);
            x.extend(&parameters);
            x
        };
        let (x_tree, x_abs) = (state(&q, &qd), state(&cumulative(&q), &cumulative(&qd)));
        kinetic_energy_matches_the_mass_matrix(&traced, &x_tree);
        let close = |a: f64, b: f64, what: &str| {
            assert!(
                (a - b).abs() < 1e-11 * (1.0 + b.abs()),
                "{what}: {a} traced, {b} expanded"
            );
        };
        for (program, other, what) in [
            (
                &traced.programs.lagrangian,
                &expanded.programs.lagrangian,
                "L",
            ),
            (&traced.programs.energy, &expanded.programs.energy, "E"),
            (
                &traced.programs.jacobi_integral,
                &expanded.programs.jacobi_integral,
                "h",
            ),
        ] {
            close(run(program, &x_tree)[0], run(other, &x_abs)[0], what);
        }
        // Generalized forces and momenta transform with Aᵀ: (Aᵀ v)ᵢ = Σₖ≥ᵢ vₖ.
        let suffix = |v: &[f64]| -> Vec<f64> { (0..n).map(|i| v[i..].iter().sum()).collect() };
        let residual = |dynamics: &[f64], a: &[f64]| -> Vec<f64> {
            (0..n)
                .map(|i| {
                    (0..n).map(|j| dynamics[i * n + j] * a[j]).sum::<f64>() - dynamics[n * n + i]
                })
                .collect()
        };
        let r_tree = residual(&run(&traced.programs.dynamics, &x_tree), &qdd);
        let r_abs = residual(&run(&expanded.programs.dynamics, &x_abs), &cumulative(&qdd));
        for (a, b) in r_tree.iter().zip(suffix(&r_abs)) {
            close(*a, b, "M q'' - f");
        }
        let p_abs = run(&expanded.programs.momenta, &x_abs);
        for (a, b) in run(&traced.programs.momenta, &x_tree)
            .iter()
            .zip(suffix(&p_abs))
        {
            close(*a, b, "p");
        }
        // The traced derivatives against differences of the traced programs.
        let rate = run(&traced.programs.momentum_rate, &x_tree);
        let jacobian = run(&traced.programs.momentum_jacobian, &x_tree);
        let hessian = run(&traced.programs.lagrangian_hessian, &x_tree);
        for j in 0..n {
            let dl = differences(&traced.programs.lagrangian, &x_tree, 1 + j);
            assert!(
                (rate[j] - dl[0]).abs() < 1e-6 * (1.0 + dl[0].abs()),
                "dL/dq{j}"
            );
            let dp = differences(&traced.programs.momenta, &x_tree, 1 + j);
            let dg = differences(&traced.programs.momentum_rate, &x_tree, 1 + j);
            for i in 0..n {
                assert!(
                    (jacobian[i * n + j] - dp[i]).abs() < 1e-6 * (1.0 + dp[i].abs()),
                    "dp{i}/dq{j}"
                );
                assert!(
                    (hessian[i * n + j] - dg[i]).abs() < 1e-5 * (1.0 + dg[i].abs()),
                    "d2L/dq{i}dq{j}"
                );
            }
        }
    }
    jacobians_match_differences(&traced, &parameters, &mut sample);
    // Without gravity the first joint is cyclic, and the tracer proves it.
    let (free, _) = chain_in(n, r#"["0","0","0"]"#);
    let free = derive(&free).unwrap().full;
    assert_eq!(free.cyclic, vec![0]);
}

#[test]
fn a_deep_tree_keeps_its_constraints_inputs_and_forces() {
    // The chain of 8 with its tip held on the line x = c (a loop closed by a constraint),
    // a motor torque u on the first joint and damping on the last.
    let n = lagrange_symbolic::EXPANDED_TREE_DEPTH + 2;
    let (mut tree, mut parameters) = chain_in(n, r#"["g","0","0"]"#);
    let angle = |k: usize| {
        (1..=k)
            .map(|j| format!("q{j}"))
            .collect::<Vec<_>>()
            .join(" + ")
    };
    let tip: Vec<String> = (1..=n).map(|k| format!("l{k}*cos({})", angle(k))).collect();
    tree.constraints = vec![format!("{} - c", tip.join(" + "))];
    tree.parameters
        .extend(["c".to_string(), "u".to_string(), "d".to_string()]);
    tree.inputs = vec!["u".to_string()];
    tree.forces = vec![("q1".to_string(), "u".to_string())];
    tree.dissipation = Some(format!("1/2*d*dot(q{n})^2"));
    parameters.extend([2.0, 0.3, 0.1]);
    let eq = derive(&tree).unwrap().full;
    assert!(eq.symbolic.is_none() && eq.constraints.is_some());
    assert!(eq.forced_or_dissipative);
    assert_eq!(eq.conserved, lagrange_symbolic::equations::Conserved::None);
    assert!(eq.cyclic.is_empty(), "{:?}", eq.cyclic);
    // f carries u on q1 and −d q̇ₙ on qₙ beside the tree's own terms.
    let mut x = vec![0.0];
    x.extend((0..2 * n).map(|i| 0.1 * i as f64 - 0.4));
    x.extend(&parameters);
    let with = run(&eq.programs.dynamics, &x);
    let (u, d) = (parameters[2 * n + 2], parameters[2 * n + 3]);
    let mut without_terms = x.clone();
    without_terms[1 + 2 * n + 2 * n + 2] = 0.0;
    without_terms[1 + 2 * n + 2 * n + 3] = 0.0;
    let without = run(&eq.programs.dynamics, &without_terms);
    let qd_last = x[2 * n];
    for i in 0..n {
        let expected = match i {
            0 => u,
            i if i == n - 1 => -d * qd_last,
            _ => 0.0,
        };
        let added = with[n * n + i] - without[n * n + i];
        assert!(
            (added - expected).abs() < 1e-12,
            "f[{i}] gained {added}, not {expected}"
        );
    }
}

/// Forward-mode derivatives of `program`'s outputs along the inputs `1 … n` (the
/// coordinates), row-major by output: the reference for the analytical derivatives.
fn along_coordinates(
    program: &lagrange_symbolic::ir::Program,
    n: usize,
) -> lagrange_symbolic::ir::Program {
    use lagrange_symbolic::ir::trace::{Tracer, Value};
    let mut t = Tracer::new(program.inputs);
    let values: Vec<Value> = (0..program.inputs).map(|i| t.input(i)).collect();
    let seeds: Vec<Vec<Value>> = (0..program.inputs)
        .map(|i| {
            (0..n)
                .map(|k| if i == 1 + k { Value::ONE } else { Value::ZERO })
                .collect()
        })
        .collect();
    let outputs: Vec<Value> = t
        .differentiate(program, &values, &seeds)
        .into_iter()
        .flat_map(|(_, tangents)| tangents)
        .collect();
    t.finish(&outputs)
}

#[test]
fn a_branched_spatial_tree_has_the_energy_derivatives_of_its_lagrangian_and_momenta() {
    // A free base with two branches: a flap on an oblique hinge, and a slider on an oblique
    // rail carrying a hinged arm; gravity oblique; a written potential coupling three
    // coordinates. Too deep to expand: ∂L/∂q, ∂p/∂q and ∂²L/∂q² come from the analytical
    // formulas, checked against forward mode over the traced L and p (and L twice).
    let tree = model(
        r#"{
        "name": "Branched", "coordinates": ["x","y","z","a","b","c","f","s","r"],
        "parameters": ["g","k"], "gravity": ["0.3*g","-0.2*g","-g"],
        "potential": "1/2*k*(f - 0.3)^2 + k*s*r^2 + k*z*s",
        "body": [
          {"name":"base","mass":"3","inertia":["0.3","0.4","0.5","0.01","0.02","0.03"],"joint":"free(x, y, z, a, b, c)","origin":["0","0","1"],"com":["0.1","0","0"]},
          {"name":"flap","mass":"0.5","inertia":["0.01","0.02","0.03"],"parent":"base","joint":"revolute(f)","axis":["0.6","0.8","0"],"origin":["0.2","0","0.1"],"com":["0","0","0.2"]},
          {"name":"slider","mass":"0.7","inertia":["0.02","0.01","0.03","0.001","0","0.002"],"parent":"base","joint":"prismatic(s)","axis":["0","0.6","0.8"],"origin":["-0.1","0.2","0"],"rpy":["0.1","0.2","0.3"],"com":["0.05","0","0"]},
          {"name":"arm","mass":"k","inertia":["0.04","0.05","0.01"],"parent":"slider","joint":"revolute(r)","axis":["1","0","0"],"origin":["0","0.3","0"],"com":["0","0.15","0.02"]}
        ]}"#,
    );
    let eq = derive(&tree).unwrap().full;
    assert!(eq.symbolic.is_none() && eq.dynamics_by_recursion);
    let n = 9;
    let p_reference = along_coordinates(&eq.programs.momenta, n);
    let l_gradient = along_coordinates(&eq.programs.lagrangian, n);
    let l_reference = along_coordinates(&l_gradient, n);
    let mut sample = Sample(29);
    for _ in 0..5 {
        let mut x = vec![sample.next()];
        x.extend((0..2 * n).map(|_| 2.0 * sample.next()));
        x.extend([9.81, 1.3]);
        for (program, reference, what) in [
            (&eq.programs.momentum_rate, &l_gradient, "ṗ = ∂L/∂q"),
            (&eq.programs.momentum_jacobian, &p_reference, "∂p/∂q"),
            (&eq.programs.lagrangian_hessian, &l_reference, "∂²L/∂q²"),
        ] {
            let (ours, theirs) = (run(program, &x), run(reference, &x));
            let scale = theirs.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
                assert!(
                    (a - b).abs() < 1e-12 * scale,
                    "{what} ({}, {}): {a} analytical, {b} by forward mode",
                    i / n,
                    i % n
                );
            }
        }
    }
}

//! The benchmark bicycle: the Whipple model of Meijaard, Papadopoulos, Ruina and Schwab,
//! "Linearized dynamics equations for the balance and steer of a bicycle: a benchmark and
//! review", Proc. R. Soc. A 463 (2007) 1955–1982, with their parameters (Table 1). Four
//! bodies (a rear frame with a rigid rider, a front frame, two wheels) as a tree of joints
//! from the rear contact point; the two wheels `roll` on the ground (four velocity
//! constraints, from their poses) and the front wheel touching it is one holonomic
//! constraint, written out. The example linearizes the upright straight run at speed `v`
//! on the constraints' tangent space, reads off the lean and steer equations
//! `M q̈ + v C₁ q̇ + (g K₀ + v² K₂) q = 0`, `q = (φ, δ)`, prints them beside the paper's, and
//! finds the self-stable range's bounds (the weave and capsize speeds); then it rides the
//! nonlinear bicycle at 5 m/s after a push. `tests/bicycle.rs` checks all of it against
//! the paper.
//!
//! `cargo run --release --example bicycle`

use lagrange::nalgebra::{Matrix2, Matrix4, SVector, Vector2};
use lagrange::{
    ConstrainedSystem, IndependentSpeeds, Integrator, Lagrangian, LagrangianSystem, Simulation,
    linearize_constrained,
};

/// The bicycle (x forward, y left, z up; the paper's z points down, so its heights `zB`,
/// `zH` and products `I_xz` change sign in the expressions).
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y, psi, phi, theta, delta, thetaR, thetaF),
    body(name = along, mass = "0", inertia = ["0", "0", "0"], joint = prismatic(x),
         axis = ["1", "0", "0"]),
    body(name = across, mass = "0", inertia = ["0", "0", "0"], parent = along,
         joint = prismatic(y), axis = ["0", "1", "0"]),
    body(name = heading, mass = "0", inertia = ["0", "0", "0"], parent = across,
         joint = revolute(psi), axis = ["0", "0", "1"]),
    body(name = lean, mass = "0", inertia = ["0", "0", "0"], parent = heading,
         joint = revolute(phi), axis = ["1", "0", "0"]),
    body(name = rear_wheel, mass = "mR", inertia = ["IRxx", "IRxx", "IRyy"], parent = lean,
         joint = revolute(thetaR), origin = ["0", "0", "rR"], rpy = ["-pi/2", "0", "0"],
         axis = ["0", "0", "1"], rolls = "rR"),
    body(name = rear_frame, mass = "mB", inertia = ["IBxx", "IByy", "IBzz", "0", "-IBxz", "0"],
         parent = lean, joint = revolute(theta), origin = ["0", "0", "rR"],
         axis = ["0", "1", "0"], com = ["xB", "0", "-zB - rR"]),
    body(name = steer, mass = "0", inertia = ["0", "0", "0"], parent = rear_frame,
         joint = revolute(delta), origin = ["w + c", "0", "-rR"], rpy = ["0", "-lambda", "0"],
         axis = ["0", "0", "-1"]),
    body(name = front_frame, mass = "mH", inertia = ["IHxx", "IHyy", "IHzz", "0", "-IHxz", "0"],
         parent = steer, joint = fixed, rpy = ["0", "lambda", "0"],
         com = ["xH - w - c", "0", "-zH"]),
    body(name = front_wheel, mass = "mF", inertia = ["IFxx", "IFxx", "IFyy"], parent = front_frame,
         joint = revolute(thetaF), origin = ["-c", "0", "rF"], rpy = ["-pi/2", "0", "0"],
         axis = ["0", "0", "1"], rolls = "rF"),
    constraint = "(rR*cos(phi) - ((w + c)*sin(theta) + rR*cos(theta))*cos(phi)
         - (rF*sin(lambda) - c*cos(lambda))*sin(delta)*sin(phi)
         + ((rF*sin(lambda) - c*cos(lambda))*cos(delta)*sin(lambda - theta)
            + (rF*cos(lambda) + c*sin(lambda))*cos(lambda - theta))*cos(phi))^2
         - rF^2*(1 - (sin(phi)*cos(delta) + cos(phi)*sin(delta)*sin(lambda - theta))^2)",
    gravity = ["0", "0", "-g"]
)]
#[allow(non_snake_case)]
pub struct Bicycle {
    pub w: f64,
    pub c: f64,
    pub lambda: f64,
    pub g: f64,
    pub rR: f64,
    pub mR: f64,
    pub IRxx: f64,
    pub IRyy: f64,
    pub xB: f64,
    pub zB: f64,
    pub mB: f64,
    pub IBxx: f64,
    pub IByy: f64,
    pub IBzz: f64,
    pub IBxz: f64,
    pub xH: f64,
    pub zH: f64,
    pub mH: f64,
    pub IHxx: f64,
    pub IHyy: f64,
    pub IHzz: f64,
    pub IHxz: f64,
    pub rF: f64,
    pub mF: f64,
    pub IFxx: f64,
    pub IFyy: f64,
}

/// The benchmark's parameters (Meijaard et al. 2007, Table 1).
pub fn benchmark() -> Bicycle {
    Bicycle {
        w: 1.02,
        c: 0.08,
        lambda: std::f64::consts::PI / 10.0,
        g: 9.81,
        rR: 0.3,
        mR: 2.0,
        IRxx: 0.0603,
        IRyy: 0.12,
        xB: 0.3,
        zB: -0.9,
        mB: 85.0,
        IBxx: 9.2,
        IByy: 11.0,
        IBzz: 2.8,
        IBxz: 2.4,
        xH: 0.9,
        zH: -0.7,
        mH: 4.0,
        IHxx: 0.05892,
        IHyy: 0.06,
        IHzz: 0.00708,
        IHxz: -0.00756,
        rF: 0.35,
        mF: 3.0,
        IFxx: 0.1405,
        IFyy: 0.28,
    }
}

pub type State = SVector<f64, 8>;
pub const PHI: usize = 3;
pub const DELTA: usize = 5;
pub const THETA_R: usize = 6;

/// The published matrices (Meijaard et al. 2007, §5, to 14 digits).
pub const M: [[f64; 2]; 2] = [
    [80.81722, 2.31941332208709],
    [2.31941332208709, 0.29784188199686],
];
pub const C1: [[f64; 2]; 2] = [
    [0.0, 33.86641391492494],
    [-0.85035641456978, 1.68540397397560],
];
pub const K0: [[f64; 2]; 2] = [
    [-80.95, -2.59951685249872],
    [-2.59951685249872, -0.80329488458618],
];
pub const K2: [[f64; 2]; 2] = [[0.0, 76.59734589573222], [0.0, 2.65431523794604]];

/// The upright straight run at speed `v` of the rear contact: the wheels turn at `v/r`.
pub fn upright(bike: &Bicycle, v: f64) -> (State, State) {
    let mut qd = State::zeros();
    qd[0] = v;
    qd[THETA_R] = v / bike.rR;
    qd[7] = v / bike.rF;
    (State::zeros(), qd)
}

/// The lean and steer dynamics at speed `v`: `M`, Kane's generalized inertia of the
/// independent speeds `(φ̇, δ̇)` (with the rear wheel's rate the third), and `K`, `C` from
/// `−M⁻¹K`, `−M⁻¹C`, the responses of `(φ̈, δ̈)` to `(φ, δ)` and `(φ̇, δ̇)` in the
/// linearization in minimal variables.
pub struct Reduced {
    /// `M`.
    pub mass: Matrix2<f64>,
    /// `K` (`g K₀ + v² K₂` in the paper).
    pub stiffness: Matrix2<f64>,
    /// `C` (`v C₁` in the paper).
    pub damping: Matrix2<f64>,
}

/// [`Reduced`] at the upright straight run at speed `v`.
pub fn reduced(bike: &Bicycle, v: f64) -> Result<Reduced, lagrange::Error> {
    let (q, qd) = upright(bike, v);
    bike.check_consistent(0.0, &q, &qd, 1e-14)?;
    let speeds = IndependentSpeeds::named(bike, &["phi", "delta", "thetaR"])?;
    // Minimal variables: x, y, ψ, φ, δ, θ_R, θ_F (the pitch θ follows from the front
    // contact), then the speeds φ̇, δ̇, θ̇_R (the other velocities from the constraints).
    let minimal = linearize_constrained(bike, 0.0, &q, &qd)?
        .minimal(&[0, 1, 2, PHI, DELTA, THETA_R, 7], speeds.independent())?;
    let (lean, steer, lean_rate, steer_rate) = (3, 4, 7, 8);
    let response = |column: usize| {
        Vector2::new(
            minimal.a[(lean_rate, column)],
            minimal.a[(steer_rate, column)],
        )
    };
    let stiffness = Matrix2::from_columns(&[response(lean), response(steer)]);
    let damping = Matrix2::from_columns(&[response(lean_rate), response(steer_rate)]);
    let inertia = speeds.generalized_inertia(bike, 0.0, &q, &qd)?;
    let mass = Matrix2::from_fn(|i, j| inertia[(i, j)]);
    Ok(Reduced {
        mass,
        stiffness: -(mass * stiffness),
        damping: -(mass * damping),
    })
}

/// The eigenvalues of the lean and steer motion at speed `v`, sorted by real part then
/// imaginary part.
pub fn eigenvalues(bike: &Bicycle, v: f64) -> Result<Vec<(f64, f64)>, lagrange::Error> {
    let r = reduced(bike, v)?;
    let inverse = r.mass.try_inverse().ok_or_else(|| {
        lagrange::Error::InvalidInput(format!("the lean and steer inertia is singular at {v} m/s"))
    })?;
    let (k, c) = (-(inverse * r.stiffness), -(inverse * r.damping));
    #[rustfmt::skip]
    let state = Matrix4::new(
        0.0, 0.0, 1.0, 0.0,
        0.0, 0.0, 0.0, 1.0,
        k[(0, 0)], k[(0, 1)], c[(0, 0)], c[(0, 1)],
        k[(1, 0)], k[(1, 1)], c[(1, 0)], c[(1, 1)],
    );
    let mut values: Vec<(f64, f64)> = state
        .complex_eigenvalues()
        .iter()
        .map(|z| (z.re, z.im))
        .collect();
    values.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    Ok(values)
}

/// The speed in `(low, high)` where the largest real part of an eigenvalue of the lean and
/// steer motion changes sign, by bisection to `10⁻¹³` m/s.
pub fn boundary(bike: &Bicycle, mut low: f64, mut high: f64) -> Result<f64, lagrange::Error> {
    let abscissa = |v: f64| -> Result<f64, lagrange::Error> {
        Ok(eigenvalues(bike, v)?
            .iter()
            .map(|z| z.0)
            .fold(f64::NEG_INFINITY, f64::max))
    };
    let rising = abscissa(high)? > abscissa(low)?;
    while high - low > 1e-13 {
        let middle = 0.5 * (low + high);
        if (abscissa(middle)? > 0.0) == rising {
            high = middle;
        } else {
            low = middle;
        }
    }
    Ok(0.5 * (low + high))
}

fn main() -> Result<(), lagrange::Error> {
    let bike = benchmark();
    let still = reduced(&bike, 0.0)?;
    let one = reduced(&bike, 1.0)?;
    let ours = [
        ("M", still.mass),
        ("C1", one.damping),
        ("K0", still.stiffness / bike.g),
        ("K2", one.stiffness - still.stiffness),
    ];
    println!(
        "{:>6} {:>22} {:>22} {:>9}",
        "entry", "lagrange", "Meijaard et al.", "rel. diff"
    );
    for ((name, got), want) in ours.iter().zip([M, C1, K0, K2]) {
        for (i, j) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            let difference = (got[(i, j)] - want[i][j]).abs() / want[i][j].abs().max(1.0);
            println!(
                "{:>6} {:>22.14} {:>22.14} {difference:>9.1e}",
                format!("{name}[{i}{j}]"),
                got[(i, j)],
                want[i][j]
            );
        }
    }
    println!("\n  v (m/s)  eigenvalues of the lean and steer motion");
    for v in 0..=10 {
        let values: Vec<String> = eigenvalues(&bike, v as f64)?
            .iter()
            .map(|&(re, im)| match im {
                0.0 => format!("{re:.6}"),
                _ => format!("{re:.6}{im:+.6}i"),
            })
            .collect();
        println!("{v:>9}  {}", values.join(", "));
    }
    let weave = boundary(&bike, 4.0, 5.0)?;
    let capsize = boundary(&bike, 6.0, 7.0)?;
    println!("\nself-stable from the weave speed {weave:.12} m/s (paper 4.29238253634111)");
    println!("          to the capsize speed {capsize:.12} m/s (paper 6.02426201538837)");
    let (mut q, mut qd) = upright(&bike, 5.0);
    qd[PHI] = 0.5;
    let energy = bike.energy(0.0, &q, &qd);
    let trajectory = Simulation::new(&bike)
        .integrator(Integrator::dormand_prince(1e-10, 1e-10))
        .run(0.0, q, qd, 5.0)?;
    (_, q, qd) = trajectory.last().expect("a run has points");
    println!(
        "\npushed at 5 m/s (roll rate 0.5 rad/s): after 5 s lean {:.2e} rad, steer {:.2e} rad, heading {:.3} rad; energy kept to {:.1e}, constraints to {:.1e}",
        q[PHI],
        q[DELTA],
        q[2],
        (bike.energy(5.0, &q, &qd) - energy).abs() / energy,
        bike.constraint_values(5.0, &q).amax() + bike.constraint_velocities(5.0, &q, &qd).amax()
    );
    Ok(())
}

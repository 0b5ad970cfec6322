//! Kinetic energy of point masses and rigid bodies: `½ m |ṙ|²` for a particle,
//! `½ m |v_c|² + ½ ωᵀ I ω` for a body, with the body-frame angular velocity from
//! `ω× = Rᵀ Ṙ`. Velocities are total time derivatives of the given positions.

use super::rotation::{self, ExprArithmetic};
use crate::cas::{Session, Sym, Var};
use crate::model::{
    Axis, CheckedJoint, CheckedModel, CheckedParticle, Matrix3, Orientation, Placement,
};
use crate::syntax::Expr;

/// `de/dt = ∂e/∂t + Σⱼ ∂e/∂qⱼ q̇ⱼ` over the model's `n` coordinates.
pub(super) fn time_derivative(s: &Session, e: &Sym, n: usize) -> Sym {
    (0..n).fold(e.diff(Var::Time), |acc, j| {
        &acc + &(&e.diff(Var::Coordinate(j)) * &s.var(Var::Velocity(j)))
    })
}

/// `½ m |ṙ|²`.
fn translational(s: &Session, mass: &Sym, position: &[Sym], n: usize) -> Sym {
    let speed2 = position.iter().fold(s.int(0), |acc, x| {
        let v = time_derivative(s, x, n);
        &acc + &(&v * &v)
    });
    &(&s.half() * mass) * &speed2
}

/// Where a body is and how it turns, as the mechanics needs it.
pub(crate) struct Pose {
    /// The orientation `R` (body frame → fixed frame).
    pub(super) r: [[Sym; 3]; 3],
    /// The body-frame angular velocity.
    pub(super) omega: [Sym; 3],
    /// The body frame's origin (where its children's joints are placed from).
    pub(super) origin: [Sym; 3],
    /// The centre of mass.
    pub(super) com: [Sym; 3],
}

/// The poses of the model's bodies, in order: a body placed by `rotation` and `position`
/// as given; a jointed body composed from its parent's, `R = R_p R_rpy R_joint`,
/// `ω = R_jointᵀ R_rpyᵀ ω_p + a q̇` (revolute), its frame origin at the parent's origin
/// plus `R_p origin` (plus `R_p R_rpy a q` for a prismatic joint), and its centre of mass
/// at `origin + R com`. The composition reuses the parent's expressions. The recursions
/// compose the same frames on traced numbers, one link per degree of freedom and
/// `R_p (R_rpy R_joint)`: `recursive::tree::{place, world}`.
pub(crate) fn poses(s: &Session, model: &CheckedModel) -> Result<Vec<Pose>, String> {
    poses_while(s, model, |_, _| true)
}

// Longer than 120 lines because it is one composition of each body's pose from its
// parent's, one joint kind per arm, through small local matrix helpers over the session
// (`times`, `product`, `fixed`, `turn`) that every arm shares.
/// [`poses`] in order while `keep` accepts each body's: the composition stops after the
/// first pose it refuses (returned last), before a child multiplies it again.
fn poses_while(
    s: &Session,
    model: &CheckedModel,
    mut keep: impl FnMut(usize, &Pose) -> bool,
) -> Result<Vec<Pose>, String> {
    let n = model.coordinates.len();
    let vector = |e: &[Expr; 3]| -> Result<[Sym; 3], String> {
        Ok([s.expr(&e[0])?, s.expr(&e[1])?, s.expr(&e[2])?])
    };
    let times = |m: &[[Sym; 3]; 3], v: &[Sym; 3]| -> [Sym; 3] {
        std::array::from_fn(|i| (0..3).fold(s.int(0), |acc, k| &acc + &(&m[i][k] * &v[k])))
    };
    let transposed_times = |m: &[[Sym; 3]; 3], v: &[Sym; 3]| -> [Sym; 3] {
        std::array::from_fn(|i| (0..3).fold(s.int(0), |acc, k| &acc + &(&m[k][i] * &v[k])))
    };
    let product = |a: &[[Sym; 3]; 3], b: &[[Sym; 3]; 3]| -> [[Sym; 3]; 3] {
        std::array::from_fn(|i| {
            std::array::from_fn(|j| (0..3).fold(s.int(0), |acc, k| &acc + &(&a[i][k] * &b[k][j])))
        })
    };
    let plus = |a: &[Sym; 3], b: &[Sym; 3]| -> [Sym; 3] { std::array::from_fn(|i| &a[i] + &b[i]) };
    let fixed = |m: &Matrix3| -> Result<[[Sym; 3]; 3], String> {
        let rows = matrix(s, m)?;
        Ok(std::array::from_fn(|i| {
            std::array::from_fn(|j| rows[i][j].clone())
        }))
    };
    // The rotation `R_z(a) R_y(b) R_x(c)` of a spherical joint after `r`, and the
    // body-frame angular velocity `ω ← Rᵢᵀ ω + eᵢ q̇ᵢ` factor by factor from `omega`.
    let turn = |r: &[[Sym; 3]; 3], mut omega: [Sym; 3], [a, b, c]: [usize; 3]| {
        let mut r = r.clone();
        for (axis, q) in [(Axis::Z, a), (Axis::Y, b), (Axis::X, c)] {
            let angle = Expr::Name(model.coordinates[q].clone());
            let factor = fixed(&rotation::about(axis, &angle))?;
            r = product(&r, &factor);
            omega = transposed_times(&factor, &omega);
            let k = axis as usize;
            omega[k] = &omega[k] + &s.var(Var::Velocity(q));
        }
        Ok::<_, String>((r, omega))
    };
    let mut poses: Vec<Pose> = Vec::new();
    for body in &model.bodies {
        let pose = match &body.placement {
            Placement::Given {
                orientation,
                position,
            } => {
                let com = vector(position)?;
                Pose {
                    r: fixed(&rotation::matrix(orientation))?,
                    omega: angular_velocity(s, orientation, n)?,
                    origin: com.clone(),
                    com,
                }
            }
            Placement::Jointed {
                parent,
                joint,
                origin,
                rpy,
                com,
            } => {
                let zero = || [s.int(0), s.int(0), s.int(0)];
                let (r_p, omega_p, origin_p) = match parent {
                    Some(p) => (
                        poses[*p].r.clone(),
                        poses[*p].omega.clone(),
                        poses[*p].origin.clone(),
                    ),
                    None => (
                        std::array::from_fn(|i| std::array::from_fn(|j| s.int(i64::from(i == j)))),
                        zero(),
                        zero(),
                    ),
                };
                let r_rpy = fixed(&rotation::roll_pitch_yaw(rpy))?;
                let r_joint_frame = product(&r_p, &r_rpy);
                let omega_joint_frame = transposed_times(&r_rpy, &omega_p);
                let joint_origin = plus(&origin_p, &times(&r_p, &vector(origin)?));
                let (r, omega, frame_origin) = match &**joint {
                    CheckedJoint::Revolute(q, axis) => {
                        let angle = Expr::Name(model.coordinates[*q].clone());
                        let r_joint =
                            fixed(&rotation::about_axis(&mut ExprArithmetic, axis, &angle))?;
                        let a = vector(axis)?;
                        let qd = s.var(Var::Velocity(*q));
                        let turned = transposed_times(&r_joint, &omega_joint_frame);
                        let omega = std::array::from_fn(|i| &turned[i] + &(&a[i] * &qd));
                        (product(&r_joint_frame, &r_joint), omega, joint_origin)
                    }
                    CheckedJoint::Prismatic(q, axis) => {
                        let a = vector(axis)?;
                        let shift = s.var(Var::Coordinate(*q));
                        let slide: [Sym; 3] = std::array::from_fn(|i| &a[i] * &shift);
                        let frame_origin = plus(&joint_origin, &times(&r_joint_frame, &slide));
                        (r_joint_frame, omega_joint_frame, frame_origin)
                    }
                    CheckedJoint::Fixed => (r_joint_frame, omega_joint_frame, joint_origin),
                    CheckedJoint::Spherical([a, b, c]) => {
                        let (r, omega) = turn(&r_joint_frame, omega_joint_frame, [*a, *b, *c])?;
                        (r, omega, joint_origin)
                    }
                    CheckedJoint::Free([x, y, z, a, b, c]) => {
                        let shift: [Sym; 3] = [*x, *y, *z].map(|k| s.var(Var::Coordinate(k)));
                        let frame_origin = plus(&joint_origin, &times(&r_joint_frame, &shift));
                        let (r, omega) = turn(&r_joint_frame, omega_joint_frame, [*a, *b, *c])?;
                        (r, omega, frame_origin)
                    }
                };
                let com = plus(&frame_origin, &times(&r, &vector(com)?));
                Pose {
                    r,
                    omega,
                    origin: frame_origin,
                    com,
                }
            }
        };
        let kept = keep(poses.len(), &pose);
        poses.push(pose);
        if !kept {
            break;
        }
    }
    Ok(poses)
}

/// An estimate from above of the number of terms the bodies' kinetic energy has once
/// expanded, read off their poses before it is built: for each body
/// `b(m) b(v)² + b(I) b(ω)²`, where `b` is the bound on an expression's expanded terms
/// ([`Sym::expansion_bound`]: sums add, products multiply, nothing cancels), `b(ω)` and
/// `b(v)` sum over components, and a velocity component has at most `2k + 1` terms for
/// each of its position's (a sine or cosine of each of the `k` coordinates the body's
/// pose depends on, and time, differentiated by the product rule). It depends on the
/// poses' structure, not on their numbers: a decimal near a quarter turn (`1.5707963`,
/// whose cosine never vanishes) counts as any other angle. Saturates.
///
/// The poses are composed only while the estimate and every orientation's terms (which
/// a child's pose multiplies) stay within `limit`: past it, the estimate so far, above
/// `limit`, is returned, so that a chain whose composed rotations would outgrow memory
/// (each turned joint frame multiplies their size) is measured without being built.
pub(crate) fn expanded_terms(s: &Session, model: &CheckedModel, limit: u64) -> Result<u64, String> {
    let n = model.coordinates.len() as u64;
    let bound = |xs: &mut dyn Iterator<Item = &Sym>| {
        xs.map(Sym::expansion_bound).fold(0, u64::saturating_add)
    };
    // The mass's and the largest inertia entry's terms, body by body.
    let mut data: Vec<(u64, u64)> = Vec::with_capacity(model.bodies.len());
    for body in &model.bodies {
        let inertia = matrix(s, &body.inertia)?
            .iter()
            .flatten()
            .map(Sym::expansion_bound)
            .max()
            .unwrap_or(0);
        data.push((s.expr(&body.mass)?.expansion_bound(), inertia));
    }
    // The coordinates a jointed body's pose depends on: its joints' down from the root.
    let mut path: Vec<u64> = Vec::with_capacity(model.bodies.len());
    let mut total: u64 = 0;
    poses_while(s, model, |b, pose| {
        let moving = match &model.bodies[b].placement {
            Placement::Jointed { parent, joint, .. } => {
                joint.coordinate_count() as u64 + parent.map_or(0, |p| path[p])
            }
            Placement::Given { .. } => n,
        };
        path.push(moving);
        let (mass, inertia) = data[b];
        let velocity = bound(&mut pose.com.iter()).saturating_mul(2 * moving + 1);
        let omega = bound(&mut pose.omega.iter());
        let body_terms = mass
            .saturating_mul(velocity.saturating_mul(velocity))
            .saturating_add(inertia.saturating_mul(omega.saturating_mul(omega)));
        total = total.saturating_add(body_terms);
        let rotation = bound(&mut pose.r.iter().flatten());
        total = total.max(rotation);
        total <= limit
    })?;
    Ok(total)
}

/// The kinetic energy that the model's particles and bodies (at their `poses`) contribute.
pub(crate) fn of_bodies(s: &Session, model: &CheckedModel, poses: &[Pose]) -> Result<Sym, String> {
    let n = model.coordinates.len();
    let mut t = s.int(0);
    for CheckedParticle { mass, position, .. } in &model.particles {
        let position = position
            .iter()
            .map(|e| s.expr(e))
            .collect::<Result<Vec<_>, _>>()?;
        t = &t + &translational(s, &s.expr(mass)?, &position, n);
    }
    for (body, pose) in model.bodies.iter().zip(poses) {
        let mass = s.expr(&body.mass)?;
        let inertia = matrix(s, &body.inertia)?;
        let omega = &pose.omega;
        let mut rotational = s.int(0);
        for i in 0..3 {
            for j in 0..3 {
                rotational = &rotational + &(&(&omega[i] * &inertia[i][j]) * &omega[j]);
            }
        }
        t = &(&t + &translational(s, &mass, &pose.com, n)) + &(&s.half() * &rotational);
    }
    Ok(t)
}

/// `−Σ m g·r` over the model's particles and bodies (`r` the centre of mass; a particle
/// in the plane uses `g`'s first two components), or 0 without a gravity field.
pub(crate) fn gravity_potential(
    s: &Session,
    model: &CheckedModel,
    poses: &[Pose],
) -> Result<Sym, String> {
    let Some(g) = &model.gravity else {
        return Ok(s.int(0));
    };
    let g = g.iter().map(|e| s.expr(e)).collect::<Result<Vec<_>, _>>()?;
    let mut v = s.int(0);
    let mut add = |mass: &Sym, position: &[Sym]| {
        let work = g
            .iter()
            .zip(position)
            .fold(s.int(0), |acc, (gi, ri)| &acc + &(gi * ri));
        v = &v - &(mass * &work);
    };
    for CheckedParticle { mass, position, .. } in &model.particles {
        let position = position
            .iter()
            .map(|e| s.expr(e))
            .collect::<Result<Vec<_>, _>>()?;
        add(&s.expr(mass)?, &position);
    }
    for (body, pose) in model.bodies.iter().zip(poses) {
        add(&s.expr(&body.mass)?, &pose.com);
    }
    Ok(v)
}

/// The body-frame angular velocity of a given orientation. For the named parametrizations
/// the closed forms (which `Rᵀ Ṙ` reproduces only up to `sin² + cos² = 1`, an identity
/// symbolica does not apply): about a fixed axis, the angle's rate on that axis; for z-x-z
/// Euler angles `(φ̇ sin θ sin ψ + θ̇ cos ψ, φ̇ sin θ cos ψ − θ̇ sin ψ, φ̇ cos θ + ψ̇)`. For
/// an explicit matrix, `ω× = Rᵀ Ṙ`: `ω = (Ω₃₂, Ω₁₃, Ω₂₁)` with `Ω = Rᵀ Ṙ`.
fn angular_velocity(s: &Session, orientation: &Orientation, n: usize) -> Result<[Sym; 3], String> {
    let rate = |e: &Expr| s.expr(e).map(|a| time_derivative(s, &a, n));
    Ok(match orientation {
        Orientation::About(axis, angle) => {
            let w = rate(angle)?;
            let (zero, one) = (s.int(0), s.int(1));
            let unit = |k| {
                if k == *axis as usize {
                    one.clone()
                } else {
                    zero.clone()
                }
            };
            [&unit(0) * &w, &unit(1) * &w, &unit(2) * &w]
        }
        Orientation::EulerZxz([phi, theta, psi]) => {
            let (phid, thetad, psid) = (rate(phi)?, rate(theta)?, rate(psi)?);
            let (th, ps) = (s.expr(theta)?, s.expr(psi)?);
            let (st, ct, sp, cp) = (th.sin(), th.cos(), ps.sin(), ps.cos());
            [
                &(&(&phid * &st) * &sp) + &(&thetad * &cp),
                &(&(&phid * &st) * &cp) - &(&thetad * &sp),
                &(&phid * &ct) + &psid,
            ]
        }
        Orientation::Product(factors) => {
            // ω ← Rᵢᵀ ω + aᵢ α̇ᵢ factor by factor: the body-frame angular velocity of
            // R₁ R₂ … Rₖ, each term in the frame of the factors so far.
            let zero = || [s.int(0), s.int(0), s.int(0)];
            let mut omega = zero();
            for (axis, angle) in factors {
                let r = matrix(s, &rotation::about(*axis, angle))?;
                let mut turned = zero();
                for (i, entry) in turned.iter_mut().enumerate() {
                    *entry = (0..3).fold(s.int(0), |acc, k| &acc + &(&r[k][i] * &omega[k]));
                }
                let k = *axis as usize;
                turned[k] = &turned[k] + &rate(angle)?;
                omega = turned;
            }
            omega
        }
        Orientation::Matrix(r) => {
            let r = matrix(s, r)?;
            let rd: Vec<Vec<Sym>> = r
                .iter()
                .map(|row| row.iter().map(|e| time_derivative(s, e, n)).collect())
                .collect();
            let omega_entry =
                |i: usize, j: usize| (0..3).fold(s.int(0), |acc, k| &acc + &(&r[k][i] * &rd[k][j]));
            [omega_entry(2, 1), omega_entry(0, 2), omega_entry(1, 0)]
        }
    })
}

pub(super) fn matrix(s: &Session, m: &Matrix3) -> Result<Vec<Vec<Sym>>, String> {
    m.iter()
        .map(|row| row.iter().map(|e| s.expr(e)).collect())
        .collect()
}

/// For each body, the entries of `RᵀR` (row-major) followed by `det R`, to check that the
/// given orientation is a rotation (a jointed body's are those of the identity).
pub(crate) fn orthogonality(s: &Session, model: &CheckedModel) -> Result<Vec<Vec<Sym>>, String> {
    model
        .bodies
        .iter()
        .map(|body| {
            let orientation = match &body.placement {
                Placement::Given { orientation, .. } => orientation,
                // A product of rotations by construction: `RᵀR = I`, `det R = 1`.
                Placement::Jointed { .. } => {
                    return Ok((0..10)
                        .map(|k| s.int(i64::from(k % 4 == 0 || k == 9)))
                        .collect());
                }
            };
            let r = matrix(s, &rotation::matrix(orientation))?;
            let mut out: Vec<Sym> = (0..9)
                .map(|ij| (0..3).fold(s.int(0), |acc, k| &acc + &(&r[k][ij / 3] * &r[k][ij % 3])))
                .collect();
            let minor = |a: usize, b: usize, c: usize, d: usize| {
                &(&r[1][a] * &r[2][b]) - &(&r[1][c] * &r[2][d])
            };
            let det = &(&(&r[0][0] * &minor(1, 2, 2, 1)) - &(&r[0][1] * &minor(0, 2, 2, 0)))
                + &(&r[0][2] * &minor(0, 1, 1, 0));
            out.push(det);
            Ok(out)
        })
        .collect()
}

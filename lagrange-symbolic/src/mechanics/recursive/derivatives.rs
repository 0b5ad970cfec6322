//! The derivatives of the generalized forces of the recursive Newton–Euler algorithm,
//! `∂τ/∂q` and `∂τ/∂q̇` at `(q, q̇, q̈)`, analytically (Carpentier & Mansard, *Analytical
//! derivatives of rigid body dynamics algorithms*, RSS 2018): in the fixed frame the
//! links beyond joint `k` turn rigidly with `q_k`, so every derivative is a cross product
//! with the joint's axis `S_k` and two more motions per joint, `Ψ̇_k = v_λ(k) × S_k` and
//! `Ψ̈_k = a_λ(k) × S_k + v_λ(k) × Ψ̇_k`. With the composite inertia `I^C_j`, force
//! `F_j` and the composite of the bilinear `2B_i x = I_i (x × v_i) + x ×* I_i v_i +
//! v_i ×* I_i x` over the links beyond `j`,
//!
//! - for `k` on the way from `j` to the root (`k ⪯ j`):
//!   `∂τ_j/∂q_k = S_jᵀ (I^C_j Ψ̈_k + 2B^C_j Ψ̇_k)`, `∂τ_j/∂q̇_k = S_jᵀ (2 I^C_j Ψ̇_k + 2B^C_j S_k)`;
//! - for `k` beyond `j` (`j ≺ k`):
//!   `∂τ_j/∂q_k = S_jᵀ (S_k ×* F_k + I^C_k Ψ̈_k + 2B^C_k Ψ̇_k)`,
//!   `∂τ_j/∂q̇_k = S_jᵀ (2 I^C_k Ψ̇_k + 2B^C_k S_k)`.
//!
//! The cost is a fixed amount per link and per joint plus four 6-vector products per pair
//! of joints on one path (two more per pair with `k` beyond `j`): `O(n·depth)`, where
//! forward mode carries whole passes along each direction (for the G1 humanoid, 32,453
//! instructions instead of 58,763).
//!
//! The same rule gives the derivatives of the energies the variational integrator and the
//! action's relations read, `∂L/∂q`, `∂p/∂q` and `∂²L/∂q²` ([`energy_derivatives`]): for
//! the G1, 12,565 and 11,441 instructions for the last two instead of 24,813 and 48,583 by
//! forward mode over the forward mode of `L`.

use super::spatial::{
    Inertia, V6, ZERO6, add, cross_force, cross_motion, dot6, joint_axis, scale, sub,
};
use super::tree::{Link, Motion, Placed, Tree, centre, world};
use super::vector::{product, product_transposed, times};
use crate::ir::trace::{Tracer, Value};

/// `∂τ/∂q` and `∂τ/∂q̇`, row `i` for `τ_i`, column `j` for the coordinate `j`.
pub(super) struct ForceDerivatives {
    pub(super) coordinates: Vec<Vec<Value>>,
    pub(super) velocities: Vec<Vec<Value>>,
}

/// A joint's link: its coordinate, `S`, `Ψ̇`, `Ψ̈`.
#[derive(Clone, Copy)]
struct Joint {
    coordinate: usize,
    axis: V6,
    psi_dot: V6,
    psi_ddot: V6,
}

/// The tree in the fixed frame at `(q, q̇, q̈)`: each link's motion `v` and acceleration
/// `a` (the fixed frame accelerating by −g), its joint (`None` for a fixed link) and the
/// inertia of the bodies it carries.
struct FixedFrame {
    v: Vec<V6>,
    a: Vec<V6>,
    joints: Vec<Option<Joint>>,
    inertia: Vec<Inertia>,
}

/// The forward pass over the tree placed at `placed`, in the fixed frame.
fn fixed_frame(
    t: &mut Tracer,
    tree: &Tree,
    placed: &Placed,
    qd: &[Value],
    qdd: &[Value],
) -> FixedFrame {
    let links = &tree.links;
    let count = links.len();
    let minus_g: [Value; 3] = std::array::from_fn(|i| t.neg(tree.gravity[i]));
    let base: V6 = [
        Value::ZERO,
        Value::ZERO,
        Value::ZERO,
        minus_g[0],
        minus_g[1],
        minus_g[2],
    ];
    let frames = world(t, links, placed);
    let (rotation, origin) = (&frames.0, &frames.1);
    let (mut v, mut a) = (vec![ZERO6; count], vec![ZERO6; count]);
    let mut joints: Vec<Option<Joint>> = vec![None; count];
    for (k, link) in links.iter().enumerate() {
        let (v_p, a_p) = match link.parent {
            Some(p) => (v[p], a[p]),
            None => (ZERO6, base),
        };
        let (coordinate, axis, revolute) = match link.motion {
            Motion::Revolute(q, s) => (q, s, true),
            Motion::Prismatic(q, s) => (q, s, false),
            Motion::Fixed => {
                (v[k], a[k]) = (v_p, a_p);
                continue;
            }
        };
        let u = times(t, &rotation[k], &axis);
        let s = joint_axis(t, &u, &origin[k], revolute);
        let psi_dot = cross_motion(t, &v_p, &s);
        let a_cross_s = cross_motion(t, &a_p, &s);
        let v_cross_psi = cross_motion(t, &v_p, &psi_dot);
        let psi_ddot = add(t, &a_cross_s, &v_cross_psi);
        let joint_velocity = scale(t, qd[coordinate], &s);
        v[k] = add(t, &v_p, &joint_velocity);
        let driven = scale(t, qdd[coordinate], &s);
        let coriolis = scale(t, qd[coordinate], &psi_dot);
        let a_k = add(t, &a_p, &driven);
        a[k] = add(t, &a_k, &coriolis);
        joints[k] = Some(Joint {
            coordinate,
            axis: s,
            psi_dot,
            psi_ddot,
        });
    }
    let mut inertia = vec![Inertia::ZERO; count];
    for body in &tree.inertials {
        let k = body.link;
        let at = centre(t, &frames, body);
        let about_centre = product(t, &rotation[k], &body.inertia);
        let about_centre = product_transposed(t, &about_centre, &rotation[k]);
        let own = Inertia::of_body(t, body.mass, &at, &about_centre);
        inertia[k] = inertia[k].plus(t, &own);
    }
    FixedFrame {
        v,
        a,
        joints,
        inertia,
    }
}

/// Each link's value summed with those of the links beyond it.
fn composite<T: Copy>(
    t: &mut Tracer,
    links: &[Link],
    values: &mut [T],
    plus: impl Fn(&mut Tracer, &T, &T) -> T,
) {
    for k in (0..links.len()).rev() {
        if let Some(p) = links[k].parent {
            values[p] = plus(t, &values[p], &values[k]);
        }
    }
}

/// The derivatives of [`newton_euler`](super::passes::newton_euler)'s `τ` at `qd`, `qdd`
/// for the tree placed at `placed`.
pub(super) fn newton_euler_derivatives(
    t: &mut Tracer,
    tree: &Tree,
    placed: &Placed,
    qd: &[Value],
    qdd: &[Value],
) -> ForceDerivatives {
    let links = &tree.links;
    let (count, n) = (links.len(), qd.len());
    let FixedFrame {
        v,
        a,
        joints,
        mut inertia,
    } = fixed_frame(t, tree, placed, qd, qdd);
    // Each link's inertia I, its rate İ along the link's motion, momentum I v and force
    // I a + v ×* I v; then their composites over the links beyond it.
    let mut rate = vec![Inertia::ZERO; count];
    let mut momentum = vec![ZERO6; count];
    let mut force = vec![ZERO6; count];
    for k in 0..count {
        rate[k] = inertia[k].rate(t, &v[k]);
        let h = inertia[k].times(t, &v[k]);
        let ia = inertia[k].times(t, &a[k]);
        let gyroscopic = cross_force(t, &v[k], &h);
        force[k] = add(t, &ia, &gyroscopic);
        momentum[k] = h;
    }
    composite(t, links, &mut inertia, |t, a, b| a.plus(t, b));
    composite(t, links, &mut rate, |t, a, b| a.plus(t, b));
    composite(t, links, &mut momentum, add);
    composite(t, links, &mut force, add);
    // 2B^C x = İ^C x + x ×* h^C (the bilinear's composite, İ^C = −(C^C + C^Cᵀ) for
    // C = I (v×)); it is symmetric but for the cross product, so S_jᵀ 2B^C_j is
    // (İ^C_j S_j − S_j ×* h^C_j)ᵀ.
    let mut coordinates = vec![vec![Value::ZERO; n]; n];
    let mut velocities = vec![vec![Value::ZERO; n]; n];
    for j in 0..count {
        let Some(Joint {
            coordinate: row,
            axis: s_j,
            psi_dot: psi_dot_j,
            psi_ddot: psi_ddot_j,
        }) = joints[j]
        else {
            continue;
        };
        // Row vectors of the pairs with k ⪯ j: α = I^C_j S_j and β = (2B^C_j)ᵀ S_j.
        let alpha = inertia[j].times(t, &s_j);
        let rate_s = rate[j].times(t, &s_j);
        let spun = cross_force(t, &s_j, &momentum[j]);
        let beta = sub(t, &rate_s, &spun);
        // The pairs with k on the way from j to the root: row j, column k.
        let mut k = Some(j);
        while let Some(kk) = k {
            if let Some(joint) = joints[kk] {
                let column = joint.coordinate;
                let a_psi_ddot = dot6(t, &alpha, &joint.psi_ddot);
                let b_psi_dot = dot6(t, &beta, &joint.psi_dot);
                let dq = t.add(a_psi_ddot, b_psi_dot);
                coordinates[row][column] = t.add(coordinates[row][column], dq);
                let a_psi_dot = dot6(t, &alpha, &joint.psi_dot);
                let two_a_psi_dot = t.mul(Value::Number(2.0), a_psi_dot);
                let b_s = dot6(t, &beta, &joint.axis);
                let dqd = t.add(two_a_psi_dot, b_s);
                velocities[row][column] = t.add(velocities[row][column], dqd);
            }
            k = links[kk].parent;
        }
        // The pairs with j beyond an ancestor i: row i, column j, S_iᵀ G_j and S_iᵀ H_j,
        // G_j = S_j ×* F_j + I^C_j Ψ̈_j + 2B^C_j Ψ̇_j and H_j = 2 I^C_j Ψ̇_j + 2B^C_j S_j.
        let column = row;
        let s_cross_f = cross_force(t, &s_j, &force[j]);
        let i_psi_ddot = inertia[j].times(t, &psi_ddot_j);
        let rate_psi = rate[j].times(t, &psi_dot_j);
        let spun_psi = cross_force(t, &psi_dot_j, &momentum[j]);
        let g = add(t, &s_cross_f, &i_psi_ddot);
        let g = add(t, &g, &rate_psi);
        let g = add(t, &g, &spun_psi);
        let two_psi_dot = scale(t, Value::Number(2.0), &psi_dot_j);
        let i_two_psi_dot = inertia[j].times(t, &two_psi_dot);
        let h_j = add(t, &i_two_psi_dot, &rate_s);
        let h_j = add(t, &h_j, &spun);
        let mut i = links[j].parent;
        while let Some(ii) = i {
            if let Some(joint) = joints[ii] {
                let row = joint.coordinate;
                let dq = dot6(t, &joint.axis, &g);
                coordinates[row][column] = t.add(coordinates[row][column], dq);
                let dqd = dot6(t, &joint.axis, &h_j);
                velocities[row][column] = t.add(velocities[row][column], dqd);
            }
            i = links[ii].parent;
        }
    }
    ForceDerivatives {
        coordinates,
        velocities,
    }
}

/// `∂L/∂q`, `∂p/∂q` and `∂²L/∂q²` of the tree's kinetic energy `T` and weight, row `i`
/// for `p_i` (for `∂L/∂q_i`), column `j` for `q_j`.
pub(super) struct EnergyDerivatives {
    pub(super) gradient: Vec<Value>,
    pub(super) momenta: Vec<Vec<Value>>,
    pub(super) lagrangian: Vec<Vec<Value>>,
}

/// The derivatives of the momenta `p = M q̇` and of the tree's part of the Lagrangian,
/// `T` less the weight's potential `V_g = −Σ m g·c`, at `qd` for the tree placed at
/// `placed`, by the same rule as [`newton_euler_derivatives`]: what lies beyond joint `j`
/// turns rigidly with `q_j` (`x ↦ S_j × x`), so a pairing of such vectors is unchanged
/// except where a motion gains `Ψ̇_j = v_λ(j) × S_j`, as every `v_i` beyond `j` does. With
/// the composite inertia `I^C_k` and momentum `h^C_k` of the links beyond `k`:
///
/// - `p_k = S_kᵀ h^C_k`, so for `j ⪯ k` `∂p_k/∂q_j = α_kᵀ Ψ̇_j` with `α_k = I^C_k S_k`,
///   and for `k ≺ j` `∂p_k/∂q_j = S_kᵀ γ_j` with `γ_j = I^C_j Ψ̇_j + S_j ×* h^C_j`;
/// - `∂T/∂q_k = h^C_kᵀ Ψ̇_k` and `∂V_g/∂q_k = −α_kᵀ a_g` for the field `a_g = (0, g)`, so
///   for `j ⪯ k` `∂²L/∂q_k∂q_j = Ψ̇_jᵀ γ_k − α_kᵀ (S_j × a_g)`, and the same for `k ≺ j`.
///
/// One 6-vector product per pair of joints on one path for each, instead of forward mode
/// over the forward mode of `L`, whose cost grows with the square of the depth per link.
pub(super) fn energy_derivatives(
    t: &mut Tracer,
    tree: &Tree,
    placed: &Placed,
    qd: &[Value],
) -> EnergyDerivatives {
    let links = &tree.links;
    let (count, n) = (links.len(), qd.len());
    let still = vec![Value::ZERO; n];
    let FixedFrame {
        v,
        joints,
        mut inertia,
        ..
    } = fixed_frame(t, tree, placed, qd, &still);
    let mut momentum: Vec<V6> = (0..count).map(|k| inertia[k].times(t, &v[k])).collect();
    composite(t, links, &mut inertia, |t, a, b| a.plus(t, b));
    composite(t, links, &mut momentum, add);
    let field: V6 = [
        Value::ZERO,
        Value::ZERO,
        Value::ZERO,
        tree.gravity[0],
        tree.gravity[1],
        tree.gravity[2],
    ];
    let mut gradient = vec![Value::ZERO; n];
    let mut momenta = vec![vec![Value::ZERO; n]; n];
    let mut lagrangian = vec![vec![Value::ZERO; n]; n];
    let accumulate = |t: &mut Tracer, entry: &mut Value, term: Value| {
        *entry = t.add(*entry, term);
    };
    // S_j × a_g, what the weight's pull gains as joint j turns.
    let pulled: Vec<V6> = joints
        .iter()
        .map(|joint| joint.map_or(ZERO6, |j| cross_motion(t, &j.axis, &field)))
        .collect();
    for k in 0..count {
        let Some(joint_k) = joints[k] else { continue };
        let row = joint_k.coordinate;
        let alpha = inertia[k].times(t, &joint_k.axis);
        let i_psi_dot = inertia[k].times(t, &joint_k.psi_dot);
        let spun = cross_force(t, &joint_k.axis, &momentum[k]);
        let gamma = add(t, &i_psi_dot, &spun);
        let kinetic = dot6(t, &momentum[k], &joint_k.psi_dot);
        let weight = dot6(t, &alpha, &field);
        let dl = t.add(kinetic, weight);
        accumulate(t, &mut gradient[row], dl);
        // The joints j on the way from k to the root, k itself first.
        let mut j = Some(k);
        while let Some(jj) = j {
            if let Some(joint_j) = joints[jj] {
                let column = joint_j.coordinate;
                let dp = dot6(t, &alpha, &joint_j.psi_dot);
                accumulate(t, &mut momenta[row][column], dp);
                if jj != k {
                    let dp = dot6(t, &joint_j.axis, &gamma);
                    accumulate(t, &mut momenta[column][row], dp);
                }
                let kinetic = dot6(t, &joint_j.psi_dot, &gamma);
                let weight = dot6(t, &alpha, &pulled[jj]);
                let d2l = t.sub(kinetic, weight);
                accumulate(t, &mut lagrangian[row][column], d2l);
                if jj != k {
                    accumulate(t, &mut lagrangian[column][row], d2l);
                }
            }
            j = links[jj].parent;
        }
    }
    EnergyDerivatives {
        gradient,
        momenta,
        lagrangian,
    }
}

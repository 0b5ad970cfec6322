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
//! The cost is a fixed amount per link plus 24 products per pair of joints on one path,
//! `O(n·depth)`, instead of forward mode's `O(n·depth)` of whole passes carried along
//! each direction.

use super::spatial::{
    M6, V6, ZERO6, ZERO66, add, cross_force, cross_motion, dot6, inertia, joint_axis, matrix_add,
    scale, times_cross, times6, transposed_times6,
};
use super::tree::{M3, Motion, Placed, Tree};
use super::vector::{plus, product, product_transposed, times};
use crate::ir::trace::{Tracer, Value};

/// `∂τ/∂q` and `∂τ/∂q̇`, row `i` for `τ_i`, column `j` for the coordinate `j`.
pub(super) struct ForceDerivatives {
    pub(super) coordinates: Vec<Vec<Value>>,
    pub(super) velocities: Vec<Vec<Value>>,
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
    let zero3 = [Value::ZERO; 3];
    let identity: M3 =
        std::array::from_fn(|i| std::array::from_fn(|j| Value::Number(f64::from(i == j))));
    // Forward: each link's pose, motion and acceleration in the fixed frame (which
    // accelerates by −g), and each joint's axis, Ψ̇ and Ψ̈.
    let minus_g: [Value; 3] = std::array::from_fn(|i| t.neg(tree.gravity[i]));
    let base: V6 = [
        Value::ZERO,
        Value::ZERO,
        Value::ZERO,
        minus_g[0],
        minus_g[1],
        minus_g[2],
    ];
    let (mut rotation, mut origin) = (vec![identity; count], vec![zero3; count]);
    let (mut v, mut a) = (vec![ZERO6; count], vec![ZERO6; count]);
    // Per joint link: its coordinate, S, Ψ̇, Ψ̈.
    let mut joint: Vec<Option<(usize, V6, V6, V6)>> = vec![None; count];
    for (k, link) in links.iter().enumerate() {
        let (rotation_p, origin_p, v_p, a_p) = match link.parent {
            Some(p) => (rotation[p], origin[p], v[p], a[p]),
            None => (identity, zero3, ZERO6, base),
        };
        rotation[k] = product(t, &rotation_p, &placed.e[k]);
        let offset = times(t, &rotation_p, &placed.r[k]);
        origin[k] = plus(t, &origin_p, &offset);
        let (q, axis, revolute) = match link.motion {
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
        let turned = cross_motion(t, &a_p, &s);
        let carried = cross_motion(t, &v_p, &psi_dot);
        let psi_ddot = add(t, &turned, &carried);
        let rate = scale(t, qd[q], &s);
        v[k] = add(t, &v_p, &rate);
        let driven = scale(t, qdd[q], &s);
        let coriolis = scale(t, qd[q], &psi_dot);
        let a_k = add(t, &a_p, &driven);
        a[k] = add(t, &a_k, &coriolis);
        joint[k] = Some((q, s, psi_dot, psi_ddot));
    }
    // Each link's inertia, momentum, force and I (v×); then their composites beyond it.
    let mut inertia_c = vec![ZERO66; count];
    for body in &tree.inertials {
        let k = body.link;
        let turned = times(t, &rotation[k], &body.com);
        let centre = plus(t, &origin[k], &turned);
        let about_centre = product(t, &rotation[k], &body.inertia);
        let about_centre = product_transposed(t, &about_centre, &rotation[k]);
        let spatial = inertia(t, body.mass, &centre, &about_centre);
        inertia_c[k] = matrix_add(t, &inertia_c[k], &spatial);
    }
    let mut momentum_c = vec![ZERO6; count];
    let mut force_c = vec![ZERO6; count];
    let mut cross_c: Vec<M6> = vec![ZERO66; count];
    for k in 0..count {
        let h = times6(t, &inertia_c[k], &v[k]);
        let ia = times6(t, &inertia_c[k], &a[k]);
        let gyroscopic = cross_force(t, &v[k], &h);
        force_c[k] = add(t, &ia, &gyroscopic);
        cross_c[k] = times_cross(t, &inertia_c[k], &v[k]);
        momentum_c[k] = h;
    }
    for k in (0..count).rev() {
        let Some(p) = links[k].parent else { continue };
        inertia_c[p] = matrix_add(t, &inertia_c[p], &inertia_c[k]);
        momentum_c[p] = add(t, &momentum_c[p], &momentum_c[k]);
        force_c[p] = add(t, &force_c[p], &force_c[k]);
        cross_c[p] = matrix_add(t, &cross_c[p], &cross_c[k]);
    }
    // 2B^C x = −(C^C + C^Cᵀ) x + x ×* h^C, with C = I (v×) and h = I v.
    let bilinear = |t: &mut Tracer, k: usize, x: &V6| -> V6 {
        let c = times6(t, &cross_c[k], x);
        let ct = transposed_times6(t, &cross_c[k], x);
        let ch = cross_force(t, x, &momentum_c[k]);
        let sum = add(t, &c, &ct);
        let minus = scale(t, Value::Number(-1.0), &sum);
        add(t, &minus, &ch)
    };
    let mut coordinates = vec![vec![Value::ZERO; n]; n];
    let mut velocities = vec![vec![Value::ZERO; n]; n];
    for j in 0..count {
        let Some((row, s_j, psi_dot_j, psi_ddot_j)) = joint[j] else {
            continue;
        };
        // Row vectors of the pairs with k ⪯ j: α = I^C_j S_j and β = (2B^C_j)ᵀ S_j
        // = −(C^C_j + C^C_jᵀ) S_j − S_j ×* h^C_j.
        let alpha = times6(t, &inertia_c[j], &s_j);
        let c = times6(t, &cross_c[j], &s_j);
        let ct = transposed_times6(t, &cross_c[j], &s_j);
        let ch = cross_force(t, &s_j, &momentum_c[j]);
        let sum = add(t, &c, &ct);
        let sum = add(t, &sum, &ch);
        let beta = scale(t, Value::Number(-1.0), &sum);
        let mut k = Some(j);
        while let Some(kk) = k {
            if let Some((column, s_k, psi_dot, psi_ddot)) = joint[kk] {
                let a_psi_ddot = dot6(t, &alpha, &psi_ddot);
                let b_psi_dot = dot6(t, &beta, &psi_dot);
                let dq = t.add(a_psi_ddot, b_psi_dot);
                coordinates[row][column] = t.add(coordinates[row][column], dq);
                let a_psi_dot = dot6(t, &alpha, &psi_dot);
                let twice = t.mul(Value::Number(2.0), a_psi_dot);
                let b_s = dot6(t, &beta, &s_k);
                let dqd = t.add(twice, b_s);
                velocities[row][column] = t.add(velocities[row][column], dqd);
            }
            k = links[kk].parent;
        }
        // The pairs with j beyond an ancestor i: column j of row i is S_iᵀ G_j, S_iᵀ H_j.
        let (column, s_k) = (row, s_j);
        let turned = cross_force(t, &s_k, &force_c[j]);
        let driven = times6(t, &inertia_c[j], &psi_ddot_j);
        let bent = bilinear(t, j, &psi_dot_j);
        let g = add(t, &turned, &driven);
        let g = add(t, &g, &bent);
        let twice = scale(t, Value::Number(2.0), &psi_dot_j);
        let carried = times6(t, &inertia_c[j], &twice);
        let bent = bilinear(t, j, &s_k);
        let h = add(t, &carried, &bent);
        let mut i = links[j].parent;
        while let Some(ii) = i {
            if let Some((row, s_i, _, _)) = joint[ii] {
                let dq = dot6(t, &s_i, &g);
                coordinates[row][column] = t.add(coordinates[row][column], dq);
                let dqd = dot6(t, &s_i, &h);
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

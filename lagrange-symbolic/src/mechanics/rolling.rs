//! Rolling without slipping: a body declared with `rolls = "R"` carries a thin wheel of
//! radius `R` about its z axis, centred at its centre of mass, that touches the ground plane
//! `z = 0` at the lowest point of its rim. With `n` the wheel's axis in the fixed frame and
//! `u = (ẑ − n_z n)/√(1 − n_z²)` the unit vector from the contact point up to the centre
//! `c`, the contact point is `P = c − R u`, and the material point there does not move:
//! `v_c + ω × (P − c) = v_c − R ω × u = 0`. Its two horizontal components are the wheel's
//! velocity constraints (linear in the velocities, since `v_c` and `ω` are); the vertical
//! one is the time derivative of the contact itself, `c_z = R √(1 − n_z²)`, which the
//! body's placement must satisfy (a wheel lying flat, `n_z = ±1`, has no contact point).

use super::kinetic::{self, Pose};
use crate::cas::{Session, Sym};
use crate::model::CheckedModel;

/// The velocity constraints of the model's rolling wheels, two per wheel (along x, then
/// y; one that vanishes identically, for a wheel that cannot move that way, left out),
/// with a name for each.
pub(super) fn conditions(
    s: &Session,
    model: &CheckedModel,
    poses: &[Pose],
) -> Result<Vec<(Sym, String)>, String> {
    let n = model.coordinates.len();
    let mut rows = Vec::new();
    for (body, pose) in model.bodies.iter().zip(poses) {
        let Some(radius) = &body.rolls else {
            continue;
        };
        let radius = s.expr(radius)?;
        let r = &pose.r;
        let axis: [Sym; 3] = std::array::from_fn(|i| r[i][2].clone());
        let omega: [Sym; 3] = std::array::from_fn(|i| {
            (0..3).fold(s.int(0), |acc, j| &acc + &(&r[i][j] * &pose.omega[j]))
        });
        let nz = &axis[2];
        let lift_squared = &s.int(1) - &(nz * nz);
        if lift_squared.is_zero() {
            return Err(format!(
                "body `{}` rolls, but its z axis (the wheel's axle) is vertical in every state: a wheel lying flat has no contact point",
                body.name
            ));
        }
        let lift = lift_squared.sqrt();
        let up: [Sym; 3] = std::array::from_fn(|i| {
            let w = if i == 2 {
                &s.int(1) - &(nz * &axis[2])
            } else {
                -&(nz * &axis[i])
            };
            &w / &lift
        });
        let velocity: [Sym; 3] =
            std::array::from_fn(|i| kinetic::time_derivative(s, &pose.com[i], n));
        // (ω × u)_x and (ω × u)_y.
        let turn = [
            &(&omega[1] * &up[2]) - &(&omega[2] * &up[1]),
            &(&omega[2] * &up[0]) - &(&omega[0] * &up[2]),
        ];
        for (i, (along, turn)) in ["x", "y"].iter().zip(turn).enumerate() {
            let row = &velocity[i] - &(&radius * &turn);
            // A wheel that cannot move along this direction has nothing to keep there.
            if !row.is_zero() {
                rows.push((
                    row,
                    format!("the rolling of body `{}` along {along}", body.name),
                ));
            }
        }
    }
    Ok(rows)
}

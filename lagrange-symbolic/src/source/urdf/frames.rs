//! The 3×3 arithmetic of URDF frames: `rpy` angles to and from rotation matrices, and an
//! inertia tensor turned into another frame.

pub(super) type Matrix = [[f64; 3]; 3];

/// URDF's `rpy` as a matrix, `R_z(yaw) R_y(pitch) R_x(roll)`, in `f64` (the engine's, on
/// expressions with exact quarter turns, is `mechanics::rotation::roll_pitch_yaw`).
pub(super) fn rpy_matrix([r, p, y]: [f64; 3]) -> Matrix {
    let rz = [
        [y.cos(), -y.sin(), 0.0],
        [y.sin(), y.cos(), 0.0],
        [0.0, 0.0, 1.0],
    ];
    let ry = [
        [p.cos(), 0.0, p.sin()],
        [0.0, 1.0, 0.0],
        [-p.sin(), 0.0, p.cos()],
    ];
    let rx = [
        [1.0, 0.0, 0.0],
        [0.0, r.cos(), -r.sin()],
        [0.0, r.sin(), r.cos()],
    ];
    mul(mul(rz, ry), rx)
}

/// The `rpy` of a rotation matrix (inverse of [`rpy_matrix`]; at pitch ±π/2, roll 0).
pub(super) fn rpy_of(m: Matrix) -> [f64; 3] {
    let cos_pitch = m[0][0].hypot(m[1][0]);
    let pitch = (-m[2][0]).atan2(cos_pitch);
    if cos_pitch > 1e-12 {
        [m[2][1].atan2(m[2][2]), pitch, m[1][0].atan2(m[0][0])]
    } else {
        [0.0, pitch, (-m[0][1]).atan2(m[1][1])]
    }
}

pub(super) fn mul(a: Matrix, b: Matrix) -> Matrix {
    std::array::from_fn(|i| std::array::from_fn(|j| (0..3).map(|k| a[i][k] * b[k][j]).sum()))
}

pub(super) fn transposed(a: Matrix) -> Matrix {
    std::array::from_fn(|i| std::array::from_fn(|j| a[j][i]))
}

pub(super) fn apply(a: Matrix, v: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|i| (0..3).map(|k| a[i][k] * v[k]).sum())
}

pub(super) fn tensor([xx, yy, zz, xy, xz, yz]: [f64; 6]) -> Matrix {
    [[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]]
}

pub(super) fn entries(t: Matrix) -> [f64; 6] {
    [t[0][0], t[1][1], t[2][2], t[0][1], t[0][2], t[1][2]]
}

/// `t` with the entries at most `1e-14 · scale` set to 0: the round-off of the rotations and
/// shifts that produced it, `scale` the largest magnitude they involved. Left in, such a
/// residue (`3e-42`) would be a number beyond the exact fractions the engine holds.
pub(super) fn without_round_off(t: Matrix, scale: f64) -> Matrix {
    t.map(|row| row.map(|x| if x.abs() <= 1e-14 * scale { 0.0 } else { x }))
}

/// The largest magnitude of the entries of `t`.
pub(super) fn magnitude(t: Matrix) -> f64 {
    t.iter().flatten().fold(0.0f64, |m, x| m.max(x.abs()))
}

/// `R I Rᵀ`: an inertia tensor given in a frame turned by `rpy`, in the link's frame.
pub(super) fn turned(entries_given: [f64; 6], rpy: [f64; 3]) -> [f64; 6] {
    if rpy == [0.0; 3] {
        return entries_given;
    }
    let rot = rpy_matrix(rpy);
    let given = tensor(entries_given);
    let turned = mul(mul(rot, given), transposed(rot));
    entries(without_round_off(turned, magnitude(given)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rpy_of_inverts_rpy_matrix_including_gimbal_lock() {
        let half_pi = std::f64::consts::FRAC_PI_2;
        for rpy in [
            [0.3, -0.4, 0.5],
            [-2.9, 1.2, 3.0],
            [0.0, half_pi, 0.7],
            [0.4, -half_pi, -1.1],
        ] {
            let m = rpy_matrix(rpy);
            let back = rpy_matrix(rpy_of(m));
            for i in 0..3 {
                for j in 0..3 {
                    assert!(
                        (m[i][j] - back[i][j]).abs() < 1e-12,
                        "{rpy:?}: {m:?} vs {back:?}"
                    );
                }
            }
        }
    }
}

//! Where each quantity sits among the outputs of a model's programs, stated once for
//! every reader: the engine that derives the programs and checks a stored entry, the
//! runtime that reads their outputs (the derive's code and the command's interpreter
//! alike), and the generated solvers.

use std::ops::Range;

/// The output layout of the programs of a model with `n` coordinates, `m` parameters
/// and `k` constraints. A program of blocks returns consecutive ranges of its
/// outputs; matrices in them are row-major (`∂rᵢ/∂xⱼ` at `i·cols + j`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// `n`.
    pub coordinates: usize,
    /// `m`.
    pub parameters: usize,
    /// `k`.
    pub constraints: usize,
}

/// Outputs of the dynamic functions program: `P` (3), `Λ` (3), `T`, `J`, `I`.
pub const DYNAMIC_FUNCTIONS: usize = 9;

/// Consecutive blocks of `sizes` outputs, from the first.
fn blocks<const B: usize>(sizes: [usize; B]) -> [Range<usize>; B] {
    let mut start = 0;
    sizes.map(|size| {
        let block = start..start + size;
        start += size;
        block
    })
}

/// The number of outputs of a program made of `blocks`.
pub fn outputs(blocks: &[Range<usize>]) -> usize {
    blocks.last().map_or(0, |b| b.end)
}

impl Layout {
    /// `dynamics`: `M` (`n²`), then `f` (`n`).
    pub fn dynamics(&self) -> [Range<usize>; 2] {
        let n = self.coordinates;
        blocks([n * n, n])
    }

    /// `residual_jacobians`: `∂r/∂q`, `∂r/∂q̇` (`n²` each), `∂r/∂p` (`n·m`).
    pub fn residual_jacobians(&self) -> [Range<usize>; 3] {
        let (n, m) = (self.coordinates, self.parameters);
        blocks([n * n, n * n, n * m])
    }

    /// `residual_jacobians` row by row, the layout the acceleration derivatives solve in:
    /// for each row `i`, `∂rᵢ/∂q`, `∂rᵢ/∂q̇`, `∂rᵢ/∂p`. Entry `k` is the program's output
    /// at position `k` of the rows.
    pub fn residual_jacobian_rows(&self) -> Vec<usize> {
        let (n, m) = (self.coordinates, self.parameters);
        let [coordinates, velocities, parameters] = self.residual_jacobians();
        (0..n)
            .flat_map(|i| {
                let q = coordinates.start + i * n..coordinates.start + (i + 1) * n;
                let qd = velocities.start + i * n..velocities.start + (i + 1) * n;
                let p = parameters.start + i * m..parameters.start + (i + 1) * m;
                q.chain(qd).chain(p)
            })
            .collect()
    }

    /// The constraints' `dynamics`: `J = ∂G/∂q` (`k·n`), then the bias `c` of
    /// `G̈ = J q̈ + c` (`k`).
    pub fn constraint_dynamics(&self) -> [Range<usize>; 2] {
        let (n, k) = (self.coordinates, self.constraints);
        blocks([k * n, k])
    }

    /// The constraints' `jacobians`: `∂s/∂q`, `∂s/∂q̇` (`k·n` each), `∂s/∂p` (`k·m`),
    /// `∂(Jᵀλ)/∂q` (`n²`), `∂(Jᵀλ)/∂p` (`n·m`).
    pub fn constraint_jacobians(&self) -> [Range<usize>; 5] {
        let (n, m, k) = (self.coordinates, self.parameters, self.constraints);
        blocks([k * n, k * n, k * m, n * n, n * m])
    }
}

/// The joint wrench of jointed body `body`: its force, then its moment (3 outputs each).
pub fn joint_wrench(body: usize) -> [Range<usize>; 2] {
    [6 * body..6 * body + 3, 6 * body + 3..6 * body + 6]
}

/// Outputs of the joint wrenches of `bodies` jointed bodies.
pub fn joint_wrenches(bodies: usize) -> usize {
    6 * bodies
}

/// The outputs of the balance of the `law`-th theorem whose premise holds: the rate of
/// its function, then the law's right-hand side.
pub fn balance(law: usize) -> [usize; 2] {
    [2 * law, 2 * law + 1]
}

/// Outputs of the balance program of `holding` theorems whose premises hold.
pub fn balances(holding: usize) -> usize {
    2 * holding
}

/// Outputs of a drawing: each point's position (3), then each frame's orientation (9).
pub fn drawing(points: usize, frames: usize) -> usize {
    3 * points + 9 * frames
}

//! The symbolica-free intermediate representation of derived functions: straight-line
//! programs over `f64` slots, with common subexpressions already shared across all
//! outputs of one program. Code generators (the derive, templates) and the interpreter
//! below consume it, all through the one walk of [`emit`] (Rust text through its one
//! Rust backend, [`rust`]); nothing here knows about the computer-algebra engine.

pub mod emit;
mod fuse;
#[cfg(feature = "jit")]
pub mod jit;
mod join;
pub mod lower;
pub mod rust;
pub mod trace;

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

pub use emit::IrError;
/// Where an instruction reads or writes a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Slot {
    /// Input `i` (see [`crate::equations::Inputs`] for the layout).
    Input(usize),
    /// Constant `i` of [`Program::constants`].
    Const(usize),
    /// Temporary `i`.
    Temp(usize),
    /// Output `i`.
    Out(usize),
}

/// An elementary function an instruction can apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Intrinsic {
    /// Sine.
    Sin,
    /// Cosine.
    Cos,
    /// Exponential.
    Exp,
    /// Natural logarithm.
    Log,
    /// Square root.
    Sqrt,
}

impl Intrinsic {
    /// Applies the function.
    pub fn apply(self, x: f64) -> f64 {
        match self {
            Intrinsic::Sin => x.sin(),
            Intrinsic::Cos => x.cos(),
            Intrinsic::Exp => x.exp(),
            Intrinsic::Log => x.ln(),
            Intrinsic::Sqrt => x.sqrt(),
        }
    }

    /// The name of the `f64` method that computes it.
    pub fn method(self) -> &'static str {
        match self {
            Intrinsic::Sin => "sin",
            Intrinsic::Cos => "cos",
            Intrinsic::Exp => "exp",
            Intrinsic::Log => "ln",
            Intrinsic::Sqrt => "sqrt",
        }
    }
}

/// One step of a [`Program`]; the first slot is the destination.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Instr {
    /// `dst = a + b + …`.
    Add(Slot, Vec<Slot>),
    /// `dst = a * b * …`.
    Mul(Slot, Vec<Slot>),
    /// `dst = base ^ n` for an integer `n` (negative: a reciprocal).
    Powi(Slot, Slot, i32),
    /// `dst = base ^ exponent`.
    Powf(Slot, Slot, Slot),
    /// `dst = f(x)`.
    Call(Slot, Intrinsic, Slot),
    /// `dst = a * b + c`, rounded once (a fused multiply-add).
    MulAdd(Slot, [Slot; 3]),
    /// `dst = c - a * b`, rounded once: the multiply-add of `-a`, `b` and `c`.
    NegMulAdd(Slot, [Slot; 3]),
    /// `dst = src`.
    Copy(Slot, Slot),
}

impl Instr {
    /// The slot written and the slots read.
    pub fn slots(&self) -> (Slot, Vec<Slot>) {
        match self {
            Instr::Add(dst, args) | Instr::Mul(dst, args) => (*dst, args.clone()),
            Instr::Powi(dst, base, _) => (*dst, vec![*base]),
            Instr::Powf(dst, base, exponent) => (*dst, vec![*base, *exponent]),
            Instr::Call(dst, _, x) | Instr::Copy(dst, x) => (*dst, vec![*x]),
            Instr::MulAdd(dst, factors) | Instr::NegMulAdd(dst, factors) => {
                (*dst, factors.to_vec())
            }
        }
    }

    /// Applies `f` to every slot, written and read.
    pub fn for_each_slot_mut(&mut self, mut f: impl FnMut(&mut Slot)) {
        match self {
            Instr::Add(dst, args) | Instr::Mul(dst, args) => {
                f(dst);
                args.iter_mut().for_each(f);
            }
            Instr::Powf(dst, base, exponent) => {
                f(dst);
                f(base);
                f(exponent);
            }
            Instr::Powi(dst, x, _) | Instr::Call(dst, _, x) | Instr::Copy(dst, x) => {
                f(dst);
                f(x);
            }
            Instr::MulAdd(dst, factors) | Instr::NegMulAdd(dst, factors) => {
                f(dst);
                factors.iter_mut().for_each(f);
            }
        }
    }
}

/// The constants of a program being built, each value once (by its bits, so `0.0` and
/// `−0.0` are two), read through [`Slot::Const`].
#[derive(Debug, Default)]
struct Constants {
    values: Vec<f64>,
    slots: HashMap<u64, usize>,
}

impl Constants {
    /// The slot of `value`, added if it is new.
    fn slot(&mut self, value: f64) -> Slot {
        let values = &mut self.values;
        let index = *self.slots.entry(value.to_bits()).or_insert_with(|| {
            values.push(value);
            values.len() - 1
        });
        Slot::Const(index)
    }
}

/// Panics unless `inputs` and `out` hold the `needed_inputs` and `needed_outputs` values
/// of a program's evaluation (every backend's precondition).
fn assert_room(needed_inputs: usize, needed_outputs: usize, inputs: &[f64], out: &[f64]) {
    assert!(
        inputs.len() >= needed_inputs && out.len() >= needed_outputs,
        "a program of {needed_inputs} inputs and {needed_outputs} outputs evaluated with {} and {}",
        inputs.len(),
        out.len()
    );
}

/// A straight-line program computing `outputs` values from `inputs` values.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Program {
    /// Number of inputs read.
    pub inputs: usize,
    /// Number of outputs written.
    pub outputs: usize,
    /// Number of temporaries used.
    pub temporaries: usize,
    /// Constant values, read through [`Slot::Const`].
    pub constants: Vec<f64>,
    /// The instructions, executed in order. Temporaries and outputs may be written more
    /// than once; each read sees the latest write.
    pub instructions: Vec<Instr>,
}

impl Program {
    /// Runs the program: `out[i]` receives output `i` (0 for an output no instruction
    /// writes). This is the `f64` backend of [`emit::emit`], so it computes what the
    /// generated code computes, bit for bit.
    ///
    /// Panics if `inputs` or `out` are shorter than the program's counts, or if the
    /// program fails [`Program::validate`] (a caller bug: the engine's programs and every
    /// stored one pass it).
    pub fn evaluate(&self, inputs: &[f64], out: &mut [f64]) {
        assert_room(self.inputs, self.outputs, inputs, out);
        let mut evaluator = emit::Evaluator {
            inputs,
            temps: vec![0.0; self.temporaries.min(self.instructions.len())],
            out,
        };
        if let Err(e) = emit::emit(self, &mut evaluator) {
            panic!("an invalid program was evaluated: {e}");
        }
    }

    /// Checks that the program can be emitted (every slot in range, every variable written
    /// before it is read, only variables written, finite constants, no more temporaries
    /// than instructions) and that it reads `inputs` values
    /// and writes `outputs`.
    pub fn validate(&self, inputs: usize, outputs: usize) -> Result<(), IrError> {
        for (what, found, expected) in [
            ("inputs", self.inputs, inputs),
            ("outputs", self.outputs, outputs),
        ] {
            if found != expected {
                return Err(IrError::Count {
                    what,
                    found,
                    expected,
                });
            }
        }
        emit::emit(self, &mut emit::Check::default())
    }

    /// The same program with its outputs reordered: output `j` of the result is output
    /// `order[j]` of this one (the same instructions, so the same bits).
    ///
    /// Panics unless `order` is a permutation of the outputs (a caller bug).
    pub fn with_outputs_at(&self, order: &[usize]) -> Program {
        let mut position = vec![usize::MAX; self.outputs];
        for (j, &k) in order.iter().enumerate() {
            assert!(
                k < self.outputs && position[k] == usize::MAX,
                "not a permutation of {} outputs",
                self.outputs
            );
            position[k] = j;
        }
        assert_eq!(
            order.len(),
            self.outputs,
            "not a permutation of the outputs"
        );
        let mut program = self.clone();
        for instruction in &mut program.instructions {
            instruction.for_each_slot_mut(|slot| {
                if let Slot::Out(k) = slot
                    && let Some(&j) = position.get(*k)
                {
                    *k = j;
                }
            });
        }
        program
    }

    /// Which outputs are zero whatever the inputs, infinite and NaN ones included: never
    /// written, or last written a value known to be zero (a zero constant, a sum of
    /// zeros, a positive power of zero, a copy of one; not a product with a zero factor,
    /// which is NaN for an infinite one). What the tracer folds to zero is found; an
    /// expression that only happens to vanish is not.
    pub fn zero_outputs(&self) -> Vec<bool> {
        self.known_zeros(|c| c == 0.0)
    }

    /// The outputs of [`zero_outputs`](Self::zero_outputs) known to be `+0`, the bits of
    /// a buffer of zeros (from `+0` constants only: sums and positive powers of `+0` are
    /// `+0`): the outputs a program writing into such a buffer need not write.
    pub fn plus_zero_outputs(&self) -> Vec<bool> {
        self.known_zeros(|c| c.to_bits() == 0)
    }

    /// The outputs known to be zero when the constants `zero_constant` accepts are the
    /// zeros.
    fn known_zeros(&self, zero_constant: impl Fn(f64) -> bool) -> Vec<bool> {
        let mut temps = vec![false; self.temporaries];
        let mut out = vec![true; self.outputs];
        for instr in &self.instructions {
            let zero = |slot: &Slot| match *slot {
                Slot::Const(k) => self.constants.get(k).is_some_and(|&c| zero_constant(c)),
                Slot::Temp(k) => temps.get(k).copied().unwrap_or(false),
                Slot::Out(k) => out.get(k).copied().unwrap_or(false),
                Slot::Input(_) => false,
            };
            let (dst, value) = match instr {
                Instr::Add(dst, args) => (dst, args.iter().all(zero)),
                Instr::Powi(dst, base, n) => (dst, *n > 0 && zero(base)),
                Instr::Copy(dst, x) => (dst, zero(x)),
                Instr::Mul(dst, _)
                | Instr::MulAdd(dst, _)
                | Instr::NegMulAdd(dst, _)
                | Instr::Powf(dst, ..)
                | Instr::Call(dst, ..) => (dst, false),
            };
            let written = match *dst {
                Slot::Temp(k) => temps.get_mut(k),
                Slot::Out(k) => out.get_mut(k),
                Slot::Input(_) | Slot::Const(_) => None,
            };
            if let Some(written) = written {
                *written = value;
            }
        }
        out
    }

    /// The program of this one's outputs `outputs` only (numbered from 0), without the
    /// instructions that only the others need: `M` alone out of the program of `M` and
    /// `f`. The instructions kept are this program's, unchanged (nothing is folded again),
    /// so each output has the bits it has here. Panics when `outputs` reaches past the
    /// program's outputs.
    pub fn restricted(&self, outputs: std::ops::Range<usize>) -> Program {
        assert!(
            outputs.end <= self.outputs,
            "outputs {outputs:?} of a program of {}",
            self.outputs
        );
        // Backwards: an instruction is kept when what it writes is read by a kept one
        // after it, or is a wanted output's last value.
        let mut live: HashSet<Slot> = outputs.clone().map(Slot::Out).collect();
        let mut kept = vec![false; self.instructions.len()];
        for (index, instruction) in self.instructions.iter().enumerate().rev() {
            let (destination, sources) = instruction.slots();
            if live.remove(&destination) {
                kept[index] = true;
                live.extend(
                    sources
                        .into_iter()
                        .filter(|s| matches!(s, Slot::Temp(_) | Slot::Out(_))),
                );
            }
        }
        // The wanted outputs from 0; the temporaries, and the other outputs a kept
        // instruction still uses as scratch, as temporaries numbered densely.
        let mut temporaries: HashMap<Slot, usize> = HashMap::new();
        let mut rename = |slot: &mut Slot| match *slot {
            Slot::Out(k) if outputs.contains(&k) => *slot = Slot::Out(k - outputs.start),
            Slot::Out(_) | Slot::Temp(_) => {
                let next = temporaries.len();
                *slot = Slot::Temp(*temporaries.entry(*slot).or_insert(next));
            }
            Slot::Input(_) | Slot::Const(_) => {}
        };
        let instructions: Vec<Instr> = self
            .instructions
            .iter()
            .zip(kept)
            .filter(|(_, kept)| *kept)
            .map(|(instruction, _)| {
                let mut instruction = instruction.clone();
                instruction.for_each_slot_mut(&mut rename);
                instruction
            })
            .collect();
        Program {
            inputs: self.inputs,
            outputs: outputs.len(),
            temporaries: temporaries.len(),
            constants: self.constants.clone(),
            instructions,
        }
    }

    /// Number of arithmetic operations (each `+`, `*`, power and call counts one per use;
    /// a fused multiply-add counts two, its product and its sum).
    pub fn operation_count(&self) -> usize {
        self.instructions
            .iter()
            .map(|i| match i {
                Instr::Add(_, a) | Instr::Mul(_, a) => a.len().saturating_sub(1),
                Instr::MulAdd(..) | Instr::NegMulAdd(..) => 2,
                Instr::Powi(..) | Instr::Powf(..) | Instr::Call(..) => 1,
                Instr::Copy(..) => 0,
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reordered outputs are the same numbers in the new places, a reused output and one
    /// never written included.
    #[test]
    fn outputs_reordered_keep_their_bits() {
        let program = emit::spelling_cases();
        let n = program.outputs;
        // Reversed and rotated: every output moves.
        let order: Vec<usize> = (0..n).map(|j| (2 * n - 1 - j + 3) % n).collect();
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..n).collect::<Vec<_>>(), "a permutation");
        let (mut before, mut after) = (vec![f64::NAN; n], vec![f64::NAN; n]);
        program.evaluate(&[0.7, 1.3], &mut before);
        program
            .with_outputs_at(&order)
            .evaluate(&[0.7, 1.3], &mut after);
        for (j, &k) in order.iter().enumerate() {
            assert_eq!(
                after[j].to_bits(),
                before[k].to_bits(),
                "output {j} (was {k})"
            );
        }
    }

    #[test]
    fn zero_outputs_are_the_ones_no_input_reaches() {
        // out0 = x·0 (not known zero: NaN for an infinite x), out1 never written (zero),
        // out2 = 0 + 0 then x (not zero), out3 = (0 + x)² (not zero), out4 = t0 with
        // t0 = 0², a positive power of zero.
        let program = Program {
            inputs: 1,
            outputs: 5,
            temporaries: 1,
            constants: vec![0.0, 2.0],
            instructions: vec![
                Instr::Mul(Slot::Out(0), vec![Slot::Input(0), Slot::Const(0)]),
                Instr::Add(Slot::Out(2), vec![Slot::Const(0), Slot::Const(0)]),
                Instr::Copy(Slot::Out(2), Slot::Input(0)),
                Instr::Add(Slot::Out(3), vec![Slot::Const(0), Slot::Input(0)]),
                Instr::Powi(Slot::Out(3), Slot::Out(3), 2),
                Instr::Powi(Slot::Temp(0), Slot::Const(0), 2),
                Instr::Copy(Slot::Out(4), Slot::Temp(0)),
            ],
        };
        assert_eq!(program.zero_outputs(), [false, true, false, false, true]);
    }

    #[test]
    fn interpreter_follows_reused_slots() {
        // out0 = (x + 2)^2 ; out1 = sin(x) * out0, with the output slot reused as scratch.
        let program = Program {
            inputs: 1,
            outputs: 2,
            temporaries: 1,
            constants: vec![2.0],
            instructions: vec![
                Instr::Add(Slot::Out(1), vec![Slot::Input(0), Slot::Const(0)]),
                Instr::Powi(Slot::Out(0), Slot::Out(1), 2),
                Instr::Call(Slot::Temp(0), Intrinsic::Sin, Slot::Input(0)),
                Instr::Mul(Slot::Out(1), vec![Slot::Temp(0), Slot::Out(0)]),
            ],
        };
        let mut out = [0.0; 2];
        program.evaluate(&[0.5], &mut out);
        assert_eq!(out[0], 6.25);
        assert_eq!(out[1], 0.5f64.sin() * 6.25);
        assert_eq!(program.operation_count(), 4);
    }

    #[test]
    fn the_plus_zero_outputs_are_the_zeros_with_the_bits_of_plus_zero() {
        // Output 0 never written; 1 the constant +0; 2 the constant −0; 3 +0, then a sum;
        // 4 a sum, then +0; 5 a sum that happens to be 0 at some inputs.
        let program = Program {
            inputs: 1,
            outputs: 6,
            temporaries: 0,
            constants: vec![0.0, -0.0],
            instructions: vec![
                Instr::Copy(Slot::Out(1), Slot::Const(0)),
                Instr::Copy(Slot::Out(2), Slot::Const(1)),
                Instr::Copy(Slot::Out(3), Slot::Const(0)),
                Instr::Add(Slot::Out(3), vec![Slot::Input(0), Slot::Const(0)]),
                Instr::Add(Slot::Out(4), vec![Slot::Input(0), Slot::Const(0)]),
                Instr::Copy(Slot::Out(4), Slot::Const(0)),
                Instr::Add(Slot::Out(5), vec![Slot::Input(0), Slot::Input(0)]),
            ],
        };
        program.validate(1, 6).unwrap();
        assert_eq!(
            program.plus_zero_outputs(),
            [true, true, false, false, true, false]
        );
        assert_eq!(
            program.zero_outputs(),
            [true, true, true, false, true, false]
        );
        let mut out = [f64::NAN; 6];
        program.evaluate(&[0.0], &mut out);
        for (x, zero) in out.iter().zip(program.plus_zero_outputs()) {
            if zero {
                assert_eq!(x.to_bits(), 0);
            }
        }
    }

    #[test]
    fn a_restricted_program_computes_its_outputs_alone_with_the_same_bits() {
        // out0 = (x + 2)², out1 = sin(x)·(x + 2)², out2 = 3x + y, out3 = 2^0.5 (numbers
        // only, kept as the instruction it is); output 1 reused as scratch before it holds
        // its value, temporary 0 written twice.
        let program = Program {
            inputs: 2,
            outputs: 4,
            temporaries: 1,
            constants: vec![2.0, 3.0, 0.5],
            instructions: vec![
                Instr::Add(Slot::Out(1), vec![Slot::Input(0), Slot::Const(0)]),
                Instr::Powi(Slot::Out(0), Slot::Out(1), 2),
                Instr::Call(Slot::Temp(0), Intrinsic::Sin, Slot::Input(0)),
                Instr::Mul(Slot::Out(1), vec![Slot::Temp(0), Slot::Out(0)]),
                Instr::Mul(Slot::Temp(0), vec![Slot::Const(1), Slot::Input(0)]),
                Instr::Add(Slot::Out(2), vec![Slot::Temp(0), Slot::Input(1)]),
                Instr::Powf(Slot::Out(3), Slot::Const(0), Slot::Const(2)),
            ],
        };
        let inputs = [0.7, -1.3];
        let mut full = [0.0; 4];
        program.evaluate(&inputs, &mut full);
        for (range, operations) in [(0..1, 2), (0..2, 4), (2..3, 2), (1..3, 6), (3..4, 1)] {
            let restricted = program.restricted(range.clone());
            restricted.validate(2, range.len()).unwrap();
            let mut out = vec![0.0; range.len()];
            restricted.evaluate(&inputs, &mut out);
            assert_eq!(out, full[range.clone()], "outputs {range:?}");
            assert_eq!(
                restricted.operation_count(),
                operations,
                "outputs {range:?}"
            );
        }
        assert!(matches!(
            program.restricted(3..4).instructions[..],
            [Instr::Powf(Slot::Out(0), Slot::Const(0), Slot::Const(2))]
        ));
    }
}

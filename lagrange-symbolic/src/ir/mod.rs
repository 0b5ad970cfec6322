//! The symbolica-free intermediate representation of derived functions: straight-line
//! programs over `f64` slots, with common subexpressions already shared across all
//! outputs of one program. Code generators (the derive, templates) and the interpreter
//! below consume it; nothing here knows about the computer-algebra engine.

use serde::{Deserialize, Serialize};
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    /// `dst = src`.
    Copy(Slot, Slot),
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
    /// Runs the program: `out[i]` receives output `i`.
    ///
    /// Panics if `inputs` or `out` are shorter than the program's counts (a caller bug).
    pub fn evaluate(&self, inputs: &[f64], out: &mut [f64]) {
        let mut temps = vec![0.0; self.temporaries];
        let read = |slot: Slot, temps: &[f64], out: &[f64]| match slot {
            Slot::Input(i) => inputs[i],
            Slot::Const(i) => self.constants[i],
            Slot::Temp(i) => temps[i],
            Slot::Out(i) => out[i],
        };
        for instr in &self.instructions {
            let (dst, value) = match instr {
                Instr::Add(dst, args) => (dst, args.iter().map(|&a| read(a, &temps, out)).sum()),
                Instr::Mul(dst, args) => {
                    (dst, args.iter().map(|&a| read(a, &temps, out)).product())
                }
                Instr::Powi(dst, base, n) => (dst, read(*base, &temps, out).powi(*n)),
                Instr::Powf(dst, base, e) => {
                    (dst, read(*base, &temps, out).powf(read(*e, &temps, out)))
                }
                Instr::Call(dst, f, x) => (dst, f.apply(read(*x, &temps, out))),
                Instr::Copy(dst, src) => (dst, read(*src, &temps, out)),
            };
            match *dst {
                Slot::Temp(i) => temps[i] = value,
                Slot::Out(i) => out[i] = value,
                Slot::Input(_) | Slot::Const(_) => {
                    unreachable!("the engine never writes inputs or constants")
                }
            }
        }
    }

    /// Number of arithmetic operations (each `+`, `*`, power and call counts one per use).
    pub fn operation_count(&self) -> usize {
        self.instructions
            .iter()
            .map(|i| match i {
                Instr::Add(_, a) | Instr::Mul(_, a) => a.len().saturating_sub(1),
                Instr::Powi(..) | Instr::Powf(..) | Instr::Call(..) => 1,
                Instr::Copy(..) => 0,
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}

//! The one walk from a [`Program`] to code: every backend (the Rust text of
//! [`super::rust`], which the derive lexes into tokens and `lagrange generate` writes, the
//! C text of `lagrange generate`, and the `f64` interpreter [`Program::evaluate`])
//! is an [`Emitter`] driven by [`emit`], so all of them compute the same numbers, bit
//! for bit.
//!
//! The walk owns every spelling decision: sums and products left to right over the
//! argument list (an empty sum is `0.0`, an empty product `1.0`), integer powers from
//! −2 to 3 multiplied out (`x²` is `x * x`, `x⁻²` is `1.0 / (x * x)`, the order in which
//! `powi` itself multiplies), powers ±½ as `sqrt`, negative constants (−0.0 included)
//! as a parenthesized negation, a fused multiply-add as one operation with one rounding
//! (its negated factor `-a` grouped), and an output no instruction writes as `0.0`. It
//! also checks every slot as it goes, so no backend can index out of range.

use std::fmt;

use super::{Instr, Intrinsic, Program, Slot};

/// A variable of the emitted code: a temporary or an output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variable {
    /// Temporary `i`.
    Temp(usize),
    /// Output `i`.
    Out(usize),
}

/// A backend of [`emit`]: how to spell (or compute) each operation the walk asks for.
/// The walk only ever hands an operation values it built itself, in the shapes its
/// module documentation lists; a text backend needs no precedence rules of its own.
pub trait Emitter {
    /// An expression (text, tokens) or its value (`f64`).
    type Value: Clone;
    /// Input slot `index` (checked against [`Program::inputs`]).
    fn input(&mut self, index: usize) -> Self::Value;
    /// A finite literal with its sign bit clear.
    fn literal(&mut self, value: f64) -> Self::Value;
    /// The latest value written to `variable` (the walk checks it was written).
    fn variable(&mut self, variable: Variable) -> Self::Value;
    /// `(x)`: a group, so that what follows reads it as one operand.
    fn group(&mut self, x: Self::Value) -> Self::Value;
    /// `-x`.
    fn negate(&mut self, x: Self::Value) -> Self::Value;
    /// `a + b`.
    fn add(&mut self, a: Self::Value, b: Self::Value) -> Self::Value;
    /// `a * b`.
    fn mul(&mut self, a: Self::Value, b: Self::Value) -> Self::Value;
    /// `a * b + c` with one rounding (IEEE 754 fusedMultiplyAdd: Rust's `f64::mul_add`,
    /// C's `fma`).
    fn mul_add(&mut self, a: Self::Value, b: Self::Value, c: Self::Value) -> Self::Value;
    /// `a / b`.
    fn div(&mut self, a: Self::Value, b: Self::Value) -> Self::Value;
    /// `f(x)`.
    fn call(&mut self, f: Intrinsic, x: Self::Value) -> Self::Value;
    /// `x^n` for an integer `n` outside −2…3, by binary exponentiation (Rust's `powi`).
    fn powi(&mut self, x: Self::Value, n: i32) -> Self::Value;
    /// `x^e`.
    fn powf(&mut self, x: Self::Value, e: Self::Value) -> Self::Value;
    /// `variable = value`; `first` on the variable's first write.
    fn assign(&mut self, variable: Variable, value: Self::Value, first: bool);
    /// The final value of output `index`, after every instruction, in output order.
    fn output(&mut self, index: usize, value: Self::Value);
}

/// Why a program cannot be emitted or used.
#[derive(Debug, Clone, PartialEq)]
pub enum IrError {
    /// A count differs from the one the program's role requires.
    Count {
        /// `inputs` or `outputs`.
        what: &'static str,
        /// The program's count.
        found: usize,
        /// The required count.
        expected: usize,
    },
    /// More temporaries than instructions: no program the engine writes has that many.
    Oversized {
        /// `temporaries`.
        what: &'static str,
        /// The program's count.
        found: usize,
        /// The largest count the instructions can use.
        limit: usize,
    },
    /// A non-finite constant.
    Constant {
        /// Its index.
        index: usize,
    },
    /// An instruction reads or writes a slot it may not.
    Slot {
        /// The instruction's index.
        instruction: usize,
        /// The slot.
        slot: Slot,
        /// What is wrong with it.
        problem: &'static str,
    },
}

impl fmt::Display for IrError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IrError::Count {
                what,
                found,
                expected,
            } => write!(f, "it has {found} {what}, where {expected} are required"),
            IrError::Oversized { what, found, limit } => write!(
                f,
                "it declares {found} {what}, more than its instructions can use ({limit})"
            ),
            IrError::Constant { index } => write!(f, "constant {index} is not finite"),
            IrError::Slot {
                instruction,
                slot,
                problem,
            } => write!(f, "instruction {instruction} {problem} {slot:?}"),
        }
    }
}

impl std::error::Error for IrError {}

/// Walks `program`, calling `emitter` for every operation, assignment and output.
/// Checks the program as it goes: the emitter is never called with a slot out of range,
/// a variable read before it is written, or a non-finite constant.
pub fn emit<E: Emitter>(program: &Program, emitter: &mut E) -> Result<(), IrError> {
    check_sizes(program)?;
    let mut walk = Walk {
        program,
        emitter,
        temps: vec![false; program.temporaries],
        outs: vec![false; program.outputs],
        index: 0,
    };
    for (index, instr) in program.instructions.iter().enumerate() {
        walk.index = index;
        walk.step(instr)?;
    }
    for index in 0..program.outputs {
        let value = if walk.outs[index] {
            walk.emitter.variable(Variable::Out(index))
        } else {
            walk.emitter.literal(0.0)
        };
        walk.emitter.output(index, value);
    }
    Ok(())
}

/// Refuses a count of temporaries no instruction list can need (each temporary is
/// written by an instruction), before anything is allocated for it, and non-finite
/// constants. The constants themselves are already in memory (the engine may keep some
/// that no instruction reads), so their number needs no bound.
fn check_sizes(program: &Program) -> Result<(), IrError> {
    let instructions = program.instructions.len();
    if program.temporaries > instructions {
        return Err(IrError::Oversized {
            what: "temporaries",
            found: program.temporaries,
            limit: instructions,
        });
    }
    match program.constants.iter().position(|c| !c.is_finite()) {
        Some(index) => Err(IrError::Constant { index }),
        None => Ok(()),
    }
}

/// The state of one walk: which variables have been written so far.
struct Walk<'a, E: Emitter> {
    program: &'a Program,
    emitter: &'a mut E,
    temps: Vec<bool>,
    outs: Vec<bool>,
    /// The index of the instruction being walked.
    index: usize,
}

impl<E: Emitter> Walk<'_, E> {
    /// Emits one instruction.
    fn step(&mut self, instr: &Instr) -> Result<(), IrError> {
        let (dst, value) = match instr {
            Instr::Add(dst, args) => (dst, self.fold(args, 0.0, E::add)?),
            Instr::Mul(dst, args) => (dst, self.fold(args, 1.0, E::mul)?),
            Instr::Powi(dst, base, n) => {
                let b = self.read(*base)?;
                (dst, self.power(b, *n))
            }
            Instr::Powf(dst, base, exponent) => {
                let b = self.read(*base)?;
                let half = |sign: f64| match *exponent {
                    Slot::Const(i) => self.program.constants.get(i) == Some(&(sign * 0.5)),
                    _ => false,
                };
                let value = if half(1.0) {
                    self.emitter.call(Intrinsic::Sqrt, b)
                } else if half(-1.0) {
                    let one = self.emitter.literal(1.0);
                    let root = self.emitter.call(Intrinsic::Sqrt, b);
                    self.emitter.div(one, root)
                } else {
                    let e = self.read_argument(*exponent)?;
                    self.emitter.powf(b, e)
                };
                (dst, value)
            }
            Instr::Call(dst, f, x) => {
                let x = self.read(*x)?;
                (dst, self.emitter.call(*f, x))
            }
            Instr::MulAdd(dst, [a, b, c]) | Instr::NegMulAdd(dst, [a, b, c]) => {
                let mut a = self.read(*a)?;
                if matches!(instr, Instr::NegMulAdd(..)) {
                    let minus = self.emitter.negate(a);
                    a = self.emitter.group(minus);
                }
                let b = self.read(*b)?;
                let c = self.read(*c)?;
                (dst, self.emitter.mul_add(a, b, c))
            }
            Instr::Copy(dst, src) => (dst, self.read(*src)?),
        };
        let (variable, written) = match *dst {
            Slot::Temp(i) => (Variable::Temp(i), self.temps.get_mut(i)),
            Slot::Out(i) => (Variable::Out(i), self.outs.get_mut(i)),
            Slot::Input(_) | Slot::Const(_) => return Err(self.bad(*dst, "writes to")),
        };
        let Some(written) = written else {
            return Err(self.bad(*dst, "writes to the out-of-range"));
        };
        let first = !*written;
        *written = true;
        self.emitter.assign(variable, value, first);
        Ok(())
    }

    /// `args` combined left to right by `op`, or the literal `empty` for no arguments.
    fn fold(
        &mut self,
        args: &[Slot],
        empty: f64,
        op: fn(&mut E, E::Value, E::Value) -> E::Value,
    ) -> Result<E::Value, IrError> {
        let mut acc: Option<E::Value> = None;
        for &slot in args {
            let value = self.read(slot)?;
            acc = Some(match acc {
                Some(acc) => op(self.emitter, acc, value),
                None => value,
            });
        }
        Ok(acc.unwrap_or_else(|| self.emitter.literal(empty)))
    }

    /// `b^n`, small powers multiplied out in the order `powi` multiplies.
    fn power(&mut self, b: E::Value, n: i32) -> E::Value {
        let e = &mut *self.emitter;
        match n {
            0 => e.literal(1.0),
            1 => b,
            2 => e.mul(b.clone(), b),
            3 => {
                let square = e.mul(b.clone(), b.clone());
                e.mul(square, b)
            }
            -1 => {
                let one = e.literal(1.0);
                e.div(one, b)
            }
            -2 => {
                let one = e.literal(1.0);
                let square = e.mul(b.clone(), b);
                let square = e.group(square);
                e.div(one, square)
            }
            n => e.powi(b, n),
        }
    }

    /// [`read`](Self::read) for a function's argument, which needs no grouping: a
    /// negative constant as `-c`, not `(-c)`.
    fn read_argument(&mut self, slot: Slot) -> Result<E::Value, IrError> {
        match slot {
            Slot::Const(i) => match self.program.constants.get(i) {
                Some(&c) if c.is_sign_negative() => {
                    let literal = self.emitter.literal(-c);
                    Ok(self.emitter.negate(literal))
                }
                _ => self.read(slot),
            },
            _ => self.read(slot),
        }
    }

    /// The value of `slot`: an input, a constant (negative ones negated and grouped) or a
    /// variable written before.
    fn read(&mut self, slot: Slot) -> Result<E::Value, IrError> {
        match slot {
            Slot::Input(i) if i < self.program.inputs => Ok(self.emitter.input(i)),
            Slot::Const(i) => match self.program.constants.get(i) {
                Some(&c) if c.is_sign_negative() => {
                    let literal = self.emitter.literal(-c);
                    let negated = self.emitter.negate(literal);
                    Ok(self.emitter.group(negated))
                }
                Some(&c) => Ok(self.emitter.literal(c)),
                None => Err(self.bad(slot, "reads the out-of-range")),
            },
            Slot::Temp(i) | Slot::Out(i) => {
                let (variable, written) = match slot {
                    Slot::Temp(_) => (Variable::Temp(i), self.temps.get(i)),
                    _ => (Variable::Out(i), self.outs.get(i)),
                };
                match written {
                    Some(true) => Ok(self.emitter.variable(variable)),
                    Some(false) => Err(self.bad(slot, "reads the not yet written")),
                    None => Err(self.bad(slot, "reads the out-of-range")),
                }
            }
            Slot::Input(_) => Err(self.bad(slot, "reads the out-of-range")),
        }
    }

    /// The error of the current instruction about `slot`.
    fn bad(&self, slot: Slot, problem: &'static str) -> IrError {
        IrError::Slot {
            instruction: self.index,
            slot,
            problem,
        }
    }
}

/// The `f64` backend: computes the program's outputs.
pub(super) struct Evaluator<'a> {
    pub(super) inputs: &'a [f64],
    pub(super) temps: Vec<f64>,
    pub(super) out: &'a mut [f64],
}

impl Emitter for Evaluator<'_> {
    type Value = f64;
    fn input(&mut self, index: usize) -> f64 {
        self.inputs[index]
    }
    fn literal(&mut self, value: f64) -> f64 {
        value
    }
    fn variable(&mut self, variable: Variable) -> f64 {
        match variable {
            Variable::Temp(i) => self.temps[i],
            Variable::Out(i) => self.out[i],
        }
    }
    fn group(&mut self, x: f64) -> f64 {
        x
    }
    fn negate(&mut self, x: f64) -> f64 {
        -x
    }
    fn add(&mut self, a: f64, b: f64) -> f64 {
        a + b
    }
    fn mul(&mut self, a: f64, b: f64) -> f64 {
        a * b
    }
    fn mul_add(&mut self, a: f64, b: f64, c: f64) -> f64 {
        a.mul_add(b, c)
    }
    fn div(&mut self, a: f64, b: f64) -> f64 {
        a / b
    }
    fn call(&mut self, f: Intrinsic, x: f64) -> f64 {
        f.apply(x)
    }
    fn powi(&mut self, x: f64, n: i32) -> f64 {
        x.powi(n)
    }
    fn powf(&mut self, x: f64, e: f64) -> f64 {
        x.powf(e)
    }
    fn assign(&mut self, variable: Variable, value: f64, _first: bool) {
        match variable {
            Variable::Temp(i) => self.temps[i] = value,
            Variable::Out(i) => self.out[i] = value,
        }
    }
    fn output(&mut self, index: usize, value: f64) {
        self.out[index] = value;
    }
}

/// Variables one declaration introduces in [`declarations`].
pub const DECLARATION_GROUP: usize = 64;

/// The variables `program` writes, in the order of their first writes, each with whether
/// it is written again, in groups of [`DECLARATION_GROUP`]: for backends that declare the
/// variables before the statements and then assign. Rust needs that: a `let` per write
/// opens a lexical scope per write, nested in the previous one, and with debug info
/// thousands of them (the Jacobians of an 8-link chain) overflow LLVM's stack while it
/// describes the scopes, so rustc crashes. The optimizer sees the same code either way.
pub fn declarations(program: &Program) -> Result<Vec<Vec<(Variable, bool)>>, IrError> {
    let mut written = Check::default();
    emit(program, &mut written)?;
    Ok(written
        .order
        .chunks(DECLARATION_GROUP)
        .map(<[_]>::to_vec)
        .collect())
}

/// An emitter that only lets the walk check, noting the variables written (for
/// [`declarations`]).
#[derive(Default)]
pub(super) struct Check {
    order: Vec<(Variable, bool)>,
    positions: std::collections::HashMap<Variable, usize>,
}

impl Emitter for Check {
    type Value = ();
    fn input(&mut self, _: usize) {}
    fn literal(&mut self, _: f64) {}
    fn variable(&mut self, _: Variable) {}
    fn group(&mut self, _: ()) {}
    fn negate(&mut self, _: ()) {}
    fn add(&mut self, _: (), _: ()) {}
    fn mul(&mut self, _: (), _: ()) {}
    fn mul_add(&mut self, _: (), _: (), _: ()) {}
    fn div(&mut self, _: (), _: ()) {}
    fn call(&mut self, _: Intrinsic, _: ()) {}
    fn powi(&mut self, _: (), _: i32) {}
    fn powf(&mut self, _: (), _: ()) {}
    fn assign(&mut self, variable: Variable, _: (), first: bool) {
        if first {
            self.positions.insert(variable, self.order.len());
            self.order.push((variable, false));
        } else if let Some(&at) = self.positions.get(&variable) {
            self.order[at].1 = true;
        }
    }
    fn output(&mut self, _: usize, _: ()) {}
}

/// A program that exercises every decision of the walk, for the backends' tests: −0.0
/// and other negative constants, powers ±½ and other real powers, every integer power
/// from −4 to 5 and a large one, every intrinsic, empty sums and products, fused
/// multiply-adds (one negated, of a negative constant), constants written with an
/// exponent, a reused output and an output never written. Its two inputs are meant to be positive.
pub fn spelling_cases() -> Program {
    use Slot::{Const, Input, Out, Temp};
    let x = Input(0);
    let y = Input(1);
    let mut instructions = vec![
        Instr::Mul(Temp(0), vec![x, Const(0)]),
        Instr::Add(Out(0), vec![Temp(0), Const(0)]),
        Instr::Powf(Out(1), y, Const(1)),
        Instr::Powf(Out(2), y, Const(2)),
        Instr::Powf(Out(3), x, Const(3)),
        Instr::Powf(Out(4), Const(3), y),
        Instr::Add(Out(5), vec![]),
        Instr::Mul(Out(6), vec![]),
        Instr::Add(Out(7), vec![x, y, Const(4), Const(5)]),
        Instr::Mul(Out(8), vec![x, y, Const(5), Const(6), Const(0)]),
        Instr::Copy(Out(9), Const(0)),
    ];
    let mut next = 10;
    for n in [-4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 17, -29] {
        instructions.push(Instr::Powi(Out(next), x, n));
        next += 1;
    }
    instructions.push(Instr::Powi(Out(next), Const(4), 7));
    next += 1;
    for f in [
        Intrinsic::Sin,
        Intrinsic::Cos,
        Intrinsic::Exp,
        Intrinsic::Log,
        Intrinsic::Sqrt,
    ] {
        instructions.push(Instr::Call(Temp(1), f, y));
        instructions.push(Instr::Mul(Out(next), vec![Temp(1), x]));
        next += 1;
    }
    instructions.push(Instr::Call(Out(next), Intrinsic::Cos, Const(4)));
    next += 1;
    // Fused multiply-adds: of inputs and a constant, and negated, of a negative constant
    // and of a variable.
    instructions.push(Instr::MulAdd(Out(next), [x, y, Const(6)]));
    instructions.push(Instr::NegMulAdd(Out(next + 1), [Const(4), y, x]));
    instructions.push(Instr::NegMulAdd(Out(next + 2), [Temp(1), x, Const(3)]));
    next += 3;
    // Constants whose shortest decimals are in exponent form: 1e16, 1e300 and the least
    // subnormal, 5e-324 (their product is 4.94e-24, so neither vanishes).
    instructions.push(Instr::Mul(Out(next), vec![x, Const(7)]));
    instructions.push(Instr::Mul(Out(next + 1), vec![Const(8), Const(9)]));
    next += 2;
    // Output 0 reused as scratch, then written again from itself.
    instructions.push(Instr::Add(Out(0), vec![Out(0), Out(1)]));
    Program {
        inputs: 2,
        outputs: next + 1,
        temporaries: 2,
        constants: vec![
            -0.0, 0.5, -0.5, 2.5, -1.25, 1e-300, 0.1, 1e16, 1e300, 5e-324,
        ],
        instructions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The outputs of [`spelling_cases`] at `(x, y)`, written out by hand.
    fn expected(x: f64, y: f64) -> Vec<f64> {
        let mut v = vec![
            x * -0.0 + -0.0 + y.sqrt(),
            y.sqrt(),
            1.0 / y.sqrt(),
            x.powf(2.5),
            2.5f64.powf(y),
            0.0,
            1.0,
            x + y + -1.25 + 1e-300,
            x * y * 1e-300 * 0.1 * -0.0,
            -0.0,
        ];
        for n in [-4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 17, -29] {
            v.push(x.powi(n));
        }
        v.push((-1.25f64).powi(7));
        for f in [f64::sin, f64::cos, f64::exp, f64::ln, f64::sqrt] {
            v.push(f(y) * x);
        }
        v.push((-1.25f64).cos());
        v.push(x.mul_add(y, 0.1));
        v.push(1.25f64.mul_add(y, x));
        v.push((-y.sqrt()).mul_add(x, 2.5));
        v.push(x * 1e16);
        v.push(1e300 * 5e-324);
        v.push(0.0);
        v
    }

    #[test]
    fn evaluation_follows_every_spelling_rule() {
        let program = spelling_cases();
        for (x, y) in [(0.7, 1.3), (2.0, 0.25)] {
            let mut out = vec![f64::NAN; program.outputs];
            program.evaluate(&[x, y], &mut out);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&out), bits(&expected(x, y)), "at ({x}, {y})");
        }
    }

    #[test]
    fn negative_zero_keeps_its_sign() {
        let program = Program {
            inputs: 0,
            outputs: 1,
            temporaries: 0,
            constants: vec![-0.0],
            instructions: vec![Instr::Add(Slot::Out(0), vec![Slot::Const(0)])],
        };
        let mut out = [1.0];
        program.evaluate(&[], &mut out);
        assert!(out[0] == 0.0 && out[0].is_sign_negative());
    }

    #[test]
    fn bad_slots_are_errors_not_panics() {
        let base = Program {
            inputs: 1,
            outputs: 1,
            temporaries: 1,
            constants: vec![2.0],
            instructions: vec![Instr::Copy(Slot::Temp(0), Slot::Input(0))],
        };
        let cases = [
            Instr::Copy(Slot::Out(0), Slot::Input(1)),
            Instr::Copy(Slot::Out(0), Slot::Const(1)),
            Instr::Copy(Slot::Out(0), Slot::Temp(1)),
            Instr::Copy(Slot::Out(1), Slot::Temp(0)),
            Instr::Copy(Slot::Input(0), Slot::Temp(0)),
            Instr::Copy(Slot::Const(0), Slot::Temp(0)),
            Instr::Add(Slot::Out(0), vec![Slot::Out(0)]),
            Instr::Powf(Slot::Out(0), Slot::Temp(0), Slot::Const(7)),
            // A fused multiply-add (as a stored entry may hold one) reading out of range
            // or before a write, or writing an input.
            Instr::MulAdd(
                Slot::Out(0),
                [Slot::Temp(0), Slot::Input(3), Slot::Const(0)],
            ),
            Instr::NegMulAdd(Slot::Out(0), [Slot::Temp(0), Slot::Const(0), Slot::Out(0)]),
            Instr::MulAdd(
                Slot::Input(0),
                [Slot::Temp(0), Slot::Temp(0), Slot::Temp(0)],
            ),
        ];
        for bad in cases {
            let mut program = base.clone();
            program.instructions.push(bad.clone());
            let error = emit(&program, &mut Check::default()).expect_err(&format!("{bad:?}"));
            assert!(
                matches!(error, IrError::Slot { instruction: 1, .. }),
                "{bad:?}: {error}"
            );
        }
    }

    #[test]
    fn forged_sizes_are_refused_before_allocating() {
        let program = Program {
            temporaries: 1_000_000_000_000,
            ..spelling_cases()
        };
        assert!(matches!(
            emit(&program, &mut Check::default()),
            Err(IrError::Oversized {
                what: "temporaries",
                ..
            })
        ));
    }
}

//! Programs recorded by running an algorithm on traced numbers: each operation on a
//! [`Value`] that is not a known number appends one instruction, an operation seen
//! before reuses its result (shared subexpressions by hashing), and known numbers are
//! folded (`0·x = 0`, `1·x = x`, `0 + x = x`, numbers with numbers). An algorithm written
//! once over `Value`s thus becomes straight-line code specialized to its data, with the
//! zeros of that data (the axes, offsets and inertias of a mechanism) folded away.

use std::collections::HashMap;

use super::{Constants, Instr, Intrinsic, Program, Slot};

/// A traced number: known while tracing, or read from a slot of the program.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// A number known while tracing.
    Number(f64),
    /// The value in a slot (an input or an earlier result).
    At(Slot),
}

impl Value {
    /// The zero value.
    pub const ZERO: Value = Value::Number(0.0);
    /// The one value.
    pub const ONE: Value = Value::Number(1.0);
}

/// An operand as a hash key: numbers by their bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Operand {
    Number(u64),
    At(SlotKey),
}

/// An input or temporary slot as an ordered key (to put the operands of `+` and `·` in
/// one order); constants are keyed as numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum SlotKey {
    Input(usize),
    Temp(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    Add(Operand, Operand),
    Mul(Operand, Operand),
    Powi(Operand, i32),
    Powf(Operand, Operand),
    Call(Intrinsic, Operand),
}

/// Records a straight-line [`Program`] over `inputs` input slots.
#[derive(Debug)]
pub struct Tracer {
    inputs: usize,
    constants: Constants,
    instructions: Vec<Instr>,
    temporaries: usize,
    shared: HashMap<Key, Slot>,
}

impl Tracer {
    /// A tracer of a program that reads `inputs` values.
    pub fn new(inputs: usize) -> Tracer {
        Tracer {
            inputs,
            constants: Constants::default(),
            instructions: Vec::new(),
            temporaries: 0,
            shared: HashMap::new(),
        }
    }

    /// Input `i` of the program. Panics if `i` is not below the input count.
    pub fn input(&self, i: usize) -> Value {
        assert!(i < self.inputs, "input {i} of a program of {}", self.inputs);
        Value::At(Slot::Input(i))
    }

    /// `a + b`.
    pub fn add(&mut self, a: Value, b: Value) -> Value {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => Value::Number(x + y),
            (Value::Number(z), v) | (v, Value::Number(z)) if z == 0.0 => v,
            _ => {
                let (a, b) = ordered(self.operand(a), self.operand(b));
                self.record(Key::Add(a, b))
            }
        }
    }

    /// `a − b`.
    pub fn sub(&mut self, a: Value, b: Value) -> Value {
        let minus_b = self.neg(b);
        self.add(a, minus_b)
    }

    /// `−a`.
    pub fn neg(&mut self, a: Value) -> Value {
        self.mul(Value::Number(-1.0), a)
    }

    /// `a · b`.
    pub fn mul(&mut self, a: Value, b: Value) -> Value {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => Value::Number(x * y),
            (Value::Number(z), _) | (_, Value::Number(z)) if z == 0.0 => Value::ZERO,
            (Value::Number(one), v) | (v, Value::Number(one)) if one == 1.0 => v,
            _ => {
                let (a, b) = ordered(self.operand(a), self.operand(b));
                self.record(Key::Mul(a, b))
            }
        }
    }

    /// `a^n` for an integer `n`.
    pub fn powi(&mut self, a: Value, n: i32) -> Value {
        match (a, n) {
            (Value::Number(x), _) => Value::Number(x.powi(n)),
            (_, 0) => Value::ONE,
            (_, 1) => a,
            _ => {
                let a = self.operand(a);
                self.record(Key::Powi(a, n))
            }
        }
    }

    /// `a^e`.
    pub fn powf(&mut self, a: Value, e: Value) -> Value {
        match (a, e) {
            (Value::Number(x), Value::Number(y)) => Value::Number(x.powf(y)),
            _ => {
                let (a, e) = (self.operand(a), self.operand(e));
                self.record(Key::Powf(a, e))
            }
        }
    }

    /// `f(a)`.
    pub fn call(&mut self, f: Intrinsic, a: Value) -> Value {
        match a {
            Value::Number(x) => Value::Number(f.apply(x)),
            _ => {
                let a = self.operand(a);
                self.record(Key::Call(f, a))
            }
        }
    }

    /// The sum of `terms` (0 for none).
    pub fn sum(&mut self, terms: impl IntoIterator<Item = Value>) -> Value {
        terms
            .into_iter()
            .fold(Value::ZERO, |acc, x| self.add(acc, x))
    }

    // Longer than 120 lines because it is one match holding the forward-mode rule of
    // each instruction, a few lines each, all reading and writing the same `written`
    // slots through `read`: functions per rule would each need the table, the seeds and
    // the tracer.
    /// Re-traces `program` on `inputs` (one value per input slot) and returns its outputs
    /// with their derivatives (forward mode): `(value, tangents)` per output, `tangents[k]`
    /// the derivative along direction `k`, where `seeds[i][k]` is input `i`'s derivative
    /// along `k`. Zeros fold: an output that does not depend on a direction gets a known
    /// 0 there.
    ///
    /// Panics if `program` fails [`Program::validate`] for its own counts (the engine's
    /// programs pass it) or if `inputs`/`seeds` do not match its input count.
    pub fn differentiate(
        &mut self,
        program: &Program,
        inputs: &[Value],
        seeds: &[Vec<Value>],
    ) -> Vec<(Value, Vec<Value>)> {
        assert!(inputs.len() == program.inputs && seeds.len() == program.inputs);
        program
            .validate(program.inputs, program.outputs)
            .expect("a valid program");
        let directions = seeds.first().map_or(0, Vec::len);
        let zero = vec![Value::ZERO; directions];
        let mut written: HashMap<Slot, (Value, Vec<Value>)> = HashMap::new();
        let read = |written: &HashMap<Slot, (Value, Vec<Value>)>, slot: Slot| match slot {
            Slot::Input(i) => (inputs[i], seeds[i].clone()),
            Slot::Const(i) => (Value::Number(program.constants[i]), zero.clone()),
            Slot::Temp(_) | Slot::Out(_) => written[&slot].clone(),
        };
        for instruction in &program.instructions {
            let (destination, result) = match instruction {
                Instr::Add(dst, args) => {
                    let mut acc = (Value::ZERO, zero.clone());
                    for &a in args {
                        let (x, dx) = read(&written, a);
                        acc.0 = self.add(acc.0, x);
                        for (d, dxk) in acc.1.iter_mut().zip(dx) {
                            *d = self.add(*d, dxk);
                        }
                    }
                    (dst, acc)
                }
                Instr::Mul(dst, args) => {
                    let mut acc = (Value::ONE, zero.clone());
                    for &a in args {
                        let (x, dx) = read(&written, a);
                        // (p x)' = p' x + p x'.
                        for (d, dxk) in acc.1.iter_mut().zip(dx) {
                            let left = self.mul(*d, x);
                            let right = self.mul(acc.0, dxk);
                            *d = self.add(left, right);
                        }
                        acc.0 = self.mul(acc.0, x);
                    }
                    (dst, acc)
                }
                Instr::Powi(dst, base, n) => {
                    let (x, dx) = read(&written, *base);
                    let value = self.powi(x, *n);
                    let lower = self.powi(x, n - 1);
                    let factor = self.mul(Value::Number(f64::from(*n)), lower);
                    (dst, (value, self.scaled(factor, &dx)))
                }
                Instr::Powf(dst, base, exponent) => {
                    // (x^e)' = x^e (e' ln x + e x'/x).
                    let (x, dx) = read(&written, *base);
                    let (e, de) = read(&written, *exponent);
                    let value = self.powf(x, e);
                    let ln = self.call(Intrinsic::Log, x);
                    let over = self.powi(x, -1);
                    let e_over = self.mul(e, over);
                    let tangents = dx
                        .iter()
                        .zip(&de)
                        .map(|(&dxk, &dek)| {
                            let a = self.mul(dek, ln);
                            let b = self.mul(e_over, dxk);
                            let sum = self.add(a, b);
                            self.mul(value, sum)
                        })
                        .collect();
                    (dst, (value, tangents))
                }
                Instr::Call(dst, f, arg) => {
                    let (x, dx) = read(&written, *arg);
                    let value = self.call(*f, x);
                    let slope = match f {
                        Intrinsic::Sin => self.call(Intrinsic::Cos, x),
                        Intrinsic::Cos => {
                            let sine = self.call(Intrinsic::Sin, x);
                            self.neg(sine)
                        }
                        Intrinsic::Exp => value,
                        Intrinsic::Log => self.powi(x, -1),
                        Intrinsic::Sqrt => {
                            let twice = self.mul(Value::Number(2.0), value);
                            self.powi(twice, -1)
                        }
                    };
                    (dst, (value, self.scaled(slope, &dx)))
                }
                Instr::MulAdd(dst, [a, b, c]) | Instr::NegMulAdd(dst, [a, b, c]) => {
                    // (±a b + c)' = ±(a' b + a b') + c', traced as a product and a sum.
                    let (x, dx) = read(&written, *a);
                    let (y, dy) = read(&written, *b);
                    let (z, dz) = read(&written, *c);
                    let sign = if matches!(instruction, Instr::NegMulAdd(..)) {
                        -1.0
                    } else {
                        1.0
                    };
                    let signed = self.mul(Value::Number(sign), x);
                    let product = self.mul(signed, y);
                    let value = self.add(product, z);
                    let tangents = dx
                        .iter()
                        .zip(&dy)
                        .zip(&dz)
                        .map(|((&dxk, &dyk), &dzk)| {
                            let left = self.mul(dxk, y);
                            let right = self.mul(x, dyk);
                            let both = self.add(left, right);
                            let signed = self.mul(Value::Number(sign), both);
                            self.add(signed, dzk)
                        })
                        .collect();
                    (dst, (value, tangents))
                }
                Instr::Copy(dst, src) => (dst, read(&written, *src)),
            };
            written.insert(*destination, result);
        }
        (0..program.outputs)
            .map(|k| {
                written
                    .get(&Slot::Out(k))
                    .cloned()
                    .unwrap_or((Value::ZERO, zero.clone()))
            })
            .collect()
    }

    /// `program`'s outputs computed inside this trace from `inputs` (one value per input
    /// slot), without derivatives.
    pub fn splice(&mut self, program: &Program, inputs: &[Value]) -> Vec<Value> {
        let seeds = vec![Vec::new(); inputs.len()];
        self.differentiate(program, inputs, &seeds)
            .into_iter()
            .map(|(value, _)| value)
            .collect()
    }

    fn scaled(&mut self, factor: Value, tangents: &[Value]) -> Vec<Value> {
        tangents.iter().map(|&d| self.mul(factor, d)).collect()
    }

    /// The program that writes `outputs` in order. The products that sums read are fused
    /// into them (as one multiply-add each); operations no output depends on (an algorithm
    /// traced whole computes more than some programs use, and a derivative more than its
    /// outputs need) are left out, and the temporaries are renumbered densely.
    pub fn finish(mut self, outputs: &[Value]) -> Program {
        for (k, &value) in outputs.iter().enumerate() {
            let source = self.slot(value);
            self.instructions.push(Instr::Copy(Slot::Out(k), source));
        }
        // Products into the sums that read them; the products left unread go below.
        super::fuse::fuse(
            &mut self.instructions,
            self.temporaries,
            &self.constants.values,
        );
        // Each temporary is written once, by the instruction that creates it: walking
        // backwards from the outputs marks every temporary some output reads.
        let mut live = vec![false; self.temporaries];
        let mut kept = vec![false; self.instructions.len()];
        for (index, instruction) in self.instructions.iter().enumerate().rev() {
            let (destination, sources) = instruction.slots();
            kept[index] = match destination {
                Slot::Temp(i) => live[i],
                _ => true,
            };
            if kept[index] {
                for source in sources {
                    if let Slot::Temp(i) = source {
                        live[i] = true;
                    }
                }
            }
        }
        let mut renumbered = vec![0; self.temporaries];
        let mut temporaries = 0;
        for (i, &alive) in live.iter().enumerate() {
            if alive {
                renumbered[i] = temporaries;
                temporaries += 1;
            }
        }
        let renumber = |slot: &mut Slot| {
            if let Slot::Temp(i) = slot {
                *i = renumbered[*i];
            }
        };
        let instructions = self
            .instructions
            .into_iter()
            .zip(kept)
            .filter_map(|(mut instruction, kept)| {
                kept.then(|| {
                    instruction.for_each_slot_mut(renumber);
                    instruction
                })
            })
            .collect();
        Program {
            inputs: self.inputs,
            outputs: outputs.len(),
            temporaries,
            constants: self.constants.values,
            instructions,
        }
    }

    fn operand(&mut self, value: Value) -> Operand {
        match self.slot(value) {
            Slot::Input(i) => Operand::At(SlotKey::Input(i)),
            Slot::Const(i) => Operand::Number(self.constants.values[i].to_bits()),
            Slot::Temp(i) => Operand::At(SlotKey::Temp(i)),
            Slot::Out(_) => unreachable!("a tracer writes outputs only when it finishes"),
        }
    }

    fn slot(&mut self, value: Value) -> Slot {
        match value {
            Value::At(slot) => slot,
            Value::Number(x) => self.constants.slot(x),
        }
    }

    fn operand_slot(&mut self, operand: Operand) -> Slot {
        match operand {
            Operand::Number(bits) => self.slot(Value::Number(f64::from_bits(bits))),
            Operand::At(SlotKey::Input(i)) => Slot::Input(i),
            Operand::At(SlotKey::Temp(i)) => Slot::Temp(i),
        }
    }

    fn record(&mut self, key: Key) -> Value {
        if let Some(&slot) = self.shared.get(&key) {
            return Value::At(slot);
        }
        let destination = Slot::Temp(self.temporaries);
        self.temporaries += 1;
        let instruction = match key {
            Key::Add(a, b) => Instr::Add(
                destination,
                vec![self.operand_slot(a), self.operand_slot(b)],
            ),
            Key::Mul(a, b) => Instr::Mul(
                destination,
                vec![self.operand_slot(a), self.operand_slot(b)],
            ),
            Key::Powi(a, n) => Instr::Powi(destination, self.operand_slot(a), n),
            Key::Powf(a, e) => Instr::Powf(destination, self.operand_slot(a), self.operand_slot(e)),
            Key::Call(f, a) => Instr::Call(destination, f, self.operand_slot(a)),
        };
        self.instructions.push(instruction);
        self.shared.insert(key, destination);
        Value::At(destination)
    }
}

/// The operands of a commutative operation in one order, so `a + b` and `b + a` share.
fn ordered(a: Operand, b: Operand) -> (Operand, Operand) {
    if a <= b { (a, b) } else { (b, a) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derivatives_of_a_program_match_the_chain_rule() {
        // out0 = x² sin(y) / sqrt(x) + exp(x y) ; out1 = log(x)^y ; out2 = 7.
        let program = Program {
            inputs: 2,
            outputs: 3,
            temporaries: 4,
            constants: vec![7.0],
            instructions: vec![
                Instr::Call(Slot::Temp(0), Intrinsic::Sin, Slot::Input(1)),
                Instr::Call(Slot::Temp(1), Intrinsic::Sqrt, Slot::Input(0)),
                Instr::Powi(Slot::Temp(2), Slot::Temp(1), -1),
                Instr::Mul(Slot::Temp(3), vec![Slot::Input(0), Slot::Input(1)]),
                Instr::Call(Slot::Temp(3), Intrinsic::Exp, Slot::Temp(3)),
                Instr::Powi(Slot::Out(0), Slot::Input(0), 2),
                Instr::Mul(
                    Slot::Out(0),
                    vec![Slot::Out(0), Slot::Temp(0), Slot::Temp(2)],
                ),
                Instr::Add(Slot::Out(0), vec![Slot::Out(0), Slot::Temp(3)]),
                Instr::Call(Slot::Temp(0), Intrinsic::Log, Slot::Input(0)),
                Instr::Powf(Slot::Out(1), Slot::Temp(0), Slot::Input(1)),
                Instr::Copy(Slot::Out(2), Slot::Const(0)),
            ],
        };
        let mut t = Tracer::new(2);
        let inputs = [t.input(0), t.input(1)];
        let seeds = vec![vec![Value::ONE, Value::ZERO], vec![Value::ZERO, Value::ONE]];
        let derived = t.differentiate(&program, &inputs, &seeds);
        assert_eq!(derived[2], (Value::Number(7.0), vec![Value::ZERO; 2]));
        let outputs: Vec<Value> = derived
            .iter()
            .flat_map(|(v, d)| std::iter::once(*v).chain(d.iter().copied()))
            .collect();
        let traced = t.finish(&outputs);
        traced.validate(2, 9).unwrap();
        let (x, y) = (2.3f64, 0.7f64);
        let mut out = [0.0; 9];
        traced.evaluate(&[x, y], &mut out);
        // Closed forms: out0 = x^1.5 sin y + e^{xy}.
        let expected = [
            x.powf(1.5) * y.sin() + (x * y).exp(),
            1.5 * x.sqrt() * y.sin() + y * (x * y).exp(),
            x.powf(1.5) * y.cos() + x * (x * y).exp(),
            x.ln().powf(y),
            x.ln().powf(y) * y / (x * x.ln()),
            x.ln().powf(y) * x.ln().ln(),
        ];
        for (k, e) in expected.iter().enumerate() {
            assert!(
                (out[k] - e).abs() < 1e-13 * e.abs().max(1.0),
                "{k}: {} vs {e}",
                out[k]
            );
        }
    }

    #[test]
    fn folds_known_numbers_and_shares_repeated_work() {
        let mut t = Tracer::new(2);
        let (x, y) = (t.input(0), t.input(1));
        let zero_times = t.mul(Value::ZERO, x);
        assert_eq!(zero_times, Value::ZERO);
        assert_eq!(t.mul(Value::ONE, x), x);
        assert_eq!(t.add(Value::ZERO, y), y);
        let two = t.add(Value::ONE, Value::ONE);
        assert_eq!(two, Value::Number(2.0));
        let a = t.mul(x, y);
        let b = t.mul(y, x);
        assert_eq!(a, b, "x·y and y·x are one product");
        let s = t.call(Intrinsic::Sin, x);
        let sum = t.add(a, s);
        let difference = t.sub(sum, two);
        let square = t.powi(difference, 2);
        let program = t.finish(&[square, Value::Number(3.5), x]);
        program.validate(2, 3).unwrap();
        assert_eq!(
            program.instructions.len(),
            4 + 3,
            "sin, x·y + sin fused, −2 folded to +, ², copies"
        );
        let mut out = [0.0; 3];
        program.evaluate(&[0.3, -1.2], &mut out);
        let expected = (0.3f64.mul_add(-1.2, 0.3f64.sin()) + -2.0).powi(2);
        assert_eq!(out, [expected, 3.5, 0.3]);
    }

    #[test]
    fn leaves_out_what_no_output_reads() {
        let mut t = Tracer::new(2);
        let (x, y) = (t.input(0), t.input(1));
        let unused = t.call(Intrinsic::Sin, x);
        let _also_unused = t.mul(unused, y);
        let product = t.mul(x, y);
        let cosine = t.call(Intrinsic::Cos, product);
        let program = t.finish(&[cosine, product]);
        program.validate(2, 2).unwrap();
        assert_eq!(program.temporaries, 2, "x·y and its cosine");
        assert_eq!(program.instructions.len(), 2 + 2, "x·y, cos, copies");
        let mut out = [0.0; 2];
        program.evaluate(&[0.3, -1.2], &mut out);
        assert_eq!(out, [(0.3f64 * -1.2).cos(), 0.3 * -1.2]);
    }
}

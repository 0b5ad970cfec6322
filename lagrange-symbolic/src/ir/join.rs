//! Programs joined into one, with the work they share done once: a caller that needs the
//! outputs of several programs at one point (the conserved integral and `L` at each
//! step's end) runs one program where it ran several, and each output keeps the bits of
//! the program it came from.

use std::collections::HashMap;

use super::{Constants, Instr, Program, Slot};

impl Program {
    /// The outputs of `programs` in turn (those of the first, then those of the second,
    /// …) computed by one program over the inputs they share (as many as the one that
    /// reads the most). An instruction that applies the same operation to the same values
    /// as one before it, in its own program or an earlier one, is not repeated: its result
    /// is read where it was first computed, and a copy of a variable or an input is read
    /// from its source. Nothing is folded, reordered or fused, and each operation reads
    /// its operands from slots of the kinds it read them from (a constant, or a variable
    /// holding one), so each output has the bits it has in its own program, on every
    /// backend. Each value the joined program computes has a temporary of its own,
    /// written once.
    ///
    /// Panics unless every program passes [`Program::validate`] (a caller bug: the
    /// engine's programs and every stored one pass it).
    pub fn joined(programs: &[&Program]) -> Program {
        let mut joined = Joined::default();
        let mut outputs = Vec::new();
        for program in programs {
            if let Err(e) = program.validate(program.inputs, program.outputs) {
                panic!("an invalid program was joined: {e}");
            }
            joined.inputs = joined.inputs.max(program.inputs);
            // Where each of this program's temporaries and outputs holds its value now.
            let mut holds: HashMap<Slot, Slot> = HashMap::new();
            for instruction in &program.instructions {
                let mut renamed = instruction.clone();
                renamed.for_each_slot_mut(|slot| *slot = joined.source(program, &holds, *slot));
                let (destination, _) = instruction.slots();
                let value = match renamed {
                    // A copy of a variable or an input computes nothing: its destination
                    // holds its source's value. A copy of a constant stays (shared like any
                    // instruction): the walk spells `x^e` as `√x` where the exponent's slot
                    // is the constant ½, and a read of the constant itself would be
                    // spelled so where the program read a variable.
                    Instr::Copy(_, source) if !matches!(source, Slot::Const(_)) => source,
                    other => joined.computed(other),
                };
                holds.insert(destination, value);
            }
            // An output no instruction writes is `+0`, as every backend writes it.
            outputs.extend(
                (0..program.outputs).map(|k| match holds.get(&Slot::Out(k)) {
                    Some(&value) => value,
                    None => joined.constants.slot(0.0),
                }),
            );
        }
        let instructions = joined
            .instructions
            .into_iter()
            .chain(
                outputs
                    .iter()
                    .enumerate()
                    .map(|(k, &value)| Instr::Copy(Slot::Out(k), value)),
            )
            .collect();
        Program {
            inputs: joined.inputs,
            outputs: outputs.len(),
            temporaries: joined.temporaries,
            constants: joined.constants.values,
            instructions,
        }
    }
}

/// The joined program so far.
#[derive(Default)]
struct Joined {
    inputs: usize,
    constants: Constants,
    instructions: Vec<Instr>,
    temporaries: usize,
    /// Each operation computed so far (its destination left as `Temp(0)`) and the
    /// temporary that holds its result.
    computed: HashMap<Instr, Slot>,
}

impl Joined {
    /// The joined program's slot of `slot`, read (or, for a destination, written) by an
    /// instruction of `program`: inputs are shared, constants by their bits, and a
    /// variable is where `holds` says its value is. A destination is renamed by its
    /// caller.
    fn source(&mut self, program: &Program, holds: &HashMap<Slot, Slot>, slot: Slot) -> Slot {
        match slot {
            Slot::Input(_) => slot,
            Slot::Const(k) => self.constants.slot(program.constants[k]),
            Slot::Temp(_) | Slot::Out(_) => holds.get(&slot).copied().unwrap_or(Slot::Temp(0)),
        }
    }

    /// The temporary that holds the result of `instruction` (its sources renamed): the
    /// one computed before, or a new one.
    fn computed(&mut self, instruction: Instr) -> Slot {
        let mut key = instruction;
        set_destination(&mut key, Slot::Temp(0));
        if let Some(&slot) = self.computed.get(&key) {
            return slot;
        }
        let slot = Slot::Temp(self.temporaries);
        self.temporaries += 1;
        let mut instruction = key.clone();
        set_destination(&mut instruction, slot);
        self.instructions.push(instruction);
        self.computed.insert(key, slot);
        slot
    }
}

/// Makes `slot` the destination of `instruction`.
fn set_destination(instruction: &mut Instr, slot: Slot) {
    let mut first = true;
    instruction.for_each_slot_mut(|destination| {
        if std::mem::take(&mut first) {
            *destination = slot;
        }
    });
}

#[cfg(test)]
mod tests {
    use super::super::{Intrinsic, emit};
    use super::*;

    /// Inputs at their worst: zeros of both signs, a subnormal, huge, infinite and NaN.
    const INPUTS: [[f64; 2]; 8] = [
        [0.7, -1.3],
        [0.0, -0.0],
        [-0.0, 5e-324],
        [1e300, -1e300],
        [f64::INFINITY, 2.0],
        [f64::NAN, 1.0],
        [-2.5, f64::NEG_INFINITY],
        [std::f64::consts::PI, 3.0],
    ];

    /// Each output of `programs` joined has the bits of its own program's, at every input.
    fn assert_same_bits(programs: &[&Program]) -> Program {
        let joined = Program::joined(programs);
        joined.validate(joined.inputs, joined.outputs).unwrap();
        for inputs in INPUTS {
            let mut expected = Vec::new();
            for program in programs {
                let mut out = vec![f64::NAN; program.outputs];
                program.evaluate(&inputs, &mut out);
                expected.extend(out);
            }
            let mut out = vec![f64::NAN; joined.outputs];
            joined.evaluate(&inputs, &mut out);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&out), bits(&expected), "at {inputs:?}");
        }
        joined
    }

    /// `T + V` and `T − V` of a pendulum-like energy: `T = x²·y/2`, `V = cos x`, each
    /// program with its own temporaries, one reusing an output as scratch and writing a
    /// temporary twice; the shared work (the square, the product, the cosine) is done
    /// once, the rest kept.
    #[test]
    fn joined_programs_share_their_work_and_keep_their_bits() {
        let energy = Program {
            inputs: 2,
            outputs: 1,
            temporaries: 2,
            constants: vec![0.5],
            instructions: vec![
                Instr::Powi(Slot::Temp(0), Slot::Input(0), 2),
                Instr::Mul(
                    Slot::Temp(1),
                    vec![Slot::Const(0), Slot::Temp(0), Slot::Input(1)],
                ),
                Instr::Call(Slot::Temp(0), Intrinsic::Cos, Slot::Input(0)),
                Instr::Add(Slot::Out(0), vec![Slot::Temp(1), Slot::Temp(0)]),
            ],
        };
        let lagrangian = Program {
            inputs: 2,
            outputs: 2,
            temporaries: 1,
            constants: vec![-1.0, 0.5],
            instructions: vec![
                Instr::Call(Slot::Out(0), Intrinsic::Cos, Slot::Input(0)),
                Instr::Powi(Slot::Temp(0), Slot::Input(0), 2),
                Instr::Mul(
                    Slot::Temp(0),
                    vec![Slot::Const(1), Slot::Temp(0), Slot::Input(1)],
                ),
                Instr::NegMulAdd(Slot::Out(0), [Slot::Const(0), Slot::Out(0), Slot::Temp(0)]),
                // Output 1 is never written: `+0`.
            ],
        };
        let joined = assert_same_bits(&[&energy, &lagrangian]);
        assert_eq!(joined.outputs, 3);
        // The square, the product, the cosine, the sum and the multiply-add.
        assert_eq!(
            joined.operation_count(),
            energy.operation_count() + lagrangian.operation_count() - 4
        );
        let calls = joined
            .instructions
            .iter()
            .filter(|i| matches!(i, Instr::Call(..)))
            .count();
        assert_eq!(calls, 1);
        // Alone, the program is its own bits too; and in the other order.
        assert_same_bits(&[&energy]);
        assert_same_bits(&[&lagrangian, &energy]);
    }

    /// The same operation on other operands, or in another order, or a power of another
    /// exponent, is another value: nothing is shared that is not the same computation.
    #[test]
    fn only_the_same_operation_on_the_same_values_is_shared() {
        let one = Program {
            inputs: 2,
            outputs: 4,
            temporaries: 0,
            constants: vec![2.0],
            instructions: vec![
                Instr::Add(Slot::Out(0), vec![Slot::Input(0), Slot::Input(1)]),
                Instr::Powi(Slot::Out(1), Slot::Input(0), 2),
                Instr::Call(Slot::Out(2), Intrinsic::Sin, Slot::Input(0)),
                Instr::Powf(Slot::Out(3), Slot::Input(0), Slot::Const(0)),
            ],
        };
        let other = Program {
            inputs: 2,
            outputs: 4,
            temporaries: 0,
            constants: vec![2.0],
            instructions: vec![
                Instr::Add(Slot::Out(0), vec![Slot::Input(1), Slot::Input(0)]),
                Instr::Powi(Slot::Out(1), Slot::Input(0), 3),
                Instr::Call(Slot::Out(2), Intrinsic::Cos, Slot::Input(0)),
                Instr::Powf(Slot::Out(3), Slot::Const(0), Slot::Input(0)),
            ],
        };
        let joined = assert_same_bits(&[&one, &other]);
        assert_eq!(joined.constants, [2.0]);
        assert_eq!(
            joined.operation_count(),
            one.operation_count() + other.operation_count()
        );
        // The same program twice: computed once.
        let twice = assert_same_bits(&[&one, &one]);
        assert_eq!(twice.operation_count(), one.operation_count());
    }

    /// A constant copied into a variable stays a variable: `x^½` and `x^−½` with the
    /// exponent read from a variable are `powf` (`+0` at `x = −0`, and at `x = −∞` for
    /// `−½`), where the constant itself is spelled `√x` and `1/√x` (`−0`, and NaN).
    #[test]
    fn a_constant_copied_into_a_variable_is_read_from_the_variable() {
        let program = Program {
            inputs: 2,
            outputs: 2,
            temporaries: 2,
            constants: vec![0.5, -0.5],
            instructions: vec![
                Instr::Copy(Slot::Temp(0), Slot::Const(0)),
                Instr::Powf(Slot::Out(0), Slot::Input(0), Slot::Temp(0)),
                Instr::Copy(Slot::Temp(1), Slot::Const(1)),
                Instr::Powf(Slot::Out(1), Slot::Input(1), Slot::Temp(1)),
            ],
        };
        let joined = assert_same_bits(&[&program, &program]);
        assert_eq!(joined.operation_count(), program.operation_count());
        let mut out = [f64::NAN; 4];
        joined.evaluate(&[-0.0, f64::NEG_INFINITY], &mut out);
        assert_eq!(out[0].to_bits(), 0.0f64.to_bits());
        assert_eq!(out[1].to_bits(), 0.0f64.to_bits());
    }

    /// The programs of every spelling the walk knows, joined with themselves and each
    /// other, keep their bits.
    #[test]
    fn every_spelling_keeps_its_bits_when_joined() {
        let cases = emit::spelling_cases();
        let restricted = cases.restricted(1..cases.outputs);
        assert_same_bits(&[&cases, &restricted, &cases]);
    }
}

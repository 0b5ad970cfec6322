//! Lowering of symbolic expressions to the crate's [`Program`] IR through symbolica's
//! optimizing evaluator (Horner schemes and common-subexpression elimination over all
//! outputs together).

use symbolica::evaluate::{Instruction, OptimizationSettings, Slot as SymSlot};
use symbolica::prelude::*;

use super::translate::first_non_real;
use super::{Sym, Var, symbol_of};
use crate::ir::{Instr, Intrinsic, Program, Slot};

/// Horner-scheme iterations. Measured on the 8-link chain (`examples/derive_timing.rs`):
/// 10 iterations give 1464 operations in 1.0 s, 1 iteration 1470 operations in 0.44 s.
const HORNER_ITERATIONS: usize = 1;

/// Compiles `outputs` into one program over `inputs`.
pub(super) fn compile(outputs: &[Sym], inputs: &[Var]) -> Result<Program, String> {
    // `pi`, and `𝑒` (symbolica's `exp(1)`) when an output has it, are passed as extra
    // parameters, then turned into constants. (Programs without `𝑒` stay as they were
    // before it was supported, so stored derivations remain current.)
    let exprs: Vec<Atom> = outputs.iter().map(|s| s.0.clone()).collect();
    let uses_e = exprs.iter().any(|a| a.contains_symbol(Symbol::E));
    let mut params: Vec<Atom> = inputs.iter().map(|&v| Atom::var(symbol_of(v))).collect();
    params.push(Atom::var(Symbol::PI));
    if uses_e {
        params.push(Atom::var(Symbol::E));
    }
    if let Some(number) = exprs.iter().find_map(|a| first_non_real(a.as_view())) {
        return Err(format!(
            "the derivation produced {number}: an expression of the model is undefined at some of its points"
        ));
    }
    let evaluator = Atom::evaluator_multiple(&exprs, &params)
        .optimization_settings(
            OptimizationSettings::new()
                .horner_iterations(HORNER_ITERATIONS)
                // Restricted mode allows one symbolica thread: never fan out.
                .cores(1),
        )
        .build()
        .map_err(|e| format!("cannot build an evaluator: {e}"))?
        .map_coeff(&|c| c.re.to_f64());
    let exported = evaluator.export_instructions();
    if !exported.sub_evaluators.is_empty() {
        return Err("the evaluator uses sub-evaluators, which lagrange does not lower".into());
    }

    let pi_input = inputs.len();
    let mut constants = exported.constants.clone();
    let pi_const = constants.len();
    constants.push(std::f64::consts::PI);
    if uses_e {
        constants.push(std::f64::consts::E);
    }
    let slot = |s: SymSlot| match s {
        SymSlot::Param(i) if i == pi_input => Slot::Const(pi_const),
        SymSlot::Param(i) if i == pi_input + 1 => Slot::Const(pi_const + 1),
        SymSlot::Param(i) => Slot::Input(i),
        SymSlot::Const(i) => Slot::Const(i),
        SymSlot::Temp(i) => Slot::Temp(i),
        SymSlot::Out(i) => Slot::Out(i),
    };
    let mut instructions = Vec::with_capacity(exported.instructions.len());
    for instruction in &exported.instructions {
        instructions.push(match instruction {
            Instruction::Add(dst, args, _) => {
                Instr::Add(slot(*dst), args.iter().map(|&a| slot(a)).collect())
            }
            Instruction::Mul(dst, args, _) => {
                Instr::Mul(slot(*dst), args.iter().map(|&a| slot(a)).collect())
            }
            Instruction::Pow(dst, base, n, _) => {
                let n = i32::try_from(*n).map_err(|_| format!("exponent {n} is too large"))?;
                Instr::Powi(slot(*dst), slot(*base), n)
            }
            Instruction::Powf(dst, base, e, _) => Instr::Powf(slot(*dst), slot(*base), slot(*e)),
            Instruction::Fun(dst, call, _) => {
                let (symbol, _tags, args) = &**call;
                let f = if *symbol == Symbol::SIN {
                    Intrinsic::Sin
                } else if *symbol == Symbol::COS {
                    Intrinsic::Cos
                } else if *symbol == Symbol::EXP {
                    Intrinsic::Exp
                } else if *symbol == Symbol::LOG {
                    Intrinsic::Log
                } else if *symbol == Symbol::SQRT {
                    Intrinsic::Sqrt
                } else {
                    return Err(format!("cannot lower a call of `{symbol}`"));
                };
                let [arg] = args.as_slice() else {
                    return Err(format!("`{symbol}` called with {} arguments", args.len()));
                };
                Instr::Call(slot(*dst), f, slot(*arg))
            }
            Instruction::Assign(dst, src) => Instr::Copy(slot(*dst), slot(*src)),
            other => return Err(format!("cannot lower control flow ({other})")),
        });
    }
    Ok(Program {
        inputs: inputs.len(),
        outputs: exported.output_count,
        temporaries: exported.temporary_count,
        constants,
        instructions,
    })
}

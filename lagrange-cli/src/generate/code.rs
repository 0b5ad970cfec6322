//! Straight-line programs of the engine's IR as Rust or C statements, in exactly the
//! order of operations of the derive (`lagrange-macros/src/program.rs`): sums and products
//! left to right over the argument list, the same expansions of small integer powers, and
//! every constant printed so that it reads back bit for bit.

use lagrange_symbolic::equations::{Input, Inputs};
use lagrange_symbolic::ir::{Instr, Intrinsic, Program, Slot};
use serde::Serialize;

/// The language the statements are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// Rust: `f64` methods (`x.sin()`, `x.powi(n)`).
    Rust,
    /// C99: `<math.h>` functions and the generated `lagrange_powi`.
    C,
}

/// One assignment `dst = value` of a program.
#[derive(Debug, Clone, Serialize)]
pub struct Statement {
    /// The variable written: `tmpK` (temporary `K`) or `outK` (output `K`).
    pub dst: String,
    /// The expression, over `t`, `q[i]`, `qd[i]`, `p[i]`, constants and earlier variables.
    pub value: String,
    /// Whether this is the first write of `dst` (C declares the variable there).
    pub first: bool,
}

/// A program as statements and the expression of each output.
#[derive(Debug, Clone, Serialize)]
pub struct Rendered {
    /// The assignments, in order.
    pub statements: Vec<Statement>,
    /// Per output: the variable holding it, or `0.0` if the program never writes it.
    pub results: Vec<String>,
}

/// Writes `program` (reading the input layout `inputs`) as statements in `lang`.
pub fn render(program: &Program, inputs: Inputs, lang: Lang) -> Result<Rendered, String> {
    let layout = inputs.all();
    let read = |slot: Slot| -> Result<String, String> {
        Ok(match slot {
            Slot::Input(i) => match layout.get(i) {
                Some(Input::Time) => "t".to_string(),
                Some(Input::Coordinate(k)) => format!("q[{k}]"),
                Some(Input::Velocity(k)) => format!("qd[{k}]"),
                Some(Input::Parameter(k)) => format!("p[{k}]"),
                None => return Err(format!("internal error: input slot {i} is out of range")),
            },
            Slot::Const(i) => {
                let value = program
                    .constants
                    .get(i)
                    .ok_or_else(|| format!("internal error: constant {i} is out of range"))?;
                constant(*value, lang)?
            }
            Slot::Temp(i) => format!("tmp{i}"),
            Slot::Out(i) => format!("out{i}"),
        })
    };
    let reads = |slots: &[Slot]| {
        slots
            .iter()
            .map(|&s| read(s))
            .collect::<Result<Vec<_>, _>>()
    };
    let (zero, one) = match lang {
        Lang::Rust => ("0.0_f64", "1.0_f64"),
        Lang::C => ("0.0", "1.0"),
    };
    let mut written_temps = vec![false; program.temporaries];
    let mut written_outputs = vec![false; program.outputs];
    let mut statements = Vec::with_capacity(program.instructions.len());
    for instr in &program.instructions {
        let (dst, value) = match instr {
            Instr::Add(dst, args) => {
                let args = reads(args)?;
                (
                    dst,
                    if args.is_empty() {
                        zero.to_string()
                    } else {
                        args.join(" + ")
                    },
                )
            }
            Instr::Mul(dst, args) => {
                let args = reads(args)?;
                (
                    dst,
                    if args.is_empty() {
                        one.to_string()
                    } else {
                        args.join(" * ")
                    },
                )
            }
            Instr::Powi(dst, base, n) => (dst, power(&read(*base)?, *n, lang)),
            Instr::Powf(dst, base, exponent) => {
                let b = read(*base)?;
                let half = |sign: f64| matches!(*exponent, Slot::Const(i) if program.constants.get(i) == Some(&(sign * 0.5)));
                let value = match lang {
                    Lang::Rust if half(1.0) => format!("{b}.sqrt()"),
                    Lang::Rust if half(-1.0) => format!("1.0 / {b}.sqrt()"),
                    Lang::Rust => format!("{b}.powf({})", read(*exponent)?),
                    Lang::C if half(1.0) => format!("sqrt({b})"),
                    Lang::C if half(-1.0) => format!("1.0 / sqrt({b})"),
                    Lang::C => format!("pow({b}, {})", read(*exponent)?),
                };
                (dst, value)
            }
            Instr::Call(dst, f, x) => {
                let x = read(*x)?;
                let value = match lang {
                    Lang::Rust => format!("{x}.{}()", f.method()),
                    Lang::C => format!("{}({x})", c_function(*f)),
                };
                (dst, value)
            }
            Instr::Copy(dst, src) => (dst, read(*src)?),
        };
        let written = match *dst {
            Slot::Temp(i) => written_temps.get_mut(i),
            Slot::Out(i) => written_outputs.get_mut(i),
            Slot::Input(_) | Slot::Const(_) => None,
        }
        .ok_or_else(|| format!("internal error: the program writes to {dst:?}"))?;
        let first = !*written;
        *written = true;
        statements.push(Statement {
            dst: read(*dst)?,
            value,
            first,
        });
    }
    let results = written_outputs
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            if w {
                format!("out{i}")
            } else {
                zero.to_string()
            }
        })
        .collect();
    Ok(Rendered {
        statements,
        results,
    })
}

/// `base^n` for an integer `n`, with the derive's expansions of small powers.
fn power(base: &str, n: i32, lang: Lang) -> String {
    match n {
        -1 => format!("1.0 / {base}"),
        0 => match lang {
            Lang::Rust => "1.0_f64".to_string(),
            Lang::C => "1.0".to_string(),
        },
        1 => base.to_string(),
        2 => format!("{base} * {base}"),
        3 => format!("{base} * {base} * {base}"),
        -2 => format!("1.0 / ({base} * {base})"),
        n => match lang {
            Lang::Rust => format!("{base}.powi({n})"),
            Lang::C => format!("lagrange_powi({base}, {n})"),
        },
    }
}

/// The C name of an intrinsic.
fn c_function(f: Intrinsic) -> &'static str {
    match f {
        Intrinsic::Sin => "sin",
        Intrinsic::Cos => "cos",
        Intrinsic::Exp => "exp",
        Intrinsic::Log => "log",
        Intrinsic::Sqrt => "sqrt",
    }
}

/// A constant as a literal that reads back exactly (the shortest round-trip decimal),
/// negative ones in parentheses.
fn constant(value: f64, lang: Lang) -> Result<String, String> {
    if !value.is_finite() {
        return Err(format!(
            "the derived equations contain the non-finite constant {value}"
        ));
    }
    let literal = float_literal(value.abs(), lang);
    Ok(if value.is_sign_negative() {
        format!("(-{literal})")
    } else {
        literal
    })
}

/// A finite `f64` as a literal of `lang` that reads back bit for bit: Rust `1.5_f64`,
/// C `1.5` (both from the shortest round-trip decimal, e.g. `1e-20`).
pub fn float_literal(value: f64, lang: Lang) -> String {
    let digits = format!("{value:?}");
    match lang {
        Lang::Rust => format!("{digits}_f64"),
        Lang::C => digits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program() -> Program {
        // out0 = (x + 2)^2 ; out1 = sin(x) * out0 * (-0.5); out2 never written.
        Program {
            inputs: 2,
            outputs: 3,
            temporaries: 1,
            constants: vec![2.0, -0.5],
            instructions: vec![
                Instr::Add(Slot::Out(1), vec![Slot::Input(1), Slot::Const(0)]),
                Instr::Powi(Slot::Out(0), Slot::Out(1), 2),
                Instr::Call(Slot::Temp(0), Intrinsic::Sin, Slot::Input(1)),
                Instr::Mul(
                    Slot::Out(1),
                    vec![Slot::Temp(0), Slot::Out(0), Slot::Const(1)],
                ),
                Instr::Powf(Slot::Temp(0), Slot::Input(0), Slot::Const(1)),
            ],
        }
    }

    const INPUTS: Inputs = Inputs {
        coordinates: 0,
        parameters: 1,
    };

    #[test]
    fn rust_statements_follow_the_derive() {
        let r = render(&program(), INPUTS, Lang::Rust).unwrap();
        let text: Vec<String> = r
            .statements
            .iter()
            .map(|s| {
                format!(
                    "{}{} = {}",
                    if s.first { "let " } else { "" },
                    s.dst,
                    s.value
                )
            })
            .collect();
        assert_eq!(
            text,
            [
                "let out1 = p[0] + 2.0_f64",
                "let out0 = out1 * out1",
                "let tmp0 = p[0].sin()",
                "out1 = tmp0 * out0 * (-0.5_f64)",
                "tmp0 = 1.0 / t.sqrt()",
            ]
        );
        assert_eq!(r.results, ["out0", "out1", "0.0_f64"]);
    }

    #[test]
    fn c_statements_use_math_h() {
        let r = render(&program(), INPUTS, Lang::C).unwrap();
        assert_eq!(r.statements[2].value, "sin(p[0])");
        assert_eq!(r.statements[4].value, "1.0 / sqrt(t)");
        assert_eq!(power("x", 5, Lang::C), "lagrange_powi(x, 5)");
        assert_eq!(r.results[2], "0.0");
    }

    #[test]
    fn constants_round_trip_and_bad_ones_are_refused() {
        for x in [0.1, 1e-20, 1e300, 5e-324, 2.0 / 3.0] {
            let c = float_literal(x, Lang::C);
            assert_eq!(c.parse::<f64>().unwrap().to_bits(), x.to_bits(), "{c}");
        }
        assert!(constant(f64::NAN, Lang::Rust).is_err());
    }
}

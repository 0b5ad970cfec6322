//! Programs as Rust text: the one Rust backend of the walk ([`emit`]), for the derive
//! (its text lexed into tokens) and for `lagrange generate`'s Rust solvers.
//!
//! Every operation is an operator or an `f64` method (`x.sin()`, `x.powi(n)`,
//! `a.mul_add(b, c)`): an inherent method is found from its receiver's type whatever
//! names are in scope, so the same text is right in a user's module and in a standalone
//! crate. Constants are literals suffixed `_f64` that read back bit for bit. What the two
//! users need differently is the names of the variables ([`Names`]); the text of each
//! input is the caller's.

use serde::Serialize;

use super::emit::{self, Emitter, IrError, Variable};
use super::{Intrinsic, Program};

/// How the variables of the text are named: the one thing the derive and `generate`
/// need differently, because their text lives in different scopes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Names {
    temporary: &'static str,
    output: &'static str,
}

impl Names {
    /// For text spliced into a scope the emitter does not own (the derive's expansion,
    /// whose names resolve in the user's module, where a constant `out0` would turn a
    /// `let` into a pattern): `__t0`, `__o0`, names no one writes by hand.
    pub const SPLICED: Names = Names {
        temporary: "__t",
        output: "__o",
    };

    /// For code whose every name the generator writes (`lagrange generate`'s crate and C
    /// library): `tmp0`, `out0`, the names its templates document, valid C too (where
    /// `__` names are reserved).
    pub const OWNED: Names = Names {
        temporary: "tmp",
        output: "out",
    };

    /// The name of `variable`.
    pub fn of(self, variable: Variable) -> String {
        let (prefix, i) = match variable {
            Variable::Temp(i) => (self.temporary, i),
            Variable::Out(i) => (self.output, i),
        };
        joined(String::from(prefix), &[&i.to_string()])
    }
}

/// One assignment `dst = value` of a program's text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Statement {
    /// The variable written.
    pub dst: String,
    /// The expression, over the inputs, constants and variables written before.
    pub value: String,
    /// Whether this is the first write of `dst`.
    pub first: bool,
}

/// A program as text: declarations, then statements, then the value of each output.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Text {
    /// The variables declared before the statements, a `let` per group of
    /// [`emit::declarations`] (`mut` when written again): not a `let` per write (see
    /// there).
    pub declarations: Vec<String>,
    /// The assignments, in order.
    pub statements: Vec<Statement>,
    /// Per output: the variable holding it, or `0.0_f64` if the program never writes it.
    pub results: Vec<String>,
}

impl Text {
    /// The declarations and the statements as one run of Rust statements.
    pub fn body(&self) -> String {
        let mut body = self.declarations.concat();
        for s in &self.statements {
            body.push_str(&s.dst);
            body.push_str(" = ");
            body.push_str(&s.value);
            body.push(';');
        }
        body
    }
}

/// `program` as Rust text, its variables named by `names`, input slot `i` read as
/// `input(i)` (an operand: a name, a field or an indexed element).
pub fn text(
    program: &Program,
    names: Names,
    input: &dyn Fn(usize) -> String,
) -> Result<Text, IrError> {
    let mut writer = Writer {
        names,
        input,
        inputs: vec![None; program.inputs],
        statements: Vec::with_capacity(program.instructions.len()),
        results: Vec::with_capacity(program.outputs),
    };
    emit::emit(program, &mut writer)?;
    let declarations = emit::declarations(program)?
        .iter()
        .map(|group| {
            let names: Vec<String> = group
                .iter()
                .map(|&(variable, rewritten)| {
                    let name = writer.names.of(variable);
                    if rewritten {
                        joined(String::from("mut "), &[&name])
                    } else {
                        name
                    }
                })
                .collect();
            let types = vec!["f64"; group.len()].join(", ");
            joined(
                String::from("let ("),
                &[&names.join(", "), ",): (", &types, ",);"],
            )
        })
        .collect();
    Ok(Text {
        declarations,
        statements: writer.statements,
        results: writer.results,
    })
}

/// A finite `f64` as Rust text that reads back bit for bit: the shortest round-trip
/// decimal, suffixed (`9.81_f64`, `1e-20_f64`, `-0.5_f64`).
pub fn literal(value: f64) -> String {
    format!("{value:?}_f64")
}

/// The emitter behind [`text`].
struct Writer<'a> {
    names: Names,
    input: &'a dyn Fn(usize) -> String,
    /// The text of each input read so far (the derive's costs a print of tokens).
    inputs: Vec<Option<String>>,
    statements: Vec<Statement>,
    results: Vec<String>,
}

/// `parts` one after the other, in the first one's buffer: the walk composes every
/// expression from smaller ones, and this costs one copy of each where `format!` (through
/// the formatting machinery, unoptimized in the derive) cost several times more.
fn joined(mut first: String, rest: &[&str]) -> String {
    for part in rest {
        first.push_str(part);
    }
    first
}

impl Emitter for Writer<'_> {
    type Value = String;
    fn input(&mut self, index: usize) -> String {
        let input = self.input;
        self.inputs[index]
            .get_or_insert_with(|| input(index))
            .clone()
    }
    fn literal(&mut self, value: f64) -> String {
        literal(value)
    }
    fn variable(&mut self, variable: Variable) -> String {
        self.names.of(variable)
    }
    fn group(&mut self, x: String) -> String {
        joined(String::from("("), &[&x, ")"])
    }
    fn negate(&mut self, x: String) -> String {
        joined(String::from("-"), &[&x])
    }
    fn add(&mut self, a: String, b: String) -> String {
        joined(a, &[" + ", &b])
    }
    fn mul(&mut self, a: String, b: String) -> String {
        joined(a, &[" * ", &b])
    }
    fn mul_add(&mut self, a: String, b: String, c: String) -> String {
        joined(a, &[".mul_add(", &b, ", ", &c, ")"])
    }
    fn div(&mut self, a: String, b: String) -> String {
        joined(a, &[" / ", &b])
    }
    fn call(&mut self, f: Intrinsic, x: String) -> String {
        joined(x, &[".", f.method(), "()"])
    }
    fn powi(&mut self, x: String, n: i32) -> String {
        joined(x, &[".powi(", &n.to_string(), ")"])
    }
    fn powf(&mut self, x: String, e: String) -> String {
        joined(x, &[".powf(", &e, ")"])
    }
    fn assign(&mut self, variable: Variable, value: String, first: bool) {
        self.statements.push(Statement {
            dst: self.names.of(variable),
            value,
            first,
        });
    }
    fn output(&mut self, _index: usize, value: String) {
        self.results.push(value);
    }
}

#[cfg(test)]
mod tests {
    use super::super::emit::spelling_cases;
    use super::*;

    #[test]
    fn statements_follow_the_walk() {
        let program = spelling_cases();
        let read = |i: usize| if i == 0 { "t".into() } else { "p[0]".into() };
        let text = text(&program, Names::OWNED, &read).unwrap();
        assert_eq!(text.declarations.len(), 1);
        assert!(
            text.declarations[0].starts_with("let (tmp0, mut out0, out1, ")
                && text.declarations[0].ends_with(", f64,);"),
            "{:?}",
            text.declarations
        );
        let values: Vec<&str> = text.statements.iter().map(|s| s.value.as_str()).collect();
        for expected in [
            "t * (-0.0_f64)",
            "p[0].sqrt()",
            "1.0_f64 / p[0].sqrt()",
            "2.5_f64.powf(p[0])",
            "t + p[0] + (-1.25_f64) + 1e-300_f64",
            "1.0_f64 / (t * t)",
            "t.powi(-29)",
            "(-1.25_f64).cos()",
            "t.mul_add(p[0], 0.1_f64)",
            "(-(-1.25_f64)).mul_add(p[0], t)",
            "(-tmp1).mul_add(t, 2.5_f64)",
            "1e300_f64 * 5e-324_f64",
        ] {
            assert!(values.contains(&expected), "{expected} in {values:?}");
        }
        let last = text.statements.last().unwrap();
        assert_eq!(
            (&*last.dst, &*last.value, last.first),
            ("out0", "out0 + out1", false)
        );
        assert_eq!(text.results[..2], ["out0", "out1"]);
        assert_eq!(text.results.last().unwrap(), "0.0_f64");
        let spliced = super::text(&program, Names::SPLICED, &read).unwrap();
        assert!(spliced.body().starts_with("let (__t0, mut __o0, __o1, "),);
        assert!(
            spliced
                .body()
                .contains(");__t0 = t * (-0.0_f64);__o0 = __t0 + (-0.0_f64);")
        );
    }

    #[test]
    fn literals_read_back_bit_for_bit() {
        for x in [0.0, 0.1, 1e-20, 1e300, 5e-324, 2.0 / 3.0, 1e16] {
            let text = literal(x);
            let digits = text.strip_suffix("_f64").unwrap();
            assert_eq!(
                digits.parse::<f64>().unwrap().to_bits(),
                x.to_bits(),
                "{text}"
            );
        }
    }
}

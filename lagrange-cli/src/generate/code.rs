//! Straight-line programs of the engine's IR as Rust or C statements: the text backends
//! of the IR's one walk ([`lagrange_symbolic::ir::emit`]), which makes every spelling
//! decision for them and for the derive, so both compute the derive's numbers bit for
//! bit. Every constant is printed so that it reads back exactly.

use lagrange_symbolic::equations::{Input, Inputs};
use lagrange_symbolic::ir::emit::{self, Emitter, Variable};
use lagrange_symbolic::ir::{Intrinsic, Program};
use serde::Serialize;

/// The language the statements are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Lang {
    /// Rust: `f64` methods (`x.sin()`, `x.powi(n)`).
    Rust,
    /// C99: `<math.h>` functions and the generated `lagrange_powi`.
    C,
}

/// One assignment `dst = value` of a program.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Statement {
    /// The variable written: `tmpK` (temporary `K`) or `outK` (output `K`).
    pub dst: String,
    /// The expression, over `t`, `q[i]`, `qd[i]`, `p[i]`, constants and earlier variables.
    pub value: String,
    /// Whether this is the first write of `dst` (C declares the variable there).
    pub first: bool,
}

/// A program as statements and the expression of each output.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Rendered {
    /// Rust: the declarations of the variables, before the statements (see
    /// [`emit::declarations`]); C declares each variable at its first write instead.
    pub declarations: Vec<String>,
    /// The assignments, in order.
    pub statements: Vec<Statement>,
    /// Per output: the variable holding it, or `0.0` if the program never writes it.
    pub results: Vec<String>,
}

/// Writes `program` (reading the input layout `inputs`) as statements in `lang`.
pub(super) fn render(program: &Program, inputs: Inputs, lang: Lang) -> Result<Rendered, String> {
    program
        .validate(inputs.len(), program.outputs)
        .map_err(|e| format!("internal error: {e}"))?;
    let mut text = Text {
        lang,
        layout: inputs.all(),
        rendered: Rendered {
            declarations: Vec::new(),
            statements: Vec::with_capacity(program.instructions.len()),
            results: Vec::with_capacity(program.outputs),
        },
    };
    emit::emit(program, &mut text).map_err(|e| format!("internal error: {e}"))?;
    if lang == Lang::Rust {
        let groups = emit::declarations(program).map_err(|e| format!("internal error: {e}"))?;
        text.rendered.declarations = groups
            .iter()
            .map(|group| {
                let names: Vec<String> = group
                    .iter()
                    .map(|&(v, rewritten)| {
                        let mutable = if rewritten { "mut " } else { "" };
                        format!("{mutable}{}", Text::name(v))
                    })
                    .collect();
                let types = vec!["f64"; group.len()];
                format!("let ({},): ({},);", names.join(", "), types.join(", "))
            })
            .collect();
    }
    Ok(text.rendered)
}

/// The text backend of the walk.
struct Text {
    lang: Lang,
    layout: Vec<Input>,
    rendered: Rendered,
}

impl Text {
    fn name(variable: Variable) -> String {
        match variable {
            Variable::Temp(i) => format!("tmp{i}"),
            Variable::Out(i) => format!("out{i}"),
        }
    }
}

impl Emitter for Text {
    type Value = String;
    fn input(&mut self, index: usize) -> String {
        match self.layout[index] {
            Input::Time => "t".to_string(),
            Input::Coordinate(k) => format!("q[{k}]"),
            Input::Velocity(k) => format!("qd[{k}]"),
            Input::Parameter(k) => format!("p[{k}]"),
            Input::Acceleration(k) => format!("qdd[{k}]"),
            Input::Multiplier(k) => format!("lambda[{k}]"),
        }
    }
    fn literal(&mut self, value: f64) -> String {
        float_literal(value, self.lang)
    }
    fn variable(&mut self, variable: Variable) -> String {
        Text::name(variable)
    }
    fn group(&mut self, x: String) -> String {
        format!("({x})")
    }
    fn negate(&mut self, x: String) -> String {
        format!("-{x}")
    }
    fn add(&mut self, a: String, b: String) -> String {
        format!("{a} + {b}")
    }
    fn mul(&mut self, a: String, b: String) -> String {
        format!("{a} * {b}")
    }
    fn mul_add(&mut self, a: String, b: String, c: String) -> String {
        match self.lang {
            Lang::Rust => format!("f64::mul_add({a}, {b}, {c})"),
            Lang::C => format!("fma({a}, {b}, {c})"),
        }
    }
    fn div(&mut self, a: String, b: String) -> String {
        format!("{a} / {b}")
    }
    fn call(&mut self, f: Intrinsic, x: String) -> String {
        match self.lang {
            Lang::Rust => format!("{x}.{}()", f.method()),
            Lang::C => format!("{}({x})", c_function(f)),
        }
    }
    fn powi(&mut self, x: String, n: i32) -> String {
        match self.lang {
            Lang::Rust => format!("{x}.powi({n})"),
            Lang::C => format!("lagrange_powi({x}, {n})"),
        }
    }
    fn powf(&mut self, x: String, e: String) -> String {
        match self.lang {
            Lang::Rust => format!("{x}.powf({e})"),
            Lang::C => format!("pow({x}, {e})"),
        }
    }
    fn assign(&mut self, variable: Variable, value: String, first: bool) {
        self.rendered.statements.push(Statement {
            dst: Text::name(variable),
            value,
            first,
        });
    }
    fn output(&mut self, _index: usize, value: String) {
        self.rendered.results.push(value);
    }
}

/// Whether a statement calls the C target's `lagrange_powi` (then defined by the template).
pub(super) fn calls_powi(statement: &Statement) -> bool {
    statement.value.contains("lagrange_powi(")
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

/// A finite `f64` as a literal of `lang` that reads back bit for bit: Rust `1.5_f64`,
/// C `1.5` (both from the shortest round-trip decimal, e.g. `1e-20`).
pub(super) fn float_literal(value: f64, lang: Lang) -> String {
    let digits = format!("{value:?}");
    match lang {
        Lang::Rust => format!("{digits}_f64"),
        Lang::C => digits,
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};
    use std::process::Command;

    use lagrange_symbolic::ir::{Instr, Slot};

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
                Instr::Powi(Slot::Temp(0), Slot::Temp(0), 5),
            ],
        }
    }

    /// `t` and one parameter.
    const INPUTS: Inputs = Inputs {
        coordinates: 0,
        parameters: 1,
    };

    #[test]
    fn rust_statements_follow_the_walk() {
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
                "tmp0 = 1.0_f64 / t.sqrt()",
                "tmp0 = tmp0.powi(5)",
            ]
        );
        assert_eq!(r.results, ["out0", "out1", "0.0_f64"]);
    }

    #[test]
    fn c_statements_use_math_h() {
        let r = render(&program(), INPUTS, Lang::C).unwrap();
        assert_eq!(r.statements[2].value, "sin(p[0])");
        assert_eq!(r.statements[4].value, "1.0 / sqrt(t)");
        assert_eq!(r.statements[5].value, "lagrange_powi(tmp0, 5)");
        assert_eq!(r.results[2], "0.0");
    }

    #[test]
    fn constants_round_trip_and_bad_programs_are_refused() {
        for x in [0.1, 1e-20, 1e300, 5e-324, 2.0 / 3.0] {
            let c = float_literal(x, Lang::C);
            assert_eq!(c.parse::<f64>().unwrap().to_bits(), x.to_bits(), "{c}");
        }
        let mut bad = program();
        bad.constants[0] = f64::NAN;
        assert!(render(&bad, INPUTS, Lang::Rust).is_err());
        let mut bad = program();
        bad.instructions[0] = Instr::Copy(Slot::Out(1), Slot::Input(2));
        assert!(render(&bad, INPUTS, Lang::C).is_err());
    }

    /// Positive inputs `(t, p[0])` at which [`emit::spelling_cases`] is compared.
    const POINTS: [[f64; 2]; 4] = [[0.7, 1.3], [2.0, 0.25], [1e-3, 37.5], [3.7, 1e-5]];

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("lagrange-code-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Runs `command`, then the program it built, whose output lines are bit patterns.
    fn bits_of(build: &mut Command, binary: &Path) -> Vec<Vec<u64>> {
        let status = build.status().expect("run the compiler");
        assert!(status.success(), "{build:?}");
        let output = Command::new(binary).output().expect("run the program");
        assert!(output.status.success());
        String::from_utf8(output.stdout)
            .unwrap()
            .lines()
            .map(|l| {
                l.split(' ')
                    .map(|w| u64::from_str_radix(w, 16).unwrap())
                    .collect()
            })
            .collect()
    }

    /// The interpreter's outputs at [`POINTS`], as bit patterns.
    fn interpreted(program: &Program) -> Vec<Vec<u64>> {
        POINTS
            .iter()
            .map(|point| {
                let mut out = vec![f64::NAN; program.outputs];
                program.evaluate(point, &mut out);
                out.iter().map(|x| x.to_bits()).collect()
            })
            .collect()
    }

    #[test]
    fn rust_text_computes_the_interpreters_bits() {
        let program = emit::spelling_cases();
        let r = render(&program, INPUTS, Lang::Rust).unwrap();
        let body: String = r
            .statements
            .iter()
            .map(|s| format!("    let {}: f64 = {};\n", s.dst, s.value))
            .collect();
        let points: String = POINTS
            .iter()
            .map(|[t, p]| format!("({:#x}, {:#x}), ", t.to_bits(), p.to_bits()))
            .collect();
        let source = format!(
            "#![allow(unused)]\nfn f(t: f64, p: &[f64; 1]) -> [f64; {n}] {{\n{body}    [{results}]\n}}\n\
             fn main() {{\n    for (t, p) in [{points}] {{\n        \
             let out = f(std::hint::black_box(f64::from_bits(t)), std::hint::black_box(&[f64::from_bits(p)]));\n        \
             let words: Vec<String> = out.iter().map(|x| format!(\"{{:x}}\", x.to_bits())).collect();\n        \
             println!(\"{{}}\", words.join(\" \"));\n    }}\n}}\n",
            n = program.outputs,
            results = r.results.join(", "),
        );
        let dir = scratch("rust");
        std::fs::write(dir.join("cases.rs"), source).unwrap();
        let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
        for opt in ["0", "3"] {
            let binary = dir.join(format!("cases-O{opt}"));
            let got = bits_of(
                Command::new(&rustc)
                    .args(["--edition", "2021", "-A", "warnings", "-C"])
                    .arg(format!("opt-level={opt}"))
                    .arg("-o")
                    .arg(&binary)
                    .arg(dir.join("cases.rs")),
                &binary,
            );
            assert_eq!(got, interpreted(&program), "opt-level {opt}");
        }
    }

    #[test]
    fn c_text_computes_the_interpreters_bits() {
        if !Command::new("gcc")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
        {
            eprintln!("gcc is not available; the C text is not compiled");
            return;
        }
        let program = emit::spelling_cases();
        let r = render(&program, INPUTS, Lang::C).unwrap();
        // The shipped template's lagrange_powi, so the test follows what is generated.
        let template = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../templates/c/model.c.tera"),
        )
        .unwrap();
        let start = template
            .find("static double lagrange_powi")
            .expect("lagrange_powi");
        let end = start + template[start..].find("\n}\n").expect("its end") + 3;
        let body: String = r
            .statements
            .iter()
            .map(|s| {
                let declare = if s.first { "double " } else { "" };
                format!("    {declare}{} = {};\n", s.dst, s.value)
            })
            .collect();
        let results: String = r
            .results
            .iter()
            .enumerate()
            .map(|(i, v)| format!("    result[{i}] = {v};\n"))
            .collect();
        let points: String = POINTS
            .iter()
            .map(|[t, p]| format!("{{{:#x}ull, {:#x}ull}}, ", t.to_bits(), p.to_bits()))
            .collect();
        let source = format!(
            "#include <math.h>\n#include <stdio.h>\n#include <string.h>\n#include <stdint.h>\n{powi}\n\
             static double from_bits(uint64_t b) {{ double x; memcpy(&x, &b, 8); return x; }}\n\
             static void f(double t, const double p[], double result[]) {{\n{body}{results}}}\n\
             int main(void) {{\n    static const uint64_t points[][2] = {{{points}}};\n    \
             for (int k = 0; k < {count}; k++) {{\n        double p[1] = {{from_bits(points[k][1])}};\n        \
             double result[{n}];\n        f(from_bits(points[k][0]), p, result);\n        \
             for (int i = 0; i < {n}; i++) {{ uint64_t b; memcpy(&b, &result[i], 8); printf(i ? \" %llx\" : \"%llx\", (unsigned long long)b); }}\n        \
             printf(\"\\n\");\n    }}\n    return 0;\n}}\n",
            powi = &template[start..end],
            count = POINTS.len(),
            n = program.outputs,
        );
        let dir = scratch("c");
        std::fs::write(dir.join("cases.c"), source).unwrap();
        for opt in ["-O0", "-O2"] {
            let binary = dir.join(format!("cases{opt}"));
            let got = bits_of(
                Command::new("gcc")
                    .args([opt, "-std=c99", "-Wall", "-o"])
                    .arg(&binary)
                    .arg(dir.join("cases.c"))
                    .arg("-lm"),
                &binary,
            );
            assert_eq!(got, interpreted(&program), "gcc {opt}");
        }
    }
}

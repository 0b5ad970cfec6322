//! Straight-line programs of the engine's IR as Rust or C statements, by backends of the
//! IR's one walk ([`lagrange_symbolic::ir::emit`]), which makes every spelling decision
//! for them and for the derive, so both compute the derive's numbers bit for bit: Rust
//! by the engine's one Rust backend, the derive's ([`rust`]), C by its own below. Every
//! constant is printed so that it reads back exactly.

use lagrange_symbolic::equations::{Input, Inputs};
use lagrange_symbolic::ir::emit::{self, Emitter, Variable};
use lagrange_symbolic::ir::rust::{self, Names};
pub(super) use lagrange_symbolic::ir::rust::{Statement, Text as Rendered};
use lagrange_symbolic::ir::{Intrinsic, Program};

/// The language the statements are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Lang {
    /// Rust: the engine's one Rust backend ([`rust::text`]), as the derive writes it.
    Rust,
    /// C99: `<math.h>` functions and the generated `lagrange_powi`.
    C,
}

/// Writes `program` (reading the input layout `inputs`) as statements in `lang`: Rust
/// declares its variables before the statements ([`Rendered::declarations`]), C at each
/// first write (the declarations left empty).
pub(super) fn render(program: &Program, inputs: Inputs, lang: Lang) -> Result<Rendered, String> {
    program
        .validate(inputs.len(), program.outputs)
        .map_err(|e| format!("internal error: {e}"))?;
    let layout = inputs.all();
    let input = |index: usize| match layout[index] {
        Input::Time => "t".to_string(),
        Input::Coordinate(k) => format!("q[{k}]"),
        Input::Velocity(k) => format!("qd[{k}]"),
        Input::Parameter(k) => format!("p[{k}]"),
        Input::Acceleration(k) => format!("qdd[{k}]"),
        Input::Multiplier(k) => format!("lambda[{k}]"),
    };
    let rendered = match lang {
        Lang::Rust => rust::text(program, Names::OWNED, &input),
        Lang::C => {
            let mut text = C {
                input: &input,
                rendered: Rendered {
                    declarations: Vec::new(),
                    statements: Vec::with_capacity(program.instructions.len()),
                    results: Vec::with_capacity(program.outputs),
                },
            };
            emit::emit(program, &mut text).map(|()| text.rendered)
        }
    };
    rendered.map_err(|e| format!("internal error: {e}"))
}

/// The C text backend of the walk.
struct C<'a> {
    input: &'a dyn Fn(usize) -> String,
    rendered: Rendered,
}

impl Emitter for C<'_> {
    type Value = String;
    fn input(&mut self, index: usize) -> String {
        (self.input)(index)
    }
    fn literal(&mut self, value: f64) -> String {
        float_literal(value, Lang::C)
    }
    fn variable(&mut self, variable: Variable) -> String {
        Names::OWNED.of(variable)
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
        format!("fma({a}, {b}, {c})")
    }
    fn div(&mut self, a: String, b: String) -> String {
        format!("{a} / {b}")
    }
    fn call(&mut self, f: Intrinsic, x: String) -> String {
        format!("{}({x})", c_function(f))
    }
    fn powi(&mut self, x: String, n: i32) -> String {
        format!("lagrange_powi({x}, {n})")
    }
    fn powf(&mut self, x: String, e: String) -> String {
        format!("pow({x}, {e})")
    }
    fn assign(&mut self, variable: Variable, value: String, first: bool) {
        self.rendered.statements.push(Statement {
            dst: Names::OWNED.of(variable),
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

/// A finite `f64` as a literal of `lang` that reads back bit for bit: Rust `1.5_f64`
/// ([`rust::literal`]), C `1.5` (both from the shortest round-trip decimal, e.g. `1e-20`).
pub(super) fn float_literal(value: f64, lang: Lang) -> String {
    match lang {
        Lang::Rust => rust::literal(value),
        Lang::C => format!("{value:?}"),
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};
    use std::process::Command;

    use lagrange_symbolic::ir::{Instr, Slot};

    use super::*;

    /// `t` and one parameter.
    const INPUTS: Inputs = Inputs {
        coordinates: 0,
        parameters: 1,
    };

    #[test]
    fn c_statements_use_math_h() {
        let r = render(&emit::spelling_cases(), INPUTS, Lang::C).unwrap();
        let values: Vec<&str> = r.statements.iter().map(|s| s.value.as_str()).collect();
        for expected in [
            "sin(p[0])",
            "1.0 / sqrt(p[0])",
            "pow(t, 2.5)",
            "lagrange_powi(t, 17)",
            "fma((-tmp1), t, 2.5)",
        ] {
            assert!(values.contains(&expected), "{expected} in {values:?}");
        }
        assert!(r.statements[0].first && r.statements[0].dst == "tmp0");
        assert!(r.declarations.is_empty());
        assert_eq!(r.results.last().unwrap(), "0.0");
    }

    #[test]
    fn constants_round_trip_and_bad_programs_are_refused() {
        for x in [0.1, 1e-20, 1e300, 5e-324, 2.0 / 3.0] {
            let c = float_literal(x, Lang::C);
            assert_eq!(c.parse::<f64>().unwrap().to_bits(), x.to_bits(), "{c}");
        }
        let mut bad = emit::spelling_cases();
        bad.constants[0] = f64::NAN;
        assert!(render(&bad, INPUTS, Lang::Rust).is_err());
        let mut bad = emit::spelling_cases();
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

//! Straight-line programs of the engine's IR as Rust expressions: the derive's backend of
//! the IR's one walk ([`lagrange_symbolic::ir::emit`]), which makes every spelling
//! decision, so the derive computes what the interpreter and `lagrange generate`
//! compute, bit for bit. A program is written as Rust text and lexed into tokens once.
//!
//! The variables are declared up front, a tuple per group of [`emit::declarations`] (`mut`
//! when written again), and each write is an assignment: not a `let` per write, whose
//! nested scopes crash rustc for large programs (see there).

use lagrange_symbolic::ir::emit::{self, Emitter, Variable};
use lagrange_symbolic::ir::{Instr, Intrinsic, Program};
use proc_macro2::TokenStream;
use quote::quote;

/// The path of the runtime crate, as the facade re-exports it.
pub(crate) const CORE: Core = Core;

pub(crate) struct Core;

impl quote::ToTokens for Core {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        tokens.extend(quote!(::lagrange::core));
    }
}

/// Programs of at least this many operations run with the processor's wider instructions
/// when it has them (`lagrange_core`'s `wide`: the same bits; a build without debug
/// assertions compiles them twice); below it the choice would cost more than it saves.
const WIDE_OPERATIONS: usize = 200;

/// A block evaluating `program` to `[f64; outputs]`; `input` gives the tokens that read
/// input slot `i`.
pub(crate) fn block(
    program: &Program,
    input: &dyn Fn(usize) -> TokenStream,
) -> syn::Result<TokenStream> {
    written(program, input, |outputs| {
        format!("[{}]", outputs.join(", "))
    })
}

/// A block writing `program`'s outputs `order[0]`, `order[1]`, … into `destination`, a
/// variable of type `&mut [f64; order.len()]` that holds `+0` in every entry: in place,
/// where an array built and then copied would move every output once more, and without
/// the outputs known to be `+0` ([`Program::plus_zero_outputs`]: most of a tree's
/// derivatives and of its mass matrix). `order` lists every output once.
pub(crate) fn block_into_zeros(
    program: &Program,
    input: &dyn Fn(usize) -> TokenStream,
    order: &[usize],
    destination: &proc_macro2::Ident,
) -> syn::Result<TokenStream> {
    let mut listed = order.to_vec();
    listed.sort_unstable();
    if listed != (0..program.outputs).collect::<Vec<_>>() {
        return Err(syn::Error::new(
            proc_macro2::Span::call_site(),
            "internal error: a derived program's outputs are not written once each",
        ));
    }
    let zero = program.plus_zero_outputs();
    written(program, input, |outputs| {
        let mut writes = String::new();
        for (i, &k) in order.iter().enumerate() {
            if !zero[k] {
                writes.push_str(&format!("{destination}[{i}] = {};", outputs[k]));
            }
        }
        writes
    })
}

/// The block of `program`'s declarations and statements ending in `finish(outputs)`, run
/// with the processor's wider instructions when the program is large or has a fused
/// multiply-add (still a block: a call of `wide` inside braces).
fn written(
    program: &Program,
    input: &dyn Fn(usize) -> TokenStream,
    finish: impl FnOnce(&[String]) -> String,
) -> syn::Result<TokenStream> {
    let block = straight(program, input, finish)?;
    // A fused multiply-add is one instruction with FMA, a call of the C library's `fma`
    // without it: a program with one runs through `wide` whatever its size.
    let fused = program
        .instructions
        .iter()
        .any(|i| matches!(i, Instr::MulAdd(..) | Instr::NegMulAdd(..)));
    if program.operation_count() < WIDE_OPERATIONS && !fused {
        return Ok(block);
    }
    // Inlined into both of the runtime's choices of instructions only in a build without
    // debug assertions (a release build by default): a debug build compiles the program
    // once, as does an optimized build with debug assertions, whose program then runs
    // the baseline instructions.
    Ok(quote!({
        #CORE::__private::wide(
            #[cfg_attr(not(debug_assertions), inline(always))]
            || #block
        )
    }))
}

/// The block of `program`'s declarations and statements ending in `finish(outputs)`.
///
/// Written as Rust text and turned into tokens by one call of the compiler's lexer: a
/// token tree built piece by piece crosses the bridge between the macro and the compiler
/// once per token, and the macro runs without optimization in a default build (for the
/// G1 humanoid's 50,000 statements this took most of the expansion's 0.7 s).
fn straight(
    program: &Program,
    input: &dyn Fn(usize) -> TokenStream,
    finish: impl FnOnce(&[String]) -> String,
) -> syn::Result<TokenStream> {
    let mut text = Text {
        input,
        inputs: vec![None; program.inputs],
        statements: String::with_capacity(32 * program.instructions.len()),
        outputs: Vec::with_capacity(program.outputs),
    };
    let invalid = |e: emit::IrError| {
        syn::Error::new(
            proc_macro2::Span::call_site(),
            format!("internal error: a derived program is invalid: {e}"),
        )
    };
    emit::emit(program, &mut text).map_err(invalid)?;
    let Text {
        statements,
        outputs,
        ..
    } = text;
    let mut block = String::from("{");
    for group in emit::declarations(program).map_err(invalid)? {
        let names: Vec<String> = group
            .iter()
            .map(|&(variable, rewritten)| {
                let name = name(variable);
                if rewritten {
                    format!("mut {name}")
                } else {
                    name
                }
            })
            .collect();
        let types = vec!["f64"; group.len()];
        block.push_str(&format!(
            "let ({},): ({},);",
            names.join(", "),
            types.join(", ")
        ));
    }
    block.push_str(&statements);
    block.push_str(&finish(&outputs));
    block.push('}');
    lexed(&block)
}

/// `text` as tokens: by the compiler's lexer inside the macro (`proc_macro2`'s own parse
/// first checks the text with a lexer of its own, built without optimization like the
/// macro), by `proc_macro2`'s outside it (the tests).
fn lexed(text: &str) -> syn::Result<TokenStream> {
    let error = |e: &dyn std::fmt::Display| {
        syn::Error::new(
            proc_macro2::Span::call_site(),
            format!("internal error: a derived program does not read back as Rust: {e}"),
        )
    };
    if proc_macro::is_available() {
        let tokens: proc_macro::TokenStream = text.parse().map_err(|e| error(&e))?;
        Ok(tokens.into())
    } else {
        text.parse().map_err(|e| error(&e))
    }
}

/// The Rust text backend of the walk.
struct Text<'a> {
    input: &'a dyn Fn(usize) -> TokenStream,
    /// The text of each input read so far.
    inputs: Vec<Option<String>>,
    statements: String,
    outputs: Vec<String>,
}

fn name(variable: Variable) -> String {
    let (prefix, i) = match variable {
        Variable::Temp(i) => ("__t", i),
        Variable::Out(i) => ("__o", i),
    };
    joined(String::from(prefix), &[&i.to_string()])
}

/// `parts` one after the other, in the first one's buffer: the walk composes every
/// expression from smaller ones, and this costs one copy of each where `format!` (through
/// the formatting machinery, unoptimized in the macro) cost several times more.
fn joined(mut first: String, rest: &[&str]) -> String {
    for part in rest {
        first.push_str(part);
    }
    first
}

impl Emitter for Text<'_> {
    type Value = String;
    fn input(&mut self, index: usize) -> String {
        let input = self.input;
        self.inputs[index]
            .get_or_insert_with(|| input(index).to_string())
            .clone()
    }
    fn literal(&mut self, value: f64) -> String {
        // The shortest decimal that reads back as `value` (never negative here: the walk
        // negates a negative constant's magnitude).
        format!("{value:?}f64")
    }
    fn variable(&mut self, variable: Variable) -> String {
        name(variable)
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
        joined(
            String::from("::core::primitive::f64::mul_add("),
            &[&a, ", ", &b, ", ", &c, ")"],
        )
    }
    fn div(&mut self, a: String, b: String) -> String {
        joined(a, &[" / ", &b])
    }
    fn call(&mut self, f: Intrinsic, x: String) -> String {
        joined(x, &[".", f.method(), "()"])
    }
    fn powi(&mut self, x: String, n: i32) -> String {
        format!("{x}.powi({n})")
    }
    fn powf(&mut self, x: String, e: String) -> String {
        joined(x, &[".powf(", &e, ")"])
    }
    fn assign(&mut self, variable: Variable, value: String, _first: bool) {
        let statements = &mut self.statements;
        statements.push_str(&name(variable));
        statements.push_str(" = ");
        statements.push_str(&value);
        statements.push(';');
    }
    fn output(&mut self, _index: usize, value: String) {
        self.outputs.push(value);
    }
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    use super::*;

    /// The derive's tokens for [`emit::spelling_cases`], compiled by rustc with and
    /// without optimization, compute the interpreter's outputs bit for bit.
    #[test]
    fn tokens_compute_the_interpreters_bits() {
        let program = emit::spelling_cases();
        let points: [[f64; 2]; 4] = [[0.7, 1.3], [2.0, 0.25], [1e-3, 37.5], [3.7, 1e-5]];
        let read = |i: usize| if i == 0 { quote!(t) } else { quote!(p[0]) };
        // The straight-line block: the runtime's `wide` is not in this test's program.
        let body = straight(&program, &read, |outputs| {
            format!("[{}]", outputs.join(", "))
        })
        .unwrap();
        assert!(
            program
                .instructions
                .iter()
                .any(|i| matches!(i, Instr::NegMulAdd(..)))
        );
        let n = program.outputs;
        let bits = points.map(|[t, p]| (t.to_bits(), p.to_bits()));
        let (ts, ps): (Vec<u64>, Vec<u64>) = bits.into_iter().unzip();
        let source = quote! {
            fn f(t: f64, p: &[f64; 1]) -> [f64; #n] #body
            fn main() {
                for (t, p) in [#(#ts),*].into_iter().zip([#(#ps),*]) {
                    let out = f(
                        std::hint::black_box(f64::from_bits(t)),
                        std::hint::black_box(&[f64::from_bits(p)]),
                    );
                    let words: Vec<String> = out.iter().map(|x| format!("{:x}", x.to_bits())).collect();
                    println!("{}", words.join(" "));
                }
            }
        };
        let dir = std::env::temp_dir().join(format!("lagrange-tokens-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("cases.rs"), source.to_string()).unwrap();
        let expected: Vec<Vec<u64>> = points
            .iter()
            .map(|point| {
                let mut out = vec![f64::NAN; n];
                program.evaluate(point, &mut out);
                out.iter().map(|x| x.to_bits()).collect()
            })
            .collect();
        let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
        // Also for a processor with AVX2 and FMA (run where this one has them): Rust
        // never fuses a product and a sum on its own, and `mul_add` rounds once with the
        // FMA instruction or without it, so the wider instructions give the same bits.
        let wide = cfg!(target_arch = "x86_64") && has_avx2_and_fma();
        let builds: &[(&str, &[&str])] = if wide {
            &[
                ("0", &[]),
                ("3", &[]),
                ("3", &["-C", "target-feature=+avx,+avx2,+fma"]),
            ]
        } else {
            &[("0", &[]), ("3", &[])]
        };
        for (k, &(opt, features)) in builds.iter().enumerate() {
            let binary = dir.join(format!("cases-{k}"));
            let status = Command::new(&rustc)
                .args(["--edition", "2021", "-A", "warnings", "-C"])
                .arg(format!("opt-level={opt}"))
                .args(features)
                .arg("-o")
                .arg(&binary)
                .arg(dir.join("cases.rs"))
                .status()
                .unwrap();
            assert!(status.success());
            let output = Command::new(&binary).output().unwrap();
            let got: Vec<Vec<u64>> = String::from_utf8(output.stdout)
                .unwrap()
                .lines()
                .map(|l| {
                    l.split(' ')
                        .map(|w| u64::from_str_radix(w, 16).unwrap())
                        .collect()
                })
                .collect();
            assert_eq!(got, expected, "opt-level {opt} {features:?}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn has_avx2_and_fma() -> bool {
        #[cfg(target_arch = "x86_64")]
        return std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("fma");
        #[cfg(not(target_arch = "x86_64"))]
        false
    }

    #[test]
    fn negative_zero_is_spelled_with_its_sign() {
        let program = emit::spelling_cases();
        let text = block(&program, &|i| if i == 0 { quote!(t) } else { quote!(p[0]) })
            .unwrap()
            .to_string();
        assert!(
            text.contains("(- 0f64)") || text.contains("(- 0.0f64)"),
            "{text}"
        );
    }
}

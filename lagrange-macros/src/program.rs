//! Straight-line programs of the engine's IR as Rust blocks: written by the engine's one
//! Rust backend of the IR's walk ([`lagrange_symbolic::ir::rust`]), which `lagrange
//! generate` writes its Rust with too, so the derive computes what the interpreter and
//! `lagrange generate` compute, bit for bit; lexed into tokens once.

use lagrange_symbolic::ir::rust::{self, Names};
use lagrange_symbolic::ir::{Instr, Program};
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
/// Written as Rust text by the engine's one Rust backend ([`rust::text`], its variables
/// named for a user's scope) and turned into tokens by one call of the compiler's lexer:
/// a token tree built piece by piece crosses the bridge between the macro and the
/// compiler once per token, and the macro runs without optimization in a default build
/// (for the G1 humanoid's 50,000 statements this took most of the expansion's 0.7 s).
fn straight(
    program: &Program,
    input: &dyn Fn(usize) -> TokenStream,
    finish: impl FnOnce(&[String]) -> String,
) -> syn::Result<TokenStream> {
    let text = rust::text(program, Names::SPLICED, &|i| input(i).to_string()).map_err(|e| {
        syn::Error::new(
            proc_macro2::Span::call_site(),
            format!("internal error: a derived program is invalid: {e}"),
        )
    })?;
    let mut block = String::from("{");
    block.push_str(&text.body());
    block.push_str(&finish(&text.results));
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

#[cfg(test)]
mod tests {
    use std::process::Command;

    use lagrange_symbolic::ir::emit::spelling_cases;

    use super::*;

    /// The derive's tokens for [`spelling_cases`], compiled by rustc with and
    /// without optimization, compute the interpreter's outputs bit for bit.
    #[test]
    fn tokens_compute_the_interpreters_bits() {
        let program = spelling_cases();
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
        let program = spelling_cases();
        let text = block(&program, &|i| if i == 0 { quote!(t) } else { quote!(p[0]) })
            .unwrap()
            .to_string();
        assert!(text.contains("(- 0.0_f64)"), "{text}");
    }
}

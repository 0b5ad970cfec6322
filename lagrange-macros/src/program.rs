//! Straight-line programs of the engine's IR as Rust expressions: the token backend of
//! the IR's one walk ([`lagrange_symbolic::ir::emit`]), which makes every spelling
//! decision, so the derive computes what the interpreter and `lagrange generate`
//! compute, bit for bit.
//!
//! The variables are declared up front, a tuple per group of [`emit::declarations`] (`mut`
//! when written again), and each write is an assignment: not a `let` per write, whose
//! nested scopes crash rustc for large programs (see there).

use lagrange_symbolic::ir::emit::{self, Emitter, Variable};
use lagrange_symbolic::ir::{Instr, Intrinsic, Program};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

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
    written(program, input, |outputs| quote!([#(#outputs),*]))
}

/// A block writing `program`'s outputs `order[0]`, `order[1]`, … into `destination`, a
/// variable of type `&mut [f64; order.len()]`: in place, where an array built and then
/// copied would move every output once more. `order` lists every output once.
pub(crate) fn block_into(
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
    written(program, input, |outputs| {
        let writes = order.iter().enumerate().map(|(i, &k)| {
            let value = &outputs[k];
            quote!(#destination[#i] = #value;)
        });
        quote!(#(#writes)*)
    })
}

/// The block of `program`'s declarations and statements ending in `finish(outputs)`, run
/// with the processor's wider instructions when the program is large or has a fused
/// multiply-add (still a block: a call of `wide` inside braces).
fn written(
    program: &Program,
    input: &dyn Fn(usize) -> TokenStream,
    finish: impl FnOnce(&[TokenStream]) -> TokenStream,
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
fn straight(
    program: &Program,
    input: &dyn Fn(usize) -> TokenStream,
    finish: impl FnOnce(&[TokenStream]) -> TokenStream,
) -> syn::Result<TokenStream> {
    let mut tokens = Tokens {
        input,
        statements: Vec::with_capacity(program.instructions.len()),
        outputs: Vec::with_capacity(program.outputs),
    };
    let invalid = |e: emit::IrError| {
        syn::Error::new(
            proc_macro2::Span::call_site(),
            format!("internal error: a derived program is invalid: {e}"),
        )
    };
    emit::emit(program, &mut tokens).map_err(invalid)?;
    let Tokens {
        statements,
        outputs,
        ..
    } = tokens;
    let groups = emit::declarations(program).map_err(invalid)?;
    let declarations = groups.iter().map(|group| {
        let types = group.iter().map(|_| quote!(f64));
        let names = group.iter().map(|&(variable, rewritten)| {
            let name = name(variable);
            if rewritten {
                quote!(mut #name)
            } else {
                quote!(#name)
            }
        });
        quote!(let (#(#names,)*): (#(#types,)*);)
    });
    let last = finish(&outputs);
    let block = quote!({
        #(#declarations)*
        #(#statements)*
        #last
    });
    Ok(block)
}

/// The token backend of the walk.
struct Tokens<'a> {
    input: &'a dyn Fn(usize) -> TokenStream,
    statements: Vec<TokenStream>,
    outputs: Vec<TokenStream>,
}

fn name(variable: Variable) -> proc_macro2::Ident {
    match variable {
        Variable::Temp(i) => format_ident!("__t{}", i),
        Variable::Out(i) => format_ident!("__o{}", i),
    }
}

impl Emitter for Tokens<'_> {
    type Value = TokenStream;
    fn input(&mut self, index: usize) -> TokenStream {
        (self.input)(index)
    }
    fn literal(&mut self, value: f64) -> TokenStream {
        let literal = Literal::f64_suffixed(value);
        quote!(#literal)
    }
    fn variable(&mut self, variable: Variable) -> TokenStream {
        let name = name(variable);
        quote!(#name)
    }
    fn group(&mut self, x: TokenStream) -> TokenStream {
        quote!((#x))
    }
    fn negate(&mut self, x: TokenStream) -> TokenStream {
        quote!(-#x)
    }
    fn add(&mut self, a: TokenStream, b: TokenStream) -> TokenStream {
        quote!(#a + #b)
    }
    fn mul(&mut self, a: TokenStream, b: TokenStream) -> TokenStream {
        quote!(#a * #b)
    }
    fn mul_add(&mut self, a: TokenStream, b: TokenStream, c: TokenStream) -> TokenStream {
        quote!(::core::primitive::f64::mul_add(#a, #b, #c))
    }
    fn div(&mut self, a: TokenStream, b: TokenStream) -> TokenStream {
        quote!(#a / #b)
    }
    fn call(&mut self, f: Intrinsic, x: TokenStream) -> TokenStream {
        let method = format_ident!("{}", f.method());
        quote!(#x.#method())
    }
    fn powi(&mut self, x: TokenStream, n: i32) -> TokenStream {
        quote!(#x.powi(#n))
    }
    fn powf(&mut self, x: TokenStream, e: TokenStream) -> TokenStream {
        quote!(#x.powf(#e))
    }
    fn assign(&mut self, variable: Variable, value: TokenStream, _first: bool) {
        let name = name(variable);
        self.statements.push(quote!(#name = #value;));
    }
    fn output(&mut self, _index: usize, value: TokenStream) {
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
        let body = straight(&program, &read, |outputs| quote!([#(#outputs),*])).unwrap();
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

//! Straight-line programs of the engine's IR as Rust expressions.
//!
//! Every write becomes a fresh `let` binding that shadows the previous value of its slot,
//! so reused temporaries and outputs need no mutable state and the optimizer sees plain
//! single-assignment code.

use lagrange_symbolic::ir::{Instr, Program, Slot};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

/// A block evaluating `program` to `[f64; outputs]`; `input` gives the tokens that read
/// input slot `i`.
pub fn block(program: &Program, input: &dyn Fn(usize) -> TokenStream) -> syn::Result<TokenStream> {
    let mut written = vec![false; program.outputs];
    let mut statements = Vec::with_capacity(program.instructions.len());
    let read = |slot: Slot| -> syn::Result<TokenStream> {
        Ok(match slot {
            Slot::Input(i) => input(i),
            Slot::Const(i) => constant(program.constants[i])?,
            Slot::Temp(i) => {
                let name = format_ident!("__t{}", i);
                quote!(#name)
            }
            Slot::Out(i) => {
                let name = format_ident!("__o{}", i);
                quote!(#name)
            }
        })
    };
    let reads = |slots: &[Slot]| {
        slots
            .iter()
            .map(|&s| read(s))
            .collect::<syn::Result<Vec<_>>>()
    };
    for instr in &program.instructions {
        let (dst, value) = match instr {
            Instr::Add(dst, args) => {
                let args = reads(args)?;
                let sum = args.into_iter().reduce(|acc, a| quote!(#acc + #a));
                (dst, sum.unwrap_or_else(|| quote!(0.0f64)))
            }
            Instr::Mul(dst, args) => {
                let args = reads(args)?;
                let product = args.into_iter().reduce(|acc, a| quote!(#acc * #a));
                (dst, product.unwrap_or_else(|| quote!(1.0f64)))
            }
            Instr::Powi(dst, base, n) => (dst, power(read(*base)?, *n)),
            Instr::Powf(dst, base, exponent) => {
                let b = read(*base)?;
                let value = match *exponent {
                    Slot::Const(i) if program.constants[i] == 0.5 => quote!(#b.sqrt()),
                    Slot::Const(i) if program.constants[i] == -0.5 => quote!(1.0 / #b.sqrt()),
                    e => {
                        let e = read(e)?;
                        quote!(#b.powf(#e))
                    }
                };
                (dst, value)
            }
            Instr::Call(dst, f, x) => {
                let x = read(*x)?;
                let method = format_ident!("{}", f.method());
                (dst, quote!(#x.#method()))
            }
            Instr::Copy(dst, src) => (dst, read(*src)?),
        };
        let name = match *dst {
            Slot::Temp(i) => format_ident!("__t{}", i),
            Slot::Out(i) => {
                written[i] = true;
                format_ident!("__o{}", i)
            }
            Slot::Input(_) | Slot::Const(_) => {
                return Err(syn::Error::new(
                    proc_macro2::Span::call_site(),
                    "internal error: the engine wrote to an input or constant slot",
                ));
            }
        };
        statements.push(quote!(let #name: f64 = #value;));
    }
    let outputs = written.iter().enumerate().map(|(i, &w)| {
        if w {
            let name = format_ident!("__o{}", i);
            quote!(#name)
        } else {
            quote!(0.0f64)
        }
    });
    Ok(quote!({
        #(#statements)*
        [#(#outputs),*]
    }))
}

/// `base^n` for an integer `n`, with small powers multiplied out.
fn power(base: TokenStream, n: i32) -> TokenStream {
    match n {
        -1 => quote!(1.0 / #base),
        0 => quote!(1.0f64),
        1 => base,
        2 => quote!(#base * #base),
        3 => quote!(#base * #base * #base),
        -2 => quote!(1.0 / (#base * #base)),
        n => quote!(#base.powi(#n)),
    }
}

fn constant(value: f64) -> syn::Result<TokenStream> {
    if !value.is_finite() {
        return Err(syn::Error::new(
            proc_macro2::Span::call_site(),
            format!("the derived equations contain the non-finite constant {value}"),
        ));
    }
    let literal = Literal::f64_suffixed(value.abs());
    Ok(if value < 0.0 {
        quote!((-#literal))
    } else {
        quote!(#literal)
    })
}

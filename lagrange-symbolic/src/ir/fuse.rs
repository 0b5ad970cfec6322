//! Products fused into the sums that read them: `a·b + c` as one multiply-add, rounded
//! once ([`Instr::MulAdd`], and [`Instr::NegMulAdd`] for `c − a·b`). A processor with
//! fused instructions runs each as one instruction where it ran two or three, and every
//! backend of the walk rounds it the same way (Rust's `f64::mul_add`, C's `fma`), so the
//! choice is the program's, made once where it is traced.

use super::{Instr, Slot};

/// Rewrites each sum of two terms `Add(d, [x, t])` whose term `t` is a product
/// `Mul(t, [a, b])` into `MulAdd(d, [a, b, x])` (the other term tried first when `t` is
/// not a product), and a term `−1·u` of a product `u` into `NegMulAdd(d, [a, b, x])`.
/// Each sum that reads a product takes it in: a product read by two sums is computed in
/// each, one operation where a product and two sums were three. The products' factors
/// must be inputs, constants or temporaries written once, so that they hold at the sum
/// the values they held at the product. The products themselves stay, for what else
/// reads them, or unread for the caller's pass that drops what no output reads.
pub(super) fn fuse(instructions: &mut [Instr], temporaries: usize, constants: &[f64]) {
    let count = instructions.len();
    let mut writes = vec![0usize; temporaries];
    let mut definition = vec![count; temporaries];
    for (index, instruction) in instructions.iter().enumerate() {
        if let Slot::Temp(i) = instruction.slots().0
            && i < temporaries
        {
            writes[i] += 1;
            definition[i] = index;
        }
    }
    let stable = |slot: Slot| match slot {
        Slot::Input(_) | Slot::Const(_) => true,
        Slot::Temp(i) => i < temporaries && writes[i] == 1,
        Slot::Out(_) => false,
    };
    // The two factors of the product that alone writes `slot`.
    let product = |instructions: &[Instr], slot: Slot| match slot {
        Slot::Temp(t) if t < temporaries && writes[t] == 1 => {
            match instructions.get(definition[t]) {
                Some(Instr::Mul(_, factors)) if factors.len() == 2 => {
                    Some([factors[0], factors[1]])
                }
                _ => None,
            }
        }
        _ => None,
    };
    let minus_one = |slot: Slot| matches!(slot, Slot::Const(c) if constants.get(c) == Some(&-1.0));
    for index in 0..count {
        let Instr::Add(destination, terms) = &instructions[index] else {
            continue;
        };
        if terms.len() != 2 {
            continue;
        }
        let (destination, terms) = (*destination, [terms[0], terms[1]]);
        for (term, other) in [(terms[1], terms[0]), (terms[0], terms[1])] {
            let Some(factors) = product(instructions, term) else {
                continue;
            };
            let negated = match factors {
                [c, u] | [u, c] if minus_one(c) => product(instructions, u),
                _ => None,
            };
            let fused = match negated {
                Some([a, b]) if stable(a) && stable(b) => {
                    Instr::NegMulAdd(destination, [a, b, other])
                }
                _ if factors.iter().all(|&f| stable(f)) => {
                    Instr::MulAdd(destination, [factors[0], factors[1], other])
                }
                _ => continue,
            };
            instructions[index] = fused;
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Instr;
    use super::super::trace::{Tracer, Value};

    #[test]
    fn products_read_by_sums_are_fused_into_each_and_round_once() {
        // out0 = x·y + z and out4 = (x·y)·z + 1 (x·y fused into out0 and kept for the
        // product of out4, itself fused), out1 = x·z + 1 and out2 = x·z + y (x·z fused
        // into both), out3 = w − y·z (negated, fused).
        let mut t = Tracer::new(4);
        let [x, y, z, w] = [0, 1, 2, 3].map(|i| t.input(i));
        let xy = t.mul(x, y);
        let fused = t.add(xy, z);
        let xz = t.mul(x, z);
        let shared_a = t.add(xz, Value::ONE);
        let shared_b = t.add(xz, y);
        let yz = t.mul(y, z);
        let negated = t.sub(w, yz);
        let xy_again = t.mul(x, y);
        let nested = t.mul(xy_again, z);
        let nested = t.add(nested, Value::ONE);
        let program = t.finish(&[fused, shared_a, shared_b, negated, nested]);
        program.validate(4, 5).unwrap();
        let count = |f: fn(&Instr) -> bool| program.instructions.iter().filter(|i| f(i)).count();
        assert_eq!(count(|i| matches!(i, Instr::MulAdd(..))), 4, "{program:?}");
        assert_eq!(
            count(|i| matches!(i, Instr::NegMulAdd(..))),
            1,
            "{program:?}"
        );
        assert_eq!(count(|i| matches!(i, Instr::Mul(..))), 1, "{program:?}");
        // Inputs chosen so that one rounding and two differ.
        // y·z = 1 − 2⁻⁵⁴ exactly, 1 once rounded: w − y·z is 2⁻⁵⁴ fused, 0 unfused.
        let e = 2.0f64.powi(-27);
        let (x, y, z, w) = (0.1f64, 1.0 + e, 1.0 - e, 1.0);
        let mut out = [0.0; 5];
        program.evaluate(&[x, y, z, w], &mut out);
        let expected = [
            x.mul_add(y, z),
            x.mul_add(z, 1.0),
            x.mul_add(z, y),
            (-y).mul_add(z, w),
            (x * y).mul_add(z, 1.0),
        ];
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&out), bits(&expected));
        assert_eq!((out[3], w - y * z), (2.0f64.powi(-54), 0.0));

        // Spliced into another trace (as the residual's derivatives read the residual), the
        // fused operations are traced as products and sums and fused again as that trace
        // finishes: the same bits.
        let mut t = Tracer::new(4);
        let inputs: Vec<Value> = (0..4).map(|i| t.input(i)).collect();
        let outputs = t.splice(&program, &inputs);
        let again = t.finish(&outputs);
        let mut out_again = [0.0; 5];
        again.evaluate(&[x, y, z, w], &mut out_again);
        assert_eq!(bits(&out_again), bits(&expected), "{again:?}");
    }
}

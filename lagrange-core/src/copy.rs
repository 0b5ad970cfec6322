//! A few values copied in registers.

/// `to = from` (slices of one length, else a panic), four values at a time and then one
/// by one: moves in registers, where `copy_from_slice` calls the C library's `memmove`,
/// which for the few values of a small model's vectors at run-time sizes was a tenth of
/// its run (`benches/loaded.rs`).
#[inline(always)]
pub fn copy_values(to: &mut [f64], from: &[f64]) {
    assert_eq!(to.len(), from.len(), "slices of one length");
    let mut to = to.chunks_exact_mut(4);
    let mut from = from.chunks_exact(4);
    for (to, from) in (&mut to).zip(&mut from) {
        <&mut [f64; 4]>::try_from(to)
            .expect("a chunk of four")
            .copy_from_slice(from);
    }
    let (to, from) = (to.into_remainder(), from.remainder());
    match (to, from) {
        ([a], [x]) => *a = *x,
        ([a, b], [x, y]) => (*a, *b) = (*x, *y),
        ([a, b, c], [x, y, z]) => (*a, *b, *c) = (*x, *y, *z),
        _ => {}
    }
}

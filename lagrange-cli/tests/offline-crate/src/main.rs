//! Prints the fingerprint of `models.rs` (bit patterns of derived quantities and short
//! integrations), one hexadecimal `u64` per line, for comparison with the engine build.

mod models;

fn main() {
    for bits in models::fingerprint() {
        println!("{bits:016x}");
    }
}

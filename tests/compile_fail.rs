//! Compile-fail tests of `#[derive(Lagrangian)]`: each file in `tests/compile_fail/` must
//! fail to compile with the error recorded next to it in a `.stderr` snapshot.
//! Regenerate the snapshots with `TRYBUILD=overwrite cargo test --test compile_fail`.

#[test]
fn compile_errors() {
    trybuild::TestCases::new().compile_fail("tests/compile_fail/*.rs");
}

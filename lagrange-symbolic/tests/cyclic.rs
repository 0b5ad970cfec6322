//! A coordinate is cyclic when the Lagrangian does not depend on it, whatever form the
//! Lagrangian is written in (Thomson & Tait §319: Routh's reduction rests on it). The
//! test is numeric where algebra cannot decide (`cos²x − cos(2x)/2` is `1/2`, an identity
//! symbolica does not apply), and its round-off scale must not depend on whether the
//! expression is small enough to expand.

use lagrange_symbolic::derive;
use lagrange_symbolic::model::Model;

/// `L = ½ẋ² + ½ẏ² − (cos²x − cos(2x)/2 + εx) P(y)ⁿ`, `P` a polynomial of six terms:
/// `x` is cyclic exactly when `ε = 0`.
fn model(epsilon: &str, n: u32, ignore: &[&str]) -> Model {
    Model {
        name: "Identity".into(),
        coordinates: vec!["x".into(), "y".into()],
        lagrangian: Some(format!(
            "1/2*dot(x)^2 + 1/2*dot(y)^2 - (cos(x)^2 - cos(2*x)/2 + {epsilon}*x)*(1 + y/2 + y^2/3 + y^3/4 + y^4/5 + y^5/6)^{n}"
        )),
        ignore: ignore.iter().map(|s| s.to_string()).collect(),
        ..Model::default()
    }
}

#[test]
fn a_cyclic_coordinate_is_found_whatever_the_size_of_the_lagrangian() {
    // n = 2 expands to 21 terms per factor; n = 7 would expand to 792, past what the
    // engine expands for its test: that one once reported "Cyclic coordinates: none".
    for n in [2, 7] {
        let eq = derive(&model("0", n, &[])).unwrap().full;
        assert_eq!(eq.cyclic, vec![0], "n = {n}");
        // And Routh's reduction over it is accepted.
        derive(&model("0", n, &["x"])).unwrap_or_else(|e| panic!("n = {n}: {e:?}"));
    }
}

#[test]
fn a_coordinate_the_lagrangian_depends_on_slightly_is_not_cyclic() {
    for n in [2, 7] {
        for epsilon in ["1/1000000", "1/1000000000"] {
            let eq = derive(&model(epsilon, n, &[])).unwrap().full;
            assert!(eq.cyclic.is_empty(), "n = {n}, ε = {epsilon}");
            assert!(
                derive(&model(epsilon, n, &["x"])).is_err(),
                "n = {n}, ε = {epsilon}"
            );
        }
    }
}

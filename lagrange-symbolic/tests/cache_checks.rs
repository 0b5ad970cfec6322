//! The user-wide cache serves only models that pass today's checks: an entry stored by
//! an older engine for a model now rejected (its potential `sinh(x - sqrt(0^0))` derived
//! `f = 0`) must not come back as a derivation.

use lagrange_symbolic::model::{Item, Model};
use lagrange_symbolic::store;

fn well(potential: &str) -> Model {
    Model {
        name: "Well".into(),
        coordinates: vec!["x".into()],
        parameters: vec!["k".into()],
        kinetic: Some("1/2*dot(x)^2".into()),
        potential: Some(potential.into()),
        ..Model::default()
    }
}

#[test]
fn a_stored_entry_of_a_rejected_model_is_not_served() {
    let dir = std::env::temp_dir().join(format!("lagrange-cache-checks-{}", std::process::id()));
    let valid = well("k*x^2");
    let derived = store::derive_cached(&valid, None).unwrap();
    // What an older engine stored for the model it could not see was undefined.
    let rejected = well("sinh(x - sqrt(0^0))");
    store::write(&dir, &rejected, &derived).unwrap();
    let errors = store::derive_cached(&rejected, Some(&dir)).unwrap_err();
    assert_eq!(errors[0].item, Item::Potential, "{errors:?}");
    assert!(errors[0].message.contains("`0^0`"), "{errors:?}");
    // A model that passes is served from its entry.
    store::write(&dir, &valid, &derived).unwrap();
    assert_eq!(store::derive_cached(&valid, Some(&dir)).unwrap(), derived);
    std::fs::remove_dir_all(&dir).unwrap();
}

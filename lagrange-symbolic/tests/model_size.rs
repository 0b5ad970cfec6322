//! The bound on a model's size that is checked before the engine runs: a model of more
//! than `MAX_COORDINATES` coordinates (10,000 pendulums imported from a URDF once derived
//! for minutes with no end in sight) is refused at once, with one error, not one per
//! coordinate.

use lagrange_symbolic::model::{Item, MAX_COORDINATES, Model};

fn pendulums(n: usize) -> Model {
    Model {
        name: "Pendulums".into(),
        coordinates: (0..n).map(|i| format!("q{i}")).collect(),
        lagrangian: Some("1/2*dot(q0)^2 + cos(q0)".into()),
        ..Model::default()
    }
}

#[test]
fn a_model_of_too_many_coordinates_is_refused_with_one_error() {
    let errors = pendulums(10_000).check().unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].item, Item::Coordinates);
    assert!(
        errors[0].message.starts_with("10000 coordinates")
            && errors[0].message.contains(&MAX_COORDINATES.to_string()),
        "{}",
        errors[0].message
    );
    // At the limit the size is not what is wrong.
    let at_limit = pendulums(MAX_COORDINATES).check();
    assert!(at_limit.is_ok(), "{at_limit:?}");
}

//! `--fixed-joint-merge`: links on fixed joints folded into the nearest link that moves,
//! their placements composed and their inertial data combined.

use std::collections::{BTreeSet, HashMap};

use super::frames::{
    Matrix, apply, entries, magnitude, mul, rpy_matrix, rpy_of, tensor, transposed,
    without_round_off,
};
use super::{Inertial, UrdfJoint};

/// The links on fixed joints folded into the nearest link that moves (or the fixed
/// frame): the movable joints re-attached to it with composed placements, and each
/// remaining link's inertial data combined with what was folded into it. `order` lists
/// the joints parents first.
pub(super) fn merge_fixed(
    order: &[&UrdfJoint],
    inertial: &HashMap<&str, &Inertial>,
    root: &str,
    ignored: &mut BTreeSet<String>,
) -> (Vec<UrdfJoint>, HashMap<String, Inertial>) {
    const IDENTITY: Matrix = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    // Per link: the link it is rigidly part of, and its frame there (rotation, origin).
    let mut part_of: HashMap<String, (String, Matrix, [f64; 3])> = HashMap::new();
    part_of.insert(root.to_string(), (root.to_string(), IDENTITY, [0.0; 3]));
    let mut joints = Vec::new();
    for j in order {
        let (owner, rotation, origin) = part_of[&j.parent].clone();
        let placed_rotation = mul(rotation, rpy_matrix(j.rpy));
        let offset = apply(rotation, j.xyz);
        let placed_origin: [f64; 3] = std::array::from_fn(|i| origin[i] + offset[i]);
        if j.kind == "fixed" {
            ignored.insert(format!(
                "fixed joint `{}` (link `{}` merged into `{}`)",
                j.name,
                j.child,
                if owner == root {
                    "the fixed frame"
                } else {
                    owner.as_str()
                }
            ));
            part_of.insert(j.child.clone(), (owner, placed_rotation, placed_origin));
        } else {
            let mut moved = (*j).clone();
            if owner != j.parent {
                moved.xyz = placed_origin;
                moved.rpy = rpy_of(placed_rotation);
            }
            moved.parent = owner;
            joints.push(moved);
            part_of.insert(j.child.clone(), (j.child.clone(), IDENTITY, [0.0; 3]));
        }
    }
    // Mass, first moment and inertia about each owner's origin, then about the centre,
    // summed in the import's order of the links, parents first: a map's order changes
    // from one process to the next, and the last bit of a sum with it.
    let links = std::iter::once(root).chain(order.iter().map(|j| j.child.as_str()));
    let mut sums: HashMap<String, (f64, [f64; 3], Matrix)> = HashMap::new();
    for link in links {
        let (owner, rotation, origin) = &part_of[link];
        let part = inertial[link];
        let turned_com = apply(*rotation, part.com);
        let c: [f64; 3] = std::array::from_fn(|i| origin[i] + turned_com[i]);
        let spin = mul(mul(*rotation, tensor(part.inertia)), transposed(*rotation));
        let entry = sums
            .entry(owner.clone())
            .or_insert((0.0, [0.0; 3], [[0.0; 3]; 3]));
        entry.0 += part.mass;
        let m = part.mass;
        let cc = c.iter().map(|x| x * x).sum::<f64>();
        for i in 0..3 {
            entry.1[i] += m * c[i];
            for k in 0..3 {
                let shift = m * (if i == k { cc } else { 0.0 } - c[i] * c[k]);
                entry.2[i][k] += spin[i][k] + shift;
            }
        }
    }
    let merged = sums
        .into_iter()
        .map(|(owner, (m, h, about_origin))| {
            let com: [f64; 3] = if m > 0.0 { h.map(|x| x / m) } else { [0.0; 3] };
            let cc = com.iter().map(|x| x * x).sum::<f64>();
            let about_com: Matrix = std::array::from_fn(|i| {
                std::array::from_fn(|k| {
                    about_origin[i][k] - m * (if i == k { cc } else { 0.0 } - com[i] * com[k])
                })
            });
            let data = Inertial {
                mass: m,
                com,
                inertia: entries(without_round_off(about_com, magnitude(about_origin))),
            };
            (owner, data)
        })
        .collect();
    (joints, merged)
}

#[cfg(test)]
mod tests {
    use super::super::{Options, import};

    /// The G1 folds several links on fixed joints into one: their masses and inertias are
    /// sums, which must not depend on the order of a map (random in each map).
    #[test]
    fn a_merged_robot_has_the_same_bits_in_every_import() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../lagrange-cli/tests/pinocchio/robots/g1.urdf"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let options = Options {
            merge_fixed: true,
            actuated: false,
        };
        let first = format!("{:?}", import(&text, options).unwrap().model);
        for _ in 0..16 {
            assert_eq!(
                format!("{:?}", import(&text, options).unwrap().model),
                first
            );
        }
    }
}

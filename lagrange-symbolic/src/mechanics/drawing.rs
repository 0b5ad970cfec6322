//! What a report's animation draws: the particles, the bodies' centres of mass and
//! frames, the joints of a kinematic tree with the lines between them, and the points a
//! model names, compiled into one program of positions and orientations.

use super::kinetic;
use super::recursive;
use super::system::System;
use crate::cas::{Session, Sym};
use crate::equations::{Drawing, DrawnPoint, PointKind};
use crate::ir::Program;
use crate::model::{CheckedModel, CheckedParticle, ORIGIN, Placement};
use crate::syntax::Expr;

/// What a drawn point's position is.
pub(super) enum Place<'a> {
    /// A written position (a particle's, a drawn point's); a missing component is 0.
    Written(&'a [Expr]),
    /// Body `b`'s centre of mass.
    Centre(usize),
    /// The origin of body `b`'s frame, where its joint is.
    Joint(usize),
}

/// The drawing of a model with particles, bodies or drawn points; `None` for a model
/// with none of them. A tree derived by its recursions (`traced`, too deep or too large to
/// expand) is drawn from its traced placement (its composed rotations, expanded, would
/// grow about ninefold per link when the joints' frames are turned); other models from
/// their symbolic poses.
pub(crate) fn drawing(
    s: &Session,
    model: &CheckedModel,
    system: &System,
    traced: bool,
) -> Result<Option<Drawing>, String> {
    if model.particles.is_empty() && model.bodies.is_empty() && model.drawing.is_empty() {
        return Ok(None);
    }
    let mut placed = Placed::default();
    for CheckedParticle { name, position, .. } in &model.particles {
        placed.place(name.clone(), PointKind::Particle, Place::Written(position));
    }
    let first_body = placed.points.len();
    for (b, body) in model.bodies.iter().enumerate() {
        placed.place(body.name.clone(), PointKind::Body, Place::Centre(b));
    }
    let frames: Vec<usize> = (first_body..first_body + model.bodies.len()).collect();
    let mut links = Vec::new();
    for (i, body) in model.bodies.iter().enumerate() {
        if let Placement::Jointed { parent, .. } = &body.placement {
            let joint = placed.points.len();
            let name = format!("{}.joint", body.name);
            placed.place(name, PointKind::Joint, Place::Joint(i));
            links.push((joint, Some(first_body + i)));
            // From the parent's joint (or its centre, for a placed parent) to this one.
            if let Some(p) = parent {
                let from = placed
                    .index(&format!("{}.joint", model.bodies[*p].name))
                    .unwrap_or(first_body + p);
                links.push((joint, Some(from)));
            }
        }
    }
    for d in &model.drawing {
        if let Some(at) = &d.at {
            placed.place(d.point.clone(), PointKind::Point, Place::Written(at));
        }
    }
    for d in &model.drawing {
        if let (Some(link), Some(from)) = (&d.link, placed.index(&d.point)) {
            // `origin` is the fixed frame's, even beside a particle of that name.
            match (link == ORIGIN, placed.index(link)) {
                (true, _) => links.push((from, None)),
                (false, Some(to)) => links.push((from, Some(to))),
                (false, None) => {}
            }
        }
    }
    let inputs = system.inputs();
    let traced = if traced {
        recursive::drawing(s, model, inputs.len(), &placed.places)?
    } else {
        None
    };
    let program = match traced {
        Some(program) => program,
        None => symbolic(s, model, system, &placed.places)?,
    };
    Ok(Some(Drawing {
        program,
        points: placed.points,
        links,
        frames,
    }))
}

/// Where a drawing reads its points and frames: the bodies' symbolic poses, or a tree's
/// traced placement ([`recursive::drawing`]).
pub(super) trait Frames {
    type Value;
    /// The number 0.
    fn zero(&self) -> Self::Value;
    /// A written component of a position; `None` when it does not lower.
    fn written(&mut self, component: &Expr) -> Result<Option<Self::Value>, String>;
    /// Body `b`'s centre of mass.
    fn centre(&mut self, b: usize) -> [Self::Value; 3];
    /// The origin of body `b`'s frame.
    fn joint(&mut self, b: usize) -> [Self::Value; 3];
    /// Body `b`'s orientation.
    fn orientation(&mut self, b: usize) -> [[Self::Value; 3]; 3];
}

/// The drawing's outputs in the layout of [`Drawing`]: the positions of `places`, then
/// each of the `bodies`' orientation row-major; `None` when a written position does not
/// lower.
pub(super) fn outputs<F: Frames>(
    frames: &mut F,
    places: &[Place<'_>],
    bodies: usize,
) -> Result<Option<Vec<F::Value>>, String> {
    let mut outputs = Vec::with_capacity(3 * places.len() + 9 * bodies);
    for place in places {
        match place {
            Place::Written(at) => {
                for k in 0..3 {
                    let value = match at.get(k) {
                        None => frames.zero(),
                        Some(e) => match frames.written(e)? {
                            Some(value) => value,
                            None => return Ok(None),
                        },
                    };
                    outputs.push(value);
                }
            }
            Place::Centre(b) => outputs.extend(frames.centre(*b)),
            Place::Joint(b) => outputs.extend(frames.joint(*b)),
        }
    }
    for b in 0..bodies {
        outputs.extend(frames.orientation(b).into_iter().flatten());
    }
    Ok(Some(outputs))
}

/// The bodies' symbolic poses.
struct Poses<'a> {
    s: &'a Session,
    poses: Vec<kinetic::Pose>,
}

impl Frames for Poses<'_> {
    type Value = Sym;

    fn zero(&self) -> Sym {
        self.s.int(0)
    }

    fn written(&mut self, component: &Expr) -> Result<Option<Sym>, String> {
        self.s.expr(component).map(Some)
    }

    fn centre(&mut self, b: usize) -> [Sym; 3] {
        self.poses[b].com.clone()
    }

    fn joint(&mut self, b: usize) -> [Sym; 3] {
        self.poses[b].origin.clone()
    }

    fn orientation(&mut self, b: usize) -> [[Sym; 3]; 3] {
        self.poses[b].r.clone()
    }
}

/// The drawing's program from the bodies' symbolic poses.
fn symbolic(
    s: &Session,
    model: &CheckedModel,
    system: &System,
    places: &[Place<'_>],
) -> Result<Program, String> {
    let poses = kinetic::poses(s, model)?;
    let bodies = poses.len();
    let positions = outputs(&mut Poses { s, poses }, places, bodies)?
        .ok_or("a symbolic position is always drawn")?;
    s.compile(&positions, &system.inputs())
}

/// The points placed so far, with what each one's position is.
#[derive(Default)]
struct Placed<'a> {
    points: Vec<DrawnPoint>,
    places: Vec<Place<'a>>,
}

impl<'a> Placed<'a> {
    fn place(&mut self, name: String, kind: PointKind, at: Place<'a>) {
        self.points.push(DrawnPoint { name, kind });
        self.places.push(at);
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.points.iter().position(|p| p.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cas::{self, Names};
    use crate::numeric::{SplitMix64, sample_state};

    /// Turned joint frames, a slide, a ball joint, a fixed body and a written point: the
    /// drawing traced from the tree's placement and the one from the symbolic poses give
    /// the same positions and orientations.
    #[test]
    fn the_traced_drawing_is_the_symbolic_one() {
        let text = r#"
            [model]
            name = "Drawn"
            coordinates = ["a", "s", "b1", "b2", "b3", "c"]
            parameters = ["l", "g"]
            gravity = ["0", "0", "-g"]

            [[model.body]]
            name = "upper"
            mass = "1.5"
            inertia = ["0.1", "0.2", "0.3", "0.01", "0", "0.02"]
            joint = "revolute(a)"
            axis = ["0.6", "0", "0.8"]
            origin = ["0.1", "-0.2", "0.3"]
            rpy = ["0.3", "-1.2", "2.1"]
            com = ["0.05", "l", "-0.1"]

            [[model.body]]
            name = "slider"
            parent = "upper"
            mass = "0.7"
            inertia = ["0.02", "0.02", "0.01", "0", "0", "0"]
            joint = "prismatic(s)"
            axis = ["0", "1", "0"]
            origin = ["0", "0", "l"]
            rpy = ["1.5708", "0", "-0.4"]
            com = ["0.2", "0", "0"]

            [[model.body]]
            name = "ball"
            parent = "slider"
            mass = "0.4"
            inertia = ["0.01", "0.02", "0.03", "0", "0", "0"]
            joint = "spherical(b1, b2, b3)"
            origin = ["0.3", "0.1", "0"]
            rpy = ["0", "0.7", "0"]
            com = ["0", "0", "-0.25"]

            [[model.body]]
            name = "tool"
            parent = "ball"
            mass = "0.2"
            inertia = ["0.001", "0.001", "0.001", "0", "0", "0"]
            joint = "fixed"
            origin = ["0", "0", "-0.5"]
            rpy = ["0.2", "0.1", "0"]
            com = ["0.01", "0.02", "0.03"]

            [[model.body]]
            name = "wrist"
            parent = "tool"
            mass = "0.3"
            inertia = ["0.002", "0.003", "0.004", "0", "0", "0"]
            joint = "revolute(c)"
            axis = ["1", "0", "0"]
            origin = ["0.1", "0", "0"]
            rpy = ["-0.5", "0.25", "1"]
            com = ["0", "0.1", "0"]

            [[draw]]
            point = "tip"
            at = ["l*cos(a) + s", "sin(b1)*c"]
            link = "wrist"
        "#;
        let model = crate::source::model_of(text).unwrap().check().unwrap();
        let names = Names {
            coordinates: model.coordinates.clone(),
            parameters: model.parameters.clone(),
            momenta: Vec::new(),
        };
        let work = model.clone();
        let (traced, symbolic) = cas::session(names, move |s| {
            let system = System::of_model(s, &work, false)?;
            let layout = drawing(s, &work, &system, true)?.expect("drawn");
            let mut placed = Placed::default();
            for (b, _) in work.bodies.iter().enumerate() {
                placed.places.push(Place::Centre(b));
            }
            for (b, _) in work.bodies.iter().enumerate() {
                placed.places.push(Place::Joint(b));
            }
            let at = work.drawing[0].at.as_ref().unwrap();
            placed.places.push(Place::Written(at));
            let inputs = system.inputs().len();
            let traced = recursive::drawing(s, &work, inputs, &placed.places)?.expect("a tree");
            let symbolic = super::symbolic(s, &work, &system, &placed.places)?;
            assert_eq!(layout.points.len(), placed.places.len());
            Ok((traced, symbolic))
        })
        .unwrap();
        let outputs = 3 * (2 * 5 + 1) + 9 * 5;
        let mut rng = SplitMix64::new(11);
        for _ in 0..10 {
            let inputs = sample_state(&mut rng, 1 + 2 * 6 + 2);
            let (mut a, mut b) = (vec![0.0; outputs], vec![0.0; outputs]);
            traced.evaluate(&inputs, &mut a);
            symbolic.evaluate(&inputs, &mut b);
            for (k, (x, y)) in a.iter().zip(&b).enumerate() {
                assert!(
                    (x - y).abs() < 1e-13,
                    "output {k}: traced {x}, symbolic {y}"
                );
            }
        }
    }

    /// A chain of 12 links whose joint frames are all turned (`rpy`), too deep to
    /// expand: its drawing (traced; composed symbolically it would not fit in memory)
    /// places each joint, centre and frame where the forward kinematics written out here
    /// puts them.
    #[test]
    fn a_deep_chain_of_turned_frames_is_drawn_where_its_kinematics_put_it() {
        const LINKS: usize = 12;
        let (rpy, offset, com) = ([0.3, -1.2, 2.1], [0.1, -0.2, 0.3], [0.05, 0.1, -0.2]);
        let mut text = String::from("[model]\nname = \"Chain\"\ncoordinates = [");
        text += &(0..LINKS)
            .map(|k| format!("\"q{k}\""))
            .collect::<Vec<_>>()
            .join(", ");
        text += "]\nparameters = [\"g\"]\ngravity = [\"0\", \"0\", \"-g\"]\n";
        for k in 0..LINKS {
            let parent = if k == 0 {
                String::new()
            } else {
                format!("parent = \"l{}\"\n", k - 1)
            };
            text += &format!(
                "[[model.body]]\nname = \"l{k}\"\n{parent}mass = \"1\"\ninertia = [\"0.1\", \"0.1\", \"0.1\", \"0\", \"0\", \"0\"]\njoint = \"revolute(q{k})\"\naxis = [\"0\", \"0\", \"1\"]\norigin = [\"0.1\", \"-0.2\", \"0.3\"]\nrpy = [\"0.3\", \"-1.2\", \"2.1\"]\ncom = [\"0.05\", \"0.1\", \"-0.2\"]\n"
            );
        }
        let model = crate::source::model_of(&text).unwrap();
        let drawing = crate::derive(&model).unwrap().full.drawing.expect("drawn");
        type M = [[f64; 3]; 3];
        let product = |a: &M, b: &M| -> M {
            std::array::from_fn(|i| {
                std::array::from_fn(|j| (0..3).map(|k| a[i][k] * b[k][j]).sum())
            })
        };
        let about = |axis: usize, angle: f64| -> M {
            let (c, s) = (angle.cos(), angle.sin());
            let (i, j) = ((axis + 1) % 3, (axis + 2) % 3);
            let mut m = [[0.0; 3]; 3];
            m[axis][axis] = 1.0;
            (m[i][i], m[i][j], m[j][i], m[j][j]) = (c, -s, s, c);
            m
        };
        // URDF's rpy: R_z(yaw) R_y(pitch) R_x(roll).
        let turned = product(
            &product(&about(2, rpy[2]), &about(1, rpy[1])),
            &about(0, rpy[0]),
        );
        let mut rng = SplitMix64::new(5);
        let inputs = sample_state(&mut rng, 1 + 2 * LINKS + 1);
        let mut out = vec![0.0; 3 * drawing.points.len() + 9 * drawing.frames.len()];
        drawing.program.evaluate(&inputs, &mut out);
        let (mut r, mut o): (M, [f64; 3]) = (about(0, 0.0), [0.0; 3]);
        for k in 0..LINKS {
            let shift: [f64; 3] =
                std::array::from_fn(|i| (0..3).map(|j| r[i][j] * offset[j]).sum());
            o = std::array::from_fn(|i| o[i] + shift[i]);
            r = product(&product(&r, &turned), &about(2, inputs[1 + k]));
            let joint = drawing
                .points
                .iter()
                .position(|p| p.name == format!("l{k}.joint"))
                .unwrap();
            let body = drawing
                .points
                .iter()
                .position(|p| p.name == format!("l{k}"));
            let body = body.unwrap();
            let frame = drawing.frames.iter().position(|&f| f == body).unwrap();
            let rows = 3 * drawing.points.len() + 9 * frame;
            for i in 0..3 {
                let got = out[3 * joint + i];
                assert!((got - o[i]).abs() < 1e-12, "joint {k}: {got} vs {}", o[i]);
                let centre = o[i] + (0..3).map(|j| r[i][j] * com[j]).sum::<f64>();
                let got = out[3 * body + i];
                assert!(
                    (got - centre).abs() < 1e-12,
                    "centre {k}: {got} vs {centre}"
                );
                for j in 0..3 {
                    let got = out[rows + 3 * i + j];
                    assert!((got - r[i][j]).abs() < 1e-12, "R {k}: {got} vs {}", r[i][j]);
                }
            }
        }
    }
}

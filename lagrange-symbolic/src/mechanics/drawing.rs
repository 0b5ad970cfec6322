//! What a report's animation draws: the particles, the bodies' centres of mass and
//! frames, the joints of a kinematic tree with the lines between them, and the points a
//! model names, compiled into one program of positions and orientations.

use super::kinetic::{self, Pose};
use super::system::System;
use crate::cas::{Session, Sym};
use crate::equations::{Drawing, DrawnPoint, PointKind};
use crate::model::{CheckedModel, CheckedParticle, ORIGIN, Placement};

/// The drawing of a model with particles, bodies or drawn points; `None` for a model
/// with none of them.
pub(crate) fn drawing(
    s: &Session,
    model: &CheckedModel,
    system: &System,
) -> Result<Option<Drawing>, String> {
    if model.particles.is_empty() && model.bodies.is_empty() && model.drawing.is_empty() {
        return Ok(None);
    }
    let poses: Vec<Pose> = kinetic::poses(s, model)?;
    let mut placed = Placed::default();
    for CheckedParticle { name, position, .. } in &model.particles {
        let component = |k: usize| position.get(k).map_or_else(|| Ok(s.int(0)), |e| s.expr(e));
        let at = [component(0)?, component(1)?, component(2)?];
        placed.place(name.clone(), PointKind::Particle, at);
    }
    let first_body = placed.points.len();
    for (body, pose) in model.bodies.iter().zip(&poses) {
        placed.place(body.name.clone(), PointKind::Body, pose.com.clone());
    }
    let frames: Vec<usize> = (first_body..first_body + model.bodies.len()).collect();
    let mut links = Vec::new();
    for (i, (body, pose)) in model.bodies.iter().zip(&poses).enumerate() {
        if let Placement::Jointed { parent, .. } = &body.placement {
            let joint = placed.points.len();
            let name = format!("{}.joint", body.name);
            placed.place(name, PointKind::Joint, pose.origin.clone());
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
            let at = [s.expr(&at[0])?, s.expr(&at[1])?, s.expr(&at[2])?];
            placed.place(d.point.clone(), PointKind::Point, at);
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
    let Placed {
        points,
        mut positions,
    } = placed;
    for pose in &poses {
        positions.extend(pose.r.iter().flatten().cloned());
    }
    Ok(Some(Drawing {
        program: s.compile(&positions, &system.inputs())?,
        points,
        links,
        frames,
    }))
}

/// The points placed so far, with their positions (3 per point).
#[derive(Default)]
struct Placed {
    points: Vec<DrawnPoint>,
    positions: Vec<Sym>,
}

impl Placed {
    fn place(&mut self, name: String, kind: PointKind, at: [Sym; 3]) {
        self.points.push(DrawnPoint { name, kind });
        self.positions.extend(at);
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.points.iter().position(|p| p.name == name)
    }
}

//! The animation of a report: the drawing of a model at thinned instants of a
//! trajectory, placed by the system (its generated drawing program) and projected to the
//! page here, so that the page only plays the frames back.

use std::fmt::Write as _;

use nalgebra::{DefaultAllocator, Dim};

use crate::run::Trajectory;
use crate::size::DimAllocator;
use crate::system::{Drawing, LagrangianSystem, PointKind};

use super::{escape, json_string};

/// The most frames kept: a 20 s run at the default output interval stays well under a
/// megabyte.
pub(super) const MAX_FRAMES: usize = 600;
/// The largest spread of drawn points that is drawn.
const MAX_EXTENT: f64 = 1e150;
/// The drawing area, in CSS pixels.
const SIZE: (f64, f64) = (640.0, 420.0);
const MARGIN: f64 = 24.0;
/// Colours of a frame's x, y and z axes.
const AXIS_COLOURS: [&str; 3] = ["#d62728", "#2ca02c", "#1f77b4"];

/// The frames of an animation, ready for the page.
#[derive(Debug, Clone)]
pub(super) struct Animation {
    /// The drawing at the first frame, as static SVG (what a page without scripts shows).
    pub(super) svg: String,
    /// The frames as JSON: times, node positions, and the invariants at each frame.
    pub(super) json: String,
    /// How the scene is projected, in words.
    pub(super) view: &'static str,
    /// Number of frames kept.
    pub(super) frames: usize,
}

/// How 3-D positions map to the page.
#[derive(Clone, Copy)]
enum View {
    /// A plane of the fixed frame: the two axes shown.
    Plane(usize, usize),
    /// An oblique view, z up.
    Oblique,
}

impl View {
    fn project(self, p: [f64; 3]) -> [f64; 2] {
        match self {
            View::Plane(a, b) => [p[a], p[b]],
            View::Oblique => {
                // Seen from azimuth 35° and elevation 25°: right r = (−sin a, cos a, 0),
                // up u = (−sin e cos a, −sin e sin a, cos e).
                let (a, e) = (35f64.to_radians(), 25f64.to_radians());
                let right = -p[0] * a.sin() + p[1] * a.cos();
                let up = -e.sin() * (p[0] * a.cos() + p[1] * a.sin()) + e.cos() * p[2];
                [right, up]
            }
        }
    }

    fn describe(self) -> &'static str {
        match self {
            View::Plane(0, 1) => "the x–y plane (y up)",
            View::Plane(0, 2) => "the x–z plane (z up)",
            View::Plane(..) => "the y–z plane (z up)",
            View::Oblique => {
                "an oblique view of 3-D space (z up; the fixed axes at the origin in red, green, blue)"
            }
        }
    }
}

/// The indices of the recorded points a page shows: all of them, or evenly thinned to
/// [`MAX_FRAMES`] with the last kept.
pub(super) fn thinned(len: usize) -> Vec<usize> {
    if len <= MAX_FRAMES {
        return (0..len).collect();
    }
    let stride = len.div_ceil(MAX_FRAMES - 1);
    let mut kept: Vec<usize> = (0..len).step_by(stride).collect();
    if kept.last() != Some(&(len - 1)) {
        kept.push(len - 1);
    }
    kept
}

/// The animation of `trajectory`, or why there is none.
pub(super) fn build<N: Dim, S: LagrangianSystem<N>>(
    trajectory: &Trajectory<N>,
    system: &S,
) -> Result<Animation, String>
where
    DefaultAllocator: DimAllocator<N>,
{
    let info = system.info();
    let Some(drawing) = &info.drawing else {
        return Err(
            "the system declares nothing to draw: it has no particle, body or drawn point, or it is a reduced system, which is not drawn yet"
                .into(),
        );
    };
    let kept = thinned(trajectory.len());
    let scenes = placed(trajectory, system, drawing, &kept)?;
    let (view, size) = view_of(&scenes)?;
    // Shorter axes where many frames share the drawing.
    let axis_length = if size > 0.0 {
        0.15 * size / (drawing.frames.len().max(1) as f64).sqrt()
    } else {
        1.0
    };
    let nodes = projected(&scenes, drawing, view, axis_length);
    // The fixed axes are drawn in an oblique view; the origin is fitted too where a line or
    // the fixed axes start there.
    let fixed_axes = matches!(view, View::Oblique);
    let origin_shown = fixed_axes || drawing.links.iter().any(|l| l.1.is_none());
    let (pages, origin) = fitted(&nodes, origin_shown);
    let lines = lines(drawing, fixed_axes);
    let svg = first_svg(
        drawing,
        &lines,
        &pages[0],
        origin,
        trajectory.times()[kept[0]],
        view,
    );
    let json = frames_json(trajectory, &kept, &pages, origin);
    Ok(Animation {
        svg,
        json,
        view: view.describe(),
        frames: kept.len(),
    })
}

/// The drawing placed by the system at one kept instant.
struct Scene {
    /// Each drawn point's position.
    points: Vec<[f64; 3]>,
    /// Each drawn frame's rotation matrix, row by row.
    orientations: Vec<[[f64; 3]; 3]>,
}

/// The drawing placed by the system at each kept instant; an error if it places the
/// wrong number of values or a value that is not finite.
fn placed<N: Dim, S: LagrangianSystem<N>>(
    trajectory: &Trajectory<N>,
    system: &S,
    drawing: &Drawing,
    kept: &[usize],
) -> Result<Vec<Scene>, String>
where
    DefaultAllocator: DimAllocator<N>,
{
    let (points, frames) = (drawing.points.len(), drawing.frames.len());
    let mut scenes = Vec::with_capacity(kept.len());
    for &k in kept {
        let values = system.drawing(trajectory.times()[k], &trajectory.q()[k]);
        if values.len() != 3 * points + 9 * frames {
            return Err(format!(
                "the system placed {} values for {points} points and {frames} frames",
                values.len()
            ));
        }
        if values.iter().any(|v| !v.is_finite()) {
            return Err(format!(
                "a drawn point is not finite at t = {}",
                trajectory.times()[k]
            ));
        }
        scenes.push(Scene {
            points: values[..3 * points]
                .chunks_exact(3)
                .map(|c| [c[0], c[1], c[2]])
                .collect(),
            orientations: values[3 * points..]
                .chunks_exact(9)
                .map(|r| [[r[0], r[1], r[2]], [r[3], r[4], r[5]], [r[6], r[7], r[8]]])
                .collect(),
        });
    }
    Ok(scenes)
}

/// The view that shows the scenes (the plane they move in, or an oblique view) and the
/// size of the space they span; an error if they spread too far to draw.
fn view_of(scenes: &[Scene]) -> Result<(View, f64), String> {
    // The points' extent along each axis (halved, which cannot overflow), wherever the
    // plane of a plane motion lies.
    let half_extent = |axis: usize| {
        let (lo, hi) = scenes
            .iter()
            .flat_map(|s| &s.points)
            .map(|p| p[axis])
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            });
        hi / 2.0 - lo / 2.0
    };
    let extents = [half_extent(0), half_extent(1), half_extent(2)];
    let size = 2.0 * extents.iter().copied().fold(0.0, f64::max);
    if size.is_nan() || size >= MAX_EXTENT {
        return Err(format!(
            "the drawn points spread over more than {MAX_EXTENT:e}, too far to draw"
        ));
    }
    let flat = |axis: usize| extents[axis] <= 1e-9 * size.max(f64::MIN_POSITIVE);
    let view = match (flat(0), flat(1), flat(2)) {
        (_, _, true) => View::Plane(0, 1),
        (_, true, false) => View::Plane(0, 2),
        (true, false, false) => View::Plane(1, 2),
        _ => View::Oblique,
    };
    Ok((view, size))
}

/// Each scene's nodes projected to the view: the points, the axis tips of each frame,
/// then (oblique) the fixed axes' tips; the origin is node −1.
fn projected(
    scenes: &[Scene],
    drawing: &Drawing,
    view: View,
    axis_length: f64,
) -> Vec<Vec<[f64; 2]>> {
    let fixed_axes = matches!(view, View::Oblique);
    scenes
        .iter()
        .map(|scene| {
            let tips = drawing
                .frames
                .iter()
                .zip(&scene.orientations)
                .flat_map(|(&p, r)| {
                    let c = scene.points[p];
                    (0..3).map(move |a| {
                        [
                            c[0] + axis_length * r[0][a],
                            c[1] + axis_length * r[1][a],
                            c[2] + axis_length * r[2][a],
                        ]
                    })
                });
            let fixed = (0..3).filter(|_| fixed_axes).map(|a| {
                let mut e = [0.0; 3];
                e[a] = 1.5 * axis_length;
                e
            });
            scene
                .points
                .iter()
                .copied()
                .chain(tips)
                .chain(fixed)
                .map(|p| view.project(p))
                .collect()
        })
        .collect()
}

/// Every frame's nodes fitted into the drawing area, y up, keeping the aspect ratio (the
/// origin fitted too where `origin_shown`), and the origin's place on the page.
fn fitted(nodes: &[Vec<[f64; 2]>], origin_shown: bool) -> (Vec<Vec<[f64; 2]>>, [f64; 2]) {
    let origin_node = [0.0, 0.0];
    let fitted = nodes
        .iter()
        .flatten()
        .chain(std::iter::once(&origin_node).filter(|_| origin_shown));
    let (lo, hi) = fitted.fold(
        ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]),
        |(lo, hi), p| {
            (
                [lo[0].min(p[0]), lo[1].min(p[1])],
                [hi[0].max(p[0]), hi[1].max(p[1])],
            )
        },
    );
    let (w, h) = SIZE;
    let span = [(hi[0] - lo[0]).max(1e-12), (hi[1] - lo[1]).max(1e-12)];
    let scale = ((w - 2.0 * MARGIN) / span[0]).min((h - 2.0 * MARGIN) / span[1]);
    let offset = [
        (w - scale * span[0]) / 2.0 - scale * lo[0],
        (h + scale * span[1]) / 2.0 + scale * lo[1],
    ];
    let page = |p: [f64; 2]| [offset[0] + scale * p[0], offset[1] - scale * p[1]];
    let pages = nodes
        .iter()
        .map(|f| f.iter().map(|&p| page(p)).collect())
        .collect();
    (pages, page([0.0, 0.0]))
}

/// A line drawn between two nodes (−1 the origin), with its colour and width.
type Line = (i64, i64, &'static str, f64);

/// The lines: links, then each frame's axes, then (with `fixed_axes`) the fixed axes.
fn lines(drawing: &Drawing, fixed_axes: bool) -> Vec<Line> {
    let (points, frames) = (drawing.points.len(), drawing.frames.len());
    let mut lines: Vec<Line> = drawing
        .links
        .iter()
        .map(|&(a, b)| (a as i64, b.map_or(-1, |b| b as i64), "#444", 2.5))
        .collect();
    for f in 0..frames {
        for (a, colour) in AXIS_COLOURS.iter().enumerate() {
            let tip = (points + 3 * f + a) as i64;
            lines.push((drawing.frames[f] as i64, tip, colour, 2.0));
        }
    }
    if fixed_axes {
        for (a, colour) in AXIS_COLOURS.iter().enumerate() {
            lines.push((-1, (points + 3 * frames + a) as i64, colour, 1.0));
        }
    }
    lines
}

/// The drawing at the first frame (`first`, its nodes on the page, at time `t`) as static
/// SVG.
fn first_svg(
    drawing: &Drawing,
    lines: &[Line],
    first: &[[f64; 2]],
    origin: [f64; 2],
    t: f64,
    view: View,
) -> String {
    let (w, h) = SIZE;
    let at = |node: i64| -> [f64; 2] { usize::try_from(node).map_or(origin, |n| first[n]) };
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg id=\"scene\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-labelledby=\"scene-title\" xmlns=\"http://www.w3.org/2000/svg\">\
         <title id=\"scene-title\">The mechanism at t = {}, seen in {}</title>\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#fbfbf8\"/>\
         <circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"none\" stroke=\"#888\"/>",
        t,
        view.describe(),
        origin[0],
        origin[1],
    );
    for &(a, b, colour, width) in lines {
        let (p, q) = (at(a), at(b));
        let _ = write!(
            svg,
            "<line data-a=\"{a}\" data-b=\"{b}\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{colour}\" stroke-width=\"{width}\" stroke-linecap=\"round\"/>",
            p[0], p[1], q[0], q[1]
        );
    }
    for (i, point) in drawing.points.iter().enumerate() {
        let (radius, fill) = match point.kind {
            PointKind::Particle => (7.0, "#1f77b4"),
            PointKind::Body => (6.0, "#9467bd"),
            PointKind::Joint => (3.5, "#444"),
            PointKind::Point => (5.0, "#ff7f0e"),
        };
        let p = first[i];
        let _ = write!(
            svg,
            "<circle data-node=\"{i}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"{radius}\" fill=\"{fill}\"><title>{}</title></circle>",
            p[0],
            p[1],
            escape(&point.name)
        );
    }
    svg.push_str("</svg>");
    svg
}

/// The frames as JSON for the page's player: the kept times, the origin, each frame's
/// nodes on the page, and the invariants' readouts at the kept instants.
fn frames_json<N: Dim>(
    trajectory: &Trajectory<N>,
    kept: &[usize],
    pages: &[Vec<[f64; 2]>],
    origin: [f64; 2],
) -> String
where
    DefaultAllocator: DimAllocator<N>,
{
    let mut json = String::from("{\"t\":[");
    let times: Vec<String> = kept
        .iter()
        .map(|&k| format!("{:e}", trajectory.times()[k]))
        .collect();
    json.push_str(&times.join(","));
    let _ = write!(
        json,
        "],\"origin\":[{:.1},{:.1}],\"frames\":[",
        origin[0], origin[1]
    );
    let frames_json: Vec<String> = pages
        .iter()
        .map(|f| {
            let numbers: Vec<String> = f
                .iter()
                .flat_map(|p| [format!("{:.1}", p[0]), format!("{:.1}", p[1])])
                .collect();
            format!("[{}]", numbers.join(","))
        })
        .collect();
    json.push_str(&frames_json.join(","));
    json.push_str("],\"readouts\":[");
    let readouts: Vec<String> = trajectory
        .invariants()
        .iter()
        .map(|inv| {
            let values: Vec<String> = kept
                .iter()
                .map(|&k| {
                    inv.values.get(k).map_or("null".into(), |v| {
                        if v.is_finite() {
                            format!("{v:.10e}")
                        } else {
                            "null".into()
                        }
                    })
                })
                .collect();
            format!(
                "{{\"name\":{},\"values\":[{}]}}",
                json_string(&inv.name),
                values.join(",")
            )
        })
        .collect();
    json.push_str(&readouts.join(","));
    json.push_str("]}");
    json
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinning_keeps_the_ends_and_the_bound() {
        assert_eq!(thinned(3), vec![0, 1, 2]);
        for len in [MAX_FRAMES + 1, 2001, 100_000] {
            let kept = thinned(len);
            assert!(kept.len() <= MAX_FRAMES, "{len}: {}", kept.len());
            assert_eq!((kept[0], *kept.last().unwrap()), (0, len - 1));
        }
    }
}

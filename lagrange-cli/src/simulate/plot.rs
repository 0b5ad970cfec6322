//! The SVG plot of a trajectory: the coordinates against `t` above, the relative drift of
//! each invariant on a log axis below (the lower panel is left out when the trajectory
//! records no invariant). Text uses plotters' built-in font estimate: the SVG names a
//! sans-serif family and the viewer lays out the glyphs.

use std::error::Error;
use std::path::Path;

use lagrange_core::{Invariant, Trajectory};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::Failure;

/// Size of the image in pixels.
const SIZE: (u32, u32) = (1000, 800);

/// Plots `trajectory` to the SVG file at `path` under `title`.
pub(super) fn write<const N: usize>(
    trajectory: &Trajectory<N>,
    path: &Path,
    title: &str,
) -> Result<(), Failure> {
    draw(trajectory, path, title)
        .map_err(|e| Failure(format!("cannot plot to `{}`: {e}", path.display())))
}

fn draw<const N: usize>(
    trajectory: &Trajectory<N>,
    path: &Path,
    title: &str,
) -> Result<(), Box<dyn Error>> {
    let root = SVGBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(title, ("sans-serif", 20))?;
    if trajectory.invariants().is_empty() {
        coordinates(trajectory, &root)?;
    } else {
        let (top, bottom) = root.split_vertically(SIZE.1 / 2);
        coordinates(trajectory, &top)?;
        drift(trajectory, &bottom)?;
    }
    root.present()?;
    Ok(())
}

/// The time axis of the trajectory.
fn time_range<const N: usize>(trajectory: &Trajectory<N>) -> std::ops::Range<f64> {
    let times = trajectory.times();
    let (first, last) = (times[0], times[times.len() - 1]);
    first..last.max(first + f64::EPSILON)
}

/// One series of a panel: a colour per index, and a legend entry.
fn series_style(i: usize) -> ShapeStyle {
    Palette99::pick(i).stroke_width(2)
}

/// The upper panel: every coordinate against `t`.
fn coordinates<const N: usize, DB: DrawingBackend>(
    trajectory: &Trajectory<N>,
    area: &DrawingArea<DB, Shift>,
) -> Result<(), Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    let values = trajectory.q().iter().flat_map(|q| q.iter().copied());
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let pad = if hi > lo { 0.05 * (hi - lo) } else { 1.0 };
    let mut chart = ChartBuilder::on(area)
        .caption("coordinates", ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(60)
        .build_cartesian_2d(time_range(trajectory), (lo - pad)..(hi + pad))?;
    chart.configure_mesh().x_desc("t").y_desc("q").draw()?;
    for (i, name) in trajectory.coordinates().iter().enumerate() {
        let points = trajectory
            .times()
            .iter()
            .zip(trajectory.q())
            .map(|(&t, q)| (t, q[i]));
        chart
            .draw_series(LineSeries::new(points, series_style(i)))?
            .label(name.as_str())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], series_style(i)));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

/// `|I(t) − I(t0)| / |I(t0)|` at every point, or the absolute drift (and `true`) when
/// `I(t0)` is (nearly) zero ([`Invariant::is_relative`]).
fn relative_drift(invariant: &Invariant) -> (Vec<f64>, bool) {
    let initial = invariant.initial().unwrap_or(0.0);
    let absolute = !invariant.is_relative();
    let scale = if absolute { 1.0 } else { initial.abs() };
    let drift = invariant
        .values
        .iter()
        .map(|v| (v - initial).abs() / scale)
        .collect();
    (drift, absolute)
}

/// The lower panel: each invariant's drift on a log axis; zero drift sits on the axis'
/// floor.
fn drift<const N: usize, DB: DrawingBackend>(
    trajectory: &Trajectory<N>,
    area: &DrawingArea<DB, Shift>,
) -> Result<(), Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    let series: Vec<_> = trajectory.invariants().iter().map(relative_drift).collect();
    let positive = series
        .iter()
        .flat_map(|(d, _)| d.iter().copied())
        .filter(|d| d.is_finite() && *d > 0.0);
    let (lo, hi) = positive.fold((f64::INFINITY, 0.0_f64), |(lo, hi), d| {
        (lo.min(d), hi.max(d))
    });
    let (floor, top) = if hi > 0.0 {
        (lo / 2.0, hi * 2.0)
    } else {
        (1e-17, 1e-15)
    };
    let mut chart = ChartBuilder::on(area)
        .caption("drift of the invariants", ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(60)
        .build_cartesian_2d(time_range(trajectory), (floor..top).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("t")
        .y_desc("drift")
        .y_label_formatter(&|v| format!("{v:.0e}"))
        .draw()?;
    for (i, (invariant, (drift, absolute))) in
        trajectory.invariants().iter().zip(&series).enumerate()
    {
        let points = trajectory
            .times()
            .iter()
            .zip(drift)
            .filter(|(_, d)| d.is_finite())
            .map(|(&t, &d)| (t, d.max(floor)));
        let kind = if *absolute { "absolute" } else { "relative" };
        let label = format!("{} ({kind})", invariant.name);
        chart
            .draw_series(LineSeries::new(points, series_style(i)))?
            .label(label)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], series_style(i)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

//! The report's figures: a plot with its title and its text alternative, each integral's
//! drift as a series, and a whole run plotted as one SVG image.

use std::fmt::Write as _;

use nalgebra::{DefaultAllocator, Dim};

use super::Series;
use super::markup::escape;
use super::plot::{self, Curve, Scale};
use crate::run::{Invariant, RELATIVE_FLOOR, Trajectory};
use crate::size::DimAllocator;

/// A plot with its title and its text alternative.
pub(super) struct Figure {
    pub(super) svg: String,
    pub(super) title: String,
    pub(super) about: String,
}

impl Figure {
    /// The plot of `series` against `times`; its text alternative gives each series'
    /// range and final value.
    pub(super) fn new(
        id: &str,
        title: &str,
        times: &[f64],
        series: &[Series],
        scale: Scale,
    ) -> Figure {
        let t_end = times.last().copied().unwrap_or(0.0);
        let ranges: Vec<String> = series
            .iter()
            .map(|s| {
                let (lo, hi) = s
                    .values
                    .iter()
                    .filter(|v| v.is_finite())
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
                        (lo.min(v), hi.max(v))
                    });
                let last = s.values.last().copied().unwrap_or(f64::NAN);
                if lo.is_finite() {
                    format!(
                        "{} ranges from {lo:.4e} to {hi:.4e} and ends at {last:.4e}",
                        s.name
                    )
                } else {
                    format!("{} has no finite value", s.name)
                }
            })
            .collect();
        let about = format!(
            "{} recorded points from t = {} to {t_end}. {}.",
            times.len(),
            times.first().copied().unwrap_or(0.0),
            ranges.join("; ")
        );
        let curves: Vec<Curve<'_>> = series
            .iter()
            .map(|s| Curve {
                name: &s.name,
                values: &s.values,
            })
            .collect();
        Figure {
            svg: plot::svg(id, title, &about, times, &curves, scale),
            title: title.to_string(),
            about,
        }
    }
}

/// An invariant's drift at each point: `|I(t) − I(t₀)|` with `t₀` the start or the
/// latest reset, divided by `|I(t₀)|` where the integral's drift is relative
/// ([`Invariant::is_relative`]) and `I(t₀)` is not (nearly) zero.
pub(super) fn drift_series(inv: &Invariant) -> Series {
    let relative = inv.is_relative();
    let mut restarts = inv.restarts.iter().copied().peekable();
    let mut reference = inv.initial().unwrap_or(0.0);
    let values = inv
        .values
        .iter()
        .enumerate()
        .map(|(k, &v)| {
            while restarts.next_if(|&r| r <= k).is_some() {
                reference = v;
            }
            let scale = if relative && reference.abs() > RELATIVE_FLOOR {
                reference.abs()
            } else {
                1.0
            };
            (v - reference).abs() / scale
        })
        .collect();
    let kind = if inv.is_relative() {
        "relative"
    } else {
        "absolute"
    };
    Series {
        name: format!("{} ({kind})", inv.name),
        about: format!("the {kind} drift of {}", inv.name),
        values,
    }
}

impl<N: Dim> Trajectory<N>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// The plot of the run as one SVG image under `title`: every coordinate against `t`
    /// above, and below each integral's drift on a log scale (relative where its initial
    /// value is not 0, measured from the latest reset), left out when the run records no
    /// integral. The plots are the report's.
    pub fn plot_svg(&self, title: &str) -> String {
        let coordinates: Vec<Series> = self
            .coordinates()
            .iter()
            .enumerate()
            .map(|(i, name)| Series {
                name: name.clone(),
                about: String::new(),
                values: self.q().iter().map(|q| q[i]).collect(),
            })
            .collect();
        let mut panels = vec![Figure::new(
            "coordinates",
            "coordinates",
            self.times(),
            &coordinates,
            Scale::Linear,
        )];
        if !self.invariants().is_empty() {
            let drifts: Vec<Series> = self.invariants().iter().map(drift_series).collect();
            panels.push(Figure::new(
                "drift",
                "drift of the invariants",
                self.times(),
                &drifts,
                Scale::Log,
            ));
        }
        let (width, height) = plot::SIZE;
        let total = 40.0 + panels.len() as f64 * (height + 24.0);
        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{total}\" viewBox=\"0 0 {width} {total}\" font-family=\"sans-serif\" font-size=\"12\">\
             <rect width=\"{width}\" height=\"{total}\" fill=\"#fff\"/>\
             <text x=\"{}\" y=\"26\" text-anchor=\"middle\" font-size=\"17\">{}</text>",
            width / 2.0,
            escape(title)
        );
        for (k, panel) in panels.iter().enumerate() {
            let top = 40.0 + k as f64 * (height + 24.0);
            let _ = write!(
                svg,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"14\">{}</text>\
                 <g transform=\"translate(0,{})\">{}</g>",
                width / 2.0,
                top + 14.0,
                escape(&panel.title),
                top + 20.0,
                panel.svg
            );
        }
        svg.push_str("</svg>\n");
        svg
    }
}

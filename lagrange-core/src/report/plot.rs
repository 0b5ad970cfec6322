//! Line plots as SVG: axes with round ticks, one polyline per series, a legend, and a
//! `<title>` and `<desc>` that say in words what the plot shows.

use std::fmt::Write as _;

use super::escape;

/// Width and height of a plot, in CSS pixels.
pub(super) const SIZE: (f64, f64) = (720.0, 300.0);
/// Space for the tick labels on the left and below, and the margin elsewhere.
const LEFT: f64 = 70.0;
const BOTTOM: f64 = 40.0;
const MARGIN: f64 = 14.0;
/// Colours of the series, in order (then again).
pub(super) const COLOURS: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
];

/// The vertical scale of a plot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Scale {
    Linear,
    /// Logarithmic; values at or below zero are drawn at the bottom.
    Log,
}

/// One curve of a plot.
pub(super) struct Curve<'a> {
    pub(super) name: &'a str,
    pub(super) values: &'a [f64],
}

/// The plot of `curves` against `times`, with `title` and the text alternative `about`.
pub(super) fn svg(
    id: &str,
    title: &str,
    about: &str,
    times: &[f64],
    curves: &[Curve<'_>],
    scale: Scale,
) -> String {
    let (w, h) = SIZE;
    let (x0, x1) = (LEFT, w - MARGIN);
    let (y0, y1) = (h - BOTTOM, MARGIN);
    let shown = |v: f64| match scale {
        Scale::Linear => v.is_finite().then_some(v),
        Scale::Log => (v.is_finite() && v > 0.0).then(|| v.log10()),
    };
    let (mut t_lo, mut t_hi) = range(times.iter().copied());
    if !(t_lo.is_finite() && t_hi.is_finite()) {
        (t_lo, t_hi) = (0.0, 1.0);
    }
    let (mut v_lo, mut v_hi) = range(
        curves
            .iter()
            .flat_map(|c| c.values.iter().filter_map(|&v| shown(v))),
    );
    match scale {
        // Nothing positive (an integral kept exactly): the floor of `f64` round-off.
        Scale::Log if !v_lo.is_finite() => (v_lo, v_hi) = (-17.0, -15.0),
        Scale::Log => (v_lo, v_hi) = (v_lo.floor(), v_hi.ceil().max(v_lo.floor() + 1.0)),
        Scale::Linear if !(v_lo.is_finite() && v_hi.is_finite()) => (v_lo, v_hi) = (0.0, 1.0),
        Scale::Linear if half_span(v_lo, v_hi) <= 1e-12 * v_hi.abs().max(v_lo.abs()) / 2.0 => {
            let pad = if v_hi == 0.0 { 1.0 } else { 0.1 * v_hi.abs() };
            (v_lo, v_hi) = (v_lo - pad, v_hi + pad);
        }
        Scale::Linear => {}
    }
    if half_span(t_lo, t_hi) <= 0.0 {
        t_hi = t_lo + 1.0f64.max(t_lo.abs());
    }
    // Halved, so that a span of the whole `f64` range does not overflow.
    let px = |t: f64| x0 + (t / 2.0 - t_lo / 2.0) / half_span(t_lo, t_hi) * (x1 - x0);
    let py = |v: f64| y0 + (v / 2.0 - v_lo / 2.0) / half_span(v_lo, v_hi) * (y1 - y0);

    let mut out = String::new();
    let _ = write!(
        out,
        "<svg class=\"plot\" id=\"{id}\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-labelledby=\"{id}-title {id}-desc\" xmlns=\"http://www.w3.org/2000/svg\">\
         <title id=\"{id}-title\">{}</title><desc id=\"{id}-desc\">{}</desc>\
         <rect x=\"{x0}\" y=\"{y1}\" width=\"{}\" height=\"{}\" fill=\"#fff\" stroke=\"#888\"/>",
        escape(title),
        escape(about),
        x1 - x0,
        y0 - y1,
    );
    let time_ticks = ticks(t_lo, t_hi);
    let time_step = tick_step(&time_ticks);
    for &t in &time_ticks {
        let x = px(t);
        let _ = write!(
            out,
            "<line x1=\"{x:.1}\" y1=\"{y0}\" x2=\"{x:.1}\" y2=\"{y1}\" stroke=\"#eee\"/>\
             <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            y0 + 16.0,
            label(t, time_step)
        );
    }
    let _ = write!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">t</text>",
        (x0 + x1) / 2.0,
        h - 6.0
    );
    let value_ticks = match scale {
        Scale::Linear => ticks(v_lo, v_hi),
        Scale::Log => {
            let step = ((v_hi - v_lo) / 6.0).ceil().max(1.0);
            (0..)
                .map(|k| v_lo + step * f64::from(k))
                .take_while(|&v| v <= v_hi + 1e-9)
                .collect()
        }
    };
    let value_step = tick_step(&value_ticks);
    for &v in &value_ticks {
        let y = py(v);
        let text = match scale {
            Scale::Linear => label(v, value_step),
            Scale::Log => format!("1e{v:.0}"),
        };
        let _ = write!(
            out,
            "<line x1=\"{x0}\" y1=\"{y:.1}\" x2=\"{x1}\" y2=\"{y:.1}\" stroke=\"#eee\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{text}</text>",
            x0 - 6.0,
            y + 4.0
        );
    }
    for (k, curve) in curves.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let mut points = String::new();
        for (t, v) in envelope(times, curve.values, (x1 - x0) as usize) {
            let v = match (scale, shown(v)) {
                (_, Some(v)) => v.clamp(v_lo, v_hi),
                (Scale::Log, None) if v.is_finite() => v_lo,
                _ => continue,
            };
            let _ = write!(points, "{:.1},{:.1} ", px(t), py(v));
        }
        let _ = write!(
            out,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.5\" points=\"{}\"/>",
            points.trim_end()
        );
    }
    legend(&mut out, curves, x1, y1);
    out.push_str("</svg>");
    out
}

/// Curves named in the legend; the rest are counted.
const LEGEND_ENTRIES: usize = 12;
/// The width of a character of the legend, estimated (the viewer's font decides).
const CHAR_WIDTH: f64 = 6.8;

/// The legend in the top right corner of the plot area (right edge `x1`, top `y1`), on a
/// white box sized for its longest name, over the curves.
fn legend(out: &mut String, curves: &[Curve<'_>], x1: f64, y1: f64) {
    let shown = curves.len().min(LEGEND_ENTRIES);
    let more = curves.len() - shown;
    let longest = curves[..shown]
        .iter()
        .map(|c| c.name.chars().count())
        .chain((more > 0).then_some(16))
        .max()
        .unwrap_or(0);
    let width = 36.0 + CHAR_WIDTH * longest as f64;
    let rows = shown + usize::from(more > 0);
    let (left, top) = (x1 - width - 6.0, y1 + 6.0);
    let _ = write!(
        out,
        "<rect x=\"{left:.1}\" y=\"{top:.1}\" width=\"{width:.1}\" height=\"{:.1}\" fill=\"#fff\" fill-opacity=\"0.85\" stroke=\"#ccc\"/>",
        16.0 * rows as f64 + 6.0
    );
    for (k, curve) in curves[..shown].iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let y = top + 16.0 * (k + 1) as f64;
        let _ = write!(
            out,
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{colour}\" stroke-width=\"2\"/>\
             <text x=\"{:.1}\" y=\"{y:.1}\">{}</text>",
            left + 6.0,
            y - 4.0,
            left + 26.0,
            y - 4.0,
            left + 32.0,
            escape(curve.name)
        );
    }
    if more > 0 {
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\">… and {more} more</text>",
            left + 6.0,
            top + 16.0 * rows as f64
        );
    }
}

/// Half the span from `lo` to `hi`, which does not overflow.
fn half_span(lo: f64, hi: f64) -> f64 {
    hi / 2.0 - lo / 2.0
}

/// The smallest and largest finite value.
fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        })
}

/// Round tick values between `lo` and `hi`: steps of 1, 2 or 5 times a power of ten,
/// about six of them.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let raw = half_span(lo, hi) / 3.0;
    if !(raw.is_finite() && raw > 0.0) {
        return vec![lo];
    }
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * power);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// The step between ticks (0 for fewer than two).
fn tick_step(ticks: &[f64]) -> f64 {
    match ticks {
        [a, b, ..] => b - a,
        _ => 0.0,
    }
}

/// A tick label with as many digits as the step between ticks needs to tell them apart,
/// and no float noise.
fn label(v: f64, step: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let decimals = if step > 0.0 {
        (-step.log10().floor()).max(0.0) as usize
    } else {
        6
    };
    if decimals <= 6 && v.abs() < 1e7 {
        let fixed = format!("{v:.decimals$}");
        return if fixed == "-0" { "0".into() } else { fixed };
    }
    // Scientific, with the significant digits the step needs.
    let digits = if step > 0.0 {
        ((v.abs() / step).log10().ceil().max(0.0) as usize).min(16)
    } else {
        3
    };
    format!("{v:.digits$e}")
}

/// At most two points per pixel column: the smallest and largest value of the samples
/// that fall in it, in the order they occur, so that thinning keeps every peak.
fn envelope(times: &[f64], values: &[f64], columns: usize) -> Vec<(f64, f64)> {
    let n = times.len().min(values.len());
    if n <= 2 * columns.max(1) {
        return times
            .iter()
            .copied()
            .zip(values.iter().copied())
            .take(n)
            .collect();
    }
    let per = n.div_ceil(columns.max(1));
    let mut out = Vec::with_capacity(2 * columns);
    for start in (0..n).step_by(per) {
        let end = (start + per).min(n);
        let (mut lo, mut hi) = (start, start);
        for k in start..end {
            if values[k] < values[lo] {
                lo = k;
            }
            if values[k] > values[hi] {
                hi = k;
            }
        }
        let (a, b) = if lo <= hi { (lo, hi) } else { (hi, lo) };
        out.push((times[a], values[a]));
        if b != a {
            out.push((times[b], values[b]));
        }
    }
    // The curve reaches the last sample.
    if out.last().map(|p| p.0) != Some(times[n - 1]) {
        out.push((times[n - 1], values[n - 1]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_inside() {
        assert_eq!(ticks(0.0, 10.0), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        let t = ticks(-0.37, 0.41);
        assert!(t.iter().all(|&v| (-0.37..=0.41).contains(&v)));
        assert!(t.len() >= 4 && t.len() <= 9, "{t:?}");
        assert_eq!(ticks(1.0, 1.0), vec![1.0]);
    }

    #[test]
    fn labels_tell_close_ticks_apart() {
        let small = ticks(-3e-7, 3e-7);
        let labels: Vec<String> = small.iter().map(|&v| label(v, tick_step(&small))).collect();
        let distinct: std::collections::HashSet<&String> = labels.iter().collect();
        assert_eq!(distinct.len(), labels.len(), "{labels:?}");
        let offset = ticks(100.0 - 1e-7, 100.0 + 1e-7);
        let labels: Vec<String> = offset
            .iter()
            .map(|&v| label(v, tick_step(&offset)))
            .collect();
        let distinct: std::collections::HashSet<&String> = labels.iter().collect();
        assert_eq!(distinct.len(), labels.len(), "{labels:?}");
        assert_eq!(label(2.5, 0.5), "2.5");
        assert_eq!(label(-0.0, 1.0), "0");
    }

    #[test]
    fn extreme_values_make_no_nan() {
        let times = [0.0, 1e300, 2e300];
        for values in [[-1e308, 0.0, 1e308], [0.0, 0.0, 0.0], [f64::NAN; 3]] {
            for scale in [Scale::Linear, Scale::Log] {
                let svg = svg(
                    "p",
                    "t",
                    "a",
                    &times,
                    &[Curve {
                        name: "x",
                        values: &values,
                    }],
                    scale,
                );
                assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
            }
        }
        let empty = svg(
            "p",
            "t",
            "a",
            &[],
            &[Curve {
                name: "x",
                values: &[],
            }],
            Scale::Linear,
        );
        assert!(!empty.contains("NaN") && !empty.contains("inf"), "{empty}");
    }

    #[test]
    fn the_envelope_keeps_every_peak() {
        let times: Vec<f64> = (0..100_000).map(|k| k as f64 * 1e-3).collect();
        let values: Vec<f64> = times.iter().map(|t| (40.0 * t).sin()).collect();
        let thin = envelope(&times, &values, 500);
        assert!(thin.len() <= 1001);
        let max = thin.iter().map(|p| p.1).fold(f64::MIN, f64::max);
        let min = thin.iter().map(|p| p.1).fold(f64::MAX, f64::min);
        let true_max = values.iter().copied().fold(f64::MIN, f64::max);
        let true_min = values.iter().copied().fold(f64::MAX, f64::min);
        assert_eq!((max, min), (true_max, true_min));
        assert_eq!(thin.last().copied(), Some((times[99_999], values[99_999])));
    }

    #[test]
    fn text_is_escaped() {
        let svg = svg(
            "p",
            "<b>",
            "a & b",
            &[0.0, 1.0],
            &[Curve {
                name: "</svg><script>",
                values: &[1.0, 2.0],
            }],
            Scale::Linear,
        );
        assert!(!svg.contains("<script>") && !svg.contains("<b>"));
        assert!(svg.contains("&lt;/svg&gt;&lt;script&gt;") && svg.contains("a &amp; b"));
    }
}

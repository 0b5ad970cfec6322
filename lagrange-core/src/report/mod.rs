//! A self-contained HTML report of a run: the model and its derived equations set as
//! mathematics (MathML, which browsers render natively), the conserved quantities and
//! their drift, SVG plots, and an animation of the mechanism. One file, no scripts,
//! styles or fonts from elsewhere (its content-security policy forbids them); everything
//! but the animation works without JavaScript.

mod animation;
mod assets;
mod figures;
mod markup;
mod plot;

use std::fmt::Write as _;
use std::path::Path;

use nalgebra::{DefaultAllocator, Dim};

use crate::error::Error;
use crate::run::{Invariant, Trajectory};
use crate::size::{ConstraintAllocator, DimAllocator};
use crate::system::ConstrainedSystem;
use crate::system::{LagrangianSystem, ModelInfo};

use assets::{PLAYER, STYLE};
use figures::{Figure, drift_series};
pub(crate) use markup::escape;
use markup::{json_string, number};
use plot::Scale;

/// A quantity recorded along a run beside the coordinates, plotted in a report.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Its name in the legend.
    pub name: String,
    /// What it is, in words.
    pub about: String,
    /// Its value at each recorded point of the trajectory.
    pub values: Vec<f64>,
}

/// An HTML report of one run of a system; [`Trajectory::save_html`] writes the plain one.
#[derive(Debug, Clone)]
pub struct HtmlReport {
    info: ModelInfo,
    parameter_values: Vec<f64>,
    notes: Vec<String>,
    times: Vec<f64>,
    coordinates: Vec<Series>,
    invariants: Vec<Invariant>,
    series: Vec<Series>,
    animation: Result<animation::Animation, String>,
}

impl HtmlReport {
    /// The report of `trajectory`, a run of `system`: the animation's frames are placed
    /// by the system now; the action integrals are plotted where the run recorded them
    /// ([`Simulation::record_action`](crate::Simulation::record_action)).
    pub fn new<N: Dim, S: LagrangianSystem<N>>(trajectory: &Trajectory<N>, system: &S) -> Self
    where
        DefaultAllocator: DimAllocator<N>,
    {
        let coordinates = trajectory
            .coordinates()
            .iter()
            .enumerate()
            .map(|(i, name)| Series {
                name: name.clone(),
                about: format!("the coordinate {name}"),
                values: trajectory.q().iter().map(|q| q[i]).collect(),
            })
            .collect();
        let animation = if trajectory.is_empty() {
            Err("the run recorded no point".into())
        } else {
            animation::build(trajectory, system)
        };
        // The action integrals, when the run recorded them.
        let series = [
            (
                "A",
                "the action ∫ p·q̇ dt from the start",
                trajectory.action(),
            ),
            (
                "S",
                "the principal function ∫ L dt from the start",
                trajectory.principal_function(),
            ),
        ]
        .into_iter()
        .filter_map(|(name, about, values)| {
            Some(Series {
                name: name.to_string(),
                about: about.to_string(),
                values: values?.to_vec(),
            })
        })
        .collect();
        HtmlReport {
            info: system.info().clone(),
            parameter_values: system.parameter_values(),
            notes: Vec::new(),
            times: trajectory.times().to_vec(),
            coordinates,
            invariants: trajectory.invariants().to_vec(),
            series,
            animation,
        }
    }

    /// Adds a line to the report's summary (how the run was made, say).
    pub fn note(mut self, line: impl Into<String>) -> Self {
        self.notes.push(line.into());
        self
    }

    /// Adds a plotted quantity, one value per recorded point.
    pub fn series(mut self, series: Series) -> Result<Self, Error> {
        if series.values.len() != self.times.len() {
            return Err(Error::InvalidInput(format!(
                "the series `{}` has {} values for {} recorded points",
                series.name,
                series.values.len(),
                self.times.len()
            )));
        }
        self.series.push(series);
        Ok(self)
    }

    /// Adds, for each constraint of `system`, its multiplier `λᵢ` and the size of its
    /// reaction `|λᵢ ∇Gᵢ|` at every recorded point: the force the constraint exerts, in
    /// generalized-force units (the tension of a rod in Cartesian coordinates). Where the
    /// multipliers are undefined (`M` singular or the constraints dependent, as where a
    /// run stopped) they are NaN, left out of the plots, and a note says at how many
    /// points. Errors when `trajectory` is not the report's.
    pub fn constraint_forces<N: Dim, K: Dim, S: ConstrainedSystem<N, K>>(
        mut self,
        trajectory: &Trajectory<N>,
        system: &S,
    ) -> Result<Self, Error>
    where
        DefaultAllocator: ConstraintAllocator<N, K>,
    {
        let k = system.constraint_dimension().value();
        let mut multipliers = vec![Vec::with_capacity(trajectory.len()); k];
        let mut reactions = vec![Vec::with_capacity(trajectory.len()); k];
        let mut undefined = 0;
        for ((&t, q), qd) in trajectory
            .times()
            .iter()
            .zip(trajectory.q())
            .zip(trajectory.qd())
        {
            let motion = system.constrained_motion(t, q, qd);
            undefined += usize::from(motion.is_err());
            let j = system.constraint_jacobian(t, q);
            for i in 0..k {
                let lambda = motion.as_ref().map_or(f64::NAN, |m| m.multipliers[i]);
                multipliers[i].push(lambda);
                reactions[i].push((lambda * j.row(i).norm()).abs());
            }
        }
        if undefined > 0 {
            self.notes.push(format!(
                "The multipliers are undefined at {undefined} of the {} recorded points (M singular or the constraints dependent there).",
                trajectory.len()
            ));
        }
        for (i, (lambda, reaction)) in multipliers.into_iter().zip(reactions).enumerate() {
            let k = i + 1;
            let g = self
                .info
                .constraints
                .get(i)
                .map_or_else(String::new, |c| format!(" ({} = 0)", c.text));
            self = self.series(Series {
                name: format!("|λ{k} ∇G{k}|"),
                about: format!("the reaction of constraint {k}{g}: the force it exerts"),
                values: reaction,
            })?;
            self = self.series(Series {
                name: format!("λ{k}"),
                about: format!("the multiplier of constraint {k}{g}"),
                values: lambda,
            })?;
        }
        Ok(self)
    }

    /// The plotted quantities besides the coordinates and the invariants: the action
    /// integrals where the run recorded them, then those added by [`series`](Self::series)
    /// and [`constraint_forces`](Self::constraint_forces).
    pub fn added_series(&self) -> &[Series] {
        &self.series
    }

    /// Writes the page to the file at `path`.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), Error> {
        std::fs::write(path, self.html())?;
        Ok(())
    }

    /// The page.
    pub fn html(&self) -> String {
        let info = &self.info;
        let name = escape(&info.name);
        let mut page = String::new();
        let _ = write!(
            page,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>{name} — lagrange report</title><style>{STYLE}</style></head><body>\
             <header><h1>{name}</h1>"
        );
        for note in &self.notes {
            let _ = write!(page, "<p>{}</p>", escape(note));
        }
        page.push_str(
            "<nav><a href=\"#motion\">Motion</a> · <a href=\"#model\">Model</a> · \
             <a href=\"#equations\">Equations</a> · <a href=\"#conserved\">Conserved quantities</a> · \
             <a href=\"#plots\">Plots</a></nav></header><main>",
        );
        self.motion(&mut page);
        self.model(&mut page);
        self.equations(&mut page);
        self.conserved(&mut page);
        self.plots(&mut page);
        let _ = write!(
            page,
            "</main><footer>Written by lagrange-core {}.</footer>",
            env!("CARGO_PKG_VERSION")
        );
        if let Ok(animation::Animation { json, .. }) = &self.animation {
            let _ = write!(
                page,
                "<script type=\"application/json\" id=\"frames\">{}</script><script>{PLAYER}</script>",
                json.replace("</", "<\\/")
            );
        }
        page.push_str("</body></html>\n");
        page
    }

    fn motion(&self, page: &mut String) {
        page.push_str("<section id=\"motion\"><h2>Motion</h2>");
        match &self.animation {
            Ok(animation::Animation {
                svg, view, frames, ..
            }) => {
                let _ = write!(
                    page,
                    "<figure class=\"scene\">{svg}<figcaption>The mechanism seen in {view}; {frames} frames of the run. \
                     Particles are blue dots, bodies purple with their frames' x, y, z axes in red, green and blue, \
                     joints small and dark, drawn points orange; the ring is the origin.</figcaption></figure>\
                     <noscript><p>The animation plays with JavaScript; without it the drawing shows the first instant.</p></noscript>\
                     <div id=\"controls\" hidden><button id=\"play\" type=\"button\">Pause</button>\
                     <label>time <input id=\"slider\" type=\"range\" min=\"0\" max=\"{}\" value=\"0\"></label>\
                     <label>speed <select id=\"speed\"><option value=\"0.1\">0.1×</option><option value=\"0.25\">¼×</option><option value=\"0.5\">½×</option>\
                     <option value=\"1\" selected>1×</option><option value=\"2\">2×</option><option value=\"4\">4×</option>\
                     <option value=\"10\">10×</option><option value=\"100\">100×</option></select></label>\
                     <output id=\"clock\"></output></div><div id=\"readout\"></div>",
                    frames - 1
                );
            }
            Err(why) => {
                let _ = write!(page, "<p>No animation: {}.</p>", escape(why));
            }
        }
        page.push_str("</section>");
    }

    fn model(&self, page: &mut String) {
        let info = &self.info;
        page.push_str("<section id=\"model\"><h2>Model</h2><p>Coordinates: ");
        let names: Vec<String> = info
            .coordinates
            .iter()
            .map(|c| format!("<code>{}</code>", escape(c)))
            .collect();
        page.push_str(&names.join(", "));
        page.push_str(".</p>");
        if !info.parameters.is_empty() {
            page.push_str(
                "<table><caption>Parameters</caption><tr><th>name</th><th>value</th></tr>",
            );
            for (i, p) in info.parameters.iter().enumerate() {
                let value = self
                    .parameter_values
                    .get(i)
                    .map_or("—".into(), |&v| number(v));
                let input = if info.inputs.contains(&i) {
                    " (input)"
                } else {
                    ""
                };
                let _ = write!(
                    page,
                    "<tr><td><code>{}</code>{input}</td><td>{value}</td></tr>",
                    escape(p)
                );
            }
            page.push_str("</table>");
        }
        if !info.formulas.is_empty() {
            page.push_str("<h3>As written</h3>");
            for f in info.formulas.iter() {
                let _ = write!(
                    page,
                    "<div class=\"formula\"><div class=\"math\">{}</div><code class=\"source\">{} = {}</code></div>",
                    f.mathml,
                    escape(&f.name),
                    escape(&f.text)
                );
            }
        }
        page.push_str("</section>");
    }

    fn equations(&self, page: &mut String) {
        let info = &self.info;
        let _ = write!(
            page,
            "<section id=\"equations\"><h2>Equations of motion</h2><div class=\"math\">{}</div>\
             <details><summary>As text</summary><pre>{}</pre></details>\
             <details><summary>As LaTeX</summary><pre>{}</pre></details>",
            info.equations_mathml,
            escape(&info.equations_text),
            escape(&info.equations_latex)
        );
        if !info.constraints.is_empty() {
            page.push_str(
                "<p>The multipliers λ are the constraints' reactions; the constraints:</p><ul>",
            );
            for (k, c) in info.constraints.iter().enumerate() {
                let kind = match (c.on_velocities, c.scleronomic) {
                    (false, true) => "fixed",
                    (false, false) => "depends on t",
                    (true, true) => "on the velocities, does no work",
                    (true, false) => "on the velocities, may do work",
                };
                let _ = write!(
                    page,
                    "<li><code>G{} = {} = 0</code> ({kind})</li>",
                    k + 1,
                    escape(&c.text)
                );
            }
            page.push_str("</ul>");
        }
        page.push_str("</section>");
    }

    fn conserved(&self, page: &mut String) {
        page.push_str("<section id=\"conserved\"><h2>Conserved quantities</h2>");
        if self.invariants.is_empty() {
            page.push_str("<p>The model conserves no integral the run records.</p>");
        } else {
            page.push_str(
                "<table><tr><th>integral</th><th>initial</th><th>final</th><th>largest drift</th><th>relative</th></tr>",
            );
            for inv in &self.invariants {
                let last = inv.values.last().copied().unwrap_or(f64::NAN);
                let relative = if inv.is_relative() {
                    format!("{:.3e}", inv.relative_drift())
                } else {
                    "—".into()
                };
                let _ = write!(
                    page,
                    "<tr><td><code>{}</code></td><td>{:.12e}</td><td>{last:.12e}</td><td>{:.3e}</td><td>{relative}</td></tr>",
                    escape(&inv.name),
                    inv.initial().unwrap_or(f64::NAN),
                    inv.drift()
                );
            }
            page.push_str("</table>");
        }
        if !self.info.theorems.is_empty() {
            page.push_str("<h3>The general theorems</h3><ul>");
            for t in self.info.theorems.iter() {
                let verdict = match (t.integral, t.holds) {
                    (true, _) => "an integral",
                    (false, true) => "holds",
                    (false, false) => "not established",
                };
                let _ = write!(
                    page,
                    "<li><code>{}</code>: {verdict}; {}</li>",
                    t.theorem.function_name(),
                    escape(&t.why)
                );
            }
            page.push_str("</ul>");
        }
        page.push_str("</section>");
    }

    fn plots(&self, page: &mut String) {
        page.push_str("<section id=\"plots\"><h2>Plots</h2>");
        let mut figures = vec![Figure::new(
            "plot-coordinates",
            "The coordinates against t",
            &self.times,
            &self.coordinates,
            Scale::Linear,
        )];
        if !self.invariants.is_empty() {
            let drifts: Vec<Series> = self.invariants.iter().map(drift_series).collect();
            figures.push(Figure::new(
                "plot-drift",
                "The drift of each integral against t (relative where its initial value is not 0), on a log scale",
                &self.times,
                &drifts,
                Scale::Log,
            ));
        }
        for (k, s) in self.series.iter().enumerate() {
            figures.push(Figure::new(
                &format!("plot-series-{k}"),
                &format!("{} against t: {}", s.name, s.about),
                &self.times,
                std::slice::from_ref(s),
                Scale::Linear,
            ));
        }
        for f in figures {
            let _ = write!(
                page,
                "<figure>{}<figcaption>{}. <span class=\"about\">{}</span></figcaption></figure>",
                f.svg,
                escape(&f.title),
                escape(&f.about)
            );
        }
        page.push_str("</section>");
    }
}

impl<N: Dim> Trajectory<N>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// Writes the [`HtmlReport`] of this run of `system` to the file at `path`: the model
    /// and its equations, the conserved quantities, plots and an animation. For a
    /// constrained system, [`HtmlReport::constraint_forces`] adds the reactions.
    pub fn save_html<S: LagrangianSystem<N>>(
        &self,
        system: &S,
        path: impl AsRef<Path>,
    ) -> Result<(), Error> {
        HtmlReport::new(self, system).save(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::Simulation;
    use crate::system::Formula;
    use crate::test_systems::Pendulum;
    use nalgebra::{SVector, U1};

    /// A pendulum and one second of its swing.
    fn swing() -> (Pendulum, Trajectory<U1>) {
        let pendulum = Pendulum {
            m: 1.0,
            l: 1.0,
            g: 9.81,
        };
        let trajectory = Simulation::new(&pendulum)
            .run(0.0, SVector::from([0.5]), SVector::from([0.0]), 1.0)
            .unwrap();
        (pendulum, trajectory)
    }

    #[test]
    fn every_text_the_page_shows_is_escaped() {
        let (pendulum, trajectory) = swing();
        let hostile = "</title></style><script>alert(1)</script><img src=x>";
        let mut report = HtmlReport::new(&trajectory, &pendulum).note(hostile);
        report.info.name = hostile.into();
        report.info.equations_text = hostile.into();
        report.info.formulas = vec![Formula {
            name: hostile.into(),
            text: hostile.into(),
            mathml: "<math></math>".into(),
        }]
        .into();
        report.coordinates[0].name = hostile.into();
        let report = report
            .series(Series {
                name: hostile.into(),
                about: hostile.into(),
                values: vec![1.0; trajectory.len()],
            })
            .unwrap();
        let page = report.html();
        assert!(!page.contains("<script>alert"), "{page}");
        assert!(!page.contains("<img"));
        assert!(page.contains("&lt;/title&gt;&lt;/style&gt;&lt;script&gt;alert(1)"));
        // Nothing is fetched: the only address is SVG's namespace.
        assert!(
            !page
                .replace("http://www.w3.org/2000/svg", "")
                .contains("://")
        );
    }

    #[test]
    fn the_drift_starts_again_at_each_reset() {
        let inv = Invariant {
            name: "energy".into(),
            values: vec![10.0, 10.1, 2.0, 2.02, 1.99],
            restarts: vec![2],
        };
        let drift = drift_series(&inv);
        assert_eq!(drift.name, "energy (relative)");
        let expected = [0.0, 0.01, 0.0, 0.01, 0.005];
        for (d, e) in drift.values.iter().zip(expected) {
            assert!((d - e).abs() < 1e-12, "{:?}", drift.values);
        }
        // An integral that starts at 0 drifts in absolute terms.
        let zero = Invariant {
            name: "p_x".into(),
            values: vec![0.0, 1e-14, -2e-14],
            restarts: vec![],
        };
        let drift = drift_series(&zero);
        assert_eq!(drift.name, "p_x (absolute)");
        assert_eq!(drift.values, [0.0, 1e-14, 2e-14]);
    }

    #[test]
    fn a_series_of_the_wrong_length_is_an_error() {
        let (pendulum, trajectory) = swing();
        let wrong = HtmlReport::new(&trajectory, &pendulum).series(Series {
            name: "x".into(),
            about: "x".into(),
            values: vec![0.0],
        });
        assert!(wrong.is_err());
    }
}

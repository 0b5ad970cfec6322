//! A progress bar on stderr for long runs: shown only when stderr is a terminal, and only
//! once a run has taken [`DELAY`], so short runs print nothing.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use lagrange_core::Short;

/// How long a run goes before its bar appears.
const DELAY: Duration = Duration::from_secs(1);

/// Resolution of the bar: positions per run.
const TICKS: u64 = 1000;

/// The progress of one run from `t0` to `t_end`.
pub(super) struct Progress {
    /// When the run started; `None` when stderr is not a terminal (no bar ever).
    start: Option<Instant>,
    t0: f64,
    span: f64,
    bar: Option<ProgressBar>,
    /// The bar's position at the last update.
    position: u64,
}

impl Progress {
    /// Starts timing a run.
    pub(super) fn new(t0: f64, t_end: f64) -> Self {
        Progress {
            start: std::io::stderr().is_terminal().then(Instant::now),
            t0,
            span: t_end - t0,
            bar: None,
            position: 0,
        }
    }

    /// The run has reached `t`.
    pub(super) fn update(&mut self, t: f64) {
        let Some(start) = self.start else {
            return;
        };
        let fraction = ((t - self.t0) / self.span).clamp(0.0, 1.0);
        let position = (fraction * TICKS as f64) as u64;
        match &self.bar {
            Some(bar) if position != self.position => {
                bar.set_position(position);
                bar.set_message(format!("{t:.6e}"));
            }
            Some(_) => {}
            None if start.elapsed() >= DELAY => {
                let bar = new_bar(start.elapsed(), position, self.t0 + self.span);
                bar.set_message(format!("{t:.6e}"));
                self.bar = Some(bar);
            }
            None => {}
        }
        self.position = position;
    }

    /// Removes the bar, if it was shown.
    pub(super) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// A bar that has been running for `elapsed` and is at `position` of a run to `t_end`;
/// its message is the time reached.
fn new_bar(elapsed: Duration, position: u64, t_end: f64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(TICKS), ProgressDrawTarget::stderr())
        .with_elapsed(elapsed)
        .with_position(position);
    let template = format!(
        "{{elapsed:>4}} [{{wide_bar}}] {{percent:>3}}%  t = {{msg}} of {}",
        Short(t_end)
    );
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

//! Every shipped model file (`examples/models/*.toml`) through `lagrange generate`, Rust
//! crate and C, against `lagrange simulate` with the same RK4 step: the generated
//! trajectories must be the command's, bit for bit. Both integrate with the runtime's
//! operations repeated operation for operation (the solve, RK4, the projection onto
//! constraints), run the same programs (the derived ones, the `[inputs]` signals and the
//! `[[events]]`' expressions, all through the IR's one walk), and locate events with the
//! same algorithm on the same interpolant; the Rust crate writes numbers as the command
//! does, so its CSV is the command's byte for byte. The events that fire must be those
//! the command lists, at the times it prints.
//!
//! The command runs each model twice, its programs compiled on load (the default) and
//! interpreted (`LAGRANGE_JIT=0`): the two CSVs must be the same, byte for byte.
//!
//! The crates share one target folder (their package names differ), so each build
//! compiles one crate and nothing else. A model written here adds what no shipped one has
//! all at once: a holonomic constraint, a signal and events that record and stop.

mod external;

use external::gcc_available;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use lagrange_symbolic::store;

/// End of the compared runs: the bouncing ball's floor resets three times by then.
const T_END: &str = "2";
/// The RK4 step of every run.
const DT: &str = "0.01";

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("lagrange-cli sits in the workspace")
        .to_path_buf()
}

/// This test's scratch folder in `target/`.
fn scratch() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_generate_simulate")
}

/// Runs a command; panics with its stderr unless it succeeds. Returns its stdout.
fn checked(command: &mut Command) -> String {
    let output: Output = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"));
    assert!(
        output.status.success(),
        "{command:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// The built `lagrange` command, with the derivation cache of `cli_generate` (test binaries
/// run one after the other: the models are derived once for both).
fn lagrange() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_lagrange"));
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_generate/cache");
    command
        .env(store::ENV_CACHE_DIR, cache)
        .env_remove(store::ENV_CACHE);
    command
}

/// The CSV's rows as bit patterns, after its header (which must be `header`).
fn bits(what: &str, csv: &str, header: &str) -> Vec<Vec<u64>> {
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some(header), "{what}: header");
    lines
        .map(|line| {
            line.split(',')
                .map(|x| {
                    x.parse::<f64>()
                        .unwrap_or_else(|e| panic!("{what}: `{x}`: {e}"))
                        .to_bits()
                })
                .collect()
        })
        .collect()
}

/// The events `simulate` lists in its summary: `(name, t)` as printed (`{:.15e}`).
fn listed_events(summary: &str) -> Vec<(String, String)> {
    summary
        .lines()
        .filter_map(|line| {
            let (name, rest) = line.strip_prefix("  ")?.split_once(" at t = ")?;
            let (t, _) = rest.split_once(": ")?;
            Some((name.to_string(), t.to_string()))
        })
        .collect()
}

/// The events of a generated solver's events CSV: `(name, t)` with `t` printed as
/// `simulate` prints it, and the rows' numbers as bit patterns.
fn fired_events(csv: &str) -> (Vec<(String, String)>, Vec<Vec<u64>>) {
    let mut named = Vec::new();
    let mut numbers = Vec::new();
    for line in csv.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        let name = fields[1].trim_matches('"').to_string();
        let values: Vec<f64> = fields[2..]
            .iter()
            .map(|x| x.parse::<f64>().expect("a number"))
            .collect();
        named.push((name, format!("{:.15e}", values[0])));
        numbers.push(values.iter().map(|x| x.to_bits()).collect());
    }
    (named, numbers)
}

/// What one model's comparison took.
#[derive(Default)]
struct Timing {
    simulate: Duration,
    generate: Duration,
    cargo: Duration,
    gcc: Duration,
}

/// Where a comparison builds, and how long its steps took.
struct Bench {
    /// This test's scratch folder.
    scratch: PathBuf,
    /// The target folder every generated crate is built into.
    target: PathBuf,
    cargo: String,
    gcc: bool,
    timing: Timing,
}

impl Bench {
    fn new(name: &str) -> Bench {
        let scratch = scratch().join(name);
        std::fs::create_dir_all(&scratch).expect("scratch dir");
        // One target folder for both tests: cargo takes turns in it.
        let gcc = gcc_available();
        Bench {
            target: self::scratch().join("target"),
            scratch,
            cargo: std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()),
            gcc,
            timing: Timing::default(),
        }
    }

    /// Generates, builds and runs both targets of `model` and compares them with
    /// `simulate`; returns the number of events that fired.
    fn compare(&mut self, model: &Path) -> usize {
        let stem = model.file_stem().and_then(|s| s.to_str()).expect("a stem");
        let dir = self.scratch.join(stem);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("model dir");
        let text = std::fs::read_to_string(model).expect("model file");
        let table: toml::Table = text.parse().expect("TOML");
        let events = table.contains_key("events");

        let clock = Instant::now();
        let simulated = dir.join("simulate.csv");
        let summary = checked(
            lagrange()
                .arg("simulate")
                .arg(model)
                .args(["--integrator", "rk4", "--dt", DT, "--t-end", T_END, "--out"])
                .arg(&simulated),
        );
        self.timing.simulate += clock.elapsed();
        let expected = std::fs::read_to_string(&simulated).expect("simulate's CSV");
        let interpreted_csv = dir.join("interpreted.csv");
        checked(
            lagrange()
                .env("LAGRANGE_JIT", "0")
                .arg("simulate")
                .arg(model)
                .args(["--integrator", "rk4", "--dt", DT, "--t-end", T_END, "--out"])
                .arg(&interpreted_csv),
        );
        let interpreted = std::fs::read_to_string(&interpreted_csv).expect("simulate's CSV");
        assert!(
            interpreted == expected,
            "{stem}: simulate's CSV differs between compiled and interpreted programs"
        );
        let header = expected.lines().next().expect("a header").to_string();
        let listed = listed_events(&summary);
        assert_eq!(
            listed.is_empty(),
            !events,
            "{stem}: events listed by simulate:\n{summary}"
        );

        let mut solvers = Vec::new();
        for language in self.languages() {
            let out = dir.join(language);
            let binary = self.solver(model, &out, language);
            let events_csv = out.join("events.csv");
            let mut run = Command::new(&binary);
            run.args(["--dt", DT, "--t-end", T_END]);
            if events {
                run.arg("--events").arg(&events_csv);
            }
            let csv = checked(&mut run);
            let what = format!("{stem} ({language})");
            if language == "rust" {
                assert!(csv == expected, "{what}: the CSV differs from simulate's");
            }
            assert_eq!(
                bits(&what, &csv, &header),
                bits(&format!("{stem} (simulate)"), &expected, &header),
                "{what}: not bit for bit"
            );
            if events {
                let (fired, numbers) =
                    fired_events(&std::fs::read_to_string(&events_csv).expect("events CSV"));
                assert_eq!(fired, listed, "{what}: the events");
                solvers.push(numbers);
            }
        }
        if let [rust, c] = &solvers[..] {
            assert_eq!(rust, c, "{stem}: the events of the two targets");
        }
        eprintln!(
            "{stem}: Rust{} bit for bit with simulate ({} rows, {} events)",
            if self.gcc { " and C" } else { "" },
            expected.lines().count() - 1,
            listed.len()
        );
        listed.len()
    }

    /// The languages of the generated solvers: Rust, and C where gcc is.
    fn languages(&self) -> impl Iterator<Item = &'static str> + use<> {
        let gcc = self.gcc;
        ["rust", "c"]
            .into_iter()
            .filter(move |l| gcc || *l == "rust")
    }

    /// Generates the `language` solver of `model` into `out` and builds it; returns the
    /// program.
    fn solver(&mut self, model: &Path, out: &Path, language: &str) -> PathBuf {
        let clock = Instant::now();
        checked(
            lagrange()
                .arg("generate")
                .arg(model)
                .arg("--out")
                .arg(out)
                .args(["--target", language]),
        );
        self.timing.generate += clock.elapsed();
        self.build(language, out)
    }

    /// Builds the generated `language` solver in `out`; returns the program.
    fn build(&mut self, language: &str, out: &Path) -> PathBuf {
        let clock = Instant::now();
        if language == "rust" {
            checked(
                Command::new(&self.cargo)
                    .args(["build", "--offline", "--quiet", "--manifest-path"])
                    .arg(out.join("Cargo.toml"))
                    .env("CARGO_TARGET_DIR", &self.target)
                    // Built to be run once: no debug information, no incremental state.
                    .env("CARGO_PROFILE_DEV_DEBUG", "false")
                    .env("CARGO_INCREMENTAL", "0"),
            );
            self.timing.cargo += clock.elapsed();
            let manifest: toml::Table = std::fs::read_to_string(out.join("Cargo.toml"))
                .expect("the generated manifest")
                .parse()
                .expect("TOML");
            let package = manifest["package"]["name"].as_str().expect("a name");
            return self.target.join("debug").join(package);
        }
        let binary = out.join("solver");
        checked(
            Command::new("gcc")
                .args(["-O2", "-std=c99", "-Wall", "-Wextra", "-Werror", "-o"])
                .arg(&binary)
                .arg(out.join("main.c"))
                .arg(out.join("model.c"))
                .arg("-lm"),
        );
        self.timing.gcc += clock.elapsed();
        binary
    }

    /// Prints the times the steps took.
    fn report(&self) {
        let t = &self.timing;
        eprintln!(
            "times: simulate {:.1} s, generate {:.1} s, cargo build {:.1} s, gcc {:.1} s",
            t.simulate.as_secs_f64(),
            t.generate.as_secs_f64(),
            t.cargo.as_secs_f64(),
            t.gcc.as_secs_f64()
        );
    }
}

#[test]
fn every_shipped_model_matches_simulate() {
    let mut bench = Bench::new("shipped");
    let mut models: Vec<PathBuf> = std::fs::read_dir(root().join("examples/models"))
        .expect("examples/models")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .collect();
    models.sort();
    assert_eq!(models.len(), 19, "the shipped model files: {models:?}");
    let events: usize = models.iter().map(|model| bench.compare(model)).sum();
    assert!(events > 0, "no shipped model fires an event");
    bench.report();
}

/// A point on a circle (a holonomic constraint) driven by a signal that reads time and a
/// velocity, with an event recorded in either direction, a falling one, and one that
/// stops the run: the paths no shipped model takes all at once.
#[test]
fn a_constrained_driven_model_with_events_matches_simulate() {
    let mut bench = Bench::new("driven_circle");
    let model = bench.scratch.join("driven_circle.toml");
    std::fs::write(
        &model,
        "[model]\nname = \"DrivenCircle\"\ncoordinates = [\"x\", \"y\"]\n\
         parameters = [\"m\", \"l\", \"g\", \"k\", \"u\"]\ninputs = [\"u\"]\n\
         kinetic = \"1/2*m*(dot(x)^2 + dot(y)^2)\"\npotential = \"m*g*y\"\n\
         constraint = [\"x^2 + y^2 - l^2\"]\nforce = { x = \"u\" }\n\n\
         [values]\nm = 1.0\nl = 1.0\ng = 9.81\nk = 0.3\n\n\
         [inputs]\nu = \"-k*dot(x) + 1/10*sin(3*t)\"\n\n\
         [initial]\nq = { x = 0.8414709848078965, y = -0.5403023058681398 }\n\n\
         [[events]]\nname = \"bottom\"\nwhen = \"x\"\n\n\
         [[events]]\nname = \"left\"\nwhen = \"x + 1/2\"\ndirection = \"falling\"\n\n\
         [[events]]\nname = \"end\"\nwhen = \"t - 17/10\"\naction = \"stop\"\n\n\
         [simulation]\nt_end = 2.0\n",
    )
    .expect("model file");
    // Bottom, left, bottom, then the stop at t = 1.7 (before T_END).
    assert_eq!(bench.compare(&model), 4);
    bench.report();
}

impl Bench {
    /// Runs `model` to `t_end` with `simulate` (RK4) and with both generated solvers: each
    /// must fail, its message containing `says`, which `expected` checks in the text
    /// after it (a time, against its closed form).
    fn fail_alike(&mut self, model: &Path, t_end: &str, says: &str, expected: impl Fn(&str)) {
        let stem = model.file_stem().and_then(|s| s.to_str()).expect("a stem");
        let dir = self.scratch.join(stem);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("model dir");
        let check = |what: &str, output: Output| {
            let stderr = String::from_utf8_lossy(&output.stderr).to_string();
            assert!(!output.status.success(), "{what}: succeeded:\n{stderr}");
            let rest = stderr
                .split_once(says)
                .unwrap_or_else(|| panic!("{what}: `{says}` not in:\n{stderr}"))
                .1;
            expected(rest);
        };
        let simulated = lagrange()
            .arg("simulate")
            .arg(model)
            .args(["--integrator", "rk4", "--dt", DT, "--t-end", t_end])
            .output()
            .expect("simulate");
        check(&format!("{stem} (simulate)"), simulated);
        for language in self.languages() {
            let binary = self.solver(model, &dir.join(language), language);
            let run = Command::new(&binary)
                .args(["--dt", DT, "--t-end", t_end])
                .output()
                .expect("the solver");
            check(&format!("{stem} ({language})"), run);
        }
    }
}

/// The leading number of `text`.
fn leading_number(text: &str) -> f64 {
    let end = text
        .find(|c: char| !(c.is_ascii_digit() || "+-.e".contains(c)))
        .unwrap_or(text.len());
    text[..end]
        .parse()
        .unwrap_or_else(|e| panic!("`{text}`: {e}"))
}

/// The shipped bouncing ball (h₀ = 1, g = 9.81, e = 0.8) run to t = 10, past the time its
/// bounces accumulate, `t∞ = t₁ + 2 v₁ e / (g (1 − e))` with `t₁ = √(2h₀/g)` and
/// `v₁ = √(2 g h₀)`: `simulate` and both generated solvers stop there, the time estimated,
/// where they fell through the floor to y(10) = −172.8 without a word. And `tan(y)` on a
/// body sliding down from y = 1/2 at unit speed: its zero at t = 1/2 is an event, its pole
/// at y = −π/2 (t = 1/2 + π/2) is not, and all three say so there.
#[test]
fn accumulating_resets_and_poles_stop_simulate_and_the_solvers_alike() {
    let mut bench = Bench::new("edges");
    let (g, e, h0) = (9.81f64, 0.8f64, 1.0f64);
    let zeno = (2.0 * h0 / g).sqrt() + 2.0 * (2.0 * g * h0).sqrt() * e / (g * (1.0 - e));
    let ball = root().join("examples/models/bouncing_ball.toml");
    bench.fail_alike(
        &ball,
        "10",
        "its resets come ever closer and accumulate at t ",
        |rest| {
            let at = leading_number(rest.trim_start_matches(['≈', '~', ' ']));
            assert!((at - zeno).abs() < 1e-9 * zeno, "{at} vs {zeno}");
        },
    );
    let slide = bench.scratch.join("slide.toml");
    std::fs::write(
        &slide,
        "[model]\nname = \"Slide\"\ncoordinates = [\"y\"]\nparameters = [\"m\"]\n\
         kinetic = \"1/2*m*dot(y)^2\"\npotential = \"0\"\n\n[values]\nm = 1.0\n\n\
         [initial]\nq = { y = 0.5 }\nqd = { y = -1.0 }\n\n\
         [[events]]\nname = \"tangent\"\nwhen = \"tan(y)\"\n\n[simulation]\nt_end = 6.0\n",
    )
    .expect("model file");
    let pole = 0.5 + std::f64::consts::FRAC_PI_2;
    bench.fail_alike(&slide, "6", "tangent", |rest| {
        let at = leading_number(rest.split_once("at t = ").expect("a time").1);
        assert!((at - pole).abs() < 1e-12 * pole, "{at} vs {pole}");
        assert!(rest.contains("a pole or a discontinuity"), "{rest}");
    });
}

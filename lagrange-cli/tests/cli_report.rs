//! `lagrange report` in a real browser: each page is opened in headless Chromium and
//! checked for what a person would see. The equations are set as mathematics (a
//! fraction's numerator stands above its denominator), not shown as markup; the plots are
//! there with their text alternatives; the animation moves (two screenshots of the drawing
//! at different times differ); the console shows no error. The same page stripped of its
//! scripts still shows everything but the animation.
//!
//! Needs `chromium` and `chromedriver` (Debian: `apt-get install chromium
//! chromium-driver`). Without them the browser tests pass without running and say so on
//! the terminal; `LAGRANGE_REQUIRE_BROWSER=1` makes that a failure. CI installs them and
//! sets it (`.ci/run`).

mod browser;
mod external;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use browser::Browser;
use serde_json::Value;

fn model(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/models")
        .join(name)
        .display()
        .to_string()
}

/// A folder of this test's own, emptied.
fn folder(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("report-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes the report of `file` with `args` to `dir` and returns its path.
fn report(dir: &Path, file: &str, args: &[&str]) -> PathBuf {
    let html = dir.join(file.replace(".toml", ".html"));
    let output = Command::new(env!("CARGO_BIN_EXE_lagrange"))
        .arg("report")
        .arg(model(file))
        .arg("-o")
        .arg(&html)
        .args(args)
        .output()
        .expect("the lagrange binary runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    html
}

/// What the page shows, measured in the page: fractions laid out stacked, raw markup in
/// the text, the plots and their text alternatives, the controls, and whether the page
/// is wider than the window.
const MEASURE: &str = r##"
const box = e => e.getBoundingClientRect();
const fractions = [...document.querySelectorAll("mfrac")];
const stacked = fractions.filter(f => {
  const [a, b] = [box(f.children[0]), box(f.children[1])];
  return a.height > 0 && b.height > 0 && a.bottom <= b.top + 1 && a.left < b.right && b.left < a.right;
});
const subscripts = [...document.querySelectorAll("msub")].filter(s => {
  const [a, b] = [box(s.children[0]), box(s.children[1])];
  return b.left >= a.right - 1 && b.bottom > a.bottom;
});
const plots = [...document.querySelectorAll("svg.plot")].map(s => ({
  width: box(s).width,
  height: box(s).height,
  points: Math.max(0, ...[...s.querySelectorAll("polyline")].map(p => p.getAttribute("points").trim().split(/\s+/).length)),
  title: s.querySelector("title").textContent,
  desc: s.querySelector("desc").textContent,
}));
const controls = document.getElementById("controls");
return {
  maths: document.querySelectorAll("math").length,
  fractions: fractions.length,
  stacked: stacked.length,
  subscripts: subscripts.length,
  markup: /<\/?m(row|i|n|o|frac|sub|sup)\b|<math/.test(document.body.innerText),
  plots,
  dots: document.querySelectorAll("#scene circle[data-node]").length,
  controls: controls !== null && !controls.hidden,
  clock: document.getElementById("clock") ? document.getElementById("clock").textContent : "",
  overflow: document.documentElement.scrollWidth > window.innerWidth + 1,
};
"##;

/// The checks every report passes, with or without its scripts.
fn check_static(name: &str, seen: &Value) {
    let count = |key: &str| seen[key].as_u64().unwrap_or(0);
    assert!(count("maths") >= 2, "{name}: {seen}");
    assert!(
        count("fractions") > 0,
        "{name}: no fraction to measure: {seen}"
    );
    assert_eq!(
        count("stacked"),
        count("fractions"),
        "{name}: fractions not set as mathematics: {seen}"
    );
    assert!(count("subscripts") > 0, "{name}: {seen}");
    assert_eq!(seen["markup"], false, "{name}: MathML shown as text");
    assert_eq!(
        seen["overflow"], false,
        "{name}: the page is wider than the window"
    );
    let plots = seen["plots"].as_array().unwrap();
    assert!(!plots.is_empty(), "{name}: {seen}");
    for plot in plots {
        assert!(plot["width"].as_f64().unwrap() > 100.0, "{name}: {plot}");
        assert!(plot["height"].as_f64().unwrap() > 100.0, "{name}: {plot}");
        assert!(plot["points"].as_u64().unwrap() >= 10, "{name}: {plot}");
        assert!(plot["title"].as_str().unwrap().len() > 10, "{name}: {plot}");
        assert!(
            plot["desc"].as_str().unwrap().contains("ranges from"),
            "{name}: {plot}"
        );
    }
    assert!(count("dots") > 0, "{name}: nothing drawn: {seen}");
}

/// Opens the report of `file`, checks it, keeps a screenshot, and checks the page
/// without its scripts. Returns what was measured.
fn check_report(browser: &mut Browser, dir: &Path, file: &str, args: &[&str]) -> Value {
    let html = report(dir, file, args);
    let bytes = std::fs::metadata(&html).unwrap().len();
    assert!(bytes < 2_000_000, "{file}: {bytes} bytes");
    browser.open(&html).unwrap();
    let seen = browser.script(MEASURE).unwrap();
    check_static(file, &seen);
    assert_eq!(seen["controls"], true, "{file}: the player did not start");

    // The animation moves: the drawing and the clock change as it plays.
    let first = browser.element_screenshot("#scene").unwrap();
    let clock = browser
        .script("return document.getElementById('clock').textContent")
        .unwrap();
    std::thread::sleep(Duration::from_millis(600));
    let later = browser.element_screenshot("#scene").unwrap();
    let clock_later = browser
        .script("return document.getElementById('clock').textContent")
        .unwrap();
    assert_ne!(first, later, "{file}: the drawing did not change");
    assert_ne!(clock, clock_later, "{file}: the clock did not advance");
    // Paused, it stays; the slider moves it.
    browser
        .script("document.getElementById('play').click(); return 0")
        .unwrap();
    let paused = browser.element_screenshot("#scene").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        paused,
        browser.element_screenshot("#scene").unwrap(),
        "{file}: paused, it moved"
    );
    browser
        .script("const s = document.getElementById('slider'); s.value = s.max; s.dispatchEvent(new Event('input')); return 0")
        .unwrap();
    assert_ne!(
        paused,
        browser.element_screenshot("#scene").unwrap(),
        "{file}: the slider did not move it"
    );
    let errors = browser.console_errors().unwrap();
    assert!(errors.is_empty(), "{file}: console errors: {errors:?}");
    std::fs::write(html.with_extension("png"), browser.screenshot().unwrap()).unwrap();

    // Without scripts: everything but the animation.
    let page = std::fs::read_to_string(&html).unwrap();
    let mut stripped = String::new();
    let mut rest = page.as_str();
    while let Some(start) = rest.find("<script") {
        stripped.push_str(&rest[..start]);
        let end = rest[start..].find("</script>").expect("closed script") + start;
        rest = &rest[end + "</script>".len()..];
    }
    stripped.push_str(rest);
    assert!(!stripped.contains("<script"));
    let still = html.with_file_name(format!("no-script-{}", html.file_name().unwrap().display()));
    std::fs::write(&still, stripped).unwrap();
    browser.open(&still).unwrap();
    let without = browser.script(MEASURE).unwrap();
    check_static(file, &without);
    assert_eq!(
        without["controls"], false,
        "{file}: controls without a player"
    );
    assert_eq!(without["dots"], seen["dots"]);
    assert!(browser.console_errors().unwrap().is_empty());
    seen
}

/// The titles of the plots the browser saw.
fn titles(seen: &Value) -> Vec<&str> {
    seen["plots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["title"].as_str().unwrap())
        .collect()
}

/// A browser, or `None` when none is installed (the test has said that it did not run).
fn start() -> Option<Browser> {
    Browser::start(1100, 900).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_double_pendulum_report() {
    let Some(mut browser) = start() else {
        return;
    };
    let dir = folder("double-pendulum");
    let seen = check_report(&mut browser, &dir, "double_pendulum.toml", &[]);
    // 20 s at the default output interval, as `docs/book/report.md` says.
    let bytes = std::fs::metadata(dir.join("double_pendulum.html"))
        .unwrap()
        .len();
    assert!(bytes < 150_000, "{bytes} bytes");
    // Two bobs; the coordinates, the energy's drift, the action and the principal
    // function.
    assert_eq!(seen["dots"], 2);
    let titles = titles(&seen);
    assert_eq!(titles.len(), 4, "{titles:?}");
    assert!(
        titles[2].starts_with("A against t: the action"),
        "{titles:?}"
    );
    assert!(
        titles[3].starts_with("S against t: the principal function"),
        "{titles:?}"
    );
}

#[test]
fn the_heavy_top_report_draws_a_body() {
    let Some(mut browser) = start() else {
        return;
    };
    let dir = folder("heavy-top");
    check_report(&mut browser, &dir, "heavy_top.toml", &["--dt", "0.01"]);
    let page = std::fs::read_to_string(dir.join("heavy_top.html")).unwrap();
    assert!(page.contains("an oblique view of 3-D space"));
    // From the body's centre: the line to the fixed point and its frame's three axes.
    assert_eq!(page.matches("data-a=\"0\" data-b=").count(), 4);
    assert_eq!(page.matches("data-a=\"0\" data-b=\"-1\"").count(), 1);
    // The Routhian is among the formulas.
    assert!(page.contains("<code class=\"source\">R = "));
}

#[test]
fn the_cartesian_pendulum_report_plots_the_tension() {
    let Some(mut browser) = start() else {
        return;
    };
    let dir = folder("cartesian-pendulum");
    let seen = check_report(
        &mut browser,
        &dir,
        "cartesian_pendulum.toml",
        &["--t-end", "5", "--dt", "0.01"],
    );
    let titles = titles(&seen);
    assert_eq!(titles.len(), 6, "{titles:?}");
    assert!(titles[4].starts_with("|λ1 ∇G1| against t"), "{titles:?}");
    assert!(titles[5].starts_with("λ1 against t"), "{titles:?}");
}

#[test]
fn a_thomson_and_tait_report() {
    let Some(mut browser) = start() else {
        return;
    };
    let dir = folder("folding-door");
    let seen = check_report(&mut browser, &dir, "tt_c_folding_door.toml", &[]);
    // The two leaves' ends; the coordinates (the couples make the model forced, so it
    // records no integral), the action and the principal function.
    assert_eq!(seen["dots"], 2);
    assert_eq!(titles(&seen).len(), 3);
}

/// A 20 s run recorded every millisecond keeps its page small: the frames and the
/// plotted points are thinned, not the run.
#[test]
fn a_long_dense_run_makes_a_small_page() {
    let dir = folder("dense");
    let html = report(&dir, "double_pendulum.toml", &["--dt", "0.001"]);
    let bytes = std::fs::metadata(&html).unwrap().len();
    assert!(bytes < 1_000_000, "{bytes} bytes");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("20001 recorded points"));
}

/// Runs the command with `args`, returning whether it succeeded and its standard error.
fn run(args: &[&str]) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_lagrange"))
        .args(args)
        .output()
        .expect("the lagrange binary runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A model file in `dir` with `text`.
fn model_file(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn a_run_that_stops_still_writes_its_report() {
    // A rod of length 0 held at the origin: the constraint's gradient vanishes, so the
    // multipliers are undefined and the run stops at once.
    let dir = folder("stopped");
    let text = std::fs::read_to_string(model("cartesian_pendulum.toml"))
        .unwrap()
        .replace("\nl = 1.0", "\nl = 0.0")
        .replace(
            "q = { x = 0.8414709848078965, y = -0.5403023058681398 }",
            "q = { x = 0.0, y = 0.0 }",
        );
    let file = model_file(&dir, "rod0.toml", &text);
    let html = dir.join("rod0.html");
    let (ok, message) = run(&["report", &file, "-o", &html.display().to_string()]);
    assert!(!ok, "{message}");
    assert!(
        message.contains("the partial trajectory, recorded up to t = 0, is in"),
        "{message}"
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<p>The run stopped: the constraints"));
    assert!(page.contains("The multipliers are undefined at 1 of the 1 recorded points"));
}

#[test]
fn no_output_overwrites_the_model_or_another_output() {
    let dir = folder("overwrite");
    let file = model_file(
        &dir,
        "pendulum.toml",
        &std::fs::read_to_string(model("double_pendulum.toml")).unwrap(),
    );
    let before = std::fs::read_to_string(&file).unwrap();
    let (ok, message) = run(&["report", &file, "-o", &file]);
    assert!(!ok);
    assert!(message.contains("it is the model file"), "{message}");
    let same = dir.join("same").display().to_string();
    let (ok, message) = run(&["simulate", &file, "--out", &same, "--html", &same]);
    assert!(!ok);
    assert!(message.contains("twice"), "{message}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
    assert!(!Path::new(&same).exists());
}

#[test]
fn a_model_driven_by_its_inputs_is_drawn() {
    // The cart-pole's force follows a signal: the run goes through `Controlled`.
    let dir = folder("cart-pole");
    let html = report(&dir, "cart_pole.toml", &[]);
    let page = std::fs::read_to_string(html).unwrap();
    assert!(!page.contains("No animation"));
    assert_eq!(page.matches("data-node=").count(), 2);
    assert!(page.contains("the x–y plane"));
}

#[test]
fn a_plane_motion_off_the_origin_is_seen_in_its_plane() {
    let dir = folder("offset");
    let file = model_file(
        &dir,
        "offset.toml",
        "[model]
name = \"Offset\"
coordinates = [\"theta\"]
parameters = [\"m\", \"l\", \"g\"]
gravity = [\"0\", \"0\", \"-g\"]

[[model.particle]]
name = \"bob\"
mass = \"m\"
position = [\"l*sin(theta)\", \"0.5\", \"-l*cos(theta)\"]

[values]
m = 1.0
l = 1.0
g = 9.81

[initial]
q = { theta = 1.0 }

[simulation]
t_end = 3.0
",
    );
    let html = dir.join("offset.html");
    let (ok, message) = run(&["report", &file, "-o", &html.display().to_string()]);
    assert!(ok, "{message}");
    let page = std::fs::read_to_string(html).unwrap();
    assert!(page.contains("the x–z plane (z up)"));
}

#[test]
fn a_reduced_run_says_why_it_is_not_drawn() {
    let dir = folder("reduced");
    let html = dir.join("top.html");
    let (ok, message) = run(&[
        "simulate",
        &model("heavy_top.toml"),
        "--reduced",
        "--html",
        &html.display().to_string(),
    ]);
    assert!(ok, "{message}");
    let page = std::fs::read_to_string(html).unwrap();
    assert!(page.contains("No animation: the system declares nothing to draw"));
    assert!(page.contains("a reduced system, which is not drawn yet"));
}

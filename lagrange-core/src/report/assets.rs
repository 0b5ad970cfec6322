//! The page's own style sheet and the script that plays the animation back: the only
//! style and script a report carries (its content-security policy admits nothing else).

/// The page's style: readable widths, mathematics that scrolls instead of overflowing.
pub(super) const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:0 auto;max-width:62rem;padding:0 1rem 2rem;color:#222;line-height:1.45}\
header{border-bottom:1px solid #ddd;margin-bottom:1rem}header p,td{overflow-wrap:anywhere}h1{margin:.8rem 0 .3rem}nav{margin:.4rem 0 .8rem}\
.math{overflow-x:auto;padding:.3rem 0;font-size:1.1rem}math[display=block]{margin:.3rem 0}\
mtd{padding:.15rem .2rem}mtd:first-child{text-align:right}mtd:last-child{text-align:left}\
.formula{margin:.4rem 0}.source{display:block;color:#555;font-size:.85rem;overflow-wrap:anywhere}\
pre{overflow-x:auto;background:#f6f6f3;padding:.5rem;white-space:pre-wrap;overflow-wrap:anywhere}\
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left}\
figure{margin:1rem 0}svg.plot,#scene{max-width:100%;height:auto;font-size:12px;font-family:system-ui,sans-serif}\
#controls{display:flex;gap:1rem;align-items:center;flex-wrap:wrap}#controls[hidden]{display:none}\
#readout{font-family:ui-monospace,monospace;font-size:.9rem;white-space:pre}.about{color:#555;font-size:.85rem}\
footer{color:#777;font-size:.85rem;margin-top:2rem}";

/// Plays the frames back: moves the scene's lines and dots, shows the time and the
/// integrals, loops; play/pause, a time slider and a speed.
pub(super) const PLAYER: &str = r#"(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("frames").textContent);
  var scene = document.getElementById("scene");
  var lines = Array.prototype.slice.call(scene.querySelectorAll("line[data-a]"));
  var dots = Array.prototype.slice.call(scene.querySelectorAll("circle[data-node]"));
  var slider = document.getElementById("slider");
  var button = document.getElementById("play");
  var speed = document.getElementById("speed");
  var clock = document.getElementById("clock");
  var readout = document.getElementById("readout");
  var last = data.t.length - 1;
  var frame = 0, playing = true, clockTime = data.t[0], before = null;
  function at(f, node) {
    if (node < 0) { return data.origin; }
    var a = data.frames[f];
    return [a[2 * node], a[2 * node + 1]];
  }
  function show(f) {
    frame = f;
    lines.forEach(function (l) {
      var p = at(f, +l.getAttribute("data-a")), q = at(f, +l.getAttribute("data-b"));
      l.setAttribute("x1", p[0]); l.setAttribute("y1", p[1]);
      l.setAttribute("x2", q[0]); l.setAttribute("y2", q[1]);
    });
    dots.forEach(function (d) {
      var p = at(f, +d.getAttribute("data-node"));
      d.setAttribute("cx", p[0]); d.setAttribute("cy", p[1]);
    });
    slider.value = f;
    clock.textContent = "t = " + data.t[f].toFixed(3);
    readout.textContent = data.readouts.map(function (r) {
      var v = r.values[f];
      return r.name + " = " + (v === null ? "—" : v.toPrecision(12));
    }).join("\n");
  }
  function tick(now) {
    if (!playing) { before = null; return; }
    if (before !== null) { clockTime += (now - before) / 1000 * parseFloat(speed.value); }
    before = now;
    if (clockTime > data.t[last]) {
      var span = data.t[last] - data.t[0];
      clockTime = span > 0 ? data.t[0] + (clockTime - data.t[0]) % span : data.t[0];
      frame = 0;
    }
    var f = frame;
    while (f < last && data.t[f + 1] <= clockTime) { f++; }
    if (clockTime < data.t[f]) { f = 0; }
    show(f);
    requestAnimationFrame(tick);
  }
  button.addEventListener("click", function () {
    playing = !playing;
    button.textContent = playing ? "Pause" : "Play";
    if (playing) { requestAnimationFrame(tick); }
  });
  slider.addEventListener("input", function () {
    var f = +slider.value;
    clockTime = data.t[f];
    show(f);
  });
  document.getElementById("controls").hidden = false;
  if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) {
    playing = false;
    button.textContent = "Play";
  }
  show(0);
  if (playing) { requestAnimationFrame(tick); }
})();"#;

"""Runs every URDF of example-robot-data through `lagrange import` and `lagrange linearize`
with a fixed base, and compares the forward dynamics and its derivatives with what
Pinocchio computes at one random state: the sweep of the book's page on limits.

    python3 -m venv venv && venv/bin/pip install pin==4.1.0 example-robot-data==6.0.0
    cargo build -p lagrange-cli            # or --release
    venv/bin/python lagrange-cli/tests/pinocchio/sweep.py target/debug/lagrange

It prints one row of a Markdown table per robot: the robot, its joints, the route the
engine took (expanded, or the recursions alone), the outcome (the largest difference of
`q̈`, `∂q̈/∂q` and `∂q̈/∂q̇` from Pinocchio's, relative to Pinocchio's largest entry, or the
reason lagrange refused it), and the time and peak memory of `linearize` with an empty
cache (the derivation included). A robot with a mimic joint is run through lagrange alone
(lagrange keeps the coupling as a constraint; Pinocchio's model would not).
"""

import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
import pinocchio as pin

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from record import configuration, robots_folder, stripped, tangent_limits  # noqa: E402

TIMEOUT = 600


def run(args, env, work):
    """Runs `args` under GNU time (a child forked from this process would count the
    interpreter's memory as its own); returns (exit code, stdout, stderr, seconds, peak
    resident MB)."""
    work = pathlib.Path(work)
    start = time.monotonic()
    with open(work / "out", "w") as out, open(work / "err", "w") as err:
        timed = ["/usr/bin/time", "-f", "%M", "-o", str(work / "peak"), *args]
        try:
            code = subprocess.run(timed, stdout=out, stderr=err, env=env, timeout=TIMEOUT).returncode
        except subprocess.TimeoutExpired:
            code = None
    seconds = time.monotonic() - start
    peak = (work / "peak").read_text().split()[-1] if (work / "peak").exists() else "0"
    error = (work / "err").read_text() if code is not None else f"error: timed out after {TIMEOUT} s"
    return code, (work / "out").read_text(), error, seconds, int(peak) / 1024 if peak.isdigit() else 0.0


def coordinate(joint, coordinates):
    """A joint's coordinate as `lagrange import` names it: each character an identifier
    cannot hold becomes `_`, and a name a link already has takes a suffix `_2`, `_3`, …"""
    name = re.sub(r"[^A-Za-z0-9_]", "_", joint)
    for suffix in ["", *(f"_{k}" for k in range(2, 10))]:
        if name + suffix in coordinates:
            return name + suffix
    sys.exit(f"no coordinate for the joint `{joint}` in {coordinates}")


def relative(ours, theirs):
    scale = max(1.0, float(np.max(np.abs(theirs))))
    d = np.abs(np.asarray(ours) - np.asarray(theirs))
    return float("inf") if np.isnan(d).any() else float(d.max()) / scale


def first_error(text):
    for line in text.splitlines():
        if line.startswith("error"):
            return line.split(": ", 2)[-1][:200].replace("|", "\\|")
    return text.strip()[:200].replace("|", "\\|")


def compare(reference, joints, angles, v, doc):
    """The largest relative difference of lagrange's `linearize` from Pinocchio's ABA and
    its derivatives, with the URDF's damping."""
    data = reference.createData()
    q = configuration(reference, angles)
    tau = -reference.damping * v
    ddq = pin.aba(reference, data, q, v, tau)
    pin.computeABADerivatives(reference, data, q, v, tau)
    minv = np.triu(data.Minv) + np.triu(data.Minv, 1).T
    ddq_dv = data.ddq_dv - minv @ np.diag(reference.damping)
    n = len(joints)
    index = [doc["state"].index(coordinate(j, doc["state"])) for j in joints]
    rate, a = doc["rate"], np.asarray(doc["a"])
    ours = [rate[n + i] for i in index]
    ours_dq = [[a[n + i][j] for j in index] for i in index]
    ours_dv = [[a[n + i][n + j] for j in index] for i in index]
    return max(
        relative(ours, ddq),
        relative(ours_dq, data.ddq_dq),
        relative(ours_dv, ddq_dv),
    )


def row(binary, root, path):
    name = str(path.relative_to(root))
    text = path.read_text()
    mimic = "<mimic" in text
    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, LAGRANGE_CACHE_DIR=work)
        urdf = pathlib.Path(work) / "robot.urdf"
        urdf.write_text(text)
        code, model, err, _, _ = run([binary, "import", str(urdf)], env, work)
        if code != 0:
            return f"| {name} | | | refused by `import`: {first_error(err)} | | |"
        file = pathlib.Path(work) / "robot.toml"
        file.write_text(model)
        joints_count = len(json.loads(model.split("coordinates = ", 1)[1].split("\n", 1)[0]))
        args = [binary, "linearize", str(file), "--format", "json"]
        reference = None
        if not mimic:
            reference = pin.buildModelFromXML(stripped(text))
            rng = np.random.default_rng(20261207)
            lower, upper = tangent_limits(reference)
            angles = rng.uniform(lower, upper)
            v = rng.uniform(-1.0, 1.0, reference.nv)
            joints = list(reference.names)[1:]
            coordinates = json.loads(model.split("coordinates = ", 1)[1].split("\n", 1)[0])
            names = [coordinate(j, coordinates) for j in joints]
            at = [f"{c}={float(x)!r}" for c, x in zip(names, angles)]
            at += [f"dot({c})={float(x)!r}" for c, x in zip(names, v)]
            args += ["--at", ",".join(at)]
        code, out, err, seconds, peak = run(args, env, work)
        _, derived, _, _, _ = run([binary, "derive", str(file)], env, work)
        route = "recursions" if "too large to expand" in derived else "expanded"
        if code != 0:
            outcome = f"refused: {first_error(err)}"
        elif reference is None:
            outcome = "derived; mimic joint: no Pinocchio reference"
        else:
            worst = compare(reference, joints, angles, v, json.loads(out))
            outcome = f"pass, {worst:.1e}" if worst < 1e-9 else f"**differs**, {worst:.1e}"
        return f"| {name} | {joints_count} | {route} | {outcome} | {seconds:.1f} | {peak:.0f} |"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    root = robots_folder()
    print("| robot | joints | route | outcome | linearize (s) | peak (MB) |")
    print("|---|---|---|---|---|---|")
    for path in sorted(root.rglob("*.urdf")):
        print(row(binary, root, path), flush=True)


if __name__ == "__main__":
    main()

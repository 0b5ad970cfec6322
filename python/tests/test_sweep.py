"""Models sent to other processes, and sweeps in threads and on a Dask cluster: each
member's run is the run one process makes of it, a failing member is reported with its
reason and the others are kept. The reference for each member is the small-oscillation
period of a pendulum (independent of lagrange) and a direct run in this process."""

import importlib
import math
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import lagrange_dynamics as ld

PENDULUM = """
[model]
name = "SweptPendulum"
coordinates = ["theta"]
parameters = ["m", "l", "g"]
potential = "-m*g*l*cos(theta)"

[[model.particle]]
name = "bob"
mass = "m"
position = ["l*sin(theta)", "-l*cos(theta)"]

[values]
m = 1.0
l = 1.0
g = 9.81

[initial]
q = { theta = 0.001 }

[simulation]
integrator = "dp54"
tolerance = 1e-12
"""


def need(module):
    """An optional module: the test is skipped without it, except where the Python tests
    are required (CI), where its absence fails."""
    if os.environ.get("LAGRANGE_REQUIRE_PYTHON", "0") in ("", "0"):
        return pytest.importorskip(module)
    return importlib.import_module(module)


@pytest.fixture(scope="module")
def pendulum():
    return ld.loads(PENDULUM)


def test_a_pickled_model_is_the_same_model(pendulum):
    heavier = pendulum.with_values(l=2.0)
    copy = pickle.loads(pickle.dumps(heavier))
    assert copy.values == heavier.values and copy.name == "SweptPendulum"
    q = np.random.default_rng(5).uniform(-3, 3, size=(50, 1))
    assert np.array_equal(copy.accelerations(q, q), heavier.accelerations(q, q))
    assert copy.equations == heavier.equations


def test_another_process_runs_a_pickled_model_without_the_engine(pendulum, tmp_path):
    shipped = tmp_path / "model.pickle"
    shipped.write_bytes(pickle.dumps(pendulum))
    script = (
        "import pickle, sys\n"
        "model = pickle.loads(open(sys.argv[1], 'rb').read())\n"
        "print(repr(float(model.accelerations([0.5])[0])))\n"
    )
    # No cache to read a derivation from: had the engine run, it would say so on stderr.
    env = dict(os.environ, LAGRANGE_CACHE="off")
    out = subprocess.run(
        [sys.executable, "-c", script, str(shipped)],
        capture_output=True, text=True, env=env, check=True,
    )
    assert float(out.stdout) == float(pendulum.accelerations([0.5])[0])
    assert "deriving" not in out.stderr and "symbolica" not in out.stderr.lower()


def test_a_tampered_shipped_model_is_refused(pendulum):
    path, text, entry, values = pendulum._shipped()
    with pytest.raises(ld.LagrangeError, match="content hash"):
        ld._restored(path, text, entry.replace('"derived_hash":"', '"derived_hash":"0', 1), values)
    with pytest.raises(ld.LagrangeError, match="derived from a different model"):
        ld._restored(path, text.replace("-m*g*l*cos", "-2*m*g*l*cos"), entry, values)
    with pytest.raises(ld.LagrangeError, match="2 values for the 3 parameters"):
        ld._restored(path, text, entry, values[:2])
    with pytest.raises(ld.LagrangeError, match="not negative"):
        ld._restored(path, text, entry, [-1.0, 1.0, 9.81])
    with pytest.raises(ld.LagrangeError, match="finite"):
        ld._restored(path, text, entry, [1.0, float("nan"), 9.81])
    # What the entry says is echoed escaped: it cannot forge a line or colour a terminal.
    forged = entry.replace(f'"engine":"', '"engine":"x\\n\\u001b[31m', 1)
    with pytest.raises(ld.LagrangeError, match="written by") as caught:
        ld._restored(path, text, forged, values)
    assert "\n" not in str(caught.value) and "\x1b" not in str(caught.value)


def small_oscillation_period(l, g):
    return 2 * math.pi * math.sqrt(l / g)


def members():
    lengths = [0.5, 1.0, 2.0, 4.0]
    return [{"l": l} for l in lengths], [(np.array([0.001]), np.array([0.0]))] * len(lengths)


def test_a_threaded_sweep_runs_each_member_as_one_run_would(pendulum):
    values, initial = members()
    # One t_end for all, a quarter of the first member's small-oscillation period: that
    # member ends at the bottom (its amplitude's correction to the period is 6e-8).
    t_end = small_oscillation_period(0.5, 9.81) / 4
    result = ld.sweep(pendulum, values=values, initial=initial, t_end=t_end, threads=3)
    assert result.ok.all() and result.errors == [None] * 4
    for run, given in zip(result.runs, values):
        direct = pendulum.with_values(**given).simulate(t_end=t_end, q0=[0.001])
        assert np.array_equal(run["q"], direct["q"]) and np.array_equal(run["t"], direct["t"])
    q, qd = result.final()
    assert q.shape == (4, 1) and abs(q[0, 0]) < 1e-9


def test_a_failing_member_is_reported_and_the_others_kept(pendulum):
    values = [{"l": 1.0}, {"m": -1.0}, {"g": float("inf")}, {"l": 2.0}]
    result = ld.sweep(pendulum, values=values, t_end=0.5)
    assert list(result.ok) == [True, False, False, True]
    assert "LagrangeError" in result.errors[1]
    assert "finite" in result.errors[2]
    q, _ = result.final()
    assert np.isnan(q[1, 0]) and np.isnan(q[2, 0]) and np.isfinite(q[[0, 3], 0]).all()
    need("pandas")
    frame = result.to_dataframe()
    assert list(frame["value[l]"][[0, 3]]) == [1.0, 2.0]
    assert frame["error"][1] != "" and frame["error"][0] == ""
    assert "4 members, 2 failed" in repr(result)
    with pytest.raises(ValueError, match="2 sets of values and 3 initial states"):
        ld.sweep(pendulum, values=values[:2], initial=[[0.1]] * 3, t_end=1.0)


def test_a_sweep_on_a_dask_cluster_of_worker_processes(pendulum):
    distributed = need("dask.distributed")
    values = [{"l": 0.5}, {"l": 1.0}, {"l": 2.0}, {"l": 4.0}, {"m": -1.0}]
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        pids = set(client.run(os.getpid).values())
        assert len(pids) == 2 and os.getpid() not in pids
        result = ld.sweep(pendulum, values=values, t_end=1.0, client=client)
    assert list(result.ok) == [True, True, True, True, False]
    assert "not negative" in result.errors[4]
    local = ld.sweep(pendulum, values=values[:4], t_end=1.0)
    for there, here in zip(result.runs, local.runs):
        assert np.array_equal(there["q"], here["q"]) and np.array_equal(there["t"], here["t"])


CART = """
[model]
name = "Cart"
coordinates = ["error", "x"]
parameters = ["m", "k", "u"]
inputs = ["u"]
kinetic = "1/2*m*(dot(error)^2 + dot(x)^2)"
potential = "1/2*k*(error^2 + x^2)"
force = { error = "u" }

[values]
m = 1.0
k = 4.0

[inputs]
u = "0"

[initial]
q = { error = 1.0, x = 0.5 }
"""


def test_a_model_whose_file_drives_an_input_is_swept_and_shipped():
    # Coordinates named like the frame's own columns, and an input driven by the file's
    # signal (no value may be given for it; the model's own is kept out when values are
    # changed or the model is shipped).
    cart = ld.loads(CART, name="cart.toml")
    again = pickle.loads(pickle.dumps(cart))
    assert again.values == cart.values
    stiffer = cart.with_values(k=9.0)
    assert stiffer.values["k"] == 9.0
    omegas = [2.0, 3.0]
    result = ld.sweep(cart, values=[{"k": w**2} for w in omegas], t_end=1.0, tolerance=1e-12)
    assert result.ok.all(), result.errors
    q, _ = result.final()
    for k, w in enumerate(omegas):
        assert q[k] == pytest.approx([math.cos(w), 0.5 * math.cos(w)], abs=1e-9)
    need("pandas")
    frame = result.to_dataframe()
    for k, w in enumerate(omegas):
        assert frame["q[error]"][k] == pytest.approx(math.cos(w), abs=1e-9)
        assert frame["q[x]"][k] == pytest.approx(0.5 * math.cos(w), abs=1e-9)
        assert frame["t"][k] == 1.0 and frame["error"][k] == ""


def test_a_member_whose_signal_cannot_be_evaluated_fails_alone():
    cart = ld.loads(CART, name="cart.toml")
    result = ld.sweep(cart, values=[{"k": 1.0}], t_end=0.1, inputs={"u": "log(0)"})
    assert not result.ok[0] and "not a finite number" in result.errors[0]


def test_a_sweep_of_reduced_runs_is_refused():
    orbit = ld.load(Path(__file__).resolve().parents[2] / "examples/models/central_orbit_routh.toml")
    with pytest.raises(ValueError, match="a sweep runs the full system"):
        ld.sweep(orbit, values=[{"m": 1.0}], t_end=1.0, reduced=True)

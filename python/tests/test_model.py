"""lagrange_dynamics against closed forms: the pendulum's and the double pendulum's
textbook equations, a rigid link from a URDF, the exact period of a pendulum (the complete
elliptic integral), finite differences of the accelerations; and the errors a careless
user meets."""

import math
import threading
from importlib import metadata
from pathlib import Path

import numpy as np
import pytest

import lagrange_dynamics as ld

REPOSITORY = Path(__file__).resolve().parents[2]
DOUBLE_PENDULUM = REPOSITORY / "examples" / "models" / "double_pendulum.toml"

PENDULUM = """
[model]
name = "Pendulum"
coordinates = ["theta"]
parameters = ["m", "l", "g"]
kinetic = "1/2*m*l^2*dot(theta)^2"
potential = "-m*g*l*cos(theta)"

[values]
m = 2.0
l = 0.5
g = 9.81

[initial]
q = { theta = 1.0 }
"""


@pytest.fixture(scope="module")
def pendulum():
    return ld.loads(PENDULUM)


@pytest.fixture(scope="module")
def double():
    return ld.load(DOUBLE_PENDULUM)


def test_the_pendulum_has_its_textbook_equations(pendulum):
    m, l, g = 2.0, 0.5, 9.81
    for theta, omega in [(0.0, 0.0), (1.0, 0.3), (-2.5, 4.0)]:
        assert pendulum.mass_matrix([theta]) == pytest.approx(np.array([[m * l * l]]), rel=1e-15)
        f = pendulum.forcing([theta], [omega])
        assert f == pytest.approx([-m * g * l * math.sin(theta)], rel=1e-14, abs=1e-15)
        qdd = pendulum.accelerations([theta], [omega])
        assert qdd == pytest.approx([-g / l * math.sin(theta)], rel=1e-14, abs=1e-15)
        tau = pendulum.inverse_dynamics([theta], [omega], [0.7])
        expected = m * l * l * 0.7 + m * g * l * math.sin(theta)
        assert tau == pytest.approx([expected], rel=1e-14)
        e = pendulum.energy([theta], [omega])
        assert float(e) == pytest.approx(0.5 * m * l * l * omega**2 - m * g * l * math.cos(theta))


def test_the_facts_and_the_printed_equations(pendulum):
    assert pendulum.name == "Pendulum"
    assert pendulum.coordinates == ["theta"]
    assert pendulum.parameters == ["m", "l", "g"]
    assert pendulum.values == {"m": 2.0, "l": 0.5, "g": 9.81}
    assert pendulum.initial == ([1.0], [0.0])
    info = pendulum.info
    assert info["conserved"] == "energy"
    assert info["cyclic"] == [] and info["inputs"] == [] and info["constraints"] == 0
    assert "theta" in pendulum.equations
    latex = pendulum._repr_latex_()
    assert latex.startswith("$$\\begin{aligned}") and latex.endswith("\\end{aligned}$$")
    assert "\\theta" in latex
    assert "Pendulum" in repr(pendulum)


def test_the_double_pendulum_mass_matrix_is_the_textbook_one(double):
    m1, m2, l1, l2 = 1.0, 1.0, 1.0, 1.0
    rng = np.random.default_rng(1)
    for q in rng.uniform(-3, 3, size=(5, 2)):
        c = math.cos(q[0] - q[1])
        expected = [[(m1 + m2) * l1 * l1, m2 * l1 * l2 * c], [m2 * l1 * l2 * c, m2 * l2 * l2]]
        assert double.mass_matrix(q) == pytest.approx(np.array(expected), rel=1e-14)


def test_a_batch_is_each_single_call_bit_for_bit(double):
    rng = np.random.default_rng(2)
    q = rng.uniform(-3, 3, size=(300, 2))
    qd = rng.normal(size=(300, 2))
    qdd = rng.normal(size=(300, 2))
    batch = {
        "accelerations": double.accelerations(q, qd),
        "mass_matrix": double.mass_matrix(q, qd),
        "forcing": double.forcing(q, qd),
        "inverse_dynamics": double.inverse_dynamics(q, qd, qdd),
        "energy": double.energy(q, qd),
    }
    jacobians = double.acceleration_jacobians(q, qd)
    assert batch["accelerations"].shape == (300, 2)
    assert batch["mass_matrix"].shape == (300, 2, 2)
    assert batch["energy"].shape == (300,)
    assert [j.shape for j in jacobians] == [(300, 2), (300, 2, 2), (300, 2, 2), (300, 2, 5)]
    for i in range(0, 300, 7):
        assert np.array_equal(batch["accelerations"][i], double.accelerations(q[i], qd[i]))
        assert np.array_equal(batch["mass_matrix"][i], double.mass_matrix(q[i], qd[i]))
        assert np.array_equal(batch["forcing"][i], double.forcing(q[i], qd[i]))
        assert np.array_equal(
            batch["inverse_dynamics"][i], double.inverse_dynamics(q[i], qd[i], qdd[i])
        )
        assert batch["energy"][i] == double.energy(q[i], qd[i])
        single = double.acceleration_jacobians(q[i], qd[i])
        for whole, one in zip(jacobians, single):
            assert np.array_equal(whole[i], one)


def test_a_batch_reads_any_layout_and_names_its_first_failing_state(double):
    rng = np.random.default_rng(8)
    q, qd = rng.uniform(-3, 3, size=(400, 2)), rng.normal(size=(400, 2))
    expected = double.accelerations(q, qd)
    assert np.array_equal(double.accelerations(np.asfortranarray(q), qd), expected)
    assert np.array_equal(double.accelerations(q[::2], qd[::2]), expected[::2])
    assert np.array_equal(double.accelerations(q[::-1], qd[::-1]), expected[::-1])
    bad = q.copy()
    bad[150, 0] = bad[300, 1] = np.nan
    with pytest.raises(ld.LagrangeError, match="^state 150: "):
        double.accelerations(bad, qd)
    with pytest.raises(ld.LagrangeError) as one:
        double.accelerations(bad[150], qd[150])
    assert not str(one.value).startswith("state")


def test_inverse_dynamics_undoes_forward_dynamics(double):
    rng = np.random.default_rng(3)
    q, qd = rng.uniform(-3, 3, size=(50, 2)), rng.normal(size=(50, 2))
    tau = double.inverse_dynamics(q, qd, double.accelerations(q, qd))
    assert np.max(np.abs(tau)) < 1e-12


def test_the_derivatives_are_the_finite_differences_of_the_accelerations(double):
    q, qd = np.array([0.4, -1.1]), np.array([0.8, -0.3])
    qdd, dq, dqd, dp = double.acceleration_jacobians(q, qd)
    assert np.array_equal(qdd, double.accelerations(q, qd))
    h = 1e-6
    for k in range(2):
        e = np.zeros(2)
        e[k] = h
        by_q = (double.accelerations(q + e, qd) - double.accelerations(q - e, qd)) / (2 * h)
        by_qd = (double.accelerations(q, qd + e) - double.accelerations(q, qd - e)) / (2 * h)
        assert dq[:, k] == pytest.approx(by_q, rel=1e-6, abs=1e-7)
        assert dqd[:, k] == pytest.approx(by_qd, rel=1e-6, abs=1e-7)
    for k, name in enumerate(double.parameters):
        h = 1e-6 * double.values[name]
        up = double.with_values(**{name: double.values[name] + h})
        down = double.with_values(**{name: double.values[name] - h})
        by_p = (up.accelerations(q, qd) - down.accelerations(q, qd)) / (2 * h)
        assert dp[:, k] == pytest.approx(by_p, rel=1e-6, abs=1e-7), name


def test_a_pendulum_swings_to_the_other_side_in_half_its_exact_period(pendulum):
    # T = 4 sqrt(l/g) K(sin(theta0/2)), K by the arithmetic-geometric mean.
    l, g, theta0 = 0.5, 9.81, 1.0
    a, b = 1.0, math.cos(theta0 / 2)
    for _ in range(8):  # quadratic convergence: past round-off after five
        a, b = (a + b) / 2, math.sqrt(a * b)
    period = 4 * math.sqrt(l / g) * math.pi / (2 * a)
    run = pendulum.simulate(t_end=period / 2, tolerance=1e-12)
    assert run["t"][0] == 0.0 and run["t"][-1] == pytest.approx(period / 2, rel=1e-15)
    assert run["q"].shape == (len(run["t"]), 1)
    assert run["q"][-1, 0] == pytest.approx(-theta0, abs=1e-9)
    assert run["qd"][-1, 0] == pytest.approx(0.0, abs=1e-8)
    energy = run["invariants"]["energy"]
    assert np.max(np.abs(energy - energy[0])) < 1e-9
    fixed = pendulum.simulate(t_end=period / 2, integrator="rk4", dt=1e-3, q0=[theta0])
    assert fixed["q"][-1, 0] == pytest.approx(-theta0, abs=1e-6)


def test_other_values_are_the_same_equations_at_other_numbers(pendulum):
    longer = pendulum.with_values(l=2.0)
    assert longer.values == {"m": 2.0, "l": 2.0, "g": 9.81}
    assert longer.accelerations([1.0]) == pytest.approx([-9.81 / 2.0 * math.sin(1.0)])
    assert pendulum.values["l"] == 0.5
    given = ld.loads(PENDULUM, values={"g": 1.62})
    assert given.accelerations([1.0]) == pytest.approx([-1.62 / 0.5 * math.sin(1.0)])


def test_a_urdf_link_has_the_rigid_pendulums_equations(tmp_path):
    m, c, iyy = 1.5, 0.3, 0.02
    urdf = tmp_path / "link.urdf"
    urdf.write_text(
        f"""<robot name="link">
  <link name="base"/>
  <link name="arm">
    <inertial><origin xyz="{c} 0 0"/><mass value="{m}"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="{iyy}" iyz="0" izz="0.01"/></inertial>
  </link>
  <joint name="hinge" type="continuous">
    <parent link="base"/><child link="arm"/><axis xyz="0 1 0"/>
  </joint>
</robot>"""
    )
    robot = ld.load_urdf(urdf)
    assert robot.coordinates == ["hinge"]
    for q in [0.0, 0.7, -2.0]:
        assert robot.mass_matrix([q]) == pytest.approx(np.array([[iyy + m * c * c]]), rel=1e-14)
        # Gravity along -z; turning about +y lowers the point (c, 0, 0) by c sin q.
        assert robot.forcing([q]) == pytest.approx([m * 9.81 * c * math.cos(q)], rel=1e-14)


def test_a_mistake_in_a_model_names_its_file_and_line():
    broken = PENDULUM.replace('potential = "-m*g*l*cos(theta)"', 'potential = "-m*g*l*cos(theta"')
    with pytest.raises(ld.LagrangeError, match=r"^mine\.toml:7:\d+: "):
        ld.loads(broken, name="mine.toml")
    with pytest.raises(ld.LagrangeError, match=r"^mine\.toml:\d+:\d+: .*unknown field"):
        ld.loads(PENDULUM + "\nbogus = 1\n", name="mine.toml")
    with pytest.raises(ld.LagrangeError, match="cannot read"):
        ld.load("/nonexistent/model.toml")
    assert issubclass(ld.LagrangeError, ValueError)


def test_values_are_checked_as_the_files_are(pendulum):
    with pytest.raises(ld.LagrangeError, match=r"values=: `mass` is not a parameter of `Pendulum`"):
        ld.loads(PENDULUM, values={"mass": 1.0})
    with pytest.raises(ld.LagrangeError, match="finite"):
        pendulum.with_values(l=float("nan"))
    missing = PENDULUM.replace("g = 9.81\n", "")
    with pytest.raises(ld.LagrangeError, match="no value for the parameter `g`"):
        ld.loads(missing)
    assert ld.loads(missing, values={"g": 9.81}).values["g"] == 9.81


def test_a_negative_mass_is_refused():
    particle = """
[model]
name = "Falling"
coordinates = ["y"]
parameters = ["m", "g"]
potential = "m*g*y"

[[model.particle]]
name = "p"
mass = "m"
position = ["0", "y"]

[values]
m = 1.0
g = 9.81
"""
    falling = ld.loads(particle)
    with pytest.raises(ld.LagrangeError, match=r"m = -1 in values="):
        falling.with_values(m=-1.0)
    with pytest.raises(ld.LagrangeError, match=r"m = -2"):
        ld.loads(particle, values={"m": -2.0})


def test_wrong_shapes_are_refused_with_the_expected_shape(double):
    with pytest.raises(ValueError, match=r"q has shape \[3\]: expected \(2,\)"):
        double.accelerations([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="same shape"):
        double.accelerations(np.zeros((4, 2)), np.zeros((3, 2)))
    with pytest.raises(ValueError, match="shape"):
        double.mass_matrix(np.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match="qdd has 1 row"):
        double.inverse_dynamics(np.zeros((3, 2)), np.zeros((3, 2)), np.zeros(2))
    with pytest.raises(ld.LagrangeError, match="q0 has 3 values"):
        double.simulate(t_end=1.0, q0=[0.0, 0.0, 0.0])
    with pytest.raises(ld.LagrangeError, match="unknown integrator `euler`"):
        double.simulate(t_end=1.0, integrator="euler")


def test_the_files_events_act_as_in_the_command():
    # Dropped from 1 m, bouncing back with e = 0.8 of its speed: it reaches the floor at
    # t1 = sqrt(2h/g), then each flight lasts e times the one before, 2 e^k sqrt(2h/g).
    ball = ld.load(REPOSITORY / "examples" / "models" / "bouncing_ball.toml")
    run = ball.simulate(t_end=2.0, tolerance=1e-12)
    floors = [t for name, t in run["events"] if name == "floor"]
    fall = math.sqrt(2 * 1.0 / 9.81)
    expected = [fall, fall + 2 * 0.8 * fall, fall + 2 * 0.8 * fall + 2 * 0.64 * fall]
    assert floors[:3] == pytest.approx(expected, rel=1e-9)
    apexes = [t for name, t in run["events"] if name == "apex"]
    assert apexes[0] == pytest.approx(fall + 0.8 * fall, rel=1e-9)


CART = """
[model]
name = "Cart"
coordinates = ["x"]
parameters = ["m", "u"]
inputs = ["u"]
kinetic = "1/2*m*dot(x)^2"
force = { x = "u" }

[values]
m = 2.0
u = 0.0

[initial]
q = { x = 0.5 }
"""


def test_an_input_follows_a_python_callable():
    # u = -k x makes a harmonic oscillator: x = x0 cos(sqrt(k/m) t).
    cart = ld.loads(CART)
    k, m = 8.0, 2.0
    calls = []

    def spring(t, q, qd):
        calls.append(t)
        return -k * q[0]

    run = cart.simulate(t_end=3.0, tolerance=1e-12, inputs={"u": spring})
    w = math.sqrt(k / m)
    assert np.allclose(run["q"][:, 0], 0.5 * np.cos(w * run["t"]), atol=1e-8)
    assert len(calls) > 100
    # Without it the input keeps its value: no force, the cart stays.
    still = cart.simulate(t_end=1.0)
    assert np.all(still["q"][:, 0] == 0.5)


def test_an_input_follows_a_signal_given_as_text():
    # The same spring, as the file's `[inputs]` would write it; given ones replace the
    # file's own signal.
    pushed = ld.loads(CART.replace("u = 0.0", "") + '\n[inputs]\nu = "1"\n')
    run = pushed.simulate(t_end=3.0, tolerance=1e-12, inputs={"u": "-8*x"})
    assert np.allclose(run["q"][:, 0], 0.5 * np.cos(2.0 * run["t"]), atol=1e-8)
    # Without it, the file's signal: a constant force 1 on the mass 2, x = 0.5 + t²/4.
    run = pushed.simulate(t_end=1.0, tolerance=1e-12)
    assert np.allclose(run["q"][:, 0], 0.5 + run["t"] ** 2 / 4, atol=1e-10)
    with pytest.raises(ld.LagrangeError, match="the signal of input `u`"):
        pushed.simulate(t_end=1.0, inputs={"u": "-8*x +"})
    with pytest.raises(ld.LagrangeError, match="the signal of input `u`"):
        pushed.simulate(t_end=1.0, inputs={"u": "2*u"})
    with pytest.raises(ld.LagrangeError, match="not by a float"):
        pushed.simulate(t_end=1.0, inputs={"u": 3.0})


def test_a_callables_exception_stops_the_run_and_is_raised():
    cart = ld.loads(CART)

    def broken(t, q, qd):
        if t > 0.5:
            raise ZeroDivisionError("the controller divided by zero")
        return 1.0

    with pytest.raises(ZeroDivisionError, match="the controller divided by zero"):
        cart.simulate(t_end=1.0, inputs={"u": broken})
    with pytest.raises(ld.LagrangeError, match="`m` is not an input of `Cart` \\(its inputs: u\\)"):
        cart.simulate(t_end=1.0, inputs={"m": broken})
    with pytest.raises(TypeError):
        cart.simulate(t_end=1.0, inputs={"u": lambda t, q, qd: "fast"})
    # A name is shown escaped: it cannot forge a line of its own in the message.
    with pytest.raises(ld.LagrangeError, match="is not an input") as caught:
        cart.simulate(t_end=1.0, inputs={"u\nerror: forged": broken})
    assert "\n" not in str(caught.value)


def test_a_signal_or_event_that_cannot_be_evaluated_is_refused_by_name():
    ball = (REPOSITORY / "examples/models/bouncing_ball.toml").read_text()
    assert 'when = "y"' in ball
    broken = ld.loads(ball.replace('when = "y"', 'when = "y + 1/0"'), name="ball.toml")
    with pytest.raises(ld.LagrangeError, match="not a finite number"):
        broken.simulate(t_end=1.0)
    cart = ld.loads(CART)
    for signal in ["1/0", "0/0", "log(0)", "sqrt(-1)", "2^2000", "x/0"]:
        with pytest.raises(ld.LagrangeError, match="not a finite number"):
            cart.simulate(t_end=1.0, inputs={"u": signal})


def test_a_file_name_is_shown_escaped_in_every_message():
    forged = ld.loads(CART, name="cart\n\x1b[31mred.toml")
    for call in [
        lambda: forged.simulate(t_end=-1.0),
        lambda: forged.simulate(t_end=1.0, reduced=True),
        lambda: forged.connect([1.0], time=1e-300),
    ]:
        with pytest.raises(ld.LagrangeError) as caught:
            call()
        message = str(caught.value)
        assert "cart\\n\\u{1b}[31mred.toml" in message, message
        assert "\n" not in message and "\x1b" not in message


def test_complex_and_missing_states_are_refused():
    cart = ld.loads(CART)
    with pytest.raises(TypeError, match="complex"):
        cart.accelerations(np.array([1.0 + 1.0j]))
    with pytest.raises(TypeError, match="not None"):
        cart.accelerations(None)


def test_threads_share_a_model(double):
    rng = np.random.default_rng(4)
    q = rng.uniform(-3, 3, size=(2000, 2))
    expected = double.accelerations(q, q)
    results = [None] * 4

    def work(k):
        results[k] = double.accelerations(q, q)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(np.array_equal(r, expected) for r in results)


def test_the_package_carries_symbolicas_license_and_says_runtime_rights_are_not_included():
    assert "Runtime rights to symbolica are not included" in ld.RUNTIME_RIGHTS
    files = [str(f) for f in metadata.files("lagrange-dynamics") or []]
    license_files = [f for f in files if f.endswith("symbolica-License.md")]
    assert license_files, files
    text = metadata.distribution("lagrange-dynamics").locate_file(license_files[0]).read_text()
    assert text.startswith("# Symbolica Source-Available License")


def test_a_model_written_as_a_dict_is_the_files_model(pendulum):
    spec = {
        "name": "Pendulum",
        "coordinates": ["theta"],
        "parameters": ["m", "l", "g"],
        "kinetic": "1/2*m*l^2*dot(theta)^2",
        "potential": "-m*g*l*cos(theta)",
        "values": {"m": 2.0, "l": 0.5, "g": 9.81},
        "initial": {"q": {"theta": 1.0}},
    }
    written = ld.from_dict(spec)
    q = np.random.default_rng(6).uniform(-3, 3, size=(20, 1))
    assert np.array_equal(written.accelerations(q, q), pendulum.accelerations(q, q))
    assert written.initial == pendulum.initial
    tables = {"model": {k: spec[k] for k in spec if k not in ("values", "initial")},
              "values": spec["values"], "initial": spec["initial"]}
    assert ld.to_toml(tables) == ld.to_toml(spec)
    # Bodies and particles as lists of dicts.
    falling = ld.from_dict({
        "name": "Falling", "coordinates": ["y"], "parameters": ["m", "g"],
        "potential": "m*g*y",
        "particle": [{"name": "p", "mass": "m", "position": ["0", "y"]}],
        "values": {"m": 1.0, "g": 9.81},
    })
    assert falling.accelerations([3.0]) == pytest.approx([-9.81])


def test_a_dict_takes_numpys_numbers_a_list_of_inputs_and_any_character():
    # NumPy's scalars are numbers; a flat dict's `inputs` list is the model's inputs (a
    # dict would be the `[inputs]` table of signals); a character past the basic plane
    # reaches the reader as itself (not as a surrogate pair TOML refuses).
    spec = {
        "name": "Cart", "coordinates": ["x"], "parameters": ["m", "u"], "inputs": ["u"],
        "kinetic": "1/2*m*dot(x)^2", "force": {"x": "u"},
        "values": {"m": np.float64(2.0), "u": np.int64(3)},
        "draw": [{"point": "cart", "at": ["x", "0"]}],
    }
    cart = ld.from_dict(spec)
    assert cart.info["inputs"] == ["u"]
    assert cart.values == {"m": 2.0, "u": 3.0}
    assert cart.accelerations([0.0]) == pytest.approx([1.5])
    assert ld.from_dict({**spec, "values": {"m": np.float32(0.5), "u": 1}}).values["m"] == 0.5
    with pytest.raises(ld.LagrangeError, match="`cart \U0001F6D2` cannot name a drawn point"):
        ld.from_dict({**spec, "draw": [{"point": "cart \U0001F6D2", "at": ["x", "0"]}]})
    with pytest.raises(TypeError, match="`draw` is a list of tables"):
        ld.from_dict({**spec, "draw": {"point": "p"}})


def test_a_mistake_in_a_dict_names_its_key():
    spec = {
        "name": "Bad", "coordinates": ["x"], "parameters": ["k"],
        "kinetic": "1/2*dot(x)^2", "potential": "1/2*k*x^2 + \"\n[values]\nk = 1",
        "values": {"k": 1.0},
    }
    with pytest.raises(ld.LagrangeError, match=r"potential"):
        ld.from_dict(spec)
    with pytest.raises(TypeError, match="not set"):
        ld.from_dict({**spec, "potential": {1, 2}})
    with pytest.raises(TypeError, match="keys are strings"):
        ld.from_dict({**spec, "values": {1: 2.0}})

"""Linearization, equilibria and the report against closed forms: the pendulum's
small-oscillation frequency, the cart-pole's textbook linearization at the upright, the
double pendulum's equilibria."""

import math
from pathlib import Path

import numpy as np
import pytest

import lagrange_dynamics as ld

REPOSITORY = Path(__file__).resolve().parents[2]

CART_POLE = """
[model]
name = "CartPole"
coordinates = ["x", "theta"]
parameters = ["M", "m", "l", "g", "u"]
inputs = ["u"]
kinetic = "1/2*(M + m)*dot(x)^2 + m*l*cos(theta)*dot(x)*dot(theta) + 1/2*m*l^2*dot(theta)^2"
potential = "m*g*l*cos(theta)"
force = { x = "u" }

[values]
M = 1.0
m = 0.1
l = 0.5
g = 9.81
u = 0.0
"""

PENDULUM = """
[model]
name = "Pendulum"
coordinates = ["theta"]
parameters = ["l", "g"]
kinetic = "1/2*l^2*dot(theta)^2"
potential = "-g*l*cos(theta)"

[values]
l = 0.8
g = 9.81

[initial]
q = { theta = 0.4 }

[simulation]
t_end = 2.0
"""


def test_a_pendulum_linearized_oscillates_below_and_falls_from_above():
    pendulum = ld.loads(PENDULUM)
    w2 = 9.81 / 0.8
    below = pendulum.linearize([0.0])
    assert np.allclose(below["A"], [[0.0, 1.0], [-w2, 0.0]], rtol=1e-14, atol=0)
    assert below["B"].shape == (2, 0) and np.array_equal(below["rate"], [0.0, 0.0])
    assert np.allclose(sorted(np.linalg.eigvals(below["A"]).imag), [-math.sqrt(w2), math.sqrt(w2)])
    above = pendulum.linearize([math.pi])
    assert above["A"][1, 0] == pytest.approx(w2, rel=1e-14)


def test_the_cart_pole_has_its_textbook_linearization_at_the_upright():
    M, m, l, g = 1.0, 0.1, 0.5, 9.81
    cart_pole = ld.loads(CART_POLE)
    assert cart_pole.info["inputs"] == ["u"]
    linear = cart_pole.linearize([0.0, 0.0])
    a, b = linear["A"], linear["B"]
    expected_a = np.array(
        [[0, 0, 1, 0], [0, 0, 0, 1], [0, -m * g / M, 0, 0], [0, (M + m) * g / (M * l), 0, 0]]
    )
    assert np.allclose(a, expected_a, rtol=1e-14, atol=1e-15)
    assert np.allclose(b[:, 0], [0, 0, 1 / M, -1 / (M * l)], rtol=1e-14, atol=1e-15)


def test_equilibria_are_found_from_nearby_guesses():
    double = ld.load(REPOSITORY / "examples" / "models" / "double_pendulum.toml")
    assert np.allclose(double.equilibrium([0.3, -0.2]), [0.0, 0.0], atol=1e-12)
    assert np.allclose(double.equilibrium([3.0, 3.3]), [math.pi, math.pi], atol=1e-12)
    with pytest.raises(ld.LagrangeError, match="guess has 3 values"):
        double.equilibrium([0.0, 0.0, 0.0])
    with pytest.raises(ld.LagrangeError, match="q has 1 values"):
        double.linearize([0.0])


def test_the_report_is_the_commands_page(tmp_path):
    pendulum = ld.loads(PENDULUM)
    report = pendulum.report()
    assert isinstance(report, ld.Report)
    html = report.html
    assert html.lstrip().lower().startswith("<!doctype html")
    assert "Pendulum" in html and "<math" in html and "<svg" in html
    assert report._repr_html_() == html
    report.save(tmp_path / "pendulum.html")
    assert (tmp_path / "pendulum.html").read_text() == html
    with pytest.raises(ld.LagrangeError, match="cannot write"):
        report.save(tmp_path / "missing" / "pendulum.html")


def test_the_derivation_is_the_commands_with_rouths_reduction():
    # Thomson & Tait's central orbit: the angle is cyclic, and Routh's reduction ignores it.
    orbit = ld.load(REPOSITORY / "examples" / "models" / "central_orbit_routh.toml")
    text = orbit.derivation
    assert "Routh's reduction, ignoring" in text and "Routhian" in text
    latex = orbit.derivation_latex()
    assert latex.lstrip().startswith("\\documentclass") and "\\end{document}" in latex
    assert orbit.info["cyclic"] != []


def test_the_double_pendulums_normal_modes_are_the_textbooks():
    # Equal masses and lengths: omega^2 = (g/l)(2 -+ sqrt 2), shapes (1, +-sqrt 2).
    double = ld.load(REPOSITORY / "examples" / "models" / "double_pendulum.toml")
    modes = double.modes([0.0, 0.0])
    g = 9.81
    assert sorted(modes["omega_squared"]) == pytest.approx([g * (2 - math.sqrt(2)), g * (2 + math.sqrt(2))], rel=1e-12)
    for omega_squared, shape in zip(modes["omega_squared"], modes["shapes"]):
        ratio = shape[1] / shape[0]
        expected = math.sqrt(2) if omega_squared < g * 2 else -math.sqrt(2)
        assert ratio == pytest.approx(expected, rel=1e-12)
    with pytest.raises(ld.LagrangeError, match="equilibrium"):
        double.modes([0.5, 0.0])


def test_hamiltons_form_is_the_pendulums():
    pendulum = ld.loads(PENDULUM)
    l, g = 0.8, 9.81
    q, qd = 0.7, -1.3
    p = pendulum.momenta([q], [qd])
    assert p == pytest.approx([l * l * qd], rel=1e-15)
    assert pendulum.hamiltonian([q], p) == pytest.approx(p[0] ** 2 / (2 * l * l) - g * l * math.cos(q), rel=1e-14)
    qdot, pdot = pendulum.canonical([q], p)
    assert qdot == pytest.approx([qd], rel=1e-14)
    assert pdot == pytest.approx([-g * l * math.sin(q)], rel=1e-14)

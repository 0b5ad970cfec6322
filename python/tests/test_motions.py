"""Motions between two configurations, Routh's reduced system and the reactions of a
constrained model, against closed forms: the harmonic oscillator's motion in a given time
and its kinetic focus at half a period (Thomson & Tait §327), the Kepler orbit's conic
from the radial motion of Routh's reduction, the Cartesian pendulum's rod."""

import math
import re
from pathlib import Path

import numpy as np
import pytest

import lagrange_dynamics as ld

REPOSITORY = Path(__file__).resolve().parents[2]

# ω = √(k/m) = 2.
OSCILLATOR = """
[model]
name = "Oscillator"
coordinates = ["x"]
parameters = ["m", "k"]
kinetic = "1/2*m*dot(x)^2"
potential = "1/2*k*x^2"

[values]
m = 1.0
k = 4.0

[initial]
q = { x = 0.5 }
"""


@pytest.fixture(scope="module")
def oscillator():
    return ld.loads(OSCILLATOR, name="oscillator.toml")


def oscillator_motion(x0, x1, tau, omega=2.0, m=1.0):
    """The initial velocity and Hamilton's principal function of the oscillator's motion
    from x0 to x1 in the time tau."""
    s, c = math.sin(omega * tau), math.cos(omega * tau)
    v0 = omega * (x1 - x0 * c) / s
    principal = m * omega / (2 * s) * ((x0**2 + x1**2) * c - 2 * x0 * x1)
    return v0, principal


def test_in_a_time_short_of_the_focus_the_one_motion_is_least(oscillator):
    found = oscillator.connect([1.0], time=1.0)
    assert found["condition"] == "time" and found["coordinates"] == ["x"]
    assert found["from"] == [0.5], "the file's initial configuration is the start"
    (motion,) = found["motions"]
    v0, principal = oscillator_motion(0.5, 1.0, 1.0)
    assert motion["initial_velocity"][0] == pytest.approx(v0, rel=1e-8)
    assert motion["principal"] == pytest.approx(principal, rel=1e-8)
    assert motion["least"] and motion["foci"] == []
    # Hamilton's relations: ∂S/∂q₁ = p₁, as computed beside what they say.
    for relation in motion["relations"]:
        assert relation["computed"] == pytest.approx(relation["expected"], rel=1e-6, abs=1e-9)


def test_past_half_a_period_the_motion_is_stationary_with_its_focus(oscillator):
    # Every motion from x0 returns to −x0 at ωt = π: the kinetic focus at t = π/2.
    found = oscillator.connect([1.0], time=2.0, q0=[0.5])
    (motion,) = found["motions"]
    v0, principal = oscillator_motion(0.5, 1.0, 2.0)
    assert motion["initial_velocity"][0] == pytest.approx(v0, rel=1e-8)
    assert motion["principal"] == pytest.approx(principal, rel=1e-8)
    assert not motion["least"]
    (focus,) = motion["foci"]
    assert focus["time"] == pytest.approx(math.pi / 2, rel=1e-6)
    assert focus["multiplicity"] == 1


def test_at_an_energy_the_motions_have_it(oscillator):
    # E = 2: the amplitude is 1, so from 0.5 to 0.9 the oscillator goes directly (up)
    # or back through −1 first (down, then up).
    found = oscillator.connect([0.9], energy=2.0, q0=[0.5])
    assert found["condition"] == "energy" and found["value"] == 2.0
    motions = found["motions"]
    assert motions, "no motion at E = 2"
    for motion in motions:
        assert motion["energy"] == pytest.approx(2.0, rel=1e-8)
        speed = math.sqrt(2 * (2.0 - 2.0 * 0.5**2))
        assert abs(motion["initial_velocity"][0]) == pytest.approx(speed, rel=1e-6)
    direct = math.asin(0.9) / 2 - math.asin(0.5) / 2
    assert motions[0]["time"] == pytest.approx(direct, rel=1e-6)


def test_connect_refuses_what_it_cannot_do(oscillator):
    with pytest.raises(ld.LagrangeError, match="one of time= and energy="):
        oscillator.connect([1.0])
    with pytest.raises(ld.LagrangeError, match="one of time= and energy="):
        oscillator.connect([1.0], time=1.0, energy=1.0)
    with pytest.raises(ld.LagrangeError, match="q1"):
        oscillator.connect([1.0, 2.0], time=1.0)
    with pytest.raises(ld.LagrangeError):
        oscillator.connect([1.0], time=float("nan"))
    with pytest.raises(ld.LagrangeError):
        oscillator.connect([1.0], time=-1.0)
    with pytest.raises(ld.LagrangeError, match="steps"):
        oscillator.connect([1.0], time=1.0, steps=10**9)
    # An energy out of reach is echoed as a number, not as 301 digits.
    with pytest.raises(ld.LagrangeError, match="at energy 1e300") as caught:
        oscillator.connect([0.2], energy=1e300)
    assert not re.search(r"\d{20}", str(caught.value))
    ball = ld.load(REPOSITORY / "examples/models/bouncing_ball.toml")
    with pytest.raises(ld.LagrangeError, match=r"\[\[events\]\]"):
        ball.connect([1.0], time=1.0)


@pytest.fixture(scope="module")
def orbit():
    return ld.load(REPOSITORY / "examples/models/central_orbit_routh.toml")


def test_routhian_reduction_is_reported(orbit, oscillator):
    reduced = orbit.reduced
    assert reduced["ignored"] == ["phi"] and reduced["coordinates"] == ["r"]
    assert len(reduced["momenta"]) == 1
    assert "r" in reduced["equations"] and reduced["latex"]
    assert oscillator.reduced is None


def test_the_reduced_orbit_is_the_conic_of_its_momentum(orbit):
    # r = 1, ṙ = 0, φ̇ = 1.2 with m = k = 1: C = 1.2, the periapsis of the conic
    # r(φ) = p/(1 + e cos φ), p = C²/(m k) = 1.44, e = p − 1 = 0.44.
    run = orbit.simulate(t_end=20.0, reduced=True, tolerance=1e-12, dt=0.05)
    assert run["coordinates"] == ["r"]
    (name,) = run["momenta"]
    assert run["momenta"][name] == pytest.approx(1.2, rel=1e-15)
    r, phi = run["q"][:, 0], run["ignored"]["phi"]
    assert len(r) == len(run["t"]) == len(phi) > 300
    conic = 1.44 / (1 + 0.44 * np.cos(phi))
    assert np.max(np.abs(r - conic)) < 1e-8
    assert phi[-1] > 2 * math.pi, "the orbit went round"
    # The same motion as the full system's.
    full = orbit.simulate(t_end=20.0, tolerance=1e-12, dt=0.05)
    assert full["coordinates"] == ["r", "phi"] and "ignored" not in full
    np.testing.assert_allclose(full["t"], run["t"])
    np.testing.assert_allclose(full["q"][:, 1], phi, atol=1e-8)


def test_reduced_runs_are_refused_where_they_do_not_apply(oscillator):
    with pytest.raises(ld.LagrangeError, match="ignores coordinates"):
        oscillator.simulate(1.0, reduced=True)
    cart = ld.loads(
        OSCILLATOR.replace('coordinates = ["x"]', 'coordinates = ["x", "s"]')
        .replace('parameters = ["m", "k"]', 'parameters = ["m", "k", "u"]\ninputs = ["u"]\nignore = ["s"]')
        .replace("dot(x)^2\"", "dot(x)^2 + 1/2*dot(s)^2\"")
        .replace("k = 4.0", "k = 4.0\nu = 0.0")
        + '\n[model.force]\nx = "u"\n',
        name="cart.toml",
    )
    assert cart.reduced is not None
    with pytest.raises(ld.LagrangeError, match="neither inputs"):
        cart.simulate(1.0, reduced=True, inputs={"u": lambda t, q, qd: 1.0})


def test_the_report_of_a_constrained_model_plots_its_reactions():
    # Released from rest at θ₀ = 1 from the downward vertical, the rod pulls with
    # m g (3 cos θ − 2 cos θ₀): m g cos θ₀ at the release, m g (3 − 2 cos θ₀) at the bottom.
    rod = ld.load(REPOSITORY / "examples/models/cartesian_pendulum.toml")
    html = rod.report(t_end=1.0).html
    found = re.search(r"\|λ1 ∇G1\| ranges from (\S+) to (\S+) and", html)
    assert found, "no plot of the rod's reaction"
    low, high = (float(x) for x in found.groups())
    g = 9.81
    assert low == pytest.approx(g * math.cos(1.0), rel=1e-4)
    assert high == pytest.approx(g * (3 - 2 * math.cos(1.0)), rel=1e-4)
    free = ld.loads(OSCILLATOR, name="oscillator.toml").report(t_end=1.0).html
    assert "reaction of constraint" not in free

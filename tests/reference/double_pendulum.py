#!/usr/bin/env python3
"""High-precision reference solution for the planar double pendulum.

What it computes
----------------
Point masses on massless rods, absolute angles measured from the downward
vertical, with

    m1 = m2 = 1,  l1 = l2 = 1,  g = 9.81,
    theta1(0) = theta2(0) = pi/2,  w1(0) = w2(0) = 0,

integrated to t = 5.  The printed state (theta1, theta2, w1, w2) at t = 5 is
meant to be pasted into a Rust test of the `lagrange` project as the expected
value (`const REFERENCE_T5: [f64; 4]`).

Model
-----
    T = 1/2 (m1+m2) l1^2 w1^2 + m2 l1 l2 cos(th1-th2) w1 w2 + 1/2 m2 l2^2 w2^2
    V = -(m1+m2) g l1 cos(th1) - m2 g l2 cos(th2)

The Euler-Lagrange equations are M a = f with

    M = [[(m1+m2) l1^2,          m2 l1 l2 cos(th1-th2)],
         [m2 l1 l2 cos(th1-th2), m2 l2^2              ]]
    f1 = -m2 l1 l2 sin(th1-th2) w2^2 - (m1+m2) g l1 sin(th1)
    f2 =  m2 l1 l2 sin(th1-th2) w1^2 - m2 g l2 sin(th2)

solved for the angular accelerations a = (a1, a2) by Cramer's rule.  The
script does not take these equations on trust: at a few arbitrary states it
checks that they make the Euler-Lagrange residual
d/dt(dL/dw_i) - dL/dth_i vanish, with every partial derivative of L = T - V
taken by central finite differences of L itself (not of the closed form).

How
---
* Pure Python 3.11 standard library; all arithmetic in `decimal` with
  PREC = 50 significant digits (library functions use 10 guard digits).
* pi from Machin's formula pi = 16 atan(1/5) - 4 atan(1/239) (checked against
  a 60-digit literal and math.pi); sin/cos by reduction modulo 2*pi, then to
  [-pi/4, pi/4] by quadrant, then Taylor series (checked against
  math.sin/math.cos to 1e-15, and against sin^2 + cos^2 = 1).
* Integrator: Gragg-Bulirsch-Stoer, i.e. Richardson extrapolation of Gragg's
  modified midpoint rule, whose error expands in even powers of the substep.
  Fixed macro step H, substep counts n = 2, 4, ..., 2K (K = 8), Aitken-Neville
  extrapolation in h^2: a fixed-step one-step method of order 2K = 16.
* Convergence: the whole run is repeated with H = 1/160 and H/2 and the component-wise
  difference at t = 5 is printed (it must be < 1e-13; in practice it is many
  orders of magnitude smaller).  As an independent cross-check of the
  extrapolation code, classical RK4 with a small fixed step is also run and
  its (much larger, but small) deviation is printed.
* Energy E = T + V is printed at t = 0 and t = 5 together with its change.
* Sensitivity: the motion is chaotic, so an f64 code that starts from
  theta = (pi/2 rounded to f64) and g = (9.81 rounded to f64) follows a
  slightly different exact trajectory.  The script also integrates from those
  exactly-f64 inputs and prints how far that trajectory is from the reference
  at t = 5: no f64 integrator can be expected to match REFERENCE_T5 more
  closely than that, so a Rust test tolerance should sit well above it.

How to run
----------
From the repository root:

    python3 tests/reference/double_pendulum.py

It prints the state at t = 5 with 20 significant digits as a Rust line, the
convergence difference, energy change and the wall-clock runtime (about
20 s on one core of the machine it was written on; limit ~3 minutes).
"""

import math
import random
import sys
import time
from decimal import Decimal, localcontext, getcontext

PREC = 50      # working precision (significant digits)
GUARD = 10     # extra digits used inside pi/sin/cos

getcontext().prec = PREC
D = Decimal

# ---------------------------------------------------------------------------
# pi (Machin) and sin/cos for Decimal
# ---------------------------------------------------------------------------

PI_60 = "3.14159265358979323846264338327950288419716939937510582097494"


def _atan_inv(n):
    """atan(1/n) for integer n > 1 by its Taylor series, at current precision."""
    x = D(1) / n
    x2 = x * x
    term = x
    total = x
    k = 1
    eps = D(10) ** (-(getcontext().prec + 2))
    while True:
        term *= -x2
        k += 2
        t = term / k
        if abs(t) < eps:
            break
        total += t
    return total


with localcontext() as _ctx:
    _ctx.prec = PREC + GUARD
    PI_HI = 16 * _atan_inv(5) - 4 * _atan_inv(239)   # carried with guard digits
    TWO_PI_HI = 2 * PI_HI
    HALF_PI_HI = PI_HI / 2
PI = +PI_HI


def sincos(x):
    """(sin x, cos x) for Decimal x, correct to ~PREC digits."""
    with localcontext() as ctx:
        ctx.prec = PREC + GUARD
        x = +x
        # reduction modulo 2*pi into [-pi, pi]
        k = (x / TWO_PI_HI).to_integral_value()
        r = x - k * TWO_PI_HI
        # further reduction by quadrant into [-pi/4, pi/4]
        q = (r / HALF_PI_HI).to_integral_value()
        r = r - q * HALF_PI_HI
        q = int(q) % 4
        # Taylor series for sin r and cos r
        r2 = r * r
        eps = D(10) ** (-(PREC + GUARD + 2))
        s = term = r
        n = 1
        while abs(term) > eps:
            term = -term * r2 / ((n + 1) * (n + 2))
            n += 2
            s += term
        c = term = D(1)
        n = 0
        while abs(term) > eps:
            term = -term * r2 / ((n + 1) * (n + 2))
            n += 2
            c += term
        if q == 0:
            sn, cs = s, c
        elif q == 1:
            sn, cs = c, -s
        elif q == 2:
            sn, cs = -s, -c
        else:
            sn, cs = -c, s
    return +sn, +cs


def dsin(x):
    return sincos(x)[0]


def dcos(x):
    return sincos(x)[1]


def self_test_math():
    # pi
    assert abs(PI - D(PI_60)) < D(10) ** (-(PREC - 2)), "Machin pi is wrong"
    assert abs(float(PI) - math.pi) < 1e-15
    # sin/cos against the float library at a range of points (incl. large/negative)
    pts = [0.0, 1e-8, 0.3, -0.7, 1.0, 1.5707963267948966, 2.0, 3.0,
           3.141592653589793, -4.2, 5.5, 10.0, -25.0, 100.0, 1234.5678]
    for p in pts:
        s, c = sincos(D(p))      # D(p) is exactly the binary value of p
        assert abs(float(s) - math.sin(p)) < 1e-15, (p, s, math.sin(p))
        assert abs(float(c) - math.cos(p)) < 1e-15, (p, c, math.cos(p))
        assert abs(s * s + c * c - 1) < D(10) ** (-(PREC - 3))
    # high-precision identities: sin(pi/6) = 1/2, cos(pi/3) = 1/2, sin(pi) = 0
    tol = D(10) ** (-(PREC - 3))
    assert abs(dsin(PI_HI / 6) - D("0.5")) < tol
    assert abs(dcos(PI_HI / 3) - D("0.5")) < tol
    assert abs(dsin(PI_HI)) < tol
    assert abs(dcos(PI_HI / 2)) < tol


# ---------------------------------------------------------------------------
# The model
# ---------------------------------------------------------------------------

class Params:
    def __init__(self, m1, m2, l1, l2, g):
        self.m1, self.m2, self.l1, self.l2, self.g = m1, m2, l1, l2, g
        # constant coefficients
        self.M11 = (m1 + m2) * l1 * l1
        self.M12c = m2 * l1 * l2          # times cos(th1 - th2)
        self.M22 = m2 * l2 * l2
        self.G1 = (m1 + m2) * g * l1
        self.G2 = m2 * g * l2


def accelerations(p, th1, th2, w1, w2):
    """Angular accelerations from M a = f, by Cramer's rule."""
    s1, c1 = sincos(th1)
    s2, c2 = sincos(th2)
    s12 = s1 * c2 - c1 * s2             # sin(th1 - th2)
    c12 = c1 * c2 + s1 * s2             # cos(th1 - th2)
    m11 = p.M11
    m12 = p.M12c * c12
    m22 = p.M22
    f1 = -p.M12c * s12 * w2 * w2 - p.G1 * s1
    f2 = p.M12c * s12 * w1 * w1 - p.G2 * s2
    det = m11 * m22 - m12 * m12
    a1 = (f1 * m22 - m12 * f2) / det
    a2 = (m11 * f2 - m12 * f1) / det
    return a1, a2


def rhs(p, y):
    th1, th2, w1, w2 = y
    a1, a2 = accelerations(p, th1, th2, w1, w2)
    return (w1, w2, a1, a2)


def lagrangian(p, th1, th2, w1, w2):
    T = (D("0.5") * (p.m1 + p.m2) * p.l1 ** 2 * w1 * w1
         + p.m2 * p.l1 * p.l2 * dcos(th1 - th2) * w1 * w2
         + D("0.5") * p.m2 * p.l2 ** 2 * w2 * w2)
    V = -(p.m1 + p.m2) * p.g * p.l1 * dcos(th1) - p.m2 * p.g * p.l2 * dcos(th2)
    return T - V


def energy(p, y):
    th1, th2, w1, w2 = y
    T = (D("0.5") * (p.m1 + p.m2) * p.l1 ** 2 * w1 * w1
         + p.m2 * p.l1 * p.l2 * dcos(th1 - th2) * w1 * w2
         + D("0.5") * p.m2 * p.l2 ** 2 * w2 * w2)
    V = -(p.m1 + p.m2) * p.g * p.l1 * dcos(th1) - p.m2 * p.g * p.l2 * dcos(th2)
    return T + V


def verify_equations_of_motion(p, trials=4, seed=12345):
    """Check the closed-form EOM against the Euler-Lagrange equations of L,
    with all partial derivatives of L taken by central finite differences.

    d/dt(dL/dw_i) = sum_j d2L/(dw_i dth_j) w_j + sum_j d2L/(dw_i dw_j) a_j
    residual_i    = d/dt(dL/dw_i) - dL/dth_i   (must vanish)
    """
    rng = random.Random(seed)
    d1 = D("1e-15")   # step for first derivatives  (error ~ d1^2 ~ 1e-30)
    d2 = D("1e-12")   # step for second derivatives (error ~ d2^2 ~ 1e-24)
    worst = D(0)
    for _ in range(trials):
        y = [D(repr(rng.uniform(-3, 3))) for _ in range(2)] + \
            [D(repr(rng.uniform(-4, 4))) for _ in range(2)]
        a = accelerations(p, *y)

        def L(z):
            return lagrangian(p, *z)

        def shifted(z, i, h):
            z = list(z)
            z[i] += h
            return z

        def dL(z, i):  # first partial by central difference
            return (L(shifted(z, i, d1)) - L(shifted(z, i, -d1))) / (2 * d1)

        def d2L(z, i, j):  # mixed second partial by central differences
            pp = L(shifted(shifted(z, i, d2), j, d2))
            pm = L(shifted(shifted(z, i, d2), j, -d2))
            mp = L(shifted(shifted(z, i, -d2), j, d2))
            mm = L(shifted(shifted(z, i, -d2), j, -d2))
            return (pp - pm - mp + mm) / (4 * d2 * d2)

        # indices: 0 th1, 1 th2, 2 w1, 3 w2
        for i in range(2):
            wi = 2 + i
            ddt = (d2L(y, wi, 0) * y[2] + d2L(y, wi, 1) * y[3]
                   + d2L(y, wi, 2) * a[0] + d2L(y, wi, 3) * a[1])
            res = abs(ddt - dL(y, i))
            worst = max(worst, res)
    assert worst < D("1e-15"), f"EOM do not satisfy Euler-Lagrange: {worst}"
    return worst


# ---------------------------------------------------------------------------
# Integrators
# ---------------------------------------------------------------------------

def _axpy(y, h, f):
    return tuple(yi + h * fi for yi, fi in zip(y, f))


def modified_midpoint(p, y0, f0, H, n):
    """Gragg's modified midpoint rule with n substeps over H (f0 = f(y0))."""
    h = H / n
    z_prev = y0
    z = _axpy(y0, h, f0)
    two_h = 2 * h
    for _ in range(n - 1):
        z_prev, z = z, _axpy(z_prev, two_h, rhs(p, z))
    fz = rhs(p, z)
    # Gragg smoothing step
    return tuple((a + b + h * c) / 2 for a, b, c in zip(z, z_prev, fz))


def gbs_step(p, y0, H, K):
    """One extrapolated step of order 2K (Aitken-Neville in h^2)."""
    f0 = rhs(p, y0)
    ns = [2 * (j + 1) for j in range(K)]
    T = []  # T[j][k]
    for j, n in enumerate(ns):
        row = [modified_midpoint(p, y0, f0, H, n)]
        for k in range(1, j + 1):
            ratio = D(ns[j] * ns[j]) / D(ns[j - k] * ns[j - k]) - 1
            row.append(tuple(a + (a - b) / ratio
                             for a, b in zip(row[k - 1], T[j - 1][k - 1])))
        T.append(row)
    return T[-1][-1]


def integrate_gbs(p, y0, t_end, steps, K=8):
    H = D(t_end) / steps
    y = y0
    for _ in range(steps):
        y = gbs_step(p, y, H, K)
    return y


def integrate_rk4(p, y0, t_end, steps):
    h = D(t_end) / steps
    half = h / 2
    sixth = h / 6
    y = y0
    for _ in range(steps):
        k1 = rhs(p, y)
        k2 = rhs(p, _axpy(y, half, k1))
        k3 = rhs(p, _axpy(y, half, k2))
        k4 = rhs(p, _axpy(y, h, k3))
        y = tuple(yi + sixth * (a + 2 * b + 2 * c + d)
                  for yi, a, b, c, d in zip(y, k1, k2, k3, k4))
    return y


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

def fmt20(x):
    """20 significant digits, Rust float literal syntax."""
    return f"{x:.19e}".replace("e+", "e")


def main():
    t_start = time.perf_counter()
    self_test_math()

    T_END = 5
    STEPS_COARSE = 800       # H = 0.00625
    STEPS_FINE = 1600        # H = 0.003125
    K = 8                    # order 16
    RK4_STEPS = 4000         # h = 1.25e-3, cross-check only

    exact = Params(D(1), D(1), D(1), D(1), D("9.81"))
    eom_residual = verify_equations_of_motion(exact)

    half_pi = PI_HI / 2
    y0 = (+half_pi, +half_pi, D(0), D(0))

    t0 = time.perf_counter()
    y_coarse = integrate_gbs(exact, y0, T_END, STEPS_COARSE, K)
    t1 = time.perf_counter()
    y_fine = integrate_gbs(exact, y0, T_END, STEPS_FINE, K)
    t2 = time.perf_counter()
    y_rk4 = integrate_rk4(exact, y0, T_END, RK4_STEPS)
    t3 = time.perf_counter()

    # the same problem with inputs exactly as an f64 program sees them
    f64 = Params(D(1), D(1), D(1), D(1), D(9.81))     # D(float) is exact
    hp64 = D(math.pi / 2)
    y_f64 = integrate_gbs(f64, (hp64, hp64, D(0), D(0)), T_END, STEPS_FINE, K)

    conv = [abs(a - b) for a, b in zip(y_fine, y_coarse)]
    rk4_dev = [abs(a - b) for a, b in zip(y_rk4, y_fine)]
    f64_dev = [abs(a - b) for a, b in zip(y_f64, y_fine)]
    assert max(conv) < D("1e-13"), f"not converged: {conv}"

    E0 = energy(exact, y0)
    E5 = energy(exact, y_fine)
    runtime = time.perf_counter() - t_start

    names = ["theta1", "theta2", "w1", "w2"]
    print("Double pendulum m1=m2=1, l1=l2=1, g=9.81, theta1=theta2=pi/2, w=0; t = 5")
    print(f"Decimal precision: {PREC} digits; pi = {+PI_HI:.45f}...")
    print("sin/cos self-test vs math.sin/math.cos: passed (|diff| < 1e-15)")
    print(f"EOM vs finite-difference Euler-Lagrange residual (max): {float(eom_residual):.3e}")
    print(f"Integrator: GBS extrapolated midpoint, order {2 * K}, "
          f"H = {T_END / STEPS_COARSE} and H = {T_END / STEPS_FINE}")
    print()
    print("State at t = 5 (H = %g):" % (T_END / STEPS_FINE))
    for n, v in zip(names, y_fine):
        print(f"  {n:7s}= {v:.30e}")
    print()
    print("const REFERENCE_T5: [f64; 4] = [%s];" % ", ".join(fmt20(v) for v in y_fine))
    print("// shortest round-trip f64 literals (same f64 values, no clippy::excessive_precision):")
    print("// [%s]" % ", ".join(repr(float(v)) for v in y_fine))
    print()
    print("Convergence |y(H=%g) - y(H=%g)| at t = 5:" % (T_END / STEPS_COARSE, T_END / STEPS_FINE))
    for n, v in zip(names, conv):
        print(f"  {n:7s}: {float(v):.3e}")
    print(f"  max    : {float(max(conv)):.3e}  (< 1e-13 required: OK)")
    print(f"Cross-check: |RK4(h={T_END / RK4_STEPS:g}) - GBS| max = {float(max(rk4_dev)):.3e}")
    print("Sensitivity: |y(f64-rounded pi/2 and 9.81) - y(exact inputs)| at t = 5:")
    print("  " + ", ".join(f"{n}: {float(v):.3e}" for n, v in zip(names, f64_dev)))
    print()
    print(f"Energy E(0) = {float(E0):.6e}")
    print(f"Energy E(5) = {float(E5):.6e}")
    print(f"Energy change E(5) - E(0) = {float(E5 - E0):.3e}")
    print()
    print(f"Runtime: total {runtime:.1f} s (GBS H={T_END / STEPS_COARSE:g}: {t1 - t0:.1f} s, "
          f"GBS H={T_END / STEPS_FINE:g}: {t2 - t1:.1f} s, RK4 cross-check: {t3 - t2:.1f} s), "
          f"Python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()

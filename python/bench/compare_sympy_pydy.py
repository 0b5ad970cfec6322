"""lagrange_dynamics against SymPy (sympy.physics.mechanics) and PyDy, side by side.

Models: the n-link planar pendulum on a cart (a cart of mass M on a horizontal rail, n
point masses m_i on massless rods l_i hanging from it, absolute angles from the downward
vertical, gravity g; each link its own m_i and l_i, the same values for every tool), and
the Whipple bicycle of Meijaard et al. (2007) with the benchmark's parameters
(examples/models/bicycle.toml).

Tools and what is timed:
  lagrange   `load`/`loads` + first `accelerations` (cold: LAGRANGE_CACHE=off, derives with
             the engine; warm: read from the derivation cache, here a temporary
             LAGRANGE_CACHE_DIR), then `model.accelerations(q, qd)` per call from Python and
             per state in a batch `model.accelerations(Q, QD)`, Q of shape (m, n).
  SymPy      KanesMethod (and LagrangesMethod for the cart pendulum): time to form the
             equations, `lambdify(..., cse=True)` of the mass matrix and forcing, then per
             evaluation M, f = fun(q, u, p); numpy.linalg.solve(M, f). The batch column is
             the same lambdified expressions evaluated on NumPy arrays of states (broadcast)
             and a stacked numpy.linalg.solve.
  PyDy       pydy.codegen.ode_function_generators.generate_ode_function from the KanesMethod
             equations, generators `lambdify` and `cython` (the cython one in its own process
             with a time limit): generation (and compile) time, then per call rhs(x, t, p).

Every tool is run in a fresh subprocess of this script (`--worker ...`), one after the
other, so that the timings do not overlap. Each timing loop is the best of several repeats
(each repeat long enough to be well above the timer's resolution), because the machine may
be busy with other work.

Agreement: at one random state per model (for the bicycle a state satisfying the rolling
and contact constraints: theta from the holonomic constraint, the dependent speeds from the
velocity constraints), the accelerations of every tool are compared with lagrange's.

    /tmp/venv/bin/python python/bench/compare_sympy_pydy.py --n 5 10 20 --out results.md
    /tmp/venv/bin/python python/bench/compare_sympy_pydy.py --quick --n 5 --skip-cython
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parents[1]
BICYCLE_TOML = REPOSITORY / "examples" / "models" / "bicycle.toml"
BATCH = 10_000
TOL = 1e-9


# --------------------------------------------------------------------------------------
# Timing


def best_per_call(fn, quick=False):
    """Seconds per call of fn(): the best over several repeats of a loop."""
    fn()
    target = 0.05 if quick else 0.25
    repeats = 3 if quick else 7
    number = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        dt = time.perf_counter() - t0
        if dt >= target or number >= 1 << 24:
            break
        number = max(number * 2, int(number * target / max(dt, 1e-9) * 1.2))
    best = dt / number
    for _ in range(repeats - 1):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


# --------------------------------------------------------------------------------------
# The n-link cart pendulum: values, the lagrange model file, the SymPy model


def cart_values(n):
    values = {"M": 2.0, "g": 9.81}
    for i in range(1, n + 1):
        values[f"m{i}"] = 0.5 + 0.1 * i
        values[f"l{i}"] = 0.3 + 0.05 * i
    return values


def cart_parameters(n):
    return ["M"] + [f"m{i}" for i in range(1, n + 1)] + [f"l{i}" for i in range(1, n + 1)] + ["g"]


def cart_toml(n):
    """The lagrange model file: T and V written out, bob i at
    (x + sum_{j<=i} l_j sin(theta_j), -sum_{j<=i} l_j cos(theta_j))."""
    coords = ["x"] + [f"theta{i}" for i in range(1, n + 1)]
    kinetic = ["1/2*M*dot(x)^2"]
    potential = []
    for i in range(1, n + 1):
        vx = " + ".join(["dot(x)"] + [f"l{j}*cos(theta{j})*dot(theta{j})" for j in range(1, i + 1)])
        vy = " + ".join(f"l{j}*sin(theta{j})*dot(theta{j})" for j in range(1, i + 1))
        kinetic.append(f"1/2*m{i}*(({vx})^2 + ({vy})^2)")
        height = " + ".join(f"l{j}*cos(theta{j})" for j in range(1, i + 1))
        potential.append(f"m{i}*({height})")
    values = "\n".join(f"{k} = {v!r}" for k, v in cart_values(n).items())
    q0 = ", ".join(f"{c} = 0.0" for c in coords)
    return f"""[model]
name = "CartPendulum{n}"
coordinates = {json.dumps(coords)}
parameters = {json.dumps(cart_parameters(n))}
kinetic = "{' + '.join(kinetic)}"
potential = "-g*({' + '.join(potential)})"

[values]
{values}

[initial]
q = {{ {q0} }}
"""


def sympy_cart(n, method):
    """The cart pendulum in sympy.physics.mechanics: KanesMethod with u_i = q_i' or
    LagrangesMethod. Returns (q, u, params, M, f) with M u' = f (M qdd = f)."""
    import sympy as sm
    import sympy.physics.mechanics as me

    x = me.dynamicsymbols("x")
    th = me.dynamicsymbols(f"theta1:{n + 1}")
    q = [x] + list(th)
    u = me.dynamicsymbols(f"u0:{n + 1}")
    Mc = sm.Symbol("M")
    m = sm.symbols(f"m1:{n + 1}")
    l = sm.symbols(f"l1:{n + 1}")
    g = sm.Symbol("g")
    params = [Mc] + list(m) + list(l) + [g]
    N = me.ReferenceFrame("N")
    O = me.Point("O")
    O.set_vel(N, 0)
    cart = O.locatenew("C", x * N.x)
    cart.set_vel(N, x.diff() * N.x)
    particles = [me.Particle("cart", cart, Mc)]
    P = cart
    for i in range(n):
        Pi = P.locatenew(f"P{i + 1}", l[i] * sm.sin(th[i]) * N.x - l[i] * sm.cos(th[i]) * N.y)
        Pi.set_vel(N, Pi.pos_from(O).dt(N))
        particles.append(me.Particle(f"bob{i + 1}", Pi, m[i]))
        P = Pi
    if method == "kane":
        kd = [qi.diff() - ui for qi, ui in zip(q, u)]
        loads = [(p.point, -p.mass * g * N.y) for p in particles]
        kane = me.KanesMethod(N, q_ind=q, u_ind=u, kd_eqs=kd)
        kane.kanes_equations(particles, loads)
        return q, u, params, kane.mass_matrix, kane.forcing, kane
    for p in particles:
        p.potential_energy = p.mass * g * p.point.pos_from(O).dot(N.y)
    lm = me.LagrangesMethod(me.Lagrangian(N, *particles), q)
    lm.form_lagranges_equations()
    qd = [qi.diff() for qi in q]
    return q, qd, params, lm.mass_matrix, lm.forcing, lm


# --------------------------------------------------------------------------------------
# The Whipple bicycle in SymPy, with the coordinates of examples/models/bicycle.toml


def bicycle_values():
    import tomllib

    with open(BICYCLE_TOML, "rb") as f:
        data = tomllib.load(f)
    return data["model"]["parameters"], data["values"]


def sympy_bicycle():
    """The Whipple bicycle (Meijaard et al. 2007) by Kane's method with nonholonomic rolling
    constraints, written here with the coordinates and axes of examples/models/bicycle.toml so
    that the accelerations compare one to one: x forward, y left, z up; (x, y) the rear
    contact point in the ground, psi yaw, phi roll, theta the rear frame's pitch about the
    rear axle, delta the steer (about the steer axis pointing down), thetaR and thetaF the
    wheels' angles (thetaR relative to the leaning frame, thetaF to the front frame). The
    generalized speeds are the coordinates' rates, u_i = q_i'. The independent speeds are
    phi', delta', thetaR'; x', y', psi', theta', thetaF' are dependent through five velocity
    constraints: the rear wheel's contact point has no horizontal velocity (two) and the
    front wheel's material contact point has no velocity at all (three: two nonholonomic,
    and the time derivative of the holonomic ground-contact constraint).

    Returns a dict of the symbols, the equations and numeric helpers."""
    import sympy as sm
    import sympy.physics.mechanics as me

    names, values = bicycle_values()
    P = {name: sm.Symbol(name) for name in names}
    w, c, lam, g = P["w"], P["c"], P["lambda"], P["g"]
    rR, mR, IRxx, IRyy = P["rR"], P["mR"], P["IRxx"], P["IRyy"]
    xB, zB, mB = P["xB"], P["zB"], P["mB"]
    xH, zH, mH = P["xH"], P["zH"], P["mH"]
    rF, mF, IFxx, IFyy = P["rF"], P["mF"], P["IFxx"], P["IFyy"]

    coords = ["x", "y", "psi", "phi", "theta", "delta", "thetaR", "thetaF"]
    q = me.dynamicsymbols(" ".join(coords))
    u = me.dynamicsymbols(" ".join("u_" + c_ for c_ in coords))
    x, y, psi, phi, theta, delta, thR, thF = q
    ux, uy, upsi, uphi, utheta, udelta, uthR, uthF = u

    N = me.ReferenceFrame("N")
    A = N.orientnew("A", "Axis", [psi, N.z])  # heading
    B = A.orientnew("B", "Axis", [phi, A.x])  # leaning
    Rw = B.orientnew("Rw", "Axis", [thR, B.y])  # rear wheel, relative to the leaning frame
    C = B.orientnew("C", "Axis", [theta, B.y])  # rear frame and rider
    E = C.orientnew("E", "Axis", [-lam, C.y])  # steer axis along E.z (up and back)
    D = E.orientnew("D", "Axis", [-delta, E.z])  # steered by delta about -E.z
    H = D.orientnew("H", "Axis", [lam, D.y])  # front frame (C's axes at delta = 0)
    Fw = H.orientnew("Fw", "Axis", [thF, H.y])  # front wheel
    # Angular velocities by the coordinates' rates, then the rates replaced by u.
    qd_to_u = {qi.diff(): ui for qi, ui in zip(q, u)}
    for frame in (A, B, Rw, C, E, D, H, Fw):
        frame.set_ang_vel(N, frame.ang_vel_in(N).subs(qd_to_u))

    O = me.Point("O")
    O.set_vel(N, 0)
    contactR = O.locatenew("contactR", x * N.x + y * N.y)
    contactR.set_vel(N, ux * N.x + uy * N.y)
    Ro = contactR.locatenew("Ro", rR * B.z)  # rear axle
    Ro.v2pt_theory(contactR, N, B)
    Bo = Ro.locatenew("Bo", xB * C.x + (-zB - rR) * C.z)  # rear frame's mass centre
    Bo.v2pt_theory(Ro, N, C)
    S = Ro.locatenew("S", (w + c) * C.x - rR * C.z)  # steer axis at the ground (delta=theta=0)
    S.v2pt_theory(Ro, N, C)
    Ho = S.locatenew("Ho", (xH - w - c) * H.x - zH * H.z)  # front frame's mass centre
    Ho.v2pt_theory(S, N, H)
    Fo = S.locatenew("Fo", -c * H.x + rF * H.z)  # front axle
    Fo.v2pt_theory(S, N, H)

    # The front contact: from the axle, rF along the wheel plane's steepest descent.
    nz = H.y.dot(N.z)  # vertical component of the front axle
    down = (N.z - nz * H.y) / sm.sqrt(1 - nz**2)
    r_contactF = -rF * down
    contact_height = Fo.pos_from(O).dot(N.z) + r_contactF.dot(N.z)
    v_contactF = Fo.vel(N) + Fw.ang_vel_in(N).cross(r_contactF)
    velocity_constraints = [
        ux - rR * uthR * sm.cos(psi),  # rear wheel: no horizontal slip
        uy - rR * uthR * sm.sin(psi),
        v_contactF.dot(N.x),
        v_contactF.dot(N.y),
        v_contactF.dot(N.z),
    ]

    IR = me.inertia(Rw, IRxx, IRyy, IRxx)
    IB = me.inertia(C, P["IBxx"], P["IByy"], P["IBzz"], 0, 0, -P["IBxz"])
    IH = me.inertia(H, P["IHxx"], P["IHyy"], P["IHzz"], 0, 0, -P["IHxz"])
    IF = me.inertia(Fw, IFxx, IFyy, IFxx)
    bodies = [
        me.RigidBody("rear_wheel", Ro, Rw, mR, (IR, Ro)),
        me.RigidBody("rear_frame", Bo, C, mB, (IB, Bo)),
        me.RigidBody("front_frame", Ho, H, mH, (IH, Ho)),
        me.RigidBody("front_wheel", Fo, Fw, mF, (IF, Fo)),
    ]
    loads = [(b.masscenter, -b.mass * g * N.z) for b in bodies]
    kd = [qi.diff() - ui for qi, ui in zip(q, u)]
    u_ind = [uphi, udelta, uthR]
    u_dep = [ux, uy, upsi, utheta, uthF]
    kane = me.KanesMethod(
        N, q_ind=q, u_ind=u_ind, kd_eqs=kd, u_dependent=u_dep,
        velocity_constraints=velocity_constraints,
    )
    kane.kanes_equations(bodies, loads)
    params = [P[name] for name in names]
    return {
        "q": q, "u": u, "u_ind": u_ind, "u_dep": u_dep, "params": params,
        "param_values": [float(values[name]) for name in names],
        "kane": kane, "M": kane.mass_matrix, "f": kane.forcing,
        "contact_height": contact_height, "velocity_constraints": velocity_constraints,
    }


def bicycle_state(bike, seed):
    """A random state that satisfies the bicycle's constraints, as (q, u) lists."""
    import numpy as np
    import sympy as sm

    q, u, params, p = bike["q"], bike["u"], bike["params"], bike["param_values"]
    height = sm.lambdify((q, params), bike["contact_height"])
    dheight = sm.lambdify((q, params), bike["contact_height"].diff(q[4]))
    vc = sm.Matrix(bike["velocity_constraints"])
    A_dep = sm.lambdify((q, params), vc.jacobian(bike["u_dep"]))
    A_ind = sm.lambdify((q, params), vc.jacobian(bike["u_ind"]))
    rng = np.random.default_rng(seed)
    qv = np.array([
        rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-np.pi, np.pi),
        rng.uniform(-0.3, 0.3), 0.0, rng.uniform(-0.6, 0.6),
        rng.uniform(-np.pi, np.pi), rng.uniform(-np.pi, np.pi),
    ])
    for _ in range(50):  # Newton on the pitch from theta = 0
        step = height(qv, p) / dheight(qv, p)
        qv[4] -= step
        if abs(step) < 1e-15:
            break
    assert abs(height(qv, p)) < 1e-13, "pitch did not converge"
    u_ind = np.array([rng.normal(0, 0.5), rng.normal(0, 0.5), rng.uniform(10, 20)])
    u_dep = np.linalg.solve(np.array(A_dep(qv, p), float), -np.array(A_ind(qv, p), float) @ u_ind)
    uv = np.zeros(8)
    uv[[3, 5, 6]] = u_ind
    uv[[0, 1, 2, 4, 7]] = u_dep
    return qv.tolist(), uv.tolist()


# --------------------------------------------------------------------------------------
# Workers (each in its own process)


def model_text_or_path(spec):
    if spec == "bicycle":
        return None
    return cart_toml(int(spec.split(":")[1]))


def worker_lagrange(spec, mode, quick, check_states):
    import numpy as np

    t0 = time.perf_counter()
    import lagrange_dynamics as ld

    t_import = time.perf_counter() - t0
    t0 = time.perf_counter()
    if spec == "bicycle":
        model = ld.load(str(BICYCLE_TOML))
    else:
        model = ld.loads(model_text_or_path(spec))
    t_load = time.perf_counter() - t0
    q0, qd0 = model.initial
    q0, qd0 = np.array(q0), np.array(qd0)
    model.accelerations(q0, qd0)
    t_first = time.perf_counter() - t0
    out = {"import": t_import, "load": t_load, "first": t_first, "version": ld.__version__}
    out["checks"] = [model.accelerations(np.array(s[0]), np.array(s[1])).tolist()
                     for s in check_states]
    if mode == "store":
        return out  # the cold run's timings are the reference; this one fills the cache
    n = len(q0)
    rng = np.random.default_rng(7)
    q1 = q0 + 0.1 * rng.normal(size=n)
    qd1 = qd0 + 0.1 * rng.normal(size=n)
    out["single"] = best_per_call(lambda: model.accelerations(q1, qd1), quick)
    Q = q0 + 0.1 * rng.normal(size=(BATCH, n))
    QD = qd0 + 0.1 * rng.normal(size=(BATCH, n))
    out["batch"] = best_per_call(lambda: model.accelerations(Q, QD), quick) / BATCH
    return out


def build_sympy(spec, method):
    t0 = time.perf_counter()
    if spec == "bicycle":
        bike = sympy_bicycle()
        q, u, params, M, f = bike["q"], bike["u"], bike["params"], bike["M"], bike["f"]
        pv = bike["param_values"]
        extra = bike
    else:
        n = int(spec.split(":")[1])
        q, u, params, M, f, extra = sympy_cart(n, method)
        vals = cart_values(n)
        pv = [vals[str(s)] for s in params]
    t_form = time.perf_counter() - t0
    # KanesMethod orders its speeds independent first, then dependent (the bicycle's
    # phi', delta', thetaR', x', y', psi', theta', thetaF'): `order` maps its rows of u'
    # back to the coordinates' order.
    kane = extra["kane"] if isinstance(extra, dict) else extra
    speeds = list(kane.u) if hasattr(kane, "u") and method == "kane" else list(u)
    order = [speeds.index(ui) for ui in u]
    return t_form, q, u, params, pv, M, f, extra, order


def worker_sympy(spec, method, quick, check_states, with_pydy_lambdify):
    import numpy as np
    import sympy as sm

    t_form, q, u, params, pv, M, f, extra, order = build_sympy(spec, method)
    out = {"form": t_form, "size_ops": int(sm.count_ops(M) + sm.count_ops(f)) if spec != "bicycle" else None}
    if spec == "bicycle":
        check_states = [bicycle_state(extra, 1)]
        out["check_states"] = check_states
    t0 = time.perf_counter()
    fun = sm.lambdify((q, u, params), (M, f), cse=True)
    out["lambdify"] = time.perf_counter() - t0
    p = np.array(pv)

    def rhs(qv, uv):
        Mv, fv = fun(qv, uv, p)
        return np.linalg.solve(Mv, fv).ravel()[order]

    out["checks"] = [rhs(np.array(s[0]), np.array(s[1])).tolist() for s in check_states]
    nq = len(q)
    rng = np.random.default_rng(7)
    q1, u1 = np.array(check_states[0][0]), np.array(check_states[0][1])
    out["single"] = best_per_call(lambda: rhs(q1, u1), quick)
    # The batch: the same expressions on arrays of states, a stacked solve.
    t0 = time.perf_counter()
    entries = list(M) + list(f)
    flat = sm.lambdify((q, u, params), entries, cse=True)
    out["lambdify_batch"] = time.perf_counter() - t0
    Q = (q1 + 0.01 * rng.normal(size=(BATCH, nq))).T.copy()
    U = (u1 + 0.01 * rng.normal(size=(BATCH, nq))).T.copy()

    def batch():
        vals = flat(Q, U, p)
        arr = np.empty((BATCH, len(entries)))
        for k, v in enumerate(vals):
            arr[:, k] = v
        Mb = arr[:, : nq * nq].reshape(BATCH, nq, nq)
        fb = arr[:, nq * nq:]
        return np.linalg.solve(Mb, fb[..., None])[..., 0][:, order]

    out["batch"] = best_per_call(batch, quick) / BATCH
    # Sanity: the batch's first row is the single evaluation at that row's state.
    b0 = batch()[0]
    s0 = rhs(Q[:, 0], U[:, 0])
    out["batch_vs_single"] = float(np.max(np.abs(b0 - s0)) / max(1.0, np.max(np.abs(s0))))

    if with_pydy_lambdify:
        out["pydy_lambdify"] = pydy_generate(extra, q, u, params, pv, "lambdify", quick,
                                             check_states, order)
    return out


def pydy_generate(kane, q, u, params, pv, generator, quick, check_states, order):
    """PyDy's ODE function from Kane's equations; its state is [q, u] with u in
    KanesMethod's order (independent speeds first)."""
    import numpy as np
    from pydy.codegen.ode_function_generators import generate_ode_function

    if isinstance(kane, dict):
        kane = kane["kane"]
    t0 = time.perf_counter()
    kwargs = {}
    if generator == "cython":
        kwargs["tmp_dir"] = tempfile.mkdtemp(prefix="pydy_cython_")
    rhs = generate_ode_function(kane.forcing_full, list(kane.q), list(kane.u), params,
                                mass_matrix=kane.mass_matrix_full, generator=generator, **kwargs)
    t_gen = time.perf_counter() - t0
    p = np.array(pv)
    nq = len(q)
    inverse = np.argsort(order)  # coordinates' order -> KanesMethod's order

    def state(s):
        return np.concatenate([s[0], np.asarray(s[1])[inverse]])

    out = {"generate": t_gen}
    out["checks"] = [rhs(state(s), 0.0, p)[nq:][order].tolist() for s in check_states]
    x1 = state(check_states[0])
    out["single"] = best_per_call(lambda: rhs(x1, 0.0, p), quick)
    return out


def worker_pydy_cython(spec, quick, check_states):
    t_form, q, u, params, pv, M, f, extra, order = build_sympy(spec, "kane")
    if spec == "bicycle":
        check_states = [bicycle_state(extra, 1)]
    out = pydy_generate(extra, q, u, params, pv, "cython", quick, check_states, order)
    out["form"] = t_form
    return out


def run_worker(argv):
    args = json.loads(argv)
    kind = args["kind"]
    if kind == "lagrange":
        res = worker_lagrange(args["spec"], args["mode"], args["quick"], args["checks"])
    elif kind == "sympy":
        res = worker_sympy(args["spec"], args["method"], args["quick"], args["checks"],
                           args["pydy_lambdify"])
    elif kind == "pydy_cython":
        res = worker_pydy_cython(args["spec"], args["quick"], args["checks"])
    else:
        raise SystemExit(f"unknown worker {kind}")
    print("RESULT " + json.dumps(res), flush=True)


# --------------------------------------------------------------------------------------
# The driver


def spawn(payload, env_extra=None, timeout=None, log=None):
    env = dict(os.environ)
    env.update(env_extra or {})
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--worker", json.dumps(payload)],
            env=env, capture_output=True, text=True, timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return {"error": f"not finished within {timeout:.0f} s"}, time.perf_counter() - t0
    wall = time.perf_counter() - t0
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:]), wall
    tail = (proc.stderr or proc.stdout).strip().splitlines()[-15:]
    return {"error": "failed: " + " | ".join(tail)}, wall


def versions():
    from importlib import metadata

    out = {"python": platform.python_version()}
    for pkg in ["lagrange-dynamics", "numpy", "sympy", "pydy", "cython", "scipy"]:
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            out[pkg] = "not installed"
    try:
        out["gcc"] = subprocess.run(["gcc", "--version"], capture_output=True,
                                    text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        out["gcc"] = "?"
    # Which build of lagrange_dynamics: its extension module's path, date and hash (the
    # package may be rebuilt between runs).
    try:
        import glob
        import hashlib
        import importlib.util

        spec = importlib.util.find_spec("lagrange_dynamics")
        folder = Path(spec.origin).parent
        libs = sorted(glob.glob(str(folder / "*.so")) + glob.glob(str(folder / "*.pyd")))
        if libs:
            lib = Path(libs[0])
            digest = hashlib.sha256(lib.read_bytes()).hexdigest()[:12]
            stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(lib.stat().st_mtime))
            out["lagrange-dynamics build"] = f"{lib} ({stamp} UTC, sha256 {digest})"
    except Exception as e:  # noqa: BLE001 - informative only
        out["lagrange-dynamics build"] = f"? ({e})"
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    out["machine"] = f"{platform.machine()}, {cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"
    return out


def fmt_s(x):
    if x is None:
        return "—"
    if x >= 100:
        return f"{x:.0f} s"
    if x >= 1:
        return f"{x:.2f} s"
    return f"{x * 1e3:.1f} ms"


def fmt_us(x):
    if x is None:
        return "—"
    if x >= 100e-6:
        return f"{x * 1e6:.0f}"
    return f"{x * 1e6:.2f}"


def rel_err(a, b):
    import numpy as np

    a, b = np.asarray(a, float), np.asarray(b, float)
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-300))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, nargs="*", default=[5, 10, 20], help="links of the cart pendulums")
    ap.add_argument("--skip-cython", action="store_true", help="leave out PyDy's cython generator")
    ap.add_argument("--skip-bicycle", action="store_true", help="leave out the bicycle")
    ap.add_argument("--quick", action="store_true", help="shorter timing loops (rougher numbers)")
    ap.add_argument("--cython-timeout", type=float, default=1800.0,
                    help="seconds before PyDy's cython generation is given up (default 1800)")
    ap.add_argument("--out", type=Path, help="also write the Markdown to this file")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        run_worker(args.worker)
        return

    import numpy as np

    started = time.perf_counter()
    cache_dir = tempfile.mkdtemp(prefix="lagrange_bench_cache_")
    warm_env = {"LAGRANGE_CACHE_DIR": cache_dir}
    warm_env.pop("LAGRANGE_CACHE", None)
    cold_env = {"LAGRANGE_CACHE": "off"}
    ver = versions()
    print("versions:", json.dumps(ver), flush=True)

    specs = [f"cart:{n}" for n in args.n] + ([] if args.skip_bicycle else ["bicycle"])
    rows = []  # (model, tool, first, generation, single, batch, note)
    agreement = []
    durations = []

    def log(msg):
        print(f"[{time.perf_counter() - started:7.1f} s] {msg}", flush=True)

    for spec in specs:
        spec_t0 = time.perf_counter()
        if spec == "bicycle":
            label = "Whipple bicycle (8 q, 3 dof)"
            checks = None
        else:
            n = int(spec.split(":")[1])
            label = f"cart + {n}-link pendulum ({n + 1} q)"
            rng = np.random.default_rng(100 + n)
            qc = np.concatenate([[rng.uniform(-1, 1)], rng.uniform(-np.pi, np.pi, n)])
            uc = rng.normal(0, 1, n + 1)
            checks = [[qc.tolist(), uc.tolist()]]

        results = {}
        # SymPy first for the bicycle: it makes the constraint-satisfying check state.
        order = ["sympy_kane", "sympy_lagrange", "pydy_cython", "lagrange"]
        if spec == "bicycle":
            order.remove("sympy_lagrange")
        if args.skip_cython:
            order.remove("pydy_cython")
        for what in order:
            t0 = time.perf_counter()
            if what == "sympy_kane":
                res, wall = spawn({"kind": "sympy", "spec": spec, "method": "kane", "quick": args.quick,
                                   "checks": checks, "pydy_lambdify": True})
                if spec == "bicycle" and "check_states" in res:
                    checks = res["check_states"]
            elif what == "sympy_lagrange":
                res, wall = spawn({"kind": "sympy", "spec": spec, "method": "lagrange", "quick": args.quick,
                                   "checks": checks, "pydy_lambdify": False})
            elif what == "pydy_cython":
                res, wall = spawn({"kind": "pydy_cython", "spec": spec, "quick": args.quick,
                                   "checks": checks}, timeout=args.cython_timeout)
            else:
                if checks is None:
                    res, wall = {"error": "no check state (SymPy failed)"}, 0.0
                else:
                    cold, w1 = spawn({"kind": "lagrange", "spec": spec, "mode": "cold", "quick": args.quick,
                                      "checks": checks}, cold_env)
                    store, w2 = spawn({"kind": "lagrange", "spec": spec, "mode": "store", "quick": args.quick,
                                       "checks": checks}, warm_env)
                    warm, w3 = spawn({"kind": "lagrange", "spec": spec, "mode": "warm", "quick": args.quick,
                                      "checks": checks}, warm_env)
                    res = {"cold": cold, "store": store, "warm": warm}
                    wall = w1 + w2 + w3
            results[what] = res
            durations.append((label, what, wall))
            log(f"{label}: {what} done in {wall:.1f} s: "
                + json.dumps(res, default=str)[:600])

        # Rows of the table.
        lg = results.get("lagrange", {})
        cold, warm = lg.get("cold", {}), lg.get("warm", {})
        if "error" in lg or "error" in cold:
            rows.append((label, "lagrange_dynamics", "—", "—", "—", "—", (lg.get("error") or cold.get("error"))))
        else:
            rows.append((label, "lagrange_dynamics (cold, LAGRANGE_CACHE=off)", fmt_s(cold["first"]),
                         "(in load)", fmt_us(cold["single"]), fmt_us(cold["batch"]),
                         f"load {fmt_s(cold['load'])}; import {fmt_s(cold['import'])}"))
            if "error" in warm:
                rows.append((label, "lagrange_dynamics (warm cache)", "—", "", "", "", warm["error"]))
            else:
                rows.append((label, "lagrange_dynamics (warm cache)", fmt_s(warm["first"]),
                             "(in load)", fmt_us(warm["single"]), fmt_us(warm["batch"]),
                             f"load {fmt_s(warm['load'])}"))
        for key, tool in [("sympy_kane", "SymPy KanesMethod + lambdify(cse)"),
                          ("sympy_lagrange", "SymPy LagrangesMethod + lambdify(cse)")]:
            if key not in results:
                continue
            r = results[key]
            if "error" in r:
                rows.append((label, tool, "—", "—", "—", "—", r["error"]))
                continue
            rows.append((label, tool, fmt_s(r["form"] + r["lambdify"]), fmt_s(r["lambdify"]),
                         fmt_us(r["single"]), fmt_us(r["batch"]),
                         f"form {fmt_s(r['form'])}; batch = lambdified on arrays "
                         f"(another lambdify {fmt_s(r['lambdify_batch'])})"))
            if key == "sympy_kane":
                pl = r.get("pydy_lambdify", {})
                if "error" in pl:
                    rows.append((label, "PyDy lambdify", "—", "—", "—", "—", pl["error"]))
                elif pl:
                    rows.append((label, "PyDy generate_ode_function(lambdify)",
                                 fmt_s(r["form"] + pl["generate"]), fmt_s(pl["generate"]),
                                 fmt_us(pl["single"]), "—", "form = SymPy Kane's"))
        if "pydy_cython" in results:
            r = results["pydy_cython"]
            if "error" in r:
                rows.append((label, "PyDy generate_ode_function(cython)", "—", "—", "—", "—", r["error"]))
            else:
                rows.append((label, "PyDy generate_ode_function(cython)",
                             fmt_s(r["form"] + r["generate"]), fmt_s(r["generate"]),
                             fmt_us(r["single"]), "—", "generation includes the C compile"))
        elif args.skip_cython:
            rows.append((label, "PyDy generate_ode_function(cython)", "—", "—", "—", "—", "skipped (--skip-cython)"))

        # Agreement with lagrange at the check state.
        ref = cold.get("checks", [None])[0] if "checks" in cold else None
        for key, tool, getter in [
            ("lagrange", "lagrange (from the cache) vs lagrange (cold)", lambda r: r.get("warm", {}).get("checks")),
            ("sympy_kane", "SymPy Kane", lambda r: r.get("checks")),
            ("sympy_lagrange", "SymPy Lagrange", lambda r: r.get("checks")),
            ("sympy_kane", "PyDy lambdify", lambda r: r.get("pydy_lambdify", {}).get("checks")),
            ("pydy_cython", "PyDy cython", lambda r: r.get("checks")),
        ]:
            if key not in results or ref is None:
                continue
            other = getter(results[key])
            if not other:
                continue
            e = rel_err(other[0], ref)
            agreement.append((label, tool, e, "ok" if e <= TOL else "DISAGREES"))
        durations.append((label, "all tools", time.perf_counter() - spec_t0))

    # The report.
    lines = ["# lagrange_dynamics vs SymPy vs PyDy", ""]
    lines.append("Machine and versions: " + "; ".join(f"{k} {v}" for k, v in ver.items()))
    lines.append("")
    lines.append(f"Timings: best of {'3' if args.quick else '7'} repeats of loops of at least "
                 f"{'0.05' if args.quick else '0.25'} s each; one-off times (first evaluation, "
                 "generation) are single runs, each tool in a fresh process. Batch: "
                 f"{BATCH} states per call (lagrange's batch runs on all cores).")
    lines.append("")
    lines.append("| model | tool | model → first evaluation | lambdify / generation | µs per RHS (single) | µs per state (batch) | note |")
    lines.append("|---|---|---|---|---|---|---|")
    for row in rows:
        lines.append("| " + " | ".join(str(c) for c in row) + " |")
    lines.append("")
    lines.append("Agreement of the accelerations with lagrange_dynamics (cold) at one random state "
                 f"(max |difference| / max |lagrange|; tolerance {TOL:g}):")
    lines.append("")
    lines.append("| model | tool | relative difference | |")
    lines.append("|---|---|---|---|")
    for label, tool, e, verdict in agreement:
        lines.append(f"| {label} | {tool} | {e:.2e} | {verdict} |")
    lines.append("")
    lines.append("Wall time of each part (including process start and import):")
    lines.append("")
    for label, what, wall in durations:
        lines.append(f"- {label}, {what}: {wall:.1f} s")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    main()

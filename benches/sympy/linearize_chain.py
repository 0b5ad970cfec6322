"""SymPy's LagrangesMethod and linearize on the planar n-link chain of point masses
(absolute angles) of benches/accelerations.rs, timed, for comparison with
`time lagrange derive benches/sympy/chain8.toml` (LAGRANGE_CACHE=off).

    python3 benches/sympy/linearize_chain.py 8            # A, B at one operating point
    python3 benches/sympy/linearize_chain.py 8 symbolic   # A, B as functions of the state
"""
import sys
import time

import sympy as sm
import sympy.physics.mechanics as me

n = int(sys.argv[1])
symbolic = len(sys.argv) > 2 and sys.argv[2] == "symbolic"
q = me.dynamicsymbols(f"theta1:{n + 1}")
qd = [qi.diff() for qi in q]
m = sm.symbols(f"m1:{n + 1}")
l = sm.symbols(f"l1:{n + 1}")
g = sm.Symbol("g")
N = me.ReferenceFrame("N")
O = me.Point("O")
O.set_vel(N, 0)
particles = []
P = O
for i in range(n):
    Pi = P.locatenew(f"P{i + 1}", l[i] * sm.sin(q[i]) * N.x - l[i] * sm.cos(q[i]) * N.y)
    Pi.set_vel(N, Pi.pos_from(O).dt(N))
    particle = me.Particle(f"pa{i + 1}", Pi, m[i])
    particle.potential_energy = m[i] * g * Pi.pos_from(O).dot(N.y)
    particles.append(particle)
    P = Pi
t0 = time.perf_counter()
lm = me.LagrangesMethod(me.Lagrangian(N, *particles), q)
lm.form_lagranges_equations()
t1 = time.perf_counter()
print(f"n={n} equations: {t1 - t0:.2f} s", flush=True)
if symbolic:
    lm.linearize(q_ind=q, qd_ind=qd, A_and_B=True, simplify=False)
    what = "A, B as functions of the state"
else:
    op = {qi: 0.3 + 0.1 * i for i, qi in enumerate(q)}
    op.update({qdi: 0.5 - 0.05 * i for i, qdi in enumerate(qd)})
    op.update({qi.diff().diff(): 0 for qi in q})
    lm.linearize(q_ind=q, qd_ind=qd, A_and_B=True, op_point=op)
    what = "A, B at one non-equilibrium state"
t2 = time.perf_counter()
print(f"n={n} linearize ({what}): {t2 - t1:.2f} s", flush=True)

"""Writes chains.rs: planar n-link chains of point masses on massless rods, absolute
angles, T and V written from the positions of the masses (as in benches/accelerations.rs),
for n = 2, 4, 8, 16, 32. Run from this folder: python3 generate.py"""

SIZES = [2, 4, 8, 16, 32]


def terms(k, term):
    return " + ".join(term(j) for j in range(1, k + 1))


def chain(n):
    def speed(k, f):
        return terms(k, lambda j: f"l{j}*{f}(theta{j})*dot(theta{j})")

    kinetic = " + ".join(
        f"1/2*m{k}*(({speed(k, 'cos')})^2 + ({speed(k, 'sin')})^2)" for k in range(1, n + 1)
    )
    heights = " + ".join(
        f"m{k}*({terms(k, lambda j: f'l{j}*cos(theta{j})')})" for k in range(1, n + 1)
    )
    coordinates = ", ".join(f"theta{i}" for i in range(1, n + 1))
    parameters = ", ".join([f"m{i}" for i in range(1, n + 1)] + [f"l{i}" for i in range(1, n + 1)] + ["g"])
    return f'chain!(\n    Chain{n},\n    [{coordinates}],\n    "{kinetic}",\n    "-g*({heights})",\n    [{parameters}]\n);\n'


with open("chains.rs", "w") as out:
    out.write("// Written by generate.py; do not edit.\n\n")
    out.write("\n".join(chain(n) for n in SIZES))

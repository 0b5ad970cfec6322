"""Writes chains.rs: planar n-link chains of point masses on massless rods for
n = 2, 4, 8, 16, 32 in absolute angles with T and V written from the positions of the
masses (as in benches/accelerations.rs), and as kinematic trees of revolute joints in
relative angles for n = 2, 4, 8, 16, 24 (24 joints from the fixed frame is the deepest
tree the engine derives). Run from this folder: python3 generate.py"""

SIZES = [2, 4, 8, 16, 32]
TREE_SIZES = [2, 4, 8, 16, 24]


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


def tree_chain(n):
    def body(k):
        parent = f"parent = b{k - 1}, " if k > 1 else ""
        origin = f'origin = ["l{k - 1}", "0", "0"], ' if k > 1 else ""
        return (
            f'body(name = b{k}, mass = "m{k}", inertia = ["0", "0", "0"], {parent}'
            f'joint = revolute(q{k}), axis = ["0", "0", "1"], {origin}com = ["l{k}", "0", "0"]),'
        )

    coordinates = ", ".join(f"q{i}" for i in range(1, n + 1))
    bodies = "\n        ".join(body(k) for k in range(1, n + 1))
    parameters = ", ".join([f"m{i}" for i in range(1, n + 1)] + [f"l{i}" for i in range(1, n + 1)] + ["g"])
    return f"tree_chain!(\n    TreeChain{n},\n    [{coordinates}],\n    [\n        {bodies}\n    ],\n    [{parameters}]\n);\n"


with open("chains.rs", "w") as out:
    out.write("// Written by generate.py; do not edit.\n\n")
    out.write("\n".join(chain(n) for n in SIZES))
    out.write("\n")
    out.write("\n".join(tree_chain(n) for n in TREE_SIZES))

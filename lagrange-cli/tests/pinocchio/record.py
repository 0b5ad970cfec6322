#!/usr/bin/env python3
"""Records Pinocchio's dynamics of real robots, the reference of `tests/cli_pinocchio.rs`.

Reads five URDFs of `example-robot-data` (a UR5 arm, the Franka Panda with its fingers,
the Solo-12 quadruped's legs, the Unitree G1 humanoid with 29 joints, IIT's Centauro
with 39), writes each without its visuals and collisions (and the
Panda's finger without its `<mimic>`, so that both libraries see nine independent joints)
to `robots/`, and for each, at random states (fixed seed), what Pinocchio computes with the
base fixed and gravity -9.81 along z: the forward dynamics (ABA) with the URDF's joint
damping as the torque `tau = -d v`, and ABA's analytical derivatives; the mass matrix
(CRBA), the bias forces `C(q, v) v + g(q)` without damping (RNEA at zero acceleration) and
the gravity torques `g(q)`. Pinocchio's
`ddq_dv` holds `tau` fixed; the damping torque moves with `v`, so the recorded derivative
adds `ddq_dtau · dtau/dv = -Minv diag(d)` (chain rule, `Minv` from the same call).
Written to `<robot>.json`.

    python3 -m venv venv && venv/bin/pip install pin==4.1.0 example-robot-data==6.0.0
    venv/bin/python lagrange-cli/tests/pinocchio/record.py
"""

import importlib.metadata
import json
import pathlib
import re
import sys

import numpy as np
import pinocchio as pin

HERE = pathlib.Path(__file__).resolve().parent
ROBOTS = {
    "ur5": "ur_description/urdf/ur5_robot.urdf",
    "panda": "panda_description/urdf/panda.urdf",
    "solo12": "solo_description/robots/solo12.urdf",
    "g1": "g1_description/urdf/g1_29dof_rev_1_0.urdf",
    "centauro": "centauro_description/urdf/centauro.urdf",
    "kinova": "kinova_description/robots/kinova.urdf",
    "so100": "so_arm_description/urdf/so100.urdf",
}
STATES = 4


def stripped(text):
    """The URDF without what is not dynamics and without mimic couplings."""
    for tag in ("visual", "collision", "mimic"):
        text = re.sub(rf"<{tag}\b.*?</{tag}>", "", text, flags=re.S)
        text = re.sub(rf"<{tag}\b[^>]*/>", "", text)
    return re.sub(r"\n\s*\n", "\n", text)


def robots_folder():
    """Where the example-robot-data wheel put its robots (it installs data, no module)."""
    for base in map(pathlib.Path, sys.path):
        folder = base / "cmeel.prefix" / "share" / "example-robot-data" / "robots"
        if folder.is_dir():
            return folder
    sys.exit("example-robot-data is not installed: pip install example-robot-data")


def rows(matrix):
    return [list(map(float, row)) for row in np.asarray(matrix)]


def tangent_limits(model):
    """Each coordinate's range within [-1, 1]: a continuous joint (`nq = 2`, its
    configuration `(cos θ, sin θ)`) has the whole of it."""
    lower, upper = np.full(model.nv, -1.0), np.full(model.nv, 1.0)
    for joint in model.joints[1:]:
        if joint.nq == joint.nv:
            span = slice(joint.idx_v, joint.idx_v + joint.nv)
            q_span = slice(joint.idx_q, joint.idx_q + joint.nq)
            lower[span] = np.maximum(model.lowerPositionLimit[q_span], -1.0)
            upper[span] = np.minimum(model.upperPositionLimit[q_span], 1.0)
    return lower, upper


def configuration(model, angles):
    """Pinocchio's configuration of the joint coordinates `angles` (one per degree of
    freedom, as lagrange's): a continuous joint's angle as `(cos θ, sin θ)`."""
    q = np.zeros(model.nq)
    for joint in model.joints[1:]:
        theta = angles[joint.idx_v : joint.idx_v + joint.nv]
        if joint.nq == joint.nv:
            q[joint.idx_q : joint.idx_q + joint.nq] = theta
        elif joint.nq == 2 and joint.nv == 1:
            q[joint.idx_q : joint.idx_q + 2] = [np.cos(theta[0]), np.sin(theta[0])]
        else:
            sys.exit(f"{joint.shortname()}: a joint of {joint.nq} coordinates and {joint.nv} speeds")
    return q


def main():
    root = robots_folder()
    version = importlib.metadata.version("example-robot-data")
    (HERE / "robots").mkdir(exist_ok=True)
    for name, path in ROBOTS.items():
        text = stripped((root / path).read_text())
        (HERE / "robots" / f"{name}.urdf").write_text(text)
        model = pin.buildModelFromXML(text)
        data = model.createData()
        rng = np.random.default_rng(20261204)
        lower, upper = tangent_limits(model)
        states = []
        for _ in range(STATES):
            angles = rng.uniform(lower, upper)
            q = configuration(model, angles)
            v = rng.uniform(-1.0, 1.0, model.nv)
            tau = -model.damping * v
            ddq = pin.aba(model, data, q, v, tau)
            pin.computeABADerivatives(model, data, q, v, tau)
            minv = np.triu(data.Minv) + np.triu(data.Minv, 1).T
            mass = pin.crba(model, data, q)
            mass = np.triu(mass) + np.triu(mass, 1).T
            bias = pin.nonLinearEffects(model, data, q, v)
            gravity = pin.computeGeneralizedGravity(model, data, q)
            ddq_dv = data.ddq_dv - minv @ np.diag(model.damping)
            states.append(
                {
                    "q": list(map(float, angles)),
                    "v": list(map(float, v)),
                    "ddq": list(map(float, ddq)),
                    "ddq_dq": rows(data.ddq_dq),
                    "ddq_dv": rows(ddq_dv),
                    "mass_matrix": rows(mass),
                    "bias": list(map(float, bias)),
                    "gravity": list(map(float, gravity)),
                }
            )
        document = {
            "robot": name,
            "source": f"example-robot-data {version}: robots/{path}",
            "pinocchio": pin.__version__,
            "joints": list(model.names)[1:],
            "damping": list(map(float, model.damping)),
            "states": states,
        }
        (HERE / f"{name}.json").write_text(json.dumps(document, indent=1) + "\n")
        print(f"{name}: {model.nv} joints, {STATES} states")


if __name__ == "__main__":
    main()

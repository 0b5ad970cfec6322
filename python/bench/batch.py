"""Forward dynamics and its derivatives from Python, one state per call against a batch of
states per call (an (m, n) array; the runtime's batch over the processor's threads, the
interpreter's lock released), for robots of the repository's Pinocchio tests.

    python python/bench/batch.py [--states 4096] [--robots ur5 g1]

Prints, per robot and quantity, microseconds per state of single calls from Python (the
call's overhead included) and of a batch, and states per second per core of each."""

import argparse
import os
import time
from pathlib import Path

import numpy as np

import lagrange_dynamics as ld

ROBOTS = Path(__file__).resolve().parents[2] / "lagrange-cli" / "tests" / "pinocchio" / "robots"


def best(f, rounds=5):
    """The best of `rounds` timings of `f()`, in seconds."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=4096)
    parser.add_argument("--robots", nargs="+", default=["ur5", "g1"])
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    print(f"lagrange_dynamics {ld.__version__}, {cores} cores, {args.states} states per batch")
    print("| robot (n) | quantity | single call, µs/state | batch, µs/state | batch ÷ single, per core |")
    print("|---|---|---|---|---|")
    for name in args.robots:
        start = time.perf_counter()
        robot = ld.load_urdf(ROBOTS / f"{name}.urdf")
        loaded = time.perf_counter() - start
        n = len(robot.coordinates)
        rng = np.random.default_rng(0)
        q = rng.uniform(-1, 1, size=(args.states, n))
        qd = rng.uniform(-1, 1, size=(args.states, n))
        # Past the compile-on-load threshold, so that both paths run compiled code.
        robot.accelerations(q[:1024], qd[:1024])
        robot.acceleration_jacobians(q[:1024], qd[:1024])
        for quantity in ("accelerations", "acceleration_jacobians"):
            f = getattr(robot, quantity)
            count = min(args.states, 512)
            single = best(lambda: [f(q[i], qd[i]) for i in range(count)]) / count
            batch = best(lambda: f(q, qd)) / args.states
            ratio = single / batch / cores
            print(f"| {name} ({n}) | {quantity} | {single * 1e6:.2f} | {batch * 1e6:.2f} | {ratio:.2f} |")
        print(f"<!-- {name}: loaded in {loaded:.2f} s -->")


if __name__ == "__main__":
    main()

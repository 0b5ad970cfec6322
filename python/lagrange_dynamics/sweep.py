"""Many simulations of one model over parameter values and initial states: in threads on
this machine, or on a Dask cluster given a ``dask.distributed`` client. The model is
derived once, here; a cluster's workers receive it as its file and derivation (a pickled
``Model``) and run it without the engine, so symbolica's one-instance limit holds. A
member that fails is reported with its reason, and the others are kept."""

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np


def _run_member(member, model, settings):
    """One member's run: ``(run, None)``, or ``(None, reason)`` when it fails."""
    try:
        if member["values"]:
            model = model.with_values(**member["values"])
        run = model.simulate(q0=member["q0"], qd0=member["qd0"], **settings)
        return run, None
    except Exception as e:  # noqa: BLE001 - a member's failure is a result, not the sweep's
        return None, f"{type(e).__name__}: {e}"


def _members(values, initial):
    """The members: ``values`` and ``initial`` paired in order (one of them may be left
    out: the model's values, the file's initial state)."""
    values = list(values) if values is not None else None
    initial = list(initial) if initial is not None else None
    if values is None and initial is None:
        raise ValueError("a sweep needs `values`, `initial` or both")
    if values is not None and initial is not None and len(values) != len(initial):
        raise ValueError(
            f"{len(values)} sets of values and {len(initial)} initial states: "
            "give as many of each (itertools.product pairs every one with every other)"
        )
    count = len(values) if values is not None else len(initial)
    members = []
    for k in range(count):
        q0 = qd0 = None
        if initial is not None:
            state = initial[k]
            if isinstance(state, tuple):
                q0, qd0 = state
            else:
                q0 = state
            q0 = None if q0 is None else [float(x) for x in np.asarray(q0).ravel()]
            qd0 = None if qd0 is None else [float(x) for x in np.asarray(qd0).ravel()]
        members.append({"values": dict(values[k]) if values is not None else {}, "q0": q0, "qd0": qd0})
    return members


def sweep(model, *, values=None, initial=None, client=None, threads=None, **settings):
    """Simulates ``model`` once per member and gathers the runs.

    ``values`` is a list of dicts of parameter values (over the model's), ``initial`` a
    list of initial states (``q0``, or a tuple ``(q0, qd0)``); given both, the k-th values
    go with the k-th state. ``settings`` are ``Model.simulate``'s (``t_end``,
    ``integrator``, ``dt``, ``tolerance``, ``t_start``). Without ``client`` the members run
    in ``threads`` threads (default: the processor's), which run in parallel (a run
    releases the interpreter's lock); with a ``dask.distributed.Client``, on its workers.
    """
    if settings.get("reduced"):
        # Its runs hold the retained coordinates alone: the members' final states would
        # not be the model's.
        raise ValueError(
            "a sweep runs the full system (reduced=True is Model.simulate's): the reduced "
            "system's motion is the full one's, its ignored coordinates by quadrature"
        )
    members = _members(values, initial)
    if client is None:
        workers = threads or os.cpu_count() or 1
        with ThreadPoolExecutor(max_workers=workers) as pool:
            outcomes = list(pool.map(lambda m: _run_member(m, model, settings), members))
    else:
        shared = client.scatter(model, broadcast=True)
        futures = client.map(
            _run_member, members, model=shared, settings=settings, pure=False
        )
        outcomes = []
        for future in futures:
            try:
                outcomes.append(future.result())
            except Exception as e:  # noqa: BLE001 - a lost worker fails its member alone
                outcomes.append((None, f"{type(e).__name__}: {e}"))
    return Sweep(model, members, outcomes)


class Sweep:
    """The runs of a sweep, one per member in order: ``runs[k]`` is ``Model.simulate``'s
    dict or ``None``, ``errors[k]`` the reason member ``k`` failed or ``None``."""

    def __init__(self, model, members, outcomes):
        self.coordinates = model.coordinates
        self.members = members
        self.runs = [run for run, _ in outcomes]
        self.errors = [error for _, error in outcomes]

    def __len__(self):
        return len(self.members)

    def __repr__(self):
        failed = sum(e is not None for e in self.errors)
        return f"<lagrange_dynamics.Sweep: {len(self)} members, {failed} failed>"

    @property
    def ok(self):
        """Whether each member ran: a boolean array."""
        return np.array([e is None for e in self.errors])

    def final(self):
        """The final ``(q, qd)`` of every member, arrays ``(k, n)``: NaN where it failed."""
        n = len(self.coordinates)
        q = np.full((len(self), n), np.nan)
        qd = np.full((len(self), n), np.nan)
        for k, run in enumerate(self.runs):
            if run is not None:
                q[k], qd[k] = run["q"][-1], run["qd"][-1]
        return q, qd

    def to_dataframe(self):
        """One row per member (pandas): its given values ``value[name]`` and initial state
        ``q0[name]``, ``qd0[name]``, the final time ``t``, coordinates ``q[name]`` and
        velocities ``qd[name]``, and the ``error`` (empty where it ran). The brackets keep
        every column apart from the others whatever the model's names."""
        import pandas as pd

        q, qd = self.final()
        rows = []
        for k, member in enumerate(self.members):
            row = {f"value[{name}]": v for name, v in member["values"].items()}
            for i, name in enumerate(self.coordinates):
                for start in ("q0", "qd0"):
                    if member[start] is not None:
                        row[f"{start}[{name}]"] = member[start][i]
                row[f"q[{name}]"] = q[k, i]
                row[f"qd[{name}]"] = qd[k, i]
            run = self.runs[k]
            row["t"] = run["t"][-1] if run is not None else np.nan
            row["error"] = self.errors[k] or ""
            rows.append(row)
        return pd.DataFrame(rows)

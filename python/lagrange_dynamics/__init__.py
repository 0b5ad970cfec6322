"""Equations of motion derived symbolically from model files and URDF robots, evaluated and
integrated from NumPy: the lagrange engine and runtime from Python.

    >>> import lagrange_dynamics as ld
    >>> pendulum = ld.load("examples/models/double_pendulum.toml")
    >>> pendulum.accelerations([0.3, -0.2], [0.1, 0.0])

Deriving a model runs symbolica, which this package bundles under its own license:
each user needs symbolica's free-use qualification or a license, and runtime rights to
symbolica are not included in or transferred by this package (see ``RUNTIME_RIGHTS``).
"""

import copyreg

from ._native import (
    RUNTIME_RIGHTS,
    LagrangeError,
    Model,
    Report,
    __version__,
    load,
    load_urdf,
    loads,
)
from ._native import restored as _restored
from .spec import from_dict, to_toml
from .sweep import Sweep, sweep

__all__ = [
    "RUNTIME_RIGHTS",
    "LagrangeError",
    "Model",
    "Report",
    "Sweep",
    "__version__",
    "from_dict",
    "load",
    "load_urdf",
    "loads",
    "sweep",
    "to_toml",
]


def _restore(shipped):
    """A model from what it was pickled as: no derivation runs."""
    return _restored(*shipped)


# A model pickles as its file and derivation, so that a process that unpickles it (a Dask
# worker) runs it without the engine.
copyreg.pickle(Model, lambda model: (_restore, (model._shipped(),)))

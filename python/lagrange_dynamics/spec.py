"""Models written in Python: a dict of a model file's tables (or of its ``[model]`` table
alone, with ``values`` and ``initial`` beside its keys), read by the same reader as a file,
so with the same syntax, checks and errors."""

import json
import math
import numbers
import re

import numpy as np

from ._native import loads

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_TABLES = ("model", "values", "initial", "simulation", "inputs", "events", "draw")


def _key(key):
    if not isinstance(key, str):
        raise TypeError(f"a model's keys are strings, not {type(key).__name__}: {key!r}")
    return key if _BARE_KEY.match(key) else _string(key)


def _string(text):
    """``text`` as a TOML basic string: JSON's string escapes are TOML's, and characters
    past the basic plane are written as they are (JSON would escape them as surrogate
    pairs, which TOML refuses); DEL, which JSON leaves and TOML refuses, is escaped."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _value(value):
    """``value`` as TOML."""
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        value = float(value)
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"a model's values are strings, numbers, lists and dicts, not {type(value).__name__}: {value!r}")


def to_toml(spec):
    """The model file of ``spec`` (see ``from_dict``) as text."""
    if not isinstance(spec, dict):
        raise TypeError(f"a model is a dict, not {type(spec).__name__}")
    # In the flat form, `inputs` is the model's list of inputs when a list, the
    # `[inputs]` table of signals when a dict.
    def is_table(key, value):
        return key in _TABLES and not (key == "inputs" and isinstance(value, (list, tuple)))

    tables = dict(spec) if "model" in spec else {
        "model": {k: v for k, v in spec.items() if not is_table(k, v)},
        **{k: v for k, v in spec.items() if is_table(k, v)},
    }
    lines = []
    for name, table in tables.items():
        if name in ("events", "draw"):
            if not isinstance(table, (list, tuple)) or not all(isinstance(e, dict) for e in table):
                raise TypeError(f"`{name}` is a list of tables (dicts), not {type(table).__name__}")
            for entry in table:
                lines.append(f"[[{_key(name)}]]")
                lines.extend(f"{_key(k)} = {_value(v)}" for k, v in entry.items())
            continue
        if not isinstance(table, dict):
            raise TypeError(f"`{name}` is a table (a dict), not {type(table).__name__}")
        lines.append(f"[{_key(name)}]")
        lines.extend(f"{_key(k)} = {_value(v)}" for k, v in table.items())
    return "\n".join(lines) + "\n"


def from_dict(spec, values=None, name="model from a dict"):
    """A model written in Python: ``spec`` holds the model file's tables by name
    (``model``, ``values``, ``initial``, ``simulation``, ``inputs``, ``events``,
    ``draw``), or the ``[model]`` table's keys with ``values`` and ``initial`` (and the
    other tables) beside them. Read as ``loads`` reads the file it makes (its errors name
    the key and the line of that file); ``name`` is the file name its messages give."""
    return loads(to_toml(spec), values=values, name=name)

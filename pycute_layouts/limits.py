"""Size budgets and nesting limits: the one place that says how much work one call may do.

Every operation that enumerates the points of a domain, or allocates something per point,
compares the number of points with the budget of its area *before* it allocates, and raises
:class:`~pycute_layouts.errors.LayoutValueError` naming the limit and the argument that exceeds
it. Nested input (IntTuples, notation, spec files) is refused past :data:`MAX_NESTING_DEPTH`
levels where it enters, so no recursion can run away on user input. docs/limits.md lists the
limits and the functions that use them.

>>> check_budget("to_numpy", "L", 2**40, MAX_EVAL_POINTS)
Traceback (most recent call last):
...
pycute_layouts.errors.LayoutValueError: to_numpy: L has 1099511627776 points, more than the MAX_EVAL_POINTS = 16777216 budget
>>> check_budget("to_numpy", "layout 8:1", 8, MAX_EVAL_POINTS)
"""

from __future__ import annotations

import os
import re
from typing import Any

from .errors import LayoutError, LayoutTypeError, LayoutValueError

__all__ = [
    "MAX_NESTING_DEPTH",
    "MAX_INT_DIGITS",
    "MAX_ELEMENT_BITS",
    "MAX_EVAL_POINTS",
    "MAX_TABLE_CELLS",
    "MAX_ADDRESS_POINTS",
    "MAX_PROOF_BITS",
    "MAX_EXPLAIN_POINTS",
    "MAX_FILE_BYTES",
    "check_budget",
    "check_count",
    "read_text_file",
    "check_text_nesting",
]

#: Levels of nesting accepted in an IntTuple, a notation string or a spec file (CuTe layouts use < 10).
MAX_NESTING_DEPTH = 64

#: Decimal digits accepted in one integer literal of the notation (2**64 has 20).
MAX_INT_DIGITS = 64

#: Bits of one element (``element_bits`` arguments): the widest element any unit moves is 1024 bits.
MAX_ELEMENT_BITS = 1024

#: Points evaluated at once for a whole domain (``Layout.to_numpy``, im2col/interleave offsets,
#: exhaustive proofs, codegen operand descriptions): 16 Mi points, 128 MiB of int64.
MAX_EVAL_POINTS = 1 << 24

#: Cells of a text table or picture (``render.layout_table``, ``pycute-layouts show``).
MAX_TABLE_CELLS = 1 << 16

#: Element addresses enumerated for one descriptor (``SmemDescriptor.element_addresses``, descriptor derivation).
MAX_ADDRESS_POINTS = 1 << 22

#: Address bits an equivalence proof models (``proofs.equivalent(..., nbits=)``).
MAX_PROOF_BITS = 64

#: Points (indices) ``analysis.explain`` describes one by one.
MAX_EXPLAIN_POINTS = 1 << 22

#: Bytes of a spec or result file read by the CLI, ``codegen.load_spec`` and ``hwcheck.verify``.
MAX_FILE_BYTES = 1 << 26



def _check_args(who: Any, texts: dict[str, Any], error: Any = LayoutValueError) -> None:
    """The helpers' own arguments: names are strings, ``error`` a LayoutError subclass."""
    for name, v in texts.items():
        if not isinstance(v, str):
            raise LayoutTypeError(f"limits: {name} must be a string, got {v!r}"[:200])
    if not (isinstance(error, type) and issubclass(error, LayoutError)):
        raise LayoutTypeError(f"limits: error must be a LayoutError subclass, got {error!r}"[:200])

def check_count(who: str, name: str, value: Any, lo: int = 0, hi: int | None = None) -> int:
    """``value`` as an int in ``[lo, hi]``, or LayoutTypeError/LayoutValueError naming ``name`` and the value.

    Pre:  ``who`` names the public function, ``name`` the argument.
    Post: returns ``int(value)``; bools, floats, strings and other non-integers are refused.

    >>> check_count("explain", "index", 5, 0, 10)
    5
    >>> check_count("explain", "index", 2**64, 0, 10)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutValueError: explain: index must be in [0, 10], got 18446744073709551616
    """
    _check_args(who, {"who": who, "name": name})
    if isinstance(lo, bool) or not isinstance(lo, int) or hi is not None and (isinstance(hi, bool) or not isinstance(hi, int)):
        raise LayoutTypeError(f"check_count: bounds must be ints, got lo={lo!r}, hi={hi!r}"[:200])
    if isinstance(value, bool) or not hasattr(value, "__index__") or isinstance(value, (tuple, list, str, bytes)):
        raise LayoutTypeError(f"{who}: {name} must be an integer, got {value!r} ({type(value).__name__})")
    try:
        v = int(value.__index__())
    except (TypeError, ValueError):
        raise LayoutTypeError(f"{who}: {name} must be an integer, got {value!r} ({type(value).__name__})") from None
    if v < lo or (hi is not None and v > hi):
        bound = f"in [{lo}, {hi}]" if hi is not None else f">= {lo}"
        raise LayoutValueError(f"{who}: {name} must be {bound}, got {v}")
    return v


_NAMES = {
    "MAX_EVAL_POINTS": MAX_EVAL_POINTS,
    "MAX_TABLE_CELLS": MAX_TABLE_CELLS,
    "MAX_ADDRESS_POINTS": MAX_ADDRESS_POINTS,
    "MAX_PROOF_BITS": MAX_PROOF_BITS,
    "MAX_EXPLAIN_POINTS": MAX_EXPLAIN_POINTS,
    "MAX_FILE_BYTES": MAX_FILE_BYTES,
}


def check_budget(who: str, what: str, points: Any, limit: int) -> None:
    """Refuse work on more than ``limit`` points, before anything is allocated.

    Pre:  ``what`` names the argument that sets the amount of work (``"layout (8,4):(4,1)"``);
          ``points`` is an int (a symbolic count cannot be enumerated and is refused too).
    Post: returns None when ``0 <= points <= limit``; otherwise LayoutValueError naming
          ``who``, ``what``, the count and the limit's name and value.

    >>> check_budget("layout_table", "layout 4:1", 4, MAX_TABLE_CELLS)
    """
    _check_args(who, {"who": who, "what": what})
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise LayoutTypeError(f"check_budget: limit must be an int, got {limit!r}"[:200])
    name = next((k for k, v in _NAMES.items() if v == limit), str(limit))
    if type(points) is not int:
        raise LayoutValueError(f"{who}: {what} has a symbolic or non-integer size {points}; only a concrete domain "
                               "can be enumerated")
    if points > limit:
        raise LayoutValueError(f"{who}: {what} has {points} points, more than the {name} = {limit} budget")


def read_text_file(path: Any, who: str, error: type[LayoutError] = LayoutValueError) -> str:
    """The UTF-8 text of the file ``path``; every way it can fail is one ``error`` naming the file.

    Pre:  ``path`` is a str or os.PathLike.
    Post: the text (at most ``MAX_FILE_BYTES`` bytes); ``error`` for a path of another type, a missing file,
          a directory, a path through a file, an unreadable, oversized, binary (NUL bytes) or non-UTF-8 file.

    >>> read_text_file("/nonexistent/spec.toml", "spec")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutValueError: spec: cannot read '/nonexistent/spec.toml': no such file
    """
    _check_args(who, {"who": who}, error)
    if isinstance(path, bool) or not isinstance(path, (str, os.PathLike)):
        raise error(f"{who}: expected a file path, got {path!r} ({type(path).__name__})"[:200])
    name = os.fspath(path)
    if isinstance(name, bytes) or not name:
        raise error(f"{who}: expected a file path, got {path!r}"[:200])
    if os.path.isdir(name):
        raise error(f"{who}: cannot read {name!r}: it is a directory, not a file")
    try:
        with open(name, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise error(f"{who}: cannot read {name!r}: no such file") from None
    except NotADirectoryError:
        raise error(f"{who}: cannot read {name!r}: a part of the path is a file, not a directory") from None
    except (OSError, ValueError) as e:
        raise error(f"{who}: cannot read {name!r}: {getattr(e, 'strerror', None) or e}") from None
    if len(data) > MAX_FILE_BYTES:
        raise error(f"{who}: {name!r} is larger than MAX_FILE_BYTES = {MAX_FILE_BYTES} bytes")
    if b"\0" in data:
        raise error(f"{who}: {name!r} is a binary file (it contains NUL bytes), not a text file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise error(f"{who}: {name!r} is not UTF-8 text (byte {e.start} is {data[e.start]:#04x})") from None


def check_text_nesting(text: str, who: str, error: type[LayoutError] = LayoutValueError) -> None:
    """Refuse JSON/TOML text whose brackets nest more than ``MAX_NESTING_DEPTH`` levels (outside strings),
    before a recursive parser sees it.

    >>> check_text_nesting('{"a": [[1], "[[["]}', "spec")
    >>> check_text_nesting("[" * 100 + "]" * 100, "spec")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutValueError: spec: the text nests brackets more than MAX_NESTING_DEPTH = 64 levels deep
    """
    _check_args(who, {"who": who, "text": text}, error)
    if text.count("[") + text.count("{") <= MAX_NESTING_DEPTH:
        return
    level = 0
    for m in _BRACKETS_OUTSIDE_STRINGS.finditer(text):
        c = m.group(0)
        if c in "[{":
            level += 1
            if level > MAX_NESTING_DEPTH:
                raise error(f"{who}: the text nests brackets more than MAX_NESTING_DEPTH = {MAX_NESTING_DEPTH} levels deep")
        elif c in "]}":
            level -= 1


#: a double-quoted string (with escapes), a single-quoted one (TOML literal), or one bracket
_BRACKETS_OUTSIDE_STRINGS = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|[\[\]{}]')

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

import itertools
import os
import re
from typing import Any

import numpy as np

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
    "MAX_SEQUENCE_ITEMS",
    "check_budget",
    "check_count",
    "check_int_size",
    "check_sequence",
    "check_type",
    "check_bool",
    "check_fields",
    "fmt",
    "read_text_file",
    "write_file",
    "check_output_path",
    "make_output_dir",
    "check_text_nesting",
]

#: Levels of nesting accepted in an IntTuple, a notation string or a spec file (CuTe layouts use < 10).
MAX_NESTING_DEPTH = 64

#: Decimal digits accepted in one integer: a literal of the notation, an IntTuple leaf, an integer argument
#: (2**64 has 20). Larger integers are refused where they enter, before any message formats them.
MAX_INT_DIGITS = 64

#: Items of one flat argument sequence that a call walks item by item (sizes lists, tuples of
#: coordinates, the ``sizes`` of ``proofs.equivalent`` / ``proofs.report``).
MAX_SEQUENCE_ITEMS = 1 << 12

#: The smallest integer with more than MAX_INT_DIGITS digits.
_INT_BOUND = 10**MAX_INT_DIGITS

#: Characters of one value in an error message.
_FMT_CHARS = 120

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
            raise LayoutTypeError(f"limits: {name} must be a string, got {fmt(v)}")
    if not (isinstance(error, type) and issubclass(error, LayoutError)):
        raise LayoutTypeError(f"limits: error must be a LayoutError subclass, got {fmt(error)}")

def fmt(value: Any, text: bool = False) -> str:
    """``repr(value)`` (``str(value)`` with ``text``) for an error message, safe for every value: THE formatter
    of values in messages. At most 120 characters (400 with ``text``), an integer of more than
    ``MAX_INT_DIGITS`` digits shown by its bit length, a value whose repr/str fails shown by its type.

    Post: returns a one-line str; never raises (ints past Python's 4,300-digit ``str`` limit included).

    >>> fmt(10**5000)
    '<an int of 16610 bits>'
    >>> fmt((1, 2)), fmt("K"), fmt("K", text=True)
    ('(1, 2)', "'K'", 'K')
    >>> len(fmt(tuple(range(1000))))
    120
    """
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        if -_INT_BOUND < value < _INT_BOUND:
            return str(int(value))
        return f"<{'a negative' if value < 0 else 'an'} int of {int(value).bit_length()} bits>"
    try:
        shown = str(value) if text else repr(value)
    except Exception:  # noqa: BLE001 - a repr that fails (huge ints inside, a broken __repr__) is shown by type
        return f"<a {type(value).__name__}>"
    shown = " ".join(shown.split()) if "\n" in shown or "  " in shown and not text else shown
    cap = 400 if text else _FMT_CHARS
    return shown if len(shown) <= cap else shown[:cap - 3] + "..."


def check_int_size(who: str, name: str, value: Any) -> Any:
    """``value`` (an int) when it has at most ``MAX_INT_DIGITS`` decimal digits; else LayoutValueError.

    Pre:  ``value`` is an int (the caller checked its type).
    Post: returns ``value``; the check costs one comparison (no string conversion).

    >>> check_int_size("F2", "value", 2**64)
    18446744073709551616
    >>> check_int_size("F2", "value", 10**5000)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutValueError: F2: value has more than MAX_INT_DIGITS = 64 decimal digits, got <an int of 16610 bits>
    """
    if type(value) is not int:
        return check_count(who, name, value, None)
    if -_INT_BOUND < value < _INT_BOUND:
        return value
    who, name = (x if type(x) is str else fmt(x) for x in (who, name))  # names from a caller: never str() a huge int
    raise LayoutValueError(f"{who}: {name} has more than MAX_INT_DIGITS = {MAX_INT_DIGITS} decimal digits, got {fmt(value)}")


def check_count(who: str, name: str, value: Any, lo: int | None = 0, hi: int | None = None,
                error: type[LayoutError] | None = None) -> int:
    """``value`` as an int in ``[lo, hi]``, or LayoutTypeError/LayoutValueError naming ``name`` and the value.

    Pre:  ``who`` names the public function, ``name`` the argument; ``lo``/``hi`` None for no bound.
    Post: returns ``int(value)``; bools, floats, strings, arrays and other non-integers are refused
          (LayoutTypeError), integers of more than ``MAX_INT_DIGITS`` digits and integers out of bounds too
          (LayoutValueError); with ``error`` given, that LayoutError subclass is raised instead of both.
          This is THE integer check of the package: every integer argument goes through it.

    >>> check_count("explain", "index", 5, 0, 10)
    5
    >>> check_count("explain", "index", 2**64, 0, 10)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutValueError: explain: index must be in [0, 10], got 18446744073709551616
    """
    if type(value) is int and type(who) is str and type(name) is str and -_INT_BOUND < value < _INT_BOUND \
            and (lo is None or type(lo) is int and value >= lo) and (hi is None or type(hi) is int and value <= hi) \
            and (error is None or isinstance(error, type) and issubclass(error, LayoutError)):
        return value  # the common case (a plain int in bounds, plain arguments): every check below would pass
    _check_args(who, {"who": who, "name": name}, LayoutValueError if error is None else error)
    if isinstance(lo, bool) or lo is not None and not isinstance(lo, int) or hi is not None and (
            isinstance(hi, bool) or not isinstance(hi, int)):
        raise LayoutTypeError(f"check_count: bounds must be ints, got lo={fmt(lo)}, hi={fmt(hi)}")
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) and not (
            hasattr(value, "__index__") and type(value).__module__.startswith("sympy")):
        raise (error or LayoutTypeError)(f"{who}: {name} must be an integer, got {fmt(value)} ({type(value).__name__})")
    try:
        v = int(value.__index__())
    except (TypeError, ValueError):
        raise (error or LayoutTypeError)(f"{who}: {name} must be an integer, got {fmt(value)} "
                                         f"({type(value).__name__})") from None
    if not -_INT_BOUND < v < _INT_BOUND:
        raise (error or LayoutValueError)(f"{who}: {name} has more than MAX_INT_DIGITS = {MAX_INT_DIGITS} decimal "
                                          f"digits, got {fmt(v)}")
    if lo is not None and v < lo or hi is not None and v > hi:
        bound = f"in [{lo}, {hi}]" if hi is not None and lo is not None else f"<= {hi}" if lo is None else f">= {lo}"
        raise (error or LayoutValueError)(f"{who}: {name} must be {bound}, got {v}")
    return v


_NAMES = {
    "MAX_EVAL_POINTS": MAX_EVAL_POINTS,
    "MAX_TABLE_CELLS": MAX_TABLE_CELLS,
    "MAX_ADDRESS_POINTS": MAX_ADDRESS_POINTS,
    "MAX_PROOF_BITS": MAX_PROOF_BITS,
    "MAX_EXPLAIN_POINTS": MAX_EXPLAIN_POINTS,
    "MAX_FILE_BYTES": MAX_FILE_BYTES,
    "MAX_SEQUENCE_ITEMS": MAX_SEQUENCE_ITEMS,
}


def check_type(who: str, name: str, value: Any, types: Any, error: type[LayoutError] = LayoutTypeError) -> Any:
    """``value`` when it is an instance of ``types`` (bools are not ints, numpy arrays are nothing but arrays);
    else ``error`` naming ``who``, the argument and the value: THE check of a slot that takes one kind of object
    (a Picture, a Pairing, a string, ...).

    >>> check_type("caption_line", "pic", "K", str)
    'K'
    >>> check_type("caption_line", "pic", 3, str)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutTypeError: caption_line: pic must be a str, got 3 (int)
    """
    _check_args(who, {"who": who, "name": name}, error)
    tt = types if isinstance(types, tuple) else (types,)
    if not all(isinstance(t, type) for t in tt):
        raise LayoutTypeError(f"check_type: types must be classes, got {fmt(types)}")
    if isinstance(value, tt) and not (isinstance(value, (bool, np.bool_)) and bool not in tt and np.bool_ not in tt):
        return value
    names = " or ".join(t.__name__ for t in tt)
    raise error(f"{who}: {name} must be a {names}, got {fmt(value)} ({type(value).__name__})")


def check_bool(who: str, name: str, value: Any, error: type[LayoutError] = LayoutTypeError) -> bool:
    """``value`` as a bool (True, False, or a numpy bool), else ``error``: THE check of a flag argument, so an
    array never meets ``if flag:``.

    >>> check_bool("f", "trans", True)
    True
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    _check_args(who, {"who": who, "name": name}, error)
    raise error(f"{who}: {name} must be a bool, got {fmt(value)} ({type(value).__name__})")


def check_fields(obj: Any, error: type[LayoutError] = LayoutTypeError) -> None:
    """Check every field of the dataclass instance ``obj`` against its annotation: THE constructor check of the
    package's record classes (called from their ``__post_init__``), so a record never stores what its methods
    cannot use.

    Pre:  ``obj`` is a dataclass instance. Annotations checked: ``int`` (an int of at most ``MAX_INT_DIGITS``
          digits, not a bool), ``bool``, ``str``, ``float`` (int or float), ``tuple[...]``/``list``/``dict``
          (the container type), a class, and ``X | None``; ``Any`` and other forms are not checked.
    Post: None, or ``error`` naming the class, the field and the value.

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Box:
    ...     rows: int
    ...     name: str | None = None
    ...     def __post_init__(self): check_fields(self)
    >>> Box(3).rows
    3
    >>> Box("3")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutTypeError: Box: field rows must be int, got '3' (str)
    """
    import dataclasses

    if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
        raise LayoutTypeError(f"check_fields: expected a dataclass instance, got {fmt(obj)}")
    cls = type(obj)
    hints = _FIELD_HINTS.get(cls)
    if hints is None:
        import dataclasses
        import typing

        try:
            raw = typing.get_type_hints(cls)
        except Exception:  # noqa: BLE001 - an annotation that cannot be resolved is not checked
            raw = {}
        hints = {f.name: raw.get(f.name) for f in dataclasses.fields(cls)}
        _FIELD_HINTS[cls] = hints
    for name, hint in hints.items():
        value = getattr(obj, name)
        if not _fits(value, hint):
            raise error(f"{cls.__name__}: field {name} must be {_hint_text(hint)}, got {fmt(value)} "
                        f"({type(value).__name__})")


_FIELD_HINTS: dict = {}


def _fits(value: Any, hint: Any) -> bool:
    import types
    import typing

    if hint is None or hint is Any:
        return True
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, h) for h in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is int:
        return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)) \
            and -_INT_BOUND < value < _INT_BOUND
    if hint is bool:
        return isinstance(value, (bool, np.bool_))
    if hint is float:
        return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))
    if origin is not None:
        return not isinstance(origin, type) or isinstance(value, origin)
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True


def _hint_text(hint: Any) -> str:
    return getattr(hint, "__name__", None) or str(hint).replace("typing.", "")


def check_sequence(who: str, name: str, value: Any, max_items: int = MAX_SEQUENCE_ITEMS,
                   error: type[LayoutError] = LayoutTypeError, items: str = "items") -> list:
    """The items of ``value`` as a list, read only as far as ``max_items + 1`` (so an endless iterator or a
    tensor of 2**30 elements costs nothing): THE check of a slot that takes a sequence.

    Pre:  ``value`` is a tuple, list, range, numpy array or iterator.
    Post: the list of its items; ``error`` for a string, bytes, a dict, a non-iterable, or one of the
          library's own objects (a Layout, Tensor, atom, ...: they are not sequences of items); for more than
          ``max_items`` items (``MAX_SEQUENCE_ITEMS`` by default) LayoutValueError (or ``error``, when given).

    >>> check_sequence("XorSwizzle", "pairs", [(7, 4)])
    [(7, 4)]
    >>> check_sequence("equivalent", "sizes", range(10**9))
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutValueError: equivalent: sizes has more than MAX_SEQUENCE_ITEMS = 4096 items
    """
    _check_args(who, {"who": who, "name": name}, error)
    if isinstance(max_items, bool) or not isinstance(max_items, int):
        raise LayoutTypeError(f"check_sequence: max_items must be an int, got {fmt(max_items)}")
    mod = type(value).__module__ or ""
    if isinstance(value, (str, bytes, bytearray, dict)) or mod == "pycute_layouts" or mod.startswith("pycute_layouts.") \
            or isinstance(value, np.ndarray) and value.ndim == 0 or not hasattr(value, "__iter__"):
        raise error(f"{who}: {name} must be a sequence of {items} (a tuple or list), got {fmt(value)} "
                    f"({type(value).__name__})")
    try:
        got = list(itertools.islice(iter(value), max_items + 1))
    except TypeError:
        raise error(f"{who}: {name} must be a sequence of {items} (a tuple or list), got {fmt(value)} "
                    f"({type(value).__name__})") from None
    if len(got) > max_items:
        name_of = "MAX_SEQUENCE_ITEMS" if max_items == MAX_SEQUENCE_ITEMS else "the limit"
        raise (LayoutValueError if error is LayoutTypeError else error)(
            f"{who}: {name} has more than {name_of} = {max_items} items")
    return got


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
        raise LayoutTypeError(f"check_budget: limit must be an int, got {fmt(limit)}")
    name = next((k for k, v in _NAMES.items() if v == limit), str(limit))
    if type(points) is not int:
        raise LayoutValueError(f"{who}: {what} has a symbolic or non-integer size {fmt(points)}; only a concrete domain "
                               "can be enumerated")
    if points > limit:
        raise LayoutValueError(f"{who}: {what} has {fmt(points)} points, more than the {name} = {limit} budget")


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
        raise error(f"{who}: expected a file path, got {fmt(path)} ({type(path).__name__})")
    name = os.fspath(path)
    if isinstance(name, bytes) or not name:
        raise error(f"{who}: expected a file path, got {fmt(path)}")
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


def write_file(path: Any, data: bytes | str, who: str, error: type[LayoutError] = LayoutValueError) -> str:
    """Write ``data`` to the file ``path``; every way it can fail is one ``error`` naming the file: THE file writer
    of the package (a name too long, a missing directory, a path through a file, no permission, a full disk).
    Callers that do work before writing call :func:`check_output_path` first.

    Post: the path written, as a str.

    >>> write_file("/nonexistent/dir/x.png", b"", "to_png")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutValueError: to_png: cannot write '/nonexistent/dir/x.png': no such directory
    """
    name = check_output_path(path, who, error)
    if not isinstance(data, (bytes, str)):
        raise LayoutTypeError(f"write_file: data must be bytes or str, got {type(data).__name__}")
    payload = data if isinstance(data, bytes) else data.encode("utf-8")
    try:
        with open(name, "wb") as f:
            f.write(payload)
    except (OSError, ValueError) as e:
        raise error(f"{who}: cannot write {_path_text(name)}: {getattr(e, 'strerror', None) or e}") from None
    return name


def check_output_path(path: Any, who: str, error: type[LayoutError] = LayoutValueError) -> str:
    """``path`` as a str when a file can be created there (cheap checks, before any work): a str or PathLike,
    not empty, not a directory, a last component of at most 255 bytes, an existing parent directory.

    >>> check_output_path("a" * 300 + ".png", "to_png")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutValueError: to_png: cannot write 'aaaa...': the file name is longer than 255 bytes
    """
    _check_args(who, {"who": who}, error)
    if isinstance(path, bool) or not isinstance(path, (str, os.PathLike)):
        raise error(f"{who}: expected a file path, got {fmt(path)} ({type(path).__name__})")
    name = os.fspath(path)
    if isinstance(name, bytes) or not name or "\0" in name:
        raise error(f"{who}: expected a file path, got {fmt(path)}")
    shown = _path_text(name)
    if len(os.path.basename(name).encode("utf-8", "surrogatepass")) > 255:
        raise error(f"{who}: cannot write {shown}: the file name is longer than 255 bytes")
    if os.path.isdir(name):
        raise error(f"{who}: cannot write {shown}: it is a directory")
    parent = os.path.dirname(name) or "."
    if not os.path.isdir(parent):
        why = "a part of the path is a file, not a directory" if os.path.exists(parent) or _through_file(parent) \
            else "no such directory"
        raise error(f"{who}: cannot write {shown}: {why}")
    return name


def make_output_dir(path: Any, who: str, error: type[LayoutError] = LayoutValueError) -> str:
    """Create the directory ``path`` (and its parents) if missing; every way it can fail is one ``error`` naming the
    path: THE output-directory check of the package (a name too long, a path through a file, a file there, no
    permission).

    Post: the directory's path, as a str; it exists.

    >>> make_output_dir("a" * 300, "emit")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutValueError: emit: cannot create the directory 'aaaa...': a path component is longer than 255 bytes
    """
    _check_args(who, {"who": who}, error)
    if isinstance(path, bool) or not isinstance(path, (str, os.PathLike)):
        raise error(f"{who}: expected a directory path, got {fmt(path)} ({type(path).__name__})")
    name = os.fspath(path)
    if isinstance(name, bytes) or not name or "\0" in name:
        raise error(f"{who}: expected a directory path, got {fmt(path)}")
    shown = _path_text(name)
    if any(len(part.encode("utf-8", "surrogatepass")) > 255 for part in name.split(os.sep)):
        raise error(f"{who}: cannot create the directory {shown}: a path component is longer than 255 bytes")
    if os.path.exists(name) and not os.path.isdir(name):
        raise error(f"{who}: cannot create the directory {shown}: a file is there")
    try:
        os.makedirs(name, exist_ok=True)
    except (OSError, ValueError) as e:
        why = "a part of the path is a file, not a directory" if isinstance(e, NotADirectoryError) else \
            getattr(e, "strerror", None) or str(e)
        raise error(f"{who}: cannot create the directory {shown}: {why}") from None
    return name


def _through_file(parent: str) -> bool:
    p = parent
    while p and p != os.path.dirname(p):
        if os.path.isfile(p):
            return True
        p = os.path.dirname(p)
    return False


def _path_text(name: str) -> str:
    return fmt(name) if len(name) <= 100 else fmt(name[:97] + "...")


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

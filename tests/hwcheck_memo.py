"""``hwcheck.verify`` and ``hwcheck.emit`` computed once per test process for the same input (issue 26).

Verifying a committed result file recomputes thousands of predictions (seconds) and emitting every hardware check
writes the same sources every time (seconds); several tests need the same answer -- the API tests, and the CLI
tests that check what ``pycute-layouts hwcheck`` prints and returns for it. Both functions are pure functions of
their input and the library, so the answer is kept here, keyed by the input's bytes, and handed out as a copy:

- ``verify(source)``: the real ``hwcheck.verify`` the first time a file (by its bytes) or dict (by its JSON) is
  seen in this process, a deep copy of that answer afterwards.
- ``emit(out_dir)``: the real ``hwcheck.emit`` the first time, into a private directory; every call copies those
  files into ``out_dir`` and returns the counts.

A CLI test installs them with ``monkeypatch.setattr(hwcheck, "verify", hwcheck_memo.verify)``: the command still
parses its arguments, opens the path it was given, formats the answer and chooses the exit code. Tests that plant
a fault in the library call the real functions, never these.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from pycute_layouts import hwcheck

_REAL_VERIFY = hwcheck.verify
_REAL_EMIT = hwcheck.emit
_VERIFIED: dict[tuple, Any] = {}
_EMITTED: list[tuple[Path, Any]] = []


def verify(source: Any, *args: Any, **kwargs: Any) -> Any:
    """``hwcheck.verify(source, *args, **kwargs)``, computed once per process for the same file bytes / dict."""
    if isinstance(source, (str, os.PathLike)) and Path(source).is_file():
        key: tuple = ("file", hashlib.sha256(Path(source).read_bytes()).hexdigest())
    elif isinstance(source, dict):
        key = ("dict", hashlib.sha256(json.dumps(source, sort_keys=True, default=repr).encode()).hexdigest())
    else:
        return _REAL_VERIFY(source, *args, **kwargs)  # a missing file, a bad type: the real error
    key += (repr(args), repr(sorted(kwargs.items())))
    if key not in _VERIFIED:
        _VERIFIED[key] = _REAL_VERIFY(source, *args, **kwargs)
    return copy.deepcopy(_VERIFIED[key])


def emit(out_dir: Any) -> Any:
    """``hwcheck.emit(out_dir)``: the files of one real emit in this process, copied into ``out_dir``."""
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        return _REAL_EMIT(out_dir)  # the real error
    if not _EMITTED:
        first = Path(tempfile.mkdtemp(prefix="hwcheck-emit-"))
        _EMITTED.append((first, _REAL_EMIT(first)))
    first, counts = _EMITTED[0]
    shutil.copytree(first, out, dirs_exist_ok=True)
    return copy.deepcopy(counts)

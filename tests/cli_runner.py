"""The CLI tests' runner: ``pycute-layouts ARGS`` answered by ``cli.main`` in this process.

``run(*args, cwd=None)`` returns a ``subprocess.CompletedProcess`` (returncode, stdout, stderr) as a
subprocess would, without starting Python again for every call (a fresh interpreter costs more than
most commands). ``run_subprocess`` starts the installed console script -- or ``python -m
pycute_layouts`` where it is not on PATH -- for the tests about the process itself (exit codes seen
by a shell, pipes, ``python -m``); tests/test_cli.py keeps those.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

from pycute_layouts.cli import main

EXE = shutil.which("pycute-layouts")


class _Text(io.StringIO):
    """A text stream with the attributes commands may ask of sys.stdout (encoding, isatty, fileno)."""

    encoding = "utf-8"

    def isatty(self) -> bool:
        return False


def run(*args: str, cwd: Path | str | None = None, timeout: float | None = None) -> subprocess.CompletedProcess:
    """``pycute-layouts *args`` run in this process (``timeout`` is accepted for a subprocess's signature)."""
    out, err = _Text(), _Text()
    old = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(list(args))
            except SystemExit as e:  # argparse's --help / --version
                rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    finally:
        os.chdir(old)
    return subprocess.CompletedProcess(["pycute-layouts", *args], rc, out.getvalue(), err.getvalue())


def cli_command() -> list[str]:
    """How a user starts the command line here: the console script, else ``python -m pycute_layouts``."""
    return [EXE] if EXE else [sys.executable, "-m", "pycute_layouts"]


def run_subprocess(*args: str, cwd: Path | str | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """``pycute-layouts *args`` as a real subprocess."""
    return subprocess.run([*cli_command(), *args], capture_output=True, text=True, timeout=timeout, cwd=cwd)

"""Every script in examples/ runs to completion as a user would run it: one as ``python examples/X.py`` in a
fresh interpreter (exit 0, something printed), the others run as ``__main__`` in this process (``runpy``), which
is the same script without a fresh interpreter's start-up (numpy, sympy and the package imported again)."""

from __future__ import annotations

import contextlib
import io
import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*.py"))
#: The example run as a real subprocess (the others in-process).
IN_A_SUBPROCESS = "layout_algebra_tour.py"


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs(script: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if script.name == IN_A_SUBPROCESS:
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        r = subprocess.run([sys.executable, str(script)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, f"{script.name} failed:\n{r.stdout}\n{r.stderr}"
        assert r.stdout.strip(), f"{script.name} printed nothing"
        return
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "argv", [str(script)])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            runpy.run_path(str(script), run_name="__main__")
        except SystemExit as e:
            assert e.code in (None, 0), f"{script.name} exited with {e.code}:\n{out.getvalue()}"
    assert out.getvalue().strip(), f"{script.name} printed nothing"


def test_one_example_runs_in_a_subprocess() -> None:
    assert IN_A_SUBPROCESS in [p.name for p in EXAMPLES]

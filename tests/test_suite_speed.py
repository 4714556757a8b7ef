"""How the suite stays fast without dropping tests (issue 26): pytest-xdist by default, the slow sweeps behind a
marker that CI runs, and the CuTe C++ oracle's results cached outside the clone, one compile per chunk across
processes."""

from __future__ import annotations

import os
import re
import threading
import time
from pathlib import Path

import oracles
import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_cache_dir_is_outside_the_clone_by_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CUTE_ORACLE_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert oracles.oracle_cache_dir() == tmp_path / "xdg" / "pycute_layouts" / "oracle"
    monkeypatch.setenv("CUTE_ORACLE_CACHE", str(tmp_path / "mine"))           # the override wins
    assert oracles.oracle_cache_dir() == tmp_path / "mine"
    monkeypatch.setenv("CUTE_ORACLE_CACHE", str(ROOT / ".oracle" / "cache"))   # the in-clone cache still works
    assert oracles.oracle_cache_dir() == ROOT / ".oracle" / "cache"


def test_jobs_follow_the_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CUTE_ORACLE_JOBS", "3")
    assert oracles.CuteBatch().jobs == 3
    monkeypatch.delenv("CUTE_ORACLE_JOBS")
    assert oracles.CuteBatch().jobs == len(os.sched_getaffinity(0))


@pytest.mark.skipif(os.name != "posix", reason="flock is POSIX")
def test_a_chunk_lock_is_exclusive(tmp_path: Path) -> None:
    entry = tmp_path / "key.json"
    first, second = oracles._ChunkLock(entry), oracles._ChunkLock(entry)
    assert first.acquire()
    assert not second.acquire(blocking=False)            # another process/thread compiles it: come back later
    got = []
    waiter = threading.Thread(target=lambda: got.append(second.acquire()))
    waiter.start()
    time.sleep(0.1)
    assert not got                                       # a blocking acquire waits ...
    first.release()
    waiter.join(5)
    assert got == [True]                                 # ... until the first one is done
    second.release()


def test_the_readme_command_deselects_only_slow_and_uses_xdist() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    addopts = re.search(r'^addopts = "(.*)"$', pyproject, re.M).group(1)
    assert "-m 'not slow'" in addopts
    test_extra = re.search(r"^test = \[(.*)\]$", pyproject, re.M).group(1)
    assert "pytest-xdist" in test_extra


def test_ci_runs_the_slow_sweeps_after_the_readme_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python -m pytest -q -m slow" in ci
    assert ci.index('bash -c "$test_leg"') < ci.index("|| rc_slow=$?")
    assert "leg main python3 test,interop oracle,interop yes" in ci


def test_tests_sharing_a_broad_fixture_share_an_xdist_group(request: pytest.FixtureRequest) -> None:
    import conftest

    assert conftest._shared_fixture_group(request.node) is None     # only function-scoped fixtures here


def test_a_shared_fixture_keeps_its_group_under_xdist(request: pytest.FixtureRequest, proof_report: object) -> None:
    """Under xdist with --dist loadgroup, a test using the session's proof report carries the group suffix that
    routes it to the worker that built the report (the worker learns the mode from the controller, and the
    suffix is set where pytest >= 9.2 ignores xdist's own), so the report is built once, not once per worker."""
    workerinput = getattr(request.config, "workerinput", None)
    if not workerinput or workerinput.get("pycute_layouts_dist") != "loadgroup":
        pytest.skip("not run on a pytest-xdist worker with --dist loadgroup")
    assert request.config.option.loadgroup
    assert request.node.nodeid.endswith("@fixture-proof_report"), request.node.nodeid

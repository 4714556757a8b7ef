"""Shared test configuration: hypothesis budgets (profiles) and the tests dir on sys.path.

Profiles (select with HYPOTHESIS_PROFILE=...): ``ci`` (default; a fixed, derandomized budget of 100
examples per property, sized so that the README's test command stays under 3 minutes on 2 cores -- issue 26;
it was 200), ``dev`` (fast), ``thorough`` (5,000 examples, long local runs).
"""

from __future__ import annotations

import os
import re
import sys

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, os.path.dirname(__file__))

settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
settings.register_profile(
    "dev",
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.register_profile(
    "thorough",
    max_examples=5000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def proof_report():
    """The full ``pycute-layouts prove`` report, built once per test session (it is the same every time)."""
    from pycute_layouts import proofs

    return proofs.report()


# ------------------------------------------------------------------------------------------------
# CI cannot go green by skipping: in CI (CI=true), a skip whose reason is a missing oracle (a failed
# .ci/fetch-oracles: NVIDIA's pycute, the CuTe C++ headers, the compiler they need) or a missing
# optional dependency the README promises tests for is a failure. On a user's machine it stays a skip.
# PYCUTE_LAYOUTS_CI_REQUIRE lists what the CI leg promises (default "oracle"; the leg that installs the
# png extra adds "matplotlib").
# ------------------------------------------------------------------------------------------------

#: What each requirement's missing piece says in a skip reason (case-insensitive regular expressions).
CI_REQUIREMENTS = {
    "oracle": r"oracle|pycute\b(?!-layouts)|cute c\+\+|cutlass(?!-dsl)|g\+\+|compiler",
    "matplotlib": r"matplotlib",
    "interop": r"triton|nvidia-cutlass-dsl|cute dsl|\[interop\]",
}


def _ci_required() -> list:
    if os.environ.get("CI", "").strip().lower() not in ("1", "true", "yes"):
        return []
    names = os.environ.get("PYCUTE_LAYOUTS_CI_REQUIRE", "oracle")
    return [(n, CI_REQUIREMENTS[n]) for n in (x.strip() for x in names.split(",")) if n in CI_REQUIREMENTS]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if not rep.skipped or not _ci_required():
        return
    reason = rep.longrepr[2] if isinstance(rep.longrepr, tuple) else str(rep.longrepr)
    for name, pattern in _ci_required():
        if re.search(pattern, reason, re.I) and not re.search(r"is installed: the missing", reason):
            rep.outcome = "failed"
            rep.longrepr = (f"CI=true requires the {name} (PYCUTE_LAYOUTS_CI_REQUIRE): this test was skipped "
                            f"because: {reason}. Fetch it (.ci/fetch-oracles) or install it; on a user's machine "
                            "this stays a skip.")
            return


# ------------------------------------------------------------------------------------------------
# pytest-xdist by default (the README's `python -m pytest -q` on >= 2 CPUs): when pytest-xdist is
# installed (the `test` extra installs it), no -n/--dist/--tx was given, this is not a worker, and the
# process may use >= 2 CPUs, run one worker per CPU with --dist loadgroup. Opt out with `-n 0`,
# `-p no:xdist` or PYCUTE_LAYOUTS_XDIST=0; PYTEST_XDIST_AUTO_NUM_WORKERS sets the worker count.
# Tests that share an expensive fixture broader than a function (the session's proof report, a
# module's CuTe C++ oracle batch) are put in one xdist group, so that fixture is built once.
# ------------------------------------------------------------------------------------------------


def _usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    if hasattr(config, "workerinput") or not config.pluginmanager.hasplugin("xdist"):
        return None
    opt = config.option
    if getattr(opt, "numprocesses", None) is not None or getattr(opt, "dist", "no") != "no" or getattr(opt, "tx", None):
        return None
    if os.environ.get("PYCUTE_LAYOUTS_XDIST", "").strip().lower() in ("0", "no", "off", "false"):
        return None
    if opt.collectonly or getattr(opt, "usepdb", False) or getattr(opt, "looponfail", False):
        return None
    workers = _usable_cpus()
    env = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "").strip()
    if env.isdigit():
        workers = int(env)
    if workers >= 2:
        opt.numprocesses = workers
        opt.dist = "loadgroup"
    return None


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """xdist (controller side): tell each worker the --dist mode chosen above. A worker builds its config from
    the command line alone, so without this it would not know about loadgroup and would not add the group
    suffix to the node ids: the groups would be ignored and every shared fixture built on every worker."""
    node.workerinput["pycute_layouts_dist"] = node.config.option.dist


def pytest_configure(config):
    # xdist registers this marker; registered here too so that a run without xdist (-p no:xdist) does not warn
    config.addinivalue_line("markers", "xdist_group(name): run on the pytest-xdist worker of that group")
    workerinput = getattr(config, "workerinput", None)
    if workerinput and workerinput.get("pycute_layouts_dist") == "loadgroup":
        config.option.loadgroup = True
    if workerinput is not None:
        # an xdist worker: the workers are the suite's parallelism, so `prove` runs its rows in this process
        # (its own forked workers would oversubscribe the CPUs, and fork beside execnet's I/O thread, which
        # Python 3.12 warns about). The tests of the fork path itself enable it explicitly.
        os.environ.setdefault("PYCUTE_LAYOUTS_JOBS", "1")


_TESTS_DIR = os.path.dirname(os.path.abspath(__file__))


def _shared_fixture_group(item) -> str | None:
    """The xdist group of a test that uses a fixture of this test tree broader than a function."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    module_group = None
    for name in item.fixturenames:
        defs = info.name2fixturedefs.get(name)
        if not defs:
            continue
        fd = defs[-1]
        func = getattr(fd, "func", None)
        code = getattr(func, "__code__", None)
        if code is None or not os.path.abspath(code.co_filename).startswith(_TESTS_DIR):
            continue  # pytest's and plugins' own fixtures (tmp_path_factory, ...)
        if fd.scope in ("session", "package"):
            return f"fixture-{name}"
        if fd.scope in ("module", "class") and module_group is None:
            module_group = "module-" + item.nodeid.split("::", 1)[0]
    return module_group


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue
        group = _shared_fixture_group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
    _add_group_suffixes(config, items)


def _add_group_suffixes(config, items) -> None:
    """xdist's loadgroup routes a test by the ``@group`` suffix of its node id, which xdist (3.8) sets through
    ``item._nodeid``; pytest >= 9.2 keeps the id in ``item._id``, so the suffix is lost and every group is
    ignored. Set it here where it is missing (a no-op where xdist's own suffix took)."""
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})
        if not names or "@" in item.nodeid:
            continue
        node_id = getattr(item, "_id", None)
        parse = getattr(type(node_id), "parse", None)
        if parse is None:
            return
        try:
            item._id = parse(f"{item.nodeid}@{'_'.join(names)}")
        except Exception:  # noqa: BLE001 - another pytest layout: the groups are a speed-up, not a check
            return

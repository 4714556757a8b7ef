"""Shared test configuration: hypothesis budgets (profiles) and the tests dir on sys.path.

Profiles (select with HYPOTHESIS_PROFILE=...): ``ci`` (default; fixed budget sized for a
2-core CI run), ``dev`` (fast), ``thorough`` (long local runs).
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
    max_examples=200,
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
    "oracle": r"oracle|pycute\b|cute c\+\+|cutlass(?!-dsl)|g\+\+|compiler",
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

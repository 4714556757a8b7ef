"""Shared test configuration: hypothesis budgets (profiles) and the tests dir on sys.path.

Profiles (select with HYPOTHESIS_PROFILE=...): ``ci`` (default; fixed budget sized for a
2-core CI run), ``dev`` (fast), ``thorough`` (long local runs).
"""

from __future__ import annotations

import os
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

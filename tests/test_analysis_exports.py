"""The analysis names are public at the top level, and each is listed once: in its submodule's ``__all__``."""

from __future__ import annotations

import importlib
from collections import Counter

import pycute_layouts
import pycute_layouts.analysis as analysis

SUBMODULES = ("banks", "coalescing", "explain", "footprint", "linear")


def test_analysis_all_is_the_union_of_its_submodules() -> None:
    subs = [importlib.import_module(f"pycute_layouts.analysis.{m}").__all__ for m in SUBMODULES]
    assert sorted(analysis.__all__) == sorted(n for s in subs for n in s)
    assert not [n for n, c in Counter(analysis.__all__).items() if c > 1]


def test_every_analysis_name_is_public_at_the_top_level() -> None:
    top = pycute_layouts.__all__
    assert not [n for n, c in Counter(top).items() if c > 1], "a top-level name listed twice"
    missing = [n for n in analysis.__all__ if n not in top]
    assert not missing, missing
    for n in analysis.__all__:
        assert getattr(pycute_layouts, n) is getattr(analysis, n), n


def test_top_level_analyses_answer() -> None:
    from pycute_layouts import Layout, footprint, global_access, is_surjective, permutation_cycles

    assert footprint(Layout(4, 2)).holes == 3
    assert is_surjective(Layout((2, 2), (2, 1)))
    assert permutation_cycles(Layout((2, 2), (2, 1))) == ((0,), (1, 2), (3,))
    assert global_access(Layout(32, 1), element_bytes=4).lines == 1

"""Helpers shared by the subcommand modules of ``pycute-layouts``.

>>> defines(["m=2", "k=0x10"])
{'m': 2, 'k': 16}
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from ...errors import LayoutError, LayoutTypeError
from ...limits import fmt

__all__ = ["defines", "int0", "subparsers"]


def defines(items: Sequence[str] | None) -> dict:
    """Parse ``-D NAME=VALUE`` options into a dict of integers.

    >>> defines(None)
    {}
    """
    out: dict = {}
    for item in items or ():
        if "=" not in item:
            raise LayoutError(f"-D expects NAME=VALUE, got {fmt(item)}")
        k, v = item.split("=", 1)
        try:
            out[k.strip()] = int(v, 0)
        except ValueError:
            raise LayoutError(f"-D {k}: value must be an integer, got {fmt(v)}") from None
    return out


def subparsers(sub: Any, who: str) -> Any:
    """``sub`` when it is an argparse subparsers object (what ``add_subparsers()`` returns), else LayoutTypeError.

    >>> subparsers(None, "show.register")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutTypeError: show.register: sub must be an argparse subparsers object (add_subparsers()), got None
    """
    if not isinstance(sub, argparse._SubParsersAction):
        raise LayoutTypeError(f"{who}: sub must be an argparse subparsers object (add_subparsers()), got {fmt(sub)}")
    return sub


def int0(text: str) -> int:
    """argparse type: an integer in decimal or 0x hex.

    >>> int0("0x20")
    32
    """
    try:
        return int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer (decimal or 0x hex), got {fmt(text)}") from None

"""Rich display (Jupyter) for the package's objects, without the core importing the picture layer.

Layouts, composed layouts, shared-memory layouts and descriptors define IPython's display protocol
(``_repr_svg_`` / ``_repr_html_``) as one call, :func:`rich_repr`, which asks the renderer
registered for that format. The picture layer (:mod:`pycute_layouts.render`) registers its
renderers when it is imported, and the package ``__init__`` registers a loader that imports it the
first time anything is displayed.

Why a hook in the core rather than the alternatives: the core sits below the picture layer (the
pictures draw core objects), so it may not import it; IPython's formatter registry
(``get_ipython().display_formatter.formatters[...].for_type``) exists only inside a running
IPython, so registering there would need IPython at import time and would miss frontends that
call ``_repr_*_`` directly; attaching methods to core classes from an upper layer would hide
them from the classes' own source. The hook keeps ``import pycute_layouts`` light (the pictures
load on first display), is testable without IPython, and a renderer can never break a notebook:
:func:`rich_repr` returns ``None`` (IPython then shows the plain-text ``repr``) when no renderer
applies, when the object is too large to draw (the renderer's bound), or when drawing fails.

>>> class Thing:
...     def _repr_html_(self):
...         return rich_repr(self, "html")
>>> register_renderer("html", lambda obj: "<b>thing</b>" if isinstance(obj, Thing) else None)
>>> Thing()._repr_html_()
'<b>thing</b>'
>>> rich_repr(3, "html") is None                # no renderer applies: plain text
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import LayoutTypeError, LayoutValueError
from ..limits import fmt as fmt_value

__all__ = ["DISPLAY_FORMATS", "register_renderer", "set_display_loader", "rich_repr"]

#: The rich formats of IPython's display protocol that the package's objects offer.
DISPLAY_FORMATS = ("svg", "html")

_RENDERERS: dict[str, list[Callable[[Any], str | None]]] = {fmt: [] for fmt in DISPLAY_FORMATS}
_LOADERS: list[Callable[[], Any]] = []


def _check_format(fmt: Any, who: str) -> str:
    if not isinstance(fmt, str) or fmt not in DISPLAY_FORMATS:
        raise LayoutValueError(f"{who}: format must be one of {', '.join(map(repr, DISPLAY_FORMATS))}, got {fmt_value(fmt)}")
    return fmt


def register_renderer(fmt: str, renderer: Callable[[Any], str | None]) -> None:
    """Register ``renderer(obj) -> str | None`` for ``fmt`` ("svg" or "html"); the latest is asked first.

    Pre:  ``fmt`` in :data:`DISPLAY_FORMATS`; ``renderer`` callable, returning the markup or ``None``
          when it does not apply to ``obj`` (or ``obj`` is too large to draw).
    Post: :func:`rich_repr` asks it; registering the same function twice keeps one entry.

    >>> register_renderer("svg", 42)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutTypeError: register_renderer: the renderer must be callable, got 42
    """
    _check_format(fmt, "register_renderer")
    if not callable(renderer):
        raise LayoutTypeError(f"register_renderer: the renderer must be callable, got {fmt_value(renderer)}")
    if renderer in _RENDERERS[fmt]:
        _RENDERERS[fmt].remove(renderer)
    _RENDERERS[fmt].insert(0, renderer)


def set_display_loader(loader: Callable[[], Any]) -> None:
    """Register ``loader()``, run once on the first :func:`rich_repr` call (it imports the renderers).

    Pre:  ``loader`` callable with no arguments.
    Post: the next :func:`rich_repr` runs it (once; a failing loader is dropped, display falls back to text).

    >>> set_display_loader(None)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutTypeError: set_display_loader: the loader must be callable, got None
    """
    if not callable(loader):
        raise LayoutTypeError(f"set_display_loader: the loader must be callable, got {fmt_value(loader)}")
    _LOADERS.append(loader)


def rich_repr(obj: Any, fmt: str) -> str | None:
    """The ``fmt`` markup of ``obj`` from the first registered renderer that applies, else ``None``.

    Pre:  ``fmt`` in :data:`DISPLAY_FORMATS` (any other value gives ``None``).
    Post: a string, or ``None`` (no renderer applies, the object is too large, or drawing failed);
          never raises, so a notebook always shows at least the plain-text ``repr``.

    >>> rich_repr(object(), "png") is None
    True
    """
    if not isinstance(fmt, str) or fmt not in DISPLAY_FORMATS:
        return None
    while _LOADERS:
        loader = _LOADERS.pop(0)
        try:
            loader()
        except Exception:  # a broken picture layer must not break display: fall back to text
            pass
    for renderer in list(_RENDERERS[fmt]):
        try:
            out = renderer(obj)
        except Exception:  # same: the plain-text repr is always there
            out = None
        if isinstance(out, str):
            return out
    return None

"""Subcommands of ``pycute-layouts``, one module each (see ``pycute_layouts.cli``)."""

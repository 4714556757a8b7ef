"""The ``pycute-layouts`` command line.

Each subcommand lives in its own module ``pycute_layouts/cli/commands/<name>.py`` with a
``register(subparsers)`` function; this module only assembles them. Exit code 2 with a one-line
error on bad input, never a traceback.

>>> main(["show", "(2,2):(1,2)"])
(2,2):(1,2)
units: element offsets
       0   1
    +---+---+
 0  | 0 | 2 |
    +---+---+
 1  | 1 | 3 |
    +---+---+
0
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from collections.abc import Sequence
from typing import NoReturn

from ..errors import LayoutError, LayoutTypeError
from ..limits import fmt
from ..version import __version__

__all__ = ["main", "build_parser", "COMMANDS"]

#: Subcommands in the order ``--help`` lists them; each names a module in ``pycute_layouts.cli.commands``.
COMMANDS = ("prove", "show", "desc", "tma", "codegen", "analyze", "owners", "shfl", "hwcheck", "convert")


#: (library argument name, argparse dest, option): a library error that names the argument is shown with the option
#: the user typed, when the running command has that option (``element_bits=12`` -> ``--element-bits 12``).
_OPTION_NAMES = (("element_bits", "element_bits", "--element-bits"), ("access_bytes", "access", "--access"),
                 ("label", "label", "--label"), ("cell", "cell", "--cell"), ("color", "color", "--color"),
                 ("swizzle_unit", "swizzle_unit", "--swizzle-unit"), ("mma_mn", "mma_mn", "--mma-mn"),
                 ("cta_group", "cta_group", "--cta-group"), ("matrix_origins", "matrix_origins", "--matrix-origins"),
                 ("start_address", "start", "--start"), ("arch", "arch", "--arch"), ("dtype", "dtype", "--dtype"),
                 ("major", "major", "--major"), ("swizzle", "swizzle", "--swizzle"), ("operand", "operand", "--operand"),
                 ("coord", "coord", "--coord"), ("thread", "thread", "--thread"))


def cli_message(msg: str, args: argparse.Namespace) -> str:
    """``msg`` with the library's argument names (``name=value``, ``name must``) spelled as this command's options.

    >>> cli_message("show: label='address' needs bytes; use cell='chunk16'", argparse.Namespace(label="v", cell="c"))
    'show: --label address needs bytes; use --cell chunk16'
    >>> cli_message("TensorDataType.parse: cannot parse 'bf17'; allowed ...", argparse.Namespace(dtype="bf17"))
    "--dtype: TensorDataType.parse: cannot parse 'bf17'; allowed ..."
    """
    for api, dest, opt in _OPTION_NAMES:
        if not hasattr(args, dest):
            continue
        msg = re.sub(rf"(?<![\w.-]){api}=(?:'([^']*)'|([^\s,;)']+))", lambda m, o=opt: f"{o} {m.group(1) or m.group(2)}",
                     msg)
        msg = re.sub(rf"(?<![\w.'-]){api}(?= must\b| is required\b)", opt, msg)
    m = re.match(r"\w+\.parse: cannot parse '([^']*)'", msg)  # a vocabulary's parser: name the option that gave it
    if m:
        opts = [k for k, v in vars(args).items() if isinstance(v, str) and v == m.group(1) and k not in ("command",)]
        if len(opts) == 1:
            msg = f"--{opts[0].replace('_', '-')}: {msg}"
    return msg


class _Parser(argparse.ArgumentParser):
    """argparse with CLI-wide conventions: a usage error is ONE line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser with every subcommand (their parsers share the one-line usage errors).

    >>> build_parser().prog
    'pycute-layouts'
    """
    return _build(COMMANDS)


def _build(commands: Sequence[str]) -> argparse.ArgumentParser:
    """The parser with ``commands`` registered (``main`` registers only the one it runs: fewer imports)."""
    p = _Parser(prog="pycute-layouts", description="CuTe layout algebra, wgmma/TMA facts and proofs")
    p.add_argument("--version", action="version", version=f"pycute-layouts {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in commands:
        modname = f"{__package__}.commands.{name}"
        try:
            mod = importlib.import_module(modname)
        except ModuleNotFoundError as e:
            if e.name == modname:
                continue
            raise
        mod.register(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (2 for bad input, with a one-line message).

    Pre:  ``argv`` is None (``sys.argv[1:]``) or a list/tuple of strings; LayoutTypeError otherwise.

    >>> main(["show", "(2,"])
    2
    """
    if argv is not None:
        if not isinstance(argv, (list, tuple)) or not all(isinstance(a, str) for a in argv):
            raise LayoutTypeError(f"main: argv must be None or a list of strings (the command line's words), got "
                                  f"{fmt(argv)} ({type(argv).__name__})")
        argv = list(argv)
    else:
        argv = list(sys.argv[1:])
    parser = _build((argv[0],) if argv and argv[0] in COMMANDS else COMMANDS)
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except LayoutError as e:
        msg = cli_message(str(e).splitlines()[0], args)
        print(f"pycute-layouts {args.command}: error: {msg}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `pycute-layouts ... | head`: the reader left; not an error of ours
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

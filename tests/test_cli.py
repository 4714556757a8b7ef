"""The command line: the installed console script as a real subprocess where only a process shows it (the exit
status a shell sees, one line on stderr, the closed pipe, the usage and help text of the script itself), and the
same commands answered in-process by ``cli.main`` (tests/cli_runner.py) where a fresh interpreter adds nothing
but start-up time (the output of each command, every usage error, every subcommand's help)."""

from __future__ import annotations

import json
import shutil
import subprocess

import cli_runner
import pytest

EXE = shutil.which("pycute-layouts")


def run(*args: str) -> subprocess.CompletedProcess:
    """The console script as a real subprocess (``python -m pycute_layouts`` where it is not on PATH)."""
    return cli_runner.run_subprocess(*args, timeout=120)


def run_here(*args: str) -> subprocess.CompletedProcess:
    """The same command answered by ``cli.main`` in this process."""
    return cli_runner.run(*args)


def test_show_table() -> None:
    r = run("show", "(2,3):(3,1)")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "(2,3):(3,1)"
    assert "| 3 | 4 | 5 |" in r.stdout


def test_show_symbols_and_json() -> None:
    r = run_here("show", "(8,m):(m,1)", "-D", "m=2", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["layout"] == "(8,2):(2,1)" and data["values"][:3] == [0, 2, 4]


def test_show_swizzled() -> None:
    r = run_here("show", "Sw<3,4,3> o 0 o (8,64):(64,1)", "--json")
    assert r.returncode == 0, r.stderr
    vals = json.loads(r.stdout)["values"]
    assert sorted(vals) == list(range(512))


@pytest.mark.parametrize("args,words", [
    (("show", "(8,4):(4,"), "expected"),
    (("show", "(8,4):(4,1,2)"), "congruent"),
    (("show", "(8,m):(1,8)", "-D", "m"), "NAME=VALUE"),
    (("shfl", "SIDEWAYS", "1", "0"), "mode"),
    (("shfl", "IDX", "32", "0"), "32"),
    (("shfl", "IDX", "1", "0x2000"), "Sc"),
    (("shfl", "IDX", "zz", "0"), "integer"),
])
def test_bad_input_exit_2_one_line(args: tuple, words: str) -> None:
    r = run(*args) if args[-1] == "(8,4):(4," else run_here(*args)   # the first one through the console script
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert lines and words.lower() in r.stderr.lower()
    assert "error" in lines[-1]


def test_shfl_table_and_json() -> None:
    r = run("shfl", "IDX", "1", "0x1c03")
    assert r.returncode == 0, r.stderr
    assert "1 + (4,8):(0,4)" in r.stdout
    r = run_here("shfl", "BFLY", "16", "31", "--json")
    data = json.loads(r.stdout)
    assert data["source_lane"] == [i ^ 16 for i in range(32)] and all(data["in_range"])


def test_help_on_every_subcommand() -> None:
    for sub in ("show", "shfl"):
        r = run_here(sub, "--help")
        assert r.returncode == 0 and "usage" in r.stdout


# ---------------------------------------------------------------- conventions shared by every subcommand


def _script() -> str:
    exe = shutil.which("pycute-layouts")
    if exe is None:
        pytest.skip("the console script is not installed (pip install -e .)")
    return exe


@pytest.mark.parametrize("argv", [["--bogus"], ["nosuch"]] + [[c, "--bogus"] for c in
                                  ("prove", "show", "desc", "tma", "codegen", "analyze", "shfl", "hwcheck")])
def test_usage_errors_are_one_line_exit_2(argv: list[str]) -> None:
    r = subprocess.run([_script(), *argv], capture_output=True, text=True, timeout=120) if argv in (["--bogus"], [
        "hwcheck", "--bogus"]) else run_here(*argv)   # two through the console script, the others in-process
    assert r.returncode == 2, (argv, r.stderr)
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "error:" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("command", ["prove", "show", "desc", "tma", "codegen", "analyze", "owners", "shfl", "hwcheck",
                                     "convert"])
def test_every_subcommand_has_help(command: str) -> None:
    r = subprocess.run([_script(), command, "--help"], capture_output=True, text=True, timeout=120) if command == \
        "prove" else run_here(command, "--help")   # one through the console script, the others in-process
    assert r.returncode == 0 and r.stdout.startswith(f"usage: pycute-layouts {command}"), r.stderr


def test_closed_pipe_is_not_a_traceback() -> None:
    # a 256x256 table is ~1 MB: far more than the pipe holds once head has left
    r = subprocess.run(f"'{_script()}' show '(256,256):(256,1)' | head -1", shell=True, capture_output=True,
                       text=True, timeout=120)
    assert r.stdout.startswith("(256,256):(256,1)") and "Traceback" not in r.stderr and "BrokenPipe" not in r.stderr

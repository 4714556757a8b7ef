"""The report of ``pycute-layouts prove``: every pairing, stated mismatch and lemma classified against a fixed table.

:func:`expected_status` is the table written from the PTX ISA (not from the library);
:func:`report` runs the theorem and the lemmas and returns a :class:`ProofReport`, which renders
as text, Markdown or JSON.
"""

from __future__ import annotations

import functools
import gc
import json
import multiprocessing as mp
import os
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..arch.swizzle_modes import MMA_MODES, SwizzleMode
from ..errors import ProofError
from ..limits import check_bool, check_fields, check_sequence
from ..limits import fmt as fmt_value
from .lemmas import prove_base_offset_rule, prove_descriptor_encoding, prove_k_step
from .model import (
    ARCHS,
    ELEMENT_BITS,
    MAJORS,
    NEAREST_ATOM,
    TMA_MODES,
    Faults,
    NotApplicable,
    Pairing,
    fact_scope,
    instruction_descriptors,
    pairing,
    parse_arch,
    parse_bits,
    parse_major,
    parse_tma_mode,
)
from .theorem import prove_pairing

__all__ = ["EXPECTED_NOT_APPLICABLE", "EXPECTED_REFUTED_MODES", "expected_status", "ReportRow", "ProofReport", "report"]


#: Pairings that do not exist on the hardware, written out from the PTX ISA (not from the library):
#: (TMA modes or "*", major or "*", element widths, arch, reason). Every other pairing of a TMA mode
#: with an MMA atom is expected to be proved, and the TMA-only modes of EXPECTED_REFUTED_MODES to be
#: refuted against the nearest atom.
EXPECTED_NOT_APPLICABLE = (
    ("*", "MN", (8, 32), "sm90",
     "PTX wgmma.mma_async: imm-trans-a/b (MN-major operands) are allowed only for .f16/.bf16"),
    (("128B_ATOM_32B", "128B_ATOM_32B_FLIP_8B"), "*", (8, 16, 32), "sm90",
     "PTX 9.7.15.5.1.2 Table 38 / descriptor layout types: wgmma has no 128-byte swizzle with 32-byte atomicity"),
    (("128B_ATOM_32B", "128B_ATOM_32B_FLIP_8B"), "K", (8, 16, 32), "sm100",
     "tcgen05's 128B_base32B layout type has only an MN-major canonical layout (CuTe: invalid for Major-K)"),
)
#: TMA modes without an MMA layout type (PTX 5.5.7 Table 14 vs the descriptor layout types).
EXPECTED_REFUTED_MODES = ("128B_ATOM_32B_FLIP_8B", "128B_ATOM_64B", "96B")


def expected_status(tma_swizzle: Any, major: Any, element_bits: Any, arch: Any) -> tuple[str, str]:
    """The classification the report expects for a pairing, from the fixed table (not from the library).

    Pre:  a TMA mode, major, element width and arch the parsers accept.
    Post: (``'proved'`` | ``'refuted'`` | ``'not applicable'``, the reason) from the fixed table.

    >>> expected_status("64B", "MN", 32, "sm90")[0], expected_status("96B", "K", 16, "sm90")[0]
    ('not applicable', 'refuted')
    >>> expected_status("128B_ATOM_32B", "MN", 16, "sm100")
    ('proved', '')
    """
    t = parse_tma_mode(tma_swizzle).tma_name
    mj, bits, ar = parse_major(major), parse_bits(element_bits), parse_arch(arch)
    for modes, m_major, widths, m_arch, reason in EXPECTED_NOT_APPLICABLE:
        if (modes == "*" or t in modes) and m_major in ("*", mj) and bits in widths and m_arch == ar:
            return "not applicable", reason
    return ("refuted" if t in EXPECTED_REFUTED_MODES else "proved"), ""


# ----------------------------------------------------------------------------------------------
# the report
# ----------------------------------------------------------------------------------------------


@dataclass
class ReportRow:
    """One classified pairing of the report; ``ok`` when its status is the expected one.

    >>> row = ReportRow("128B", "K", 16, "sm90", "128B", "proved", "proved", "Q.E.D.")
    >>> row.ok, ReportRow("128B", "K", 16, "sm90", "64B", "proved", "refuted", "").ok
    (True, False)
    """

    tma_mode: str
    major: str
    element_bits: int
    arch: str
    wgmma_mode: str | None
    status: str  # "proved" | "refuted" | "not applicable"
    expected: str  # "proved" | "refuted" | "not applicable"
    detail: str
    exhaustive: str | None = None
    seconds: float = 0.0
    counterexample: dict | None = None

    def __post_init__(self) -> None:
        check_fields(self)

    @property
    def ok(self) -> bool:
        return self.status == self.expected and (self.exhaustive is None or self.exhaustive == self.status)

    def to_dict(self) -> dict:
        d = dict(self.__dict__)
        d["ok"] = self.ok
        return d


@dataclass
class ProofReport:
    """The table of ``pycute-layouts prove``: pairings, stated mismatches and lemmas, each classified.

    ``ok`` is False when any row differs from its expectation (an expected proof that failed, an
    expected refutation that was proved, or symbolic and exhaustive answers that disagree).

    >>> r = ProofReport(rows=[ReportRow("128B", "K", 16, "sm90", "128B", "proved", "proved", "Q.E.D.")])
    >>> r.ok, r.counts()
    (True, {'proved': 1})
    """

    rows: list = field(default_factory=list)
    negatives: list = field(default_factory=list)
    lemmas: list = field(default_factory=list)
    seconds: float = 0.0

    def __post_init__(self) -> None:
        check_fields(self)

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.rows + self.negatives + self.lemmas)

    @property
    def failures(self) -> list:
        return [r for r in self.rows + self.negatives + self.lemmas if not r.ok]

    def counts(self) -> dict:
        out: dict = {}
        for r in self.rows:
            out[r.status] = out.get(r.status, 0) + 1
        return out

    def _table(self, rows: list, md: bool, neg: bool = False, width: int | None = None) -> list:
        """One table; ``width`` (text only) cuts each row's detail to fit that many characters."""
        head = ["TMA mode", "major", "bits", "arch", "MMA atom", "expected", "result", "exhaustive", "detail"]
        if neg:
            head[0] = "stated pairing"
        short = (lambda s: s) if md else (lambda s: "n/a" if s == "not applicable" else s)  # noqa: E731
        body = [[r.tma_mode, r.major, str(r.element_bits), r.arch, r.wgmma_mode or "-", short(r.expected),
                 short(r.status) + ("" if r.ok else " (UNEXPECTED)"), r.exhaustive or "-", r.detail] for r in rows]
        if md:
            out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
            out += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in body]
            return out
        widths = [max(len(h), *(len(row[i]) for row in body)) if body else len(h) for i, h in enumerate(head)]
        widths[-1] = 0
        fmt = lambda row: "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()  # noqa: E731
        lines = [fmt(head), fmt(["-" * max(w, 1) for w in widths[:-1]] + ["------"])] + [fmt(r) for r in body]
        if width is None:
            return lines
        return [x if len(x) <= width else x[: width - 3].rstrip() + "..." for x in lines]

    def _summary(self) -> str:
        c = self.counts()
        exp = {s: sum(r.status == s and r.expected == s for r in self.rows) for s in c}
        part = lambda s: f"{c.get(s, 0)} {s} ({exp.get(s, 0)} as expected)"  # noqa: E731
        return (f"{len(self.rows)} pairings: {part('proved')}, {part('refuted')}, "
                f"{part('not applicable')}; {len(self.negatives)} stated mismatches refuted as "
                f"expected: {sum(r.ok for r in self.negatives)}; lemmas: {sum(r.ok for r in self.lemmas)}/"
                f"{len(self.lemmas)}; {'all as expected' if self.ok else f'{len(self.failures)} UNEXPECTED'}")

    def to_text(self, details: bool = False, width: int = 120) -> str:
        """The three tables as plain text, with a legend and a summary line.

        Pre:  ``width`` an int >= 60 (ignored with ``details``).
        Post: every line at most ``width`` characters (details cut with "...") unless ``details``;
              with ``details`` every row carries its full detail.
        """
        check_bool("ProofReport.to_text", "details", details, ProofError)
        if not details and (isinstance(width, bool) or not isinstance(width, int) or width < 60):
            raise ProofError(f"ProofReport.to_text: width must be an int >= 60, got {fmt_value(width)}")
        w = None if details else width
        legend = ("expected: the fixed table written from the PTX ISA; refuted rows pair a TMA-only mode with the "
                  "nearest MMA atom; n/a = not applicable (the detail says why)"
                  + ("" if details else "; details cut to fit, --details prints them whole"))
        out = _wrap("TMA swizzle modes vs wgmma/tcgen05 descriptors (symbolic proof for all m, k; exhaustive check "
                    "at concrete sizes)", w)
        out += _wrap(legend, w) + [""]
        out += self._table(self.rows, False, width=w)
        out += ["", "Stated mismatches and planted faults (each must be refuted):", ""]
        out += self._table(self.negatives, False, neg=True, width=w)
        out += ["", "Lemmas:", ""] + self._table(self.lemmas, False, neg=True, width=w)
        out += [""] + _wrap(self._summary(), w)
        return "\n".join(out)

    def to_markdown(self) -> str:
        """The three tables as Markdown (the table in ``docs/proofs.md`` is this text)."""
        out = ["#### Pairings", ""] + self._table(self.rows, True)
        out += ["", "#### Stated mismatches and planted faults", ""] + self._table(self.negatives, True, neg=True)
        out += ["", "#### Lemmas", ""] + self._table(self.lemmas, True, neg=True)
        out += ["", self._summary()]
        return "\n".join(out)

    def to_json(self) -> str:
        """Everything as JSON (rows, negatives, lemmas, ok, counts)."""
        return json.dumps({"ok": self.ok, "counts": self.counts(), "rows": [r.to_dict() for r in self.rows],
                           "negatives": [r.to_dict() for r in self.negatives],
                           "lemmas": [r.to_dict() for r in self.lemmas]}, indent=1)


def _wrap(text: str, width: int | None) -> list:
    """``text`` as lines of at most ``width`` characters, broken at spaces (one line when width is None)."""
    if width is None:
        return [text]
    lines, cur = [], ""
    for word in text.split(" "):
        if cur and len(cur) + 1 + len(word) > width:
            lines.append(cur)
            cur = word
        else:
            cur = f"{cur} {word}" if cur else word
    return lines + [cur]


def _cx_dict(cx: Any) -> dict:
    return {"coordinate": list(cx.coordinate), "tma_address": cx.tma_address, "wgmma_address": cx.wgmma_address,
            "m": cx.m, "k": cx.k, "dst_address": cx.dst_address, "descriptor": f"{cx.descriptor.encode():#018x}"}


def _classify(p: Pairing, expected: str, note: str, exhaustive: bool, faults: Faults | None = None,
              dst: int = 0) -> tuple:
    """(status, expected, detail, exhaustive status, seconds, counterexample dict) of one pairing.

    A ProofError that is not a refutation (the method cannot decide, or an encoded descriptor the
    hardware cannot read) gives the status "error", which never matches an expectation.
    """
    t0 = time.perf_counter()
    try:
        r = prove_pairing(p, "symbolic", dst, faults)
        ex = None
        if exhaustive:
            ex = "proved" if prove_pairing(p, "exhaustive", dst, faults) else "refuted"
    except ProofError as e:
        return "error", expected, (note + "; " if note else "") + str(e), None, time.perf_counter() - t0, None
    status = "proved" if r else "refuted"
    detail = note
    cxd = None
    if not r:
        detail = (note + "; " if note else "") + r.summary()
        cxd = _cx_dict(r)
    return status, expected, detail, ex, time.perf_counter() - t0, cxd


def _selection(name: str, values: Any) -> tuple:
    """A selection argument of :func:`report` as a tuple (a list or tuple of values, or one value)."""
    if isinstance(values, (list, tuple)):
        # a repeated value is the same row: each is proved once; a selection longer than any vocabulary is refused
        return tuple(dict.fromkeys(check_sequence("report", name, values, _MAX_SELECTION, ProofError)))
    if isinstance(values, (str, int)) and not isinstance(values, (bool, np.bool_)):
        return (values,)
    raise ProofError(f"report: {name} must be a value or a list of values, got {fmt_value(values)}")


#: Values one selection argument of :func:`report` may list (every vocabulary is far smaller).
_MAX_SELECTION = 64


def report(archs: Any = ARCHS, modes: Any = None, majors: Any = MAJORS, element_bits: Any = ELEMENT_BITS,
           exhaustive: bool = True) -> ProofReport:
    """Classify every pairing (mode x major x element width x arch), the stated mismatches and the lemmas.

    Pre:  archs, modes, majors and element widths the parsers accept (default: all).
    Post: a ProofReport whose ``ok`` is True when every row is as the fixed table expects.

    Each row's expectation comes from the fixed table (:func:`expected_status`), not from the
    library; the stated mismatches and lemmas are those relevant to the selected modes, majors,
    element widths and archs.

    >>> r = report(archs=("sm90",), modes=("128B",), majors=("K",), element_bits=(16,))
    >>> [(x.tma_mode, x.status) for x in r.rows], r.ok, len(r.negatives), len(r.lemmas)
    ([('128B', 'proved')], True, 3, 4)
    """
    t0 = time.perf_counter()
    archs = tuple(parse_arch(a) for a in _selection("archs", archs))
    mds = TMA_MODES if modes is None else tuple(parse_tma_mode(m) for m in _selection("modes", modes))
    majors = tuple(parse_major(m) for m in _selection("majors", majors))
    bits_list = tuple(parse_bits(b) for b in _selection("element_bits", element_bits))
    if not isinstance(exhaustive, bool):
        raise ProofError(f"report: exhaustive must be a bool, got {fmt_value(exhaustive)}")
    rep = ProofReport()
    tasks: list = [(rep.rows, functools.partial(_row, mode, major, bits, arch, exhaustive))
                   for mode in mds for major in majors for bits in bits_list for arch in archs]
    groups = [_atom_group(mode, major, bits) for mode in mds for major in majors for bits in bits_list for _a in archs]
    negatives = _negatives(exhaustive, mds, majors, bits_list, archs)
    tasks += [(rep.negatives, t) for t in negatives]
    groups += [_atom_group(t.args[1][0], t.args[2].get("mma_major", t.args[1][1]), t.args[1][2],
                           t.args[2].get("mma_mode")) for t in negatives]
    lemmas = _lemmas(mds, majors, bits_list, archs)
    tasks += [(rep.lemmas, t) for t in lemmas]
    # a K-step lemma derives its pairing's descriptors (name, major, bits, arch, mode, ...); the others share nothing
    groups += [_atom_group(t.args[4], t.args[1], t.args[2]) if t.args[0].startswith("K-step") else None for t in lemmas]
    # the descriptor-encoding lemmas need no sympy: they go first, to the early worker
    early = [i for i, (where, t) in enumerate(tasks) if where is rep.lemmas and t.args[0] == "descriptor encoding"]
    order = early + [i for i in _schedule(groups) if i not in early]
    rows = _run([tasks[i] for i in order], len(early))
    by_task = dict(zip(order, rows))
    for i, (where, _task) in enumerate(tasks):
        where.append(by_task[i])
    rep.seconds = time.perf_counter() - t0
    return rep


def _atom_group(tma_mode: Any, major: str, bits: int, mma_mode: Any = None) -> tuple:
    """The facts a row derives most of, as a key: its MMA atom (the matching or nearest one), major and width.

    Rows of one key share the tiles and descriptors of one atom (per arch) and the TMA side of one box
    (both archs); :func:`_schedule` keeps them in one process.
    """
    t = parse_tma_mode(tma_mode)
    atom = SwizzleMode.parse(mma_mode) if mma_mode is not None else NEAREST_ATOM.get(t, t)
    return (int(atom), major, bits)


def _schedule(groups: list) -> list:
    """The order the tasks are run in (a permutation of their indices; the report keeps the task order).

    ``groups[i]`` is task i's :func:`_atom_group` (None: it shares no facts). The tasks of one group are
    kept together, the first half of the groups at the front, the groupless tasks in the middle and the
    rest at the back: the process taking rows from the front and the one taking them from the back meet
    among tasks that share nothing, so neither derives the facts of a group the other derived.

    >>> _schedule(["a", None, "b", "a", "b", None])
    [0, 3, 1, 5, 2, 4]
    """
    blocks: dict = {}
    for i, g in enumerate(groups):
        if g is not None:
            blocks.setdefault(g, []).append(i)
    free = [i for i, g in enumerate(groups) if g is None]
    half = (len(groups) - len(free)) // 2
    front: list = []
    back: list = []
    for block in blocks.values():
        if not back and (not front or len(front) + len(block) <= half):
            front += block
        else:
            back += block
    return front + free + back


#: The rows of a report are independent: a report of at least this many is shared with one forked worker
#: (after the first _WARM_TASKS rows, which load what both processes then reuse: sympy, cached facts).
_PARALLEL_MIN_TASKS = 16
_WARM_TASKS = 1


def _can_fork(n_tasks: int) -> bool:
    if n_tasks < _PARALLEL_MIN_TASKS or os.environ.get("PYCUTE_LAYOUTS_JOBS", "") == "1":
        return False
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    # fork only on Linux (macOS frameworks are not fork-safe), never from a threaded or daemon process
    return cpus >= 2 and sys.platform.startswith("linux") and "fork" in mp.get_all_start_methods() \
        and threading.active_count() == 1 and not mp.current_process().daemon


def _run(tasks: list, n_early: int = 0) -> list:
    """Every task's row, in task order; with two CPUs, the rows after the first few shared with a forked worker.

    The rows do not depend on where they are computed (each is a pure function of the library), so
    the report is the same either way. This process takes rows from the front and the worker from the
    back of the list (two shared counters), until they meet: neither waits while the other has many
    slow rows left, and each proves neighbouring rows, which share derived facts (the sm90 and sm100
    rows of one TMA box load the same TMA side; :func:`report` orders the tasks by :func:`_schedule`).
    The first ``n_early`` tasks need no sympy: an early worker, forked first, proves them while this
    process loads sympy and proves the first row. A worker that fails to answer leaves its rows to
    this process.
    """
    with fact_scope():
        if not _can_fork(len(tasks)):
            return [task() for _where, task in tasks]
        ctx = mp.get_context("fork")
        # what the processes hold when they part stays out of their collections (and their pages unwritten);
        # objects a caller froze stay frozen
        freeze = gc.get_freeze_count() == 0
        out: dict = {}
        try:
            early = _fork_worker(ctx, tasks, 0, n_early - 1, freeze) if n_early else None
            warm = range(n_early, min(n_early + _WARM_TASKS, len(tasks)))
            out.update({i: tasks[i][1]() for i in warm})
            late = _fork_worker(ctx, tasks, n_early + len(warm), len(tasks) - 1, freeze)
            out.update(_take_rows(tasks, late[1], 0))
            for worker in (late, early):
                if worker is not None:
                    out.update(_collect(*worker))
        finally:
            if freeze:
                gc.unfreeze()
        return [out[i] if i in out else tasks[i][1]() for i in range(len(tasks))]


def _fork_worker(ctx: Any, tasks: list, lo: int, hi: int, freeze: bool) -> tuple:
    """A forked worker taking tasks ``lo..hi`` from the back (this process may take them from the front).

    Returns (process, the shared counters, the receiving end of its pipe).
    """
    if freeze:
        gc.freeze()
    counter = ctx.Array("l", [lo, hi])  # the next row from the front, from the back
    recv, send = ctx.Pipe(duplex=False)
    worker = ctx.Process(target=_worker, args=(tasks, counter, send), daemon=True)
    worker.start()
    send.close()
    return worker, counter, recv


def _collect(worker: Any, _counter: Any, recv: Any) -> dict:
    """The rows a worker sends back (none when it fails to answer); its error is raised here."""
    try:
        kind, theirs = recv.recv()
    except (EOFError, OSError):
        kind, theirs = "lost", None
    worker.join()
    if kind == "error":
        raise theirs
    return theirs if kind == "rows" else {}


def _take_rows(tasks: list, counter: Any, end: int) -> dict:
    """Row index -> row of every task this process takes from the front (``end`` 0) or the back (1), until none is left."""
    rows: dict = {}
    lock = counter.get_lock()
    while True:
        with lock:
            lo, hi = counter[0], counter[1]
            if lo > hi:
                return rows
            if end == 0:
                counter[0] = lo + 1
                i = lo
            else:
                counter[1] = hi - 1
                i = hi
        rows[i] = tasks[i][1]()


def _worker(tasks: list, counter: Any, send: Any) -> None:
    try:
        send.send(("rows", _take_rows(tasks, counter, 1)))
    except BaseException as e:  # noqa: BLE001 -- handed to the parent, which raises it
        try:
            send.send(("error", e))
        except Exception:
            send.send(("lost", None))
    finally:
        send.close()


def _row(mode: Any, major: str, bits: int, arch: str, exhaustive: bool) -> ReportRow:
    expected, why = expected_status(mode, major, bits, arch)
    t0 = time.perf_counter()
    try:
        try:
            p = pairing(mode, major, bits, arch)
            note = ""
        except NotApplicable as e:
            near = NEAREST_ATOM.get(mode)
            if near is None:
                raise
            try:
                p = pairing(mode, major, bits, arch, mma_mode=near)
            except NotApplicable as e2:
                raise NotApplicable(f"{e.reason.split('; name')[0]}; the nearest atom ({near.short_name}) does not "
                                    f"apply either: {e2.reason}") from None
            note = f"no MMA atom matches ({e.reason.split(';')[0].split(':')[0]}); vs the nearest"
    except NotApplicable as e:
        detail = e.reason if expected == "not applicable" else f"{e.reason}; expected {expected}"
        return ReportRow(mode.tma_name, major, bits, arch, None, "not applicable", expected, detail,
                         seconds=time.perf_counter() - t0)
    except ProofError as e:
        return ReportRow(mode.tma_name, major, bits, arch, None, "error", expected, str(e),
                         seconds=time.perf_counter() - t0)
    if expected == "not applicable":
        note = (note + "; " if note else "") + f"expected not applicable: {why}"
    return ReportRow(mode.tma_name, major, bits, arch, p.mma_mode.short_name, *_classify(p, expected, note, exhaustive))


#: The stated mismatches and planted faults of the report: (label, pairing args, faults, dst).
NEGATIVES = (
    ("TMA 64B box, wgmma 128B atom", ("64B", "K", 16, "sm90"), {"mma_mode": "128B"}, None, 0),
    ("TMA 128B MN-major box, K-major atom", ("128B", "MN", 16, "sm90"), {"mma_major": "K"}, None, 0),
    ("TMA 128B K-major box, MN-major atom", ("128B", "K", 16, "sm100"), {"mma_major": "MN"}, None, 0),
    ("wrong LBO (128 B fixed)", ("none", "K", 16, "sm90"), {}, Faults(lbo_bytes=128), 0),
    ("wrong SBO (512 B)", ("128B", "K", 16, "sm90"), {}, Faults(sbo_bytes=512), 0),
    ("LBO/SBO swapped (interleave swap)", ("64B", "MN", 16, "sm90"), {}, "swap", 0),
    ("wrong layout type (64B)", ("128B", "K", 16, "sm90"), {}, Faults(swizzle="64B"), 0),
    ("tile at 0x480 off the 1024 B boundary, PTX base offset", ("128B", "K", 16, "sm90"), {},
     Faults(swizzle_anchor="tile"), 0x480),
    ("base offset 2 on aligned TMA data", ("64B", "MN", 16, "sm100"), {}, Faults(base_offset=2), 0),
)


def _negatives(exhaustive: bool, mds: tuple = TMA_MODES, majors: tuple = MAJORS, bits_list: tuple = ELEMENT_BITS,
               archs: tuple = ARCHS) -> list:
    """The stated mismatches relevant to the selection, as tasks (each returns its row)."""
    return [functools.partial(_negative, label, args, kw, faults, dst, exhaustive)
            for label, args, kw, faults, dst in NEGATIVES
            if parse_tma_mode(args[0]) in mds and args[1] in majors and args[2] in bits_list and args[3] in archs]


def _negative(label: str, args: tuple, kw: dict, faults: Any, dst: int, exhaustive: bool) -> ReportRow:
    try:
        p = pairing(*args, **kw)
        if faults == "swap":
            d = instruction_descriptors(p, 2, 2, dst, Faults())[0]
            faults = Faults(lbo_bytes=d.sbo_bytes, sbo_bytes=d.lbo_bytes)
    except ProofError as e:  # NotApplicable included: every stated mismatch must exist
        return ReportRow(f"{args[0]} / {args[1]}", kw.get("mma_major", args[1]), args[2], args[3],
                         str(kw.get("mma_mode", args[0])), "error", "refuted", f"{label}; {e}")
    res = _classify(p, "refuted", label, exhaustive, faults, dst)
    return ReportRow(p.tma.tma_name + " / " + p.tma_major, p.mma_major, p.element_bits, p.arch,
                     p.mma_mode.short_name, *res)


def _lemma_row(name: str, major: str, bits: int, arch: str, mode: str, expected: str, detail: str, fn: Any) -> ReportRow:
    t0 = time.perf_counter()
    try:
        r = fn()
        status = "proved" if r else "refuted"
        if not r and hasattr(r, "summary"):
            detail += "; " + r.summary()
    except ProofError as e:
        status, detail = "error", f"{detail}; {e}"
    return ReportRow(name, major, bits, arch, mode, status, expected, detail, seconds=time.perf_counter() - t0)


def _lemmas(mds: tuple = TMA_MODES, majors: tuple = MAJORS, bits_list: tuple = ELEMENT_BITS,
            archs: tuple = ARCHS) -> list:
    """The lemmas relevant to the selection, as tasks (each returns its row)."""
    out: list = []
    names = {m.tma_name for m in mds}
    for arch in ARCHS:
        if arch not in archs:
            continue
        out.append(functools.partial(
            _lemma_row,
            "descriptor encoding", "-", 0, arch, "all", "proved",
            "every start/LBO/SBO field value, layout type and base offset: encode() == PTX bit positions, decode "
            "inverts it", lambda a=arch: prove_descriptor_encoding(a)))
        for mode in ("64B", "128B"):
            if mode not in names or "K" not in majors:
                continue
            for bits in ELEMENT_BITS:
                if bits in bits_list:
                    out.append(functools.partial(
                        _lemma_row,
                        f"K-step lemma {mode}", "K", bits, arch, mode, "proved",
                        "start += 32 B per instruction inside the swizzled row",
                        lambda m=mode, b=bits, a=arch: prove_k_step(m, b, a)))
        if "128B" in names and "K" in majors and 16 in bits_list:
            out.append(functools.partial(_lemma_row, "K-step with a 16 B step", "K", 16, arch, "128B", "refuted",
                                                  "planted fault: half an instruction",
                                                  lambda a=arch: prove_k_step("128B", 16, a, advance_bytes=16)))
        for mode in MMA_MODES:
            if not mode.is_swizzled or (arch == "sm90" and not mode.on_sm90) or parse_tma_mode(mode) not in mds:
                continue
            out.append(functools.partial(
                _lemma_row,
                f"base-offset rule {mode.short_name}", "-", 0, arch, mode.short_name, "proved",
                "pattern at S = 128*n read with base offset (S >> 7) & 7 (0 on the boundary)",
                lambda m=mode, a=arch: prove_base_offset_rule(m, a)))
    return out

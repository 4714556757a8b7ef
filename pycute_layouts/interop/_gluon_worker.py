"""A child process that asks Triton (Gluon) for the linear layout of one layout object at a time.

Run as ``python -m pycute_layouts.interop._gluon_worker``. Triton aborts the whole process on some
inputs (``LLVM ERROR: ...``); running it here means the caller sees a LayoutError instead.
Protocol: each request and answer is a 4-byte big-endian length and a pickle. A request is
``("batch", [(layout_or_source, shape), ...])``; the answer a list with one ``("ok", {"kind": ..., bases...})``
or ``("err", message)`` per layout, in order.
This module imports Triton only in :func:`main`, so importing it (e.g. by the layering test) needs
no Triton.
"""

from __future__ import annotations

import ast
import os
import pickle
import struct
import sys
from typing import Any

__all__ = ["main", "GLUON_NAMES"]

#: the names a Gluon source text may call (as ``gl.<name>(...)`` or bare)
GLUON_NAMES = ("BlockedLayout", "SliceLayout", "DistributedLinearLayout", "DotOperandLayout", "NVMMADistributedLayout",
               "NVMMASharedLayout", "SwizzledSharedLayout", "SharedLinearLayout", "PaddedSharedLayout",
               "TensorMemoryLayout")


#: the module names a constructor may be reached through (gl.nvidia.blackwell.TensorMemoryLayout)
_MODULE_NAMES = ("gl", "ttgl", "nvidia", "blackwell", "hopper")


def _check_source(node: ast.AST) -> None:
    """Literals, lists/tuples of them, and calls of the Gluon layout constructors only."""
    if isinstance(node, ast.Expression):
        return _check_source(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, bool)):
        return None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _check_source(node.operand)
    if isinstance(node, (ast.List, ast.Tuple)):
        for e in node.elts:
            _check_source(e)
        return None
    if isinstance(node, ast.Call):
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
        recv = f.value if isinstance(f, ast.Attribute) else None
        while isinstance(recv, ast.Attribute) and recv.attr in _MODULE_NAMES:
            recv = recv.value
        if name not in GLUON_NAMES or not (recv is None or (isinstance(recv, ast.Name) and recv.id in _MODULE_NAMES)):
            raise ValueError(f"not a Gluon layout constructor: {ast.unparse(f)}")
        for a in node.args:
            _check_source(a)
        for k in node.keywords:
            _check_source(k.value)
        return None
    raise ValueError(f"unsupported syntax in a Gluon layout: {ast.unparse(node)!r}")


def _bases(obj: Any) -> dict:
    kind = type(obj).__name__
    if hasattr(obj, "reg_bases"):
        return {"kind": "distributed", "reg_bases": obj.reg_bases, "lane_bases": obj.lane_bases,
                "warp_bases": obj.warp_bases, "block_bases": obj.block_bases, "shape": obj.shape}
    if hasattr(obj, "offset_bases"):
        return {"kind": "shared", "offset_bases": obj.offset_bases, "block_bases": obj.block_bases}
    if hasattr(obj, "rows") and hasattr(obj, "cols"):
        return {"kind": "tmem", "rows": obj.rows, "cols": obj.cols, "shape": obj.shape}
    raise ValueError(f"Triton returned an unknown linear layout {kind}")


def main() -> None:  # pragma: no cover - runs in the child process
    proto_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything Triton prints goes to stderr, never into the protocol
    inp = sys.stdin.buffer
    from triton._C.libtriton import gluon_ir, ir
    from triton.experimental.gluon import language as gl
    from triton.experimental.gluon.language._semantic import GluonSemantic
    from triton.experimental.gluon.language.nvidia import blackwell

    ctx = ir.context()
    ir.load_dialects(ctx)
    sem = GluonSemantic(gluon_ir.GluonOpBuilder(ctx, ""))
    names = {n: getattr(gl, n) for n in GLUON_NAMES if hasattr(gl, n)}
    names["TensorMemoryLayout"] = blackwell.TensorMemoryLayout
    ns = {"gl": gl, "ttgl": gl, "blackwell": blackwell, **names, "__builtins__": {}}
    while True:
        hdr = inp.read(4)
        if len(hdr) < 4:
            return
        (n,) = struct.unpack(">I", hdr)
        tag, items = pickle.loads(inp.read(n))
        answers = []
        for layout, shape in items if tag == "batch" else []:
            try:
                if isinstance(layout, str):
                    tree = ast.parse(layout.strip(), mode="eval")
                    _check_source(tree)
                    layout = eval(compile(tree, "<gluon>", "eval"), ns)  # noqa: S307 - checked: constructors and literals only
                ll = gl.to_linear_layout(layout, list(shape), _semantic=sem)
                ll = getattr(ll, "value", ll)
                ans: tuple = ("ok", {**_bases(ll), "repr": repr(layout)})
            except Exception as e:  # noqa: BLE001 - every Triton complaint goes back as text
                ans = ("err", f"{type(e).__name__}: {e}")
            answers.append(ans)
        data = pickle.dumps(answers)
        proto_out.write(struct.pack(">I", len(data)) + data)
        proto_out.flush()


if __name__ == "__main__":  # pragma: no cover
    main()

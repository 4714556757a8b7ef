"""Generate a kernel-constants header from a TOML spec, and prove it compiles with its static_asserts.

The spec is what you would keep next to the kernel source; the header is what the kernel includes.
The script writes the header (and the Python/JSON forms) into a temporary directory, shows the A
operand's part, and -- when g++ is available -- compiles a translation unit that includes it, so
every static_assert the generator emitted (sizes, alignment, descriptor fields) is checked.
"""

import shutil
import subprocess
import tempfile
from pathlib import Path

from pycute_layouts.codegen import emit_header, emit_json, emit_python, kernel_constants, load_spec

SPEC = """
kernel = "deepgemm_like_fp8"
arch = "sm90"

[A]
tile = "128x128"
dtype = "e4m3"
major = "K"
swizzle = "128B"
stages = 4

[B]
tile = "128x128"
dtype = "e4m3"
major = "K"
swizzle = "128B"
stages = 4
"""

kc = kernel_constants(load_spec(text=SPEC, fmt="toml"))
out = Path(tempfile.mkdtemp(prefix="pycute_codegen_"))
header = out / "gemm_constants.h"
header.write_text(emit_header(kc))
(out / "gemm_constants.py").write_text(emit_python(kc))
(out / "gemm_constants.json").write_text(emit_json(kc))
print(f"wrote {header} ({len(header.read_text().splitlines())} lines), .py and .json beside it\n")
wanted = ("kStageBytes", "kLboBytes", "kSboBytes", "kLayoutType", "kDesc =", "kKStepAdvance16B", "kTmaSwizzle",
          "kTmaBoxDim")
in_a = False
for line in header.read_text().splitlines():
    in_a = in_a or line.startswith("struct OperandA")
    if in_a and any(w in line for w in wanted):
        print("  " + line.strip())
    if in_a and line.startswith("};"):
        break

ns: dict = {}
exec((out / "gemm_constants.py").read_text(), ns)          # the Python form agrees with the object
assert ns["A_DESC"] == kc.operand("A").desc, "Python module and KernelConstants disagree"

gxx = shutil.which("g++")
if gxx:
    tu = out / "check.cpp"
    tu.write_text('#include "gemm_constants.h"\nint main() { return 0; }\n')
    r = subprocess.run([gxx, "-std=c++17", "-Wall", "-Werror", "-c", str(tu), "-o", str(out / "check.o")],
                       capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(f"the generated header does not compile:\n{r.stderr}")
    print("\ng++ -std=c++17: the header compiles and all its static_asserts hold")
else:
    print("\n(g++ not found: compile check skipped)")
shutil.rmtree(out)

"""torch.matmul on the same GPU, as information next to the generated GEMM (stdlib + torch; prints JSON).

    python3 torch_baseline.py OUT.json [SIZE]

bf16: torch.matmul(A, B^T) with A, B of SIZE x SIZE; e4m3: torch._scaled_mm (f32 output scale 1) where the
build has it. Each: 3 warm-up products, then the mean of 20 timed by CUDA events.
"""

import json
import sys


def main() -> int:
    out = {"available": False}
    try:
        import torch
    except Exception as e:  # noqa: BLE001
        out["error"] = f"no torch: {e}"
    else:
        n = int(sys.argv[2]) if len(sys.argv) > 2 else 8192
        out.update(available=True, torch=torch.__version__, size=n, device=torch.cuda.get_device_name(0))
        a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)

        def bench(fn):
            for _ in range(3):
                fn()
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            for _ in range(20):
                fn()
            e.record()
            torch.cuda.synchronize()
            ms = s.elapsed_time(e) / 20
            return {"time_ms": ms, "tflops": 2 * n**3 / (ms * 1e-3) / 1e12}

        out["bf16"] = bench(lambda: torch.matmul(a, b.t()))
        try:
            a8, b8 = a.to(torch.float8_e4m3fn), b.to(torch.float8_e4m3fn)
            one = torch.ones((), device="cuda")
            out["e4m3"] = bench(lambda: torch._scaled_mm(a8, b8.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16))
        except Exception as e:  # noqa: BLE001
            out["e4m3"] = {"error": str(e)[:200]}
    with open(sys.argv[1], "w") as f:
        json.dump(out, f)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())

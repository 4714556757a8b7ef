// Hardware validation of pycute_layouts (issue 9): runs the cases of generated/hwcheck_cases.cuh on a Hopper GPU
// and writes the GPU's raw observations as JSON. This file holds no layout constant: every swizzle mode, box,
// destination address, descriptor and operand store address comes from the generated headers / data blob, which
// `pycute-layouts hwcheck --emit examples/hardware/generated` computes with the library: the wgmma operands' descriptors,
// K steps, MN-block offsets, TMA swizzle, box, data type and copies are read from pycute_layouts.codegen's header
// (generated/hwcheck_codegen.cuh, one namespace per configuration).
//
// usage: hwcheck PHASE OUT.json DATA.bin [START]      PHASE = place | store | valid | im2col | mma | e2e | neg
// exit 0: done; 3: a launch left the context unusable, OUT.json is complete up to that case and OUT.json.next
// holds the index to restart from (run.sh does that).
#include <cuda.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "hwcheck_cases.cuh"  // written by `pycute-layouts hwcheck --emit DIR` (built with -I DIR)

// The driver's tensor-map encoders, reached through the runtime (no -lcuda needed to link).
using EncodeTiledFn = decltype(&cuTensorMapEncodeTiled);
using EncodeIm2colFn = decltype(&cuTensorMapEncodeIm2col);
static EncodeTiledFn p_encode_tiled = nullptr;
static EncodeIm2colFn p_encode_im2col = nullptr;
static void load_driver_entry_points() {
  cudaDriverEntryPointQueryResult q;
  if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void**)&p_encode_tiled, 12000, cudaEnableDefault,
                                       &q) != cudaSuccess ||
      q != cudaDriverEntryPointSuccess ||
      cudaGetDriverEntryPointByVersion("cuTensorMapEncodeIm2col", (void**)&p_encode_im2col, 12000, cudaEnableDefault,
                                       &q) != cudaSuccess ||
      q != cudaDriverEntryPointSuccess) {
    fprintf(stderr, "cannot load the driver's cuTensorMapEncode* entry points\n");
    exit(2);
  }
}

// ------------------------------------------------------------------------------------------------------------
// hashing: the same as pycute_layouts.hwcheck.fnv_hash
// ------------------------------------------------------------------------------------------------------------
static uint64_t splitmix(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static uint64_t hw_hash(const int32_t* v, size_t n) {
  uint64_t h = 0;
  for (size_t i = 0; i < n; ++i) h += splitmix(i) * splitmix((uint64_t)(uint32_t)v[i]);
  return h;
}
static std::string hex64(uint64_t v) {
  char b[32];
  snprintf(b, sizeof b, "%016llx", (unsigned long long)v);
  return b;
}

// ------------------------------------------------------------------------------------------------------------
// device helpers
// ------------------------------------------------------------------------------------------------------------
__device__ __forceinline__ uint32_t smem_u32(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void mbar_init(uint32_t mbar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mbar) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ __forceinline__ void mbar_expect(uint32_t mbar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mbar), "r"(bytes) : "memory");
}
// returns 0 when the phase completed, 1 on timeout
__device__ __forceinline__ int mbar_wait(uint32_t mbar, uint32_t parity, long long max_tries = 1ll << 26) {
  for (long long it = 0; it < max_tries; ++it) {
    uint32_t done;
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(mbar), "r"(parity)
        : "memory");
    if (done) return 0;
  }
  return 1;
}
__device__ __forceinline__ void tma_load_2d(uint32_t dst, const CUtensorMap* map, int c0, int c1, uint32_t mbar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
          dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(mbar)
      : "memory");
}
__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, int c0, int c1, uint32_t src) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" ::"l"(
                   reinterpret_cast<uint64_t>(map)),
               "r"(c0), "r"(c1), "r"(src)
               : "memory");
}
__device__ __forceinline__ void tma_store_commit_wait() {
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
__device__ __forceinline__ void tma_load_im2col_3d(uint32_t dst, const CUtensorMap* map, const int* c, const uint16_t* o,
                                                   uint32_t mbar) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], "
      "[%2], {%6};" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(mbar), "r"(c[0]), "r"(c[1]), "r"(c[2]), "h"(o[0])
      : "memory");
}
__device__ __forceinline__ void tma_load_im2col_4d(uint32_t dst, const CUtensorMap* map, const int* c, const uint16_t* o,
                                                   uint32_t mbar) {
  asm volatile(
      "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6}], "
      "[%2], {%7, %8};" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(mbar), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "h"(o[0]), "h"(o[1])
      : "memory");
}
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

// status[0] = dynamic smem base, status[1] = error flags (1: base too high, 2: mbarrier timeout)

// ------------------------------------------------------------------------------------------------------------
// TMA placement: load two boxes (byte patterns P0, P1) to dst0/dst1 and dump both regions
// ------------------------------------------------------------------------------------------------------------
__global__ void place_kernel(const __grid_constant__ CUtensorMap m0, const __grid_constant__ CUtensorMap m1,
                             uint32_t dst0, uint32_t dst1, uint32_t bytes, uint8_t* out, uint32_t* status) {
  extern __shared__ __align__(1024) uint8_t smem[];
  const uint32_t base = smem_u32(smem);
  if (threadIdx.x == 0) status[0] = base;
  if (base > kAbsMbar) {
    if (threadIdx.x == 0) status[1] = 1;
    return;
  }
  for (uint32_t a = kAbsPlace + threadIdx.x * 16; a < kAbsPlace + 2 * kPlaceRegion; a += blockDim.x * 16)
    *reinterpret_cast<uint4*>(smem + (a - base)) = make_uint4(0, 0, 0, 0);
  if (threadIdx.x == 0) mbar_init(kAbsMbar);
  fence_proxy_async();
  __syncthreads();
  if (threadIdx.x == 0) {
    mbar_expect(kAbsMbar, 2 * bytes);
    tma_load_2d(dst0, &m0, 0, 0, kAbsMbar);
    tma_load_2d(dst1, &m1, 0, 0, kAbsMbar);
  }
  if (mbar_wait(kAbsMbar, 0)) atomicOr(&status[1], 2u);
  __syncthreads();
  for (uint32_t i = threadIdx.x; i < 2 * kPlaceRegion; i += blockDim.x) out[i] = smem[kAbsPlace - base + i];
}

// ------------------------------------------------------------------------------------------------------------
// TMA store: smem regions 0/1 hold byte patterns P0(s) = 1 + s % 255, P1(s) = 1 + s / 255 (s = offset in the
// region); two boxes are stored from dst0/dst1 to global, so every global byte names the smem byte it came from.
// Then a round trip: TMA load of a third pattern into dst0 (map m2), TMA store of that box back out (map m3).
// ------------------------------------------------------------------------------------------------------------
__global__ void store_kernel(const __grid_constant__ CUtensorMap m0, const __grid_constant__ CUtensorMap m1,
                             const __grid_constant__ CUtensorMap m2, const __grid_constant__ CUtensorMap m3,
                             uint32_t dst0, uint32_t dst1, uint32_t bytes, uint32_t* status) {
  extern __shared__ __align__(1024) uint8_t smem[];
  const uint32_t base = smem_u32(smem);
  if (threadIdx.x == 0) status[0] = base;
  if (base > kAbsMbar) {
    if (threadIdx.x == 0) status[1] = 1;
    return;
  }
  for (uint32_t s = threadIdx.x; s < kPlaceRegion; s += blockDim.x) {
    smem[kAbsPlace - base + s] = (uint8_t)(1 + s % 255);
    smem[kAbsPlace + kPlaceRegion - base + s] = (uint8_t)(1 + s / 255);
  }
  if (threadIdx.x == 0) mbar_init(kAbsMbar);
  fence_proxy_async();
  __syncthreads();
  if (threadIdx.x == 0) {
    tma_store_2d(&m0, 0, 0, dst0);
    tma_store_2d(&m1, 0, 0, dst1);
    tma_store_commit_wait();
  }
  __syncthreads();
  for (uint32_t s = threadIdx.x; s < kPlaceRegion; s += blockDim.x) smem[kAbsPlace - base + s] = 0;
  fence_proxy_async();
  __syncthreads();
  if (threadIdx.x == 0) {
    mbar_expect(kAbsMbar, bytes);
    tma_load_2d(dst0, &m2, 0, 0, kAbsMbar);
  }
  if (mbar_wait(kAbsMbar, 0)) atomicOr(&status[1], 2u);
  __syncthreads();
  if (threadIdx.x == 0) {
    tma_store_2d(&m3, 0, 0, dst0);
    tma_store_commit_wait();
  }
}

// ------------------------------------------------------------------------------------------------------------
// im2col: one cp.async.bulk.tensor.{3d,4d}...im2col load into a zeroed region, then dump the region
// ------------------------------------------------------------------------------------------------------------
__global__ void im2col_kernel(const __grid_constant__ CUtensorMap m, int rank, uint32_t dst, uint32_t bytes,
                              int4 coords, ushort2 offs, uint8_t* out, uint32_t* status) {
  extern __shared__ __align__(1024) uint8_t smem[];
  const uint32_t base = smem_u32(smem);
  if (threadIdx.x == 0) status[0] = base;
  if (base > kAbsMbar) {
    if (threadIdx.x == 0) status[1] = 1;
    return;
  }
  for (uint32_t a = kAbsPlace + threadIdx.x * 16; a < kAbsPlace + kIm2colRegion; a += blockDim.x * 16)
    *reinterpret_cast<uint4*>(smem + (a - base)) = make_uint4(0, 0, 0, 0);
  if (threadIdx.x == 0) mbar_init(kAbsMbar);
  fence_proxy_async();
  __syncthreads();
  if (threadIdx.x == 0) {
    const int c[4] = {coords.x, coords.y, coords.z, coords.w};
    const uint16_t o[2] = {offs.x, offs.y};
    mbar_expect(kAbsMbar, bytes);
    if (rank == 3)
      tma_load_im2col_3d(dst, &m, c, o, kAbsMbar);
    else
      tma_load_im2col_4d(dst, &m, c, o, kAbsMbar);
  }
  if (mbar_wait(kAbsMbar, 0, 1ll << 22)) atomicOr(&status[1], 2u);
  __syncthreads();
  for (uint32_t i = threadIdx.x; i < kIm2colRegion; i += blockDim.x) out[i] = smem[kAbsPlace - base + i];
}

// ------------------------------------------------------------------------------------------------------------
// wgmma: operands by plain stores (loader 0) or by TMA (loader 1), then M/64 x K/k wgmma instructions
// ------------------------------------------------------------------------------------------------------------
struct MmaArgs {
  const uint32_t* a_vals;
  const uint32_t* a_addrs;
  int na;
  const uint32_t* b_vals;
  const uint32_t* b_addrs;
  int nb;
  const uint64_t* descA;
  const uint64_t* descB;
  int mblocks;
  int ksteps;
  int loader;
  const int32_t* boxes_a;
  int nboxes_a;
  const int32_t* boxes_b;
  int nboxes_b;
  uint32_t tx_bytes;
  float* D;
  uint32_t* status;
};

template <int kBits>
__device__ __forceinline__ void plain_store(uint8_t* p, uint32_t v) {
  if (kBits == 8) *reinterpret_cast<volatile uint8_t*>(p) = (uint8_t)v;
  if (kBits == 16) *reinterpret_cast<volatile uint16_t*>(p) = (uint16_t)v;
  if (kBits == 32) *reinterpret_cast<volatile uint32_t*>(p) = v;
}

template <class V>
__global__ void __launch_bounds__(128, 1)
    mma_kernel(const __grid_constant__ CUtensorMap ta, const __grid_constant__ CUtensorMap tb, MmaArgs args) {
  extern __shared__ __align__(1024) uint8_t smem[];
  const uint32_t base = smem_u32(smem);
  const int tid = threadIdx.x;
  if (tid == 0) args.status[0] = base;
  if (base > kAbsMbar) {
    if (tid == 0) args.status[1] = 1;
    return;
  }
  const uint32_t end = (base + kDynSmem) & ~15u;
  for (uint32_t a = kAbsData + tid * 16; a < end; a += 128 * 16)
    *reinterpret_cast<uint4*>(smem + (a - base)) = make_uint4(0, 0, 0, 0);
  __syncthreads();
  if (args.loader == 0) {
    for (int i = tid; i < args.na; i += 128) plain_store<V::kBits>(smem + (args.a_addrs[i] - base), args.a_vals[i]);
    for (int i = tid; i < args.nb; i += 128) plain_store<V::kBits>(smem + (args.b_addrs[i] - base), args.b_vals[i]);
  } else if (tid == 0) {
    mbar_init(kAbsMbar);
  }
  fence_proxy_async();  // generic-proxy stores -> async proxy (wgmma operand reads, TMA writes)
  __syncthreads();
  if (args.loader == 1) {
    if (tid == 0) {
      mbar_expect(kAbsMbar, args.tx_bytes);
      for (int i = 0; i < args.nboxes_a; ++i)
        tma_load_2d((uint32_t)args.boxes_a[3 * i + 2], &ta, args.boxes_a[3 * i], args.boxes_a[3 * i + 1], kAbsMbar);
      for (int i = 0; i < args.nboxes_b; ++i)
        tma_load_2d((uint32_t)args.boxes_b[3 * i + 2], &tb, args.boxes_b[3 * i], args.boxes_b[3 * i + 1], kAbsMbar);
    }
    if (mbar_wait(kAbsMbar, 0)) atomicOr(&args.status[1], 2u);
    __syncthreads();
  }
  const int warp = tid / 32, lane = tid % 32;
  for (int mb = 0; mb < args.mblocks; ++mb) {
    float d[V::N / 2];
#pragma unroll
    for (int j = 0; j < V::N / 2; ++j) d[j] = 0.f;
    for (int ks = 0; ks < args.ksteps; ++ks) {
      asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
      V::mma(d, args.descA[mb * args.ksteps + ks], args.descB[ks], ks > 0 ? 1u : 0u);
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
#pragma unroll
    for (int j = 0; j < V::N / 2; ++j) {
      const int row = mb * 64 + warp * 16 + lane / 4 + 8 * ((j / 2) & 1);
      const int col = (j / 4) * 8 + (lane % 4) * 2 + (j & 1);
      args.D[row * V::N + col] = d[j];
    }
  }
}

// ------------------------------------------------------------------------------------------------------------
// host
// ------------------------------------------------------------------------------------------------------------
static std::vector<uint8_t> g_blob;
static uint8_t* g_blob_dev = nullptr;

struct Json {
  FILE* f;
  bool first = true;
  void item(const std::string& s) {
    fprintf(f, "%s\n%s", first ? "" : ",", s.c_str());
    first = false;
    fflush(f);
  }
};

static std::string meta_json() {
  int drv = 0, rt = 0, dev = 0;
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rt);
  cudaGetDevice(&dev);
  cudaDeviceProp p{};
  cudaGetDeviceProperties(&p, dev);
  char b[512];
  snprintf(b, sizeof b,
           "{\"gpu\": \"%s\", \"cc\": \"%d.%d\", \"cuda_driver_api_version\": %d, \"cuda_runtime_version\": %d, "
           "\"sm_count\": %d}",
           p.name, p.major, p.minor, drv, rt, p.multiProcessorCount);
  return b;
}

static bool sticky_error(cudaError_t e) {
  return e == cudaErrorIllegalAddress || e == cudaErrorLaunchFailure || e == cudaErrorIllegalInstruction ||
         e == cudaErrorMisalignedAddress || e == cudaErrorHardwareStackError || e == cudaErrorInvalidAddressSpace ||
         e == cudaErrorInvalidPc || e == cudaErrorLaunchTimeout || e == cudaErrorAssert;
}

static CUtensorMapDataType tma_dtype(int elem_bytes) {
  return elem_bytes == 1 ? CU_TENSOR_MAP_DATA_TYPE_UINT8
                         : (elem_bytes == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16 : CU_TENSOR_MAP_DATA_TYPE_UINT32);
}

static CUresult encode_2d(CUtensorMap* m, int elem_bytes, void* g, uint64_t d0, uint64_t d1, uint64_t stride,
                          uint32_t b0, uint32_t b1, int swizzle, int dtype = -1) {
  cuuint64_t gd[2] = {d0, d1}, gs[1] = {stride};
  cuuint32_t bx[2] = {b0, b1}, es[2] = {1, 1};
  return p_encode_tiled(m, dtype < 0 ? tma_dtype(elem_bytes) : (CUtensorMapDataType)dtype, 2, g, gd, gs, bx, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                (CUtensorMapSwizzle)swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

template <class T>
static const T* blob(uint64_t off) {
  return reinterpret_cast<const T*>(g_blob.data() + off);
}
template <class T>
static const T* dblob(uint64_t off) {
  return reinterpret_cast<const T*>(g_blob_dev + off);
}

// ---- phase place -------------------------------------------------------------------------------------------
static int run_place(Json& js, int start, int* next) {
  uint8_t *g0, *g1, *out;
  uint32_t* status;
  cudaMalloc(&g0, 1 << 16);
  cudaMalloc(&g1, 1 << 16);
  cudaMalloc(&out, 2 * kPlaceRegion);
  cudaMalloc(&status, 16);
  const uint32_t dyn = kAbsPlace + 2 * kPlaceRegion;
  cudaFuncSetAttribute(place_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn);
  std::vector<uint8_t> h(2 * kPlaceRegion), p0(1 << 16), p1(1 << 16);
  for (int ci = start; ci < kNumPlace; ++ci) {
    const PlaceCase& c = kPlace[ci];
    const uint32_t row_bytes = c.box0 * c.elem_bytes, nbytes = row_bytes * c.box1;
    for (uint32_t i = 0; i < nbytes; ++i) {
      p0[i] = (uint8_t)(1 + i % 255);
      p1[i] = (uint8_t)(1 + i / 255);
    }
    cudaMemcpy(g0, p0.data(), nbytes, cudaMemcpyHostToDevice);
    cudaMemcpy(g1, p1.data(), nbytes, cudaMemcpyHostToDevice);
    alignas(64) CUtensorMap m0, m1;
    CUresult rc = encode_2d(&m0, c.elem_bytes, g0, c.box0, c.box1, row_bytes, c.box0, c.box1, c.mode);
    if (rc == CUDA_SUCCESS) rc = encode_2d(&m1, c.elem_bytes, g1, c.box0, c.box1, row_bytes, c.box0, c.box1, c.mode);
    const uint32_t dst = kAbsPlace + c.dst_off;
    char head[512];
    snprintf(head, sizeof head,
             "{\"kind\": \"place\", \"id\": \"%s\", \"mode\": %d, \"elem_bytes\": %d, \"box\": [%d, %d], "
             "\"dst_abs\": %u, \"encode_rc\": %d",
             c.id, c.mode, c.elem_bytes, c.box0, c.box1, dst, (int)rc);
    std::string rec = head;
    if (rc != CUDA_SUCCESS) {
      js.item(rec + "}");
      continue;
    }
    uint32_t zero[4] = {0, 0, 0, 0};
    cudaMemcpy(status, zero, 16, cudaMemcpyHostToDevice);
    place_kernel<<<1, 128, dyn>>>(m0, m1, dst, dst + kPlaceRegion, nbytes, out, status);
    cudaError_t le = cudaDeviceSynchronize();
    uint32_t st[4] = {0, 0, 0, 0};
    if (le == cudaSuccess) {
      cudaMemcpy(h.data(), out, 2 * kPlaceRegion, cudaMemcpyDeviceToHost);
      cudaMemcpy(st, status, 16, cudaMemcpyDeviceToHost);
    }
    char buf[256];
    snprintf(buf, sizeof buf, ", \"launch_rc\": %d, \"smem_base\": %u, \"status\": %u", (int)le, st[0], st[1]);
    rec += buf;
    if (le != cudaSuccess || st[1]) {
      js.item(rec + ", \"launch_error\": \"" + cudaGetErrorString(le) + "\"}");
      if (sticky_error(le)) {
        *next = ci + 1;
        return 3;
      }
      continue;
    }
    std::vector<int32_t> obs(nbytes, -1);
    int anomalies = 0;
    for (uint32_t s = 0; s < kPlaceRegion; ++s) {
      const int v0 = h[s], v1 = h[kPlaceRegion + s];
      if (v0 == 0 && v1 == 0) continue;
      if (v0 == 0 || v1 == 0) {
        ++anomalies;
        continue;
      }
      const uint32_t id = (v0 - 1) + 255u * (v1 - 1);
      if (id >= nbytes || obs[id] != -1) {
        ++anomalies;
        continue;
      }
      obs[id] = (int32_t)s - (int32_t)c.dst_off;
    }
    for (uint32_t i = 0; i < nbytes; ++i) anomalies += obs[i] == -1;
    const int32_t* expect = reinterpret_cast<const int32_t*>(g_blob.data() + c.expect_off);
    std::string diffs = "[";
    int nd = 0;
    if (c.expect_ok)
      for (uint32_t i = 0; i < nbytes && nd < 16; ++i)
        if (obs[i] != expect[i]) {
          snprintf(buf, sizeof buf, "%s[%u, %d, %d]", nd ? ", " : "", i, obs[i], expect[i]);
          diffs += buf;
          ++nd;
        }
    diffs += "]";
    snprintf(buf, sizeof buf, ", \"anomalies\": %d, \"hash\": \"%s\", \"first_diffs\": ", anomalies,
             hex64(hw_hash(obs.data(), nbytes)).c_str());
    rec += buf + diffs;
    if (nd) {  // keep the full observation of a disagreement
      rec += ", \"observed\": [";
      for (uint32_t i = 0; i < nbytes; ++i) rec += (i ? "," : "") + std::to_string(obs[i]);
      rec += "]";
    }
    js.item(rec + "}");
  }
  return 0;
}

// ---- phase store ------------------------------------------------------------------------------------------
static int run_store(Json& js, int start, int* next) {
  uint8_t *g[4];
  uint32_t* status;
  for (int i = 0; i < 4; ++i) cudaMalloc(&g[i], 1 << 16);
  cudaMalloc(&status, 16);
  const uint32_t dyn = kAbsPlace + 2 * kPlaceRegion;
  cudaFuncSetAttribute(store_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn);
  std::vector<uint8_t> h0(1 << 16), h1(1 << 16), src(1 << 16), back(1 << 16);
  for (int ci = start; ci < kNumStore; ++ci) {
    const PlaceCase& c = kStore[ci];
    const uint32_t row_bytes = c.box0 * c.elem_bytes, nbytes = row_bytes * c.box1;
    for (uint32_t i = 0; i < nbytes; ++i) src[i] = (uint8_t)(1 + (i * 7) % 251);
    for (int i = 0; i < 4; ++i) cudaMemset(g[i], 0, 1 << 16);
    cudaMemcpy(g[2], src.data(), nbytes, cudaMemcpyHostToDevice);
    alignas(64) CUtensorMap m[4];
    CUresult rc = CUDA_SUCCESS;
    for (int i = 0; i < 4 && rc == CUDA_SUCCESS; ++i)
      rc = encode_2d(&m[i], c.elem_bytes, g[i], c.box0, c.box1, row_bytes, c.box0, c.box1, c.mode);
    const uint32_t dst = kAbsPlace + c.dst_off;
    char head[512];
    snprintf(head, sizeof head,
             "{\"kind\": \"store\", \"id\": \"%s\", \"mode\": %d, \"elem_bytes\": %d, \"box\": [%d, %d], "
             "\"dst_abs\": %u, \"encode_rc\": %d",
             c.id, c.mode, c.elem_bytes, c.box0, c.box1, dst, (int)rc);
    std::string rec = head;
    if (rc != CUDA_SUCCESS) {
      js.item(rec + "}");
      continue;
    }
    uint32_t zero[4] = {0, 0, 0, 0};
    cudaMemcpy(status, zero, 16, cudaMemcpyHostToDevice);
    store_kernel<<<1, 128, dyn>>>(m[0], m[1], m[2], m[3], dst, dst + kPlaceRegion, nbytes, status);
    cudaError_t le = cudaDeviceSynchronize();
    uint32_t st[4] = {0, 0, 0, 0};
    if (le == cudaSuccess) {
      cudaMemcpy(h0.data(), g[0], nbytes, cudaMemcpyDeviceToHost);
      cudaMemcpy(h1.data(), g[1], nbytes, cudaMemcpyDeviceToHost);
      cudaMemcpy(back.data(), g[3], nbytes, cudaMemcpyDeviceToHost);
      cudaMemcpy(st, status, 16, cudaMemcpyDeviceToHost);
    }
    char buf[256];
    snprintf(buf, sizeof buf, ", \"launch_rc\": %d, \"smem_base\": %u, \"status\": %u", (int)le, st[0], st[1]);
    rec += buf;
    if (le != cudaSuccess || st[1]) {
      js.item(rec + ", \"launch_error\": \"" + cudaGetErrorString(le) + "\"}");
      if (sticky_error(le)) {
        *next = ci + 1;
        return 3;
      }
      continue;
    }
    std::vector<int32_t> obs(nbytes, -1);
    int anomalies = 0, roundtrip = 0;
    for (uint32_t i = 0; i < nbytes; ++i) {
      roundtrip += back[i] != src[i];
      if (h0[i] == 0 || h1[i] == 0) {
        ++anomalies;
        continue;
      }
      obs[i] = (int32_t)((h0[i] - 1) + 255u * (h1[i] - 1)) - (int32_t)c.dst_off;
    }
    const int32_t* expect = reinterpret_cast<const int32_t*>(g_blob.data() + c.expect_off);
    std::string diffs = "[";
    int nd = 0;
    for (uint32_t i = 0; i < nbytes && nd < 16; ++i)
      if (obs[i] != expect[i]) {
        snprintf(buf, sizeof buf, "%s[%u, %d, %d]", nd ? ", " : "", i, obs[i], expect[i]);
        diffs += buf;
        ++nd;
      }
    diffs += "]";
    snprintf(buf, sizeof buf, ", \"anomalies\": %d, \"roundtrip_mismatches\": %d, \"hash\": \"%s\", \"first_diffs\": ",
             anomalies, roundtrip, hex64(hw_hash(obs.data(), nbytes)).c_str());
    rec += buf + diffs;
    if (nd) {
      rec += ", \"observed\": [";
      for (uint32_t i = 0; i < nbytes; ++i) rec += (i ? "," : "") + std::to_string(obs[i]);
      rec += "]";
    }
    js.item(rec + "}");
  }
  return 0;
}

// ---- phase im2col -----------------------------------------------------------------------------------------
static int run_im2col(Json& js, int start, int* next) {
  uint8_t *g, *out;
  uint32_t* status;
  cudaMalloc(&g, 1 << 20);
  cudaMalloc(&out, kIm2colRegion);
  cudaMalloc(&status, 16);
  const uint32_t dyn = kAbsPlace + kIm2colRegion;
  cudaFuncSetAttribute(im2col_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn);
  std::vector<uint8_t> hg(1 << 20), h(kIm2colRegion);
  for (int ci = start; ci < kNumIm2col; ++ci) {
    const Im2colCase& c = kIm2col[ci];
    uint64_t n = 1;
    for (int i = 0; i < c.rank; ++i) n *= c.gdim[i];
    for (uint64_t i = 0; i < n; ++i) {  // element i holds 1 + i (its linear index, innermost first)
      const uint32_t v = (uint32_t)(1 + i);
      memcpy(&hg[i * c.elem_bytes], &v, c.elem_bytes);  // little endian: the low bytes
    }
    cudaMemcpy(g, hg.data(), n * c.elem_bytes, cudaMemcpyHostToDevice);
    alignas(64) CUtensorMap m;
    cuuint64_t gd[5], gs[4];
    cuuint32_t es[5];
    for (int i = 0; i < 5; ++i) {
      gd[i] = c.gdim[i];
      es[i] = c.estrides[i];
    }
    for (int i = 0; i < 4; ++i) gs[i] = c.gstrides[i];
    CUresult rc = p_encode_im2col(&m, (CUtensorMapDataType)c.dtype, c.rank, g, gd, gs, c.lower, c.upper, c.channels,
                                  c.pixels, es, CU_TENSOR_MAP_INTERLEAVE_NONE, (CUtensorMapSwizzle)c.swizzle,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    const uint32_t dst = kAbsPlace + c.dst_off;
    std::string rec = std::string("{\"kind\": \"im2col\", \"id\": \"") + c.id + "\", \"params\": " + c.params +
                      ", \"dst_abs\": " + std::to_string(dst) + ", \"encode_rc\": " + std::to_string((int)rc);
    if (rc != CUDA_SUCCESS) {
      js.item(rec + "}");
      continue;
    }
    uint32_t zero[4] = {0, 0, 0, 0};
    cudaMemcpy(status, zero, 16, cudaMemcpyHostToDevice);
    const uint32_t bytes = (uint32_t)c.pixels * c.channels * c.elem_bytes;
    im2col_kernel<<<1, 128, dyn>>>(m, c.rank, dst, bytes, make_int4(c.coords[0], c.coords[1], c.coords[2], c.coords[3]),
                                   make_ushort2(c.offsets[0], c.offsets[1]), out, status);
    cudaError_t le = cudaDeviceSynchronize();
    uint32_t st[4] = {0, 0, 0, 0};
    if (le == cudaSuccess) {
      cudaMemcpy(h.data(), out, kIm2colRegion, cudaMemcpyDeviceToHost);
      cudaMemcpy(st, status, 16, cudaMemcpyDeviceToHost);
    }
    char buf[256];
    snprintf(buf, sizeof buf, ", \"launch_rc\": %d, \"smem_base\": %u, \"status\": %u", (int)le, st[0], st[1]);
    rec += buf;
    if (le != cudaSuccess || st[1]) {
      js.item(rec + ", \"launch_error\": \"" + cudaGetErrorString(le) + "\"}");
      if (sticky_error(le)) {
        *next = ci + 1;
        return 3;
      }
      continue;
    }
    const uint32_t ne = kIm2colRegion / c.elem_bytes;
    std::vector<int32_t> vals(ne);
    for (uint32_t i = 0; i < ne; ++i) {
      uint32_t v = 0;
      memcpy(&v, &h[i * c.elem_bytes], c.elem_bytes);
      vals[i] = (int32_t)v;
    }
    const int32_t* expect = blob<int32_t>(c.expect_off);
    const int32_t* row0 = blob<int32_t>(c.row0_off);
    int mism = 0;
    std::string diffs = "[";
    for (uint32_t i = 0; i < ne; ++i)
      if (vals[i] != expect[i]) {
        if (mism < 16) {
          snprintf(buf, sizeof buf, "%s[%u, %d, %d]", mism ? ", " : "", i, vals[i], expect[i]);
          diffs += buf;
        }
        ++mism;
      }
    diffs += "]";
    rec += ", \"mismatches\": " + std::to_string(mism) + ", \"first_diffs\": " + diffs + ", \"hash\": \"" +
           hex64(hw_hash(vals.data(), ne)) + "\", \"row_pixels\": [";
    for (int r = 0; r < c.rows; ++r) {
      const int32_t v = vals[row0[r]];
      rec += (r ? "," : "") + std::to_string(v == 0 ? -1 : (int)((v - 1) / (int)c.gdim[0]));
    }
    rec += "]";
    if (mism) {  // the whole observation: every non-zero element as [index, value]
      rec += ", \"observed_nonzero\": [";
      bool first = true;
      for (uint32_t i = 0; i < ne; ++i)
        if (vals[i]) {
          rec += (first ? "[" : ",[") + std::to_string(i) + "," + std::to_string(vals[i]) + "]";
          first = false;
        }
      rec += "]";
    }
    js.item(rec + "}");
  }
  return 0;
}

// ---- phase valid -------------------------------------------------------------------------------------------
static int run_valid(Json& js) {
  uint8_t* buf;
  cudaMalloc(&buf, 1 << 20);
  for (int ci = 0; ci < kNumVal; ++ci) {
    const ValCase& c = kVal[ci];
    alignas(64) CUtensorMap m;
    cuuint64_t gd[5], gs[4];
    cuuint32_t bx[5], es[5];
    for (int i = 0; i < 5; ++i) {
      gd[i] = c.gdim[i];
      bx[i] = c.box[i];
      es[i] = c.estrides[i];
    }
    for (int i = 0; i < 4; ++i) gs[i] = c.gstrides[i];
    void* addr = buf + c.addr_off;
    CUresult rc;
    if (c.im2col)
      rc = p_encode_im2col(&m, (CUtensorMapDataType)c.dtype, c.rank, addr, gd, gs, c.lower, c.upper,
                                   c.channels, c.pixels, es, (CUtensorMapInterleave)c.interleave,
                                   (CUtensorMapSwizzle)c.swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                   (CUtensorMapFloatOOBfill)c.oob);
    else
      rc = p_encode_tiled(&m, (CUtensorMapDataType)c.dtype, c.rank, addr, gd, gs, bx, es,
                                  (CUtensorMapInterleave)c.interleave, (CUtensorMapSwizzle)c.swizzle,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE, (CUtensorMapFloatOOBfill)c.oob);
    char head[256];
    snprintf(head, sizeof head, "{\"kind\": \"valid\", \"id\": \"%s\", \"encode_rc\": %d, \"global_address\": %llu, ",
             c.id, (int)rc, (unsigned long long)(uintptr_t)addr);
    js.item(std::string(head) + "\"params\": " + c.params + "}");
  }
  return 0;
}

// ---- phases mma / e2e / neg --------------------------------------------------------------------------------
template <class V>
static cudaError_t launch_variant(const CUtensorMap& ta, const CUtensorMap& tb, const MmaArgs& a) {
  cudaFuncSetAttribute(mma_kernel<V>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kDynSmem);
  mma_kernel<V><<<1, 128, kDynSmem>>>(ta, tb, a);
  return cudaGetLastError();
}

static cudaError_t launch(int variant, const CUtensorMap& ta, const CUtensorMap& tb, const MmaArgs& a) {
  switch (variant) {
#define HWCHECK_CASE(i) \
  case i:               \
    return launch_variant<Variant##i>(ta, tb, a);
    HWCHECK_FOR_EACH_VARIANT(HWCHECK_CASE)
#undef HWCHECK_CASE
  }
  return cudaErrorInvalidValue;
}


static int run_mma(Json& js, const char* kind, int start, int* next) {
  uint64_t *dA, *dB;
  float* D;
  uint32_t* status;
  uint8_t *gA, *gB;
  int32_t* dBoxes;
  cudaMalloc(&dA, 32 * 8);
  cudaMalloc(&dB, 32 * 8);
  cudaMalloc(&dBoxes, 4096 * 4);
  cudaMalloc(&D, 128 * 256 * 4);
  cudaMalloc(&status, 16);
  cudaMalloc(&gA, 1 << 18);
  cudaMalloc(&gB, 1 << 18);
  for (int ci = start; ci < kNumMma; ++ci) {
    const MmaCase& c = kMma[ci];
    if (strcmp(c.kind, kind) != 0) continue;
    const int eb = c.bits / 8;
    const int na = c.M * c.K, nb = c.N * c.K;
    const int ndA = c.mblocks * c.ksteps;
    cudaMemcpy(dA, c.descA, ndA * 8, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, c.descB, c.ksteps * 8, cudaMemcpyHostToDevice);
    cudaMemset(D, 0xff, 128 * 256 * 4);
    uint32_t zero[4] = {0, 0, 0, 0};
    cudaMemcpy(status, zero, 16, cudaMemcpyHostToDevice);
    alignas(64) CUtensorMap ta{}, tb{};
    CUresult rc = CUDA_SUCCESS;
    // TMA copies from codegen's header: box i covers tile coordinates kTmaCopyCoord[i] (inner, row) and lands
    // kTmaCopyOffsetBytes[i] into the stage that starts at kStageStart[0]
    std::vector<int32_t> boxes;
    for (int i = 0; i < c.nboxes_a; ++i)
      boxes.insert(boxes.end(), {c.coord_a[2 * i], c.coord_a[2 * i + 1], (int32_t)(c.stage_a + c.off_a[i])});
    for (int i = 0; i < c.nboxes_b; ++i)
      boxes.insert(boxes.end(), {c.coord_b[2 * i], c.coord_b[2 * i + 1], (int32_t)(c.stage_b + c.off_b[i])});
    if (!boxes.empty()) cudaMemcpy(dBoxes, boxes.data(), boxes.size() * 4, cudaMemcpyHostToDevice);
    const int8_t* ai = blob<int8_t>(c.a_int);
    const int8_t* bi = blob<int8_t>(c.b_int);
    const uint32_t* av = blob<uint32_t>(c.a_vals);
    const uint32_t* bv = blob<uint32_t>(c.b_vals);
    if (c.loader == 1) {  // global operands for TMA: K-major (MN rows of K) or MN-major (K rows of MN)
      std::vector<uint8_t> hA(na * eb), hB(nb * eb);
      for (int m = 0; m < c.M; ++m)
        for (int k = 0; k < c.K; ++k) {
          const int g = c.major_a_mn ? k * c.M + m : m * c.K + k;
          memcpy(&hA[g * eb], &av[m * c.K + k], eb);
        }
      for (int n = 0; n < c.N; ++n)
        for (int k = 0; k < c.K; ++k) {
          const int g = c.major_b_mn ? k * c.N + n : n * c.K + k;
          memcpy(&hB[g * eb], &bv[n * c.K + k], eb);
        }
      cudaMemcpy(gA, hA.data(), na * eb, cudaMemcpyHostToDevice);
      cudaMemcpy(gB, hB.data(), nb * eb, cudaMemcpyHostToDevice);
      if (c.major_a_mn)
        rc = encode_2d(&ta, eb, gA, c.M, c.K, (uint64_t)c.M * eb, c.box_a[0], c.box_a[1], c.tma_mode_a, c.tma_dtype_a);
      else
        rc = encode_2d(&ta, eb, gA, c.K, c.M, (uint64_t)c.K * eb, c.box_a[0], c.box_a[1], c.tma_mode_a, c.tma_dtype_a);
      if (rc == CUDA_SUCCESS) {
        if (c.major_b_mn)
          rc = encode_2d(&tb, eb, gB, c.N, c.K, (uint64_t)c.N * eb, c.box_b[0], c.box_b[1], c.tma_mode_b, c.tma_dtype_b);
        else
          rc = encode_2d(&tb, eb, gB, c.K, c.N, (uint64_t)c.K * eb, c.box_b[0], c.box_b[1], c.tma_mode_b, c.tma_dtype_b);
      }
    }
    std::string rec = std::string("{\"kind\": \"") + c.kind + "\", \"id\": \"" + c.id + "\", \"cfg\": " + c.cfg +
                      ", \"mutation\": " + c.mutation + ", \"loader\": " + std::to_string(c.loader);
    rec += ", \"descA\": [";
    for (int i = 0; i < ndA; ++i) rec += (i ? ", \"" : "\"") + hex64(c.descA[i]) + "\"";
    rec += "], \"descB\": [";
    for (int i = 0; i < c.ksteps; ++i) rec += (i ? ", \"" : "\"") + hex64(c.descB[i]) + "\"";
    rec += "]";
    {
      std::vector<int32_t> tmp(blob<int32_t>(c.a_addrs), blob<int32_t>(c.a_addrs) + na);
      rec += ", \"a_addr_hash\": \"" + hex64(hw_hash(tmp.data(), na)) + "\"";
      tmp.assign(blob<int32_t>(c.b_addrs), blob<int32_t>(c.b_addrs) + nb);
      rec += ", \"b_addr_hash\": \"" + hex64(hw_hash(tmp.data(), nb)) + "\"";
      rec += ", \"boxes_hash\": \"" + hex64(hw_hash(boxes.data(), boxes.size())) + "\"";
    }
    rec += ", \"tma_mode_a\": " + std::to_string(c.tma_mode_a) + ", \"tma_mode_b\": " + std::to_string(c.tma_mode_b) +
           ", \"tma_dtype_a\": " + std::to_string(c.tma_dtype_a) + ", \"tma_dtype_b\": " + std::to_string(c.tma_dtype_b) +
           ", \"box_a\": [" + std::to_string(c.box_a[0]) + ", " + std::to_string(c.box_a[1]) + "], \"box_b\": [" +
           std::to_string(c.box_b[0]) + ", " + std::to_string(c.box_b[1]) + "]" +
           ", \"encode_rc\": " + std::to_string((int)rc) +
           ", \"generator_expects_mismatch\": " + std::to_string(c.expect_mismatch);
    if (rc != CUDA_SUCCESS) {
      js.item(rec + ", \"launch_rc\": -1}");
      continue;
    }
    MmaArgs a;
    a.a_vals = dblob<uint32_t>(c.a_vals);
    a.a_addrs = dblob<uint32_t>(c.a_addrs);
    a.na = na;
    a.b_vals = dblob<uint32_t>(c.b_vals);
    a.b_addrs = dblob<uint32_t>(c.b_addrs);
    a.nb = nb;
    a.descA = dA;
    a.descB = dB;
    a.mblocks = c.mblocks;
    a.ksteps = c.ksteps;
    a.loader = c.loader;
    a.boxes_a = dBoxes;
    a.nboxes_a = c.nboxes_a;
    a.boxes_b = dBoxes + 3 * c.nboxes_a;
    a.nboxes_b = c.nboxes_b;
    a.tx_bytes = (uint32_t)(c.nboxes_a * c.box_a[0] * c.box_a[1] + c.nboxes_b * c.box_b[0] * c.box_b[1]) * eb;
    a.D = D;
    a.status = status;
    cudaError_t le = launch(c.variant, ta, tb, a);
    if (le == cudaSuccess) le = cudaDeviceSynchronize();
    uint32_t st[4] = {0, 0, 0, 0};
    std::vector<float> hD(c.M * c.N);
    if (le == cudaSuccess) {
      cudaMemcpy(hD.data(), D, c.M * c.N * 4, cudaMemcpyDeviceToHost);
      cudaMemcpy(st, status, 16, cudaMemcpyDeviceToHost);
    }
    rec += ", \"launch_rc\": " + std::to_string((int)le) + ", \"smem_base\": " + std::to_string(st[0]) +
           ", \"status\": " + std::to_string(st[1]);
    if (le != cudaSuccess || st[1]) {
      js.item(rec + ", \"launch_error\": \"" + cudaGetErrorString(le) + "\"}");
      if (sticky_error(le)) {
        *next = ci + 1;
        return 3;
      }
      continue;
    }
    std::vector<int32_t> dint(c.M * c.N);
    int mism = 0;
    std::string diffs = "[";
    for (int m = 0; m < c.M; ++m)
      for (int n = 0; n < c.N; ++n) {
        int32_t ref = 0;
        for (int k = 0; k < c.K; ++k) ref += (int32_t)ai[m * c.K + k] * (int32_t)bi[n * c.K + k];
        const float v = hD[m * c.N + n];
        int32_t vi;
        if (std::isfinite(v) && v == std::nearbyint(v) && std::fabs(v) < 2e9f)
          vi = (int32_t)v;
        else {
          uint32_t bits;
          memcpy(&bits, &v, 4);
          vi = (int32_t)(bits ^ 0x7fffffffu);
        }
        dint[m * c.N + n] = vi;
        if (v != (float)ref) {
          if (mism < 8) {
            char b[96];
            snprintf(b, sizeof b, "%s[%d, %d, %g, %d]", mism ? ", " : "", m, n, v, ref);
            diffs += b;
          }
          ++mism;
        }
      }
    diffs += "]";
    rec += ", \"mismatches\": " + std::to_string(mism) + ", \"first_diffs\": " + diffs + ", \"d_hash\": \"" +
           hex64(hw_hash(dint.data(), dint.size())) + "\"";
    js.item(rec + "}");
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s place|store|valid|im2col|mma|e2e|neg OUT.json DATA.bin [START]\n", argv[0]);
    return 2;
  }
  const std::string phase = argv[1];
  const int start = argc > 4 ? atoi(argv[4]) : 0;
  FILE* bf = fopen(argv[3], "rb");
  if (!bf) {
    fprintf(stderr, "cannot open %s\n", argv[3]);
    return 2;
  }
  fseek(bf, 0, SEEK_END);
  g_blob.resize(ftell(bf));
  fseek(bf, 0, SEEK_SET);
  if (fread(g_blob.data(), 1, g_blob.size(), bf) != g_blob.size()) return 2;
  fclose(bf);
  cudaFree(nullptr);
  load_driver_entry_points();
  cudaMalloc(&g_blob_dev, g_blob.size());
  cudaMemcpy(g_blob_dev, g_blob.data(), g_blob.size(), cudaMemcpyHostToDevice);
  Json js{fopen(argv[2], "w")};
  if (!js.f) return 2;
  fprintf(js.f, "{\"meta\": %s, \"phase\": \"%s\", \"start\": %d, \"cases\": [", meta_json().c_str(), phase.c_str(),
          start);
  int next = -1, rc = 0;
  if (phase == "place")
    rc = run_place(js, start, &next);
  else if (phase == "store")
    rc = run_store(js, start, &next);
  else if (phase == "im2col")
    rc = run_im2col(js, start, &next);
  else if (phase == "valid")
    rc = run_valid(js);
  else
    rc = run_mma(js, phase.c_str(), start, &next);
  fprintf(js.f, "\n]}\n");
  fclose(js.f);
  if (rc == 3) {
    FILE* nf = fopen((std::string(argv[2]) + ".next").c_str(), "w");
    fprintf(nf, "%d\n", next);
    fclose(nf);
  }
  printf("%s: done (rc %d)\n", phase.c_str(), rc);
  return rc;
}

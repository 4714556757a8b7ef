// Shared-memory bank-conflict check of pycute_layouts.analysis (issue 10).
//
// Every case (32 thread byte addresses + the PTX instruction) comes from banks_cases.cuh, written by
// gen_banks.py from the library; no address is typed here. Each warp executes the case's access
// ITERS times (unrolled 16x, asm volatile, the address made opaque to the compiler with a runtime zero
// mask so no load can be merged or hoisted).
//
//   banks time OUT.json   one block of TIME_WARPS warps per case, clock64 span -> cycles per warp instruction
//   banks ncu             one warp per case, NCU_ITERS instructions (profile with ncu: wavefront counters)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#include "banks_cases.cuh"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

static const int TIME_WARPS = 16;
static const int TIME_ITERS = 4096;
static const int TIME_REPS = 5;
static const int NCU_ITERS = 1024;

template <int KIND>
__device__ __forceinline__ unsigned access(unsigned a) {
  unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
  if constexpr (KIND == 0) {
    asm volatile("ld.shared.u8 %0, [%1];" : "=r"(r0) : "r"(a) : "memory");
  } else if constexpr (KIND == 1) {
    unsigned short h;
    asm volatile("ld.shared.u16 %0, [%1];" : "=h"(h) : "r"(a) : "memory");
    r0 = h;
  } else if constexpr (KIND == 2) {
    asm volatile("ld.shared.b32 %0, [%1];" : "=r"(r0) : "r"(a) : "memory");
  } else if constexpr (KIND == 3) {
    asm volatile("ld.shared.v2.b32 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a) : "memory");
  } else if constexpr (KIND == 4) {
    asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a) : "memory");
  } else if constexpr (KIND == 5) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a) : "memory");
  } else if constexpr (KIND == 6) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a) : "memory");
  } else if constexpr (KIND == 7) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a) : "memory");
  } else if constexpr (KIND == 8) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a) : "memory");
  } else if constexpr (KIND == 9) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a) : "memory");
  } else {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a) : "memory");
  }
  return r0 ^ r1 ^ r2 ^ r3;
}

__shared__ __align__(1024) unsigned char g_smem[BANKS_SMEM_BYTES];

// times[2*warp] = start, times[2*warp+1] = end (clock64 of the SM); sink keeps the loads alive.
template <int KIND>
__global__ void bank_kernel(const unsigned* __restrict__ addr, int iters, unsigned zmask,
                            long long* times, unsigned* sink, unsigned* smem_base) {
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(g_smem));
  const unsigned a = base + addr[threadIdx.x & 31];
  unsigned acc = 0;
  __syncthreads();
  const long long t0 = clock64();
  for (int i = 0; i < iters; i += 16) {
#pragma unroll
    for (int j = 0; j < 16; ++j) acc ^= access<KIND>(a + ((unsigned)(i + j) & zmask));
  }
  const long long t1 = clock64();
  __syncthreads();
  const int w = threadIdx.x >> 5;
  if ((threadIdx.x & 31) == 0) { times[2 * w] = t0; times[2 * w + 1] = t1; }
  if (acc == 0x9e3779b9u) sink[threadIdx.x] = acc;
  if (threadIdx.x == 0) *smem_base = base;
}

typedef void (*KernelFn)(const unsigned*, int, unsigned, long long*, unsigned*, unsigned*);
static const KernelFn kKernels[] = {bank_kernel<0>, bank_kernel<1>, bank_kernel<2>, bank_kernel<3>,
                                    bank_kernel<4>, bank_kernel<5>, bank_kernel<6>, bank_kernel<7>,
                                    bank_kernel<8>, bank_kernel<9>, bank_kernel<10>};

int main(int argc, char** argv) {
  if (argc < 2 || (strcmp(argv[1], "time") && strcmp(argv[1], "ncu")) || (!strcmp(argv[1], "time") && argc < 3)) {
    fprintf(stderr, "usage: banks time OUT.json | banks ncu\n");
    return 2;
  }
  const bool timed = !strcmp(argv[1], "time");
  unsigned *d_addr, *d_sink, *d_base;
  long long* d_times;
  CK(cudaMalloc(&d_addr, 32 * sizeof(unsigned) * BANKS_NUM_CASES));
  CK(cudaMalloc(&d_sink, 1024 * sizeof(unsigned)));
  CK(cudaMalloc(&d_base, sizeof(unsigned)));
  CK(cudaMalloc(&d_times, 2 * TIME_WARPS * sizeof(long long)));
  for (int c = 0; c < BANKS_NUM_CASES; ++c)
    CK(cudaMemcpy(d_addr + 32 * c, kCases[c].addr, 32 * sizeof(unsigned), cudaMemcpyHostToDevice));
  if (!timed) {
    for (int c = 0; c < BANKS_NUM_CASES; ++c) {
      kKernels[kCases[c].kind]<<<1, 32>>>(d_addr + 32 * c, NCU_ITERS, 0u, d_times, d_sink, d_base);
      CK(cudaGetLastError());
    }
    CK(cudaDeviceSynchronize());
    printf("ncu mode: %d launches of %d iterations, one warp each\n", BANKS_NUM_CASES, NCU_ITERS);
    return 0;
  }
  FILE* f = fopen(argv[2], "w");
  if (!f) { perror(argv[2]); return 2; }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  fprintf(f, "{\"device\": \"%s\", \"cc\": \"%d.%d\", \"sms\": %d, \"clock_khz\": %d, \"time_warps\": %d, "
             "\"time_iters\": %d, \"time_reps\": %d, \"ncu_iters\": %d, \"cases\": [\n",
          prop.name, prop.major, prop.minor, prop.multiProcessorCount, 0, TIME_WARPS, TIME_ITERS, TIME_REPS,
          NCU_ITERS);
  for (int c = 0; c < BANKS_NUM_CASES; ++c) {
    long long spans[TIME_REPS];
    unsigned base = 0;
    for (int rep = -1; rep < TIME_REPS; ++rep) {  // rep -1: warm-up
      kKernels[kCases[c].kind]<<<1, 32 * TIME_WARPS>>>(d_addr + 32 * c, TIME_ITERS, 0u, d_times, d_sink, d_base);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      long long h[2 * TIME_WARPS];
      CK(cudaMemcpy(h, d_times, sizeof h, cudaMemcpyDeviceToHost));
      long long lo = h[0], hi = h[1];
      for (int w = 0; w < TIME_WARPS; ++w) { lo = h[2 * w] < lo ? h[2 * w] : lo; hi = h[2 * w + 1] > hi ? h[2 * w + 1] : hi; }
      if (rep >= 0) spans[rep] = hi - lo;
    }
    CK(cudaMemcpy(&base, d_base, sizeof base, cudaMemcpyDeviceToHost));
    fprintf(f, "  {\"name\": \"%s\", \"kind\": \"%s\", \"smem_base\": %u, \"span_cycles\": [", kCases[c].name,
            kKindNames[kCases[c].kind], base);
    for (int r = 0; r < TIME_REPS; ++r) fprintf(f, "%s%lld", r ? ", " : "", spans[r]);
    fprintf(f, "]}%s\n", c + 1 < BANKS_NUM_CASES ? "," : "");
  }
  fprintf(f, "]}\n");
  fclose(f);
  printf("time mode: %d cases written to %s\n", BANKS_NUM_CASES, argv[2]);
  return 0;
}

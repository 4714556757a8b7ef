// Hardware check of pycute_layouts.arch.atoms (thread-value layouts of wgmma, ldmatrix, stmatrix) on sm_90a.
// The kernels and their data are generated from the library by gen_atoms.py into atoms_cases.cuh; this file
// runs every case once and writes the raw registers / shared memory each case produced as JSON:
//   atoms OUT.json
#include <cstdint>
#include <cstdio>
#include <vector>

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

typedef void (*CaseKernel)(const uint8_t*, int, int, const uint32_t*, uint32_t*);
struct CaseDef {
  const char* name;
  CaseKernel kernel;
  const uint8_t* img;
  int a_bytes;
  int b_bytes;
  const uint32_t* regs;
  int threads;
  int words;
};

#include "atoms_cases.cuh"

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: atoms OUT.json\n");
    return 2;
  }
  FILE* f = fopen(argv[1], "w");
  if (!f) return 2;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  fprintf(f, "{\"device\": \"%s\", \"cc\": \"%d.%d\", \"cases\": [", prop.name, prop.major, prop.minor);
  for (int i = 0; i < kNumCases; ++i) {
    const CaseDef& c = kCases[i];
    uint8_t* img = nullptr;
    uint32_t *regs = nullptr, *out = nullptr;
    const int img_bytes = c.a_bytes + c.b_bytes;
    if (img_bytes) {
      cudaMalloc(&img, img_bytes);
      cudaMemcpy(img, c.img, img_bytes, cudaMemcpyHostToDevice);
    }
    if (c.regs) {
      cudaMalloc(&regs, kRegsWords * sizeof(uint32_t));
      cudaMemcpy(regs, c.regs, kRegsWords * sizeof(uint32_t), cudaMemcpyHostToDevice);
    }
    cudaMalloc(&out, c.words * sizeof(uint32_t));
    cudaMemset(out, 0xFF, c.words * sizeof(uint32_t));
    const int dyn = img_bytes ? 4096 + c.a_bytes + c.b_bytes : 0;  // room for B after A (rounded to 1 KiB)
    c.kernel<<<1, c.threads, dyn>>>(img, c.a_bytes, c.b_bytes, regs, out);
    cudaError_t err = cudaDeviceSynchronize();
    if (err == cudaSuccess) err = cudaGetLastError();
    std::vector<uint32_t> host(c.words, 0);
    if (err == cudaSuccess) cudaMemcpy(host.data(), out, c.words * sizeof(uint32_t), cudaMemcpyDeviceToHost);
    fprintf(f, "%s\n{\"name\": \"%s\", \"error\": \"%s\", \"out\": [", i ? "," : "", c.name,
            err == cudaSuccess ? "" : cudaGetErrorString(err));
    for (int j = 0; j < c.words; ++j) fprintf(f, "%s%u", j ? "," : "", host[j]);
    fprintf(f, "]}");
    cudaFree(img);
    cudaFree(regs);
    cudaFree(out);
    fprintf(stderr, "%s: %s\n", c.name, err == cudaSuccess ? "ran" : cudaGetErrorString(err));
    if (err != cudaSuccess) break;
  }
  fprintf(f, "\n]}\n");
  fclose(f);
  return 0;
}

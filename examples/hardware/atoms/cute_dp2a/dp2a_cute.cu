// CuTe's own SM61_DP2A atom (cute/arch/mma_sm61.hpp, CUTLASS 4.2.0), its fma called in a kernel for sm_90a
#include <cute/arch/mma_sm61.hpp>
__global__ void dp2a_cute(int* d, const unsigned* a, const unsigned* b) {
  int r;
  cute::SM61_DP2A::fma(r, a[threadIdx.x], b[threadIdx.x], 0);
  d[threadIdx.x] = r;
}

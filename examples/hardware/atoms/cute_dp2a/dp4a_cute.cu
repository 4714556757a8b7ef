// control: CuTe's own SM61_DP4A atom from the same header, same kernel shape
#include <cute/arch/mma_sm61.hpp>
__global__ void dp4a_cute(int* d, const unsigned* a, const unsigned* b) {
  int r;
  cute::SM61_DP4A::fma(r, a[threadIdx.x], b[threadIdx.x], 0);
  d[threadIdx.x] = r;
}

#include "BenchSupport.h"

// Compiled apart from the benchmarks (no LTO), so the compiler cannot drop the objects
// passed here.
void bench_sink(const void *pointer) {
  __asm__ volatile("" : : "r"(pointer) : "memory");
}

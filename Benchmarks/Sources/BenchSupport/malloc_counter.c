// Counts heap allocations by interposing the C allocator.
//
// The executable defines malloc and its siblings; the dynamic linker binds every library
// of the process (the Swift runtime included) to these definitions, which count when
// counting is on and forward to glibc's own entry points (__libc_malloc, ...).
// Counting is off while timing: then the only cost is one relaxed load and a branch.
#if defined(__linux__)
#include <features.h>  // defines __GLIBC__ with glibc
#endif

#if defined(__linux__) && defined(__GLIBC__)

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "BenchSupport.h"

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static _Atomic int counting = 0;
static _Atomic uint64_t allocations = 0;

static inline void count_one(void) {
  if (atomic_load_explicit(&counting, memory_order_relaxed)) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  }
}

void *malloc(size_t size) {
  count_one();
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  count_one();
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  count_one();
  return __libc_realloc(pointer, size);
}

void free(void *pointer) { __libc_free(pointer); }

void *memalign(size_t alignment, size_t size) {
  count_one();
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  count_one();
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  count_one();
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL) return ENOMEM;
  *result = pointer;
  return 0;
}

void bench_allocations_start(void) {
  atomic_store(&allocations, 0);
  atomic_store(&counting, 1);
}

uint64_t bench_allocations_stop(void) {
  atomic_store(&counting, 0);
  return atomic_load(&allocations);
}

#else

#include "BenchSupport.h"

// Elsewhere allocations are not counted; the harness reports them as unavailable.
void bench_allocations_start(void) {}
uint64_t bench_allocations_stop(void) { return UINT64_MAX; }

#endif

// Reads how many heap bytes are in use, for `compare --memory`.
#if defined(__linux__)
#include <features.h>  // defines __GLIBC__ with glibc
#endif

#include "BenchSupport.h"

#if defined(__linux__) && defined(__GLIBC__) && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))

#include <malloc.h>

int64_t bench_live_heap_bytes(void) { return (int64_t)mallinfo2().uordblks; }

#else

// Elsewhere the figure is unavailable; the report says so.
int64_t bench_live_heap_bytes(void) { return -1; }

#endif

#ifndef BENCH_SUPPORT_H
#define BENCH_SUPPORT_H

#include <stdint.h>

/// Takes a pointer the optimizer cannot see through, so what it points to must exist.
void bench_sink(const void *_Nullable pointer);

/// Starts counting heap allocations (malloc, calloc, realloc, aligned allocations) made by
/// any thread of the process, from zero.
void bench_allocations_start(void);

/// Stops counting and returns how many allocations were made since the start.
uint64_t bench_allocations_stop(void);

/// The heap bytes in use now (glibc's `mallinfo2().uordblks`: the main arena, so measure
/// on the main thread), or -1 where it cannot be read.
int64_t bench_live_heap_bytes(void);

#endif

#!/usr/bin/env bash
# Runs the comparison and writes Benchmarks/RESULTS.md with the machine and toolchain.
# Usage: bash Benchmarks/Scripts/record-results.sh [extra compare options]
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --package-path Benchmarks
table=$(swift run -c release --skip-build --package-path Benchmarks compare "$@")
{
  echo "# Benchmark results"
  echo
  echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- Machine: $(nproc) processors (nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(uname -sr)"
  echo "- Toolchain: $(swift --version 2>&1 | head -1)"
  echo "- Command: \`swift run -c release --package-path Benchmarks compare${*:+ $*}\`"
  echo "- Library commit: $(git rev-parse --short HEAD)"
  echo
  echo "$table"
  cat <<'BASELINES'

## Baselines

- S1: `LazyShared` — a `Mutex<D?>`-guarded instance created on first use (lock, check, unlock
  per access); the instance is made before timing, as the containers' singletons are.
- S2, S3, S5: direct initializer calls (`D()`, `A(b: B(d: D()), c: C(d: D()))`, `Fan(p0: P0(), …)`).
- S4: one `D` passed to `B` and `C`.
- S6: making the 1,000 objects (`S6Type0()` … `S6Type999()`); the containers also create
  the container and register the 1,000 types inside the timed region.
- S7: two threads each making S3 by hand; DIContainer: two threads on one container;
  Swinject: two threads on one `container.synchronize()`d resolver.
- S8: the five request objects by hand, the two `.scoped` ones made once; DIContainer:
  `makeScope()`, `resolve()`, `close()`; Swinject: a child container per request.
- S9: making the 10,000 objects of the start-up graph, each passed its dependency; DIContainer:
  a new container, 100 frameworks of 100 `.perFramework(.single)` components appended,
  `makeGraph().validate()`, each component resolved once. Swinject has no frameworks (—).
- S10: a `FeatureHandler` made with a lazily made shared store (`LazyShared`); DIContainer:
  `resolve(from: ModularFeatureFramework.self)`, the handler's `.perFramework(.single)` store
  chosen from its own framework over the imported one; Swinject (no frameworks): one
  container, the store `.container`, the handler `.transient`.
- S11: S3 by hand in the same async loop; DIContainer: `try await container.resolveAsync()`.
- S12: a new `AsyncLazyShared` (a `Task` making the `Pool`, cached in a `Mutex`-guarded box)
  awaited by 64 tasks; DIContainer: a new container with an async `.perContainer(.single)`
  `Pool`, 64 tasks' first `resolveAsync()`. Swinject has no async resolution (—).
- Allocations are counted by interposing `malloc` & co. in the executable (see README).
- What dominates DIContainer's hot path, with suggested changes: see PROFILE.md.
BASELINES
} > Benchmarks/RESULTS.md.new
mv Benchmarks/RESULTS.md.new Benchmarks/RESULTS.md
echo "wrote Benchmarks/RESULTS.md"

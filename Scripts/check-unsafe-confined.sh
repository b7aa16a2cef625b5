#!/usr/bin/env bash
# Fails when unsafe code appears in the library outside a file named Unsafe*.swift.
#
# The library modules build with strict memory safety (SE-0458), so every unsafe
# expression must be marked `unsafe`; this check keeps those marks, and the constructs that
# need them, inside the Unsafe*.swift files (Sources/DIContainer/Internal/Unsafe/), where a
# reader finds every line the library's memory safety rests on. Comments are not code and
# are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

pattern='\bunsafe\b|@unsafe|unowned\(unsafe\)|nonisolated\(unsafe\)|@exclusivity\(unchecked\)|\bUnmanaged\b|Unsafe(Mutable)?(Raw)?(Buffer)?Pointer|unsafeBitCast|unsafeDowncast|_withUnsafeGuaranteedRef|withUnsafe(Mutable)?(Bytes|Pointer|BufferPointer)'
found=$(find Sources/DIContainer Sources/DIParts Sources/DIFrameworks -name '*.swift' \
  ! -name 'Unsafe*.swift' -print0 |
  xargs -0 grep -nE "$pattern" |
  grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' || true)
if [ -n "$found" ]; then
  echo "unsafe code outside Unsafe*.swift (move it behind a safe operation of an Unsafe* type):" >&2
  echo "$found" >&2
  exit 1
fi
files=$(find Sources/DIContainer Sources/DIParts Sources/DIFrameworks -name 'Unsafe*.swift' | wc -l)
echo "unsafe code is confined to $files Unsafe*.swift files"

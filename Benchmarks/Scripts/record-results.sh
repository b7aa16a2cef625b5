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
  echo "- Command: \`swift run -c release --package-path Benchmarks compare $*\`"
  echo "- Library commit: $(git rev-parse --short HEAD)"
  echo
  echo "$table"
} > Benchmarks/RESULTS.md.new
mv Benchmarks/RESULTS.md.new Benchmarks/RESULTS.md
echo "wrote Benchmarks/RESULTS.md"

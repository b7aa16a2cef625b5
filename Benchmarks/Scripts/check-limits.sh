#!/usr/bin/env bash
# The performance gate CI runs: measures DIContainer's instructions and heap allocations per
# operation for S1–S11 and S13 (and S9's cold start-up) with count-instructions.sh, and fails when a
# figure exceeds its limit in Benchmarks/limits.txt by more than 5%. Timing is reported by
# `compare`, never gated: on a shared machine it varies by ±50%; these counts do not.
#
# Usage: bash Benchmarks/Scripts/check-limits.sh [--record] [--limits FILE] [--tolerance PERCENT]
#          [--package-path DIR]
#
#   --record             measure and rewrite the limits file with the figures (after a change
#                        that moves them, commit the file with the change)
#   --limits FILE        the limits file (default: Benchmarks/limits.txt)
#   --tolerance PERCENT  how far over its limit a figure may go (default 5)
#   --package-path DIR   the checkout to measure (default: the one this script is in)
#
# Exit status: 0 when every figure is within its limit (or after --record), 1 when one is
# over (each named with its figure and limit), 2 for a usage error.
#
# The counts are always measured with the same N (below), so the limits hold for them:
# (X(2N) − X(N)) / N cancels start-up and first-use costs, and SWIFT_DETERMINISTIC_HASHING=1
# (set by count-instructions.sh) makes the counts repeat exactly.
set -euo pipefail
shopt -s inherit_errexit

scripts="$(cd "$(dirname "$0")" && pwd)"
limits="$(cd "$scripts/.." && pwd)/limits.txt"
tolerance=5
record=false
package_args=()
# The operations per run: small enough for CI (about two minutes on two cores), large enough
# that one operation's figure is exact.
counts=(--count 2000 --s6-count 2 --s9-count 1)

usage() {
  sed -n '2,17s/^# \{0,1\}//p' "$0" >&2
  exit "${1:-2}"
}

while (($# > 0)); do
  case "$1" in
    --record) record=true; shift ;;
    --limits) limits="${2:?--limits needs a file}"; shift 2 ;;
    --tolerance) tolerance="${2:?--tolerance needs a number}"; shift 2 ;;
    --package-path) package_args=(--package-path "${2:?--package-path needs a folder}"); shift 2 ;;
    -h | --help) usage 0 ;;
    *) echo "unknown option: $1" >&2; usage ;;
  esac
done
[[ "$tolerance" =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
  { echo "the tolerance must be a number of percent: $tolerance" >&2; exit 2; }

figures="$(mktemp)"
trap 'rm -f "$figures"' EXIT
started=$SECONDS
# The Markdown table goes to standard output, for the CI log.
bash "$scripts/count-instructions.sh" "${package_args[@]}" "${counts[@]}" --tsv "$figures"
echo

if [[ "$record" == true ]]; then
  {
    echo "# Per-operation limits of the CI gate (Benchmarks/Scripts/check-limits.sh): DIContainer's"
    echo "# instructions and heap allocations per operation; a figure more than 5% over its limit"
    echo "# fails CI. Hand-written figures are for reference, never checked."
    echo "# Recorded with: bash Benchmarks/Scripts/check-limits.sh --record (${counts[*]})"
    echo "# Recorded: $(date -u '+%Y-%m-%d'), library $(git -C "$scripts" rev-parse --short HEAD)," \
      "$(swift --version 2>&1 | head -1), $(valgrind --version)"
    echo "#"
    printf '# %s\t%s\t%s\t%s\t%s\n' scenario instructions allocations hand-instructions \
      hand-allocations
    cat "$figures"
  } > "$limits"
  echo "recorded $(grep -vc '^#' "$limits") scenarios' limits in $limits"
  exit 0
fi

[[ -f "$limits" ]] ||
  { echo "no limits file $limits: record one with --record" >&2; exit 1; }

# Compares the figures with the limits; prints one line per scenario and one per problem.
# Exit status 1 when a figure is over its limit by more than the tolerance or a scenario is
# missing on either side.
awk -F '\t' -v tolerance="$tolerance" -v limits_file="$limits" '
  function grouped(n,   s) {
    s = sprintf("%.0f", n)
    while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]([,]|$)/, ",&", s)
    return s
  }
  function show(n, what) { return what == "instructions" ? grouped(n) : sprintf("%.2f", n) }
  # Checks one figure against its limit; sets failed.
  function check(id, what, figure, limit,   allowed, change) {
    if (figure == "-" && limit == "-") return
    if (figure !~ /^[0-9.]+$/ || limit !~ /^[0-9.]+$/) {
      if (figure == "n/a") { printf "  %s: %s not counted here (no malloc counter)\n", id, what; return }
      printf "FAIL %s: %s per operation is %s, its limit %s (not comparable)\n", id, what, figure, limit
      failed = 1
      return
    }
    allowed = limit * (1 + tolerance / 100)
    change = limit > 0 ? sprintf("%+.1f%%", (figure - limit) * 100 / limit) : "from 0"
    if (figure + 0 > allowed + 1e-9) {
      printf "FAIL %s: %s %s per operation, limit %s (%s, more than %s%% over)\n",
        id, show(figure, what), what, show(limit, what), change, tolerance
      failed = 1
    } else if (limit > 0 && figure + 0 < limit * (1 - tolerance / 100)) {
      printf "  %s: %s %s per operation, %s under its limit %s: record with --record to tighten\n",
        id, show(figure, what), what, change, show(limit, what)
    }
  }
  FILENAME == limits_file {
    if ($0 ~ /^#/ || NF < 3) next
    limit_instructions[$1] = $2; limit_allocations[$1] = $3; order[++limits] = $1
    next
  }
  {
    measured[$1] = 1
    if (!($1 in limit_instructions)) {
      printf "FAIL %s: no limit in %s; record with --record\n", $1, limits_file
      failed = 1
      next
    }
    check($1, "instructions", $2, limit_instructions[$1])
    check($1, "allocations", $3, limit_allocations[$1])
    checked++
  }
  END {
    for (i = 1; i <= limits; i++) if (!(order[i] in measured)) {
      printf "FAIL %s: has a limit but was not measured\n", order[i]
      failed = 1
    }
    printf "%d scenarios checked against %s (tolerance %s%%)\n", checked, limits_file, tolerance
    exit failed
  }
' "$limits" "$figures" || {
  echo "performance gate: a figure is over its limit (above). If the change is meant to cost" \
    "more, re-record: bash Benchmarks/Scripts/check-limits.sh --record, and commit" \
    "Benchmarks/limits.txt with it." >&2
  exit 1
}
echo "performance gate passed in $((SECONDS - started)) s"

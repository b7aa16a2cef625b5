#!/usr/bin/env bash
# Counts the instructions and heap allocations one operation of each benchmark scenario costs,
# with valgrind's callgrind and the benchmark's malloc counter, for DIContainer and for
# hand-written construction, and prints a Markdown table.
#
# Usage: bash Benchmarks/Scripts/count-instructions.sh [--package-path DIR] [--only S1,S2,...]
#          [--count N] [--s6-count N] [--s9-count N] [--s12-count N] [--tsv FILE] [--keep DIR]
#
#   --package-path DIR  the library checkout to measure (the folder holding Benchmarks/);
#                       default: the checkout this script is in. Its own Benchmarks/.build is used.
#   --only S1,S3        only these scenarios (default: S1 … S13; S12 only when named)
#   --count N           operations of the shorter run (default 20000); the longer run does 2N
#   --s6-count N        the same for S6, whose one operation is a whole container with 1,000
#                       registrations and 1,000 resolves (default 20)
#   --s9-count N        the same for S9, whose one operation is a whole start-up: 10,000
#                       registrations in 100 frameworks, validation, 10,000 resolves (default 1)
#   --s12-count N       the same for S12, whose one operation is a new container and 64 tasks'
#                       first resolves of its async singleton (default 200)
#   --tsv FILE          also write the figures to FILE, one line per scenario:
#                       id, DIContainer instructions, allocations, hand-written instructions,
#                       allocations (tab-separated; "-" where there is none)
#   --keep DIR          keep the callgrind output files in DIR (default: deleted at the end)
#   --override-elsewhere  measure with another thread inside a `withOverrides` operation the
#                       whole time (every request then reads the task-local override list)
#
# Method: `compare --profile S --count N [--implementation …]` runs a scenario's operation N
# times, untimed, and prints the heap allocations those N operations made (the malloc
# counter of Sources/BenchSupport, on around the operations only). Each scenario and
# implementation runs under callgrind twice, with N and with 2N operations (the two runs at
# once, one per core); (I(2N) − I(N)) / N is the instructions of one operation and
# (A(2N) − A(N)) / N its allocations, with the start-up, the container's set-up and
# first-use costs cancelled out. Neither depends on the machine's load, so this can run next
# to a build. SWIFT_DETERMINISTIC_HASHING=1 makes dictionary and set layouts, and so the
# counts, the same from run to run.
#
# valgrind 3.19 cannot read DWARF 5, so callgrind runs on a copy of `compare` made with
# `objcopy --strip-debug` (symbols stay).
set -euo pipefail
shopt -s inherit_errexit

# ---- Options -------------------------------------------------------------------------------

package_path="$(cd "$(dirname "$0")/../.." && pwd)"
# S12 is left out of the default list: its count depends on how the tasks interleave (how
# many of the 64 find the singleton being made and wait), which valgrind's serialized threads
# vary from run to run (DIContainer: 2.8–3.2 M per operation over five runs, 15% apart), and
# its four runs take one and a half minutes.
only="S1,S2,S3,S4,S5,S6,S7,S8,S9,S10,S11,S13"
count=20000
s6_count=20
s9_count=1
s12_count=200
tsv=""
keep=""
profile_extra=()

# Prints the usage above and exits with $1 (default 2).
usage() {
  sed -n '2,26s/^# \{0,1\}//p' "$0" >&2
  exit "${1:-2}"
}

while (($# > 0)); do
  case "$1" in
    --package-path) package_path="${2:?--package-path needs a folder}"; shift 2 ;;
    --only) only="${2:?--only needs scenario ids}"; shift 2 ;;
    --count) count="${2:?--count needs a number}"; shift 2 ;;
    --s6-count) s6_count="${2:?--s6-count needs a number}"; shift 2 ;;
    --s9-count) s9_count="${2:?--s9-count needs a number}"; shift 2 ;;
    --s12-count) s12_count="${2:?--s12-count needs a number}"; shift 2 ;;
    --tsv) tsv="${2:?--tsv needs a file}"; shift 2 ;;
    --keep) keep="${2:?--keep needs a folder}"; shift 2 ;;
    --override-elsewhere) profile_extra+=(--override-elsewhere); shift ;;
    -h | --help) usage 0 ;;
    *) echo "unknown option: $1" >&2; usage ;;
  esac
done

for number in "$count" "$s6_count" "$s9_count" "$s12_count"; do
  [[ "$number" =~ ^[1-9][0-9]*$ ]] || { echo "a count must be a positive integer: $number" >&2; exit 2; }
done
package_path="$(cd "$package_path" && pwd)"
[[ -f "$package_path/Benchmarks/Package.swift" ]] ||
  { echo "no Benchmarks/Package.swift in $package_path" >&2; exit 2; }
for tool in swift valgrind objcopy; do
  command -v "$tool" > /dev/null || { echo "$tool is not on PATH" >&2; exit 2; }
done
IFS=',' read -r -a scenarios <<< "${only^^}"

# Short titles for the table (the full ones are in Benchmarks/README.md).
declare -A titles=(
  [S1]="resolve a container-scoped singleton"
  [S2]="resolve a transient leaf"
  [S3]="transient A(B(D), C(D)), 5 objects"
  [S4]="as S3 with D shared in the graph"
  [S5]="one object with 10 transient dependencies"
  [S6]="new container + 1,000 registrations + 1,000 resolves"
  [S7]="S3 on 2 threads (see note)"
  [S8]="scope + 5-object request graph, 2 .scoped"
  [S9]="start-up: 10,000 components in 100 frameworks"
  [S10]="modular resolve from an importing framework"
  [S11]="S3 through resolveAsync()"
  [S12]="64 tasks' first resolveAsync() of an async singleton"
  [S13]="S11 in a container with an async singleton"
)

log() { echo "$*" >&2; }
started=$SECONDS

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [[ -n "$keep" ]]; then mkdir -p "$keep"; fi

# ---- Build ---------------------------------------------------------------------------------

log "building $package_path/Benchmarks (release)…"
swift build -c release --package-path "$package_path/Benchmarks" >&2
bin_path="$(swift build -c release --package-path "$package_path/Benchmarks" --show-bin-path)"
objcopy --strip-debug "$bin_path/compare" "$work/compare"
export SWIFT_DETERMINISTIC_HASHING=1

# ---- Measuring -----------------------------------------------------------------------------

# The title `compare` prints for an implementation ("ran N operations of S1 with <title>").
implementation_title() {
  case "$1" in
    diContainer) echo "DIContainer" ;;
    handWritten) echo "hand-written" ;;
  esac
}

# Checks, natively and with one operation, that `--profile` runs this scenario with this
# implementation (an unknown scenario exits 2; an unknown implementation silently falls back
# to DIContainer, so the "with <title>" of its output is checked too).
supported() {
  local scenario="$1" implementation="$2" output
  output="$("$work/compare" --profile "$scenario" --count 1 --implementation "$implementation" 2>&1)" ||
    return 1
  [[ "$output" == *"of $scenario with $(implementation_title "$implementation")"* ]]
}

# Prints "instructions allocations" for `operations` operations: callgrind's count and the
# allocations `compare --profile` reports.
# Measured once: a second call with the same arguments prints the first one's result.
measure() {
  local scenario="$1" implementation="$2" operations="$3"
  local out="$work/callgrind.$scenario.$implementation.$operations" allocations
  if [[ -f "$out.result" ]]; then cat "$out.result"; return; fi
  valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$work/compare" --profile "$scenario" --count "$operations" \
    --implementation "$implementation" ${profile_extra[@]+"${profile_extra[@]}"} \
    > "$out.stdout" 2> "$out.log" ||
    { log "callgrind failed for $scenario $implementation $operations:"; cat "$out.log" >&2; exit 1; }
  if [[ -n "$keep" ]]; then cp "$out" "$keep/"; fi
  allocations="$(sed -n 's/^ran .*; allocations: \([0-9]*\)$/\1/p' "$out.stdout")"
  # `summary:` in the header; `totals:` at the end of the file (either may be absent).
  echo "$(awk '/^(summary|totals):/ { print $2; exit }' "$out") ${allocations:-n/a}" |
    tee "$out.result"
}

# Prints one operation's "instructions allocations" (allocations with two decimals, "n/a"
# without the malloc counter), or "- -" if `--profile` has no form of it.
per_operation() {
  local scenario="$1" implementation="$2" operations="$3" once twice
  if ! supported "$scenario" "$implementation"; then
    echo "- -"
    return
  fi
  # The two runs at once: a count does not depend on what else runs.
  measure "$scenario" "$implementation" "$operations" > "$work/once" &
  local first=$!
  measure "$scenario" "$implementation" $((2 * operations)) > "$work/twice"
  wait "$first"
  read -r -a once < "$work/once"
  read -r -a twice < "$work/twice"
  log "  $scenario $implementation: I($operations) = ${once[0]}, I($((2 * operations))) =" \
    "${twice[0]}; allocations ${once[1]}, ${twice[1]}"
  awk -v i1="${once[0]}" -v i2="${twice[0]}" -v a1="${once[1]}" -v a2="${twice[1]}" \
    -v n="$operations" 'BEGIN {
      printf "%.0f ", (i2 - i1) / n
      if (a1 ~ /^[0-9]+$/ && a2 ~ /^[0-9]+$/) printf "%.2f\n", (a2 - a1) / n; else print "n/a"
    }'
}

# Prints the first operation's "instructions allocations" in a process that has run none
# (I(1) − I(0)): S9's cold start-up, the Swift runtime's type metadata and conformance caches
# still empty, as at a server's start. Not the same each time for other scenarios; S9 only.
first_operation() {
  local scenario="$1" implementation="$2" none one
  if ! supported "$scenario" "$implementation"; then
    echo "- -"
    return
  fi
  measure "$scenario" "$implementation" 0 > "$work/none" &
  local first=$!
  measure "$scenario" "$implementation" 1 > "$work/one"
  wait "$first"
  read -r -a none < "$work/none"
  read -r -a one < "$work/one"
  log "  $scenario $implementation cold: I(0) = ${none[0]}, I(1) = ${one[0]}"
  awk -v i0="${none[0]}" -v i1="${one[0]}" -v a0="${none[1]}" -v a1="${one[1]}" 'BEGIN {
    printf "%.0f ", i1 - i0
    if (a0 ~ /^[0-9]+$/ && a1 ~ /^[0-9]+$/) printf "%.2f\n", a1 - a0; else print "n/a"
  }'
}

# 1234567 → 1,234,567; anything else unchanged.
grouped() {
  if [[ "$1" =~ ^-?[0-9]+$ ]]; then
    echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/; ta'
  else
    echo "$1"
  fi
}

rows=()
tsv_lines=()

# Adds a row to the table and a line to the TSV: id, label, DIContainer's instructions and
# allocations, hand-written's.
add_row() {
  local id="$1" label="$2" container="$3" container_allocations="$4" hand="$5"
  local hand_allocations="$6" ratio="—"
  if [[ "$container" =~ ^[0-9]+$ && "$hand" =~ ^[0-9]+$ ]] && ((hand > 0)); then
    ratio="$(awk -v c="$container" -v h="$hand" 'BEGIN { printf "%.1f×", c / h }')"
  fi
  rows+=("| $label | $(grouped "$container") | $container_allocations | $(grouped "$hand") |"\
" $hand_allocations | $ratio |")
  tsv_lines+=("$id"$'\t'"$container"$'\t'"$container_allocations"$'\t'"$hand"$'\t'"$hand_allocations")
}

declare -A container_counts=()  # DIContainer's instructions per operation, by scenario
for scenario in "${scenarios[@]}"; do
  operations=$count
  [[ "$scenario" == S6 ]] && operations=$s6_count
  [[ "$scenario" == S9 ]] && operations=$s9_count
  [[ "$scenario" == S12 ]] && operations=$s12_count
  log "$scenario: $operations and $((2 * operations)) operations under callgrind…"
  # Assigned first, so that a failed measurement stops the script (set -e).
  figures="$(per_operation "$scenario" diContainer "$operations")"
  read -r container container_allocations <<< "$figures"
  figures="$(per_operation "$scenario" handWritten "$operations")"
  read -r hand hand_allocations <<< "$figures"
  [[ "$container" =~ ^[0-9]+$ ]] && container_counts[$scenario]=$container
  label="$scenario"
  [[ -n "${titles[$scenario]:-}" ]] && label="$scenario ${titles[$scenario]}"
  [[ "$scenario" == S6 || "$scenario" == S9 ]] && label="$label (per whole scenario, N = $operations)"
  [[ "$scenario" == S12 ]] && label="$label (per 64 tasks, N = $operations)"
  add_row "$scenario" "$label" "$container" "$container_allocations" "$hand" "$hand_allocations"
  if [[ "$scenario" == S9 ]]; then
    figures="$(first_operation S9 diContainer)"
    read -r container container_allocations <<< "$figures"
    figures="$(first_operation S9 handWritten)"
    read -r hand hand_allocations <<< "$figures"
    add_row S9-cold "S9-cold the first start-up in the process (runtime caches empty)" \
      "$container" "$container_allocations" "$hand" "$hand_allocations"
  fi
done
if [[ -n "$tsv" ]]; then printf '%s\n' "${tsv_lines[@]}" > "$tsv"; fi

# ---- Report --------------------------------------------------------------------------------

commit="$(git -C "$package_path" rev-parse --short HEAD 2> /dev/null || echo unknown)"
if [[ -n "$(git -C "$package_path" status --porcelain 2> /dev/null)" ]]; then
  commit="$commit + uncommitted changes"
fi

echo "Instructions and heap allocations per operation ((X(2N) − X(N)) / N; callgrind and the" \
  "malloc counter; N = $count; S6: N = $s6_count; S9: N = $s9_count; S12: N = $s12_count)"
echo
echo "- Library: $package_path at $commit"
echo "- Toolchain: $(swift --version 2>&1 | head -1)"
echo "- valgrind: $(valgrind --version)"
echo
echo "| scenario | DIContainer instr/op | DIContainer allocs/op | hand-written instr/op |" \
  "hand-written allocs/op | instr ratio |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
printf '%s\n' "${rows[@]}"
echo
if [[ " ${scenarios[*]} " == *" S6 "* ]]; then
  echo "S6: one operation is a new container, 1,000 registrations and 1,000 resolves" \
    "(hand-written: making the 1,000 objects); divide by 1,000 for one resolve."
fi
if [[ " ${scenarios[*]} " == *" S9 "* ]]; then
  echo "S9: one operation is a whole start-up: a new container, 100 frameworks of 100" \
    "components appended, \`makeGraph().validate()\`, each component resolved once" \
    "(hand-written: making the 10,000 objects); divide by 10,000 for one component." \
    "S9-cold is the first one in a fresh process (I(1) − I(0)), with the Swift runtime's" \
    "type metadata and protocol conformance caches still empty, as at a server's start."
fi
if [[ " ${scenarios[*]} " == *" S7 "* ]]; then
  echo "S7: \`--profile\` runs the operation on one thread, so this is S3's operation on the" \
    "container S7 sets up, without the second thread's contention."
fi
if [[ " ${scenarios[*]} " == *" S12 "* ]]; then
  echo "S12: one operation is a new container and 64 tasks' first \`resolveAsync()\` of its" \
    "async singleton (hand-written: a new AsyncLazyShared awaited by 64 tasks); divide by 64" \
    "for one task. It varies from run to run by up to 15% (how the tasks interleave)."
fi
if [[ -n "${container_counts[S3]:-}" && -n "${container_counts[S11]:-}" ]]; then
  echo "S11: \`resolveAsync()\` on a task of its own; S11 ÷ S3 for DIContainer:" \
    "$(awk -v a="${container_counts[S11]}" -v s="${container_counts[S3]}" 'BEGIN { printf "%.2f×", a / s }')" \
    "(the issue's goal: ≤ 1.5×)."
fi
log "done in $((SECONDS - started)) s"

#!/usr/bin/env bash
# Runs every sample-app command once: checks its exit status and one line of its output.
# Builds the product once, then runs the binary directly. `.ci/run` calls it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -d /opt/swift/usr/bin ]]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

swift build --product sample-app
app=".build/debug/sample-app"
failures=0

# check <expected status> <expected line (grep -F)> <arguments…>
check() {
  local expected=$1 line=$2 status=0 output
  shift 2
  output=$("$app" "$@" 2>&1) || status=$?
  if [[ $status -ne $expected ]]; then
    echo "FAIL sample-app $*: exit status $status, expected $expected" >&2
    failures=$((failures + 1))
  elif ! grep -qF -- "$line" <<<"$output"; then
    echo "FAIL sample-app $*: no line '$line' in:" >&2
    echo "$output" >&2
    failures=$((failures + 1))
  else
    echo "ok   sample-app $* (exit $status)"
  fi
}

check 0 "paid 4 (" run --orders 5 --seed 42
check 0 "paid 2 (\$138.24), card declined 1, no stock 2" run
check 0 "await container.shutdown(): closed SMTPConnection#1, CardGateway#1, PaymentLedger#1, PaymentsDatabase#1, StockLedger#1, StockDatabase#1" run
check 0 "  Notifier [prototype] → PaymentLedger (BillingFramework), EmailChannel, TextMessageChannel" graph
check 0 "  StockDatabase [perFramework(.single), async] → ResourceTracker (application)" graph
check 0 '    label="BillingFramework";' graph --format dot
check 0 '  subgraph f1["BillingFramework"]' graph --format mermaid
check 0 "Validating the graph (13 components, 18 edges): no problems" validate
check 0 "valid: 13 checks passed" validate
check 1 "invalid: 13 of 13 checks failed" validate --missing-tracker
check 0 "  closed: PaymentLedger#1, PaymentsDatabase#1" modules
check 0 "usage: sample-app <command> [options]" --help
check 0 "usage: sample-app run [--orders N] [--seed S]" run --help
check 0 "usage: sample-app graph [--format text|dot|mermaid]" graph --help
check 0 "usage: sample-app validate [--missing-tracker]" validate --help
check 0 "usage: sample-app modules" modules --help
check 64 "sample-app: unknown command 'frobnicate'" frobnicate
check 64 "sample-app: unknown option '--verbose' for run" run --verbose
check 64 "sample-app: --orders takes a whole number from 1 to 1000, not 'many'" run --orders many
check 64 "sample-app: unknown format 'svg'" graph --format svg

if [[ $failures -ne 0 ]]; then
  echo "$failures sample-app check(s) failed" >&2
  exit 1
fi
echo "every sample-app command works"

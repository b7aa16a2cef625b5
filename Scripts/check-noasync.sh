#!/usr/bin/env bash
# Fails unless every trapping form (the ones that stop the program on a DIError) is a compile
# error in async code and still compiles in synchronous code: `@available(*, noasync)` (SPEC,
# "Servers"). Type-checks two small files against the modules `swift build` left in the
# scratch folder, so it runs after the build; takes a few seconds.
#
# Usage: bash Scripts/check-noasync.sh [scratch path, default .build]
set -euo pipefail
cd "$(dirname "$0")/.."
modules="${1:-.build}/debug/Modules"
if [ ! -f "$modules/DIContainer.swiftmodule" ]; then
  echo "check-noasync: no $modules/DIContainer.swiftmodule; run swift build first" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One call per trapping form; the argument (`async` or nothing) marks the function.
calls() {
  cat <<EOF
import DIContainer
import DIFrameworks

final class Presenter {}
final class Store: DIFramework {
  static func load(container: DIContainer) {}
}

func trappingForms(
  _ container: DIContainer, _ scope: DIRequestScope, _ resolver: any DIResolver,
  _ lazy: Lazy<Int>, _ provider: Provider<Int>, _ lazy1: Lazy1<Int, String>,
  _ provider1: Provider1<Int, String>
) $1 {
  let _: Int = container.resolve()
  let _: Int = container.resolve(arg: "a")
  let _: Int = container.resolve(args: "a", 1)
  let _: Int = container.resolve(arguments: .for(Int.self, 1))
  let _: Int = *container
  container.inject(into: Presenter())
  let _: Int = container.resolve(from: Store.self)
  let _: Int = scope.resolve()
  let _: Int = resolver.resolve()
  let _: Int = lazy.value
  let _: Int = provider.value
  let _: Int = lazy1.value("a")
  let _: Int = provider1.value("a")
}
EOF
}
forms=13

calls "" >"$work/Synchronous.swift"
calls "async" >"$work/Async.swift"
typecheck() { swiftc -swift-version 6 -typecheck -diagnostic-style llvm -I "$modules" "$1" 2>&1; }

if ! out=$(typecheck "$work/Synchronous.swift"); then
  echo "check-noasync: the trapping forms no longer compile in synchronous code:" >&2
  echo "$out" >&2
  exit 1
fi
out=$(typecheck "$work/Async.swift" || true)
refused=$(grep -c "unavailable from asynchronous contexts" <<<"$out" || true)
if [ "$refused" -ne "$forms" ]; then
  echo "check-noasync: $refused of the $forms trapping forms are refused in async code:" >&2
  echo "$out" >&2
  exit 1
fi
echo "check-noasync: the $forms trapping forms compile in synchronous code and not in async code"

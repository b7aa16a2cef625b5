#!/usr/bin/env bash
# Builds the DocC documentation of the three library modules with the toolchain's `docc`
# (no plugin, so the package keeps no dependencies), treating every warning as an error:
# an unresolved ``symbol link``, a topic that names nothing, a malformed directive.
#
#   bash Scripts/build-docs.sh       # → .build/docs/{DIContainer,DIParts,DIFrameworks}.doccarchive
#
# Symbol graphs come from a build of DIFrameworks (which builds DIContainer and DIParts) in
# its own scratch path, .build/docs/build, so the extra compiler flags do not invalidate the
# ordinary .build/debug. `-emit-extension-block-symbols` makes the extensions DIParts and
# DIFrameworks add to DIContainer (DIParts@DIContainer.symbols.json, ...) pages of their
# module, linked as ``DIContainer/DIContainer/append(part:)``. A catalog cannot link
# another module's symbols: name them in code voice (`DIError`).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

docs=.build/docs
graphs="$PWD/$docs/symbol-graphs"
rm -rf "$docs"/graphs-* "$docs"/*.doccarchive

build_graphs() {
  mkdir -p "$graphs"
  swift build --scratch-path "$docs/build" --target DIFrameworks \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" \
    -Xswiftc -emit-extension-block-symbols
}
# A module writes its graph when it is compiled; an up-to-date module writes none, so the
# graphs of the last build stay. Without them, build from scratch.
build_graphs
for module in DIContainer DIParts DIFrameworks; do
  if [ ! -f "$graphs/$module.symbols.json" ]; then
    rm -rf "$docs/build" "$graphs"
    build_graphs
    break
  fi
done

status=0
for module in DIContainer DIParts DIFrameworks; do
  # Each catalog gets its module's graph and the graphs of its extensions to other modules.
  mkdir -p "$docs/graphs-$module"
  cp "$graphs/$module.symbols.json" "$docs/graphs-$module/"
  cp "$graphs/$module"@*.symbols.json "$docs/graphs-$module/" 2>/dev/null || true
  echo "docc: $module"
  if ! docc convert "Sources/$module/$module.docc" \
    --additional-symbol-graph-dir "$docs/graphs-$module" \
    --fallback-display-name "$module" --fallback-bundle-identifier "dicontainer.$module" \
    --output-path "$docs/$module.doccarchive" --warnings-as-errors; then
    echo "docc: $module has documentation warnings or errors (above); fix them" >&2
    status=1
  fi
done
exit "$status"

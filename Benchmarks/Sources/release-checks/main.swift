// Re-entrancy checks that only an optimized build can fail: the library keeps state that
// only its own thread touches without dynamic exclusivity checks (the thread's request, its
// inline object graphs), so a deinitializer that resolves while that state is being
// changed is sound only if every such change ends before user code runs. A debug build
// reloads memory where an optimized one keeps what it loaded, so the unit tests pass either
// way; these run in release, in CI (`.ci/run`). Exits non-zero with the failures.
import DIContainer
import Foundation

/// What a deinitializer that resolved saw.
final class Sightings: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [Bool] = []

  func add(_ value: Bool) { lock.withLock { values.append(value) } }
  var all: [Bool] { lock.withLock { values } }
}

let sightings = Sightings()

final class Shared {}
protocol LeafService: AnyObject {}
final class Leaf: LeafService {
  let shared: Shared
  init(shared: Shared) { self.shared = shared }
}

/// Many `.objectGraph` leaves and the shared object they all take: a big graph.
final class Big {
  let leaves: [any LeafService]
  let shared: Shared
  init(leaves: [any LeafService], shared: Shared) {
    self.leaves = leaves
    self.shared = shared
  }

  var isSound: Bool { leaves.allSatisfy { ($0 as? Leaf)?.shared === shared } }
}

/// An `.objectGraph` object that nothing keeps: released as its resolve ends, it resolves
/// a big graph from its deinitializer.
final class Releaser: @unchecked Sendable {
  let container: DIContainer
  init(container: DIContainer) { self.container = container }

  deinit {
    let big: Big = container.resolve()
    sightings.add(big.isSound)
  }
}

final class Root {
  let big: Big
  init(big: Big, releaser: Releaser) { self.big = big }
}

/// A `.scoped` object whose deinitializer, run as its scope closes, resolves in another
/// scope of the same container and asks its own scope whether it is closed.
final class ScopedReleaser: @unchecked Sendable {
  let container: DIContainer
  weak var scope: DIRequestScope?
  init(container: DIContainer) { self.container = container }

  deinit {
    let other = container.makeScope()
    let big: Big = other.resolve()
    other.close()
    sightings.add(big.isSound && scope?.isClosed != false)
  }
}

var failures: [String] = []
let rounds = 200

for leaves in [2, 40, 200] {
  let container = DIContainer()
  container.register(Shared.init).lifetime(.objectGraph)
  for _ in 0..<leaves {
    container.register(Leaf.init).as((any LeafService).self).lifetime(.objectGraph)
  }
  container.register { Big(leaves: many($0), shared: $1) }
  container.register { Releaser(container: container) }.lifetime(.objectGraph)
  container.register(Root.init)
  for _ in 0..<rounds {
    let root: Root = container.resolve()
    if !root.big.isSound { failures.append("\(leaves) leaves: a graph shared two objects") }
  }
}

do {
  let container = DIContainer()
  container.register(Shared.init).lifetime(.objectGraph)
  for _ in 0..<40 {
    container.register(Leaf.init).as((any LeafService).self).lifetime(.objectGraph)
  }
  container.register { Big(leaves: many($0), shared: $1) }
  container.register { ScopedReleaser(container: container) }.lifetime(.scoped)
  for _ in 0..<rounds {
    let scope = container.makeScope()
    let releaser: ScopedReleaser = scope.resolve()
    releaser.scope = scope
    scope.close()
  }
}

let seen = sightings.all
let expected = 3 * rounds + rounds
if seen.count != expected {
  failures.append("\(seen.count) deinitializers resolved, not \(expected)")
}
if seen.contains(false) { failures.append("a deinitializer's resolve was not sound") }

if failures.isEmpty {
  print("release checks: \(seen.count) resolves from deinitializers, all sound")
} else {
  for failure in failures { print("release checks: \(failure)") }
  exit(1)
}

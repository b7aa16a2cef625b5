/// The `.objectGraph` instances of the graphs a thread's resolutions are building, kept by
/// the thread's request while no `Lazy`, `Provider` or postponed injection needs a graph
/// object (``ObjectGraph``): such a graph costs no allocation and no lock.
///
/// One array for every graph of the thread, in the order the instances were made: a
/// resolution started inside another one's factory adds its graph's instances after the
/// outer one's, and removes them when it ends (one that is part of a read of a delayed
/// value's graph leaves them to the read, which runs right outside it), so each graph's
/// instances lie after the count its resolution started at (its base). Only the request's
/// thread touches it.
struct InlineGraphs {
  private struct Entry {
    let graph: GraphID
    let component: ObjectIdentifier
    let instance: Instance
  }

  private var entries: [Entry] = []
  /// The reads of delayed values' graphs running on this thread, innermost last: what each
  /// sees of its graph, and how deep in the request it runs (a resolution of the same graph
  /// inside one is part of it).
  private var readers: [Reader] = []

  /// A read of a delayed value's graph running on this thread.
  struct Reader {
    let graph: GraphID
    /// What the graph had when the read began.
    let seen: ObjectGraph.Generation
    /// How many resolutions of the thread were running, the read included.
    let depth: Int
  }
  /// The graphs of running resolutions that an object keeps now: what was made for them
  /// before goes there (an instance published while the graph got its object).
  private var materialized: [(graph: GraphID, object: ObjectGraph)] = []

  /// Where a resolution starting now finds its graph's instances.
  var base: Int { entries.count }

  /// How many instances a graph keeps here before it gets an ``ObjectGraph``: they are
  /// searched one by one.
  static var searchedCount: Int { 16 }

  /// How many entries lie from `base` on: a running resolution's graph's, when its
  /// resolution is the innermost one.
  func count(from base: Int) -> Int {
    entries.count - base
  }

  /// The instance of `component` in `graph`, whose instances lie from `base` on.
  func instance(of component: ObjectIdentifier, in graph: GraphID, from base: Int) -> Any? {
    var index = entries.count - 1
    while index >= base {
      if entries[index].component == component && entries[index].graph == graph {
        return entries[index].instance.value
      }
      index -= 1
    }
    return nil
  }

  /// Keeps `value` as the instance of `component` in `graph`, unless the graph has an
  /// object now: then it returns the object, for the caller to store the value there once
  /// this access is over.
  mutating func store(
    _ value: Any, for component: ObjectIdentifier, in graph: GraphID
  ) -> ObjectGraph? {
    if !materialized.isEmpty, let object = materialized.last(where: { $0.graph == graph }) {
      return object.object
    }
    entries.append(Entry(graph: graph, component: component, instance: Instance(value: value)))
    return nil
  }

  /// Keeps `value` as the instance of `component` in `graph` even though the graph has an
  /// object: what a read of a delayed value's graph made, which it finds here first (see
  /// ``RequestGraph/Reading``).
  mutating func record(_ value: Any, for component: ObjectIdentifier, in graph: GraphID) {
    entries.append(Entry(graph: graph, component: component, instance: Instance(value: value)))
  }

  /// The read of `graph` running on this thread, if there is one.
  func reader(of graph: GraphID) -> Reader? {
    guard !readers.isEmpty else { return nil }
    return readers.last { $0.graph == graph }
  }

  /// A read of `graph`, which sees what it had at `seen`, begins on this thread, `depth`
  /// resolutions deep.
  mutating func beginReading(_ graph: GraphID, seen: ObjectGraph.Generation, depth: Int) {
    readers.append(Reader(graph: graph, seen: seen, depth: depth))
  }

  /// The innermost read running on this thread, of `graph`, ends.
  mutating func endReading(_ graph: GraphID) {
    precondition(readers.last?.graph == graph, "a read of an object graph ended out of order")
    readers.removeLast()
  }

  /// The instances of `graph` from `base` on, first made first.
  func instances(in graph: GraphID, from base: Int) -> [(ObjectIdentifier, Instance)] {
    entries[base...].filter { $0.graph == graph }.map { ($0.component, $0.instance) }
  }

  /// Hands the instances of `graph` (from `base` on) to a new ``ObjectGraph``, which
  /// keeps them and the later ones.
  mutating func materialize(_ graph: GraphID, from base: Int) -> ObjectGraph {
    var instances: [(ObjectIdentifier, Instance)] = []
    for index in base..<entries.count where entries[index].graph == graph {
      instances.append((entries[index].component, entries[index].instance))
    }
    let object = ObjectGraph(id: graph, instances: instances)
    materialized.append((graph, object))
    // The object holds every instance removed here: none is released.
    entries.removeSubrange(base...)
    return object
  }

  /// Forgets that `graph` has an object, and returns it (if it had one), for the caller to
  /// release once this access is over.
  mutating func forgetObject(of graph: GraphID) -> ObjectGraph? {
    guard !materialized.isEmpty, let index = materialized.lastIndex(where: { $0.graph == graph })
    else { return nil }
    return materialized.remove(at: index).object
  }

  /// Removes the newest instance and returns it, for the caller to release once this
  /// access is over: its deinitializer may resolve, and so use this array.
  mutating func removeLast() -> Instance {
    entries.removeLast().instance
  }
}

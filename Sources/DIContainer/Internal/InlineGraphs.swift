/// The `.objectGraph` instances of the graphs a thread's resolutions are building, kept by
/// the thread's request while no `Lazy`, `Provider` or postponed injection needs a graph
/// object (``ObjectGraph``): such a graph costs no allocation and no lock.
///
/// One array for every graph of the thread, in the order the instances were made: a
/// resolution started inside another one's factory adds its graph's instances after the
/// outer one's, and removes them when it ends, so each graph's instances lie after the
/// count its resolution started at (its base). Only the request's thread touches it.
struct InlineGraphs {
  private struct Entry {
    let graph: GraphID
    let component: ObjectIdentifier
    let instance: Instance
  }

  private var entries: [Entry] = []
  /// The graphs of running resolutions that an object keeps now: what was made for them
  /// before goes there (an instance published while the graph got its object).
  private var materialized: [(graph: GraphID, object: ObjectGraph)] = []

  /// Where a resolution starting now finds its graph's instances.
  var base: Int { entries.count }

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

  /// Keeps `value` as the instance of `component` in `graph` (in its object, if it has
  /// one now).
  mutating func store(_ value: Any, for component: ObjectIdentifier, in graph: GraphID) {
    if !materialized.isEmpty, let object = materialized.last(where: { $0.graph == graph }) {
      return object.object.store(value, for: component)
    }
    entries.append(Entry(graph: graph, component: component, instance: Instance(value: value)))
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
    removeEntries(from: base)
    return object
  }

  /// Forgets `graph`, whose instances lie from `base` on: its resolution is over.
  mutating func end(_ graph: GraphID, from base: Int) {
    if !materialized.isEmpty, let index = materialized.lastIndex(where: { $0.graph == graph }) {
      materialized.remove(at: index)
    }
    removeEntries(from: base)
  }

  /// Removes the entries from `base` on one at a time, each released once out of the
  /// array: a deinitializer that resolves (and so adds entries, and removes them) finds
  /// the array whole.
  private mutating func removeEntries(from base: Int) {
    while entries.count > base {
      _ = entries.removeLast()
    }
  }
}

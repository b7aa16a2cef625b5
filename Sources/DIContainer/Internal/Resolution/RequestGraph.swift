/// The object graph of one resolution: where its `.objectGraph` instances are kept.
///
/// Most resolutions make no `.objectGraph` instance, and pay nothing. The first one gives
/// the graph its identity, and its instances are kept by the thread's request
/// (``InlineGraphs``), from ``base`` on; once a `Lazy`, a `Provider` or postponed work needs
/// an object for them, they move into an ``ObjectGraph``, which this value holds strongly
/// from then on. ``end(in:)`` gives both back when the resolution ends.
struct RequestGraph {
  /// The graph's identity, once it has `.objectGraph` instances or an object.
  private var inlineID: GraphID?
  /// Where this resolution's instances start in the request's ``InlineGraphs``.
  let base: Int
  /// The graph's object, once something needs one.
  private(set) var object: ObjectGraph?
  /// Whether this resolution continues the graph of another (``enter(_:)``), which other
  /// resolutions may continue at the same time: it keeps the instances it makes in the
  /// thread's request, from ``base`` on, finds them there first, and gives them to the
  /// graph once they are complete.
  var continues: Bool { seen != nil }
  /// What the graph had when this resolution began to continue it: all it sees of it.
  private(set) var seen: ObjectGraph.Generation?

  /// The graph of a resolution whose instances would start at `base`.
  init(base: Int) {
    self.base = base
  }

  /// Whether the graph has an object (then it may hold postponed work).
  var hasObject: Bool {
    @inline(__always) get { object != nil }
  }

  /// The identity of the graph, given now if it had none.
  mutating func id() -> GraphID {
    if let object { return object.id }
    if let inlineID { return inlineID }
    let id = GraphID.next()
    inlineID = id
    return id
  }

  /// The graph's identity if it has one, without giving it one.
  var existingID: GraphID? { object?.id ?? inlineID }

  /// Continues `graph`, the graph of the request that made this resolution (a `Provider`
  /// keeps the graph it was made in); `reading` unless this resolution runs inside the one
  /// building `graph`, on its thread (see ``continues``).
  mutating func enter(_ graph: ObjectGraph, reading: Bool) {
    let seen = graph.enter()
    if reading { self.seen = seen }
    object = graph
  }

  /// The graph's object, made on first need: it takes the `.objectGraph` instances made so
  /// far from `request`, the thread's.
  mutating func shared(in request: Unretained<ResolutionRequest>) -> ObjectGraph {
    if let object { return object }
    let id = id()
    let base = base
    let graph = request.borrow { request in
      request.state.withInlineGraphs { $0.materialize(id, from: base) }
    }
    object = graph
    return graph
  }

  /// Ends this resolution's use of the graph, however it ended: a graph that a `Lazy` or
  /// `Provider` keeps may hold its objects weakly now; one nobody else holds just goes.
  @inline(__always)
  func end(in request: Unretained<ResolutionRequest>) {
    // Most resolutions made no `.objectGraph` instance and no graph object.
    guard inlineID != nil || object != nil else { return }
    endUsed(in: request)
  }

  @inline(never)
  private func endUsed(in request: Unretained<ResolutionRequest>) {
    if inlineID != nil || continues {
      // Each instance is released after the access that removed it: a deinitializer that
      // resolves uses the request's inline graphs.
      let base = base
      while request.borrow({ $0.state.withInlineGraphs { $0.count(from: base) } }) > 0 {
        _ = request.borrow { $0.state.withInlineGraphs { $0.removeLast() } }
      }
    }
    if let inlineID {
      _ = request.borrow { $0.state.withInlineGraphs { $0.forgetObject(of: inlineID) } }
    }
    object?.leave()
  }
}

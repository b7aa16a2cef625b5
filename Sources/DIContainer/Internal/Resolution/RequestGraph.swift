/// The object graph of one resolution: where its `.objectGraph` instances are kept.
///
/// Most resolutions make no `.objectGraph` instance, and pay nothing. The first one gives
/// the graph its identity, and its instances are kept by the thread's request
/// (``InlineGraphs``), from ``base`` on; once a `Lazy`, a `Provider` or postponed work needs
/// an object for them, they move into an ``ObjectGraph``, which this value holds strongly
/// from then on. ``end(in:)`` gives both back when the resolution ends.
///
/// A resolution that continues a delayed value's graph reads it (see ``Reading``); the
/// thread's request, not this value, records the reads running on the thread, so a
/// resolution pays for them only when its graph has an object.
struct RequestGraph {
  /// The graph's identity, once it has `.objectGraph` instances or an object.
  private var inlineID: GraphID?
  /// Where this resolution's instances start in the request's ``InlineGraphs``.
  let base: Int
  /// The graph's object, once something needs one.
  private(set) var object: ObjectGraph?

  /// How a resolution uses a graph that others may use at the same time.
  enum Reading {
    /// It made the graph, or runs inside the resolution that is building it: it keeps its
    /// instances in the graph as it makes them.
    case none
    /// It reads a delayed value's graph, which other reads may continue at the same time:
    /// it keeps what it makes in the thread's request, from ``RequestGraph/base`` on, finds
    /// it there first, sees only what the graph had when it began, and gives the graph what
    /// it made once complete.
    case own(ObjectGraph.Generation)
    /// It runs inside a read of the same graph, on its thread, and is part of it: what it
    /// makes stays in the thread's request, for the enclosing read to give the graph.
    case joined(ObjectGraph.Generation)

    /// What the graph had when the read began: all the read sees of the graph.
    var seen: ObjectGraph.Generation? {
      switch self {
      case .none: nil
      case .own(let seen), .joined(let seen): seen
      }
    }
  }

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
  /// keeps the graph it was made in): a read of it unless `reading` is false (this
  /// resolution runs inside the one building `graph`, on its thread); part of the read of
  /// `graph` running on this thread, if there is one (see ``Reading``).
  mutating func enter(
    _ graph: ObjectGraph, reading: Bool, in request: Unretained<ResolutionRequest>
  ) {
    let generation = graph.enter()
    object = graph
    let id = graph.id
    request.borrow { request in
      let depth = request.state.contexts
      request.state.withInlineGraphs {
        // Part of a read of the graph it runs right inside (the read's factories, a parent
        // container's cached instance): nothing but that read's frames lie between them.
        if let enclosing = $0.reader(of: id), enclosing.depth == depth - 1 { return }
        if reading { $0.beginReading(id, seen: generation, depth: depth) }
      }
    }
  }

  /// How this resolution, running as the innermost one of `request`, the thread's, reads its
  /// graph. Only one whose graph has an object can read it.
  func reading(in request: Unretained<ResolutionRequest>) -> Reading {
    guard let object else { return .none }
    return reading(of: object, depth: request.borrow { $0.state.contexts }, in: request).reading
  }

  /// How the resolution `depth` deep in `request` reads `graph`, and the depth of the read
  /// it is, or is part of.
  private func reading(
    of graph: ObjectGraph, depth: Int, in request: Unretained<ResolutionRequest>
  ) -> (reading: Reading, readDepth: Int) {
    let id = graph.id
    guard let reader = request.borrow({ $0.state.withInlineGraphs { $0.reader(of: id) } }) else {
      return (.none, 0)
    }
    switch reader.depth {
    case depth: return (.own(reader.seen), depth)
    case depth - 1: return (.joined(reader.seen), reader.depth)
    default: return (.none, 0)
    }
  }

  /// Who owns the work that this resolution, the innermost one of `request`, postpones: a
  /// read and the resolutions part of it share one owner, and so do the thread's other
  /// resolutions of a graph (the one that made it and those it runs inside it). Only the
  /// owner runs the work; a read drops what it did not run when it ends.
  func postponer(in request: Unretained<ResolutionRequest>) -> ObjectGraph.Postponer {
    let depth =
      if let object {
        reading(of: object, depth: request.borrow { $0.state.contexts }, in: request).readDepth
      } else {
        0
      }
    return ObjectGraph.Postponer(request: request.identity, depth: depth)
  }

  /// Whether this resolution, the innermost one of `request`, or the read it is part of,
  /// has postponed work still to run.
  @inline(__always)
  func hasPending(in request: Unretained<ResolutionRequest>) -> Bool {
    // Only a graph object holds postponed work: most resolutions have none.
    guard let object else { return false }
    return hasPending(in: object, request: request)
  }

  @inline(never)
  private func hasPending(
    in graph: ObjectGraph, request: Unretained<ResolutionRequest>
  ) -> Bool {
    graph.hasPending(of: postponer(in: request))
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
  /// `request` no longer counts this resolution among its running ones.
  @inline(__always)
  func end(in request: Unretained<ResolutionRequest>) {
    // Most resolutions made no `.objectGraph` instance and no graph object.
    guard inlineID != nil || object != nil else { return }
    endUsed(in: request)
  }

  @inline(never)
  private func endUsed(in request: Unretained<ResolutionRequest>) {
    guard let object else {
      removeInstances(in: request)
      return
    }
    // The request no longer counts this resolution.
    let depth = request.borrow { $0.state.contexts } + 1
    switch reading(of: object, depth: depth, in: request).reading {
    case .none:
      if inlineID != nil { removeInstances(in: request) }
    case .own:
      // The read ends before it releases anything: a deinitializer that reads the graph
      // again is a read of its own, at the same depth.
      let id = object.id
      request.borrow { $0.state.withInlineGraphs { $0.endReading(id) } }
      // A read that failed leaves postponed work it will never run.
      object.dropPending(of: ObjectGraph.Postponer(request: request.identity, depth: depth))
      removeInstances(in: request)
    case .joined: break  // The enclosing read's now.
    }
    object.leave()
  }

  /// Removes this resolution's instances from `request`'s inline graphs, and forgets the
  /// object its graph got there, if it did.
  @inline(__always)
  private func removeInstances(in request: Unretained<ResolutionRequest>) {
    // Each instance is released after the access that removed it: a deinitializer that
    // resolves uses the request's inline graphs.
    let base = base
    while request.borrow({ $0.state.withInlineGraphs { $0.count(from: base) } }) > 0 {
      _ = request.borrow { $0.state.withInlineGraphs { $0.removeLast() } }
    }
    if let inlineID {
      _ = request.borrow { $0.state.withInlineGraphs { $0.forgetObject(of: inlineID) } }
    }
  }
}

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
  /// How this resolution reads a graph it continues (``enter(_:reading:in:)``).
  private(set) var reading = Reading.none
  /// Who owns the work this resolution postponed, once it postponed some.
  private var postponerToken: ObjectGraph.Postponer?

  /// How a resolution uses a graph that others may use at the same time.
  enum Reading {
    /// It made the graph, or runs inside the resolution that is building it: it keeps its
    /// instances in the graph as it makes them.
    case none
    /// It reads a delayed value's graph, which other reads may continue at the same time:
    /// it keeps what it makes in the thread's request, from ``base`` on, finds it there
    /// first, sees only what the graph had when it began, and gives the graph what it made
    /// once complete.
    case own(ObjectGraph.Generation)
    /// It runs inside a read of the same graph, on its thread, and is part of it: what it
    /// makes stays in the thread's request, for the enclosing read to give the graph.
    case joined(ObjectGraph.Generation)
  }

  /// Whether this resolution reads a graph that other resolutions may continue at the same
  /// time (see ``Reading``).
  var continues: Bool {
    if case .none = reading { return false }
    return true
  }

  /// What the graph had when the read began: all it sees of the graph.
  var seen: ObjectGraph.Generation? {
    switch reading {
    case .none: nil
    case .own(let seen), .joined(let seen): seen
    }
  }

  /// Who owns this resolution's postponed work (given now if it had none): only it runs
  /// the work, and it drops what it did not run when it ends.
  mutating func postponer() -> ObjectGraph.Postponer {
    if let postponerToken { return postponerToken }
    let token = ObjectGraph.Postponer.next()
    postponerToken = token
    return token
  }

  /// Who owns this resolution's postponed work, if it postponed some.
  var postponerIfAny: ObjectGraph.Postponer? { postponerToken }

  /// Whether this resolution has postponed work still to run.
  var hasPending: Bool {
    guard let object, let postponerToken else { return false }
    return object.hasPending(of: postponerToken)
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
    if let enclosing = request.borrow({ $0.state.withInlineGraphs { $0.reader(of: id) } }) {
      self.reading = .joined(enclosing)
    } else if reading {
      self.reading = .own(generation)
      request.borrow { $0.state.withInlineGraphs { $0.beginReading(id, seen: generation) } }
    }
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
    let removesInstances: Bool
    switch reading {
    case .none: removesInstances = inlineID != nil
    case .own: removesInstances = true
    case .joined: removesInstances = false
    }
    if removesInstances {
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
    if case .own = reading {
      request.borrow { $0.state.withInlineGraphs { $0.endReading() } }
    }
    // A resolution that failed leaves postponed work it will never run.
    if let postponerToken { object?.dropPending(of: postponerToken) }
    object?.leave()
  }
}

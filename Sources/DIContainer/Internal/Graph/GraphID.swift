import Synchronization

/// The identity of one object graph (one `resolve` call's `.objectGraph` instances),
/// whether its instances are still kept by the thread's request (``InlineGraphs``) or by
/// an ``ObjectGraph`` object; the frames of its components under construction name it.
struct GraphID: Equatable {
  private let value: UInt64

  /// An identity no graph had before.
  static func next() -> GraphID {
    GraphID(value: counter.wrappingAdd(1, ordering: .relaxed).newValue)
  }

  private static let counter = Atomic<UInt64>(0)
}

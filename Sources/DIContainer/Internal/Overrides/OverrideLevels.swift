import Synchronization

/// The override levels of ``DIContainer/withOverrides(isolation:_:operation:)``: child
/// containers bound to a task, each answering for the container it overrides while its
/// `operation` runs.
///
/// A level is found through a task-local list, innermost first. Reading a task-local costs a
/// call into the runtime, so requests first read ``inUse``, a process-wide count of the
/// `operation`s running now: with none, a request pays that one relaxed load and nothing else.
@usableFromInline
enum OverrideLevels {
  /// How many `withOverrides` operations are running in the process now.
  ///
  /// Only a hint for the fast path: the task-local list is the truth. A task sees its own
  /// increment (it made it), and the tasks it starts see it (starting a task orders it after);
  /// any other task or thread has no level, whatever it reads.
  @usableFromInline
  static let inUse = Atomic<Int>(0)

  /// Whether some task of the process has an override level now.
  @inlinable @inline(__always)
  static var areInUse: Bool {
    inUse.load(ordering: .relaxed) != 0
  }

  /// Counts an operation that starts with an override level.
  static func enter() {
    inUse.add(1, ordering: .relaxed)
  }

  /// Counts an operation with an override level as ended.
  static func leave() {
    inUse.subtract(1, ordering: .relaxed)
  }

  /// One override level, and the levels the task had when it was made.
  final class Entry: Sendable {
    /// The container the level answers for.
    let base: ObjectIdentifier
    /// The level: a child of `base` (or of the level it nests in) holding the overrides.
    let level: DIContainer
    /// The levels the task had before this one.
    let outer: Entry?

    init(base: ObjectIdentifier, level: DIContainer, outer: Entry?) {
      self.base = base
      self.level = level
      self.outer = outer
    }
  }

  /// The current task's levels, innermost first.
  @TaskLocal static var current: Entry?

  /// The innermost level that answers for `container` in the current task, if any.
  static func level(over container: DIContainer) -> DIContainer? {
    let base = ObjectIdentifier(container)
    var entry = current
    while let found = entry {
      if found.base == base { return found.level }
      entry = found.outer
    }
    return nil
  }

  /// A new level over `container`, on top of the one the task has for it (nested overrides
  /// stack), and the task's list with it.
  static func entry(over container: DIContainer) -> Entry {
    let parent = level(over: container) ?? container
    let level = DIContainer(parent: parent)
    return Entry(base: ObjectIdentifier(container), level: level, outer: current)
  }
}

extension DIContainer {
  /// The override level that answers for this container in the current task, if any: the
  /// place every public request on a container looks first.
  @inlinable @inline(__always)
  var overrideLevel: DIContainer? {
    guard _slowPath(OverrideLevels.areInUse) else { return nil }
    return currentOverrideLevel()
  }

  /// ``overrideLevel`` when some task has a level: the task-local look-up.
  @usableFromInline @inline(never)
  func currentOverrideLevel() -> DIContainer? {
    OverrideLevels.level(over: self)
  }
}

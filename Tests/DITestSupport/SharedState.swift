import Foundation

/// A value guarded by a lock (an `NSLock`, which ThreadSanitizer understands on Linux).
public final class LockedValue<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  /// A box holding `value`.
  public init(_ value: Value) { self.value = value }

  /// Runs `body` with the value, under the lock.
  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }

  /// The value now.
  public var current: Value { withLock { $0 } }

  /// Replaces the value.
  public func set(_ newValue: Value) { withLock { $0 = newValue } }
}

/// A thread-safe counter, for factories and hooks that count their calls.
public final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  /// A counter at zero.
  public init() {}

  /// The count now.
  public var value: Int { lock.withLock { count } }

  /// Adds one and returns the new count.
  @discardableResult
  public func next() -> Int {
    lock.withLock {
      count += 1
      return count
    }
  }
}

/// A thread-safe list of events in the order they were recorded.
public final class EventLog<Entry>: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [Entry] = []

  /// An empty log.
  public init() {}

  /// Every entry so far, oldest first.
  public var all: [Entry] { lock.withLock { entries } }

  /// How many entries there are.
  public var count: Int { lock.withLock { entries.count } }

  /// Records `entry`.
  public func append(_ entry: Entry) {
    lock.withLock { entries.append(entry) }
  }

  /// Forgets every entry.
  public func removeAll() {
    lock.withLock { entries.removeAll() }
  }
}

extension EventLog where Entry == String {
  /// Records the line `Swift.print(item)` would write.
  public func print(_ item: Any) {
    var line = ""
    Swift.print(item, terminator: "", to: &line)
    append(line)
  }
}

/// A weak reference that may cross threads: whether an object is still alive.
public final class WeakBox<Object: AnyObject>: @unchecked Sendable {
  private let lock = NSLock()
  private weak var stored: Object?

  /// A box referring weakly to `object`.
  public init(_ object: Object? = nil) { stored = object }

  /// The object, while something else keeps it alive.
  public var object: Object? {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}

/// A flag one thread raises and others read.
public final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var raised = false

  /// A lowered flag.
  public init() {}

  /// Raises the flag.
  public func raise() { lock.withLock { raised = true } }

  /// Whether the flag was raised.
  public var isRaised: Bool { lock.withLock { raised } }
}

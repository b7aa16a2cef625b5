/// A reference to an object that something else keeps alive, held without a reference
/// count: the library's one way to point at a component, a cell or the thread's request
/// from the resolution path.
///
/// Every thread that resolves reads the same components and cells; counting references on
/// them would make the threads write to the same memory on every request. So a snapshot
/// keeps its components (and they keep their cells), a thread keeps its request, and the
/// resolution path refers to them through `Unretained`, which is valid exactly as long as
/// its keeper is. Each stored `Unretained` says in its documentation who keeps the
/// object; ``UnsafeSnapshotAccess`` and ``RequestHandle`` are what make those keepers
/// outlive the resolutions that read them.
@safe
struct Unretained<Object: AnyObject> {
  private let reference: Unmanaged<Object>

  /// Refers to `object` without retaining it; the caller knows what keeps it alive.
  @inline(__always)
  init(_ object: Object) {
    unsafe reference = .passUnretained(object)
  }

  /// Refers to the object of `reference`, which the caller knows something keeps alive.
  @unsafe @inline(__always)
  init(_ reference: Unmanaged<Object>) {
    unsafe self.reference = reference
  }

  /// The reference as `Unmanaged`, for the `Unsafe*` types that store it.
  @unsafe @inline(__always)
  var unmanaged: Unmanaged<Object> { unsafe reference }

  /// The object, retained by the caller for as long as it uses the result.
  @inline(__always)
  var object: Object { unsafe reference.takeUnretainedValue() }

  /// The object's identity, read without touching its reference count.
  @inline(__always)
  var identity: ObjectIdentifier {
    unsafe reference._withUnsafeGuaranteedRef(ObjectIdentifier.init)
  }

  /// The object's address, for comparisons and hazard slots.
  @inline(__always)
  var address: UInt { unsafe UInt(bitPattern: reference.toOpaque()) }

  /// Runs `body` with the object borrowed, counting no reference.
  @inline(__always)
  func borrow<Result, Failure: Error>(
    _ body: (Object) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    do {
      return try unsafe reference._withUnsafeGuaranteedRef { (object) throws -> Result in
        try body(object)
      }
    } catch let error as Failure {
      throw error
    } catch {
      fatalError("only a \(Failure.self) can come out of body: \(error)")
    }
  }

  /// ``borrow(_:)`` for a body that throws ``DIError``: not generic in its error, so the
  /// recursion of a deep graph, which passes through it at every level, takes less stack
  /// in a debug build.
  @inline(__always)
  func borrowing<Result>(_ body: (Object) throws(DIError) -> Result) throws(DIError) -> Result {
    do {
      return try unsafe reference._withUnsafeGuaranteedRef { (object) throws -> Result in
        try body(object)
      }
    } catch let error as DIError {
      throw error
    } catch {
      fatalError("only a DIError can come out of body: \(error)")
    }
  }
}

extension Unretained: @unchecked Sendable where Object: Sendable {}

import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Each thread's ``ResolutionRequest``, kept in a pthread key: the one place the library
/// turns a raw pointer back into an object.
extension ResolutionRequest {
  /// The calling thread's request state, unretained: the thread keeps it (see ``key``)
  /// until it ends, so it outlives every resolution the thread runs.
  @inline(__always)
  static var currentReference: Unretained<ResolutionRequest> {
    // The key plus one, or 0 before the first request: read without `swift_once`.
    let stored = keyPlusOne.load(ordering: .acquiring)
    if stored != 0, let raw = unsafe pthread_getspecific(pthread_key_t(stored - 1)) {
      return unsafe Unretained(Unmanaged<ResolutionRequest>.fromOpaque(raw))
    }
    return Unretained(makeCurrent())
  }

  /// ``key`` plus one, once it is made; a constant initial value, so reading it needs no
  /// lazy initialization.
  private static let keyPlusOne = Atomic<UInt32>(0)

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    let status = unsafe pthread_key_create(&key) { raw in
      // The thread ends: forget its request state.
      #if canImport(Darwin)
        let request = unsafe Unmanaged<ResolutionRequest>.fromOpaque(raw).takeRetainedValue()
      #else
        guard let raw = unsafe raw else { return }
        let request = unsafe Unmanaged<ResolutionRequest>.fromOpaque(raw).takeRetainedValue()
      #endif
      _ = ResolutionRequest.all.withLock { $0.removeValue(forKey: request.identity) }
    }
    precondition(status == 0, "pthread_key_create failed: \(status)")
    return key
  }()

  @inline(never)
  private static func makeCurrent() -> ResolutionRequest {
    keyPlusOne.store(UInt32(key) + 1, ordering: .releasing)
    let request = ResolutionRequest()
    all.withLock { $0[request.identity] = request }
    let status = unsafe pthread_setspecific(key, Unmanaged.passRetained(request).toOpaque())
    precondition(status == 0, "pthread_setspecific failed: \(status)")
    return request
  }
}

/// The calling thread's stack: where it ends, and how far the caller has gone.
enum StackBounds {
  /// What a request leaves free for the factories it calls and for the error it may
  /// report: a quarter of the stack, at least 64 KiB, at most 256 KiB.
  static func reserve(size: UInt) -> UInt {
    min(max(size / 4, 64 * 1024), 256 * 1024)
  }

  /// The lowest address a request may reach on the calling thread.
  static func limit() -> UInt {
    #if canImport(Darwin)
      let top = unsafe UInt(bitPattern: pthread_get_stackaddr_np(pthread_self()))
      let size = UInt(pthread_get_stacksize_np(pthread_self()))
      return top - size + reserve(size: size)
    #else
      var attributes = pthread_attr_t()
      guard let getAttributes = unsafe getAttributes,
        unsafe getAttributes(pthread_self(), &attributes) == 0
      else {
        return assumedLimit()
      }
      defer { unsafe pthread_attr_destroy(&attributes) }
      var low: UnsafeMutableRawPointer?
      var size = 0
      guard unsafe pthread_attr_getstack(&attributes, &low, &size) == 0, let low = unsafe low
      else {
        return assumedLimit()
      }
      return UInt(bitPattern: low) + reserve(size: UInt(size))
    #endif
  }

  /// The limit when the stack's bounds cannot be read: as if 512 KiB (macOS's secondary
  /// threads) were left where the thread's first request runs.
  private static func assumedLimit() -> UInt {
    let size: UInt = 512 * 1024
    return current() - size + reserve(size: size)
  }

  #if !canImport(Darwin)
    /// glibc's and musl's `pthread_getattr_np`, which the C module does not export (it
    /// needs `_GNU_SOURCE`); looked up once, called with the C convention.
    private typealias GetAttributes =
      @convention(c) (
        pthread_t, UnsafeMutablePointer<pthread_attr_t>
      ) -> Int32
    private static let getAttributes: GetAttributes? = {
      guard let symbol = unsafe dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np")
      else { return nil }
      return unsafe unsafeBitCast(symbol, to: GetAttributes.self)
    }()
  #endif

  /// About where the caller's stack frame is.
  @inline(never)
  static func current() -> UInt {
    var marker: UInt8 = 0
    return unsafe withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
  }
}

extension Unmanaged {
  /// Runs `body` with the object borrowed, counting no reference: for an object the caller
  /// knows is alive (a component its snapshot keeps, the thread's request, a request
  /// scope its caller holds). Objects that every thread uses, such as components, would
  /// otherwise have their count changed on the same memory by each of them.
  @inline(__always)
  func borrowing<Result>(_ body: (Instance) throws(DIError) -> Result) throws(DIError) -> Result {
    do {
      return try _withUnsafeGuaranteedRef { (object) throws -> Result in try body(object) }
    } catch let error as DIError {
      throw error
    } catch {
      fatalError("only a DIError can come out of body: \(error)")
    }
  }
}

public import DIContainer

extension DIContainer {
  /// Loads `part` into this container, unless it was loaded before.
  ///
  /// The part's `load` runs now, on the calling thread, and its registrations belong to
  /// the part. Appending the same part again, from anywhere, does nothing: a part loads
  /// once per container. Inside a framework's `load`, the part's components also belong
  /// to that framework; a part appended by two frameworks belongs to the first one.
  ///
  /// - Parameter part: The part type.
  /// - Returns: This container, so appends chain.
  ///
  /// ```swift
  /// container
  ///   .append(part: StoragePart.self)
  ///   .append(part: HTTPPart.self)
  /// ```
  @discardableResult
  public func append(part: any DIPart.Type) -> DIContainer {
    append(.part, part) { part.load(container: $0) }
  }

  /// Drops the `.perPart` instances of the components `part` registered; the next request
  /// makes new ones.
  ///
  /// Other parts' instances, and every other lifetime, stay. This does not guarantee the
  /// objects are destroyed (others may hold them), only that the container holds them no
  /// more.
  ///
  /// - Parameter part: The part whose instances to drop.
  ///
  /// ```swift
  /// container.register(FileStore.init).lifetime(.perPart(.single))  // in StoragePart
  /// container.clean(part: StoragePart.self)
  /// ```
  public func clean(part: any DIPart.Type) {
    clean(.part, part)
  }
}

public import DIContainer

extension DIContainer {
  /// Loads `framework` into this container, unless it was loaded before.
  ///
  /// The framework's `load` runs now, on the calling thread; the components it registers,
  /// directly or through its parts, belong to it. Appending the same framework again, or
  /// importing it, does nothing more: a framework loads once per container. A framework
  /// appended inside another framework's `load` owns its components; the outer one does
  /// not.
  ///
  /// - Parameter framework: The framework type.
  /// - Returns: This container, so appends chain.
  ///
  /// ```swift
  /// container
  ///   .append(framework: NewsFramework.self)
  ///   .append(framework: ProfileFramework.self)
  /// ```
  @discardableResult
  public func append(framework: any DIFramework.Type) -> DIContainer {
    append(.framework, framework) { framework.load(container: $0) }
  }

  /// Lets the framework being loaded use `framework`'s components as a fallback, and
  /// appends `framework` if it is not yet appended.
  ///
  /// Call it inside a framework's `load` (or a part that framework appends). When a
  /// service has several candidates and none of the importing framework's own is the one,
  /// the imported frameworks' candidates decide. Imports are one level deep: if `A` imports
  /// `B` and `B` imports `C`, `A`'s components do not fall back on `C`'s.
  ///
  /// Outside any framework's `load` there is nobody to import into: the call logs a
  /// warning and only appends `framework`.
  ///
  /// - Parameters:
  ///   - framework: The framework to import.
  ///   - file: The caller's file, shown in the warning.
  ///   - line: The caller's line.
  /// - Returns: This container, so calls chain.
  ///
  /// ```swift
  /// final class CheckoutFramework: DIFramework {
  ///   static func load(container: DIContainer) {
  ///     container.import(NewsFramework.self)
  ///     container.register(CheckoutService.init)
  ///   }
  /// }
  /// ```
  @discardableResult
  public func `import`(
    _ framework: any DIFramework.Type, file: StaticString = #fileID, line: UInt = #line
  ) -> DIContainer {
    let imported = DIModuleID(.framework, type: framework)
    if let importer = loadingFramework {
      if importer != imported { addImport(imported, to: importer) }
    } else {
      DISetting.Log.log(
        .warning,
        "import(\(imported)) at \(file):\(line) is outside a framework's load, so nothing"
          + " imports it; it is only appended (use append(framework:))")
    }
    return append(framework: framework)
  }

  /// Drops the `.perFramework` instances of the components `framework` registered; the
  /// next request makes new ones.
  ///
  /// Other frameworks' instances (those of frameworks it appended or imports included),
  /// and every other lifetime, stay. This does not guarantee the objects are destroyed
  /// (others may hold them), only that the container holds them no more.
  ///
  /// - Parameter framework: The framework whose instances to drop.
  ///
  /// ```swift
  /// container.register(Invoicer.init).lifetime(.perFramework(.single))  // in BillingFramework
  /// container.clean(framework: BillingFramework.self)
  /// ```
  public func clean(framework: any DIFramework.Type) {
    clean(.framework, framework)
  }
}

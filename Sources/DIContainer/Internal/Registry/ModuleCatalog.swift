/// The services each framework or part registered, the first time any container of the
/// process loaded it: what lets "not registered" name a module that provides the service
/// but was not appended to the container asked.
///
/// Recorded at loading, never read on a successful request. Grows with the module types
/// of the program, not with containers.
enum ModuleCatalog {
  private static let services = Locked<[DIModuleID: Set<ServiceKey>]>([:])

  /// Whether `module` has been recorded.
  static func knows(_ module: DIModuleID) -> Bool {
    services.withLock { $0[module] != nil }
  }

  /// Records that `module` registers `keys`.
  static func record(_ module: DIModuleID, registers keys: Set<ServiceKey>) {
    services.withLock { $0[module, default: []].formUnion(keys) }
  }

  /// The recorded modules that register `key`, by name.
  static func modules(registering key: ServiceKey) -> [DIModuleID] {
    services.withLock { services in
      services.filter { $0.value.contains(key) }.map(\.key)
    }.sorted { $0.name < $1.name }
  }
}

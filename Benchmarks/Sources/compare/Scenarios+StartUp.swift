import DIContainer

extension Scenarios {
  /// S9: start-up. A new container, 100 frameworks of 100 `.perFramework(.single)`
  /// components appended (10,000 registrations), the graph validated
  /// (`makeGraph().validate()`), every component resolved once; one operation is the whole
  /// of it. Hand-written: making the 10,000 objects, each passed its dependency. Swinject has
  /// no frameworks and no validation.
  static let s9 = Scenario(
    id: "S9", title: "start-up: 10,000 components in 100 frameworks, validated, each resolved once",
    goal: nil, resolvesPerOperation: StartUp.count
  ) {
    switch $0 {
    case .handWritten:
      Workload {
        { count in
          for _ in 0..<count {
            var maker = StartUpMaker()
            StartUp.forEachComponent(&maker)
          }
        }
      }
    case .diContainer:
      Workload { { count in for _ in 0..<count { startUp() } } }
    case .swinject:
      nil
    }
  }

  /// One S9 start-up with DIContainer; returns the container.
  @discardableResult
  static func startUp() -> DIContainer {
    let container = DIContainer()
    StartUp.appendAll(to: container)
    do {
      try container.makeGraph().validate()
    } catch {
      fatalError("S9's graph is not valid: \(error)")
    }
    var resolver = StartUpResolver(container: container)
    StartUp.forEachComponent(&resolver)
    return container
  }
}

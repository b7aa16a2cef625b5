import DIContainer

/// Types of the graph tests, in their own namespace (their names show unqualified in
/// graphs and problems).
enum GraphFixtures {
  enum ShopFramework {}
  enum BillingFramework {}
  enum ReportsFramework {}
  enum AdminFramework {}
  enum StoragePart {}
  enum Primary {}

  protocol Storage: AnyObject {}
  protocol Logger: AnyObject {}

  final class Store: Storage {}
  final class FileLogger: Logger {}
  final class ConsoleLogger: Logger {}
  final class Presenter {}

  final class Named {
    let name: String
    init(name: String) { self.name = name }
  }

  final class Checkout {
    let store: Storage?
    let loggers: [Logger]
    let name: String
    var primary: Storage?
    init(store: Storage?, loggers: [Logger], name: String) {
      self.store = store
      self.loggers = loggers
      self.name = name
    }
  }

  final class Shelf {
    let store: Store
    let logger: Logger?
    var audit: Audit?
    init(store: Store, logger: Logger? = nil) {
      self.store = store
      self.logger = logger
    }
  }

  final class Audit {
    let loggers: [Logger]
    init(loggers: [Logger]) { self.loggers = loggers }
  }

  final class Report {
    let logger: Logger
    init(logger: Logger, named: Named? = nil) { self.logger = logger }
  }

  final class Holder {
    let sibling: Later<Sibling>?
    let store: Later<Store>?
    init(sibling: Later<Sibling>) {
      self.sibling = sibling
      self.store = nil
    }
    init(store: Later<Store>) {
      self.sibling = nil
      self.store = store
    }
  }

  final class Sibling {
    let holder: Holder
    init(holder: Holder) { self.holder = holder }
  }

  struct Box<Value> {
    let value: Value
  }

  final class Parent {
    var child: Child?
    init() {}
  }

  final class Child {
    let parent: Parent
    init(parent: Parent) { self.parent = parent }
  }
}

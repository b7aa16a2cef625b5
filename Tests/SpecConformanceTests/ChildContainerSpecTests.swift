import DIContainer
import Testing

/// SPEC.md, "Child containers": the snippet verbatim, and the rules of its prose; and
/// "Resolution", step 4 of the candidate choice (runtime arguments).
@Suite struct ChildContainerSpecTests {
  protocol Database: AnyObject {}
  final class ProductionDatabase: Database {}
  final class TenantDatabase: Database {}
  protocol Plugin {}
  struct Metrics: Plugin {}
  struct Billing: Plugin {}
  final class Reports {
    let database: Database
    init(database: Database) { self.database = database }
  }
  final class Pool {
    let database: Database
    init(database: Database) { self.database = database }
  }

  @Test func theSnippetRunsAsWritten() {
    let container = DIContainer()
    container.register(ProductionDatabase.init).as(Database.self)
    container.register { Metrics() }.as(Plugin.self)

    let tenant = DIContainer(parent: container)  // shares the parent's cached instances
    tenant.register(TenantDatabase.init).as(Database.self)  // overrides the parent's Database here
    let db: Database = tenant.resolve()  // the child's; the parent still gets its own
    tenant.register { Billing() }.as(Plugin.self)
    let all: [Plugin] = many(tenant.resolve())  // the child's, then the parent's

    #expect(db is TenantDatabase)
    #expect(container.resolve() as Database is ProductionDatabase)
    #expect(all.count == 2)
    #expect(all.first is Billing)
    #expect(all.last is Metrics)
  }

  @Test func theProseHolds() {
    let container = DIContainer()
    container.register(ProductionDatabase.init).as(Database.self)
    container.register(Reports.init)  // a .prototype: made in the child's requests
    container.register(Pool.init).lifetime(.perContainer(.single))  // made by the parent
    let tenant = DIContainer(parent: container)
    tenant.register(TenantDatabase.init).as(Database.self)

    let reports: Reports = tenant.resolve()
    #expect(reports.database is TenantDatabase, "an override reaches deep into the graph")
    let pool: Pool = tenant.resolve()
    #expect(pool.database is ProductionDatabase, "an override never leaks into a shared one")
    #expect(pool === container.resolve() as Pool)

    tenant.clean()
    #expect(pool === container.resolve() as Pool, "cleaning a child never touches the parent's")
    let unseen: TenantDatabase? = container.resolve()
    #expect(unseen == nil, "a parent never sees a child's registrations")
  }

  enum Pair {}

  @Test func runtimeArgumentsTakePartInTheChoice() {
    final class Greeting {
      let text: String
      init(text: String) { self.text = text }
    }
    let container = DIContainer()
    container.register { Greeting(text: arg($0)) }
    container.register { Greeting(text: "#\(arg($0) as Int)") }
    let named: Greeting = container.resolve(arg: "hello")
    let numbered: Greeting = container.resolve(arg: 7)
    #expect(named.text == "hello")
    #expect(numbered.text == "#7")
    let none: Greeting? = try? container.tryResolve(arguments: [1.5])
    #expect(none == nil, "no candidate takes a Double: no unique candidate")
    container.register { Greeting(text: "#\(arg($0) as Int) \(arg($1) as Int)") }.as(
      Greeting.self, tag: Pair.self)
    let extra = #expect(throws: DIError.self) {
      let _: Greeting? = by(tag: Pair.self, on: try container.tryResolve(arguments: [1, 2, 3]))
    }
    #expect(extra?.code == .extraArguments, "for an optional request too")
  }
}

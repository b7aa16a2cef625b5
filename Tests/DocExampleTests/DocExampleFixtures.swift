// The names the documentation examples use without declaring them, so each example can
// stay as short as a reader wants it. Scripts/extract-doc-examples.sh wraps every example
// in a function of Generated/; this file is what those functions see around them.
//
// Not declared here, because examples declare them at file scope and the whole target
// shares them: `PaymentGateway`, `HTTPClient`, `StripeGateway`, `OrderService` (README's
// quick start); `APIClient`, `Clock`, `SystemClock`, `CoreFramework`, `NewsFramework`,
// `NewsHTTPPart`, `NewsAPIClient`, `NewsService`, `ProfileFramework` (the article
// "Organizing a server codebase into frameworks").
//
// Values are mostly computed globals: they are only evaluated by the few examples the
// tests run, and need no `Sendable` checking.

import DIContainer
import DIFrameworks
import DIParts

/// One generated example: where it is documented and how to run it.
struct DocExample: Sendable {
  let file: String
  let line: Int
  /// Whether the example makes its own `let container = DIContainer()`.
  let ownsContainer: Bool
  let run: @Sendable () async throws -> Void

  init(
    _ file: String, line: Int, ownsContainer: Bool,
    run: @escaping @Sendable () async throws -> Void
  ) {
    self.file = file
    self.line = line
    self.ownsContainer = ownsContainer
    self.run = run
  }
}

// MARK: - Containers and what they hand out

let container = DIContainer()

/// A container whose graph has a component, an edge, a problem.
var graph: DIGraph {
  let container = DIContainer()
  container.register { Car(engine: $0, body: $1) }.root()
  container.register(Engine.init)
  return container.makeGraph()
}
var component: DIGraph.Component { graph.components[0] }
var car: DIGraph.Component { graph.components[0] }
var service: DIGraph.Service { component.services[0] }
var edge: DIGraph.Edge { graph.edges[0] }
var problems: [DIGraph.Problem] { graph.findProblems() }
var problem: DIGraph.Problem { problems[0] }
var report: DIGraphValidationError {
  do {
    try graph.validate()
    fatalError("the graph has a problem")
  } catch {
    return error
  }
}
nonisolated(unsafe) var failed = false

/// A "not registered" failure.
var error: DIError {
  do {
    let _: Unregistered = try DIContainer().tryResolve()
    fatalError("Unregistered was resolved")
  } catch {
    return error
  }
}
var expected: DIError { error }
final class Unregistered {}

func registerDefaults(_ container: DIContainer) {
  container.register(Cat.init)
}

var resolver: any DIResolver { container }
var scope: DIRequestScope { container.makeScope() }
var session: DIScope { DIScope(name: "Session") }

var lazyDatabase: Lazy<Database> { container.resolve() }
var lazyConnection: Lazy1<Connection, String> { container.resolve() }
var handlers: Provider<Handler> { container.resolve() }
var kittens: Provider1<Kitten, String> { container.resolve() }
var shelter: Shelter { container.resolve() }
var repository: Repository { container.resolve() }
var presenter: Presenter { Presenter() }

enum AppWiring {
  static func makeContainer() -> DIContainer {
    let container = DIContainer()
    container.register(Cat.init).as(Animal.self).root()
    return container
  }
}

/// Stands in for swift-log's `Logger` (the library does not depend on swift-log).
struct SwiftLogLogger: Sendable {
  func debug(_ message: String) {}
  func info(_ message: String) {}
  func warning(_ message: String) {}
  func error(_ message: String) {}
}
let logger = SwiftLogLogger()

// MARK: - Storages

/// `storage` in DICacheStorage's and DIStorage's examples; AssociatedStorage's examples get
/// an `AssociatedStorage` through `AssociatedStorageExamples`.
let storage = DICacheStorage()

/// A key and a value as a scope hands them to its storage.
var key: DIStorageKey { recorded.key }
var value: DIStorageValue { recorded.value }
var lastKey: DIStorageKey { recorded.key }
nonisolated(unsafe) var entries: [DIStorageKey: DIStorageValue] = [:]

private var recorded: (key: DIStorageKey, value: DIStorageValue) {
  let storage = DICacheStorage()
  let container = DIContainer()
  container.register(Cart.init).lifetime(.custom(DIScope(name: "Recorded", storage: storage)))
  let _: Cart = container.resolve()
  final class Recorder: DIStorage, @unchecked Sendable {
    var kept: (DIStorageKey, DIStorageValue)?
    func value(for key: DIStorageKey) -> DIStorageValue? { nil }
    func setValue(_ value: DIStorageValue, for key: DIStorageKey) { kept = (key, value) }
    func clean() {}
  }
  let recorder = Recorder()
  container.register(Cart.init).lifetime(.custom(DIScope(name: "Recorder", storage: recorder)))
  let _: Cart = container.resolve()
  guard let (key, value) = recorder.kept else { fatalError("nothing was stored") }
  return (key, value)
}

/// `number` in Lazy's examples.
struct LazyExamples {
  var number: Lazy<Int> { container.resolve() }
}

/// `number` in Provider's examples.
struct ProviderExamples {
  var number: Provider<Int> { container.resolve() }
}

struct AssociatedStorageExamples {
  let storage = AssociatedStorage()
}

struct SimplyInitializableExamples {
  let storage = AssociatedStorage()
}

final class Owner {}
final class Request {}
var owner: Owner { Owner() }
var request: Request { Request() }

final class Session: SimplyInitializable {
  init() {}
}
final class Tracker {}
final class Metrics {}
final class Dependent: SimplyInitializable {
  init() {}
  init(with keyObject: Owner) {}
}
final class OwnerState: KeyObjectInitializable {
  init(with keyObject: Owner) {}
}

// MARK: - Cats and friends

protocol Animal: AnyObject {}
protocol Pet: AnyObject {}
enum Indoor {}
enum Small {}
final class Toy {}
final class Food {}
final class Bowl {}

final class Cat: Animal, Pet {
  var owner: Owner?
  var friend: Cat?
  var toys: [Toy] = []
  init(name: String? = nil, bowl: Bowl? = nil) {}
  func feed(_ food: Food) {}
  func wakeUp() {}
}

final class Kitten {
  init(name: String) {}
}

final class Shelter {
  let kittens: Provider1<Kitten, String>
  init(kittens: Provider1<Kitten, String>) { self.kittens = kittens }
}

final class House {
  init(pet: Pet) {}
}

final class Engine {}
final class Body {}
final class Wheels {}
final class Car {
  init(engine: Engine, body: Body) {}
}
final class Bus {
  init(engine: Engine, wheels: Wheels) {}
  init(engine: Engine) {}
}

final class Parent {
  var child: Child?
  init() {}
}
final class Child {
  init(parent: Parent) {}
}

// MARK: - A server's objects

final class View {}
final class Interactor {
  weak var delegate: Presenter?
}
final class Presenter {
  var view: View?
  var interactor: Interactor!
  init() {}
}

protocol Logger: AnyObject {}
final class MainLogger: Logger {
  init(loggers: [Logger]) {}
}

final class FakeClock: Clock {
  var now: Int { 0 }
}

final class Config {}
final class Server {}
final class Cart {}
final class RequestLog {}
final class Handler {
  init(log: RequestLog) {}
  func handle() {}
  func handle(_ request: Request) {}
}

final class Database {
  func query(_ sql: String) {}
  func close() {}
}
final class DatabasePool {
  func close() {}
}
final class Connection {
  init(url: String) {}
  func close() {}
}
final class Repository {
  let connection: Lazy1<Connection, String>
  init(connection: Lazy1<Connection, String>) { self.connection = connection }
}

final class Point {}
final class Rect {}
final class Row {}

protocol Store: AnyObject {}
final class TenantStore: Store {}
protocol Cache: AnyObject {}
final class FileStore: Store {}
final class PostgresStore: Store {}

// MARK: - Frameworks and parts

protocol Route: AnyObject {}
final class HeadlinesRoute: Route {}
final class ArticleRoute: Route {}
final class AvatarRoute: Route {}
final class Router {
  init(routes: [Route]) {}
}
final class NewsRouter {
  init(routes: [Route]) {}
}

final class ProfileAPIClient: APIClient {
  func get(_ path: String) async throws -> [UInt8] { [] }
}
final class RecordingAPIClient: APIClient {
  func get(_ path: String) async throws -> [UInt8] { [] }
}
final class ProfileService {
  init(client: APIClient, clock: Clock) {}
}

final class Invoicer {}
final class CheckoutService {}

final class StoragePart: DIPart {
  static func load(container: DIContainer) {
    container.register(FileStore.init).as(Store.self).lifetime(.perPart(.single))
  }
}
final class HTTPPart: DIPart {
  static func load(container: DIContainer) {}
}

final class BillingFramework: DIFramework {
  static func load(container: DIContainer) {
    container.import(CoreFramework.self)
    container.append(part: StoragePart.self)
    container.register(Invoicer.init).lifetime(.perFramework(.single))
  }
}

// MARK: - PackageDescription, for the article's manifest

/// Stands in for PackageDescription's `Package` (only a manifest can import the real one).
struct Package {
  struct Dependency {
    static func package(path: String) -> Self { Self() }
    static func package(name: String, path: String) -> Self { Self() }
    static func package(url: String, branch: String) -> Self { Self() }
  }
  init(name: String, dependencies: [Dependency] = [], targets: [Target] = []) {}
}

/// Stands in for PackageDescription's `Target`.
struct Target {
  struct Dependency: ExpressibleByStringLiteral {
    init(stringLiteral value: String) {}
    init() {}
    static func product(name: String, package: String) -> Self { Self() }
  }
  static func target(name: String, dependencies: [Dependency] = []) -> Self { Self() }
  static func executableTarget(name: String, dependencies: [Dependency] = []) -> Self { Self() }
}

/// Configuration read at start-up, which may fail.
struct Settings {
  static func load() throws -> Settings { Settings() }
}

/// A pool that connects and closes asynchronously, for the async examples.
final class AsyncPool: Sendable {
  static func connect() async throws -> AsyncPool { AsyncPool() }
  func close() async {}
}

/// The async delayed values the examples read.
var lazyPool: AsyncLazy<AsyncPool> { container.resolve() }
var connections: AsyncProvider<AsyncPool> { container.resolve() }

/// An async lazy value with an argument, for its examples.
var asyncConnection: AsyncLazy1<Connection, String> { container.resolve() }

/// An async provider with an argument, for its examples.
var asyncKittens: AsyncProvider1<Kitten, String> { container.resolve() }

/// What the README's async snippet loads, connects and flushes.
extension Config {
  static func load() throws -> Config { Config() }
  var databaseURL: String { "postgres://localhost/orders" }
}
extension DatabasePool {
  static func connect(_ url: String) async throws -> DatabasePool { DatabasePool() }
}
extension Cat {
  func eat(_ food: Food) async {}
}
final class MailQueue {
  init(pool: DatabasePool) async throws {}
  func flush() async {}
}

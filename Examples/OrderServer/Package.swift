// swift-tools-version: 6.1
import PackageDescription

/// Upcoming language features every target opts into, as the root package's targets do.
let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

/// An order-processing HTTP server on Hummingbird 2, composed with DIContainer through the
/// HummingbirdDIContainer integration, its orders in SQLite (a file) or PostgreSQL. It lives
/// apart from the library so the library keeps no dependencies; it depends on the root
/// package and the integration by path, so a clone in any folder builds it.
let package = Package(
  name: "OrderServer",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "DIContainer", path: "../.."),
    .package(path: "../../Integrations/HummingbirdDIContainer"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    .package(
      url: "https://github.com/apple/swift-configuration", from: "1.4.0",
      traits: [.defaults, "CommandLineArguments"]),
    .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.2"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
  ],
  targets: [
    // The server: the Inventory, Billing and Notifications frameworks, the orders and their
    // databases, the routes, the settings.
    .target(
      name: "OrderServerCore",
      dependencies: [
        .product(name: "DIContainer", package: "DIContainer"),
        .product(name: "HummingbirdDIContainer", package: "HummingbirdDIContainer"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "Configuration", package: "swift-configuration"),
        .product(name: "SQLiteNIO", package: "sqlite-nio"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
      ],
      swiftSettings: strictSettings),
    .executableTarget(
      name: "OrderServer",
      dependencies: [
        "OrderServerCore",
        .product(name: "DIContainer", package: "DIContainer"),
        .product(name: "HummingbirdDIContainer", package: "HummingbirdDIContainer"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: strictSettings),
    .testTarget(
      name: "OrderServerTests",
      dependencies: [
        "OrderServerCore",
        .product(name: "DIContainer", package: "DIContainer"),
        .product(name: "HummingbirdDIContainer", package: "HummingbirdDIContainer"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)

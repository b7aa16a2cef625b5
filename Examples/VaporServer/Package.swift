// swift-tools-version: 6.0
import PackageDescription

/// Upcoming language features every target opts into, as the root package's targets do.
let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

/// A bookmarks HTTP API on Vapor 4, composed with DIContainer through VaporDIContainer,
/// keeping its bookmarks in SQLite (a file beside the server) or, when `DATABASE_URL` is set,
/// PostgreSQL. It depends on the root package and the integration by path.
let package = Package(
  name: "VaporServer",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "DIContainer", path: "../.."),
    .package(name: "VaporDIContainer", path: "../../Integrations/VaporDIContainer"),
    .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
    .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.2"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
  ],
  targets: [
    // The server: storage (SQLite or PostgreSQL), the bookmarks, the routes, the options.
    .target(
      name: "BookmarkServerCore",
      dependencies: [
        .product(name: "DIContainer", package: "DIContainer"),
        .product(name: "VaporDIContainer", package: "VaporDIContainer"),
        .product(name: "Vapor", package: "vapor"),
        .product(name: "SQLiteNIO", package: "sqlite-nio"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ],
      swiftSettings: strictSettings),
    .executableTarget(
      name: "BookmarkServer",
      dependencies: [
        "BookmarkServerCore",
        .product(name: "Vapor", package: "vapor"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ],
      swiftSettings: strictSettings),
    .testTarget(
      name: "BookmarkServerTests",
      dependencies: [
        "BookmarkServerCore",
        .product(name: "DIContainer", package: "DIContainer"),
        .product(name: "VaporDIContainer", package: "VaporDIContainer"),
        .product(name: "Vapor", package: "vapor"),
        .product(name: "VaporTesting", package: "vapor"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ],
      swiftSettings: strictSettings),
  ],
  swiftLanguageModes: [.v6]
)

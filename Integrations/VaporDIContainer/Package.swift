// swift-tools-version: 6.0
import PackageDescription

/// Upcoming language features every target opts into, as the root package's targets do.
let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

/// DIContainer for Vapor 4: a request scope per request, closed after the response body has
/// been written; `app.container` and `req.resolve()`; a lifecycle handler that runs the
/// `Service` components and shuts the container down after them; the swift-log bridge; and
/// optional swift-metrics reporting. A package of its own, so the library keeps no
/// dependencies; it depends on the root package by path.
let package = Package(
  name: "VaporDIContainer",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "VaporDIContainer", targets: ["VaporDIContainer"])
  ],
  dependencies: [
    .package(name: "DIContainer", path: "../.."),
    .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
  ],
  targets: [
    .target(
      name: "VaporDIContainer",
      dependencies: [
        .product(name: "DIContainer", package: "DIContainer"),
        .product(name: "Vapor", package: "vapor"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
      ],
      swiftSettings: strictSettings),
    .testTarget(
      name: "VaporDIContainerTests",
      dependencies: [
        "VaporDIContainer",
        .product(name: "DIContainer", package: "DIContainer"),
        .product(name: "Vapor", package: "vapor"),
        .product(name: "VaporTesting", package: "vapor"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
      ],
      swiftSettings: strictSettings),
  ],
  swiftLanguageModes: [.v6]
)

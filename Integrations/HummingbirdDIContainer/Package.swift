// swift-tools-version: 6.0
import PackageDescription

/// Upcoming language features every target opts into, as the root package's targets do.
let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

/// DIContainer on Hummingbird 2: a request scope per request, closed after the response body
/// is written; `context.resolve()`; a swift-service-lifecycle `Service` that runs the
/// container's `Service` components and then shuts the container down; errors of handlers
/// logged; a swift-log bridge; optional swift-metrics counters. A package of its own, so the
/// library keeps no dependencies: a server adds it by path from a clone.
let package = Package(
  name: "HummingbirdDIContainer",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "HummingbirdDIContainer", targets: ["HummingbirdDIContainer"])
  ],
  dependencies: [
    .package(name: "DIContainer", path: "../.."),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
  ],
  targets: [
    .target(
      name: "HummingbirdDIContainer",
      dependencies: [
        .product(name: "DIContainer", package: "DIContainer"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
      ],
      swiftSettings: strictSettings),
    .testTarget(
      name: "HummingbirdDIContainerTests",
      dependencies: [
        "HummingbirdDIContainer",
        .product(name: "DIContainer", package: "DIContainer"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "MetricsTestKit", package: "swift-metrics"),
      ],
      swiftSettings: strictSettings),
  ],
  swiftLanguageModes: [.v6]
)

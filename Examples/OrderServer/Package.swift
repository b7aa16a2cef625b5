// swift-tools-version: 6.0
import PackageDescription

/// Upcoming language features every target opts into, as the root package's targets do.
let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

/// An order-processing HTTP server on Hummingbird 2, composed with DIContainer. It lives apart
/// from the library so the library keeps no dependencies; it depends on the root package by
/// path, so a clone in any folder builds it.
let package = Package(
  name: "OrderServer",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "DIContainer", path: "../.."),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
  ],
  targets: [
    // The glue a user copies: request scopes per request, the request context, the
    // shutdown service, the swift-log bridge. Depends on nothing of the server.
    .target(
      name: "HummingbirdDIContainer",
      dependencies: [
        .product(name: "DIContainer", package: "DIContainer"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: strictSettings),
    // The server: the Inventory, Billing and Notifications frameworks, the orders, the routes.
    .target(
      name: "OrderServerCore",
      dependencies: [
        "HummingbirdDIContainer",
        .product(name: "DIContainer", package: "DIContainer"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: strictSettings),
    .executableTarget(
      name: "OrderServer",
      dependencies: [
        "HummingbirdDIContainer", "OrderServerCore",
        .product(name: "DIContainer", package: "DIContainer"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: strictSettings),
    .testTarget(
      name: "OrderServerTests",
      dependencies: [
        "HummingbirdDIContainer", "OrderServerCore",
        .product(name: "DIContainer", package: "DIContainer"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)

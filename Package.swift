// swift-tools-version: 6.0
import PackageDescription

/// Upcoming language features every target opts into (as swift-log does).
let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
  name: "DIContainer",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "DIContainer", targets: ["DIContainer", "DIParts", "DIFrameworks"])
  ],
  targets: [
    .target(name: "DIContainer", swiftSettings: strictSettings),
    .target(name: "DIParts", dependencies: ["DIContainer"], swiftSettings: strictSettings),
    .target(
      name: "DIFrameworks", dependencies: ["DIContainer", "DIParts"], swiftSettings: strictSettings),
    // Tests are written as users write, the SPEC's snippets included (`[Animal]`, not
    // `[any Animal]`), so they do not opt into the library's stricter features.
    .testTarget(name: "DIContainerTests", dependencies: ["DIContainer"]),
    .testTarget(name: "DIPartsTests", dependencies: ["DIContainer", "DIParts"]),
    .testTarget(
      name: "DIFrameworksTests", dependencies: ["DIContainer", "DIParts", "DIFrameworks"]),
    // Frameworks in separate modules, so access control between them is real; not exported
    // by any product.
    .target(
      name: "ModularFixtureShared", dependencies: ["DIContainer", "DIFrameworks"],
      path: "Tests/Fixtures/ModularFixtureShared", swiftSettings: strictSettings),
    .target(
      name: "ModularFixtureNews",
      dependencies: ["DIContainer", "DIParts", "DIFrameworks", "ModularFixtureShared"],
      path: "Tests/Fixtures/ModularFixtureNews", swiftSettings: strictSettings),
    .target(
      name: "ModularFixtureProfile",
      dependencies: ["DIContainer", "DIParts", "DIFrameworks", "ModularFixtureShared"],
      path: "Tests/Fixtures/ModularFixtureProfile", swiftSettings: strictSettings),
    .testTarget(
      name: "ModularFixtureTests",
      dependencies: [
        "DIContainer", "DIParts", "DIFrameworks", "ModularFixtureShared", "ModularFixtureNews",
        "ModularFixtureProfile",
      ]),
  ],
  swiftLanguageModes: [.v6]
)

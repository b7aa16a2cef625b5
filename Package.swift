// swift-tools-version: 6.2
import PackageDescription

/// Upcoming language features every target opts into (as swift-log does).
let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

/// The library modules' settings: strict memory safety (SE-0458) makes every unsafe
/// expression visible as `unsafe`; Scripts/check-unsafe-confined.sh keeps them in the
/// Unsafe*.swift files.
let librarySettings: [SwiftSetting] = strictSettings + [.strictMemorySafety()]

let package = Package(
  name: "DIContainer",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "DIContainer", targets: ["DIContainer", "DIParts", "DIFrameworks"]),
    .executable(name: "sample-app", targets: ["SampleApp"]),
  ],
  traits: [
    // Reads of Swift runtime layouts (metadata kinds, an `Any`'s words, witness tables) in
    // place of dynamic casts and conformance lookups, checked against public Swift at start-up
    // (Sources/DIContainer/Internal/Unsafe/UnsafeRuntimeLayout.swift). Off: public Swift only
    // (`swift build --disable-default-traits`), slower, the same behaviour.
    .trait(
      name: "RuntimeLayoutShortcuts",
      description: "Read Swift runtime layouts in place of dynamic casts, checked at start-up."),
    .default(enabledTraits: ["RuntimeLayoutShortcuts"]),
  ],
  targets: [
    .target(
      name: "DIContainer", exclude: ["Internal/README.md"], swiftSettings: librarySettings),
    .target(name: "DIParts", dependencies: ["DIContainer"], swiftSettings: librarySettings),
    .target(
      name: "DIFrameworks", dependencies: ["DIContainer", "DIParts"],
      swiftSettings: librarySettings),
    // What every test target shares: counters, gates, locked boxes, event logs, threads run
    // with a hang limit, and the test environment (slow-down factor, ThreadSanitizer).
    // Not exported by any product.
    .target(
      name: "DITestSupport", dependencies: ["DIContainer"], path: "Tests/DITestSupport",
      swiftSettings: strictSettings),
    // Tests are written as users write, the SPEC's snippets included (`[Animal]`, not
    // `[any Animal]`), so they do not opt into the library's stricter features.
    .testTarget(name: "DIContainerTests", dependencies: ["DIContainer", "DITestSupport"]),
    .testTarget(name: "DIPartsTests", dependencies: ["DIContainer", "DIParts", "DITestSupport"]),
    .testTarget(
      name: "DIFrameworksTests",
      dependencies: ["DIContainer", "DIParts", "DIFrameworks", "DITestSupport"]),
    // Every ```swift example of the doc comments, the DocC articles and README.md, extracted
    // into Generated/ by Scripts/extract-doc-examples.sh: building the tests compiles them.
    .testTarget(
      name: "DocExampleTests", dependencies: ["DIContainer", "DIParts", "DIFrameworks"]),
    // Every snippet of SPEC.md, verbatim, with the behaviour its prose states.
    .testTarget(
      name: "SpecConformanceTests",
      dependencies: ["DIContainer", "DIParts", "DIFrameworks", "DITestSupport"]),
    // Randomized model-based tests: random registrations, requests and threads checked
    // against a model of what SPEC.md states; every failure prints the seed that replays it.
    .testTarget(
      name: "ModelBasedTests",
      dependencies: ["DIContainer", "DIParts", "DIFrameworks", "DITestSupport"]),
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
        "ModularFixtureProfile", "DITestSupport",
      ]),
    // The sample: an order-processing backend made of three frameworks, each its own module
    // (Sources/SampleApp/<Name>), the domain they share, the commands and the executable.
    .target(
      name: "OrderModel", path: "Sources/SampleApp/OrderModel", swiftSettings: strictSettings),
    .target(
      name: "Inventory",
      dependencies: ["DIContainer", "DIParts", "DIFrameworks", "OrderModel"],
      path: "Sources/SampleApp/Inventory", swiftSettings: strictSettings),
    .target(
      name: "Billing",
      dependencies: ["DIContainer", "DIParts", "DIFrameworks", "OrderModel", "Inventory"],
      path: "Sources/SampleApp/Billing", swiftSettings: strictSettings),
    .target(
      name: "Notifications",
      dependencies: ["DIContainer", "DIParts", "DIFrameworks", "OrderModel", "Billing"],
      path: "Sources/SampleApp/Notifications", swiftSettings: strictSettings),
    .target(
      name: "SampleAppCore",
      dependencies: [
        "DIContainer", "DIFrameworks", "OrderModel", "Inventory", "Billing", "Notifications",
      ],
      path: "Sources/SampleApp/Core", swiftSettings: strictSettings),
    .executableTarget(
      name: "SampleApp", dependencies: ["SampleAppCore"], path: "Sources/SampleApp/App",
      swiftSettings: strictSettings),
    .testTarget(
      name: "SampleAppTests",
      dependencies: [
        "DIContainer", "DIFrameworks", "OrderModel", "Inventory", "Billing", "Notifications",
        "SampleAppCore", "DITestSupport",
      ]),
  ],
  swiftLanguageModes: [.v6]
)

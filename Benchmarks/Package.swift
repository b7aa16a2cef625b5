// swift-tools-version: 6.1
import PackageDescription

/// The library's traits: its defaults, or none (public Swift only, no runtime-layout reads)
/// when `DI_BENCH_PUBLIC_SWIFT_ONLY` is set: what `check-limits.sh --public-swift-only`
/// measures.
let libraryTraits: Set<Package.Dependency.Trait> =
  Context.environment["DI_BENCH_PUBLIC_SWIFT_ONLY"] == nil ? [.defaults] : []

/// The benchmark package: compares hand-written construction, DIContainer and Swinject.
/// It lives apart from the library so the library keeps no dependencies.
let package = Package(
  name: "Benchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "DIContainer", path: "..", traits: libraryTraits),
    .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
  ],
  targets: [
    .target(name: "BenchSupport"),
    .executableTarget(
      name: "compare",
      dependencies: [
        "BenchSupport",
        .product(name: "DIContainer", package: "DIContainer"),
        .product(name: "Swinject", package: "Swinject"),
      ],
      swiftSettings: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
      ]),
    .executableTarget(
      name: "release-checks",
      dependencies: [.product(name: "DIContainer", package: "DIContainer")],
      swiftSettings: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
      ]),
    .executableTarget(
      name: "graph-validation",
      dependencies: [.product(name: "DIContainer", package: "DIContainer")],
      swiftSettings: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)

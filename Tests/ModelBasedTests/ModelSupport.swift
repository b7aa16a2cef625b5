// Shared helpers of the randomized, model-based tests (`*ModelTests.swift`): digit marker
// types that make many distinct component types from one generic class, and a runner that
// puts a case on a thread of its own with a hang limit (the seeded generator and the
// slow-down factor of sanitizer builds are DITestSupport's `SeededRandom` and
// `TestEnvironment`).
//
// Every random test derives one seed per case from a fixed base seed and prints it in
// every failure message (`seed 0x…`): add that seed to the test's `replaySeeds` to run that
// one case again, deterministically.
//
// Expected results come from SPEC.md only; cases the SPEC leaves open are skipped by the
// models, never guessed.

import DIContainer
import DITestSupport
import Dispatch
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - Environment

// MARK: - Random

/// A seed as failure messages print it.
func rmSeed(_ seed: UInt64) -> String {
  "seed 0x" + String(seed, radix: 16)
}

// MARK: - Digit markers

/// A decimal digit as a type: `RMNode<RMD3>` is node 3, a distinct component type.
protocol RMDigit: SendableMetatype {
  static var value: Int { get }
}

enum RMD0: RMDigit { static var value: Int { 0 } }
enum RMD1: RMDigit { static var value: Int { 1 } }
enum RMD2: RMDigit { static var value: Int { 2 } }
enum RMD3: RMDigit { static var value: Int { 3 } }
enum RMD4: RMDigit { static var value: Int { 4 } }
enum RMD5: RMDigit { static var value: Int { 5 } }
enum RMD6: RMDigit { static var value: Int { 6 } }
enum RMD7: RMDigit { static var value: Int { 7 } }
enum RMD8: RMDigit { static var value: Int { 8 } }
enum RMD9: RMDigit { static var value: Int { 9 } }

/// The marker type of the digit `value` (0...9).
func rmDigit(_ value: Int) -> any RMDigit.Type {
  switch value {
  case 0: return RMD0.self
  case 1: return RMD1.self
  case 2: return RMD2.self
  case 3: return RMD3.self
  case 4: return RMD4.self
  case 5: return RMD5.self
  case 6: return RMD6.self
  case 7: return RMD7.self
  case 8: return RMD8.self
  case 9: return RMD9.self
  default: preconditionFailure("not a digit: \(value)")
  }
}

// MARK: - Running a case

/// Runs `cases` random cases (each `check(seed)` returns its problems, or nil when the model
/// skipped it) on a thread with a deadline; records an issue for the first few failing seeds.
/// Returns how many cases were checked and skipped.
@discardableResult
func rmRunCases(
  _ name: String, base: UInt64, cases: Int, seconds: Double = 60,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ check: @escaping @Sendable (UInt64) -> [String]
) async -> (checked: Int, failed: Int) {
  let outcome = await resultOnThread(seconds) { () -> (Int, [String]) in
    var failures: [String] = []
    var failed = 0
    for index in 0..<cases {
      let seed = SeededRandom.caseSeed(base: base, index: index)
      let problems = check(seed)
      if !problems.isEmpty {
        failed += 1
        if failures.count < TestEnvironment.reportedFailures {
          failures.append(
            "\(name), \(rmSeed(seed)) (case \(index)): \(problems.count) problems, first: "
              + problems.prefix(4).joined(separator: " | "))
        }
      }
    }
    return (failed, failures)
  }
  guard let (failed, failures) = outcome else {
    Issue.record(
      "\(name): the \(cases) cases did not finish in time (a hang or a runaway)",
      sourceLocation: sourceLocation)
    return (0, 0)
  }
  for failure in failures {
    Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
  }
  if failed > failures.count {
    Issue.record(
      "\(name): \(failed) of \(cases) cases failed in all", sourceLocation: sourceLocation)
  }
  return (cases, failed)
}

/// An error's text with this module's qualification removed, so a type reads the same
/// whether the library printed it with `String(describing:)` or `String(reflecting:)`.
func rmUnqualified(_ text: String) -> String {
  text.replacingOccurrences(of: "SpecConformanceTests.", with: "")
}

/// The start of an error's text, enough to see what went wrong.
func rmBrief(_ error: some Error & CustomStringConvertible) -> String {
  let text = rmUnqualified(error.description)
  return text.count <= 600 ? text : text.prefix(600) + "…"
}

// MARK: - Self-checks of the helpers

@Suite struct ModelSupportTests {
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes))) func seededGeneratorReplaysTheSameCase()
  {
    var first = SeededRandom(seed: SeededRandom.caseSeed(base: 7, index: 3))
    var second = SeededRandom(seed: SeededRandom.caseSeed(base: 7, index: 3))
    let a = (0..<8).map { _ in first.int(0...1_000) }
    let b = (0..<8).map { _ in second.int(0...1_000) }
    #expect(a == b)
    #expect(SeededRandom.caseSeed(base: 7, index: 3) != SeededRandom.caseSeed(base: 7, index: 4))
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes))) func digitMarkersAreDistinctTypes() {
    let names = Set((0...9).map { String(describing: rmDigit($0)) })
    #expect(names.count == 10)
    #expect((0...9).allSatisfy { rmDigit($0).value == $0 })
  }
}

/// Pairs real objects with model instances one to one: what each suite's matcher checks
/// before it compares an object's dependencies with the model's.
struct RMPairing {
  private var modelOf: [ObjectIdentifier: Int] = [:]
  private var paired: Set<Int> = []

  /// The model instance `object` is paired with, if any.
  func id(of object: AnyObject) -> Int? { modelOf[ObjectIdentifier(object)] }

  /// Pairs `object` with model instance `id`, of model node `node` (`described` in
  /// messages, e.g. its lifetime). Returns true when they pair now (the caller goes on to
  /// the object's dependencies); false when they were paired before, or when one object
  /// stands for two instances or two objects for one (added to `problems`).
  mutating func pairsNow(
    _ object: AnyObject, with id: Int, node: Int, described: String, _ context: String,
    problems: inout [String]
  ) -> Bool {
    let key = ObjectIdentifier(object)
    if let known = modelOf[key] {
      if known != id {
        problems.append(
          "\(context): one object of node \(node) (\(described)) serves where the model makes"
            + " two (instances \(known) and \(id))")
      }
      return false
    }
    guard paired.insert(id).inserted else {
      problems.append(
        "\(context): node \(node) (\(described)) must be one instance, got two objects")
      return false
    }
    modelOf[key] = id
    return true
  }
}

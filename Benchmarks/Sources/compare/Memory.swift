import BenchSupport
import DIContainer
import Swinject

/// `compare --memory`: the heap a container keeps per registration once every component
/// was resolved once (issue 12: ≤ 500 B; Swinject 2.10 for reference), measured on S6's
/// 1,000 `.prototype` types, whose objects are let go as they are made.
enum Memory {
  /// The heap bytes one registration keeps, for DIContainer and Swinject.
  struct Figures {
    let diContainer: Double
    let swinject: Double
  }

  /// Measures each implementation twice and keeps the second: the first pays for what the
  /// process keeps once (type metadata, conformance caches), which no registration owns.
  /// Nil where the live heap cannot be read.
  static func measure() -> Figures? {
    guard bench_live_heap_bytes() >= 0 else { return nil }
    func perRegistration(_ make: () -> AnyObject) -> Double {
      _ = make()
      let before = bench_live_heap_bytes()
      let container = make()
      let after = bench_live_heap_bytes()
      withExtendedLifetime(container) {}
      return Double(after - before) / Double(S6Types.count)
    }
    return Figures(
      diContainer: perRegistration {
        let container = DIContainer()
        S6Types.registerAll(in: container)
        S6Types.resolveAll(from: container)
        return container
      },
      swinject: perRegistration {
        let container = Container()
        S6Types.registerAll(in: container)
        S6Types.resolveAll(from: container)
        return container
      })
  }

  /// The report's lines.
  static func markdown(_ figures: Figures) -> String {
    let goal = 500.0
    let met = figures.diContainer <= goal ? "met" : "missed"
    return """
      Heap kept per registration after every component was resolved once (S6's 1,000 \
      `.prototype` types; glibc's in-use bytes, second container of the process):

      | implementation | bytes per registration | goal |
      | --- | --: | --: |
      | DIContainer | \(Int(figures.diContainer.rounded())) | ≤ \(Int(goal)) (\(met)) |
      | Swinject 2.10 | \(Int(figures.swinject.rounded())) | — |
      """
  }
}

import DIContainer
import Dispatch
import OrderServerCore
import Synchronization

// `order-cost [--hand] [--requests N]`: the work of `GET /stock` without HTTP, N times,
// through the container (default) or wired by hand; prints a checksum. Scripts/load.sh runs
// it under callgrind. Its `main` is synchronous and runs the async work on a detached task:
// valgrind 3.19 crashes on an async `main`.

/// The value after `flag`, if any.
func value(_ flag: String) -> String? {
  let arguments = CommandLine.arguments
  return arguments.firstIndex(of: flag).flatMap {
    $0 + 1 < arguments.count ? arguments[$0 + 1] : nil
  }
}

/// Runs `body` on a detached task and blocks the calling thread until it ends.
func runBlocking(_ body: @escaping @Sendable () async throws -> Int) throws -> Int {
  let result = Mutex<Result<Int, any Error>?>(nil)
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    do {
      let value = try await body()
      result.withLock { $0 = .success(value) }
    } catch {
      result.withLock { $0 = .failure(error) }
    }
    done.signal()
  }
  done.wait()
  return try result.withLock { $0! }.get()
}

let requests = value("--requests").flatMap(Int.init) ?? 1000
let byHand = CommandLine.arguments.contains("--hand")
DISetting.Log.level = .none
let checksum = try runBlocking {
  if byHand {
    return CostLoop.byHand(try await HandWiredApp(tracker: ResourceTracker()), requests: requests)
  }
  let container = OrderContainer.make(tracker: ResourceTracker())
  try await OrderContainer.boot(container)
  return try await CostLoop.viaContainer(container, requests: requests)
}
print("\(requests) requests \(byHand ? "by hand" : "via the container"), checksum \(checksum)")

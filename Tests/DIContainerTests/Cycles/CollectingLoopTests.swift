import DIContainer
import Testing

// `many` arcs close no loop in validation, as at run time; postponed work's errors name
// the path from what was asked.

private protocol CLLogger: AnyObject {}
private final class CLConsole: CLLogger {}
private final class CLFile: CLLogger {}

/// Collects every logger; a logger itself.
private final class CLMain: CLLogger {
  let loggers: [any CLLogger]
  init(loggers: [any CLLogger]) { self.loggers = loggers }
}

/// Collects every logger too; a logger itself.
private final class CLMirror: CLLogger {
  let loggers: [any CLLogger]
  init(loggers: [any CLLogger]) { self.loggers = loggers }
}

/// A logger that needs the main logger: the loop `CLMain → CLNeedsMain → CLMain` comes back
/// through a plain parameter.
private final class CLNeedsMain: CLLogger {
  let main: CLMain
  init(main: CLMain) { self.main = main }
}

private final class CLRoot {
  let head: CLHead
  init(head: CLHead) { self.head = head }
}

private final class CLHead {
  var tail: CLTail?
  var missing: CLMissing?
}

private final class CLTail {
  let head: CLHead
  init(head: CLHead) { self.head = head }
}

private final class CLMissing {}

@Suite struct CollectingLoopTests {
  @Test func aCollectorThatIsItsOwnServiceIsNoCycleAndResolves() throws {
    for lifetime in [DILifetime.prototype, .objectGraph, .perContainer(.single)] {
      let container = DIContainer()
      container.register(CLConsole.init).as((any CLLogger).self)
      container.register(CLFile.init).as((any CLLogger).self)
      container.register { CLMain(loggers: many($0)) }.as((any CLLogger).self).default()
        .lifetime(lifetime)
      let graph = container.makeGraph()
      #expect(graph.findCycles().isEmpty, "\(lifetime)")
      #expect(graph.findProblems().isEmpty, "\(lifetime)")
      #expect(graph.checkIsValid(), "\(lifetime)")
      let main = try #require(try container.tryResolve() as any CLLogger as? CLMain)
      #expect(main.loggers.count == 2, "\(lifetime): the two others")
    }
  }

  @Test func collectorsThatCollectEachOtherAreNoCycle() throws {
    let container = DIContainer()
    container.register(CLConsole.init).as((any CLLogger).self)
    container.register { CLMain(loggers: many($0)) }.as((any CLLogger).self)
    container.register { CLMirror(loggers: many($0)) }.as((any CLLogger).self)
    let graph = container.makeGraph()
    #expect(graph.findCycles().isEmpty)
    #expect(graph.checkIsValid())
    // Each gets the console and a new other collector, which leaves out both.
    let main: CLMain = try container.tryResolve()
    let mirror = try #require(main.loggers.compactMap { $0 as? CLMirror }.first)
    #expect(main.loggers.count == 2)
    #expect(mirror.loggers.count == 1 && mirror.loggers[0] is CLConsole)
  }

  @Test func aLoopThatComesBackThroughAPlainParameterIsStillACycle() throws {
    let container = DIContainer()
    container.register(CLConsole.init).as((any CLLogger).self)
    container.register { CLMain(loggers: many($0)) }
    container.register(CLNeedsMain.init).as((any CLLogger).self)
    let graph = container.makeGraph()
    #expect(graph.findCycles().map { $0.map(\.name) } == [["CLMain", "CLNeedsMain"]])
    let cycles = graph.findProblems().filter { $0.kind == .cycle }
    #expect(cycles.count == 1)
    #expect(cycles.first?.message.contains("CLMain → CLNeedsMain → CLMain") == true)
    // Entered at the collector, the loop comes back to it through the plain parameter.
    do throws(DIError) {
      let _: CLMain = try container.tryResolve()
      Issue.record("a loop of prototypes resolved")
    } catch {
      #expect(error.code == .cycle)
      // The collector asks for the service; the loop comes back through the plain parameter.
      #expect(error.cycle.map(\.requested) == ["CLMain", "CLLogger", "CLMain"])
    }
    // Entered at the other, the collector's `many` leaves it out.
    let needsMain: CLNeedsMain = try container.tryResolve()
    #expect(needsMain.main.loggers.count == 1)
  }

  @Test func aCachedCollectorOfItselfIsNotAskedForAgain() throws {
    let container = DIContainer()
    container.register(CLConsole.init).as((any CLLogger).self)
    container.register { CLMain(loggers: many($0)) }.as((any CLLogger).self).default()
      .lifetime(.perContainer(.single))
    #expect(container.makeGraph().findProblems().isEmpty)
    let first: CLMain = try container.tryResolve()
    let again: CLMain = try container.tryResolve()
    #expect(first === again && first.loggers.count == 1)
  }
}

@Suite struct PostponedPathTests {
  @Test func aFailureOfPostponedWorkNamesThePathFromWhatWasAsked() throws {
    let container = DIContainer()
    container.register(CLRoot.init)
    container.register(CLHead.init).lifetime(.objectGraph)
      .injection(cycle: true, \.missing) { (missing: CLMissing) in missing }
    do throws(DIError) {
      let _: CLRoot = try container.tryResolve()
      Issue.record("a missing dependency resolved")
    } catch {
      #expect(error.code == .notRegistered)
      #expect(error.requested == "CLRoot")
      #expect(error.path.map(\.requested) == ["CLRoot", "CLHead", "CLMissing"])
    }
  }

  @Test(arguments: [false, true])
  func anEndlessLoopOfPostponedWorkNamesTheRequestAndTheLoop(askTail: Bool) throws {
    let container = DIContainer()
    container.register(CLHead.init).injection(cycle: true, \.tail)
    container.register(CLTail.init)
    do throws(DIError) {
      if askTail {
        let _: CLTail = try container.tryResolve()
      } else {
        let _: CLHead = try container.tryResolve()
      }
      Issue.record("an endless loop resolved")
    } catch {
      #expect(error.code == .cycle)
      #expect(error.requested == (askTail ? "CLTail" : "CLHead"))
      let loop = error.cycle.map(\.requested)
      #expect(loop == (askTail ? ["CLTail", "CLHead", "CLTail"] : ["CLHead", "CLTail", "CLHead"]))
    }
  }

  @Test func theRouteToAnEndlessLoopLeavesOutTheDetoursItMade() throws {
    let container = DIContainer()
    container.register(CLRoot.init)
    container.register(CLHead.init).injection(cycle: true, \.tail)
    container.register(CLTail.init)
    do throws(DIError) {
      let _: CLRoot = try container.tryResolve()
      Issue.record("an endless loop resolved")
    } catch {
      #expect(error.code == .cycle)
      #expect(error.requested == "CLRoot")
      #expect(error.cycle.map(\.requested) == ["CLHead", "CLTail", "CLHead"])
      #expect(error.description.contains("path: CLRoot → CLHead → CLTail → CLHead"))
    }
  }
}

private final class CLNeedsCollector: CLLogger {
  let collector: CLCollector
  init(collector: CLCollector) { self.collector = collector }
}

/// Collects every logger, and is not one.
private final class CLCollector {
  let loggers: [any CLLogger]
  init(loggers: [any CLLogger]) { self.loggers = loggers }
}

@Suite struct CollectingLoopOrderTests {
  /// `CLCollector -many-> CLNeedsCollector -plain-> CLCollector`, registered with the
  /// logger first: the only arc into the logger is the `many` one, so no loop comes back
  /// to it, but one comes back to the collector.
  @Test func aLoopThatComesBackOnlyToItsLaterMemberIsReported() throws {
    let container = DIContainer()
    container.register(CLNeedsCollector.init).as((any CLLogger).self)
    container.register { CLCollector(loggers: many($0)) }
    let graph = container.makeGraph()
    #expect(graph.findCycles().map { $0.map(\.name) } == [["CLNeedsCollector", "CLCollector"]])
    let cycles = graph.findProblems().filter { $0.kind == .cycle }
    #expect(cycles.count == 1)
    #expect(cycles.first?.message.contains("CLCollector → CLNeedsCollector → CLCollector") == true)
    do throws(DIError) {
      let _: CLCollector = try container.tryResolve()
      Issue.record("a loop of prototypes resolved")
    } catch {
      #expect(error.code == .cycle)
    }
  }
}

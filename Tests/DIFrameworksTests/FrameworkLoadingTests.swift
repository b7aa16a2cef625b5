import DIContainer
import DIFrameworks
import DIParts
import DITestSupport
import Foundation
import Testing

@Suite struct FrameworkLoadingTests {
  @Test func appendingAFrameworkTwiceLoadsItOnce() {
    let container = DIContainer()
    container.append(framework: PaintFramework.self)
    container.append(framework: PaintFramework.self)
    let brushes: [Brush] = many(container.resolve())
    #expect(brushes.count == 1)
  }

  @Test func importAppendsTheImportedFrameworkOnce() {
    let container = DIContainer()
      .append(framework: GalleryFramework.self)
      .append(framework: PaintFramework.self)
      .append(framework: StudioFramework.self)  // imports Paint as well
    let brushes: [Brush] = many(container.resolve())
    #expect(brushes.count == 1)
    let gallery: Gallery = container.resolve()
    #expect(gallery.brush === brushes.first)
  }

  @Test func frameworksImportingEachOtherLoadOnce() {
    let container = DIContainer().append(framework: PingFramework.self)
    let pings: [Ping] = many(container.resolve())
    let pongs: [Pong] = many(container.resolve())
    #expect(pings.count == 1 && pongs.count == 1)
  }

  @Test func partAppendedByAFrameworkBelongsToBoth() {
    let container = DIContainer()
      .append(framework: PaintFramework.self)
      .append(framework: CanvasFramework.self)
    let fromCanvas: [any Surface] = manyInFramework(container.resolve(from: CanvasFramework.self))
    #expect(fromCanvas.count == 1)
    let linen1: Linen = container.resolve()
    container.clean(part: LinenPart.self)
    let linen2: Linen = container.resolve()
    #expect(linen1 !== linen2)
    container.clean(framework: CanvasFramework.self)
    let linen3: Linen = container.resolve()
    #expect(linen2 === linen3)  // .perPart: the framework's clean leaves it
  }

  @Test func innerFrameworkOwnsItsComponentsAlone() {
    let container = DIContainer().append(framework: OuterFramework.self)
    let outer: [any Surface] = manyInFramework(container.resolve(from: OuterFramework.self))
    let inner: [any Surface] = manyInFramework(container.resolve(from: CanvasFramework.self))
    #expect(outer.map { "\(type(of: $0))" } == ["Paper"])
    #expect(inner.map { "\(type(of: $0))" } == ["Linen"])
    // Outer does not import Canvas, so its own Paper wins and Canvas is no fallback.
    let surface: any Surface = container.resolve(from: OuterFramework.self)
    #expect(surface is Paper)
    let easel1: Easel = container.resolve()
    container.clean(framework: OuterFramework.self)
    let easel2: Easel = container.resolve()
    #expect(easel1 === easel2)  // Canvas's .perFramework Easel is not Outer's
    container.clean(framework: CanvasFramework.self)
    let easel3: Easel = container.resolve()
    #expect(easel1 !== easel3)
  }

  @Test func frameworkAppendedByAPartDoesNotBelongToThePart() {
    let container = DIContainer().append(part: BootPart.self)
    let palette1: Palette = container.resolve()
    let frame1: Frame = container.resolve()
    container.clean(part: BootPart.self)
    let palette2: Palette = container.resolve()
    let frame2: Frame = container.resolve()
    #expect(palette1 === palette2)  // Toolbox registered it outside any part of its own
    #expect(frame1 !== frame2)
  }
}

@Suite(.serialized) struct FrameworkLoggingTests {
  @Test func importOutsideAFrameworksLoadWarnsAndAppends() {
    let lines = EventLog<String>()
    let previous = (DISetting.Log.level, DISetting.Log.fn)
    DISetting.Log.level = .warning
    DISetting.Log.fn = { level, message in lines.append("\(level): \(message)") }
    defer { (DISetting.Log.level, DISetting.Log.fn) = previous }

    let container = DIContainer()
    container.import(PaintFramework.self)
    let brushes: [Brush] = many(container.resolve())
    #expect(brushes.count == 1)
    #expect(
      lines.all.contains {
        $0.hasPrefix("warning: import(PaintFramework)") && $0.contains("outside a framework")
      })
  }
}

private final class Brush: Sendable {}
private final class Gallery: Sendable {
  let brush: Brush
  init(brush: Brush) { self.brush = brush }
}
private protocol Surface: AnyObject, Sendable {}
private final class Linen: Surface {}
private final class Paper: Surface {}
private final class Easel: Sendable {}
private final class Frame: Sendable {}
private final class Palette: Sendable {}
private final class Ping: Sendable {}
private final class Pong: Sendable {}

private final class PaintFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(Brush.init).lifetime(.perFramework(.single))
  }
}

private final class GalleryFramework: DIFramework {
  static func load(container: DIContainer) {
    container.import(PaintFramework.self)
    container.register(Gallery.init)
  }
}

private final class StudioFramework: DIFramework {
  static func load(container: DIContainer) {
    container.import(PaintFramework.self)
  }
}

private final class PingFramework: DIFramework {
  static func load(container: DIContainer) {
    container.import(PongFramework.self)
    container.register(Ping.init)
  }
}

private final class PongFramework: DIFramework {
  static func load(container: DIContainer) {
    container.import(PingFramework.self)
    container.register(Pong.init)
  }
}

private final class LinenPart: DIPart {
  static func load(container: DIContainer) {
    container.register(Linen.init).as((any Surface).self).lifetime(.perPart(.single))
  }
}

private final class CanvasFramework: DIFramework {
  static func load(container: DIContainer) {
    container.append(part: LinenPart.self)
    container.register(Easel.init).lifetime(.perFramework(.single))
  }
}

private final class OuterFramework: DIFramework {
  static func load(container: DIContainer) {
    container.append(framework: CanvasFramework.self)
    container.register(Paper.init).as((any Surface).self)
  }
}

private final class ToolboxFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(Palette.init).lifetime(.perPart(.single))
  }
}

private final class BootPart: DIPart {
  static func load(container: DIContainer) {
    container.append(framework: ToolboxFramework.self)
    container.register(Frame.init).lifetime(.perPart(.single))
  }
}

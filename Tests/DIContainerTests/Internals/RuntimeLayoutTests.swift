// The runtime-layout reads (UnsafeRuntimeLayout) are used only with the
// `RuntimeLayoutShortcuts` trait on and after the start-up check agreed with public Swift;
// with the trait off, public Swift answers every question. These tests hold that the
// answers are the same either way, and that each mode is the one the build asked for.

import Testing

@testable import DIContainer

private protocol RLNamed: AnyObject { var name: String { get } }
private protocol RLPlain {}

private class RLBase: RLNamed, RLPlain {
  var name: String { "base" }
}
private final class RLDerived: RLBase {
  override var name: String { "derived" }
}
private struct RLValue {}

@Suite struct RuntimeLayoutTests {
  @Test func layoutReadsAreInUseExactlyWhenTheTraitIsOn() {
    _ = DIContainer()
    #if RuntimeLayoutShortcuts
      #expect(UnsafeRuntimeLayout.checked)
      #expect(UnsafeRuntimeLayout.isTrusted)
      #expect(ServiceCast(to: (any RLNamed).self) != nil)
    #else
      #expect(!UnsafeRuntimeLayout.checked)
      #expect(!UnsafeRuntimeLayout.isTrusted)
      #expect(ServiceCast(to: (any RLNamed).self) == nil)
    #endif
  }

  @Test func metadataKindsAreReadOnlyWhenTrusted() {
    _ = DIContainer()
    let kinds = [
      TypeMetadataKind(of: RLBase.self), TypeMetadataKind(of: (Int, Int).self),
      TypeMetadataKind(of: (any RLPlain).self), TypeMetadataKind(of: RLValue.self),
    ]
    if UnsafeRuntimeLayout.isTrusted {
      guard case .classType = kinds[0] else {
        Issue.record("a class read as \(kinds[0])")
        return
      }
      #expect(Array(kinds[1...]) == [.structural, .structural, .other])
    } else {
      #expect(kinds == [.other, .other, .other, .other])
    }
  }

  @Test func anAnyHoldingAnObjectGivesItUpInEitherMode() {
    _ = DIContainer()
    let derived = RLDerived()
    var slots: [Any] = [derived, RLBase() as RLBase, 7, RLValue(), "text", derived as Any]
    slots.withUnsafeMutableBufferPointer { slots in
      let first = slots.baseAddress!
      #expect(UnsafeRuntimeLayout.object(in: first) === derived)
      #expect(UnsafeRuntimeLayout.object(in: first + 1) is RLBase)
      #expect(UnsafeRuntimeLayout.object(in: first + 2) == nil)
      #expect(UnsafeRuntimeLayout.object(in: first + 3) == nil)
      #expect(UnsafeRuntimeLayout.object(in: first + 4) == nil)
      #expect(UnsafeRuntimeLayout.object(in: first + 5) === derived)
      // Only the exact type an `Any` was made from, and only when the layout is read.
      let trusted = UnsafeRuntimeLayout.isTrusted
      #expect(UnsafeRuntimeLayout.holds(first, madeFrom: RLDerived.self) == trusted)
      #expect(!UnsafeRuntimeLayout.holds(first, madeFrom: RLBase.self))
      #expect(!UnsafeRuntimeLayout.holds(first + 2, madeFrom: Int.self))
    }
  }

  @Test func objectsOfClassTypesAreRecognizedInEitherMode() {
    _ = DIContainer()
    let base = RLBase()
    #expect(UnsafeExactCast.object(of: base) === base)
    #expect(UnsafeExactCast.object(of: RLValue()) == nil)
    #expect(UnsafeExactCast.object(of: 3) == nil)
    #expect(UnsafeExactCast.object(of: base as Any) == nil)
    #expect(classInstance(base as Any) === base)
    #expect(classInstance(RLValue()) == nil)
  }

  @Test func aProtocolServiceResolvesTheSameObjectInEitherMode() {
    let container = DIContainer()
    container.register { RLDerived() }.as(RLNamed.self).lifetime(.perContainer(.single))
    container.register { RLBase() }.as(RLPlain.self)
    let first: any RLNamed = container.resolve()
    let second: any RLNamed = container.resolve()
    #expect(first === second)
    #expect(first.name == "derived")
    let plain: any RLPlain = container.resolve()
    #expect(plain is RLBase)
  }
}

import DIContainer
import Testing

// How a parameter type is classified at registration: the modifiers, recognized whatever
// their kind, and every other type, most without a protocol-conformance lookup.

private protocol Store {}
private struct Settings {}
private enum Mode { case fast }
private final class Generic<A, B> {}

@Suite struct ParameterClassificationTests {
  @Test func everyDelayedClassIsRecognizedForEveryWrappedType() {
    let delayed: [Any.Type] = [
      Lazy<Owner>.self, Lazy<Int>.self, Lazy<any Store>.self, LazyWithArguments<Owner, Int>.self,
      LazyWithArguments<Toy, String, Int>.self, AsyncLazy<Owner>.self,
      AsyncLazyWithArguments<Owner, Int>.self, Provider<Owner>.self,
      ProviderWithArguments<Owner, Int>.self, AsyncProvider<Toy>.self,
      AsyncProviderWithArguments<Toy, Int>.self,
    ]
    for type in delayed {
      let request = DIRequest(for: type)
      #expect(request.isDelayed, "\(type)")
    }
    #expect(ObjectIdentifier(DIRequest(for: Lazy<Owner>.self).type) == ObjectIdentifier(Owner.self))
    #expect(DIRequest(for: AsyncLazy<Toy>.self).isAwaiting)
  }

  @Test func theOtherModifiersAreRecognized() {
    #expect(DIRequest(for: Optional<Owner>.self).isOptional)
    #expect(DIRequest(for: DIMany<Owner>.self).isMany)
    let tag = DIRequest(for: DIByTag<Mode, Owner>.self).tag.map(ObjectIdentifier.init)
    #expect(tag == ObjectIdentifier(Mode.self))
    #expect(DIRequest(for: DIArg<Int>.self).isArgument)
    let nested = DIRequest(for: Lazy<Owner?>?.self)
    #expect(nested.isOptional && nested.isDelayed)
    #expect(ObjectIdentifier(nested.type) == ObjectIdentifier(Owner.self))
  }

  @Test func everyOtherKindOfTypeIsAServiceAskedForAsItIs() {
    let services: [Any.Type] = [
      Owner.self, Generic<Int, Owner>.self, Generic<Owner, Int>.self, (any Store).self,
      Settings.self, Mode.self, (Int, Owner).self, ((Int) -> Owner).self, Owner.Type.self,
      (any Store.Type).self, Int.self, [Owner].self,
    ]
    for type in services {
      let request = DIRequest(for: type)
      #expect(ObjectIdentifier(request.type) == ObjectIdentifier(type), "\(type)")
      #expect(!request.isDelayed && !request.isOptional && !request.isMany, "\(type)")
      #expect(request.tag == nil && !request.isArgument, "\(type)")
    }
  }
}

/// What one initializer parameter or injection asks for, once its modifiers are peeled:
/// `many(by(tag: Indoor.self, on: $0))` asks for every `Pet` tagged `Indoor`.
///
/// Built once per registration; the graph uses it to draw edges.
@usableFromInline
package struct DIRequest: Sendable {
  /// The service type asked for.
  package var type: Any.Type
  /// The tag, for `by(tag:on:)`.
  package var tag: Any.Type?
  /// `Optional`: nil when there is no unambiguous candidate.
  package var isOptional = false
  /// `many($0)`: every candidate.
  package var isMany = false
  /// `manyInFramework($0)`: every candidate of the requester's framework.
  package var isManyInFramework = false
  /// `Lazy`/`Provider`: made later, so it does not take part in cycles.
  package var isDelayed = false
  /// Whether the delayed value awaits (`AsyncLazy`, `AsyncProvider`).
  package var isAwaiting = false
  /// `arg($0)`: a runtime argument, not a service.
  package var isArgument = false

  /// The request a parameter of type `parameter` makes.
  package init(for parameter: Any.Type) {
    self.type = parameter
    Self.modifier(parameter)?.describe(&self)
  }

  /// `type` as a modifier, or nil when it is none. A type whose metadata proves it is none
  /// (a class other than the delayed ones, an existential, a tuple, a function) costs no
  /// conformance lookup, the runtime's scan of every conformance record; the others are
  /// asked of the runtime once per process (``ModifierCache``).
  static func modifier(_ type: Any.Type) -> (any DIParameterModifier.Type)? {
    switch TypeMetadataKind(of: type) {
    case .structural: return nil
    case .classType(let declaration) where !delayedClasses.contains(declaration): return nil
    case .classType, .other: return ModifierCache.modifier(of: type)
    }
  }

  /// The declarations of the modifiers that are classes: the delayed values kept once made.
  /// Four, compared in turn: a `Set` would hash each class asked about.
  private static let delayedClasses: [UInt] = {
    // Without the layout reads no type is a `.classType`, and this list is never read.
    guard UnsafeRuntimeLayout.checked else { return [] }
    let classes: [Any.Type] = [
      Lazy<Int>.self, LazyWithArguments<Int>.self, AsyncLazy<Int>.self,
      AsyncLazyWithArguments<Int>.self,
    ]
    return classes.compactMap { type in
      guard case .classType(let declaration) = TypeMetadataKind(of: type) else { return nil }
      return declaration
    }
  }()
}

/// A parameter type that changes how its value is resolved: `Optional`, `DIMany`,
/// `DIByTag`, `DIArg`, and the delayed `Lazy`/`Provider` types.
///
/// The resolver recognizes these at run time, so an initializer reference
/// `register(Cat.init)` whose parameter is `Owner?` resolves it optionally.
///
/// A conforming class must be listed in `DIRequest.delayedClasses`: other classes are
/// taken for services without asking the runtime whether they conform.
package protocol DIParameterModifier: SendableMetatype {
  /// Records in `request` what this type asks for (and what the wrapped type asks for).
  static func describe(_ request: inout DIRequest)

  /// Resolves a value of this type, under `tag` when one is given.
  static func resolve(
    in context: inout DIResolutionContext, tag: Any.Type?
  ) throws(DIError) -> Self
}

extension DIRequest {
  /// Peels the wrapped type's modifiers, or records it as the service asked for.
  package mutating func describe(wrapped: Any.Type) {
    type = wrapped
    Self.modifier(wrapped)?.describe(&self)
  }
}

extension DIRequest {
  /// The requests of parameters of types `types`, in order.
  @usableFromInline
  static func describing<each Parameter>(_ types: repeat (each Parameter).Type) -> [DIRequest] {
    var requests: [DIRequest] = []
    for type in repeat each types { requests.append(DIRequest(for: type)) }
    return requests
  }
}

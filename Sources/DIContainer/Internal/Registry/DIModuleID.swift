/// A framework or part that registers components, as the core sees it.
///
/// The core knows only this abstract "module"; `DIParts` and `DIFrameworks` give it
/// typed faces (`DIPart`, `DIFramework`).
package struct DIModuleID: Hashable, Sendable, CustomStringConvertible {
  /// Which layer the module belongs to.
  package enum Kind: Sendable {
    case framework
    case part
  }

  package let kind: Kind
  /// The `DIFramework` or `DIPart` type.
  package let type: Any.Type

  /// The module declared by `type` (a `DIFramework` or `DIPart` type).
  package init(_ kind: Kind, type: Any.Type) {
    self.kind = kind
    self.type = type
  }

  /// The module as one word, never 0: the type's metadata address, whose low bit (clear
  /// in an address) tells a part from a framework.
  var bits: UInt {
    UInt(bitPattern: ObjectIdentifier(type)) | (kind == .part ? 1 : 0)
  }

  /// The type's name, for errors and graphs.
  package var name: String { String(describing: type) }

  package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.type == rhs.type && lhs.kind == rhs.kind
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(type))
  }

  package var description: String { name }
}

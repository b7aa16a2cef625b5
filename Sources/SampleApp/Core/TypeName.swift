/// Names of a value's dynamic type, for the commands' tables.
enum TypeName {
  /// `StockLedger` for a `StockLedger` behind `any AuditLog`.
  static func of(_ value: Any) -> String {
    String(describing: type(of: value))
  }

  /// `Inventory`, the module that declares the value's dynamic type.
  static func module(of value: Any) -> String {
    module(ofType: type(of: value))
  }

  /// `Inventory` for `InventoryFramework.self`.
  static func module(ofType type: Any.Type) -> String {
    String(String(reflecting: type).prefix { $0 != "." })
  }

  /// The framework whose module declares the value's type, or nil for the application's.
  static func framework(of value: Any) -> String? {
    let module = module(of: value)
    return SampleContainer.frameworks.first { self.module(ofType: $0.type) == module }?.name
  }
}

/// The result of ``StockService/reserve(_:)``.
///
/// ```swift
/// switch stock.reserve(order) {
/// case .reserved(let subtotal): print("reserved", subtotal)
/// case .outOfStock(let sku): print("no", sku)
/// }
/// ```
public enum Reservation: Sendable, Equatable {
  /// Every line is reserved; `subtotal` is their price, in cents.
  case reserved(subtotal: Int)
  /// `sku` has fewer items than the order asks; nothing was reserved.
  case outOfStock(sku: String)
}

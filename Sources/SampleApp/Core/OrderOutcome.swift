internal import Billing
internal import OrderModel

/// What happened to one order.
struct OrderOutcome: Equatable {
  enum Status: Equatable {
    case paid
    case declined
    case outOfStock(String)

    var text: String {
      switch self {
      case .paid: "paid"
      case .declined: "card declined"
      case .outOfStock(let sku): "no stock (\(sku))"
      }
    }
  }

  let order: Order
  let status: Status
  let invoice: Invoice?
  let channels: [String]
}

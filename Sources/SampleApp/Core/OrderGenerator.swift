internal import OrderModel

/// Makes plausible orders from a seed: the same seed gives the same orders.
struct OrderGenerator {
  static let customers = ["ada", "grace", "linus", "barbara", "ken", "radia", "dennis", "frances"]
  static let products = ["cap", "mug", "poster", "tee"]

  private var random: SeededGenerator

  init(seed: UInt64) {
    random = SeededGenerator(seed: seed)
  }

  mutating func orders(_ count: Int) -> [Order] {
    (0..<count).map { index in
      let customer = Self.customers[Int(random.next() % UInt64(Self.customers.count))]
      let lineCount = 1 + Int(random.next() % 3)
      var products = Self.products
      let lines = (0..<lineCount).map { _ in
        let sku = products.remove(at: Int(random.next() % UInt64(products.count)))
        return OrderLine(sku: sku, quantity: 1 + Int(random.next() % 3))
      }
      return Order(id: index + 1, customer: customer, lines: lines)
    }
  }
}

/// Also texts the customer about orders of $80 or more.
final class TextMessageChannel: Channel {
  /// The smallest total worth a text message, in cents.
  static let threshold = 80_00

  var name: String { "sms" }

  func send(_ message: String, to customer: String, total: Int) -> Bool {
    total >= Self.threshold
  }
}

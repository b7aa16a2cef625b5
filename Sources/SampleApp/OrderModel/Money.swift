/// Formats an amount of cents as dollars: `4860` → `"$48.60"`.
///
/// - Parameter cents: The amount, in cents; not negative.
/// - Returns: The amount with a dollar sign and two decimals.
///
/// ```swift
/// print(dollars(4860))  // $48.60
/// ```
public func dollars(_ cents: Int) -> String {
  let fraction = cents % 100
  return "$\(cents / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
}

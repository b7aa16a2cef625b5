/// A pool of database connections; Inventory and Billing each have their own database.
///
/// ```swift
/// let pool: any ConnectionPool = container.resolve(from: InventoryFramework.self)
/// pool.execute("UPDATE stock SET …")
/// ```
public protocol ConnectionPool: Resource {
  /// Runs a statement on one of the pool's connections.
  ///
  /// - Parameter statement: The SQL to run (the sample only counts them).
  ///
  /// ```swift
  /// pool.execute("INSERT INTO payments …")
  /// ```
  func execute(_ statement: String)

  /// How many statements the pool has run.
  ///
  /// ```swift
  /// print(pool.statementCount)
  /// ```
  var statementCount: Int { get }
}

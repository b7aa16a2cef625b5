/// How long the instances of a component live, and who shares them.
///
/// Set with ``DIComponentBuilder/lifetime(_:)``; the default is ``prototype``, or the
/// container's ``DIContainer/defaultLifetime`` (``DIContainer/init(defaultLifetime:)``).
///
/// ```swift
/// container.register(Cat.init).lifetime(.perContainer(.single))
/// ```
///
/// Instances kept by a caching lifetime are handed to every thread that resolves them, so
/// such objects must be thread-safe themselves.
public enum DILifetime: Sendable {
  /// Whether a caching lifetime holds its instance strongly or weakly.
  public enum ReferenceKind: Sendable, Equatable {
    /// The container keeps the instance until its scope is cleaned.
    case single
    /// The container does not keep the instance: while anyone else holds it, it is
    /// reused; once it is gone, the next request makes a new one. Value types, which
    /// cannot be held weakly, are not shared.
    case weak
  }

  /// A new instance at every request (Swinject's *transient*).
  case prototype
  /// One instance within one `resolve` call (Swinject's *graph*); needed for cycles.
  case objectGraph
  /// One instance per container; dropped by ``DIContainer/clean()``.
  case perContainer(ReferenceKind)
  /// One instance per registration for the whole process, created on first use;
  /// ``DIContainer/clean()`` does not drop it.
  case perApplication(ReferenceKind)
  /// Created by ``DIContainer/initializeSingletonObjects()``; without that call it
  /// behaves as `.perApplication(.single)`.
  case single
  /// One instance per framework that registered the component; dropped by
  /// `clean(framework:)` (module `DIFrameworks`).
  case perFramework(ReferenceKind)
  /// One instance per part that registered the component; dropped by `clean(part:)`
  /// (module `DIParts`).
  case perPart(ReferenceKind)
  /// One instance per distinct set of runtime arguments (`resolve(arg:)`,
  /// `resolve(args:)`, a `Provider1`…`Provider5`), which must be `Hashable`; dropped by
  /// ``DIContainer/clean()``.
  ///
  /// ```swift
  /// container.register { Kitten(name: arg($0)) }.lifetime(.multiton)
  /// let mimi: Kitten = container.resolve(arg: "Mimi")   // the same object for "Mimi"
  /// ```
  case multiton
  /// One instance per ``DIScope``, kept by the scope's ``DIStorage``; dropped by
  /// ``DIScope/clean()``.
  ///
  /// ```swift
  /// let session = DIScope(name: "Session", storage: DICacheStorage(), policy: .single)
  /// container.register(Cart.init).lifetime(.custom(session))
  /// ```
  case custom(DIScope)
  /// One instance per request scope (``DIContainer/makeScope()``,
  /// ``DIContainer/scope(for:)``), dropped when the scope closes. Resolving it outside a
  /// scope is a ``DIError``.
  ///
  /// ```swift
  /// container.register(RequestLog.init).lifetime(.scoped)
  /// let scope = container.makeScope()
  /// let log: RequestLog = scope.resolve()   // the same RequestLog within `scope`
  /// scope.close()
  /// ```
  case scoped
}

extension DILifetime {
  /// Whether the cell holds its instance weakly.
  var isWeak: Bool {
    switch self {
    case .perContainer(let kind), .perApplication(let kind), .perFramework(let kind),
      .perPart(let kind):
      kind == .weak
    case .custom(let scope): scope.policy == .weak
    case .prototype, .objectGraph, .single, .multiton, .scoped: false
    }
  }

  /// Whether the cell is shared by the whole process rather than owned by one container.
  var isProcessWide: Bool {
    switch self {
    case .perApplication, .single: true
    default: false
    }
  }

  /// A short name for errors, logs and graphs.
  var name: String {
    switch self {
    case .prototype: "prototype"
    case .objectGraph: "objectGraph"
    case .perContainer(let kind): "perContainer(.\(kind))"
    case .perApplication(let kind): "perApplication(.\(kind))"
    case .single: "single"
    case .perFramework(let kind): "perFramework(.\(kind))"
    case .perPart(let kind): "perPart(.\(kind))"
    case .multiton: "multiton"
    case .custom(let scope): "custom(\(scope.name))"
    case .scoped: "scoped"
    }
  }
}

extension DILifetime: CustomStringConvertible {
  /// The lifetime as written in a registration: `perFramework(.single)`.
  ///
  /// ```swift
  /// print(DILifetime.perContainer(.weak))   // perContainer(.weak)
  /// ```
  public var description: String { name }
}

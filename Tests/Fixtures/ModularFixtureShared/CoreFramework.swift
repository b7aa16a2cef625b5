public import DIContainer
public import DIFrameworks

/// The framework every feature imports: shared infrastructure.
public final class CoreFramework: DIFramework {
  public static func load(container: DIContainer) {
    container.register(SystemClock.init).as((any Clock).self).lifetime(.perFramework(.single))
  }
}

/// Core's clock; internal, so other modules know it only as `Clock`.
final class SystemClock: Clock {
  let now = 42
}

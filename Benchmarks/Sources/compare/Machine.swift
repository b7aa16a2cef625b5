#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the results depend on: processors and their model.
enum Machine {
  static var processors: Int { sysconf(Int32(_SC_NPROCESSORS_ONLN)) }

  /// The CPU model from /proc/cpuinfo, where there is one.
  static var cpuModel: String {
    guard let file = fopen("/proc/cpuinfo", "r") else { return "unknown" }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 1024)
    while fgets(&buffer, Int32(buffer.count), file) != nil {
      let line = String(
        decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if line.hasPrefix("model name"), let colon = line.firstIndex(of: ":") {
        return String(line[line.index(after: colon)...]).trimmingSpaces()
      }
    }
    return "unknown"
  }
}

extension String {
  fileprivate func trimmingSpaces() -> String {
    var text = Substring(self)
    while let first = text.first, first.isWhitespace { text.removeFirst() }
    while let last = text.last, last.isWhitespace { text.removeLast() }
    return String(text)
  }
}

/// The three ways each scenario is run.
enum Implementation: Int, CaseIterable {
  case handWritten
  case diContainer
  case swinject

  var title: String {
    switch self {
    case .handWritten: "hand-written"
    case .diContainer: "DIContainer"
    case .swinject: "Swinject 2.10"
    }
  }
}

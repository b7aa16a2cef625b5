import DIContainer
import DIFrameworks
import Testing

private protocol Widget: AnyObject {}
private final class OwnWidget: Widget {}
private final class OtherWidget: Widget {}

private final class Panel {
  let widgets: [Provider<any Widget>]
  let widget: Lazy<any Widget>
  init(widgets: [Provider<any Widget>], widget: Lazy<any Widget>) {
    self.widgets = widgets
    self.widget = widget
  }
}

private final class PanelFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(OwnWidget.init).as((any Widget).self)
    container.register { Panel(widgets: manyInFramework($0), widget: $1) }
  }
}

private final class WidgetFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(OtherWidget.init).as((any Widget).self)
  }
}

@Suite struct DelayedInFrameworkTests {
  @Test func delayedValuesResolveOnBehalfOfTheFrameworkThatMadeThem() {
    let container = DIContainer()
      .append(framework: PanelFramework.self)
      .append(framework: WidgetFramework.self)
    let panel: Panel = container.resolve()
    #expect(panel.widgets.count == 1)
    #expect(panel.widgets.first?.value is OwnWidget)
    #expect(panel.widget.value is OwnWidget, "the framework's own candidate wins, later too")
  }
}

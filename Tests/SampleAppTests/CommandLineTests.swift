import Testing

@testable import SampleAppCore

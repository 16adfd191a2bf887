import Testing
@testable import DemoServer
@Test func placeholder() {}

import Testing
@testable import NcursesTerminal
@Test func placeholder() {}

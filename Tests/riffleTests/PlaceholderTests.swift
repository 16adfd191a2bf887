import Testing
@testable import riffle
@Test func placeholder() {}

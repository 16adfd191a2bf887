import Testing
@testable import RiffleKit
@Test func placeholder() {}

import Testing
@testable import RiffleTUI
@Test func placeholder() {}

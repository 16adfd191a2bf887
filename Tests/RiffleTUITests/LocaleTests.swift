#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import RiffleTUI

@Suite("the locale: only the character type is set, and it is a UTF-8 one")
struct LocaleTests {
    /// A stand-in for setlocale(3) that records each call and answers from `names`.
    final class FakeLocale {
        var calls: [(category: Int32, name: String?)] = []
        var current: String
        let accepts: Set<String>
        let environment: String
        init(current: String = "C", environment: String, accepts: Set<String>) {
            self.current = current
            self.environment = environment
            self.accepts = accepts
        }
        func set(_ category: Int32, _ name: String?) -> String? {
            calls.append((category, name))
            guard let name else { return current }
            let wanted = name.isEmpty ? environment : name
            guard accepts.contains(wanted) else { return nil }
            current = wanted
            return wanted
        }
    }

    @Test func theEnvironmentsUTF8CharacterTypeIsTakenAndNothingElse() {
        let fake = FakeLocale(environment: "de_DE.UTF-8", accepts: ["de_DE.UTF-8", "C.UTF-8"])
        TextWidth.prepareCharacterType(fake.set)
        #expect(fake.current == "de_DE.UTF-8")
        #expect(fake.calls.allSatisfy { $0.category == LC_CTYPE }, "LC_ALL would load every category")
        #expect(fake.calls.map(\.name) == [nil, ""])
    }

    @Test func aCharacterTypeThatIsNotUTF8FallsBackToCUTF8() {
        let fake = FakeLocale(environment: "POSIX", accepts: ["POSIX", "C.UTF-8"])
        TextWidth.prepareCharacterType(fake.set)
        #expect(fake.current == "C.UTF-8")
        #expect(fake.calls.allSatisfy { $0.category == LC_CTYPE })
    }

    @Test func anUnknownEnvironmentLocaleFallsBackToCUTF8() {
        let fake = FakeLocale(environment: "xx_YY.UTF-8", accepts: ["C.UTF-8"])
        TextWidth.prepareCharacterType(fake.set)
        #expect(fake.current == "C.UTF-8")
    }

    @Test func aUTF8CharacterTypeAlreadySetIsKept() {
        let fake = FakeLocale(current: "en_US.utf8", environment: "POSIX", accepts: ["POSIX", "C.UTF-8"])
        TextWidth.prepareCharacterType(fake.set)
        #expect(fake.current == "en_US.utf8")
        #expect(fake.calls.count == 1)
    }
}

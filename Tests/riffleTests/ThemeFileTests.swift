import Foundation
import Testing
@testable import riffle
@testable import RiffleTUI

@Suite("Themes from Assets/themes, compiled in")
struct ThemeFileTests {
    @Test(arguments: ThemeFile.names)
    func everyShippedThemeLoadsWithEveryRole(name: String) throws {
        let theme = try ThemeFile.load(name)
        #expect(theme.roles.count == 16)
        #expect(theme.roles[.selection]?.reverse == true, "the selection must show without colour")
    }

    @Test func theNamesAreTheShippedFiles() throws {
        #expect(ThemeFile.names == ["dark", "light", "mono"])
        #expect(throws: ThemeFile.Invalid(description: "no theme 'neon' (themes: dark, light, mono)")) { try ThemeFile.load("neon") }
    }

    @Test func monoHasNoColours() throws {
        #expect(try ThemeFile.load("mono").roles.values.allSatisfy { $0.color == -1 })
    }

    @Test func aBadThemeSaysWhatIsWrong() {
        let data = Data(#"{"roles": {"header": {"color": "mauve"}}}"#.utf8)
        #expect(throws: ThemeFile.Invalid(description: "theme t.json: role 'header' has unknown color 'mauve'")) {
            try ThemeFile.parse(data, path: "t.json")
        }
    }
}

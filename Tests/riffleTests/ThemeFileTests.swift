import Foundation
import Testing
@testable import riffle
@testable import RiffleTUI

@Suite("Themes from Assets/themes")
struct ThemeFileTests {
    @Test(arguments: ThemeFile.names)
    func everyShippedThemeLoadsWithEveryRole(name: String) throws {
        let theme = try ThemeFile.load(name)
        #expect(theme.roles.count == 9)
        #expect(theme.roles[.selection]?.reverse == true, "the selection must show without colour")
    }

    @Test func monoHasNoColours() throws {
        #expect(try ThemeFile.load("mono").roles.values.allSatisfy { $0.color == -1 })
    }

    @Test func aBadThemeSaysWhatIsWrong() {
        let data = Data(#"{"roles": {"header": {"color": "mauve"}}}"#.utf8)
        #expect(throws: (any Error).self) { try ThemeFile.parse(data, path: "t.json") }
        do { _ = try ThemeFile.parse(data, path: "t.json") } catch {
            #expect("\(error)" == "theme t.json: role 'header' has unknown color 'mauve'")
        }
    }
}

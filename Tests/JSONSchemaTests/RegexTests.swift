import Foundation
@testable import JSONSchema
import Testing

/// The small built-in matcher must agree with ICU (through the ECMA translation) wherever it takes a pattern.
@Suite struct RegexTests {
    static let patterns = [
        "^[a-z0-9-]+$", "^[0-9]{1,2}(-[0-9]{1,2})?$", "^\\d{4}-\\d{2}-\\d{2}$", "a|b|cd", "^(ab|cd)+$", "colou?r",
        "^\\w+@\\w+\\.com$", "^[^aeiou]*$", "x{2,}", "^(?:a|b)*c$", "^.+$", "\\s", "^[A-Z][a-z]*( [A-Z][a-z]*)*$",
        "^\\$\\d+(\\.\\d\\d)?$", "a.c", "^$", "(a+)+b", "^[\\d.]+$", "^a{0,2}$", "^(x|)y$", "[-a]", "^[a-]+$",
    ]
    static let texts = [
        "", "a", "ab", "abc", "cd", "abcd", "color", "colour", "my-id-2", "12", "1-12", "123", "2024-05-01",
        "ann@mail.com", "aeiou", "xyz", "xx", "c", "abababc", "Hello World", "$12.50", "a\nc", "x\ny", "é", "😀", "y", "-",
        "aaab", "1.2.3", "Ñandú",
    ]

    @Test(arguments: patterns)
    func builtInMatcherAgreesWithICU(_ pattern: String) throws {
        let simple = try #require(SimpleRegex(pattern), "the built-in matcher should take \(pattern)")
        let icu = try NSRegularExpression(pattern: try ECMATranslator.translate(pattern))
        for text in Self.texts {
            let expected = icu.firstMatch(in: text, range: NSRange(location: 0, length: text.utf16.count)) != nil
            #expect(simple.matches(text) == expected, "\(pattern) on \(text.debugDescription)")
            #expect(try ECMARegex(pattern).matches(text) == expected)
        }
    }

    @Test(arguments: ["\\p{L}", "(?=a)b", "(a)\\1", "\\bword\\b", "[[a]", "(a*)*b", "(a|)+"])
    func leavesOtherSyntaxToICU(_ pattern: String) {
        #expect(SimpleRegex(pattern) == nil)
    }

    @Test func catastrophicBacktrackingFallsBackToICU() throws {
        let regex = try ECMARegex("^(a+)+b$")
        #expect(!regex.matches(String(repeating: "a", count: 22) + "!"))
        #expect(regex.matches(String(repeating: "a", count: 22) + "b"))
    }

    @Test func longTextsStillMatch() throws {
        let regex = try ECMARegex("^[a-z ]+$")
        #expect(regex.matches(String(repeating: "ab ", count: 5_000)))
        #expect(!regex.matches(String(repeating: "ab ", count: 5_000) + "!"))
    }
}

import Foundation
import Testing

@testable import Checks

@Suite("Text matching")
struct TextMatchingTests {
    @Test(arguments: [
        ("barbell row", "barbell", true), ("barbell row", "row", true), ("barbell row", "rows", false),
        ("aaab", "aab", true), ("ab", "abc", false), ("", "a", false), ("anything", "", true), ("bbbb", "bb", true),
    ])
    func containmentFindsBytesAnywhere(haystack: String, needle: String, expected: Bool) {
        #expect(TextMatching.contains(Array(haystack.utf8), Array(needle.utf8)) == expected)
    }

    @Test func asciiIsToldEightBytesAtATimeWhereverTheFirstOtherByteSits() {
        for length in 0..<40 {
            let plain = String(repeating: "a", count: length)
            #expect(TextMatching.isASCII(plain))
            for position in 0..<length {
                var bytes = Array(plain.utf8)
                bytes[position] = 0xC3
                bytes.insert(0xA9, at: position + 1)
                let accented = String(decoding: bytes, as: UTF8.self)
                #expect(!TextMatching.isASCII(accented), "é at \(position) of \(length)")
                #expect(!Array(accented.utf8).withUnsafeBufferPointer(TextMatching.isASCII))
            }
        }
        #expect(TextMatching.isASCII(String(Substring("x\u{7F}y"))))
    }

    @Test(arguments: ["3 × 10 Reps, REST 90 s", "", "ÀB Ç", "İstanbul", "ΣΑΣ", "Day 1: Squat", "x\u{0301}Y"])
    func lowerCasingMatchesTheStandardLibrary(text: String) {
        #expect(TextMatching.lowercased(text) == text.lowercased())
    }

    @Test func bytePairsNeverRuleOutAWordTheTextHolds() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcde fgh,.\nñé".utf8)
        for _ in 0..<300 {
            let text = (0..<Int.random(in: 0...60, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let needle = (0..<Int.random(in: 0...4, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let pairs = TextMatching.BytePairs(text)
            if TextMatching.contains(text, needle) { #expect(pairs.mayContain(needle), "\(text) holds \(needle)") }
        }
        let pairs = TextMatching.BytePairs(Array("intermittent fasting".utf8))
        #expect(!pairs.mayContain(Array("fasted".utf8)), "\"ed\" is in no pair of the text")
        #expect(pairs.mayContain(Array("fast".utf8)))
        #expect(pairs.mayContain(Array("tent".utf8)), "pairs from different words still pass: the search decides")
        #expect(pairs.mayContain(Array("x".utf8)), "a single byte has no pair to rule it out")
    }

    @Test func wordsMatchWholeAndInflectedAcrossCaseAndDiacritics() {
        let text = TextMatching.Searchable("Goblet Squats, then RUNNING intervals; café stretch; brunch")
        #expect(TextMatching.firstMatch(of: "squat", in: text) != nil)
        #expect(TextMatching.firstMatch(of: "run", in: text) != nil)
        #expect(TextMatching.firstMatch(of: "cafe", in: text) != nil)
        #expect(TextMatching.firstMatch(of: "  Café ", in: text) != nil)
        #expect(TextMatching.firstMatch(of: "stretching", in: text) == nil)
        #expect(TextMatching.firstMatch(of: "bru", in: text) == nil)
        #expect(TextMatching.firstMatch(of: "", in: text) == nil)
    }

    @Test func aTermThatIsNotAWordNeedsNoWordBoundaryOnThatSide() {
        let text = TextMatching.Searchable("Work up to it step by step. {{system}} and #hashtag")
        #expect(TextMatching.firstMatch(of: "{{", in: text) != nil, "a mustache tag right before a word")
        #expect(TextMatching.firstMatch(of: "#hash", in: text) == nil, "the word side still needs its boundary")
        #expect(TextMatching.firstMatch(of: "#hashtag", in: text) != nil)
    }

    @Test func trimmingKeepsInnerSpaceAndDropsNamedCharacters() {
        #expect("\t Deadlift :  ".trimmed(also: [":"]) == "Deadlift")
        #expect("  ## Day 1  ".trimmed() == "## Day 1")
        #expect(" \t ".trimmed().isEmpty)
        #expect("line\n".trimmed() == "line\n")
    }
}

@Suite("Text folding")
struct TextFoldingTests {
    @Test(arguments: ["Día 1: Sentadilla búlgara", "Crème brûlée × 3 — naïve façade", "plain ASCII", "e\u{0301}tude", "训练 💪🏽 Ñandú"])
    func foldingMatchesFoundationAndLoweringMatchesTheStandardLibrary(text: String) {
        #expect(TextMatching.folded(text) == text.folding(options: [.diacriticInsensitive], locale: nil))
        #expect(TextMatching.loweredBytes(text) == Array(text.lowercased().utf8))
    }
}

@Suite("Word sets")
struct WordSetTests {
    @Test func wordsAreLowerCasedLettersAndDigitsOfThreeOrMore() {
        #expect(TextMatching.words("Run 5K, then a 10-minute cool-down; Día de piernas, e\u{0301}tude!")
            == ["run", "then", "minute", "cool", "down", "día", "piernas", "e\u{0301}tude"])
        #expect(TextMatching.similarity("Build strength safely", "build STRENGTH, safely!") == 1)
    }

    @Test func plainASCIITextSplitsTheSameWayAsAccentedText() {
        #expect(TextMatching.words("Run 5K, then a 10-minute cool-down_now 3x/week!")
            == ["run", "then", "minute", "cool", "down", "now", "week"])
        #expect(TextMatching.words("Día 1: 20min squats") == ["día", "20min", "squats"])
        #expect(TextMatching.words("Day 1: 20min squats") == ["day", "20min", "squats"])
    }
}

/// Sentences are split byte by byte in text whose characters are each one scalar
/// (ASCII, Latin, punctuation, symbols), character by character otherwise; both must cut
/// the same text at the same places.
struct ClauseSplittingTests {
    @Test func textIsSplitByteByByteAsCharacterByCharacter() {
        let pieces = [
            "Squat", " ", ".", ";", "!", "?", "\n", "\r\n", "\r", "\t", "e.g.", "3.5", "  ", "...", "No fasting", "x",
            "é", "·", "—", "\u{00A0}", "\u{2009}", "\u{2028}", "…", "→", "\u{200B}", "ñ", "¿", "×", "e\u{0301}", "\u{0301}", "\u{037E}",
        ]
        var generator = SystemRandomNumberGenerator()
        var texts = ["", " ", ".", "a. b", "a.\r\nb", "a\r\n.b", "Rest 90 s. Then go!", "e.g. squats; lunges?"]
        for _ in 0..<2_000 {
            texts.append((0..<Int.random(in: 1...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for text in texts {
            #expect(SafetyChecks.clauses(text).map(\.text) == SafetyChecks.characterClauses(text).map(\.text), "\(text.debugDescription)")
        }
        #expect(SafetyChecks.clauses("Brace first. Then lift; breathe out!").map(\.text) == ["Brace first", " Then lift", " breathe out"])
        #expect(SafetyChecks.clauses("Rodillas\u{00A0}— sin dolor.\u{00A0}Sigue").map(\.text) == ["Rodillas\u{00A0}— sin dolor", "\u{00A0}Sigue"])
    }
}

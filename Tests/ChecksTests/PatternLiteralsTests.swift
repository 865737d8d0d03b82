import Foundation
import Testing

@testable import Checks

@Suite("Words a pattern requires")
struct PatternLiteralsTests {
    static func words(_ pattern: String) -> Set<String>? {
        PatternLiterals.required(by: pattern).map { Set($0.map { String(decoding: $0, as: UTF8.self) }) }
    }

    @Test func theMostTellingWordsOfASequenceAreRequired() {
        #expect(Self.words(#"\bskip(?:ping)? (?:lunch|dinner|breakfast|supper)\b"#) == ["lunch", "dinner", "breakfast", "supper"])
        #expect(Self.words(#"\b\d[\d,.]*\s*(?:k?cal|calories|calorias|calorías)\b"#) == ["cal", "calories", "calorias", "calor"])
        #expect(Self.words(#"\b(?:deficit|déficit) of \d"#) == ["deficit", "ficit"], "an accented letter ends the word ASCII text can hold")
        #expect(Self.words("Fast+ing") == ["fast"])
        #expect(Self.words(#"x{2,3}yz"#) == ["yz"])
        #expect(Self.words(#"no\.\s+FOOD"#) == ["food"])
        #expect(Self.words("fast|diet") == ["fast", "diet"])
    }

    @Test(arguments: [#"(?i)fast"#, #"(a)\1"#, "fast|.", "a*", #"\p{L}+fast"#, "[[:alpha:]]x", "(?=x)fast", "fast)", "(fast", "x{,2}"])
    func aPatternItCannotVouchForRequiresNothing(pattern: String) {
        #expect(PatternLiterals.required(by: pattern) == nil)
    }

    /// Every match of each pattern holds one of its required words: random text built
    /// from the patterns' own pieces, ASCII or with accents and dashes, and the patterns
    /// of `advice.yaml`. A match in the text as written or without its diacritics holds
    /// one in the folded, lower-cased bytes the checks search.
    @Test func everyMatchHoldsARequiredWord() throws {
        let rules = try AdviceAndTextChecksTests.rules()
        let patterns = rules.kinds.flatMap(\.vocabulary.patterns) + rules.weightLossFocus.patterns + rules.heartRateTargets.patterns
            + [#"\bno (?:food|meals?)\b"#, #"skip+ing|fast(?:ed|ing)?"#, #"a(?:b|c)?d"#, #"x(?:yzzy)?"#, #"wo*rd"#, #"qu{0,2}ick"#]
        #expect(patterns.count > 5)
        let pieces = [
            "skip", "skipping", " ", "lunch", "don't", "do not", "eat", "eating", "after", "1,500", "kcal", "cal", "calories",
            "deficit", " of ", "5", "no", "food", "meals", "fast", "fasted", "ing", "lose", "10", "lbs", "%", "heart rate", "140",
            "pulse", "max", ".", ";", "A", "B", "D", "ad", "acd", "Skip", "NO", "FOOD", "x", "yzzy", "wrd", "word", "qick", "quick",
            "déficit", "DÉFICIT", "calorías", "CALORÍAS", " — ", "ñ", "É", "después", "cenes", "pérdida", "KCAL", "Ä",
        ]
        var generator = SystemRandomNumberGenerator()
        var checked = 0
        for pattern in patterns {
            guard let literals = PatternLiterals.required(by: pattern),
                  let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
            else { continue }
            for _ in 0..<400 {
                let text = (0..<Int.random(in: 1...10, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined(separator: Bool.random(using: &generator) ? " " : "")
                let searchable = TextMatching.Searchable(text)
                let forms = [text, searchable.folded]
                #expect(PatternLiterals.vouch(forTextIn: forms))
                guard forms.contains(where: { regex.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }) else { continue }
                checked += 1
                #expect(literals.contains { TextMatching.contains(searchable.lowered, $0) }, "\(pattern) matches \(text.debugDescription)")
            }
        }
        #expect(checked > 100, "the random texts match the patterns often enough to test them")
    }

    /// Case-insensitive matching takes a few other characters for ASCII letters, so the
    /// bytes of a text holding one cannot rule a pattern out.
    @Test(arguments: ["\u{FB01}t", "\u{212A}cal", "fa\u{17F}ting", "gro\u{DF}", "\u{FB06}op"])
    func textThatMatchesASCIILettersOtherwiseIsNotVouchedFor(text: String) throws {
        #expect(!PatternLiterals.vouch(forTextIn: [text]))
        #expect(!PatternLiterals.vouch(forTextIn: ["plain text", text]), "any form of the text")
        let spelled = ["\u{FB01}t": "fit", "\u{212A}cal": "kcal", "fa\u{17F}ting": "fasting", "gro\u{DF}": "gross", "\u{FB06}op": "stop"][text]!
        let regex = try NSRegularExpression(pattern: spelled, options: [.caseInsensitive])
        #expect(regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil, "\(text) matches \(spelled)")
        #expect(PatternLiterals.vouch(forTextIn: ["Déficit calórico — 1.500 KCAL", "Deficit calorico — 1.500 KCAL"]))
    }
}

import Statistics
import Testing

@Suite("Cohen's kappa")
struct CohenKappaTests {
    /// The textbook table: 50 cases, the raters agree on 20 positives and 15 negatives.
    /// p_o = 0.7, p_e = 0.5, so κ = 0.4. The standard error (Fleiss, Cohen and Everitt)
    /// and its interval were worked out by hand from the cell shares.
    @Test func theTextbookTable() throws {
        let table = CohenKappa(both: 20, onlyFirst: 5, onlySecond: 10, neither: 15)
        #expect(table.count == 50)
        #expect(abs(try #require(table.observedAgreement) - 0.7) < 1e-12)
        #expect(abs(try #require(table.chanceAgreement) - 0.5) < 1e-12)
        #expect(abs(try #require(table.kappa) - 0.4) < 1e-12)
        #expect(abs(try #require(table.standardError) - 0.12699606293110033) < 1e-12)
        let interval = try #require(table.interval95)
        #expect(abs(interval.lower - 0.15109229047666106) < 1e-9)
        #expect(abs(interval.upper - 0.6489077095233388) < 1e-9)
    }

    @Test func fullAgreementIsOne() throws {
        let table = CohenKappa(both: 7, onlyFirst: 0, onlySecond: 0, neither: 3)
        #expect(try #require(table.kappa) == 1)
        #expect(table.observedAgreement == 1)
    }

    @Test func agreementNoBetterThanChanceIsZero() throws {
        // Each rater says yes to half the cases, independently: p_o = p_e = 0.5.
        let table = CohenKappa(both: 10, onlyFirst: 10, onlySecond: 10, neither: 10)
        #expect(abs(try #require(table.kappa)) < 1e-12)
    }

    @Test func oneClassOnEitherSideLeavesKappaUndefined() {
        // Every case rejected by both: agreement is perfect, but chance agreement is 1.
        let allRejected = CohenKappa(both: 12, onlyFirst: 0, onlySecond: 0, neither: 0)
        #expect(allRejected.observedAgreement == 1)
        #expect(allRejected.kappa == nil)
        #expect(allRejected.interval95 == nil)
        let none = CohenKappa(both: 0, onlyFirst: 0, onlySecond: 0, neither: 0)
        #expect(none.observedAgreement == nil)
        #expect(none.kappa == nil)
    }

    @Test func theIntervalStaysWithinMinusOneAndOne() throws {
        let table = CohenKappa(both: 2, onlyFirst: 0, onlySecond: 0, neither: 1)
        let interval = try #require(table.interval95)
        #expect(interval.lower >= -1 && interval.upper <= 1)
    }
}

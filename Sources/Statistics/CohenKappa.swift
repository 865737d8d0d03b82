import Foundation

/// Agreement between two raters who each put every case in one of two classes, beyond
/// what chance would give: Cohen's κ, with its large-sample 95% interval.
///
/// The table counts cases by how each rater classed them: `both` positive, `onlyFirst`
/// positive, `onlySecond` positive, `neither`. κ is 1 for full agreement, 0 for what
/// two raters with the same class rates would reach by chance, and negative below it.
public struct CohenKappa: Sendable, Hashable {
    public var both: Int
    public var onlyFirst: Int
    public var onlySecond: Int
    public var neither: Int

    public init(both: Int, onlyFirst: Int, onlySecond: Int, neither: Int) {
        self.both = both
        self.onlyFirst = onlyFirst
        self.onlySecond = onlySecond
        self.neither = neither
    }

    public var count: Int { both + onlyFirst + onlySecond + neither }

    /// The share of cases both raters classed alike; nil with no cases.
    public var observedAgreement: Double? {
        count == 0 ? nil : Double(both + neither) / Double(count)
    }

    /// The agreement two raters with these class rates would reach by chance.
    public var chanceAgreement: Double? {
        guard count > 0 else { return nil }
        let n = Double(count)
        let firstPositive = Double(both + onlyFirst) / n
        let secondPositive = Double(both + onlySecond) / n
        return firstPositive * secondPositive + (1 - firstPositive) * (1 - secondPositive)
    }

    /// κ; nil when it is undefined: no cases, or both raters put every case in the same
    /// one class (chance agreement is then 1).
    public var kappa: Double? {
        guard let observed = observedAgreement, let chance = chanceAgreement, chance < 1 else { return nil }
        return (observed - chance) / (1 - chance)
    }

    /// The asymptotic standard error of κ (Fleiss, Cohen and Everitt 1969), the one
    /// statsmodels' `cohens_kappa` reports as `std_kappa`.
    public var standardError: Double? {
        guard let kappa, let chance = chanceAgreement else { return nil }
        let n = Double(count)
        // Cell shares p[i][j]: i is the first rater's class, j the second's (0 positive).
        let p = [[Double(both) / n, Double(onlyFirst) / n], [Double(onlySecond) / n, Double(neither) / n]]
        let row = [p[0][0] + p[0][1], p[1][0] + p[1][1]]
        let column = [p[0][0] + p[1][0], p[0][1] + p[1][1]]
        var diagonal = 0.0
        var offDiagonal = 0.0
        for i in 0..<2 {
            for j in 0..<2 {
                if i == j {
                    let term = 1 - (row[i] + column[i]) * (1 - kappa)
                    diagonal += p[i][i] * term * term
                } else {
                    let term = column[i] + row[j]
                    offDiagonal += p[i][j] * term * term
                }
            }
        }
        let correction = kappa - chance * (1 - kappa)
        let variance = (diagonal + (1 - kappa) * (1 - kappa) * offDiagonal - correction * correction) / ((1 - chance) * (1 - chance) * n)
        return variance.squareRoot()
    }

    /// κ ± 1.96 standard errors, kept within [-1, 1]; nil when κ is undefined.
    public var interval95: Interval? {
        guard let kappa, let standardError else { return nil }
        let half = 1.959963984540054 * standardError
        return Interval(lower: max(-1, kappa - half), upper: min(1, kappa + half))
    }
}

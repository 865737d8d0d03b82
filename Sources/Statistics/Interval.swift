import Foundation

/// A closed interval of plausible values for an unknown quantity.
public struct Interval: Sendable, Hashable {
    public var lower: Double
    public var upper: Double

    public init(lower: Double, upper: Double) {
        self.lower = lower
        self.upper = upper
    }

    public var width: Double { upper - lower }

    public func contains(_ value: Double) -> Bool { lower <= value && value <= upper }
}

extension Interval {
    /// The Wilson score interval for a pass rate of `passes` out of `runs`.
    ///
    /// Unlike the textbook p ± z·√(p(1-p)/n) it stays inside [0, 1] and does not collapse
    /// to a point at 0 or n passes. With no runs it is [0, 1]. Matches
    /// `scipy.stats.binomtest(passes, runs).proportion_ci(confidence, method="wilson")`,
    /// including its exact 0 and 1 ends at no passes and all passes.
    public static func wilson(passes: Int, runs: Int, confidence: Double = 0.95) throws(StatisticsError) -> Interval {
        try requireCounts(passes: passes, runs: runs)
        let z = try NormalDistribution.twoSidedCriticalValue(confidence: confidence)
        let n = Double(runs), k = Double(passes), zz = z * z
        let denominator = 2 * (n + zz)
        let center = (2 * k + zz) / denominator
        let halfWidth = z * (zz + 4 * k * (n - k) / max(n, 1)).squareRoot() / denominator
        return Interval(
            lower: passes == 0 ? 0 : center - halfWidth,
            upper: passes == runs ? 1 : center + halfWidth
        )
    }
}

/// The standard normal distribution.
public enum NormalDistribution {
    /// z with P(|Z| ≤ z) = 0.95, to double precision.
    public static let z95 = 1.959963984540054

    /// z with P(|Z| ≤ z) = `confidence`, for `confidence` strictly between 0 and 1.
    public static func twoSidedCriticalValue(confidence: Double) throws(StatisticsError) -> Double {
        guard confidence > 0, confidence < 1 else { throw .confidenceOutOfRange(confidence) }
        if confidence == 0.95 { return z95 }
        return quantile(0.5 + confidence / 2)
    }

    /// P(Z ≤ x).
    public static func cdf(_ x: Double) -> Double { 0.5 * erfc(-x / 2.0.squareRoot()) }

    /// P(Z > x), accurate far into the upper tail where 1 - cdf(x) would round to 0.
    public static func survival(_ x: Double) -> Double { 0.5 * erfc(x / 2.0.squareRoot()) }

    /// The x with P(Z ≤ x) = p, for p in (0, 1): Wichura's algorithm AS241 (PPND16),
    /// accurate to about 1e-16.
    public static func quantile(_ p: Double) -> Double {
        precondition(p > 0 && p < 1, "a quantile needs a probability strictly between 0 and 1")
        let q = p - 0.5
        if abs(q) <= 0.425 {
            let r = 0.180625 - q * q
            let numerator = (((((((2.50908_09287_30122_6727e+3 * r +
                3.34305_75583_58812_8105e+4) * r +
                6.72657_70927_00870_0853e+4) * r +
                4.59219_53931_54987_1457e+4) * r +
                1.37316_93765_50946_1125e+4) * r +
                1.97159_09503_06551_4427e+3) * r +
                1.33141_66789_17843_7745e+2) * r +
                3.38713_28727_96366_6080e+0) * q
            let denominator = (((((((5.22649_52788_52854_5610e+3 * r +
                2.87290_85735_72194_2674e+4) * r +
                3.93078_95800_09271_0610e+4) * r +
                2.12137_94301_58659_5867e+4) * r +
                5.39419_60214_24751_1077e+3) * r +
                6.87187_00749_20579_0830e+2) * r +
                4.23133_30701_60091_1252e+1) * r +
                1.0)
            return numerator / denominator
        }
        var r = (-log(q < 0 ? p : 1 - p)).squareRoot()
        let x: Double
        if r <= 5 {
            r -= 1.6
            let numerator = (((((((7.74545_01427_83414_07640e-4 * r +
                2.27238_44989_26918_45833e-2) * r +
                2.41780_72517_74506_11770e-1) * r +
                1.27045_82524_52368_38258e+0) * r +
                3.64784_83247_63204_60504e+0) * r +
                5.76949_72214_60691_40550e+0) * r +
                4.63033_78461_56545_29590e+0) * r +
                1.42343_71107_49683_57734e+0)
            let denominator = (((((((1.05075_00716_44416_84324e-9 * r +
                5.47593_80849_95344_94600e-4) * r +
                1.51986_66563_61645_71966e-2) * r +
                1.48103_97642_74800_74590e-1) * r +
                6.89767_33498_51000_04550e-1) * r +
                1.67638_48301_83803_84940e+0) * r +
                2.05319_16266_37758_82187e+0) * r +
                1.0)
            x = numerator / denominator
        } else {
            r -= 5
            let numerator = (((((((2.01033_43992_92288_13265e-7 * r +
                2.71155_55687_43487_57815e-5) * r +
                1.24266_09473_88078_43860e-3) * r +
                2.65321_89526_57612_30930e-2) * r +
                2.96560_57182_85048_91230e-1) * r +
                1.78482_65399_17291_33580e+0) * r +
                5.46378_49111_64114_36990e+0) * r +
                6.65790_46435_01103_77720e+0)
            let denominator = (((((((2.04426_31033_89939_78564e-15 * r +
                1.42151_17583_16445_88870e-7) * r +
                1.84631_83175_10054_68180e-5) * r +
                7.86869_13114_56132_59100e-4) * r +
                1.48753_61290_85061_48525e-2) * r +
                1.36929_88092_27358_05310e-1) * r +
                5.99832_20655_58879_37690e-1) * r +
                1.0)
            x = numerator / denominator
        }
        return q < 0 ? -x : x
    }
}

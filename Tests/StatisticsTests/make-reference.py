#!/usr/bin/env python3
"""Writes reference.json: inputs and SciPy's answers for the Statistics tests.

The Swift tests compare the Statistics module with these values, so they are
computed here by SciPy and the Python standard library, never by the module.

Rerun from the repository root after changing the cases (needs SciPy):

    pip install scipy
    python3 Tests/StatisticsTests/make-reference.py

and commit reference.json with the script.
"""

import json
import math
import random
import warnings
from fractions import Fraction
from pathlib import Path

import scipy
from scipy import stats

OUTPUT = Path(__file__).with_name("reference.json")


def mcnemar_cases():
    pairs = [(10, 2), (2, 10), (0, 1), (1, 0), (0, 5), (5, 5), (7, 3), (25, 12),
             (0, 40), (100, 130), (1500, 1400), (2000, 2100), (3000, 2890)]
    return [{"onlyA": b, "onlyB": c,
             "p": float(stats.binomtest(min(b, c), b + c, 0.5).pvalue)}
            for b, c in pairs]


def wilson_cases():
    cases = [(0, 10, 0.95), (10, 10, 0.95), (7, 10, 0.95), (1, 1, 0.95), (0, 1, 0.95),
             (45, 50, 0.90), (3, 20, 0.99), (500, 1000, 0.80), (12, 37, 0.50),
             (999, 1000, 0.999)]
    out = []
    for k, n, confidence in cases:
        ci = stats.binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
        out.append({"passes": k, "runs": n, "confidence": confidence,
                    "lower": float(ci.low), "upper": float(ci.high)})
    return out


def normal_quantile_cases():
    ps = [1e-300, 1e-20, 1e-9, 0.001, 0.025, 0.1, 0.3, 0.5, 0.7, 0.975, 0.995, 0.999999]
    return [{"p": p, "x": float(stats.norm.ppf(p))} for p in ps]


def pass_at_k_cases():
    cases = [(10, 3, 1), (10, 3, 5), (10, 0, 3), (10, 10, 3), (10, 8, 3), (5, 2, 5),
             (200, 37, 50), (1000, 1, 10), (1000, 999, 10), (3, 1, 2)]
    out = []
    for n, c, k in cases:
        any_pass = 1 - Fraction(math.comb(n - c, k), math.comb(n, k))
        all_pass = Fraction(math.comb(c, k), math.comb(n, k))
        out.append({"runs": n, "passes": c, "k": k,
                    "anyPass": float(any_pass), "allPass": float(all_pass)})
    return out


def wilcoxon_cases():
    rng = random.Random(20240601)

    def draw(n, shift, step=None, zeros=0):
        values = [rng.gauss(shift, 1) for _ in range(n)]
        if step:  # rounding to a grid makes tied magnitudes
            values = [round(v / step) * step for v in values]
            values = [v if v != 0 else step for v in values]
        values[:zeros] = [0.0] * zeros
        return values

    samples = {
        "exact n=5": [1.5, -0.25, 2.0, 3.125, 0.75],
        "exact n=10": draw(10, 0.5),
        "exact n=20": draw(20, 0.3),
        "exact n=50": draw(50, 0.1),
        "sign flips, ties, n=8": [1, -1, 2, 2, -3, 4, 4, 5],
        "sign flips, zeros, n=4": [1, -1, 2, 0],
        "sign flips, zeros and ties, n=13": draw(13, 0.4, step=0.5, zeros=2),
        "normal, ties, n=30": draw(30, 0.4, step=0.5),
        "normal, zeros, n=17": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, -13, -14, 0, 0, 0],
        "normal, no ties, n=51": draw(51, 0.2),
        "normal, zeros and ties, n=120": draw(120, 0.15, step=0.25, zeros=9),
        "all zero, n=3": [0, 0, 0],
    }
    out = []
    for name, d in samples.items():
        d = [float(v) for v in d]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = stats.wilcoxon(d)
        out.append({"name": name, "differences": d,
                    "statistic": float(result.statistic), "p": float(result.pvalue)})
    return out


def splitmix64(seed, count):
    mask = (1 << 64) - 1
    state, out = seed, []
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        out.append(str(z ^ (z >> 31)))
    return out


reference = {
    "generator": f"make-reference.py with SciPy {scipy.__version__}",
    "mcnemar": mcnemar_cases(),
    "wilson": wilson_cases(),
    "normalQuantile": normal_quantile_cases(),
    "passAtK": pass_at_k_cases(),
    "wilcoxon": wilcoxon_cases(),
    # UInt64 as decimal strings: JSON numbers are doubles in many readers.
    "splitMix64": {"seed": 1234567, "outputs": splitmix64(1234567, 5)},
}
OUTPUT.write_text(json.dumps(reference, indent=1) + "\n")
print(f"wrote {OUTPUT}")

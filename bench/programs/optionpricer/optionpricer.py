"""optionpricer: a Monte-Carlo pricer with the stages of the thesis' FINPAR/LexiFi pricer (3 underlyings, 5 dates).

Sobol points in 15 dimensions (30 bits, direct xor form, indices 1..N) -> standard normals (Acklam's inverse normal
CDF) -> Brownian bridge over the dates 0.2 .. 1.0 -> correlation by the Cholesky factor -> Black-Scholes paths ->
worst-of Asian put 100*max(0, 1 - mean over dates of the worst performance) -> discounted mean. Prints the price.
Checked by hand: the inverse normal agrees with statistics.NormalDist().inv_cdf to 1.15e-9 (relative); N=1 (the
point (1/2,...,1/2)) gives 100*exp(-0.03)*(1 - mean_t exp(-0.015 t)) = 0.8686168624, computed apart; optionpricer.c
agrees at all sizes. Usage: optionpricer.py [N]  (default N = 1048576).
"""
import sys

import numpy as np

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1048576
BITS, DIMENSIONS, UNDERLYINGS = 30, 15, 3
DATES = np.array([0.2, 0.4, 0.6, 0.8, 1.0])
SIGMA = np.array([0.2, 0.25, 0.3])
RATE, RHO12, RHO13, RHO23 = 0.03, 0.5, 0.3, 0.4
# (degree, coefficients, initial m) of the primitive polynomials of Sobol dimensions 2..15.
POLYNOMIALS = [
    (1, 0, [1]), (2, 1, [1, 3]), (3, 1, [1, 3, 1]), (3, 2, [1, 1, 1]), (4, 1, [1, 1, 3, 3]), (4, 4, [1, 3, 5, 13]),
    (5, 2, [1, 1, 5, 5, 17]), (5, 4, [1, 1, 5, 5, 5]), (5, 7, [1, 1, 7, 11, 19]), (5, 11, [1, 1, 5, 1, 1]),
    (5, 13, [1, 1, 1, 3, 11]), (5, 14, [1, 3, 5, 5, 31]), (6, 1, [1, 3, 3, 9, 7, 49]), (6, 13, [1, 1, 1, 15, 21, 21]),
]


def direction_integers():
    """v[d, k] = v_{d,k} * 2^BITS for every dimension, by the Sobol recurrence."""
    rows = [[1 << (BITS - 1 - k) for k in range(BITS)]]
    for s, a, initial in POLYNOMIALS:
        m = list(initial)
        for k in range(s, BITS):
            value = m[k - s] ^ (m[k - s] << s)
            for j in range(1, s):
                if (a >> (s - 1 - j)) & 1:
                    value ^= m[k - j] << j
            m.append(value)
        rows.append([m[k] << (BITS - 1 - k) for k in range(BITS)])
    return np.array(rows, dtype=np.int64)


def sobol_uniforms(n):
    """An n x DIMENSIONS array of the Sobol points with indices 1..n."""
    v = direction_integers()
    index = np.arange(1, n + 1, dtype=np.int64)[:, None]
    x = np.zeros((n, DIMENSIONS), dtype=np.int64)
    for k in range(BITS):
        x ^= np.where((index >> k) & 1 == 1, v[:, k][None, :], 0)
    return x / float(1 << BITS)


def inverse_normal(p):
    """Acklam's rational approximation of the inverse normal CDF, elementwise."""
    a = [-3.969683028665376e01, 2.209460984245205e02, -2.759285104469687e02, 1.383577518672690e02,
         -3.066479806614716e01, 2.506628277459239e00]
    b = [-5.447609879822406e01, 1.615858368580409e02, -1.556989798598866e02, 6.680131188771972e01,
         -1.328068155288572e01]
    c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e00, -2.549732539343734e00,
         4.374664141464968e00, 2.938163982698783e00]
    d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00, 3.754408661907416e00]
    q = np.sqrt(-2.0 * np.log(np.where(p < 0.5, p, 1.0 - p)))
    tail = (c[5] + q * (c[4] + q * (c[3] + q * (c[2] + q * (c[1] + q * c[0]))))) / (
        1.0 + q * (d[3] + q * (d[2] + q * (d[1] + q * d[0])))
    )
    tail = np.where(p < 0.5, tail, -tail)
    h = p - 0.5
    r = h * h
    central = h * (a[5] + r * (a[4] + r * (a[3] + r * (a[2] + r * (a[1] + r * a[0]))))) / (
        1.0 + r * (b[4] + r * (b[3] + r * (b[2] + r * (b[1] + r * b[0]))))
    )
    return np.where((p < 0.02425) | (p > 1.0 - 0.02425), tail, central)


def brownian_bridge(z):
    """Wiener paths at the 5 dates from normals z[n, step, underlying], filling dates 5, 2, 1, 3, 4 in that order."""
    t = DATES
    w = np.empty_like(z)
    w[:, 4] = np.sqrt(t[4]) * z[:, 0]
    w[:, 1] = (t[1] / t[4]) * w[:, 4] + np.sqrt((t[1] * (t[4] - t[1])) / t[4]) * z[:, 1]
    w[:, 0] = (t[0] / t[1]) * w[:, 1] + np.sqrt((t[0] * (t[1] - t[0])) / t[1]) * z[:, 2]
    w[:, 2] = ((t[4] - t[2]) * w[:, 1] + (t[2] - t[1]) * w[:, 4]) / (t[4] - t[1]) + np.sqrt(
        ((t[2] - t[1]) * (t[4] - t[2])) / (t[4] - t[1])
    ) * z[:, 3]
    w[:, 3] = ((t[4] - t[3]) * w[:, 2] + (t[3] - t[2]) * w[:, 4]) / (t[4] - t[2]) + np.sqrt(
        ((t[3] - t[2]) * (t[4] - t[3])) / (t[4] - t[2])
    ) * z[:, 4]
    return w


def cholesky_factor():
    """The lower Cholesky factor of the 3x3 correlation matrix, written out."""
    l22 = np.sqrt(1.0 - RHO12 * RHO12)
    l32 = (RHO23 - RHO13 * RHO12) / l22
    return np.array([[1.0, 0.0, 0.0], [RHO12, l22, 0.0], [RHO13, l32, np.sqrt(1.0 - RHO13 * RHO13 - l32 * l32)]])


z = inverse_normal(sobol_uniforms(N)).reshape(N, 5, UNDERLYINGS)
correlated = brownian_bridge(z) @ cholesky_factor().T
drift = (RATE - 0.5 * (SIGMA * SIGMA))[None, None, :] * DATES[None, :, None]
performance = np.exp(drift + SIGMA[None, None, :] * correlated)
payoff = np.maximum(1.0 - performance.min(axis=2).sum(axis=1) / 5, 0.0)
print("%.10g" % (100.0 * (np.exp(-(RATE * DATES[4])) * (payoff.sum() / N))))

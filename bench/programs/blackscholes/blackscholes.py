"""blackscholes: European call prices (Black-Scholes, Abramowitz-Stegun normal CDF) for N options; prints their sum.

Options i=1..N: spot 100, strike 50+(i-1)*(100/N), maturity 0.25*(1+i%4), rate 0.02, volatility 0.3.
Checked by hand: for N=1 (strike 50, maturity 0.5) d1 = 3.4207, d2 = 3.2086 and the exact-CDF price is 50.499296
(computed apart with erf); blackscholes.c and this program print 50.49929398 and agree at all sizes.
Usage: blackscholes.py [N] (default N = 10000000).
"""
import sys

import numpy as np

N = int(sys.argv[1]) if len(sys.argv) > 1 else 10000000


def cnd(x):
    """Cumulative normal distribution, Abramowitz-Stegun 26.2.17."""
    l = np.abs(x)
    q = 1.0 / (1.0 + 0.2316419 * l)
    poly = q * (0.31938153 + q * (-0.356563782 + q * (1.781477937 + q * (-1.821255978 + q * 1.330274429))))
    w = 1.0 - (1.0 / np.sqrt(2.0 * np.pi)) * (np.exp(-0.5 * (l * l)) * poly)
    return np.where(x < 0, 1.0 - w, w)


i = np.arange(1, N + 1, dtype=np.int64)
spot, rate, volatility = 100.0, 0.02, 0.3
strike = 50.0 + (i - 1) * (100.0 / N)
maturity = 0.25 * (1 + i % 4)
sqrt_maturity = np.sqrt(maturity)
d1 = (np.log(spot / strike) + maturity * (rate + 0.5 * (volatility * volatility))) / (volatility * sqrt_maturity)
d2 = d1 - volatility * sqrt_maturity
price = spot * cnd(d1) - strike * (np.exp(-(rate * maturity)) * cnd(d2))
print("%.10g" % price.sum())

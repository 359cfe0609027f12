"""signal: the APEX diff/signal program, sum of clamp(50*(diff(0,x)/(0.01+x))) for x = 1..N.

Checked by hand: for N=3 the terms are 50/1.01, 50/2.01, 50/3.01, summing to 90.99186807 (three divisions in a
Python shell); signal.c prints the same. Usage: signal.py [N]  (default N = 50000000).
"""
import sys

import numpy as np

N = int(sys.argv[1]) if len(sys.argv) > 1 else 50000000


def diff(x):
    """Differences of neighbours: drop 1 of (x minus x rotated right by one)."""
    return (x - np.roll(x, 1))[1:]


def signal(x):
    """The clamped relative change of every element."""
    padded = np.concatenate(([0.0], x))
    return np.clip(50.0 * (diff(padded) / (0.01 + x)), -50.0, 50.0)


x = np.arange(1, N + 1, dtype=np.float64)
print("%.10g" % signal(x).sum())

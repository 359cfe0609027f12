"""drawdown: a walk of N steps, step i = ((7i) mod 13) - 6 plus a drift of +1 in the first half of every 3000 steps
and -1 in the second; prints the largest drawdown (running peak minus walk) and the sum of the drawdowns.

np.cumsum and np.maximum.accumulate are NumPy's scans (sequential, in C). Checked by hand: N=3 gives "4 5" (see
drawdown.apl); drawdown.c prints the same.
Usage: drawdown.py [N]  (default N = 50000000).
"""
import sys

import numpy as np

N = int(sys.argv[1]) if len(sys.argv) > 1 else 50000000

i = np.arange(1, N + 1, dtype=np.int64)
steps = (7 * i) % 13 - 6 + np.where(i % 3000 < 1500, 1, -1)
walk = np.cumsum(steps)
drawdowns = np.maximum.accumulate(walk) - walk
print(int(drawdowns.max()), int(drawdowns.sum()))

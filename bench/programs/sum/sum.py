"""sum: the sum of 1..N in 64-bit integers.

Checked by hand: N(N+1)/2 is 55 for N=10 and 5000000050000000 for N=1e8; sum.c prints the same.
Usage: sum.py [N]  (default N = 100000000).
"""
import sys

import numpy as np

N = int(sys.argv[1]) if len(sys.argv) > 1 else 100000000

print(int(np.arange(1, N + 1, dtype=np.int64).sum()))

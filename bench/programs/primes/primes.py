"""primes: the primes up to N by counting divisors in the residue table A mod A (outer product); prints count and sum.

The table is built in blocks of rows so that memory stays small; each block is one vectorised residue.
Checked by hand: for N=10 it prints "4 17" (primes 2 3 5 7); for N=10000 the count 1229 is pi(10^4) from a table.
primes.c prints the same at all sizes. Usage: primes.py [N]  (default N = 10000).
"""
import sys

import numpy as np

N = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
BLOCK = 1000

a = np.arange(1, N + 1, dtype=np.int32)
divisor_counts = np.zeros(N, dtype=np.int64)
for start in range(0, N, BLOCK):
    divisors = a[start : start + BLOCK, None]
    divisor_counts += (a[None, :] % divisors == 0).sum(axis=0)
primes = a[divisor_counts == 2]
print(len(primes), int(primes.sum(dtype=np.int64)))

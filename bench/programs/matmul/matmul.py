"""matmul: the product of two M x M matrices, A[i,j] = 0.1*((i+2j) mod 7), B[i,j] = 0.01*((3i+j) mod 11), i,j = 1..M.

Prints the sum of all elements of the product. NumPy's @ calls BLAS; the runner limits BLAS to one thread so that
every column of the benchmark is sequential.
Checked by hand: for M=2 the sum is 0.7*0.09 + 1.1*0.15 = 0.228 (worked on paper); matmul.c agrees at all sizes.
Usage: matmul.py [M]  (default M = 512).
"""
import os
import statistics
import sys
import time

import numpy as np

M = int(sys.argv[1]) if len(sys.argv) > 1 else 512

i = np.arange(1, M + 1, dtype=np.int64)
a = 0.1 * ((i[:, None] + 2 * i[None, :]) % 7)
b = 0.01 * ((3 * i[:, None] + i[None, :]) % 11)
print("%.10g" % (a @ b).sum())

# bench/run asks for the product's time alone (Python's start-up hides it in the process's time).
if "BENCH_KERNEL_REPEATS" in os.environ:
    times = []
    for _ in range(int(os.environ["BENCH_KERNEL_REPEATS"])):
        start = time.perf_counter()
        a @ b
        times.append(time.perf_counter() - start)
    print("kernel_ms=%.3f" % (1000 * statistics.median(times)), file=sys.stderr)

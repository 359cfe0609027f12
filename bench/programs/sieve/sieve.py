"""sieve: the primes up to N by Eratosthenes' sieve, their count and the largest (see sieve.apl).

A boolean array; each prime up to √N clears its multiples from its square on with one strided slice assignment,
as the sieve is written in NumPy."""
import sys

import numpy as np


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000000
    prime = np.ones(n + 1, dtype=bool)
    prime[:2] = False
    for i in range(2, int(n**0.5) + 1):
        if prime[i]:
            prime[i * i :: i] = False
    primes = np.flatnonzero(prime)
    print(len(primes), int(primes[-1]))


main()

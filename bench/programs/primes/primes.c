/* primes: the primes up to N by counting, for every j in 1..N, the i in 1..N that divide it (the APL program's
 * outer-product residue table, without storing it); prints the number of primes and their sum.
 * Checked by hand: for N=10 the primes are 2 3 5 7 (prints "4 17"); for N=10000 the count 1229 is pi(10^4) from a
 * table of the prime-counting function. primes.py prints the same at all sizes.
 * Usage: primes [N]   (default N = 10000) */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 10000;
    long count = 0, sum = 0;
    for (long j = 1; j <= n; j++) {
        long divisors = 0;
        for (long i = 1; i <= n; i++) {
            divisors += (j % i == 0);
        }
        if (divisors == 2) {
            count++;
            sum += j;
        }
    }
    printf("%ld %ld\n", count, sum);
    return 0;
}

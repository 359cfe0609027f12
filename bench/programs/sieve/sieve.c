/* sieve: the primes up to N by Eratosthenes' sieve, their count and the largest (see sieve.apl). One byte per
   number, multiples cleared from the square on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 10000000;
    unsigned char *prime = malloc(n + 1);
    memset(prime, 1, n + 1);
    prime[0] = 0;
    prime[1] = 0;
    for (long i = 2; i * i <= n; i++)
        if (prime[i])
            for (long j = i * i; j <= n; j += i) prime[j] = 0;
    long count = 0, largest = 0;
    for (long i = 2; i <= n; i++)
        if (prime[i]) {
            count++;
            largest = i;
        }
    printf("%ld %ld\n", count, largest);
    free(prime);
    return 0;
}

/* lookup: N keys k[i] = 7919i mod 1000003 sorted, and N queries q[i] = 104729i mod 1000003 looked up among the keys
 * (1-based position of the first equal key, N+1 when absent; and whether present). Prints the middle sorted key, the
 * sum of the positions and the number of queries found (see lookup.apl; N=3 gives 15838 12 0).
 * Written as a performance-minded C programmer would: qsort for the sort, and one open-addressing hash table from
 * key to first position, built once, for both look-ups.
 * Usage: lookup [N]   (default N = 1000000) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int compare(const void *a, const void *b) {
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    long *k = malloc(n * sizeof *k), *s = malloc(n * sizeof *s);
    for (long i = 1; i <= n; i++) k[i - 1] = s[i - 1] = (7919 * i) % 1000003;
    qsort(s, n, sizeof *s, compare);
    long size = 1;
    while (size < 2 * n) size <<= 1;
    long *keys = malloc(size * sizeof *keys), *positions = malloc(size * sizeof *positions);
    for (long h = 0; h < size; h++) positions[h] = 0;
    for (long i = 0; i < n; i++) {
        uint64_t h = ((uint64_t)k[i] * 0x9E3779B97F4A7C15ull) >> 20 & (size - 1);
        while (positions[h] && keys[h] != k[i]) h = (h + 1) & (size - 1);
        if (!positions[h]) keys[h] = k[i], positions[h] = i + 1;
    }
    long sum = 0, found = 0;
    for (long i = 1; i <= n; i++) {
        long x = (104729 * i) % 1000003;
        uint64_t h = ((uint64_t)x * 0x9E3779B97F4A7C15ull) >> 20 & (size - 1);
        while (positions[h] && keys[h] != x) h = (h + 1) & (size - 1);
        sum += positions[h] ? positions[h] : n + 1;
        found += positions[h] != 0;
    }
    printf("%ld %ld %ld\n", s[(n + 1) / 2 - 1], sum, found);
    return 0;
}

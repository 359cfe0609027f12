/* matmul: the product of two M x M matrices, A[i][j] = 0.1*((i+2j) mod 7), B[i][j] = 0.01*((3i+j) mod 11) for
 * i,j = 1..M, in the cache-friendly i-k-j loop order; prints the sum of all elements of the product.
 * Checked by hand: for M=2 the sum is colsums(A) . rowsums(B) = 0.7*0.09 + 1.1*0.15 = 0.228 (worked on paper), which
 * "matmul 2" prints; matmul.py agrees at all sizes (to rounding: BLAS sums in another order).
 * Usage: matmul [M]   (default M = 512) */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    long m = argc > 1 ? atol(argv[1]) : 512;
    double *a = malloc(m * m * sizeof(double)), *b = malloc(m * m * sizeof(double));
    double *c = calloc(m * m, sizeof(double));
    if (!a || !b || !c) return 1;
    for (long i = 1; i <= m; i++)
        for (long j = 1; j <= m; j++) {
            a[(i - 1) * m + j - 1] = 0.1 * (double)((i + 2 * j) % 7);
            b[(i - 1) * m + j - 1] = 0.01 * (double)((3 * i + j) % 11);
        }
    for (long i = 0; i < m; i++)
        for (long k = 0; k < m; k++) {
            double aik = a[i * m + k];
            for (long j = 0; j < m; j++) c[i * m + j] += aik * b[k * m + j];
        }
    double sum = 0.0;
    for (long k = 0; k < m * m; k++) sum += c[k];
    printf("%.10g\n", sum);
    free(a);
    free(b);
    free(c);
    return 0;
}

/* signal: the APEX diff/signal program, sum over i=1..N of clamp(50*((x[i]-x[i-1])/(0.01+x[i]))), x = 0,1,...,N.
 * Checked by hand: for N=3 the three terms are 50/1.01, 50/2.01, 50/3.01, whose sum 90.99186807 was worked out
 * separately (three divisions in a Python shell); this program and signal.py print 90.99186807.
 * Usage: signal [N]   (default N = 50000000) */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 50000000;
    double sum = 0.0;
    double previous = 0.0; /* the 0 catenated in front of ⍳N */
    for (long i = 1; i <= n; i++) {
        double x = (double)i;
        double slope = 50.0 * ((x - previous) / (0.01 + x));
        if (slope > 50.0) slope = 50.0;
        if (slope < -50.0) slope = -50.0;
        sum += slope;
        previous = x;
    }
    printf("%.10g\n", sum);
    return 0;
}

/* blackscholes: European call prices (Black-Scholes, normal CDF by the Abramowitz-Stegun 26.2.17 polynomial) for N
 * options i=1..N with spot 100, strike 50+(i-1)*(100/N), maturity 0.25*(1+i%4), rate 0.02, volatility 0.3; prints the
 * sum of the prices.
 * Checked by hand: for N=1 (strike 50, maturity 0.5) d1 = (ln 2 + 0.5*0.065)/(0.3*sqrt 0.5) = 3.4207, d2 = 3.2086,
 * and the price with the exact normal CDF (from erf, computed apart) is 50.499296; with the polynomial CDF this
 * program and blackscholes.py print 50.49929398 (within the polynomial's error bound) and agree at all sizes.
 * Usage: blackscholes [N]   (default N = 10000000) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Cumulative normal distribution, Abramowitz-Stegun 26.2.17 (absolute error below 7.5e-8). */
static double cnd(double x) {
    double l = fabs(x);
    double q = 1.0 / (1.0 + 0.2316419 * l);
    double poly = q * (0.31938153 + q * (-0.356563782 + q * (1.781477937 + q * (-1.821255978 + q * 1.330274429))));
    double w = 1.0 - (1.0 / sqrt(2.0 * M_PI)) * (exp(-0.5 * (l * l)) * poly);
    return x < 0 ? 1.0 - w : w;
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 10000000;
    const double spot = 100.0, rate = 0.02, volatility = 0.3;
    double sum = 0.0;
    for (long i = 1; i <= n; i++) {
        double strike = 50.0 + (double)(i - 1) * (100.0 / (double)n);
        double maturity = 0.25 * (double)(1 + i % 4);
        double sqrt_maturity = sqrt(maturity);
        double d1 = (log(spot / strike) + maturity * (rate + 0.5 * (volatility * volatility))) /
                    (volatility * sqrt_maturity);
        double d2 = d1 - volatility * sqrt_maturity;
        sum += spot * cnd(d1) - strike * (exp(-(rate * maturity)) * cnd(d2));
    }
    printf("%.10g\n", sum);
    return 0;
}

/* optionpricer: a Monte-Carlo option pricer with the stages of the FINPAR/LexiFi pricer of the thesis (medium
 * dataset shape: 3 underlyings, 5 dates), written for this suite with its own contract and market data:
 * Sobol points in 15 dimensions (30 bits, direct xor form, indices 1..N) -> standard normals (Acklam's inverse normal
 * CDF) -> a Brownian bridge over the dates 0.2 0.4 0.6 0.8 1.0 -> correlation by the Cholesky factor of the 3x3
 * correlation matrix -> Black-Scholes paths -> payoff of a worst-of Asian put: 100*max(0, 1 - mean over the dates of
 * the worst performance S_i(t)/S_i(0)) -> discounted mean over the N paths. Prints the price.
 * Sobol dimension 1 has v_k = 2^-k; dimensions 2..15 use the first 14 primitive polynomials (degree s, coefficients
 * a) with the initial odd m_j < 2^j listed below (any such values give a valid Sobol sequence).
 * Checked by hand: inverse_normal(0.975) = 1.959963985 and inverse_normal(0.01) = -2.326347874 against Python's
 * statistics.NormalDist().inv_cdf (1.959963985, -2.326347874); the first Sobol point is (1/2, ..., 1/2), which maps
 * to all-zero normals, a flat bridge, every performance exp((r-sigma^2/2)t) and so, for N=1, a price of
 * 100*exp(-0.03)*(1 - mean_t exp((0.03-0.3^2/2)t)) = 0.8686168624 (computed apart in a Python shell), which
 * "optionpricer 1" prints; optionpricer.py agrees at all sizes.
 * Usage: optionpricer [N]   (default N = 1048576) */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define BITS 30
#define DIMENSIONS 15
#define UNDERLYINGS 3
#define DATES 5

/* Degree, coefficients and initial m values of the primitive polynomials of dimensions 2..15. */
static const int degree[DIMENSIONS - 1] = {1, 2, 3, 3, 4, 4, 5, 5, 5, 5, 5, 5, 6, 6};
static const int coefficients[DIMENSIONS - 1] = {0, 1, 1, 2, 1, 4, 2, 4, 7, 11, 13, 14, 1, 13};
static const uint32_t initial_m[DIMENSIONS - 1][6] = {
    {1}, {1, 3}, {1, 3, 1}, {1, 1, 1}, {1, 1, 3, 3}, {1, 3, 5, 13}, {1, 1, 5, 5, 17}, {1, 1, 5, 5, 5},
    {1, 1, 7, 11, 19}, {1, 1, 5, 1, 1}, {1, 1, 1, 3, 11}, {1, 3, 5, 5, 31}, {1, 3, 3, 9, 7, 49}, {1, 1, 1, 15, 21, 21}};

/* Direction integers v[d][k] = v_{d,k} * 2^BITS by the Sobol recurrence. */
static void direction_integers(uint32_t v[DIMENSIONS][BITS]) {
    for (int k = 0; k < BITS; k++) v[0][k] = 1u << (BITS - 1 - k);
    for (int d = 1; d < DIMENSIONS; d++) {
        int s = degree[d - 1], a = coefficients[d - 1];
        uint32_t m[BITS];
        for (int k = 0; k < BITS; k++) {
            if (k < s) {
                m[k] = initial_m[d - 1][k];
                continue;
            }
            uint32_t next = m[k - s] ^ (m[k - s] << s);
            for (int j = 1; j < s; j++)
                if ((a >> (s - 1 - j)) & 1) next ^= m[k - j] << j;
            m[k] = next;
        }
        for (int k = 0; k < BITS; k++) v[d][k] = m[k] << (BITS - 1 - k);
    }
}

/* Acklam's rational approximation of the inverse normal CDF (relative error below 1.15e-9). */
static double inverse_normal(double p) {
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                               1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                               6.680131188771972e+01, -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                               -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                               3.754408661907416e+00};
    if (p < 0.02425 || p > 1.0 - 0.02425) {
        double q = sqrt(-2.0 * log(p < 0.5 ? p : 1.0 - p));
        double x = (c[5] + q * (c[4] + q * (c[3] + q * (c[2] + q * (c[1] + q * c[0]))))) /
                   (1.0 + q * (d[3] + q * (d[2] + q * (d[1] + q * d[0]))));
        return p < 0.5 ? x : -x;
    }
    double q = p - 0.5, r = q * q;
    return q * (a[5] + r * (a[4] + r * (a[3] + r * (a[2] + r * (a[1] + r * a[0]))))) /
           (1.0 + r * (b[4] + r * (b[3] + r * (b[2] + r * (b[1] + r * b[0])))));
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 1048576;
    const double t[DATES] = {0.2, 0.4, 0.6, 0.8, 1.0};
    const double sigma[UNDERLYINGS] = {0.2, 0.25, 0.3};
    const double rate = 0.03, rho12 = 0.5, rho13 = 0.3, rho23 = 0.4;
    /* Cholesky factor of the correlation matrix, written out for 3x3. */
    double l22 = sqrt(1.0 - rho12 * rho12), l32 = (rho23 - rho13 * rho12) / l22;
    const double chol[UNDERLYINGS][UNDERLYINGS] = {
        {1.0, 0.0, 0.0}, {rho12, l22, 0.0}, {rho13, l32, sqrt(1.0 - rho13 * rho13 - l32 * l32)}};
    uint32_t v[DIMENSIONS][BITS];
    direction_integers(v);
    const double scale = 1.0 / (double)(1u << BITS);

    double payoff_sum = 0.0;
    for (long i = 1; i <= n; i++) {
        double z[DIMENSIONS];
        for (int d = 0; d < DIMENSIONS; d++) {
            uint32_t x = 0;
            for (int k = 0; k < BITS; k++)
                if ((i >> k) & 1) x ^= v[d][k];
            z[d] = inverse_normal(x * scale);
        }
        /* Dimension 3*(date number in bridge order)+underlying; the bridge fills date 5, 2, 1, 3, 4. */
        double w[DATES][UNDERLYINGS];
        for (int u = 0; u < UNDERLYINGS; u++) {
            w[4][u] = sqrt(t[4]) * z[u];
            w[1][u] = (t[1] / t[4]) * w[4][u] + sqrt((t[1] * (t[4] - t[1])) / t[4]) * z[3 + u];
            w[0][u] = (t[0] / t[1]) * w[1][u] + sqrt((t[0] * (t[1] - t[0])) / t[1]) * z[6 + u];
            w[2][u] = ((t[4] - t[2]) * w[1][u] + (t[2] - t[1]) * w[4][u]) / (t[4] - t[1]) +
                      sqrt(((t[2] - t[1]) * (t[4] - t[2])) / (t[4] - t[1])) * z[9 + u];
            w[3][u] = ((t[4] - t[3]) * w[2][u] + (t[3] - t[2]) * w[4][u]) / (t[4] - t[2]) +
                      sqrt(((t[3] - t[2]) * (t[4] - t[3])) / (t[4] - t[2])) * z[12 + u];
        }
        double worst_sum = 0.0;
        for (int date = 0; date < DATES; date++) {
            double worst = INFINITY;
            for (int u = 0; u < UNDERLYINGS; u++) {
                double correlated = 0.0;
                for (int j = 0; j < UNDERLYINGS; j++) correlated += w[date][j] * chol[u][j];
                double performance = exp((rate - 0.5 * (sigma[u] * sigma[u])) * t[date] + sigma[u] * correlated);
                if (performance < worst) worst = performance;
            }
            worst_sum += worst;
        }
        double payoff = 1.0 - worst_sum / DATES;
        payoff_sum += payoff > 0.0 ? payoff : 0.0;
    }
    printf("%.10g\n", 100.0 * (exp(-(rate * t[DATES - 1])) * (payoff_sum / (double)n)));
    return 0;
}

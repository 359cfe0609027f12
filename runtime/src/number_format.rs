//! How one number is written, as Dyalog APL writes it under a print precision (`⎕PP`).
//!
//! The rule for a double `x` with print precision `p` (clamped to 1..=17; 17 digits always round-trip an f64):
//!
//! 1. Round `x` to `p` significant decimal digits and drop trailing zeros of that digit string. Call the decimal
//!    exponent of the rounded value `e` (so `x ≈ d.ddd × 10^e`; rounding can raise it: 9.9999999999 gives `e = 1`).
//! 2. If `-4 ≤ e < p`, write the number in fixed form: the integer part needs at most `p` digits and there are at most
//!    three zeros between the point and the first significant digit. An integral value has no decimal point
//!    (`3.0` is `3`), and a value below one has a leading `0` (`0.25`).
//! 3. Otherwise write it in scaled form: `d.dddE` followed by the exponent (`1E15`, `1.5E¯7`, `1.23456789E11`).
//!
//! This is the rule of C's `%.pG`, which Dyalog follows. Boundary cases at `⎕PP←10`: `0.0001` is `0.0001` but
//! `0.00001` is `1E¯5`; `1234567890` (ten digits) is fixed but the double `1E10` (eleven digits) is `1E10`, and
//! `123456789012` is `1.23456789E11`. Integers within 32 bits (all Dyalog holds as integers) print in full; the
//! display shows larger ones as the doubles Dyalog holds them as (`crate::display`).
//!
//! Negative numbers and exponents use APL's high minus `¯`; negative zero prints as `0`. Infinities and NaN cannot
//! arise in Dyalog; we write them as `∞`, `¯∞` and `NaN` so that a bug shows instead of panicking.

/// The largest useful print precision for an f64: 17 significant digits always read back as the same double.
pub const MAX_DOUBLE_PRINT_PRECISION: u32 = 17;

/// A number split at its decimal point, so that a column of numbers can line up the points: `whole` is the sign and
/// the digits before the point (or before the `E` when there is no point), `rest` is everything from the point or the
/// `E` on (empty for an integral fixed-form value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitNumber {
    pub whole: String,
    pub rest: String,
}

impl SplitNumber {
    /// The number as one piece of text.
    pub fn joined(&self) -> String {
        format!("{}{}", self.whole, self.rest)
    }
}

/// One double as Dyalog writes it with `print_precision` significant digits (see the module comment for the rule).
pub fn format_double(value: f64, print_precision: u32) -> String {
    split_double(value, print_precision).joined()
}

/// An integer as APL writes it: every digit, with a high minus.
pub fn format_integer(value: i64) -> String {
    if value < 0 {
        format!("¯{}", value.unsigned_abs())
    } else {
        value.to_string()
    }
}

/// A complex number as Dyalog writes it: `2J3`, `¯1J¯2.5`, `0J1`; one with a zero imaginary part is written as the
/// real number it equals (`3`), because Dyalog demotes such a value to a real.
pub fn format_complex(real: f64, imaginary: f64, print_precision: u32) -> String {
    if imaginary == 0.0 {
        format_double(real, print_precision)
    } else {
        format!(
            "{}J{}",
            format_double(real, print_precision),
            format_double(imaginary, print_precision)
        )
    }
}

/// Like [`format_double`], but split at the decimal point for column alignment.
pub fn split_double(value: f64, print_precision: u32) -> SplitNumber {
    split_double_with_rule(value, print_precision, |exponent, precision| {
        (-4..precision).contains(&exponent)
    })
}

/// Like [`split_double`], but always in scaled form (`3` is `3E0`, `0` is `0E0`): a matrix column that holds one
/// number in scaled form shows all its numbers in scaled form.
pub fn split_double_scaled(value: f64, print_precision: u32) -> SplitNumber {
    split_double_with_rule(value, print_precision, |_, _| false)
}

/// `value` split at the decimal point, in fixed form where `fixed_form_fits(exponent, precision)` says so for the
/// decimal exponent of the rounded value and the clamped precision, and in scaled form otherwise.
fn split_double_with_rule(value: f64, print_precision: u32, fixed_form_fits: impl Fn(i32, i32) -> bool) -> SplitNumber {
    let special = |text: String| SplitNumber {
        whole: text,
        rest: String::new(),
    };
    // Negative zero compares equal to zero, so it gets no sign: Dyalog never shows one.
    let sign = if value < 0.0 { "¯" } else { "" };
    if value.is_nan() {
        return special("NaN".to_string());
    }
    if value.is_infinite() {
        return special(format!("{sign}∞"));
    }
    let precision = print_precision.clamp(1, MAX_DOUBLE_PRINT_PRECISION) as i32;
    let (digits, exponent) = significant_digits(value.abs(), precision);
    let (whole, rest) = if fixed_form_fits(exponent, precision) {
        fixed_form(&digits, exponent)
    } else {
        scaled_form(&digits, exponent)
    };
    SplitNumber {
        whole: format!("{sign}{whole}"),
        rest,
    }
}

/// The decimal digits of a finite `magnitude` (zero or more) rounded to `precision` significant digits, without
/// trailing zeros (at least one digit), and the decimal exponent of the first digit.
fn significant_digits(magnitude: f64, precision: i32) -> (Vec<u8>, i32) {
    // Rust's `{:e}` rounds the exact binary value correctly, and reports the exponent after rounding.
    let scientific = format!("{:.*e}", (precision - 1) as usize, magnitude);
    let (mantissa, exponent) = scientific
        .split_once('e')
        .expect("`{:e}` output always contains an `e`");
    let exponent: i32 = exponent.parse().expect("`{:e}` output has an integer exponent");
    let mut digits: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).collect();
    while digits.len() > 1 && digits.last() == Some(&b'0') {
        digits.pop();
    }
    (digits, exponent)
}

/// `digits` (first digit at decimal exponent `exponent`) written without an exponent, split at the point.
fn fixed_form(digits: &[u8], exponent: i32) -> (String, String) {
    let text = |bytes: &[u8]| String::from_utf8(bytes.to_vec()).expect("decimal digits are ASCII");
    if exponent < 0 {
        let leading_zeros = "0".repeat((-exponent - 1) as usize);
        return ("0".to_string(), format!(".{leading_zeros}{}", text(digits)));
    }
    let whole_length = exponent as usize + 1;
    if digits.len() <= whole_length {
        let trailing_zeros = "0".repeat(whole_length - digits.len());
        (format!("{}{trailing_zeros}", text(digits)), String::new())
    } else {
        let (whole, fraction) = digits.split_at(whole_length);
        (text(whole), format!(".{}", text(fraction)))
    }
}

/// `digits` (first digit at decimal exponent `exponent`) written as `d.dddEn`, split at the point (or at the `E`).
fn scaled_form(digits: &[u8], exponent: i32) -> (String, String) {
    let first = char::from(digits[0]).to_string();
    let fraction: String = digits[1..].iter().map(|&digit| char::from(digit)).collect();
    let point_and_fraction = if fraction.is_empty() {
        String::new()
    } else {
        format!(".{fraction}")
    };
    (
        first,
        format!("{point_and_fraction}E{}", format_integer(exponent.into())),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Formats at the default print precision, `⎕PP←10`.
    fn default_precision(value: f64) -> String {
        format_double(value, 10)
    }

    #[test]
    fn integral_doubles_have_no_decimal_point() {
        // ⍝ 3.0
        assert_eq!(default_precision(3.0), "3");
        // ⍝ 0.0 and ¯0.0 (negative zero never shows its sign)
        assert_eq!(default_precision(0.0), "0");
        assert_eq!(default_precision(-0.0), "0");
        // ⍝ ¯42.0
        assert_eq!(default_precision(-42.0), "¯42");
    }

    #[test]
    fn fractions_round_to_print_precision_and_drop_trailing_zeros() {
        // ⍝ 1÷3
        assert_eq!(default_precision(1.0 / 3.0), "0.3333333333");
        // ⍝ 2÷3 (the tenth digit rounds up)
        assert_eq!(default_precision(2.0 / 3.0), "0.6666666667");
        // ⍝ 0.1+0.2 (the binary error is below ten digits)
        assert_eq!(default_precision(0.1 + 0.2), "0.3");
        // ⍝ 2.50
        assert_eq!(default_precision(2.5), "2.5");
        // ⍝ ¯1.5
        assert_eq!(default_precision(-1.5), "¯1.5");
        // ⍝ 123.456
        assert_eq!(default_precision(123.456), "123.456");
        // ⍝ 3.14159265358979 (π to ten significant digits)
        assert_eq!(default_precision(std::f64::consts::PI), "3.141592654");
    }

    #[test]
    fn rounding_can_carry_into_a_new_digit() {
        // ⍝ 9.99999999999 rounds to 10.00000000, which is 10
        assert_eq!(default_precision(9.99999999999), "10");
        // ⍝ 9999999999.7 rounds to 1.000000000E10: eleven integer digits, so scaled
        assert_eq!(default_precision(9_999_999_999.7), "1E10");
    }

    #[test]
    fn large_numbers_switch_to_scaled_form_beyond_print_precision_digits() {
        // ⍝ 1234567890.0 has ten integer digits: fixed
        assert_eq!(default_precision(1_234_567_890.0), "1234567890");
        // ⍝ 2*32 as a double: ten digits
        assert_eq!(default_precision(4_294_967_296.0), "4294967296");
        // ⍝ 1E10 as a double: eleven digits
        assert_eq!(default_precision(1e10), "1E10");
        // ⍝ 123456789012 as a double (the tenth significant digit is 0 and is dropped)
        assert_eq!(default_precision(123_456_789_012.0), "1.23456789E11");
        // ⍝ 1E15
        assert_eq!(default_precision(1e15), "1E15");
        // ⍝ 2*40
        assert_eq!(default_precision(1_099_511_627_776.0), "1.099511628E12");
        // ⍝ ¯1.5E20
        assert_eq!(default_precision(-1.5e20), "¯1.5E20");
        // ⍝ ⌊/⍬ (the largest double)
        assert_eq!(default_precision(f64::MAX), "1.797693135E308");
    }

    #[test]
    fn small_numbers_switch_to_scaled_form_below_one_ten_thousandth() {
        // ⍝ 0.0001
        assert_eq!(default_precision(0.0001), "0.0001");
        // ⍝ 0.00012345
        assert_eq!(default_precision(0.00012345), "0.00012345");
        // ⍝ 0.00001
        assert_eq!(default_precision(0.00001), "1E¯5");
        // ⍝ 1.5E¯7
        assert_eq!(default_precision(1.5e-7), "1.5E¯7");
        // ⍝ ¯2.5E¯9
        assert_eq!(default_precision(-2.5e-9), "¯2.5E¯9");
        // ⍝ 0.000099999999999 rounds to 1.000000000E¯4: fixed again
        assert_eq!(default_precision(0.000099999999999), "0.0001");
    }

    #[test]
    fn print_precision_changes_the_digits_and_the_switch_point() {
        // ⍝ ⎕PP←3 ⋄ 1÷3
        assert_eq!(format_double(1.0 / 3.0, 3), "0.333");
        // ⍝ ⎕PP←3 ⋄ 2÷3
        assert_eq!(format_double(2.0 / 3.0, 3), "0.667");
        // ⍝ ⎕PP←3 ⋄ 123.0 (three digits fit)
        assert_eq!(format_double(123.0, 3), "123");
        // ⍝ ⎕PP←3 ⋄ 1234.0 (four digits do not)
        assert_eq!(format_double(1234.0, 3), "1.23E3");
        // ⍝ ⎕PP←1 ⋄ 2÷3
        assert_eq!(format_double(2.0 / 3.0, 1), "0.7");
        // ⍝ ⎕PP←1 ⋄ 2.5 3.5 (an exact tie rounds to the even digit, as C's printf does)
        assert_eq!(format_double(2.5, 1), "2");
        assert_eq!(format_double(3.5, 1), "4");
        // ⍝ ⎕PP←0 is treated as 1
        assert_eq!(format_double(2.0 / 3.0, 0), "0.7");
        // ⍝ ⎕PP←12 ⋄ 1E10 (eleven digits fit in twelve)
        assert_eq!(format_double(1e10, 12), "10000000000");
    }

    #[test]
    fn precision_seventeen_round_trips() {
        // ⍝ ⎕PP←17 ⋄ 0.1 (the double nearest 0.1 needs 17 digits to show it is not 0.1)
        assert_eq!(format_double(0.1, 17), "0.10000000000000001");
        // ⍝ ⎕PP←17 ⋄ 1÷3
        assert_eq!(format_double(1.0 / 3.0, 17), "0.33333333333333331");
        // ⍝ ⎕PP←17 ⋄ 2*53
        assert_eq!(format_double(9_007_199_254_740_992.0, 17), "9007199254740992");
        // ⍝ ⎕PP←34 is clamped to 17 for doubles
        assert_eq!(format_double(0.1, 34), "0.10000000000000001");
        for value in [
            0.1,
            1.0 / 3.0,
            std::f64::consts::E,
            1e-300,
            6.02214076e23,
            -123456.789e-12,
        ] {
            let text = format_double(value, 17).replace('¯', "-");
            let read_back: f64 = text.parse().expect("format_double writes a number Rust can read");
            assert_eq!(read_back, value, "{text} does not read back");
        }
    }

    #[test]
    fn integers_print_every_digit() {
        // ⍝ 123456789012 as an integer
        assert_eq!(format_integer(123_456_789_012), "123456789012");
        // ⍝ ¯7
        assert_eq!(format_integer(-7), "¯7");
        // ⍝ the smallest 64-bit integer
        assert_eq!(format_integer(i64::MIN), "¯9223372036854775808");
    }

    #[test]
    fn complex_numbers_join_their_parts_with_j() {
        // ⍝ 2J3
        assert_eq!(format_complex(2.0, 3.0, 10), "2J3");
        // ⍝ ¯1J¯2.5
        assert_eq!(format_complex(-1.0, -2.5, 10), "¯1J¯2.5");
        // ⍝ 0J1 (the square root of ¯1)
        assert_eq!(format_complex(0.0, 1.0, 10), "0J1");
        // ⍝ 3J0 is demoted to the real 3
        assert_eq!(format_complex(3.0, 0.0, 10), "3");
        // ⍝ 1J1÷3
        assert_eq!(format_complex(1.0 / 3.0, 1.0 / 3.0, 10), "0.3333333333J0.3333333333");
    }

    #[test]
    fn split_numbers_separate_at_the_point_or_the_exponent() {
        let split = |whole: &str, rest: &str| SplitNumber {
            whole: whole.to_string(),
            rest: rest.to_string(),
        };
        // ⍝ ¯12.25
        assert_eq!(split_double(-12.25, 10), split("¯12", ".25"));
        // ⍝ 10
        assert_eq!(split_double(10.0, 10), split("10", ""));
        // ⍝ 1.5E¯7
        assert_eq!(split_double(1.5e-7, 10), split("1", ".5E¯7"));
        // ⍝ 1E15
        assert_eq!(split_double(1e15, 10), split("1", "E15"));
        // ⍝ 3 and 0 in a scaled column
        assert_eq!(split_double_scaled(3.0, 10), split("3", "E0"));
        assert_eq!(split_double_scaled(0.0, 10), split("0", "E0"));
        assert_eq!(split_double_scaled(-0.25, 10), split("¯2", ".5E¯1"));
    }

    #[test]
    fn non_finite_values_do_not_panic() {
        assert_eq!(default_precision(f64::INFINITY), "∞");
        assert_eq!(default_precision(f64::NEG_INFINITY), "¯∞");
        assert_eq!(default_precision(f64::NAN), "NaN");
    }
}

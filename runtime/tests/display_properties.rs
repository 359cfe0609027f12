//! Properties of the run-time display that must hold for every array, checked on random ones: `⎕PP←17` round-trips
//! every double, `⍕` gives rows of equal length, `display` (with a ⎕PW wide enough not to fold) is `⍕` with trailing
//! blanks trimmed, and a column of numbers in fixed form lines up its decimal points.

use aplc_runtime::display::{display, format_double, format_to_char_matrix, ArrayData, ArrayView, PrintSettings};
use proptest::prelude::*;

/// A finite double of any magnitude, sign and fraction, from its bits.
fn any_finite_double() -> impl Strategy<Value = f64> {
    any::<u64>()
        .prop_map(f64::from_bits)
        .prop_filter("finite", |value| value.is_finite())
}

/// A shape of rank 0 to 4 with small axes (zero included), and data of that many finite doubles.
fn shape_and_doubles() -> impl Strategy<Value = (Vec<usize>, Vec<f64>)> {
    prop::collection::vec(0usize..4, 0..=4).prop_flat_map(|shape| {
        let count = shape.iter().product::<usize>();
        let element = prop_oneof![any_finite_double(), (-1000i32..1000).prop_map(f64::from)];
        (Just(shape), prop::collection::vec(element, count))
    })
}

/// A number with at most five digits and at most three of them after the point, such as `¯12.5` or `0.007`: always
/// in fixed form at `⎕PP←10`.
fn short_decimal() -> impl Strategy<Value = f64> {
    (-99_999i32..99_999, 0i32..4).prop_map(|(digits, decimals)| f64::from(digits) / 10f64.powi(decimals))
}

/// Where the decimal point of the number in `row` is: just after its last digit when it has no point.
fn point_position(row: &[char]) -> usize {
    let after_last_digit = || row.iter().rposition(|&c| c != ' ').map_or(0, |last| last + 1);
    row.iter().position(|&c| c == '.').unwrap_or_else(after_last_digit)
}

proptest! {
    #[test]
    fn print_precision_seventeen_reads_back_as_the_same_double(value in any_finite_double()) {
        let text = format_double(value, 17).replace('¯', "-");
        let read_back: f64 = text.parse().expect("format_double writes a number Rust can read");
        prop_assert_eq!(read_back, value, "{} does not read back", text);
    }

    #[test]
    fn format_double_never_has_more_significant_digits_than_asked(
        value in any_finite_double(),
        precision in 1u32..=17,
    ) {
        let text = format_double(value, precision);
        let mantissa = text.split('E').next().expect("split yields at least one piece");
        let digits = mantissa.chars().filter(char::is_ascii_digit).skip_while(|&digit| digit == '0').count();
        let integral_fixed_form = !text.contains('E') && !text.contains('.');
        // An integral number in fixed form may end in zeros that are not significant.
        prop_assert!(digits <= precision as usize || integral_fixed_form, "{} has over {} digits", text, precision);
    }

    #[test]
    fn format_gives_rows_of_equal_length_and_display_trims_them((shape, data) in shape_and_doubles()) {
        let array = ArrayView { shape: &shape, data: ArrayData::Double(&data) };
        let rows = format_to_char_matrix(&array, 10);
        let widest = PrintSettings { precision: 10, width: *PrintSettings::WIDTHS.end() };
        let lines = display(&array, widest);
        prop_assert_eq!(rows.len(), lines.len());
        if let Some(first) = rows.first() {
            prop_assert!(rows.iter().all(|row| row.len() == first.len()), "rows of different lengths: {:?}", rows);
        }
        for (row, line) in rows.iter().zip(&lines) {
            let row: String = row.iter().collect();
            prop_assert_eq!(row.trim_end_matches(' '), line.as_str());
        }
    }

    #[test]
    fn a_column_in_fixed_form_lines_up_its_decimal_points(
        data in prop::collection::vec(short_decimal(), 1..6)
    ) {
        let shape = [data.len(), 1];
        let rows = format_to_char_matrix(&ArrayView { shape: &shape, data: ArrayData::Double(&data) }, 10);
        let point_positions: Vec<usize> = rows.iter().map(|row| point_position(row)).collect();
        prop_assert!(point_positions.iter().all(|&position| position == point_positions[0]), "{:?}", rows);
    }
}

//! The display of arrays as Dyalog APL prints them, and monadic format (`⍕`), which gives the same text as a
//! character matrix. Pure: it only builds strings, from raw buffers, so the interpreters and the compiled code's
//! run-time library all share it.
//!
//! Layout rules (`⎕IO←1`; numbers are written by [`crate::number_format`]):
//! - A scalar is one line. A vector is one line: numbers separated by one blank (each written on its own, so
//!   `1 2.5 ¯3` stays `1 2.5 ¯3`), characters side by side. An empty vector is one empty line.
//! - An array of rank two or more is shown as a matrix of rows (all leading axes) by columns (the last axis), cut
//!   into planes: between planes of a rank-3 array there is one blank line, between the groups of planes of a rank-4
//!   array two, and so on (one more per axis).
//! - Numeric columns are formatted separately and placed one blank apart. Within a column, integers are
//!   right-aligned and doubles line up on their decimal points (`3 1⍴1.5 10 2.25` gives ` 1.5`, `10`, ` 2.25`), which
//!   also right-aligns the integral ones; a scaled number lines up on the point of its mantissa. Columns stay aligned
//!   across planes, as Dyalog formats the whole array at once.
//! - A column of doubles in which one number needs scaled form shows all its numbers in scaled form (`2 1⍴1E20 3`
//!   gives `1E20` and `3E0`), as APL2 and, to the best of our knowledge, Dyalog do; the points of the mantissas line
//!   up, the exponents follow directly. A vector is formatted element by element (`1E20 3` stays `1E20 3`). Complex
//!   columns do not switch as a whole.
//! - Complex columns line up the decimal points of the real parts; the `J` and imaginary part follow the real part
//!   directly (left-aligned), and a number with a zero imaginary part is written as a real.
//! - Integers are 64 bits here, but Dyalog's are at most 32: it holds a larger integer as a double, and an array
//!   with one such element as an array of doubles. So an integer array with an element beyond the 32-bit range is
//!   shown as the doubles Dyalog would hold (`+/⍳1000000` is `5.000005E11` at `⎕PP←10`; `2*31` is `2147483648`).
//! - Character arrays are shown as they are, with no blanks between columns.
//! - An array of rank two or more with no rows prints no lines (`0 3⍴0`); one with rows but no columns prints one
//!   empty line per row (`3 0⍴0` prints three).
//! - [`display`] trims trailing blanks from every line (so a line of blanks becomes empty); [`format_to_char_matrix`]
//!   keeps them, so that every row has the same length.
//! - [`display`] folds a vector's line longer than `⎕PW` (80 by default) as Dyalog does: the first line holds as
//!   much as fits in ⎕PW characters and each continuation line starts with six blanks and holds as much again
//!   within ⎕PW; numbers are never cut (a line breaks at the blank between two), characters are cut anywhere
//!   (`⍳40` prints 1 to 30, then `      31 32 ... 40`). Matrices are not folded (their rows may be longer than ⎕PW).

use crate::number_format::{format_integer, split_double, split_double_scaled, SplitNumber};

pub use crate::number_format::format_double;

/// The elements of an array in row-major (ravel) order, by element type.
#[derive(Clone, Copy, Debug)]
pub enum ArrayData<'a> {
    Bool(&'a [bool]),
    Int(&'a [i64]),
    Double(&'a [f64]),
    Char(&'a [char]),
    /// Complex numbers as (real part, imaginary part).
    Complex(&'a [(f64, f64)]),
}

/// An array as the run-time library sees it: a shape and the ravel of its elements. The number of elements must be
/// the product of the shape (a scalar has an empty shape and one element).
#[derive(Clone, Copy, Debug)]
pub struct ArrayView<'a> {
    pub shape: &'a [usize],
    pub data: ArrayData<'a>,
}

/// `⎕PP` and `⎕PW`, the system variables that shape a display. A print operation carries both as one integer, its
/// print code: ⎕PP plus 100 × ⎕PW, where ⎕PW's default, 80, adds nothing; so the code of a program that leaves ⎕PW
/// alone is its ⎕PP (`print(10)` in the IR dumps), and `⎕PW←120` with ⎕PP 10 gives 12010.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrintSettings {
    /// `⎕PP`: the significant digits of a double, 1 to 17.
    pub precision: u32,
    /// `⎕PW`: the longest line, in characters, of a folded vector: [`PrintSettings::WIDTHS`].
    pub width: usize,
}

impl PrintSettings {
    /// Dyalog's default `⎕PW`.
    pub const DEFAULT_WIDTH: usize = 80;
    /// The values `⎕PW` may take, as in Dyalog.
    pub const WIDTHS: std::ops::RangeInclusive<usize> = 42..=32767;
    const WIDTH_SCALE: i64 = 100;

    /// The given `⎕PP` with the default `⎕PW`.
    pub fn with_precision(precision: u32) -> PrintSettings {
        PrintSettings {
            precision,
            width: Self::DEFAULT_WIDTH,
        }
    }

    /// The print code of these settings (see the type's documentation).
    pub fn code(self) -> i64 {
        let width = if self.width == Self::DEFAULT_WIDTH {
            0
        } else {
            self.width as i64
        };
        i64::from(self.precision) + Self::WIDTH_SCALE * width
    }

    /// The settings a print code stands for, or what is wrong with it.
    pub fn from_code(code: i64) -> Result<PrintSettings, String> {
        let precision = code.rem_euclid(Self::WIDTH_SCALE);
        let width = match code.div_euclid(Self::WIDTH_SCALE) {
            0 => Self::DEFAULT_WIDTH,
            width => usize::try_from(width).unwrap_or(0),
        };
        if !(1..=17).contains(&precision) || !Self::WIDTHS.contains(&width) {
            return Err(format!(
                "print code {code}: ⎕PP {precision} or ⎕PW {width} out of range"
            ));
        }
        Ok(PrintSettings {
            precision: precision as u32,
            width,
        })
    }
}

/// The lines Dyalog prints for this array (no trailing newline in any line; trailing blanks trimmed; a vector's
/// line longer than ⎕PW folded).
///
/// Panics if the number of elements is not the product of the shape, which is a bug in the caller.
pub fn display(array: &ArrayView<'_>, settings: PrintSettings) -> Vec<String> {
    let lines: Vec<String> = layout_lines(array, settings.precision)
        .into_iter()
        .map(|line| line.trim_end_matches(' ').to_string())
        .collect();
    match (array.shape.len(), &lines[..]) {
        (1, [line]) if line.chars().count() > settings.width => match array.data {
            ArrayData::Char(_) => fold_characters(line, settings.width),
            _ => fold_at_blanks(line, settings.width),
        },
        _ => lines,
    }
}

/// The blanks that start each continuation line of a folded vector.
const CONTINUATION_INDENT: &str = "      ";

/// A character vector's line cut into lines of at most `width` characters, continuation lines indented.
fn fold_characters(line: &str, width: usize) -> Vec<String> {
    let characters: Vec<char> = line.chars().collect();
    let first = characters.len().min(width);
    let mut lines = vec![characters[..first].iter().collect::<String>()];
    let rest_width = width - CONTINUATION_INDENT.len();
    for piece in characters[first..].chunks(rest_width) {
        lines.push(format!("{CONTINUATION_INDENT}{}", piece.iter().collect::<String>()));
    }
    lines
}

/// A numeric vector's line (numbers one blank apart) folded between numbers into lines of at most `width`
/// characters (a number longer than a line stands alone), continuation lines indented.
fn fold_at_blanks(line: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut current = String::new();
    let mut current_length = 0;
    for number in line.split(' ') {
        let length = number.chars().count();
        if current_length > 0 && current_length + 1 + length <= width {
            current.push(' ');
            current.push_str(number);
            current_length += 1 + length;
            continue;
        }
        if current_length > 0 {
            lines.push(std::mem::take(&mut current));
            current.push_str(CONTINUATION_INDENT);
        }
        current.push_str(number);
        current_length = current.chars().count();
    }
    lines.push(current);
    lines
}

/// `⍕array`: the rows of the character matrix Dyalog's monadic format gives, all of the same length. A scalar or
/// vector gives one row (the caller turns it back into a vector); a character scalar, vector or matrix gives itself.
/// For rank three and above this is the matrix of [`display`]'s lines, blank lines between planes included.
///
/// Panics if the number of elements is not the product of the shape, which is a bug in the caller.
pub fn format_to_char_matrix(array: &ArrayView<'_>, print_precision: u32) -> Vec<Vec<char>> {
    layout_lines(array, print_precision)
        .into_iter()
        .map(|line| line.chars().collect())
        .collect()
}

/// Where a piece of a cell sits within the width its column gives that piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Alignment {
    Left,
    Right,
}

/// The lines of the display before trailing blanks are trimmed: one line for a scalar or vector, and lines of equal
/// length (in characters) for a higher-rank array.
fn layout_lines(array: &ArrayView<'_>, print_precision: u32) -> Vec<String> {
    if let ArrayData::Int(elements) = array.data {
        if elements.iter().any(|&element| i32::try_from(element).is_err()) {
            let doubles: Vec<f64> = elements.iter().map(|&element| element as f64).collect();
            let as_doubles = ArrayView {
                shape: array.shape,
                data: ArrayData::Double(&doubles),
            };
            return layout_lines(&as_doubles, print_precision);
        }
    }
    let element_count = element_count(&array.data);
    assert_eq!(
        element_count,
        array.shape.iter().product::<usize>(),
        "array data does not match its shape {:?}",
        array.shape
    );
    if array.shape.len() <= 1 {
        let pieces: Vec<String> = (0..element_count)
            .map(|index| cell_pieces(&array.data, index, print_precision).concat())
            .collect();
        return vec![pieces.join(column_separator(&array.data))];
    }
    let (row_axes, column_count) = (
        &array.shape[..array.shape.len() - 1],
        array.shape[array.shape.len() - 1],
    );
    let row_count: usize = row_axes.iter().product();
    let columns: Vec<Vec<String>> = (0..column_count)
        .map(|column| layout_column(&array.data, row_count, column_count, column, print_precision))
        .collect();
    let width = columns
        .iter()
        .map(|cells| cells.first().map_or(0, |cell| cell.chars().count()))
        .sum::<usize>()
        + column_separator(&array.data).len() * column_count.saturating_sub(1);
    let mut lines = Vec::new();
    for row in 0..row_count {
        let blank_line_count = blank_lines_before_row(row_axes, row);
        lines.extend(std::iter::repeat_n(" ".repeat(width), blank_line_count));
        let cells: Vec<&str> = columns.iter().map(|cells| cells[row].as_str()).collect();
        lines.push(cells.join(column_separator(&array.data)));
    }
    lines
}

fn element_count(data: &ArrayData<'_>) -> usize {
    match data {
        ArrayData::Bool(elements) => elements.len(),
        ArrayData::Int(elements) => elements.len(),
        ArrayData::Double(elements) => elements.len(),
        ArrayData::Char(elements) => elements.len(),
        ArrayData::Complex(elements) => elements.len(),
    }
}

/// Numbers are kept apart by a blank; characters touch.
fn column_separator(data: &ArrayData<'_>) -> &'static str {
    match data {
        ArrayData::Char(_) => "",
        _ => " ",
    }
}

/// How the pieces of [`cell_pieces`] align within a column, piece by piece.
fn piece_alignments(data: &ArrayData<'_>) -> &'static [Alignment] {
    match data {
        ArrayData::Bool(_) | ArrayData::Int(_) => &[Alignment::Right],
        ArrayData::Char(_) => &[Alignment::Left],
        ArrayData::Double(_) | ArrayData::Complex(_) => &[Alignment::Right, Alignment::Left],
    }
}

/// One element written as the pieces a column aligns separately: the text of a boolean, integer or character; for
/// a double or complex number, the digits before the decimal point and everything after them (the `J` and imaginary
/// part of a complex number included), so that right-aligning the first piece lines up the points.
fn cell_pieces(data: &ArrayData<'_>, index: usize, print_precision: u32) -> Vec<String> {
    match data {
        ArrayData::Bool(elements) => vec![u8::from(elements[index]).to_string()],
        ArrayData::Int(elements) => vec![format_integer(elements[index])],
        ArrayData::Char(elements) => vec![elements[index].to_string()],
        ArrayData::Double(elements) => {
            let SplitNumber { whole, rest } = split_double(elements[index], print_precision);
            vec![whole, rest]
        }
        ArrayData::Complex(elements) => {
            let (real, imaginary) = elements[index];
            let SplitNumber { whole, rest } = split_double(real, print_precision);
            let imaginary_part = if imaginary == 0.0 {
                String::new()
            } else {
                format!("J{}", split_double(imaginary, print_precision).joined())
            };
            vec![whole, format!("{rest}{imaginary_part}")]
        }
    }
}

/// The cells of one column of the array seen as a `row_count` by `column_count` matrix, padded to a common width
/// with each piece aligned as [`piece_alignments`] says.
fn layout_column(
    data: &ArrayData<'_>,
    row_count: usize,
    column_count: usize,
    column: usize,
    print_precision: u32,
) -> Vec<String> {
    let indices = (0..row_count).map(|row| row * column_count + column);
    let mut cells: Vec<Vec<String>> = indices
        .clone()
        .map(|index| cell_pieces(data, index, print_precision))
        .collect();
    if let ArrayData::Double(elements) = data {
        if cells.iter().any(|pieces| pieces[1].contains('E')) {
            cells = indices
                .map(|index| {
                    let SplitNumber { whole, rest } = split_double_scaled(elements[index], print_precision);
                    vec![whole, rest]
                })
                .collect();
        }
    }
    let alignments = piece_alignments(data);
    let piece_widths: Vec<usize> = (0..alignments.len())
        .map(|piece| {
            cells
                .iter()
                .map(|pieces| pieces[piece].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    cells
        .iter()
        .map(|pieces| {
            pieces
                .iter()
                .zip(alignments.iter().zip(&piece_widths))
                .map(|(piece, (alignment, &width))| pad(piece, *alignment, width))
                .collect()
        })
        .collect()
}

/// `text` padded with blanks to `width` characters on the side `alignment` leaves free.
fn pad(text: &str, alignment: Alignment, width: usize) -> String {
    let padding = " ".repeat(width.saturating_sub(text.chars().count()));
    match alignment {
        Alignment::Left => format!("{text}{padding}"),
        Alignment::Right => format!("{padding}{text}"),
    }
}

/// How many blank lines precede row `row` of the rows formed by the leading axes `row_axes` (all axes but the last):
/// one for each axis before the last leading axis whose index changes at this row, so one between the planes of a
/// rank-3 array and two between the groups of planes of a rank-4 array.
fn blank_lines_before_row(row_axes: &[usize], row: usize) -> usize {
    if row == 0 {
        return 0;
    }
    let mut rows_per_block = 1;
    let mut blank_line_count = 0;
    // Walk outwards from the last leading axis: a block of that axis is a plane, the next a group of planes, ...
    for &axis_length in row_axes.iter().rev().take(row_axes.len() - 1) {
        rows_per_block *= axis_length;
        if row.is_multiple_of(rows_per_block) {
            blank_line_count += 1;
        }
    }
    blank_line_count
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines of `display` at the default print precision, `⎕PP←10`.
    fn lines(shape: &[usize], data: ArrayData<'_>) -> Vec<String> {
        display(&ArrayView { shape, data }, PrintSettings::with_precision(10))
    }

    #[test]
    fn print_codes_carry_precision_and_width() {
        let default = PrintSettings::with_precision(10);
        assert_eq!(default.code(), 10);
        let wide = PrintSettings {
            precision: 17,
            width: 120,
        };
        assert_eq!(wide.code(), 12017);
        assert_eq!(PrintSettings::from_code(12017), Ok(wide));
        assert_eq!(PrintSettings::from_code(10), Ok(default));
        assert!(PrintSettings::from_code(18).is_err());
        assert!(PrintSettings::from_code(4110).is_err()); // ⎕PW 41
        assert!(PrintSettings::from_code(-5).is_err());
    }

    #[test]
    fn long_vectors_fold_at_the_print_width() {
        let settings = PrintSettings {
            precision: 10,
            width: 42,
        };
        let numbers: Vec<i64> = (1..=22).collect();
        let folded = display(
            &ArrayView {
                shape: &[22],
                data: ArrayData::Int(&numbers),
            },
            settings,
        );
        // 1..17 is 9×2 + 8×3 - 1 = 41 characters; " 18" would make 44.
        assert_eq!(
            folded,
            ["1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17", "      18 19 20 21 22"]
        );
        let letters: Vec<char> = "abcdefghij".chars().cycle().take(90).collect();
        let folded = display(
            &ArrayView {
                shape: &[90],
                data: ArrayData::Char(&letters),
            },
            settings,
        );
        assert_eq!(folded.len(), 3);
        assert_eq!(folded[0].chars().count(), 42);
        assert_eq!(
            folded[1],
            format!("      {}", letters[42..78].iter().collect::<String>())
        );
        assert_eq!(folded[2], format!("      {}", letters[78..].iter().collect::<String>()));
        // A matrix is not folded; a short vector is one line.
        let matrix = display(
            &ArrayView {
                shape: &[1, 22],
                data: ArrayData::Int(&numbers),
            },
            settings,
        );
        assert_eq!(matrix.len(), 1);
        assert_eq!(lines(&[3], ArrayData::Int(&numbers[..3])), ["1 2 3"]);
    }

    /// The rows of `format_to_char_matrix` at `⎕PP←10`, as strings so that padding is visible in the assertion.
    fn formatted(shape: &[usize], data: ArrayData<'_>) -> Vec<String> {
        format_to_char_matrix(&ArrayView { shape, data }, 10)
            .into_iter()
            .map(|row| row.into_iter().collect())
            .collect()
    }

    #[test]
    fn scalars_are_one_line() {
        // ⍝ 42
        assert_eq!(lines(&[], ArrayData::Int(&[42])), ["42"]);
        // ⍝ ¯7
        assert_eq!(lines(&[], ArrayData::Int(&[-7])), ["¯7"]);
        // ⍝ 1÷3
        assert_eq!(lines(&[], ArrayData::Double(&[1.0 / 3.0])), ["0.3333333333"]);
        // ⍝ 1=1
        assert_eq!(lines(&[], ArrayData::Bool(&[true])), ["1"]);
        // ⍝ 'a'
        assert_eq!(lines(&[], ArrayData::Char(&['a'])), ["a"]);
        // ⍝ ¯1J¯2.5
        assert_eq!(lines(&[], ArrayData::Complex(&[(-1.0, -2.5)])), ["¯1J¯2.5"]);
    }

    #[test]
    fn numeric_vectors_separate_elements_by_one_blank() {
        // ⍝ ⍳5
        assert_eq!(lines(&[5], ArrayData::Int(&[1, 2, 3, 4, 5])), ["1 2 3 4 5"]);
        // ⍝ ¯1.5 × ⍳3
        assert_eq!(lines(&[3], ArrayData::Double(&[-1.5, -3.0, -4.5])), ["¯1.5 ¯3 ¯4.5"]);
        // ⍝ 1 0 1 0 (a boolean vector)
        assert_eq!(lines(&[4], ArrayData::Bool(&[true, false, true, false])), ["1 0 1 0"]);
        // ⍝ ÷1 3 4 (each element written on its own)
        assert_eq!(
            lines(&[3], ArrayData::Double(&[1.0, 1.0 / 3.0, 0.25])),
            ["1 0.3333333333 0.25"]
        );
        // ⍝ 1E15 1 0.00001
        assert_eq!(lines(&[3], ArrayData::Double(&[1e15, 1.0, 0.00001])), ["1E15 1 1E¯5"]);
        // ⍝ 2J3 0J1 3
        assert_eq!(
            lines(&[3], ArrayData::Complex(&[(2.0, 3.0), (0.0, 1.0), (3.0, 0.0)])),
            ["2J3 0J1 3"]
        );
    }

    #[test]
    fn empty_vectors_are_one_empty_line() {
        // ⍝ ⍬
        assert_eq!(lines(&[0], ArrayData::Int(&[])), [""]);
        // ⍝ ''
        assert_eq!(lines(&[0], ArrayData::Char(&[])), [""]);
        // ⍝ 0⍴0.5
        assert_eq!(lines(&[0], ArrayData::Double(&[])), [""]);
    }

    #[test]
    fn character_vectors_are_the_text() {
        // ⍝ 'hello, world'
        let text: Vec<char> = "hello, world".chars().collect();
        assert_eq!(lines(&[text.len()], ArrayData::Char(&text)), ["hello, world"]);
        // ⍝ 'a⍴b¯' (APL glyphs are single characters)
        assert_eq!(lines(&[4], ArrayData::Char(&['a', '⍴', 'b', '¯'])), ["a⍴b¯"]);
    }

    #[test]
    fn integer_matrices_right_align_each_column() {
        // ⍝ 2 2⍴⍳4
        assert_eq!(lines(&[2, 2], ArrayData::Int(&[1, 2, 3, 4])), ["1 2", "3 4"]);
        // ⍝ 2 2⍴1 10 100 1000
        assert_eq!(
            lines(&[2, 2], ArrayData::Int(&[1, 10, 100, 1000])),
            ["  1   10", "100 1000"]
        );
        // ⍝ 2 3⍴1 ¯20 3 ¯4 5 600 (negatives right-align too)
        assert_eq!(
            lines(&[2, 3], ArrayData::Int(&[1, -20, 3, -4, 5, 600])),
            [" 1 ¯20   3", "¯4   5 600"]
        );
        // ⍝ 2 3⍴1 0 0 1 1 0 (booleans)
        assert_eq!(
            lines(&[2, 3], ArrayData::Bool(&[true, false, false, true, true, false])),
            ["1 0 0", "1 1 0"]
        );
    }

    #[test]
    fn fractional_columns_align_their_decimal_points() {
        // ⍝ 3 1⍴1.5 10 2.25 (trailing blanks trimmed: ` 1.5 `, `10   `, ` 2.25`)
        assert_eq!(
            lines(&[3, 1], ArrayData::Double(&[1.5, 10.0, 2.25])),
            [" 1.5", "10", " 2.25"]
        );
        // ⍝ 2 2⍴1.5 2 3 4.25
        assert_eq!(
            lines(&[2, 2], ArrayData::Double(&[1.5, 2.0, 3.0, 4.25])),
            ["1.5 2", "3   4.25"]
        );
        // ⍝ 2 2⍴¯1.5 100 0.25 ¯3
        assert_eq!(
            lines(&[2, 2], ArrayData::Double(&[-1.5, 100.0, 0.25, -3.0])),
            ["¯1.5  100", " 0.25  ¯3"]
        );
        // ⍝ 2 2⍴÷⍳4
        assert_eq!(
            lines(&[2, 2], ArrayData::Double(&[1.0, 0.5, 1.0 / 3.0, 0.25])),
            ["1            0.5", "0.3333333333 0.25"]
        );
    }

    #[test]
    fn a_scaled_number_puts_its_whole_column_in_scaled_form() {
        // ⍝ 2 1⍴1.5E¯7 10 (the mantissas line up on their points)
        assert_eq!(lines(&[2, 1], ArrayData::Double(&[1.5e-7, 10.0])), ["1.5E¯7", "1E1"]);
        // ⍝ 2 2⍴1 1E20 ¯3 0 (only the second column switches)
        assert_eq!(
            lines(&[2, 2], ArrayData::Double(&[1.0, 1e20, -3.0, 0.0])),
            [" 1 1E20", "¯3 0E0"]
        );
        // ⍝ 3 1⍴¯2.5E¯10 12 0.5
        assert_eq!(
            lines(&[3, 1], ArrayData::Double(&[-2.5e-10, 12.0, 0.5])),
            ["¯2.5E¯10", " 1.2E1", " 5E¯1"]
        );
    }

    #[test]
    fn integral_double_columns_right_align() {
        // ⍝ 2 2⍴1 10 100 1000×1.0 (doubles with integral values look like integers)
        assert_eq!(
            lines(&[2, 2], ArrayData::Double(&[1.0, 10.0, 100.0, 1000.0])),
            ["  1   10", "100 1000"]
        );
    }

    #[test]
    fn complex_columns_align_the_real_parts() {
        // ⍝ 2 2⍴1J2 3 10.5J¯1 0J1
        assert_eq!(
            lines(
                &[2, 2],
                ArrayData::Complex(&[(1.0, 2.0), (3.0, 0.0), (10.5, -1.0), (0.0, 1.0)])
            ),
            [" 1J2    3", "10.5J¯1 0J1"]
        );
    }

    #[test]
    fn character_matrices_are_one_line_per_row() {
        // ⍝ 2 3⍴'abcdef'
        assert_eq!(
            lines(&[2, 3], ArrayData::Char(&['a', 'b', 'c', 'd', 'e', 'f'])),
            ["abc", "def"]
        );
        // ⍝ 2 3⍴'ab  cd' (trailing blanks are trimmed; leading ones stay)
        assert_eq!(
            lines(&[2, 3], ArrayData::Char(&['a', 'b', ' ', ' ', 'c', 'd'])),
            ["ab", " cd"]
        );
    }

    #[test]
    fn rank_three_planes_are_separated_by_one_blank_line() {
        // ⍝ 2 2 2⍴⍳8
        assert_eq!(
            lines(&[2, 2, 2], ArrayData::Int(&[1, 2, 3, 4, 5, 6, 7, 8])),
            ["1 2", "3 4", "", "5 6", "7 8"]
        );
        // ⍝ 2 1 2⍴1 2 30 4 (columns align across planes)
        assert_eq!(lines(&[2, 1, 2], ArrayData::Int(&[1, 2, 30, 4])), [" 1 2", "", "30 4"]);
        // ⍝ 2 2 2⍴'abcdefgh'
        let letters: Vec<char> = "abcdefgh".chars().collect();
        assert_eq!(
            lines(&[2, 2, 2], ArrayData::Char(&letters)),
            ["ab", "cd", "", "ef", "gh"]
        );
    }

    #[test]
    fn rank_four_groups_of_planes_are_separated_by_two_blank_lines() {
        // ⍝ 2 2 1 2⍴⍳8
        assert_eq!(
            lines(&[2, 2, 1, 2], ArrayData::Int(&[1, 2, 3, 4, 5, 6, 7, 8])),
            ["1 2", "", "3 4", "", "", "5 6", "", "7 8"]
        );
    }

    #[test]
    fn empty_higher_rank_arrays() {
        // ⍝ 0 3⍴0 prints nothing
        assert_eq!(lines(&[0, 3], ArrayData::Int(&[])), Vec::<String>::new());
        // ⍝ 3 0⍴0 prints three empty lines
        assert_eq!(lines(&[3, 0], ArrayData::Int(&[])), ["", "", ""]);
        // ⍝ 2 0 3⍴0 prints nothing
        assert_eq!(lines(&[2, 0, 3], ArrayData::Int(&[])), Vec::<String>::new());
        // ⍝ 2 1 0⍴0 prints two planes of one empty row
        assert_eq!(lines(&[2, 1, 0], ArrayData::Int(&[])), ["", "", ""]);
    }

    #[test]
    fn print_precision_reaches_every_element() {
        let array = ArrayView {
            shape: &[2],
            data: ArrayData::Double(&[1.0 / 3.0, 2.0 / 3.0]),
        };
        // ⍝ ⎕PP←3 ⋄ ÷3 1.5
        assert_eq!(display(&array, PrintSettings::with_precision(3)), ["0.333 0.667"]);
        // ⍝ ⎕PP←17 ⋄ ÷3 1.5
        assert_eq!(
            display(&array, PrintSettings::with_precision(17)),
            ["0.33333333333333331 0.66666666666666663"]
        );
    }

    #[test]
    fn format_of_scalars_and_vectors_is_one_row() {
        // ⍝ ⍕42
        assert_eq!(formatted(&[], ArrayData::Int(&[42])), ["42"]);
        // ⍝ ⍕1 ¯2.5 3
        assert_eq!(formatted(&[3], ArrayData::Double(&[1.0, -2.5, 3.0])), ["1 ¯2.5 3"]);
        // ⍝ ⍕⍬ (one row of no characters)
        assert_eq!(formatted(&[0], ArrayData::Int(&[])), [""]);
        // ⍝ ⍕'abc'
        assert_eq!(formatted(&[3], ArrayData::Char(&['a', 'b', 'c'])), ["abc"]);
    }

    #[test]
    fn format_of_matrices_keeps_the_padding() {
        // ⍝ ⍕3 1⍴1.5 10 2.25
        assert_eq!(
            formatted(&[3, 1], ArrayData::Double(&[1.5, 10.0, 2.25])),
            [" 1.5 ", "10   ", " 2.25"]
        );
        // ⍝ ⍕2 2⍴¯1 2 3 ¯40
        assert_eq!(
            formatted(&[2, 2], ArrayData::Int(&[-1, 2, 3, -40])),
            ["¯1   2", " 3 ¯40"]
        );
        // ⍝ ⍕2 3⍴'ab  cd' (a character matrix is itself)
        assert_eq!(
            formatted(&[2, 3], ArrayData::Char(&['a', 'b', ' ', ' ', 'c', 'd'])),
            ["ab ", " cd"]
        );
        // ⍝ ⍕3 0⍴0
        assert_eq!(formatted(&[3, 0], ArrayData::Int(&[])), ["", "", ""]);
    }

    #[test]
    fn format_of_rank_three_pads_the_blank_lines() {
        // ⍝ ⍕2 1 2⍴1 2 30 4
        assert_eq!(
            formatted(&[2, 1, 2], ArrayData::Int(&[1, 2, 30, 4])),
            [" 1 2", "    ", "30 4"]
        );
    }

    #[test]
    fn format_double_is_reexported() {
        // ⍝ 1E¯5
        assert_eq!(format_double(0.00001, 10), "1E¯5");
    }
}

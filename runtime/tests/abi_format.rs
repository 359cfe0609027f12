//! `⍕` from raw ABI arguments: the text `aplrt_format` allocates, with its extents, checked against Dyalog's display
//! worked out by hand.

use aplc_runtime::abi::{aplrt_format, aplrt_free, format_from_raw_parts, ElementKind};

/// Calls the real entry point and reads the allocated text back (then frees it, as compiled code does).
fn formatted(
    kind: ElementKind,
    shape: &[i64],
    data: *const u8,
    print_precision: i32,
    matrix: bool,
) -> (Vec<i64>, String) {
    let mut extents = [-1i64; 2];
    let rank = shape.len() as i64;
    let text = unsafe {
        aplrt_format(
            kind.code(),
            rank,
            shape.as_ptr(),
            data,
            print_precision,
            i32::from(matrix),
            extents.as_mut_ptr(),
        )
    };
    let axes = if matrix { 2 } else { 1 };
    let extents = extents[..axes].to_vec();
    let count: i64 = extents.iter().product();
    let characters: String = (0..count as usize)
        .map(|index| char::from_u32(unsafe { text.cast::<u32>().add(index).read() }).expect("a code point"))
        .collect();
    unsafe { aplrt_free(text, count * 4) };
    (extents, characters)
}

#[test]
fn a_vector_formats_as_its_one_display_line() {
    let data = [1i64, -22, 333];
    assert_eq!(
        formatted(ElementKind::Int, &[3], data.as_ptr().cast(), 10, false),
        (vec![9], "1 ¯22 333".to_string())
    );
}

#[test]
fn a_scalar_double_follows_the_print_precision() {
    let data = [2.0f64 / 3.0];
    // ⎕PP←4: 0.6667; a null shape pointer is allowed for a scalar.
    let mut extents = [0i64; 1];
    let text = unsafe {
        aplrt_format(
            ElementKind::Double.code(),
            0,
            std::ptr::null(),
            data.as_ptr().cast(),
            4,
            0,
            extents.as_mut_ptr(),
        )
    };
    assert_eq!(extents, [6]);
    let characters: String = (0..6)
        .map(|index| char::from_u32(unsafe { text.cast::<u32>().add(index).read() }).unwrap())
        .collect();
    assert_eq!(characters, "0.6667");
    unsafe { aplrt_free(text, 24) };
}

#[test]
fn a_matrix_formats_as_rows_with_right_aligned_columns() {
    let data = [1i64, 10, 100, 5];
    assert_eq!(
        formatted(ElementKind::Int, &[2, 2], data.as_ptr().cast(), 10, true),
        (vec![2, 6], "  1 10100  5".to_string())
    );
}

#[test]
fn complex_numbers_format_with_j() {
    let data = [1.0f64, -2.0, 0.5, 0.0];
    assert_eq!(
        formatted(ElementKind::Complex, &[2], data.as_ptr().cast(), 10, false),
        (vec![8], "1J¯2 0.5".to_string())
    );
}

#[test]
fn an_empty_vector_formats_as_no_text() {
    let data: [i64; 0] = [];
    assert_eq!(
        formatted(ElementKind::Int, &[0], data.as_ptr().cast(), 10, false),
        (vec![0], String::new())
    );
}

#[test]
fn arguments_against_the_abi_are_reported() {
    let data = [1i64, 2, 3, 4];
    let format = |kind: i32, shape: &[i64], precision: i32, matrix: bool| unsafe {
        format_from_raw_parts(
            kind,
            shape.len() as i64,
            shape.as_ptr(),
            data.as_ptr().cast(),
            precision,
            matrix,
        )
    };
    assert!(
        format(ElementKind::Int.code(), &[2, 2], 10, false).is_err(),
        "a matrix as one line"
    );
    assert!(
        format(ElementKind::Int.code(), &[4], 10, true).is_err(),
        "a vector as a matrix"
    );
    assert!(
        format(ElementKind::Int.code(), &[4], 0, false).is_err(),
        "print precision 0"
    );
    assert!(format(42, &[4], 10, false).is_err(), "an unknown element kind");
    assert_eq!(
        format(ElementKind::Int.code(), &[4], 10, false),
        Ok((vec![7], "1 2 3 4".chars().collect()))
    );
}

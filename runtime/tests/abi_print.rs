//! Printing arrays from raw ABI arguments, checked against Dyalog's display worked out by hand, and the capture of
//! a thread's program output.

use aplc_runtime::abi::{aplrt_print_array, capture_output_of, display_lines_from_raw_parts, ElementKind};

/// Prints through the real entry point with this thread's output captured, and returns the text.
fn printed_text(kind: ElementKind, shape: &[i64], data: *const u8, print_precision: i32) -> String {
    let ((), bytes) = capture_output_of(|| unsafe {
        aplrt_print_array(kind.code(), shape.len() as i64, shape.as_ptr(), data, print_precision)
    });
    String::from_utf8(bytes).expect("the display is UTF-8")
}

#[test]
fn an_integer_vector_prints_on_one_line_with_high_minus() {
    let data = [1i64, 2, -3];
    assert_eq!(
        printed_text(ElementKind::Int, &[3], data.as_ptr().cast(), 10),
        "1 2 ¯3\n"
    );
}

#[test]
fn an_integer_scalar_with_a_null_shape_prints_itself() {
    let data = [5050i64];
    let ((), bytes) =
        capture_output_of(|| unsafe { aplrt_print_array(1, 0, std::ptr::null(), data.as_ptr().cast(), 10) });
    assert_eq!(String::from_utf8(bytes).unwrap(), "5050\n");
}

#[test]
fn a_boolean_matrix_prints_one_row_per_line_and_any_non_zero_byte_is_one() {
    let data = [1u8, 0, 1, 0, 7, 1];
    assert_eq!(
        printed_text(ElementKind::Bool, &[2, 3], data.as_ptr(), 10),
        "1 0 1\n0 1 1\n"
    );
}

#[test]
fn doubles_follow_the_print_precision() {
    let data = [1.5f64, 2.0, std::f64::consts::PI];
    // ⎕PP←3: π shows three significant digits; 2.0 shows as 2.
    assert_eq!(
        printed_text(ElementKind::Double, &[3], data.as_ptr().cast(), 3),
        "1.5 2 3.14\n"
    );
}

#[test]
fn characters_are_code_points_printed_side_by_side() {
    let data: Vec<u32> = "ab⍴".chars().map(|character| character as u32).collect();
    assert_eq!(printed_text(ElementKind::Char, &[3], data.as_ptr().cast(), 10), "ab⍴\n");
}

#[test]
fn complex_numbers_are_pairs_of_doubles() {
    let data = [1.0f64, 2.0, 3.0, 0.0];
    // 1J2 and 3J0, which prints as a real.
    assert_eq!(
        printed_text(ElementKind::Complex, &[2], data.as_ptr().cast(), 10),
        "1J2 3\n"
    );
}

#[test]
fn an_empty_vector_prints_one_empty_line_and_an_empty_matrix_none() {
    let data: [i64; 0] = [];
    assert_eq!(printed_text(ElementKind::Int, &[0], data.as_ptr().cast(), 10), "\n");
    assert_eq!(printed_text(ElementKind::Int, &[0, 3], data.as_ptr().cast(), 10), "");
}

#[test]
fn unaligned_data_is_read_correctly() {
    // An int64 vector starting one byte into a buffer.
    let mut buffer = [0u8; 1 + 2 * 8];
    buffer[1..9].copy_from_slice(&7i64.to_ne_bytes());
    buffer[9..17].copy_from_slice(&(-8i64).to_ne_bytes());
    let text = printed_text(ElementKind::Int, &[2], unsafe { buffer.as_ptr().add(1) }, 10);
    assert_eq!(text, "7 ¯8\n");
}

#[test]
fn arguments_that_break_the_abi_are_reported_not_printed() {
    let data = [1i64];
    let shape = [1i64];
    let unknown_kind = unsafe { display_lines_from_raw_parts(9, 1, shape.as_ptr(), data.as_ptr().cast(), 10) };
    assert_eq!(unknown_kind, Err("unknown element kind 9".to_string()));
    let negative_length = [-2i64];
    let negative = unsafe { display_lines_from_raw_parts(1, 1, negative_length.as_ptr(), data.as_ptr().cast(), 10) };
    assert_eq!(negative, Err("negative length -2 on axis 0".to_string()));
    let bad_precision = unsafe { display_lines_from_raw_parts(1, 1, shape.as_ptr(), data.as_ptr().cast(), 0) };
    assert_eq!(
        bad_precision,
        Err("print code 0: ⎕PP 0 or ⎕PW 80 out of range".to_string())
    );
    let null_shape = unsafe { display_lines_from_raw_parts(1, 2, std::ptr::null(), data.as_ptr().cast(), 10) };
    assert_eq!(null_shape, Err("null shape pointer for rank 2".to_string()));
}

#[test]
fn captures_nest_and_restore_the_outer_capture() {
    let outer_data = [1i64];
    let inner_data = [2i64];
    let (inner_bytes, outer_bytes) = capture_output_of(|| {
        unsafe { aplrt_print_array(1, 0, std::ptr::null(), outer_data.as_ptr().cast(), 10) };
        let ((), inner_bytes) =
            capture_output_of(|| unsafe { aplrt_print_array(1, 0, std::ptr::null(), inner_data.as_ptr().cast(), 10) });
        unsafe { aplrt_print_array(1, 0, std::ptr::null(), outer_data.as_ptr().cast(), 10) };
        inner_bytes
    });
    assert_eq!(String::from_utf8(inner_bytes).unwrap(), "2\n");
    assert_eq!(String::from_utf8(outer_bytes).unwrap(), "1\n1\n");
}

#[test]
fn element_kind_codes_are_the_documented_abi_numbers() {
    let codes: Vec<(i32, usize)> = ElementKind::ALL
        .iter()
        .map(|kind| (kind.code(), kind.element_size_in_bytes()))
        .collect();
    assert_eq!(codes, vec![(0, 1), (1, 8), (2, 8), (3, 4), (4, 16)]);
    assert_eq!(ElementKind::from_code(5), None);
}

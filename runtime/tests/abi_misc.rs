//! Error kinds and error lines, the roll generator, the clock and file reading.

use aplc_runtime::abi::{
    aplrt_free, aplrt_now_millis, aplrt_read_file, aplrt_roll, bench_report_line, error_line, roll_from_random_bits,
    RollGenerator, RuntimeErrorKind,
};

#[test]
fn error_kind_codes_and_names_are_the_documented_abi() {
    let table: Vec<(i32, &str)> = RuntimeErrorKind::ALL
        .iter()
        .map(|kind| (kind.code(), kind.apl_name()))
        .collect();
    assert_eq!(
        table,
        vec![
            (0, "DOMAIN ERROR"),
            (1, "LENGTH ERROR"),
            (2, "RANK ERROR"),
            (3, "INDEX ERROR"),
            (4, "VALUE ERROR"),
            (5, "SYNTAX ERROR"),
            (6, "LIMIT ERROR"),
            (7, "FILE I/O ERROR"),
            (8, "NONCE ERROR"),
            (9, "WS FULL"),
        ]
    );
    assert_eq!(RuntimeErrorKind::from_code(1), Some(RuntimeErrorKind::Length));
    assert_eq!(RuntimeErrorKind::from_code(10), None);
    assert_eq!(RuntimeErrorKind::from_code(-1), None);
}

#[test]
fn an_error_line_is_the_name_then_the_message() {
    assert_eq!(
        error_line(RuntimeErrorKind::Length, "2 and 3 elements"),
        "LENGTH ERROR: 2 and 3 elements"
    );
    assert_eq!(error_line(RuntimeErrorKind::WorkspaceFull, ""), "WS FULL");
}

#[test]
fn the_generator_is_splitmix64() {
    // The first outputs of SplitMix64 seeded with 0, as published with the reference implementation.
    let mut generator = RollGenerator::with_seed(0);
    assert_eq!(generator.next_u64(), 0xE220_A839_7B1D_CDAF);
    assert_eq!(generator.next_u64(), 0x6E78_9E6A_A1B9_65F4);
}

#[test]
fn random_bits_map_onto_one_to_n() {
    assert_eq!(roll_from_random_bits(0, 6), 1);
    assert_eq!(roll_from_random_bits(u64::MAX, 6), 6);
    // Half of the range maps to the upper half of 1..6.
    assert_eq!(roll_from_random_bits(1 << 63, 6), 4);
    assert_eq!(roll_from_random_bits(u64::MAX, 1), 1);
}

#[test]
fn rolls_stay_in_range_and_reach_every_face() {
    let mut seen = [false; 6];
    for _ in 0..600 {
        let face = aplrt_roll(6);
        assert!((1..=6).contains(&face), "rolled {face}");
        seen[(face - 1) as usize] = true;
    }
    assert!(seen.iter().all(|&face_seen| face_seen), "faces seen: {seen:?}");
}

#[test]
fn a_seeded_generator_repeats_its_sequence() {
    let mut first = RollGenerator::with_seed(42);
    let mut second = RollGenerator::with_seed(42);
    let first_rolls: Vec<i64> = (0..20).map(|_| first.roll(100)).collect();
    let second_rolls: Vec<i64> = (0..20).map(|_| second.roll(100)).collect();
    assert_eq!(first_rolls, second_rolls);
    assert!(first_rolls.iter().all(|roll| (1..=100).contains(roll)));
}

#[test]
fn the_clock_reads_milliseconds_since_1970() {
    let before = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let now = aplrt_now_millis();
    // 2020-01-01 is 1577836800000 ms after the epoch.
    assert!(now >= before && now > 1_577_836_800_000, "{before} then {now}");
}

#[test]
fn reading_a_file_gives_its_bytes_in_an_allocated_block() {
    let path = std::env::temp_dir().join(format!("aplrt_read_file_test_{}.txt", std::process::id()));
    std::fs::write(&path, "⍳5\nline two").unwrap();
    let path_text = path.to_str().unwrap();
    let mut length = -1i64;
    let block = unsafe { aplrt_read_file(path_text.as_ptr(), path_text.len() as i64, &mut length) };
    // "⍳" is three bytes in UTF-8, so the file has 3 + 1 + 1 + 8 = 13 bytes.
    assert_eq!(length, 13);
    assert_eq!(block as usize % 64, 0);
    let contents = unsafe { std::slice::from_raw_parts(block, length as usize) }.to_vec();
    assert_eq!(String::from_utf8(contents).unwrap(), "⍳5\nline two");
    unsafe { aplrt_free(block, length) };
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn bench_reports_name_the_iterations_the_time_and_the_time_per_iteration() {
    assert_eq!(
        bench_report_line(8, 100),
        "⎕BENCH: 8 iterations in 100 ms (12.500 ms each)"
    );
    // No division by zero for an empty loop.
    assert_eq!(bench_report_line(0, 3), "⎕BENCH: 0 iterations in 3 ms");
}

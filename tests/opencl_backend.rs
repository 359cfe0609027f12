//! The OpenCL backend through the `aplc` binary: `aplc run --backend opencl`, `aplc build --gpu` and
//! `aplc dump --stage opencl`, as a user meets them.
//!
//! - A Life `⍣` keeps its board on the device: the copies to the host do not grow with the number of steps.
//! - A signal-style map and reduction is one kernel, with no copy back but the partial results.
//! - A double sum on the device folds each chunk in 256 lanes combined as a tree, whatever the work-group size, and
//!   a row's sum gives the same bits from a kernel per row as from a work-item per row.
//! - A construct of little work on an array a kernel wrote runs on the device rather than copy the array back.
//! - Index arithmetic in 32 bits gives the 64-bit results, at the edges of the range where it is chosen.
//! - `APLC_OPENCL_SOURCE` replaces the program's kernels (a developer's aid), and names a readable file or fails.
//! - Built programs are cached on disk per device and source; a damaged entry is built again from source.
//! - An APL error raised inside a kernel is reported as on the CPU (name, message, line and column, status 1).
//! - `aplc build --gpu` makes an executable that prints what jit prints, and its statistics line names the device.
//! - A device that `APLC_DEVICE` does not name: `OPENCL ERROR`, status 3, for a program that launches a kernel; an
//!   executable whose constructs all stay on the host runs.
//! - A construct a kernel cannot express stays on the host, the dump says which and why, and the program runs right.
//!
//! Without an OpenCL device (`opencl_device_available()` is `Err`), every test that needs one says so on standard
//! error (`skipped: no OpenCL device: <reason>`) and passes. Expected values are worked out by hand in the comments;
//! jit's output is compared as a second check.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The exit status of a program that cannot run for want of an OpenCL device (`runtime/src/opencl.rs`).
const EXIT_NO_OPENCL_DEVICE: i32 = 3;
const EXIT_PROGRAM_ERROR: i32 = 1;

/// The device's description, or `None` (after saying so) when this machine has no OpenCL device.
fn device_or_skip() -> Option<String> {
    match aplc_runtime::opencl::opencl_device_available() {
        Ok(description) => Some(description),
        Err(reason) => {
            eprintln!("skipped: no OpenCL device: {reason}");
            None
        }
    }
}

/// A fresh folder for one test's files.
fn test_directory(test_name: &str) -> PathBuf {
    let directory = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("opencl_backend")
        .join(test_name);
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    directory
}

/// Runs `program` (aplc itself when it is `None`) in `directory` with `arguments` and extra environment variables.
/// The OpenCL variables of the caller's environment are removed, so that only the test's own apply.
fn run_in(directory: &Path, program: Option<&Path>, arguments: &[&str], environment: &[(&str, &str)]) -> Output {
    let executable = program.map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_aplc")), Path::to_path_buf);
    let mut command = Command::new(executable);
    command.args(arguments).current_dir(directory);
    for variable in [
        "APLC_OPENCL_STATS",
        "APLC_OPENCL_PROFILE",
        "APLC_OPENCL_GROUP_SIZE",
        "APLC_OPENCL_SOURCE",
        "APLC_OPENCL_CACHE",
    ] {
        command.env_remove(variable);
    }
    for (name, value) in environment {
        command.env(name, value);
    }
    command.output().expect("the program runs")
}

fn aplc(directory: &Path, arguments: &[&str], environment: &[(&str, &str)]) -> Output {
    run_in(directory, None, arguments, environment)
}

/// `aplc run --backend opencl --opencl-min-work 0 FILE -- ARGS`: every construct a kernel can express on the device.
fn run_on_device(directory: &Path, file: &str, arguments: &[&str], environment: &[(&str, &str)]) -> Output {
    let mut command_line = vec!["run", "--backend", "opencl", "--opencl-min-work", "0", file];
    if !arguments.is_empty() {
        command_line.push("--");
        command_line.extend_from_slice(arguments);
    }
    aplc(directory, &command_line, environment)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Everything about a run, for assertion messages.
fn described(output: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}--- stderr\n{}",
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr)
    )
}

/// The counts of the line `opencl: device <name>; kernels <k>, launches <n>, to-device <n> (<B> B), to-host <n>
/// (<B> B)` that `APLC_OPENCL_STATS=1` prints at the end of a run.
#[derive(Debug, PartialEq)]
struct Statistics {
    device: String,
    kernels: u64,
    launches: u64,
    to_device: u64,
    to_device_bytes: u64,
    to_host: u64,
    to_host_bytes: u64,
}

fn statistics(stderr: &str) -> Statistics {
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|line| line.starts_with("opencl: device "))
        .collect();
    let [line] = lines.as_slice() else {
        panic!("expected one statistics line on standard error:\n{stderr}");
    };
    let rest = line.strip_prefix("opencl: device ").unwrap();
    let (device, counts) = rest.split_once("; ").unwrap_or_else(|| panic!("no `; ` in {line}"));
    // "kernels 7, launches 10, to-device 0 (0 B), to-host 3 (24 B)": the numbers in order.
    let numbers: Vec<u64> = counts
        .split(|c: char| !c.is_ascii_digit())
        .filter(|word| !word.is_empty())
        .map(|word| word.parse().unwrap())
        .collect();
    let [kernels, launches, to_device, to_device_bytes, to_host, to_host_bytes] = numbers.as_slice() else {
        panic!("unexpected counts in {line}");
    };
    assert!(
        counts.starts_with("kernels ") && counts.contains(", launches ") && counts.contains(", to-device "),
        "unexpected statistics line {line}"
    );
    Statistics {
        device: device.to_string(),
        kernels: *kernels,
        launches: *launches,
        to_device: *to_device,
        to_device_bytes: *to_device_bytes,
        to_host: *to_host,
        to_host_bytes: *to_host_bytes,
    }
}

/// The counters of the first line of `aplc dump --stage opencl`:
/// `// opencl: kernels K, copies-to-host C, copies-to-host-in-loops L`.
fn dump_counters(dump: &str) -> (u64, u64, u64) {
    let first = dump.lines().next().unwrap_or_default();
    let rest = first
        .strip_prefix("// opencl: kernels ")
        .unwrap_or_else(|| panic!("unexpected first line of the dump: {first}"));
    let numbers: Vec<u64> = rest
        .split(|c: char| !c.is_ascii_digit())
        .filter(|word| !word.is_empty())
        .map(|word| word.parse().unwrap())
        .collect();
    let [kernels, copies, copies_in_loops] = numbers.as_slice() else {
        panic!("unexpected first line of the dump: {first}");
    };
    (*kernels, *copies, *copies_in_loops)
}

/// Life on an N×N torus (N, G from the arguments) from a glider, the board built by kernels (outer products of ⍳N),
/// then the number of live cells and the checksum Σ 100×row+column over them.
///
/// By hand: the glider starts at (1,2) (2,3) (3,1) (3,2) (3,3) (checksum 100×12+11 = 1211). Two generations later it
/// is at (2,3) (3,1) (3,3) (4,2) (4,3): 5 cells, checksum 100×16+12 = 1612. Every 4 generations it moves one row
/// down and one column right (+505), so after 20 generations, on a 16×16 torus that it never wraps around, it is
/// at (6,7) (7,8) (8,6) (8,7) (8,8): 5 cells, checksum 1211+5×505 = 3736 (a set-based Life in Python agrees).
const LIFE: &str = "N←16 ⎕ArgInt 1
G←2 ⎕ArgInt 2
I←⍳N
B←((I=1)∘.∧I=2)∨((I=2)∘.∧I=3)∨(I=3)∘.∧I≤3
life←{
  n←(1⊖⍵)+(¯1⊖⍵)+(1⌽⍵)+(¯1⌽⍵)+(1⊖1⌽⍵)+(1⊖¯1⌽⍵)+(¯1⊖1⌽⍵)+¯1⊖¯1⌽⍵
  (n=3)∨⍵∧n=2
}
R←(life⍣G)B
⎕←+/,R
⎕←+/,R×(100×I)∘.+I
";

#[test]
fn a_life_power_loop_keeps_its_board_on_the_device() {
    let Some(_) = device_or_skip() else { return };
    let directory = test_directory("life");
    std::fs::write(directory.join("life.apl"), LIFE).unwrap();
    let run = |steps: &str| {
        let opencl = run_on_device(&directory, "life.apl", &["16", steps], &[("APLC_OPENCL_STATS", "1")]);
        assert_eq!(opencl.status.code(), Some(0), "{}", described(&opencl));
        let jit = aplc(
            &directory,
            &["run", "--backend", "jit", "life.apl", "--", "16", steps],
            &[],
        );
        assert_eq!(jit.status.code(), Some(0), "{}", described(&jit));
        assert_eq!(
            text(&opencl.stdout),
            text(&jit.stdout),
            "opencl and jit differ at {steps} steps"
        );
        (text(&opencl.stdout), statistics(&text(&opencl.stderr)))
    };
    let (two_output, two) = run("2");
    let (twenty_output, twenty) = run("20");
    assert_eq!(two_output, "5\n1612\n");
    assert_eq!(twenty_output, "5\n3736\n");

    // The board is built by kernels and never uploaded.
    assert_eq!(
        (two.to_device_bytes, twenty.to_device_bytes),
        (0, 0),
        "{two:?}\n{twenty:?}"
    );
    // Only the two printed sums come back (their partial results), however many steps run in between.
    assert!(two.to_host > 0, "{two:?}");
    assert_eq!(
        (two.to_host, two.to_host_bytes),
        (twenty.to_host, twenty.to_host_bytes),
        "the copies to the host grow with the steps:\n{two:?}\n{twenty:?}"
    );
    // Each of the 18 more steps launches the same kernels (at least one).
    let more = twenty.launches - two.launches;
    assert!(more >= 18 && more % 18 == 0, "{two:?}\n{twenty:?}");
    assert_eq!(two.kernels, twenty.kernels);
}

/// The thesis's signal benchmark at N=1000: diff 0,⍳N is N ones (each item minus the one before it, after 0), so
/// each item is 50×1÷(0.01+i), below the clamp of 50 (50÷1.01 = 49.50...) and above ¯50: the sum is
/// 50×Σ 1÷(i+0.01) for i = 1..1000. Expanding 1÷(i+0.01) = 1/i − 0.01/i² + 0.0001/i³ − ..., the sum is
/// H₁₀₀₀ − 0.01×Σ1/i² + 0.0001×Σ1/i³ − 0.000001×Σ1/i⁴ + ... = 7.4854708606 − 0.0164393457 + 0.0001202056
/// − 0.0000010823 + 0.0000000104 − ... = 7.4691506486, and 50× that is 373.45753243; with ⎕PP 10: 373.4575324
/// (python3's sum in double precision agrees).
const SIGNAL: &str = "N←1000 ⎕ArgInt 1
diff←{1↓⍵-¯1⌽⍵}
signal←{¯50⌈50⌊50×(diff 0,⍵)÷0.01+⍵}
⎕←+/signal ⍳N
";

#[test]
fn signal_is_one_kernel_with_no_copy_back_but_its_partial_results() {
    let Some(_) = device_or_skip() else { return };
    let directory = test_directory("signal");
    std::fs::write(directory.join("signal.apl"), SIGNAL).unwrap();
    let dump = aplc(&directory, &["dump", "--stage", "opencl", "signal.apl"], &[]);
    assert_eq!(dump.status.code(), Some(0), "{}", described(&dump));
    let dump = text(&dump.stdout);
    // The map (diff, ÷, clamps) fuses into the reduction: one kernel; the only copy back is the partial results,
    // which the counter leaves out.
    assert_eq!(dump_counters(&dump), (1, 0, 0), "{dump}");
    assert_eq!(dump.matches("__kernel void ").count(), 1, "{dump}");

    let opencl = run_on_device(&directory, "signal.apl", &["1000"], &[("APLC_OPENCL_STATS", "1")]);
    assert_eq!(opencl.status.code(), Some(0), "{}", described(&opencl));
    assert_eq!(text(&opencl.stdout), "373.4575324\n");
    let counts = statistics(&text(&opencl.stderr));
    // ⍳N is computed in the kernel: nothing goes up, one launch, and one copy of the partial results back.
    assert_eq!(
        (counts.kernels, counts.launches, counts.to_device_bytes, counts.to_host),
        (1, 1, 0, 1)
    );
    let jit = aplc(
        &directory,
        &["run", "--backend", "jit", "signal.apl", "--", "1000"],
        &[],
    );
    assert_eq!(text(&jit.stdout), text(&opencl.stdout), "{}", described(&jit));
}

/// The sum of `values` in the order that defines a reduction on the OpenCL device: chunks of 4096 elements
/// (`REDUCTION_CHUNK`), each folded into 256 lanes (element k of a chunk into lane k mod 256, each lane left to right
/// from -0), the lanes combined pairwise in order (0 with 1, 2 with 3, ..., then those pairs, up to one value), the
/// chunks' results folded in order from -0 on the host.
fn sum_in_lanes(values: &[f64]) -> f64 {
    let mut total = -0.0;
    for chunk in values.chunks(4096) {
        let mut lanes = vec![-0.0f64; 256];
        for (k, x) in chunk.iter().enumerate() {
            lanes[k % 256] += x;
        }
        while lanes.len() > 1 {
            lanes = lanes.chunks(2).map(|pair| pair[0] + pair[1]).collect();
        }
        total += lanes[0];
    }
    total
}

/// The numbers a successful run printed (at ⎕PP 17, each names one double exactly).
fn printed_doubles(run: &Output) -> Vec<f64> {
    assert_eq!(run.status.code(), Some(0), "{}", described(run));
    text(&run.stdout)
        .split_whitespace()
        .map(|number| number.parse().expect("a number"))
        .collect()
}

#[test]
fn a_double_sum_on_the_device_folds_in_lanes_whatever_the_work_group_size() {
    let Some(_) = device_or_skip() else { return };
    let directory = test_directory("sum_in_lanes");
    // 10000 reciprocals: three chunks, the last one short; at 17 digits the order of the additions shows.
    std::fs::write(directory.join("sum.apl"), "⎕PP←17\nN←10000 ⎕ArgInt 1\n⎕←+/÷⍳N\n").unwrap();
    let reciprocals: Vec<f64> = (1..=10000).map(|i| 1.0 / f64::from(i)).collect();
    let expected = sum_in_lanes(&reciprocals);
    let left_to_right = reciprocals.iter().fold(-0.0, |sum, x| sum + x);
    assert_ne!(
        expected, left_to_right,
        "the test must tell the lanes from a left-to-right fold"
    );
    for group_size in ["1", "3", "100", "256"] {
        let run = run_on_device(&directory, "sum.apl", &[], &[("APLC_OPENCL_GROUP_SIZE", group_size)]);
        let [printed] = printed_doubles(&run)[..] else {
            panic!("one number expected: {}", described(&run));
        };
        assert_eq!(
            printed.to_bits(),
            expected.to_bits(),
            "group size {group_size}: printed {printed}, the lanes give {expected}"
        );
    }
}

#[test]
fn a_row_sum_gives_the_same_bits_from_a_kernel_per_row_and_from_a_work_item_per_row() {
    let Some(_) = device_or_skip() else { return };
    let directory = test_directory("row_sums_in_lanes");
    std::fs::write(
        directory.join("rows.apl"),
        "⎕PP←17\nR←3 ⎕ArgInt 1\nC←9000 ⎕ArgInt 2\nm←÷(R,C)⍴⍳R×C\n⎕←+/m\n",
    )
    .unwrap();
    // Rows of three chunks (the last one short), of one chunk longer than the lanes, and shorter than the lanes and
    // not a power of two.
    for columns in [9000u32, 300, 100] {
        let expected: Vec<f64> = (0..3u32)
            .map(|row| {
                let values: Vec<f64> = (1..=columns).map(|j| 1.0 / f64::from(row * columns + j)).collect();
                sum_in_lanes(&values)
            })
            .collect();
        // outer=0: one work-item per row folds it in the kernel's lanes; never: each row is a reduction kernel.
        for outer in ["0", "9223372036854775807"] {
            let run = run_on_device(
                &directory,
                "rows.apl",
                &["3", &columns.to_string()],
                &[("APLC_PARAM_outer", outer)],
            );
            let printed = printed_doubles(&run);
            assert_eq!(
                printed.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                expected.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                "{columns} columns, outer={outer}: printed {printed:?}, the lanes give {expected:?}"
            );
        }
    }
}

#[test]
fn a_little_work_on_an_array_a_kernel_wrote_runs_on_the_device_instead_of_copying_it_back() {
    let Some(_) = device_or_skip() else { return };
    let directory = test_directory("little_work_stays_on_device");
    // v (100000 doubles, 800 kB) is written by a kernel and summed by another; the sum of its first K elements is
    // work far below the offload threshold, which alone would run it on the host after copying v back.
    std::fs::write(
        directory.join("little.apl"),
        "N←100000 ⎕ArgInt 1\nK←3 ⎕ArgInt 2\nv←÷⍳N\n⎕←+/v\n⎕←+/K↑v\n",
    )
    .unwrap();
    let opencl = aplc(
        &directory,
        &["run", "--backend", "opencl", "little.apl"],
        &[("APLC_OPENCL_STATS", "1")],
    );
    assert_eq!(opencl.status.code(), Some(0), "{}", described(&opencl));
    // 1 + 1/2 + 1/3 = 1.833333333; the harmonic number H(100000) = ln 100000 + γ + 1/200000 - ... = 12.09014613.
    assert_eq!(text(&opencl.stdout), "12.09014613\n1.833333333\n");
    let counts = statistics(&text(&opencl.stderr));
    // Three kernels (v, its sum, the sum of its first K); what comes back is partial results, never v.
    assert_eq!(counts.launches, 3, "{counts:?}");
    assert!(counts.to_host_bytes < 8 * 1000, "{counts:?}");
    let jit = aplc(&directory, &["run", "--backend", "jit", "little.apl"], &[]);
    assert_eq!(text(&jit.stdout), text(&opencl.stdout), "{}", described(&jit));
}

/// Runs `source` on jit and on opencl (every construct on the device) and checks that both fail in the same way:
/// status 1, the same output before the error and nothing after it, the same report naming `error` at `site`.
fn fails_alike_on_jit_and_opencl(test_name: &str, source: &str, printed: &str, error: &str, site: &str) {
    let directory = test_directory(test_name);
    std::fs::write(directory.join("error.apl"), source).unwrap();
    let opencl = run_on_device(&directory, "error.apl", &[], &[]);
    let jit = aplc(&directory, &["run", "--backend", "jit", "error.apl"], &[]);
    for (backend, output) in [("opencl", &opencl), ("jit", &jit)] {
        assert_eq!(
            output.status.code(),
            Some(EXIT_PROGRAM_ERROR),
            "{backend}: {}",
            described(output)
        );
        assert_eq!(text(&output.stdout), printed, "{backend}: {}", described(output));
        let report = text(&output.stderr);
        assert!(report.contains(error), "{backend}: no `{error}` in\n{report}");
        assert!(
            report.contains(&format!("[error.apl:{site}]")),
            "{backend}: not at {site}:\n{report}"
        );
    }
    assert_eq!(text(&opencl.stderr), text(&jit.stderr), "the reports differ");
}

#[test]
fn a_division_by_zero_in_a_kernel_is_reported_as_on_the_cpu() {
    let Some(_) = device_or_skip() else { return };
    // v is ¯499 ¯498 ... 500: its sum is 500500 − 500×1000 = 500, printed first; v[500] is 0, so 100÷v fails in the
    // map's kernel, at the ÷ (line 4, column 6), and the two lines after it print nothing.
    fails_alike_on_jit_and_opencl(
        "division",
        "N←1000 ⎕ArgInt 1\nv←(⍳N)-500\n⎕←+/v\nr←100÷v\n⎕←r\n⎕←1\n",
        "500\n",
        "DOMAIN ERROR: divd: division by zero",
        "4:6",
    );
}

#[test]
fn an_integer_overflow_in_a_reduction_kernel_is_reported_as_on_the_cpu() {
    let Some(_) = device_or_skip() else { return };
    // v is 2*62 + 1 2 ... 1000; its first two items print (as the doubles Dyalog holds integers beyond 32 bits as,
    // 4.611686018E18 at ⎕PP 10); any two of them add up to more than 2*63−1, so +/v
    // overflows in the chunk its work-item folds (one chunk of 1000 items), reported at the +/ (line 4, column 3).
    fails_alike_on_jit_and_opencl(
        "overflow",
        "N←1000 ⎕ArgInt 1\nv←4611686018427387904+⍳N\n⎕←2↑v\n⎕←+/v\n⎕←1\n",
        "4.611686018E18 4.611686018E18\n",
        "DOMAIN ERROR: addi: integer overflow",
        "4:3",
    );
}

/// Index arithmetic in kernels, as 32-bit ints where its bound allows (`codegen/opencl/narrow.rs`), at the edges of
/// that: m is 2*27, the largest parameter the 32-bit version accepts, then one more and 2*29 (the 64-bit version),
/// then ¯2*27. At N=1000 and m=2*27 = 134217728, by hand: +/v+16×m = 500500 + 1000×2*31 = 2147484148500 (16×m does not
/// fit in 32 bits); +/v+15×m = 500500 + 1000×2013265920 = 2013266420500; +/(v-m)-m = 500500 − 2000×m =
/// ¯268434955500; sixteen m's and v add up to the first sum again (the first fifteen additions fit, the last two are
/// 64-bit); m⌽v starts at 1 + m mod 1000 = 729, and (-m)⌽v at 1 + 272.
const INDEX_ARITHMETIC: &str = "⎕PP←17\nN←1000 ⎕ArgInt 1\nm←134217728 ⎕ArgInt 2\nv←⍳N\n⎕←+/v+16×m\n⎕←+/v+15×m\n\
                                ⎕←+/(v-m)-m\n⎕←+/m+m+m+m+m+m+m+m+m+m+m+m+m+m+m+m+v\n⎕←3↑m⌽v\n⎕←3↑(-m)⌽v\n";

#[test]
fn index_arithmetic_in_32_bits_gives_the_64_bit_results_at_the_edges_of_its_range() {
    let Some(_) = device_or_skip() else { return };
    let directory = test_directory("index_arithmetic");
    std::fs::write(directory.join("index.apl"), INDEX_ARITHMETIC).unwrap();
    let dump = aplc(&directory, &["dump", "--stage", "opencl", "index.apl"], &[]);
    let dump = text(&dump.stdout);
    assert!(dump.contains("if (aplc_narrow) {"), "no 32-bit version:\n{dump}");
    let at_2_27 = "2147484148500\n2013266420500\n¯268434955500\n2147484148500\n729 730 731\n273 274 275\n";
    // 2*29: the 32-bit version would overflow (fifteen m's are beyond 2*31), so the launch must choose the other.
    let cases = [
        ("134217728", Some(at_2_27)),
        ("134217729", None),
        ("536870912", None),
        ("-134217728", None),
    ];
    for (m, expected) in cases {
        let opencl = run_on_device(&directory, "index.apl", &["1000", m], &[]);
        let jit = aplc(
            &directory,
            &["run", "--backend", "jit", "index.apl", "--", "1000", m],
            &[],
        );
        assert_eq!(opencl.status.code(), Some(0), "{}", described(&opencl));
        assert_eq!(text(&opencl.stdout), text(&jit.stdout), "m={m}: {}", described(&jit));
        if let Some(expected) = expected {
            assert_eq!(text(&opencl.stdout), expected);
        }
    }
}

#[test]
fn aplc_opencl_source_replaces_the_kernels_and_an_unreadable_file_is_a_usage_error() {
    let Some(_) = device_or_skip() else { return };
    let directory = test_directory("source_override");
    // +/(⍳N)×0.5 is 250250 at N=1000; the replacement kernel, with the generated kernel's name and parameters,
    // stores 7 as the partial result of every chunk (one chunk here), so the program prints 7.
    std::fs::write(directory.join("half.apl"), "N←1000 ⎕ArgInt 1\n⎕←+/(⍳N)×0.5\n").unwrap();
    let dump = text(&aplc(&directory, &["dump", "--stage", "opencl", "half.apl"], &[]).stdout);
    let signature = dump
        .lines()
        .find(|line| line.starts_with("__kernel void "))
        .expect("one kernel");
    let partials = signature
        .split(", ")
        .find_map(|parameter| parameter.strip_prefix("__global double* "))
        .expect("the partial results' block");
    let replacement = format!("{signature}\n    if (get_local_id(0) == 0) {partials}[get_group_id(0)] = 7.0;\n}}\n");
    std::fs::write(directory.join("seven.cl"), replacement).unwrap();
    let own = run_on_device(&directory, "half.apl", &[], &[]);
    assert_eq!(text(&own.stdout), "250250\n", "{}", described(&own));
    let replaced = run_on_device(&directory, "half.apl", &[], &[("APLC_OPENCL_SOURCE", "seven.cl")]);
    assert_eq!(text(&replaced.stdout), "7\n", "{}", described(&replaced));
    let missing = run_on_device(&directory, "half.apl", &[], &[("APLC_OPENCL_SOURCE", "no-such.cl")]);
    assert_eq!(missing.status.code(), Some(2), "{}", described(&missing));
    assert!(
        text(&missing.stderr).contains("APLC_OPENCL_SOURCE"),
        "{}",
        described(&missing)
    );
}

/// The profile's line about program builds: (built from source, from the cache).
fn program_builds(stderr: &str) -> (u64, u64) {
    let line = stderr
        .lines()
        .find_map(|line| line.strip_prefix("opencl: programs: "))
        .unwrap_or_else(|| panic!("no programs line in\n{stderr}"));
    let numbers: Vec<u64> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|word| !word.is_empty())
        .take(2)
        .map(|word| word.parse().unwrap())
        .collect();
    (numbers[0], numbers[1])
}

#[test]
fn built_programs_are_cached_on_disk_and_a_damaged_entry_is_built_again() {
    let Some(_) = device_or_skip() else { return };
    let directory = test_directory("program_cache");
    std::fs::write(directory.join("small.apl"), SMALL).unwrap();
    let cache = directory.join("cache");
    let cache_text = cache.to_string_lossy().into_owned();
    let environment = [("APLC_OPENCL_CACHE", cache_text.as_str()), ("APLC_OPENCL_PROFILE", "1")];
    let run = |environment: &[(&str, &str)]| {
        let output = run_on_device(&directory, "small.apl", &["1000"], environment);
        assert_eq!(text(&output.stdout), SMALL_OUTPUT_AT_1000, "{}", described(&output));
        program_builds(&text(&output.stderr))
    };
    // The first run builds from source and stores the binary; the second loads it.
    assert_eq!(run(&environment), (1, 0));
    let entries: Vec<PathBuf> = std::fs::read_dir(&cache)
        .expect("the cache folder was made")
        .map(|entry| entry.unwrap().path())
        .collect();
    assert_eq!(entries.len(), 2, "a key and a binary: {entries:?}");
    assert_eq!(run(&environment), (0, 1));
    // A damaged binary is refused by the device, or serves nothing: the program is built from source again.
    let binary = entries
        .iter()
        .find(|path| path.extension().is_some_and(|extension| extension == "bin"))
        .expect("a binary");
    std::fs::write(binary, b"not a program binary").unwrap();
    assert_eq!(run(&environment), (1, 0));
    assert_eq!(run(&environment), (0, 1));
    // APLC_OPENCL_CACHE=off: no cache at all.
    let off = [("APLC_OPENCL_CACHE", "off"), ("APLC_OPENCL_PROFILE", "1")];
    assert_eq!(run(&off), (1, 0));
}

/// x←⍳N at N=1000: +/x×x = N(N+1)(2N+1)÷6 = 1000×1001×2001÷6 = 333833500; +/2|x counts the odd numbers, 500;
/// 3↑⌽x is 1000 999 998.
const SMALL: &str = "N←10 ⎕ArgInt 1\nx←⍳N\n⎕←+/x×x\n⎕←+/2|x\n⎕←3↑⌽x\n";
const SMALL_OUTPUT_AT_1000: &str = "333833500\n500\n1000 999 998\n";

#[test]
fn a_gpu_executable_prints_what_jit_prints_and_names_its_device() {
    let Some(description) = device_or_skip() else { return };
    let directory = test_directory("build_gpu");
    std::fs::write(directory.join("small.apl"), SMALL).unwrap();
    // Every construct on the device: by default, sums this small stay on the host (a run-time threshold).
    let built = aplc(
        &directory,
        &["build", "--gpu", "--opencl-min-work", "0", "small.apl", "-o", "small"],
        &[],
    );
    assert_eq!(built.status.code(), Some(0), "{}", described(&built));
    let executable = directory.join("small");
    let plain = run_in(&directory, Some(&executable), &["1000"], &[]);
    assert_eq!(plain.status.code(), Some(0), "{}", described(&plain));
    assert_eq!(text(&plain.stdout), SMALL_OUTPUT_AT_1000);
    assert_eq!(text(&plain.stderr), "", "no statistics without APLC_OPENCL_STATS");
    let jit = aplc(&directory, &["run", "--backend", "jit", "small.apl", "--", "1000"], &[]);
    assert_eq!(text(&jit.stdout), text(&plain.stdout), "{}", described(&jit));

    let with_statistics = run_in(&directory, Some(&executable), &["1000"], &[("APLC_OPENCL_STATS", "1")]);
    assert_eq!(
        with_statistics.status.code(),
        Some(0),
        "{}",
        described(&with_statistics)
    );
    assert_eq!(text(&with_statistics.stdout), SMALL_OUTPUT_AT_1000);
    let counts = statistics(&text(&with_statistics.stderr));
    // The description is "<platform> <device>"; the line names the device.
    assert!(
        !counts.device.is_empty() && description.ends_with(&counts.device),
        "device `{}` is not the one of `{description}`",
        counts.device
    );
    assert!(counts.launches >= 1, "{counts:?}");
}

#[test]
fn an_aplc_device_that_names_no_device_is_an_opencl_error() {
    // No device is needed: with or without one, a name that matches nothing cannot run.
    let directory = test_directory("no_such_device");
    std::fs::write(directory.join("small.apl"), SMALL).unwrap();
    let environment = [("APLC_DEVICE", "no-such-device")];
    let check = |who: &str, output: &Output| {
        assert_eq!(
            output.status.code(),
            Some(EXIT_NO_OPENCL_DEVICE),
            "{who}: {}",
            described(output)
        );
        assert_eq!(text(&output.stdout), "", "{who}");
        assert!(
            text(&output.stderr).starts_with("OPENCL ERROR: "),
            "{who}: {}",
            described(output)
        );
    };
    let run = aplc(
        &directory,
        &["run", "--backend", "opencl", "small.apl", "--", "1000"],
        &environment,
    );
    check("aplc run --backend opencl", &run);
    // Every construct on the device: an executable that launches nothing never needs one (and runs anywhere).
    let built = aplc(
        &directory,
        &["build", "--gpu", "--opencl-min-work", "0", "small.apl", "-o", "small"],
        &[],
    );
    assert_eq!(built.status.code(), Some(0), "{}", described(&built));
    let executable = run_in(&directory, Some(&directory.join("small")), &["1000"], &environment);
    check("aplc build --gpu", &executable);
    // Where a device exists, the message names the variable's value.
    if aplc_runtime::opencl::opencl_device_available().is_ok() {
        for output in [&run, &executable] {
            assert!(text(&output.stderr).contains("no-such-device"), "{}", described(output));
        }
    }
    // Row sums of a 2×3 matrix: with the default thresholds every construct stays on the host, so the executable
    // launches nothing. Its matrix and row sums are blocks kernels could use (announced to the run-time library when
    // allocated); that never sets a device up (no OpenCL context to pay for), and it runs where none matches.
    // m is 0.001×(4 0 3) and 0.001×(5 1 4) (7|i+3j): row sums 0.007 and 0.010, their sum 0.017.
    std::fs::write(
        directory.join("rows.apl"),
        "R←1000 ⎕ArgInt 1\nC←1000 ⎕ArgInt 2\nm←0.001×7|(⍳R)∘.+3×⍳C\ns←+/m\n⎕←(+/s),s[1],s[R]\n",
    )
    .unwrap();
    let built = aplc(&directory, &["build", "--gpu", "rows.apl", "-o", "rows"], &[]);
    assert_eq!(built.status.code(), Some(0), "{}", described(&built));
    let on_host = run_in(&directory, Some(&directory.join("rows")), &["2", "3"], &environment);
    assert_eq!(on_host.status.code(), Some(0), "{}", described(&on_host));
    assert_eq!(text(&on_host.stdout), "0.017 0.007 0.01\n");
}

/// |*0J1×i| is |e^(i·k)| = 1 for every k (complex numbers, which kernels do not have: made on the host); its sum
/// over ⍳1000 is 1000 (each term is 1 to within an ulp). +/2×⍳1000 = 2×500500 = 1001000, in a kernel.
const COMPLEX: &str = "N←1000 ⎕ArgInt 1\n⎕←+/|*0J1×⍳N\n⎕←+/2×⍳N\n";

#[test]
fn a_construct_a_kernel_cannot_express_stays_on_the_host_and_says_why() {
    let Some(_) = device_or_skip() else { return };
    let directory = test_directory("left_on_host");
    std::fs::write(directory.join("complex.apl"), COMPLEX).unwrap();
    let dump = aplc(&directory, &["dump", "--stage", "opencl", "complex.apl"], &[]);
    assert_eq!(dump.status.code(), Some(0), "{}", described(&dump));
    let dump = text(&dump.stdout);
    let left: Vec<&str> = dump
        .lines()
        .skip_while(|line| *line != "// left on the host")
        .skip(1)
        .filter(|line| !line.trim().is_empty())
        .collect();
    // One construct: the complex map and sum (the mkx operator makes a complex number), named by its loop-IR index.
    let [line] = left.as_slice() else {
        panic!("expected one construct left on the host:\n{dump}");
    };
    let (name, reason) = line
        .trim_start_matches("//")
        .trim()
        .split_once(": ")
        .unwrap_or_else(|| panic!("no `name: reason` in {line}"));
    assert!(
        name.starts_with('k') && name[1..].chars().all(|c| c.is_ascii_digit()) && name.len() > 1,
        "{line}"
    );
    assert!(
        reason.contains("mkx") && reason.ends_with("has no OpenCL translation"),
        "{line}"
    );
    // The real sum is still a kernel.
    assert_eq!(dump_counters(&dump).0, 1, "{dump}");

    let opencl = run_on_device(&directory, "complex.apl", &[], &[("APLC_OPENCL_STATS", "1")]);
    assert_eq!(opencl.status.code(), Some(0), "{}", described(&opencl));
    assert_eq!(text(&opencl.stdout), "1000\n1001000\n");
    assert_eq!(statistics(&text(&opencl.stderr)).launches, 1);
    let jit = aplc(&directory, &["run", "--backend", "jit", "complex.apl"], &[]);
    assert_eq!(text(&jit.stdout), text(&opencl.stdout), "{}", described(&jit));
}

/// `aplc devices` lists the devices through the `opencl3` crate; the run-time library finds them with its own loader.
/// The device the library would choose is one of those listed, and without a device the command says so (status 3).
#[test]
fn aplc_devices_lists_the_device_the_run_time_library_chooses() {
    let directory = test_directory("devices");
    let output = aplc(&directory, &["devices"], &[]);
    match aplc_runtime::opencl::opencl_device_available() {
        Ok(description) => {
            assert!(output.status.success(), "{}", described(&output));
            let listing = text(&output.stdout);
            // The library describes its device as `<platform> <device>`, the listing starts each line so.
            assert!(
                listing.lines().any(|line| line.starts_with(&format!("{description}:"))),
                "`{description}` is not listed:\n{listing}"
            );
        }
        Err(reason) => {
            eprintln!("no OpenCL device ({reason}): checking that `aplc devices` says so");
            assert_eq!(
                output.status.code(),
                Some(EXIT_NO_OPENCL_DEVICE),
                "{}",
                described(&output)
            );
        }
    }
}

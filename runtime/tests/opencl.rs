//! The OpenCL entry points on whatever OpenCL device this machine has (PoCL's CPU device in CI): results, the
//! residency table (which transfers happen), the error word, and the ways a program stops. Without a device every
//! test says `skipped: no OpenCL device: <reason>` on standard error and returns. The ways a program stops are
//! checked in a child process: this test binary run again on one test, with `APLC_OPENCL_TEST_CHILD` naming what
//! the child does.

use std::process::Command;
use std::sync::{Mutex, MutexGuard};

use aplc_runtime::abi::{aplrt_alloc, aplrt_free};
use aplc_runtime::opencl::{
    aplrt_cl_finish, aplrt_cl_forget, aplrt_cl_fresh, aplrt_cl_host_wrote, aplrt_cl_launch, aplrt_cl_to_host,
    opencl_device_available, statistics, ClBlockArgument, ClStatistics, OPENCL_UNAVAILABLE_EXIT_STATUS,
};

const SOURCE: &str = r#"
__kernel void scale(long n, double s, __global double* a, __global double* b, __global int* err) {
    long i = get_global_id(0);
    if (i >= n) return;
    b[i] = a[i] * s;
}

__kernel void check_nonnegative(long n, __global double* a, __global int* err) {
    long i = get_global_id(0);
    if (i >= n) return;
    if (a[i] < 0.0) *err = 7;
}

__kernel void add_offset(long n, long offset, __global long* a, __global int* err) {
    long i = get_global_id(0);
    if (i >= n) return;
    a[i] = a[i] + offset;
}
"#;

/// The statistics are per process and the tests run in parallel threads: one test at a time.
fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Whether a device is here; says why not, visibly, when not.
fn device_or_skip() -> bool {
    match opencl_device_available() {
        Ok(_) => true,
        Err(reason) => {
            eprintln!("skipped: no OpenCL device: {reason}");
            false
        }
    }
}

/// An `aplrt_alloc` block of doubles, freed (and forgotten by the device) on drop.
struct Block {
    pointer: *mut u8,
    length: usize,
}

impl Block {
    fn new(length: usize) -> Block {
        Block {
            pointer: aplrt_alloc((length * 8) as i64),
            length,
        }
    }

    fn from_doubles(values: &[f64]) -> Block {
        let block = Block::new(values.len());
        block.doubles_mut().copy_from_slice(values);
        block
    }

    fn bytes(&self) -> i64 {
        (self.length * 8) as i64
    }

    #[allow(clippy::mut_from_ref)]
    fn doubles_mut(&self) -> &mut [f64] {
        // SAFETY: the block holds `length` doubles, 64-byte aligned.
        unsafe { std::slice::from_raw_parts_mut(self.pointer as *mut f64, self.length) }
    }

    /// The host's copy after fetching the device's if newer.
    fn read_doubles(&self) -> Vec<f64> {
        // SAFETY: the block is live.
        unsafe { aplrt_cl_to_host(self.pointer, self.bytes()) };
        self.doubles_mut().to_vec()
    }

    fn argument(&self, writes: bool) -> ClBlockArgument {
        ClBlockArgument {
            pointer: self.pointer,
            bytes: self.bytes(),
            writes: i64::from(writes),
        }
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        aplrt_cl_forget(self.pointer);
        // SAFETY: allocated with this size, freed once.
        unsafe { aplrt_free(self.pointer, self.bytes()) };
    }
}

fn launch(name: &str, global_size: i64, scalars: &[u64], blocks: &[ClBlockArgument]) -> i64 {
    // SAFETY: the source is a static string (one address for the process), the blocks are live.
    unsafe {
        aplrt_cl_launch(
            SOURCE.as_ptr(),
            SOURCE.len() as i64,
            name.as_ptr(),
            name.len() as i64,
            global_size,
            scalars.as_ptr(),
            scalars.len() as i64,
            blocks.as_ptr(),
            blocks.len() as i64,
        )
    }
}

/// `b[i] = a[i] × s` over `n` elements.
fn scale(n: usize, s: f64, a: &Block, b: &Block) -> i64 {
    launch(
        "scale",
        n as i64,
        &[n as u64, s.to_bits()],
        &[a.argument(false), b.argument(true)],
    )
}

fn delta(before: &ClStatistics) -> ClStatistics {
    let after = statistics();
    ClStatistics {
        launches: after.launches - before.launches,
        distinct_kernels: after.distinct_kernels - before.distinct_kernels,
        uploads: after.uploads - before.uploads,
        upload_bytes: after.upload_bytes - before.upload_bytes,
        downloads: after.downloads - before.downloads,
        download_bytes: after.download_bytes - before.download_bytes,
    }
}

fn transfers(uploads: u64, upload_bytes: i64, downloads: u64, download_bytes: i64) -> (u64, u64, u64, u64) {
    (uploads, upload_bytes as u64, downloads, download_bytes as u64)
}

fn transfers_of(statistics: &ClStatistics) -> (u64, u64, u64, u64) {
    (
        statistics.uploads,
        statistics.upload_bytes,
        statistics.downloads,
        statistics.download_bytes,
    )
}

#[test]
fn a_kernel_computes_and_blocks_travel_only_when_the_other_side_is_newer() {
    let _serial = serial();
    if !device_or_skip() {
        return;
    }
    // Not a multiple of any work-group size: the kernels' guard keeps the extra work-items out.
    let n = 1000;
    let a_values: Vec<f64> = (0..n).map(|i| i as f64 * 0.5).collect();
    let a = Block::from_doubles(&a_values);
    let b = Block::new(n);
    aplrt_cl_fresh(b.pointer, b.bytes());

    // a is new to the device (uploaded), b is fresh (not uploaded).
    let before = statistics();
    assert_eq!(scale(n, 2.5, &a, &b), 0);
    let counts = delta(&before);
    assert_eq!(counts.launches, 1);
    assert_eq!(transfers_of(&counts), transfers(1, a.bytes(), 0, 0));
    let expected: Vec<f64> = a_values.iter().map(|value| value * 2.5).collect();
    assert_eq!(b.read_doubles(), expected);
    assert_eq!(transfers_of(&delta(&before)), transfers(1, a.bytes(), 1, b.bytes()));
    // The host copy is current now: reading again copies nothing.
    assert_eq!(b.read_doubles(), expected);
    assert_eq!(transfers_of(&delta(&before)), transfers(1, a.bytes(), 1, b.bytes()));

    // A second kernel reads b where the device left it: no upload.
    let c = Block::new(n);
    aplrt_cl_fresh(c.pointer, c.bytes());
    let before = statistics();
    assert_eq!(scale(n, -1.0, &b, &c), 0);
    assert_eq!(transfers_of(&delta(&before)), transfers(0, 0, 0, 0));
    let negated: Vec<f64> = expected.iter().map(|value| -value).collect();
    assert_eq!(c.read_doubles(), negated);

    // The host changes a without saying so: the device keeps using its copy, with no upload.
    a.doubles_mut()[3] = 1000.0;
    let before = statistics();
    assert_eq!(scale(n, 2.5, &a, &b), 0);
    assert_eq!(delta(&before).uploads, 0);
    assert_eq!(b.read_doubles()[3], a_values[3] * 2.5);
    // Once the host says it wrote a, the next launch uploads it.
    aplrt_cl_host_wrote(a.pointer);
    let before = statistics();
    assert_eq!(scale(n, 2.5, &a, &b), 0);
    assert_eq!(transfers_of(&delta(&before)), transfers(1, a.bytes(), 0, 0));
    assert_eq!(b.read_doubles()[3], 2500.0);
    assert_eq!(b.read_doubles()[4], a_values[4] * 2.5);
}

#[test]
fn a_kernel_that_reads_and_writes_a_block_keeps_it_on_the_device() {
    let _serial = serial();
    if !device_or_skip() {
        return;
    }
    let n = 300usize;
    let block = Block::new(n);
    // SAFETY: the block holds n 8-byte elements.
    let integers = unsafe { std::slice::from_raw_parts_mut(block.pointer as *mut i64, n) };
    for (index, value) in integers.iter_mut().enumerate() {
        *value = index as i64;
    }
    let add = |offset: i64| {
        launch(
            "add_offset",
            n as i64,
            &[n as u64, offset as u64],
            &[block.argument(true)],
        )
    };
    let before = statistics();
    assert_eq!(add(10), 0);
    assert_eq!(add(-3), 0);
    assert_eq!(transfers_of(&delta(&before)), transfers(1, block.bytes(), 0, 0));
    // SAFETY: as above.
    unsafe { aplrt_cl_to_host(block.pointer, block.bytes()) };
    let integers = unsafe { std::slice::from_raw_parts(block.pointer as *const i64, n) };
    assert_eq!(integers, (0..n as i64).map(|i| i + 7).collect::<Vec<_>>().as_slice());
    assert_eq!(
        transfers_of(&delta(&before)),
        transfers(1, block.bytes(), 1, block.bytes())
    );
    // A forgotten block is new to the device again.
    aplrt_cl_forget(block.pointer);
    let before = statistics();
    assert_eq!(add(1), 0);
    assert_eq!(transfers_of(&delta(&before)), transfers(1, block.bytes(), 0, 0));
    unsafe { aplrt_cl_to_host(block.pointer, block.bytes()) };
    let integers = unsafe { std::slice::from_raw_parts(block.pointer as *const i64, n) };
    assert_eq!(integers[0], 8);
    assert_eq!(integers[n - 1], n as i64 - 1 + 8);
}

#[test]
fn the_error_word_is_returned_and_reset() {
    let _serial = serial();
    if !device_or_skip() {
        return;
    }
    let check = |block: &Block| {
        launch(
            "check_nonnegative",
            block.length as i64,
            &[block.length as u64],
            &[block.argument(false)],
        )
    };
    let mut values = vec![1.0; 777];
    values[500] = -2.0;
    let with_negative = Block::from_doubles(&values);
    let all_positive = Block::from_doubles(&[1.0, 2.0, 3.0]);
    assert_eq!(check(&with_negative), 7);
    assert_eq!(check(&all_positive), 0);
    assert_eq!(check(&with_negative), 7);
    assert_eq!(check(&with_negative), 7);
    assert_eq!(check(&all_positive), 0);
}

#[test]
fn zero_work_items_run_nothing() {
    let _serial = serial();
    if !device_or_skip() {
        return;
    }
    let a = Block::from_doubles(&[1.0, 2.0]);
    let b = Block::from_doubles(&[5.0, 6.0]);
    let before = statistics();
    assert_eq!(scale(0, 3.0, &a, &b), 0);
    assert_eq!(delta(&before), ClStatistics::default());
    assert_eq!(b.read_doubles(), vec![5.0, 6.0]);
    // A zero-byte block is bound to a placeholder and never travels.
    let empty = ClBlockArgument {
        pointer: aplrt_alloc(0),
        bytes: 0,
        writes: 1,
    };
    let before = statistics();
    let code = launch("scale", 0, &[0, 0], &[empty, empty]);
    assert_eq!(code, 0);
    assert_eq!(delta(&before).launches, 0);
    let code = launch("check_nonnegative", 1, &[0], &[empty]);
    assert_eq!(code, 0);
    let counts = delta(&before);
    assert_eq!(counts.launches, 1);
    assert_eq!(transfers_of(&counts), transfers(0, 0, 0, 0));
}

#[test]
fn a_reused_address_with_another_size_gets_a_new_buffer() {
    let _serial = serial();
    if !device_or_skip() {
        return;
    }
    let a = Block::from_doubles(&[1.0, 2.0, 3.0, 4.0]);
    let b = Block::new(4);
    assert_eq!(scale(4, 2.0, &a, &b), 0);
    // The same address announced as a shorter block (as if freed and allocated again without aplrt_cl_forget).
    let shorter = Block {
        pointer: a.pointer,
        length: 2,
    };
    shorter.doubles_mut().copy_from_slice(&[10.0, 20.0]);
    let before = statistics();
    assert_eq!(scale(2, 2.0, &shorter, &b), 0);
    assert_eq!(delta(&before).upload_bytes, 16);
    assert_eq!(b.read_doubles()[..2], [20.0, 40.0]);
    std::mem::forget(shorter);
}

// ---------------------------------------------------------------------------------------------------------------
// Programs that stop, run in a child process
// ---------------------------------------------------------------------------------------------------------------

const CHILD_VARIABLE: &str = "APLC_OPENCL_TEST_CHILD";

/// What the child test does, when this process is a child.
#[test]
fn child() {
    let Ok(role) = std::env::var(CHILD_VARIABLE) else {
        return;
    };
    match role.as_str() {
        "build_failure" => {
            let source = "__kernel void broken(long n, __global int* err) {\n    long i = get_global_id(0);\n    \
                          undeclared_thing = i;\n}\n";
            let name = "broken";
            // SAFETY: valid strings, no blocks.
            unsafe {
                aplrt_cl_launch(
                    source.as_ptr(),
                    source.len() as i64,
                    name.as_ptr(),
                    name.len() as i64,
                    1,
                    [1u64].as_ptr(),
                    1,
                    std::ptr::null(),
                    0,
                )
            };
        }
        "missing_kernel" => {
            launch("no_such_kernel", 1, &[], &[]);
        }
        "statistics" => {
            let a = Block::from_doubles(&[1.0, 2.0, 3.0]);
            let b = Block::new(3);
            aplrt_cl_fresh(b.pointer, b.bytes());
            scale(3, 2.0, &a, &b);
            scale(3, 2.0, &b, &a);
            check_values(&a.read_doubles(), &[4.0, 8.0, 12.0]);
            aplrt_cl_finish();
        }
        "launch" => {
            let a = Block::from_doubles(&[1.0]);
            scale(1, 2.0, &a, &a);
        }
        other => panic!("unknown child role {other}"),
    }
    std::process::exit(0);
}

fn check_values(actual: &[f64], expected: &[f64]) {
    if actual != expected {
        eprintln!("wrong values: {actual:?}");
        std::process::exit(9);
    }
}

/// Runs the `child` test in a new process; returns (status, standard error).
fn run_child(role: &str, environment: &[(&str, &str)]) -> (Option<i32>, String) {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args(["--exact", "child", "--nocapture", "--test-threads=1"])
        .env(CHILD_VARIABLE, role)
        .env_remove("APLC_OPENCL_STATS")
        .env_remove("APLC_OPENCL_PROFILE")
        .env_remove("APLC_DEVICE");
    for (name, value) in environment {
        command.env(name, value);
    }
    let output = command.output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_source_that_does_not_build_is_an_internal_error_showing_the_line() {
    if !device_or_skip() {
        return;
    }
    let (status, stderr) = run_child("build_failure", &[]);
    assert_eq!(status, Some(2), "stderr: {stderr}");
    assert!(
        stderr.contains("INTERNAL ERROR: OpenCL kernel build failed on "),
        "stderr: {stderr}"
    );
    assert!(stderr.contains("undeclared_thing"), "stderr: {stderr}");
    assert!(stderr.contains("    3 |     undeclared_thing = i;"), "stderr: {stderr}");
}

#[test]
fn an_unknown_kernel_name_is_an_internal_error() {
    if !device_or_skip() {
        return;
    }
    let (status, stderr) = run_child("missing_kernel", &[]);
    assert_eq!(status, Some(2), "stderr: {stderr}");
    assert!(
        stderr.contains("INTERNAL ERROR: OpenCL kernel `no_such_kernel`"),
        "stderr: {stderr}"
    );
}

#[test]
fn a_device_that_is_not_there_stops_with_status_3() {
    // Runs without any OpenCL too: then there is no platform, which stops the same way.
    let (status, stderr) = run_child("launch", &[("APLC_DEVICE", "no device is called this")]);
    assert_eq!(status, Some(OPENCL_UNAVAILABLE_EXIT_STATUS), "stderr: {stderr}");
    assert!(stderr.starts_with("OPENCL ERROR: "), "stderr: {stderr}");
    if opencl_device_available().is_ok() {
        assert!(
            stderr.contains("no OpenCL device matches APLC_DEVICE=`no device is called this`"),
            "stderr: {stderr}"
        );
    }
}

#[test]
fn a_bad_group_size_is_a_usage_error_and_a_small_one_works() {
    if !device_or_skip() {
        return;
    }
    let (status, stderr) = run_child("launch", &[("APLC_OPENCL_GROUP_SIZE", "zero")]);
    assert_eq!(status, Some(2), "stderr: {stderr}");
    assert!(
        stderr.contains("APLC_OPENCL_GROUP_SIZE must be a positive integer"),
        "stderr: {stderr}"
    );
    let (status, stderr) = run_child("statistics", &[("APLC_OPENCL_GROUP_SIZE", "2")]);
    assert_eq!(status, Some(0), "stderr: {stderr}");
}

#[test]
fn finish_prints_the_statistics_line() {
    let Ok(description) = opencl_device_available() else {
        eprintln!("skipped: no OpenCL device: {}", opencl_device_available().unwrap_err());
        return;
    };
    let (status, stderr) = run_child("statistics", &[("APLC_OPENCL_STATS", "1")]);
    assert_eq!(status, Some(0), "stderr: {stderr}");
    let line = stderr
        .lines()
        .find(|line| line.starts_with("opencl: device "))
        .unwrap_or_else(|| panic!("no statistics line in: {stderr}"));
    // The child may use another device than this process: a GPU in exclusive-process compute mode (as on the lent
    // NVIDIA machines) is hidden from the child while this process holds it, and the child then takes the next one.
    let device_name = line["opencl: device ".len()..].split(';').next().unwrap();
    assert!(!device_name.trim().is_empty(), "line: {line}");
    assert!(!description.is_empty());
    // a uploaded once (b is fresh); the second launch reads b and writes a on the device; a is read back.
    assert!(
        line.ends_with("; kernels 1, launches 2, to-device 1 (24 B), to-host 1 (24 B)"),
        "line: {line}"
    );
    assert!(!stderr.contains("opencl: kernel scale"), "stderr: {stderr}");

    let (status, stderr) = run_child("statistics", &[("APLC_OPENCL_PROFILE", "1")]);
    assert_eq!(status, Some(0), "stderr: {stderr}");
    assert!(stderr.contains("kernels 1, launches 2"), "stderr: {stderr}");
    assert!(
        stderr.contains("opencl: kernel scale: launches 2, "),
        "stderr: {stderr}"
    );
    assert!(stderr.contains("opencl: to-device: 24 B in "), "stderr: {stderr}");
    assert!(stderr.contains("opencl: to-host: 24 B in "), "stderr: {stderr}");

    let (status, stderr) = run_child("statistics", &[]);
    assert_eq!(status, Some(0), "stderr: {stderr}");
    assert!(!stderr.contains("opencl:"), "stderr: {stderr}");
}

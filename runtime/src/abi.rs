//! The C entry points of the run-time library: what JIT-compiled code calls in-process and what AOT executables link
//! from `libaplc_runtime.a`. Every function here is `extern "C"` and `#[no_mangle]`, takes only integers, doubles and pointers,
//! and never unwinds (a Rust panic inside an `extern "C"` function aborts the process), so LLVM may mark the calls
//! `nounwind`. The compiler declares these functions from one table, `src/codegen/llvm/runtime_table.rs`, which must
//! list the same names and signatures as the table below.
//!
//! | Function              | C signature                                                                      |
//! |-----------------------|----------------------------------------------------------------------------------|
//! | [`aplrt_alloc`]       | `uint8_t *aplrt_alloc(int64_t bytes)`                                            |
//! | [`aplrt_free`]        | `void aplrt_free(uint8_t *pointer, int64_t bytes)`                               |
//! | [`aplrt_print_array`] | `void aplrt_print_array(int32_t kind, int64_t rank, const int64_t *shape,`       |
//! |                       | `                       const uint8_t *data, int32_t print_code)`                |
//! | [`aplrt_flush`]       | `void aplrt_flush(void)`                                                         |
//! | [`aplrt_error`]       | `_Noreturn void aplrt_error(int32_t kind, const uint8_t *message, int64_t length)` |
//! | [`aplrt_now_millis`]  | `int64_t aplrt_now_millis(void)`                                                 |
//! | [`aplrt_report_bench`] | `void aplrt_report_bench(int64_t iterations, int64_t start_millis)`             |
//! | [`aplrt_roll`]        | `int64_t aplrt_roll(int64_t n)`                                                  |
//! | [`aplrt_set_arguments`] | `void aplrt_set_arguments(int32_t argc, char **argv)` (from `main`)            |
//! | [`aplrt_argument_int`] | `int64_t aplrt_argument_int(int64_t index, int64_t default_value)`              |
//! | [`aplrt_argument_double`] | `double aplrt_argument_double(int64_t index, double default_value)`          |
//! | [`aplrt_read_file`]   | `uint8_t *aplrt_read_file(const uint8_t *path, int64_t length, int64_t *out_length)` |
//! | [`aplrt_read_array_file`] | `uint8_t *aplrt_read_array_file(int32_t kind, const uint32_t *path,`         |
//! |                       | `                               int64_t path_length, int64_t *out_length)`       |
//! | [`aplrt_format`]      | `uint8_t *aplrt_format(int32_t kind, int64_t rank, const int64_t *shape,`        |
//! |                       | `    const uint8_t *data, int32_t print_precision, int32_t matrix, int64_t *out_extents)` |
//! | [`crate::stack::aplrt_stack_floor`] | `int64_t aplrt_stack_floor(void)`                                  |
//!
//! Conventions shared by all of them:
//! - Memory for arrays comes from [`aplrt_alloc`], 64-byte aligned (a cache line, and the widest vector register), and
//!   goes back through [`aplrt_free`] with the same byte count.
//! - Element kinds are numbered by [`ElementKind`], error kinds by [`RuntimeErrorKind`]; both numberings are part of
//!   the ABI and must not change.
//! - Printed output goes through one buffered writer for the whole process (standard output is line-buffered by
//!   Rust, which is slow for large arrays). It is flushed by [`aplrt_flush`], before every error, and at process exit
//!   (an `atexit` handler registered when the writer is first used). Tests and tools that run compiled code in-process
//!   can redirect the output of one thread into a buffer with [`capture_output_of`].
//! - An APL error prints `LENGTH ERROR: <message>` (the name Dyalog prints) on standard error and exits with status 1.
//!   A call that breaks the ABI (an unknown element kind, a negative size) is a compiler bug: it prints
//!   `INTERNAL ERROR: ...` and exits with status 2.

use std::alloc::{alloc, dealloc, Layout};
use std::cell::RefCell;
use std::io::{self, BufWriter, Stdout, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::display::{display, format_to_char_matrix, ArrayData, ArrayView, PrintSettings};
use crate::retained_blocks::{self, Block};

/// The alignment of every block [`aplrt_alloc`] returns: a cache line, which is also the width of an AVX-512
/// register, so that vectorised loops over a whole array never split a vector across lines.
pub const ALLOCATION_ALIGNMENT: usize = 64;

/// How many calls of a program's recursive functions may be active at once (the same limit on every backend): one
/// call more stops the program with WS FULL, as Dyalog reports recursion that exhausts its stack. A call checks it
/// before it jumps. A frame of a compiled function is small (its arrays live on the heap: tens of bytes for a scalar
/// body), so this many fit with room to spare in a main thread's 8 MB and in a worker thread of the pool
/// (`parallel.rs` gives them [`WORKER_STACK_BYTES`]); and a call also stops with WS FULL when the stack is nearly
/// used up (`crate::stack`), whatever the thread, so that recursion never overflows it.
pub const MAX_CALL_DEPTH: i64 = 10_000;

/// The stack a worker thread of the pool gets (address space; pages are touched as calls nest).
pub const WORKER_STACK_BYTES: usize = 64 << 20;

/// The exit status of a program that stops on an APL error.
pub const APL_ERROR_EXIT_STATUS: i32 = 1;

/// The exit status of a program that called the run-time library against its ABI, which is a compiler bug.
pub const INTERNAL_ERROR_EXIT_STATUS: i32 = 2;

/// The seed of [`aplrt_roll`]'s generator. Fixed, so that a program that rolls dice prints the same output on every
/// run and on every backend (the interpreters can use the same generator through [`RollGenerator`]).
pub const ROLL_SEED: u64 = 0x5EED_0000_0000_0A91;

/// The error classes a compiled program can raise, numbered for the ABI, in the order of the compiler's `AplErrorKind`
/// (`WorkspaceFull`, an allocation that fails, is `WS FULL` on every backend).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuntimeErrorKind {
    Domain = 0,
    Length = 1,
    Rank = 2,
    Index = 3,
    Value = 4,
    Syntax = 5,
    Limit = 6,
    FileIo = 7,
    Nonce = 8,
    WorkspaceFull = 9,
}

impl RuntimeErrorKind {
    /// Every kind, in code order.
    pub const ALL: [RuntimeErrorKind; 10] = [
        RuntimeErrorKind::Domain,
        RuntimeErrorKind::Length,
        RuntimeErrorKind::Rank,
        RuntimeErrorKind::Index,
        RuntimeErrorKind::Value,
        RuntimeErrorKind::Syntax,
        RuntimeErrorKind::Limit,
        RuntimeErrorKind::FileIo,
        RuntimeErrorKind::Nonce,
        RuntimeErrorKind::WorkspaceFull,
    ];

    /// The number that stands for this kind in calls to [`aplrt_error`].
    pub fn code(self) -> i32 {
        self as i32
    }

    pub fn from_code(code: i32) -> Option<RuntimeErrorKind> {
        RuntimeErrorKind::ALL.into_iter().find(|kind| kind.code() == code)
    }

    /// The name Dyalog prints for this class.
    pub fn apl_name(self) -> &'static str {
        match self {
            RuntimeErrorKind::Domain => "DOMAIN ERROR",
            RuntimeErrorKind::Length => "LENGTH ERROR",
            RuntimeErrorKind::Rank => "RANK ERROR",
            RuntimeErrorKind::Index => "INDEX ERROR",
            RuntimeErrorKind::Value => "VALUE ERROR",
            RuntimeErrorKind::Syntax => "SYNTAX ERROR",
            RuntimeErrorKind::Limit => "LIMIT ERROR",
            RuntimeErrorKind::FileIo => "FILE I/O ERROR",
            RuntimeErrorKind::Nonce => "NONCE ERROR",
            RuntimeErrorKind::WorkspaceFull => "WS FULL",
        }
    }
}

/// The element types of arrays passed to [`aplrt_print_array`], numbered for the ABI, with their memory layout.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElementKind {
    /// One byte per element, 0 or 1 (any non-zero byte reads as 1).
    Bool = 0,
    /// `int64_t`.
    Int = 1,
    /// `double`.
    Double = 2,
    /// A Unicode code point as `uint32_t`.
    Char = 3,
    /// Two `double`s: the real part, then the imaginary part.
    Complex = 4,
}

impl ElementKind {
    pub const ALL: [ElementKind; 5] = [
        ElementKind::Bool,
        ElementKind::Int,
        ElementKind::Double,
        ElementKind::Char,
        ElementKind::Complex,
    ];

    pub fn code(self) -> i32 {
        self as i32
    }

    pub fn from_code(code: i32) -> Option<ElementKind> {
        ElementKind::ALL.into_iter().find(|kind| kind.code() == code)
    }

    /// The bytes one element occupies in a data buffer.
    pub fn element_size_in_bytes(self) -> usize {
        match self {
            ElementKind::Bool => 1,
            ElementKind::Int | ElementKind::Double => 8,
            ElementKind::Char => 4,
            ElementKind::Complex => 16,
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Memory
// ---------------------------------------------------------------------------------------------------------------

/// Allocates `bytes` bytes aligned to [`ALLOCATION_ALIGNMENT`]. The memory is not initialised. Zero bytes give a
/// non-null, aligned pointer that must not be read or written (freeing it is a no-op). When memory runs out the
/// program stops with `WS FULL` (status 1), as Dyalog reports an exhausted workspace; so the result is never null.
#[no_mangle]
pub extern "C" fn aplrt_alloc(bytes: i64) -> *mut u8 {
    match allocate_aligned_block(bytes) {
        Ok(block) => {
            if bytes > 0 {
                live_blocks().insert(block.address, block.capacity);
            }
            block.address as *mut u8
        }
        Err(AllocationFailure::NegativeSize) => {
            exit_with_internal_error(&format!("aplrt_alloc called with a negative size ({bytes} bytes)"))
        }
        Err(AllocationFailure::OutOfMemory) => exit_with_apl_error(
            RuntimeErrorKind::WorkspaceFull,
            &format!("cannot allocate {bytes} bytes"),
        ),
    }
}

/// Frees a block from [`aplrt_alloc`]; `bytes` must be the size it was allocated with. Null pointers and zero sizes
/// are ignored, so that code may free what it never allocated for empty arrays.
///
/// # Safety
/// `pointer` must come from `aplrt_alloc(bytes)` and not have been freed yet.
#[no_mangle]
pub unsafe extern "C" fn aplrt_free(pointer: *mut u8, bytes: i64) {
    if pointer.is_null() || bytes <= 0 {
        return;
    }
    let Some(capacity) = live_blocks().remove(&(pointer as usize)) else {
        exit_with_internal_error(&format!(
            "aplrt_free called on a block it did not allocate ({bytes} bytes)"
        ))
    };
    let block = Block {
        address: pointer as usize,
        capacity,
    };
    if !retained_blocks::keep(block) {
        // SAFETY: the block came from `allocate_aligned_block`, which allocated `capacity` bytes.
        unsafe { free_block(block) };
    }
}

/// Returns a block to the allocator.
///
/// # Safety
/// `block` must come from [`allocate_aligned_block`] and be used no more.
unsafe fn free_block(block: Block) {
    match allocation_layout(block.capacity as i64) {
        // SAFETY: the block was allocated with this layout.
        Ok(layout) => unsafe { dealloc(block.address as *mut u8, layout) },
        Err(_) => exit_with_internal_error(&format!("a block of an impossible size ({} bytes)", block.capacity)),
    }
}

/// Frees the large blocks kept for reuse (`retained_blocks.rs`); called when a program ends.
pub fn release_retained_blocks() {
    // SAFETY: a kept block is used by no array.
    retained_blocks::release_all(|block| unsafe { free_block(block) });
}

/// The blocks of [`aplrt_alloc`] not freed yet. A program that stops on an APL error exits at once, from whichever
/// thread found it, while other threads may still be reading its arrays, so its blocks cannot be freed then; this set
/// keeps every one of them reachable until the process ends (memory checkers count it as memory in use at exit, not
/// as a leak), and a program that ends normally has freed them all. A B-tree rather than a hash table: memcheck
/// finds a B-tree's nodes by pointers to their starts, while a hash table is pointed to in its middle ("possibly
/// lost" at exit). Each block's capacity is kept with it: a reused large block may be larger than the array in it.
fn live_blocks() -> std::sync::MutexGuard<'static, std::collections::BTreeMap<usize, usize>> {
    static LIVE_BLOCKS: OnceLock<Mutex<std::collections::BTreeMap<usize, usize>>> = OnceLock::new();
    LIVE_BLOCKS
        .get_or_init(|| Mutex::new(std::collections::BTreeMap::new()))
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Why [`allocate_aligned_block`] gave no memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllocationFailure {
    NegativeSize,
    OutOfMemory,
}

/// The allocation behind [`aplrt_alloc`], returning failures instead of exiting, so that tests can see them: a large
/// block kept from an earlier free when one fits (`retained_blocks.rs`), else a new one.
pub fn allocate_aligned_block(bytes: i64) -> Result<Block, AllocationFailure> {
    if bytes < 0 {
        return Err(AllocationFailure::NegativeSize);
    }
    if bytes == 0 {
        // The allocator must not be asked for zero bytes; an aligned address is what Rust's own empty collections
        // use, and `aplrt_free` ignores it.
        return Ok(Block {
            address: ALLOCATION_ALIGNMENT,
            capacity: 0,
        });
    }
    let layout = allocation_layout(bytes)?;
    if layout.size() >= retained_blocks::LARGE_BLOCK_BYTES {
        if let Some(block) = retained_blocks::take(layout.size()) {
            return Ok(block);
        }
    }
    // SAFETY: the layout has a non-zero size.
    let pointer = unsafe { alloc(layout) };
    if pointer.is_null() {
        Err(AllocationFailure::OutOfMemory)
    } else {
        Ok(Block {
            address: pointer as usize,
            capacity: layout.size(),
        })
    }
}

/// The layout of a block of `bytes` bytes (positive). A size the allocator cannot even describe (beyond
/// `isize::MAX`) is simply more memory than there is.
fn allocation_layout(bytes: i64) -> Result<Layout, AllocationFailure> {
    let size = usize::try_from(bytes).map_err(|_| AllocationFailure::NegativeSize)?;
    Layout::from_size_align(size, ALLOCATION_ALIGNMENT).map_err(|_| AllocationFailure::OutOfMemory)
}

// ---------------------------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------------------------

/// Prints an array as Dyalog displays it (see [`crate::display`]), one line per display line, on the program's
/// output.
///
/// `kind` is an [`ElementKind`] code, `shape` points to `rank` lengths (it may be null for a scalar), and `data` to
/// the product of the shape many elements in row-major order, laid out as [`ElementKind`] describes (no alignment is
/// required). `print_code` is the print code of `⎕PP` (significant digits of doubles, 1 to 17) and `⎕PW` (the
/// width at which a vector's line folds): [`PrintSettings`].
///
/// # Safety
/// `shape` must point to `rank` readable `int64_t`s and `data` to as many readable elements as the shape holds.
#[no_mangle]
pub unsafe extern "C" fn aplrt_print_array(kind: i32, rank: i64, shape: *const i64, data: *const u8, print_code: i32) {
    // SAFETY: the caller guarantees the buffers, which is what `display_lines_from_raw_parts` needs.
    let lines = match unsafe { display_lines_from_raw_parts(kind, rank, shape, data, print_code) } {
        Ok(lines) => lines,
        Err(message) => exit_with_internal_error(&format!("aplrt_print_array: {message}")),
    };
    if let Err(error) = with_program_output(|writer| write_lines(writer, &lines)) {
        exit_with_apl_error(
            RuntimeErrorKind::FileIo,
            &format!("cannot write to standard output: {error}"),
        );
    }
}

/// Flushes the program's buffered output to standard output. Compiled programs call it before they return from
/// `main`; it also runs before every error and at exit.
#[no_mangle]
pub extern "C" fn aplrt_flush() {
    if let Err(error) = flush_standard_output() {
        // Nothing more can be written to standard output, so report on standard error without flushing again.
        let _ = writeln!(io::stderr(), "FILE I/O ERROR: cannot write to standard output: {error}");
        std::process::exit(APL_ERROR_EXIT_STATUS);
    }
}

/// The display lines of an array given as raw ABI arguments, or a message saying which argument breaks the ABI.
///
/// # Safety
/// As for [`aplrt_print_array`].
pub unsafe fn display_lines_from_raw_parts(
    kind: i32,
    rank: i64,
    shape: *const i64,
    data: *const u8,
    print_code: i32,
) -> Result<Vec<String>, String> {
    // SAFETY: the caller guarantees the buffers.
    let (shape, elements, settings) = unsafe { read_array(kind, rank, shape, data, print_code) }?;
    let view = ArrayView {
        shape: &shape,
        data: elements.as_array_data(),
    };
    Ok(display(&view, settings))
}

/// `⍕` of an array: its display as a fresh block of chars (`uint32_t` code points, row-major) from [`aplrt_alloc`],
/// which the caller frees with `aplrt_free(block, 4 × extents)`. With `matrix` 0 the result is the one line of a
/// scalar or vector, and its length goes to `out_extents[0]`; with `matrix` 1 it is the lines of a matrix as rows,
/// and `out_extents[0..2]` receive the row count and the width. The text is exactly what the interpreters' `⍕` makes
/// (the same [`crate::display::format_to_char_matrix`]).
///
/// # Safety
/// As for [`aplrt_print_array`]; `out_extents` must point to 1 (`matrix` 0) or 2 writable `int64_t`s.
#[no_mangle]
pub unsafe extern "C" fn aplrt_format(
    kind: i32,
    rank: i64,
    shape: *const i64,
    data: *const u8,
    print_precision: i32,
    matrix: i32,
    out_extents: *mut i64,
) -> *mut u8 {
    if out_extents.is_null() {
        exit_with_internal_error("aplrt_format called with a null out_extents");
    }
    // SAFETY: the caller guarantees the buffers.
    let (extents, text) = match unsafe { format_from_raw_parts(kind, rank, shape, data, print_precision, matrix != 0) }
    {
        Ok(formatted) => formatted,
        Err(message) => exit_with_internal_error(&format!("aplrt_format: {message}")),
    };
    let block = aplrt_alloc(text.len() as i64 * ElementKind::Char.element_size_in_bytes() as i64);
    for (index, character) in text.iter().enumerate() {
        // SAFETY: the block holds `text.len()` chars of 4 bytes, and `aplrt_alloc` aligns it.
        unsafe { block.cast::<u32>().add(index).write(u32::from(*character)) };
    }
    for (axis, extent) in extents.iter().enumerate() {
        // SAFETY: the caller guarantees one extent slot per axis of the result (1 or 2).
        unsafe { out_extents.add(axis).write(*extent as i64) };
    }
    block
}

/// The extents and row-major characters `⍕` makes of an array given as raw ABI arguments (see [`aplrt_format`]).
///
/// # Safety
/// As for [`aplrt_print_array`].
pub unsafe fn format_from_raw_parts(
    kind: i32,
    rank: i64,
    shape: *const i64,
    data: *const u8,
    print_precision: i32,
    matrix: bool,
) -> Result<(Vec<usize>, Vec<char>), String> {
    // SAFETY: the caller guarantees the buffers.
    let (shape, elements, settings) = unsafe { read_array(kind, rank, shape, data, print_precision) }?;
    if (matrix && shape.len() != 2) || (!matrix && shape.len() > 1) {
        return Err(format!(
            "cannot format an array of rank {} as a {}",
            shape.len(),
            if matrix { "matrix" } else { "line" }
        ));
    }
    let view = ArrayView {
        shape: &shape,
        data: elements.as_array_data(),
    };
    let rows = format_to_char_matrix(&view, settings.precision);
    Ok(if matrix {
        let width = rows.first().map_or(0, Vec::len);
        (vec![rows.len(), width], rows.into_iter().flatten().collect())
    } else {
        let line: Vec<char> = rows.into_iter().next().unwrap_or_default();
        (vec![line.len()], line)
    })
}

/// The shape, a copy of the elements and the print settings (from a print code, [`PrintSettings`]) of an array given as raw ABI arguments, or a message
/// saying which argument breaks the ABI.
///
/// # Safety
/// As for [`aplrt_print_array`].
unsafe fn read_array(
    kind: i32,
    rank: i64,
    shape: *const i64,
    data: *const u8,
    print_code: i32,
) -> Result<(Vec<usize>, OwnedElements, PrintSettings), String> {
    let element_kind = ElementKind::from_code(kind).ok_or_else(|| format!("unknown element kind {kind}"))?;
    // SAFETY: the caller guarantees `rank` readable lengths behind `shape`.
    let shape = unsafe { read_shape(rank, shape) }?;
    let element_count = element_count_of_shape(&shape)?;
    if element_count > 0 && data.is_null() {
        return Err(format!("null data pointer for {element_count} elements"));
    }
    let settings = PrintSettings::from_code(i64::from(print_code))?;
    // SAFETY: the caller guarantees `element_count` readable elements behind `data`.
    let elements = unsafe { OwnedElements::read(element_kind, data, element_count) };
    Ok((shape, elements, settings))
}

/// Reads the shape vector. Null is allowed for rank 0, where nothing is read.
///
/// # Safety
/// `shape` must point to `rank` readable `int64_t`s when `rank > 0`.
unsafe fn read_shape(rank: i64, shape: *const i64) -> Result<Vec<usize>, String> {
    let rank = usize::try_from(rank).map_err(|_| format!("negative rank {rank}"))?;
    if rank > 0 && shape.is_null() {
        return Err(format!("null shape pointer for rank {rank}"));
    }
    (0..rank)
        .map(|axis| {
            // SAFETY: `axis < rank`, and the caller guarantees `rank` lengths.
            let length = unsafe { shape.add(axis).read_unaligned() };
            usize::try_from(length).map_err(|_| format!("negative length {length} on axis {axis}"))
        })
        .collect()
}

fn element_count_of_shape(shape: &[usize]) -> Result<usize, String> {
    shape
        .iter()
        .try_fold(1usize, |count, &length| count.checked_mul(length))
        .ok_or_else(|| "the number of elements overflows".to_string())
}

/// A copy of the elements in the types [`crate::display`] takes. Copying (rather than borrowing the buffer) makes
/// unaligned pointers and bytes other than 0 and 1 in boolean arrays harmless; printing costs far more anyway.
enum OwnedElements {
    Bool(Vec<bool>),
    Int(Vec<i64>),
    Double(Vec<f64>),
    Char(Vec<char>),
    Complex(Vec<(f64, f64)>),
}

impl OwnedElements {
    /// # Safety
    /// `data` must point to `count` readable elements of `kind` (it may dangle when `count` is 0).
    unsafe fn read(kind: ElementKind, data: *const u8, count: usize) -> OwnedElements {
        // SAFETY (all closures): element `index < count` lies inside the buffer the caller guarantees.
        let read_f64 = |byte_offset: usize| unsafe { data.add(byte_offset).cast::<f64>().read_unaligned() };
        match kind {
            ElementKind::Bool => {
                OwnedElements::Bool((0..count).map(|index| unsafe { *data.add(index) } != 0).collect())
            }
            ElementKind::Int => OwnedElements::Int(
                (0..count)
                    .map(|index| unsafe { data.add(index * 8).cast::<i64>().read_unaligned() })
                    .collect(),
            ),
            ElementKind::Double => OwnedElements::Double((0..count).map(|index| read_f64(index * 8)).collect()),
            ElementKind::Char => OwnedElements::Char(
                (0..count)
                    .map(|index| unsafe { data.add(index * 4).cast::<u32>().read_unaligned() })
                    .map(|code_point| char::from_u32(code_point).unwrap_or(char::REPLACEMENT_CHARACTER))
                    .collect(),
            ),
            ElementKind::Complex => OwnedElements::Complex(
                (0..count)
                    .map(|index| (read_f64(index * 16), read_f64(index * 16 + 8)))
                    .collect(),
            ),
        }
    }

    fn as_array_data(&self) -> ArrayData<'_> {
        match self {
            OwnedElements::Bool(values) => ArrayData::Bool(values),
            OwnedElements::Int(values) => ArrayData::Int(values),
            OwnedElements::Double(values) => ArrayData::Double(values),
            OwnedElements::Char(values) => ArrayData::Char(values),
            OwnedElements::Complex(values) => ArrayData::Complex(values),
        }
    }
}

/// Writes each line followed by a newline.
pub fn write_lines(writer: &mut dyn Write, lines: &[String]) -> io::Result<()> {
    for line in lines {
        writer.write_all(line.as_bytes())?;
        writer.write_all(b"\n")?;
    }
    Ok(())
}

thread_local! {
    /// Where this thread's program output goes instead of standard output, while [`capture_output_of`] runs.
    /// Thread-local, so that tests running compiled code on parallel threads each see only their own output.
    static CAPTURED_OUTPUT: RefCell<Option<Vec<u8>>> = const { RefCell::new(None) };
}

/// The buffered standard output shared by the whole process.
static STANDARD_OUTPUT: OnceLock<Mutex<BufWriter<Stdout>>> = OnceLock::new();

/// The size of the output buffer: large enough that printing a big array makes few system calls.
const STANDARD_OUTPUT_BUFFER_BYTES: usize = 64 * 1024;

/// Runs `run` with the current thread's program output (what [`aplrt_print_array`] writes) collected into a buffer
/// instead of standard output, and returns the result with the collected bytes. Captures nest; the previous
/// destination is restored even if `run` panics.
pub fn capture_output_of<R>(run: impl FnOnce() -> R) -> (R, Vec<u8>) {
    struct RestoreOnDrop(Option<Vec<u8>>);
    impl Drop for RestoreOnDrop {
        fn drop(&mut self) {
            let previous = self.0.take();
            CAPTURED_OUTPUT.with(|captured| *captured.borrow_mut() = previous);
        }
    }
    let previous = CAPTURED_OUTPUT.with(|captured| captured.borrow_mut().replace(Vec::new()));
    let restore = RestoreOnDrop(previous);
    let result = run();
    let collected = CAPTURED_OUTPUT
        .with(|captured| captured.borrow_mut().take())
        .unwrap_or_default();
    drop(restore);
    (result, collected)
}

/// Runs `write` on this thread's program output: the capture buffer if one is active, else buffered standard output.
fn with_program_output<R>(write: impl FnOnce(&mut dyn Write) -> R) -> R {
    let capturing = CAPTURED_OUTPUT.with(|captured| captured.borrow().is_some());
    if capturing {
        CAPTURED_OUTPUT.with(|captured| {
            let mut captured = captured.borrow_mut();
            let buffer = captured.get_or_insert_with(Vec::new);
            write(buffer)
        })
    } else {
        let mut standard_output = lock_standard_output();
        write(&mut *standard_output)
    }
}

fn lock_standard_output() -> std::sync::MutexGuard<'static, BufWriter<Stdout>> {
    let writer = STANDARD_OUTPUT.get_or_init(|| {
        register_flush_at_exit();
        Mutex::new(BufWriter::with_capacity(STANDARD_OUTPUT_BUFFER_BYTES, io::stdout()))
    });
    // A panic while printing cannot leave the buffer inconsistent in a way that matters; keep printing.
    writer.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn flush_standard_output() -> io::Result<()> {
    match STANDARD_OUTPUT.get() {
        None => Ok(()),
        Some(writer) => {
            let mut writer = writer.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            writer.flush()
        }
    }
}

extern "C" {
    /// The C library's `atexit`: an AOT program's `main` is C code, not Rust's, so nothing else flushes our buffer
    /// when the program calls `exit` or returns.
    fn atexit(handler: extern "C" fn()) -> i32;
}

fn register_flush_at_exit() {
    // SAFETY: `flush_standard_output_at_exit` is a plain function that lives as long as the process.
    unsafe {
        atexit(flush_standard_output_at_exit);
    }
}

extern "C" fn flush_standard_output_at_exit() {
    // At exit another thread may still hold the lock; do not wait for it (that could hang the exit).
    if let Some(writer) = STANDARD_OUTPUT.get() {
        if let Ok(mut writer) = writer.try_lock() {
            let _ = writer.flush();
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------------------------

/// Stops the program with an APL error: flushes the output, prints `NAME: message` (just `NAME` for an empty
/// message) on standard error and exits with status 1. `kind` is a [`RuntimeErrorKind`] code; the message is UTF-8
/// (invalid bytes are replaced) of `length` bytes.
///
/// # Safety
/// `message` must point to `length` readable bytes (it may be null when `length` is 0).
#[no_mangle]
pub unsafe extern "C" fn aplrt_error(kind: i32, message: *const u8, length: i64) -> ! {
    // SAFETY: the caller guarantees the message buffer.
    let message = unsafe { read_utf8_lossy(message, length) };
    match RuntimeErrorKind::from_code(kind) {
        Some(kind) => exit_with_apl_error(kind, &message),
        None => exit_with_internal_error(&format!("aplrt_error called with unknown error kind {kind}: {message}")),
    }
}

/// Stops the program with an APL error reported by a text the compiler made (the message and the source line with
/// the failing APL text marked, as `aplc run` draws it): flushes the output, prints the text on standard error and
/// exits with status 1. `kind` is a [`RuntimeErrorKind`] code; the report is UTF-8 of `length` bytes.
///
/// # Safety
/// `report` must point to `length` readable bytes (it may be null when `length` is 0).
#[no_mangle]
pub unsafe extern "C" fn aplrt_error_report(kind: i32, report: *const u8, length: i64) -> ! {
    // SAFETY: the caller guarantees the report buffer.
    let report = unsafe { read_utf8_lossy(report, length) };
    match RuntimeErrorKind::from_code(kind) {
        Some(_) => exit_after_reporting(report.trim_end_matches('\n'), APL_ERROR_EXIT_STATUS),
        None => exit_with_internal_error(&format!("aplrt_error_report called with unknown error kind {kind}")),
    }
}

/// In a report template ([`aplrt_enter_site`]): where the error's diagnostic code goes (`aplc::run::domain_error`).
pub const SITE_CODE_MARKER: char = '\u{E001}';
/// In a report template: where the error's `NAME: message` goes.
pub const SITE_ERROR_MARKER: char = '\u{E000}';
/// In a JSON report template: where the error's `NAME: message` goes as a JSON string literal (quotes included).
pub const SITE_JSON_ERROR_MARKER: char = '\u{E002}';

std::thread_local! {
    /// The report template of the run-time call this thread is making for a source site (see [`aplrt_enter_site`]).
    static ERROR_SITE: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Before a run-time call that may stop with an APL error (an allocation, a file read, a program argument, a roll),
/// compiled code names the APL text the call is for: `report` is the error report the compiler drew for that text,
/// with [`SITE_CODE_MARKER`] and [`SITE_ERROR_MARKER`] where the error's code and `NAME: message` go. An error of the
/// call is then reported with its line and column, like the errors of the compiler's own checks.
///
/// # Safety
/// `report` must point to `length` readable bytes (it may be null when `length` is 0).
#[no_mangle]
pub unsafe extern "C" fn aplrt_enter_site(report: *const u8, length: i64) {
    // SAFETY: the caller guarantees the report buffer.
    let report = unsafe { read_utf8_lossy(report, length) };
    ERROR_SITE.with(|site| *site.borrow_mut() = Some(report));
}

/// After the call of [`aplrt_enter_site`]: its errors have no site any more.
#[no_mangle]
pub extern "C" fn aplrt_leave_site() {
    ERROR_SITE.with(|site| *site.borrow_mut() = None);
}

/// `aplc::run::index_error`: the code of an APL error's diagnostic, as aplc's reports name it.
pub fn diagnostic_code(apl_name: &str) -> String {
    format!("aplc::run::{}", apl_name.to_lowercase().replace([' ', '/'], "_"))
}

/// The report of an error raised while this thread's call has a site, or `None`.
fn report_at_entered_site(kind: RuntimeErrorKind, message: &str) -> Option<String> {
    let template = ERROR_SITE.with(|site| site.borrow().clone())?;
    Some(
        template
            .replace(SITE_CODE_MARKER, &diagnostic_code(kind.apl_name()))
            .replace(SITE_ERROR_MARKER, &error_line(kind, message))
            .replace(
                SITE_JSON_ERROR_MARKER,
                &crate::json::json_string(&error_line(kind, message)),
            ),
    )
}

/// The line an APL error prints on standard error.
pub fn error_line(kind: RuntimeErrorKind, message: &str) -> String {
    if message.is_empty() {
        kind.apl_name().to_string()
    } else {
        format!("{}: {message}", kind.apl_name())
    }
}

/// Flushes the output, reports the error on standard error and exits with status 1.
pub fn exit_with_apl_error(kind: RuntimeErrorKind, message: &str) -> ! {
    if let Some(report) = report_at_entered_site(kind, message) {
        exit_after_reporting(report.trim_end_matches('\n'), APL_ERROR_EXIT_STATUS)
    }
    exit_after_reporting(&error_line(kind, message), APL_ERROR_EXIT_STATUS)
}

pub(crate) fn exit_with_internal_error(message: &str) -> ! {
    exit_after_reporting(&format!("INTERNAL ERROR: {message}"), INTERNAL_ERROR_EXIT_STATUS)
}

/// Reports a usage error of the running program (a malformed environment variable) and exits with status 2.
pub fn exit_with_usage_error(message: &str) -> ! {
    exit_after_reporting(&format!("aplc: {message}"), INTERNAL_ERROR_EXIT_STATUS)
}

pub(crate) fn exit_after_reporting(line: &str, status: i32) -> ! {
    // Several threads of a parallel construct may fail at once: the first reports and exits, the others wait for the
    // exit (which ends them) so that the error is reported once.
    static EXITING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if EXITING.swap(true, std::sync::atomic::Ordering::SeqCst) {
        loop {
            std::thread::park();
        }
    }
    // Output printed before the error must appear before it, as in an interpreter session.
    let _ = flush_standard_output();
    let _ = writeln!(io::stderr(), "{line}");
    std::process::exit(status)
}

/// # Safety
/// `bytes` must point to `length` readable bytes when `length > 0`.
unsafe fn read_utf8_lossy(bytes: *const u8, length: i64) -> String {
    match usize::try_from(length) {
        Ok(length) if length > 0 && !bytes.is_null() => {
            // SAFETY: the caller guarantees `length` readable bytes.
            let slice = unsafe { std::slice::from_raw_parts(bytes, length) };
            String::from_utf8_lossy(slice).into_owned()
        }
        _ => String::new(),
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Time, random numbers, files
// ---------------------------------------------------------------------------------------------------------------

/// Milliseconds since the Unix epoch (wall-clock time, for `⎕TS`-like uses and for timing a program from inside).
/// A clock set before 1970 reads as 0.
#[no_mangle]
pub extern "C" fn aplrt_now_millis() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// `⎕BENCH`: reports on standard error how long a loop of `iterations` applications took, measured from
/// `start_millis` (an earlier [`aplrt_now_millis`]). Standard output is flushed first, so the report comes after
/// everything the program printed before it.
#[no_mangle]
pub extern "C" fn aplrt_report_bench(iterations: i64, start_millis: i64) {
    let elapsed = aplrt_now_millis().saturating_sub(start_millis);
    aplrt_flush();
    eprintln!("{}", bench_report_line(iterations, elapsed));
}

/// The line `⎕BENCH` reports, the same from every backend: `⎕BENCH: 10 iterations in 125 ms (12.5 ms each)`.
pub fn bench_report_line(iterations: i64, elapsed_millis: i64) -> String {
    let each = if iterations > 0 {
        format!(" ({:.3} ms each)", elapsed_millis as f64 / iterations as f64)
    } else {
        String::new()
    };
    format!("⎕BENCH: {iterations} iterations in {elapsed_millis} ms{each}")
}

/// The state of the process-wide generator behind [`aplrt_roll`], seeded with [`ROLL_SEED`] when the program starts.
/// `main` of a compiled program: keeps its command-line words after the program's own name, for `⎕ArgInt` and
/// `⎕ArgDouble` ([`crate::arguments`]). A word that is not UTF-8 is read with replacement characters (and is then
/// not a number).
///
/// # Safety
/// `argv` must point to `argc` pointers to NUL-terminated strings, as C's `main` receives them (null when `argc` ≤ 0).
#[no_mangle]
pub unsafe extern "C" fn aplrt_set_arguments(argc: i32, argv: *const *const std::ffi::c_char) {
    let count = usize::try_from(argc).unwrap_or(0);
    let words = (1..count)
        .map(|i| {
            // SAFETY: the caller guarantees `argc` valid pointers to NUL-terminated strings.
            unsafe { std::ffi::CStr::from_ptr(*argv.add(i)) }
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    crate::arguments::set_process_arguments(words);
}

/// `d ⎕ArgInt i`: program argument `i` as an integer, `default` when there are fewer than `i`.
#[no_mangle]
pub extern "C" fn aplrt_argument_int(index: i64, default: i64) -> i64 {
    crate::arguments::with_process_arguments(|arguments| crate::arguments::int_argument(arguments, index, default))
        .unwrap_or_else(|error| exit_with_argument_error(&error))
}

/// `d ⎕ArgDouble i`: program argument `i` as a double, `default` when there are fewer than `i`.
#[no_mangle]
pub extern "C" fn aplrt_argument_double(index: i64, default: f64) -> f64 {
    crate::arguments::with_process_arguments(|arguments| crate::arguments::double_argument(arguments, index, default))
        .unwrap_or_else(|error| exit_with_argument_error(&error))
}

fn exit_with_argument_error(error: &crate::arguments::ArgumentError) -> ! {
    let kind = if error.is_index_error() {
        RuntimeErrorKind::Index
    } else {
        RuntimeErrorKind::Domain
    };
    exit_with_apl_error(kind, &error.message())
}

/// An atomic, so that rolls from several threads never repeat a number; a single-threaded program gets the same
/// sequence on every run.
static ROLL_STATE: AtomicU64 = AtomicU64::new(ROLL_SEED);

/// `?n`: a pseudo-random integer from 1 to `n` (with `⎕IO←1`), from the SplitMix64 generator (Steele, Lea and
/// Flood, 2014) seeded once with [`ROLL_SEED`]. `n` must be positive; otherwise the program stops with DOMAIN ERROR
/// (Dyalog's `?0`, a random float, is not supported here).
#[no_mangle]
pub extern "C" fn aplrt_roll(n: i64) -> i64 {
    if n <= 0 {
        exit_with_apl_error(
            RuntimeErrorKind::Domain,
            &format!("? needs a positive integer, not {n}"),
        );
    }
    let previous_state = ROLL_STATE.fetch_add(RollGenerator::GAMMA, Ordering::Relaxed);
    let random = RollGenerator::mix(previous_state.wrapping_add(RollGenerator::GAMMA));
    roll_from_random_bits(random, n)
}

/// The SplitMix64 generator: a counter that advances by a fixed odd constant, and a mixing function applied to each
/// counter value. Small, fast, and passes BigCrush; good enough for `?`, which needs no cryptographic quality.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollGenerator {
    state: u64,
}

impl RollGenerator {
    /// The golden-ratio increment of SplitMix64.
    const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

    pub fn with_seed(seed: u64) -> RollGenerator {
        RollGenerator { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(RollGenerator::GAMMA);
        RollGenerator::mix(self.state)
    }

    /// `?n` from this generator: the same numbers [`aplrt_roll`] gives when seeded alike.
    pub fn roll(&mut self, n: i64) -> i64 {
        roll_from_random_bits(self.next_u64(), n)
    }

    fn mix(counter: u64) -> u64 {
        let mut z = counter;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Maps 64 random bits to 1..=n by a widening multiply (the high word of `random * n`), which avoids the division of
/// `random % n`; the bias is below n / 2^64, far too small to observe. `n` must be positive.
pub fn roll_from_random_bits(random: u64, n: i64) -> i64 {
    let n = n.max(1) as u64;
    let scaled = ((random as u128 * n as u128) >> 64) as u64;
    scaled as i64 + 1
}

/// Reads a whole file into a fresh block from [`aplrt_alloc`] and stores its length in `*out_length`; the caller
/// frees it with `aplrt_free(block, *out_length)`. The path is `length` bytes of UTF-8 (no terminating NUL). A file
/// that cannot be read stops the program with FILE I/O ERROR.
///
/// # Safety
/// `path` must point to `length` readable bytes and `out_length` to a writable `int64_t`.
#[no_mangle]
pub unsafe extern "C" fn aplrt_read_file(path: *const u8, length: i64, out_length: *mut i64) -> *mut u8 {
    if out_length.is_null() {
        exit_with_internal_error("aplrt_read_file called with a null out_length");
    }
    // SAFETY: the caller guarantees the path buffer.
    let path = match unsafe { read_utf8_strict(path, length) } {
        Some(path) => path,
        None => exit_with_apl_error(RuntimeErrorKind::FileIo, "the file name is not valid UTF-8"),
    };
    let contents = match std::fs::read(&path) {
        Ok(contents) => contents,
        Err(error) => exit_with_apl_error(RuntimeErrorKind::FileIo, &format!("cannot read {path}: {error}")),
    };
    let byte_count = contents.len() as i64;
    let block = aplrt_alloc(byte_count);
    // SAFETY: `block` holds `byte_count` bytes (none to copy when the file is empty) and cannot overlap `contents`;
    // the caller guarantees `out_length` is writable.
    unsafe {
        std::ptr::copy_nonoverlapping(contents.as_ptr(), block, contents.len());
        out_length.write(byte_count);
    }
    block
}

/// `⎕ReadFile`, `⎕ReadIntVecFile` and `⎕ReadDoubleVecFile`: reads the text file named by `path` (`path_length`
/// chars, as code points) into a fresh block from [`aplrt_alloc`] of elements of `kind`: the file's characters
/// (`Char`), or the numbers in it (`Int`, `Double`; see [`crate::text_input`]). Stores the element count in
/// `*out_length`; the caller frees the block with `aplrt_free(block, count * element size)`. A file that cannot be
/// read, or is not UTF-8, stops the program with FILE I/O ERROR; a token that is not a number with DOMAIN ERROR.
///
/// # Safety
/// `path` must point to `path_length` readable code points and `out_length` to a writable `int64_t`.
#[no_mangle]
pub unsafe extern "C" fn aplrt_read_array_file(
    kind: i32,
    path: *const u32,
    path_length: i64,
    out_length: *mut i64,
) -> *mut u8 {
    if out_length.is_null() {
        exit_with_internal_error("aplrt_read_array_file called with a null out_length");
    }
    let kind = match ElementKind::from_code(kind) {
        Some(kind @ (ElementKind::Char | ElementKind::Int | ElementKind::Double)) => kind,
        _ => exit_with_internal_error(&format!("aplrt_read_array_file of element kind {kind}")),
    };
    // SAFETY: the caller guarantees the path buffer.
    let path = match unsafe { text_of_code_points(path, path_length) } {
        Some(path) => path,
        None => exit_with_apl_error(RuntimeErrorKind::Domain, "the file name is not text"),
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) => exit_with_apl_error(RuntimeErrorKind::FileIo, &format!("cannot read {path}: {error}")),
    };
    let bytes: Vec<u8> = match kind {
        ElementKind::Char => text.chars().flat_map(|c| (c as u32).to_ne_bytes()).collect(),
        ElementKind::Int => crate::text_input::ints_in_text(&text)
            .unwrap_or_else(|token| exit_with_not_a_number(&token))
            .iter()
            .flat_map(|n| n.to_ne_bytes())
            .collect(),
        _ => crate::text_input::doubles_in_text(&text)
            .unwrap_or_else(|token| exit_with_not_a_number(&token))
            .iter()
            .flat_map(|x| x.to_ne_bytes())
            .collect(),
    };
    let block = aplrt_alloc(bytes.len() as i64);
    // SAFETY: `block` holds `bytes.len()` bytes and cannot overlap `bytes`; the caller guarantees `out_length`.
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), block, bytes.len());
        out_length.write((bytes.len() / kind.element_size_in_bytes()) as i64);
    }
    block
}

fn exit_with_not_a_number(token: &str) -> ! {
    exit_with_apl_error(
        RuntimeErrorKind::Domain,
        &crate::text_input::not_a_number_message(token),
    )
}

/// # Safety
/// `code_points` must point to `length` readable `u32`s when `length > 0`.
unsafe fn text_of_code_points(code_points: *const u32, length: i64) -> Option<String> {
    let length = usize::try_from(length).ok()?;
    if length == 0 {
        return Some(String::new());
    }
    if code_points.is_null() {
        return None;
    }
    // SAFETY: the caller guarantees `length` readable code points.
    let slice = unsafe { std::slice::from_raw_parts(code_points, length) };
    slice.iter().map(|&c| char::from_u32(c)).collect()
}

/// # Safety
/// `bytes` must point to `length` readable bytes when `length > 0`.
unsafe fn read_utf8_strict(bytes: *const u8, length: i64) -> Option<String> {
    let length = usize::try_from(length).ok()?;
    if length == 0 {
        return Some(String::new());
    }
    if bytes.is_null() {
        return None;
    }
    // SAFETY: the caller guarantees `length` readable bytes.
    let slice = unsafe { std::slice::from_raw_parts(bytes, length) };
    String::from_utf8(slice.to_vec()).ok()
}

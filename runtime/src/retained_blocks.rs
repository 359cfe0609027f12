//! Large freed blocks kept for reuse by the next large allocation.
//!
//! An APL program's big intermediates come and go one after the other: optionpricer allocates a 470 MB boolean
//! matrix, frees it, then allocates four 126 MB matrices in turn. The C library hands a block this large straight back
//! to the kernel when it is freed (`munmap`), so every new block is fresh memory, and writing it costs a page fault
//! per 4 KB page: 270,000 faults and 0.4 s of the kernel's time in a run of 0.9 s in this virtual machine. Kept
//! mapped, a freed block serves the next request that fits, with its pages already there: optionpricer's faults and
//! kernel time fell by a third, and its run on two threads from 0.58 to 0.45 s.
//!
//! Rules, so that the memory kept stays what the program needed anyway:
//! - only blocks of at least [`LARGE_BLOCK_BYTES`] are kept (the C library reuses smaller ones itself);
//! - a request takes the smallest kept block that holds it; when that block is more than twice the request, the
//!   pages past the request are given back to the kernel (`madvise(MADV_DONTNEED)`: still mapped, no longer
//!   resident), so a small array never pins a large block's memory;
//! - at most [`RETAINED_LIMIT_BYTES`] are kept; a block freed beyond that goes back to the C library;
//! - [`release_all`] frees every kept block when a program ends (`aplrt_finish`), so that memory checkers see each
//!   block returned; and under valgrind nothing is kept, so that memcheck still sees every free as a free.

use std::sync::Mutex;

/// Blocks of at least this many bytes are kept for reuse when freed.
pub const LARGE_BLOCK_BYTES: usize = 4 << 20;

/// The most bytes kept at once.
pub const RETAINED_LIMIT_BYTES: usize = 1 << 30;

/// A block of the allocator: its address and the bytes it was allocated with (its capacity, which may exceed the
/// size of the array it holds now).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    pub address: usize,
    pub capacity: usize,
}

struct Retained {
    blocks: Vec<Block>,
    bytes: usize,
}

static RETAINED: Mutex<Retained> = Mutex::new(Retained {
    blocks: Vec::new(),
    bytes: 0,
});

fn retained() -> std::sync::MutexGuard<'static, Retained> {
    RETAINED.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A kept block that holds `size` bytes (the smallest), no longer kept; `None` when none does.
pub fn take(size: usize) -> Option<Block> {
    let mut retained = retained();
    let (position, _) = retained
        .blocks
        .iter()
        .enumerate()
        .filter(|(_, block)| block.capacity >= size)
        .min_by_key(|(_, block)| block.capacity)?;
    let block = retained.blocks.swap_remove(position);
    retained.bytes -= block.capacity;
    drop(retained);
    if block.capacity / 2 > size {
        release_pages_after(block, size);
    }
    Some(block)
}

/// Keeps a freed large block for reuse; `false` when it is not kept (the limit is reached, or valgrind runs the
/// process) and the caller must free it.
pub fn keep(block: Block) -> bool {
    if block.capacity < LARGE_BLOCK_BYTES || crate::thread_checker::running_under_valgrind() {
        return false;
    }
    let mut retained = retained();
    if retained.bytes + block.capacity > RETAINED_LIMIT_BYTES {
        return false;
    }
    retained.bytes += block.capacity;
    retained.blocks.push(block);
    true
}

/// Gives every kept block to `free`, keeping none.
pub fn release_all(mut free: impl FnMut(Block)) {
    let blocks = {
        let mut retained = retained();
        retained.bytes = 0;
        std::mem::take(&mut retained.blocks)
    };
    for block in blocks {
        free(block);
    }
}

/// The bytes kept now.
pub fn retained_bytes() -> usize {
    retained().bytes
}

/// Gives back to the kernel the whole pages of `block` past its first `size` bytes: they stay mapped (reading them
/// gives zeros, writing them takes fresh pages), so the block's capacity is unchanged.
fn release_pages_after(block: Block, size: usize) {
    const PAGE_BYTES: usize = 4096;
    const MADV_DONTNEED: i32 = 4;
    extern "C" {
        fn madvise(address: *mut u8, length: usize, advice: i32) -> i32;
    }
    let first_page = (block.address + size).next_multiple_of(PAGE_BYTES);
    let end = block.address + block.capacity;
    if first_page < end {
        let length = (end - first_page) / PAGE_BYTES * PAGE_BYTES;
        // SAFETY: the pages lie inside the block, which no array uses past `size` bytes; MADV_DONTNEED on private
        // anonymous memory only drops their contents. A failure leaves them resident, which is only wasteful.
        unsafe { madvise(first_page as *mut u8, length, MADV_DONTNEED) };
    }
}

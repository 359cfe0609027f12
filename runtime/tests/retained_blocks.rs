//! Large freed blocks are kept and reused (`retained_blocks.rs`). One test, in a process of its own, because the
//! kept blocks are global to the process.

use aplc_runtime::abi::{aplrt_alloc, aplrt_free, release_retained_blocks};
use aplc_runtime::retained_blocks::{retained_bytes, LARGE_BLOCK_BYTES, RETAINED_LIMIT_BYTES};

const LARGE: i64 = LARGE_BLOCK_BYTES as i64;

fn fill(block: *mut u8, bytes: i64, value: u8) {
    // SAFETY: the block holds `bytes` bytes.
    unsafe { std::ptr::write_bytes(block, value, bytes as usize) };
}

fn all_bytes_are(block: *mut u8, bytes: i64, value: u8) -> bool {
    // SAFETY: the block holds `bytes` bytes.
    unsafe { std::slice::from_raw_parts(block, bytes as usize) }
        .iter()
        .all(|&byte| byte == value)
}

#[test]
fn large_blocks_are_kept_up_to_the_limit_reused_by_the_smallest_fit_and_released_at_the_end() {
    // A large block freed is kept, and the next large request it holds gets it back.
    let first = aplrt_alloc(3 * LARGE);
    fill(first, 3 * LARGE, 1);
    unsafe { aplrt_free(first, 3 * LARGE) };
    assert_eq!(retained_bytes(), 3 * LARGE_BLOCK_BYTES);
    let again = aplrt_alloc(3 * LARGE - 64);
    assert_eq!(again, first);
    assert_eq!(retained_bytes(), 0);

    // Of two kept blocks, a request gets the smallest that holds it.
    let small = aplrt_alloc(LARGE);
    unsafe { aplrt_free(again, 3 * LARGE - 64) };
    unsafe { aplrt_free(small, LARGE) };
    assert_eq!(retained_bytes(), 4 * LARGE_BLOCK_BYTES);
    let fits_small = aplrt_alloc(LARGE);
    assert_eq!(fits_small, small);
    let fits_large = aplrt_alloc(LARGE + 1);
    assert_eq!(fits_large, first);
    unsafe { aplrt_free(fits_large, LARGE + 1) };

    // A reused block more than twice the request loses the whole pages past the request, which read as zeros
    // afterwards, while its start keeps what was written. (The block need not end on a page: its last page, shared
    // with what follows, is kept.)
    fill(first, 3 * LARGE, 7);
    let third = aplrt_alloc(LARGE);
    assert_eq!(third, first);
    assert!(all_bytes_are(third, LARGE, 7));
    // SAFETY: the block's capacity is 3 × LARGE bytes, all of them mapped.
    let tail = unsafe { third.add(2 * LARGE as usize) };
    assert!(all_bytes_are(tail, LARGE - 4096, 0));
    unsafe { aplrt_free(third, LARGE) };

    // Blocks below the size are not kept; the end of a program frees all kept blocks.
    let below = aplrt_alloc(LARGE - 64);
    unsafe { aplrt_free(below, LARGE - 64) };
    assert_eq!(retained_bytes(), 3 * LARGE_BLOCK_BYTES);
    unsafe { aplrt_free(fits_small, LARGE) };
    assert_eq!(retained_bytes(), 4 * LARGE_BLOCK_BYTES);
    release_retained_blocks();
    assert_eq!(retained_bytes(), 0);

    // At most the limit is kept. (Address space only: the blocks are never written, so they take no memory.)
    let bytes = (RETAINED_LIMIT_BYTES / 2 + 1) as i64;
    let first = aplrt_alloc(bytes);
    let second = aplrt_alloc(bytes);
    unsafe { aplrt_free(first, bytes) };
    assert_eq!(retained_bytes(), bytes as usize);
    unsafe { aplrt_free(second, bytes) };
    assert_eq!(retained_bytes(), bytes as usize);
    release_retained_blocks();
}

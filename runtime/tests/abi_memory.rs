//! The allocation entry points: alignment, zero sizes, and that blocks are usable and independent.

use aplc_runtime::abi::{allocate_aligned_block, aplrt_alloc, aplrt_free, AllocationFailure, ALLOCATION_ALIGNMENT};

#[test]
fn allocated_blocks_are_aligned_to_64_bytes_for_many_sizes() {
    for bytes in [1i64, 7, 8, 63, 64, 65, 1000, 4096, 1 << 20] {
        let block = aplrt_alloc(bytes);
        assert!(!block.is_null());
        assert_eq!(block as usize % 64, 0, "{bytes} bytes at {block:p}");
        unsafe { aplrt_free(block, bytes) };
    }
    assert_eq!(ALLOCATION_ALIGNMENT, 64);
}

#[test]
fn a_zero_size_block_is_aligned_non_null_and_freeing_it_does_nothing() {
    let block = aplrt_alloc(0);
    assert!(!block.is_null());
    assert_eq!(block as usize % 64, 0);
    unsafe { aplrt_free(block, 0) };
    unsafe { aplrt_free(std::ptr::null_mut(), 16) };
}

#[test]
fn blocks_hold_what_is_written_and_do_not_overlap() {
    let count = 1000usize;
    let first = aplrt_alloc((count * 8) as i64).cast::<i64>();
    let second = aplrt_alloc((count * 8) as i64).cast::<i64>();
    unsafe {
        for index in 0..count {
            first.add(index).write(index as i64);
            second.add(index).write(-(index as i64));
        }
        let first_sum: i64 = (0..count).map(|index| first.add(index).read()).sum();
        let second_sum: i64 = (0..count).map(|index| second.add(index).read()).sum();
        // 0 + 1 + ... + 999 = 999 * 1000 / 2.
        assert_eq!(first_sum, 499_500);
        assert_eq!(second_sum, -499_500);
        aplrt_free(first.cast(), (count * 8) as i64);
        aplrt_free(second.cast(), (count * 8) as i64);
    }
}

#[test]
fn a_negative_size_is_refused_and_an_impossible_size_is_out_of_memory() {
    assert_eq!(allocate_aligned_block(-1), Err(AllocationFailure::NegativeSize));
    // More than isize::MAX bytes cannot be described to the allocator at all.
    assert_eq!(allocate_aligned_block(i64::MAX), Err(AllocationFailure::OutOfMemory));
}

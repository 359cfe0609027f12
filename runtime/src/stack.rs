//! How deep the calls of a program's recursive functions may go on the running thread: the lowest stack address
//! they may reach, from the thread's own stack bounds (POSIX threads), so that recursion stops with WS FULL before
//! the stack overflows on any thread, whatever its stack size (a main thread, a worker of the pool, a test harness's
//! thread). Native code asks for it once per outermost call ([`aplrt_stack_floor`]) and passes it along; the
//! compiler's interpreters ask for it at every call.

use std::cell::Cell;

/// The stack kept free below the deepest call for what runs there without a check of its own: the run-time
/// library's calls (printing, allocation, error reports) and, in the interpreters, the evaluation of one function
/// body.
pub const STACK_MARGIN_BYTES: usize = 512 << 10;

/// Where no bounds can be read: how far below the first call the recursion may go (a main thread has 8 MB).
pub const STACK_BUDGET_WITHOUT_BOUNDS: usize = 4 << 20;

/// `pthread_attr_t`, opaque: 56 bytes on x86-64 glibc, 64 on AArch64; room for either.
#[repr(C, align(16))]
struct ThreadAttributes([u8; 128]);

extern "C" {
    fn pthread_self() -> usize;
    fn pthread_getattr_np(thread: usize, attributes: *mut ThreadAttributes) -> i32;
    fn pthread_attr_getstack(attributes: *const ThreadAttributes, address: *mut *mut u8, size: *mut usize) -> i32;
    fn pthread_attr_destroy(attributes: *mut ThreadAttributes) -> i32;
}

thread_local! {
    /// This thread's floor, once computed (0: not yet).
    static FLOOR: Cell<usize> = const { Cell::new(0) };
}

/// The lowest address of this thread's stack, when the thread library says.
fn stack_low_end() -> Option<usize> {
    let mut attributes = ThreadAttributes([0; 128]);
    let mut address: *mut u8 = std::ptr::null_mut();
    let mut size = 0usize;
    // SAFETY: `attributes` is a buffer larger than `pthread_attr_t`, initialised by `pthread_getattr_np` before it is
    // read and destroyed after; the out-parameters are valid for writes.
    unsafe {
        if pthread_getattr_np(pthread_self(), &mut attributes) != 0 {
            return None;
        }
        let status = pthread_attr_getstack(&attributes, &mut address, &mut size);
        pthread_attr_destroy(&mut attributes);
        (status == 0 && !address.is_null()).then_some(address as usize)
    }
}

/// An address in the caller's frame.
#[inline(never)]
pub fn current_stack_address() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

/// The lowest stack address recursive calls may reach on this thread (the stack grows down).
pub fn stack_floor() -> usize {
    FLOOR.with(|floor| {
        if floor.get() == 0 {
            let computed = match stack_low_end() {
                Some(low) => low.saturating_add(STACK_MARGIN_BYTES),
                None => current_stack_address().saturating_sub(STACK_BUDGET_WITHOUT_BOUNDS),
            };
            floor.set(computed.max(1));
        }
        floor.get()
    })
}

/// [`stack_floor`] for native code.
#[no_mangle]
pub extern "C" fn aplrt_stack_floor() -> i64 {
    stack_floor() as i64
}

//! Happens-before annotations for valgrind's thread checkers (drd and helgrind).
//!
//! The pool of `parallel.rs` hands work between threads through std's `Mutex` and `Condvar`, which are built on
//! futexes, and through atomics. drd and helgrind see neither (they know pthread's primitives), so without these
//! annotations they report every hand-over as a race: a job the caller writes and a worker reads, the results a
//! worker writes and the caller reads after the job. `ANNOTATE_HAPPENS_BEFORE(tag)` in one thread and
//! `ANNOTATE_HAPPENS_AFTER(tag)` in another tell them that everything before the first happened before everything
//! after the second, which is what the mutex or the atomic guarantees.
//!
//! The annotation is valgrind's client request: a special instruction sequence that does nothing on a real CPU (four
//! rotations of `rdi` by 3 + 13 + 61 + 51 = 128 bits, and `xchg rbx, rbx`) and that valgrind recognises. The request
//! codes are those of `valgrind/drd.h` and `valgrind/helgrind.h`, which agree: `VG_USERREQ_TOOL_BASE('H','G') + 256 +
//! 33` and `+ 34`. Natively each costs a few instructions, once per job and per lock, never per element.

/// `ANNOTATE_HAPPENS_BEFORE`: what this thread did so far happened before what a thread does after
/// [`happens_after`] on the same tag.
pub fn happens_before<T>(tag: &T) {
    let _ = client_request(HAPPENS_BEFORE, tag as *const T as u64);
}

/// `ANNOTATE_HAPPENS_AFTER`: see [`happens_before`].
pub fn happens_after<T>(tag: &T) {
    let _ = client_request(HAPPENS_AFTER, tag as *const T as u64);
}

/// Whether this process runs under valgrind (`RUNNING_ON_VALGRIND` of `valgrind/valgrind.h`: the core's request
/// 0x1001, answered with the number of valgrinds running it; natively the sequence leaves its default, 0).
pub fn running_under_valgrind() -> bool {
    client_request(RUNNING_ON_VALGRIND, 0) != 0
}

const RUNNING_ON_VALGRIND: u64 = 0x1001;
const TOOL_BASE_HG: u64 = ((b'H' as u64) << 24) | ((b'G' as u64) << 16);
const HAPPENS_BEFORE: u64 = TOOL_BASE_HG + 256 + 33;
const HAPPENS_AFTER: u64 = TOOL_BASE_HG + 256 + 34;

/// Valgrind's client request `request` with one argument; its answer, or 0 natively (the default left in rdx).
#[cfg(target_arch = "x86_64")]
fn client_request(request: u64, argument: u64) -> u64 {
    let arguments: [u64; 6] = [request, argument, 0, 0, 0, 0];
    let answer: u64;
    // SAFETY: natively the sequence changes no register (rdi is rotated by whole turns, then declared clobbered all
    // the same) and touches no memory; under valgrind the tool reads the six words `arguments` points to and writes
    // its answer to rdx.
    unsafe {
        std::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") arguments.as_ptr(),
            inout("rdx") 0u64 => answer,
            inout("rdi") 0u64 => _,
            options(nostack),
        );
    }
    answer
}

#[cfg(not(target_arch = "x86_64"))]
fn client_request(_request: u64, _argument: u64) -> u64 {
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_request_codes_are_those_of_valgrinds_headers() {
        // valgrind/helgrind.h: _VG_USERREQ__HG_USERSO_SEND_PRE and _RECV_POST; valgrind/drd.h:
        // VG_USERREQ__DRD_ANNOTATE_HAPPENS_BEFORE and _AFTER (printed from the headers with a C program).
        assert_eq!(HAPPENS_BEFORE, 0x4847_0121);
        assert_eq!(HAPPENS_AFTER, 0x4847_0122);
    }

    #[test]
    fn natively_the_process_is_not_under_valgrind() {
        // valgrind/valgrind.h: VG_USERREQ__RUNNING_ON_VALGRIND.
        assert_eq!(RUNNING_ON_VALGRIND, 0x1001);
        assert!(!running_under_valgrind());
    }

    #[test]
    fn natively_an_annotation_does_nothing() {
        let tag = 7u64;
        happens_before(&tag);
        happens_after(&tag);
        assert_eq!(tag, 7);
    }
}

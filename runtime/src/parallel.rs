//! Multicore execution of the parallel constructs of compiled programs: one thread pool per process, created on first
//! use, whose workers park on a condition variable when idle.
//!
//! Generated code outlines the body of each outermost parallel construct into a function
//! `void body(ptr context, i64 start, i64 end)` that runs the tasks `start..end` (iterations of a parallel map, chunks
//! of a parallel reduction) and calls [`aplrt_parallel_for`]. The tasks are cut into contiguous pieces handed out
//! dynamically to the calling thread and the workers; the caller returns when every piece is done. (Giving each thread
//! a home share of the pieces, so that a stencil's steps keep a thread on the same rows, was measured and made no
//! difference on life and hotspot.) Which task lands on
//! which thread never changes a result: a reduction's chunks are fixed by the program (`REDUCTION_CHUNK` in the
//! compiler's loop IR), not by the thread count, and are combined in chunk order by the caller.
//!
//! The number of threads is, in order of precedence: the environment variable `APLC_THREADS`; the default the
//! program was compiled with (`aplc build --threads N`, set through [`aplrt_set_default_threads`]); the number of
//! cores. Work below a construct's threshold (a named parameter, see [`aplrt_parameter`], set by the environment or a
//! tuning file) runs on the calling thread.
//!
//! Idle threads spin before they park: a worker that finishes a job keeps checking for the next one for
//! [`SPIN_BEFORE_PARKING`], and the caller of a job checks for its end as long before it waits on the condition
//! variable. Waking a parked thread costs tens of microseconds in a virtual machine, as much as a whole parallel step
//! of a small stencil (hotspot's 512×512 grid takes about 70 µs a step per thread), where the wake-up alone made two
//! threads no faster than one. The spin is skipped where it would take a core from a thread with work: when the pool
//! has more threads than the process has cores, and under valgrind, which runs one thread at a time.
//!
//! Robustness: a construct started while the pool is busy (two JIT-compiled programs of one process, in tests) runs on
//! its own thread instead of waiting; a process forked from one that had a pool (the REPL's children) makes its own,
//! since the workers do not survive a fork. An APL error inside a body exits the process from the worker (see
//! `abi::exit_after_reporting`, which lets only the first error report).

use std::sync::atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use crate::thread_checker::{happens_after, happens_before};

/// A parallel body: runs tasks `start..end` with the captured values in `context`.
pub type ParallelBody = unsafe extern "C" fn(context: *mut u8, start: i64, end: i64);

/// Pieces per thread: more than one, so that a thread that finishes early takes another piece.
const PIECES_PER_THREAD: i64 = 4;

/// How long an idle thread keeps checking for work (a worker for the next job, a caller for the end of its job)
/// before it parks on a condition variable. Longer than the sequential code between the parallel constructs of a
/// loop such as a stencil's steps (microseconds), short enough that a worker left idle by a sequential phase gives
/// its core back soon. Measured on life and hotspot (2 cores): 50, 100 and 200 µs give the same speed-ups (1.4 and
/// 1.7); 1 ms made life slower (1.25), its spinning worker taking the core from the sequential parts.
pub const SPIN_BEFORE_PARKING: Duration = Duration::from_micros(100);

/// The default a program was compiled with (`--threads N`); 0 for "all cores".
static COMPILED_DEFAULT_THREADS: AtomicI64 = AtomicI64::new(0);

/// Sets the number of threads a program uses unless `APLC_THREADS` says otherwise (called at the start of a program
/// built with `--threads N`; 0 or less means all cores).
#[no_mangle]
pub extern "C" fn aplrt_set_default_threads(threads: i64) {
    COMPILED_DEFAULT_THREADS.store(threads.max(0), Ordering::Relaxed);
}

/// The number of threads parallel constructs use now.
pub fn thread_count() -> usize {
    if let Some(threads) = threads_from_environment() {
        return threads;
    }
    match COMPILED_DEFAULT_THREADS.load(Ordering::Relaxed) {
        0 => core_count(),
        n => usize::try_from(n).unwrap_or(1),
    }
}

/// The cores this process may use, asked once: `available_parallelism` reads the affinity mask and the cgroup quota
/// files on every call, which cost a program with 50,000 small parallel loops two seconds of system time.
fn core_count() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// `APLC_THREADS`, read once per process; a value that is not a positive integer stops the program with a usage
/// error (status 2), as a malformed option would.
fn threads_from_environment() -> Option<usize> {
    static THREADS: OnceLock<Option<usize>> = OnceLock::new();
    *THREADS.get_or_init(|| {
        let text = std::env::var("APLC_THREADS").ok()?;
        match text.trim().parse::<usize>() {
            Ok(threads) if threads >= 1 => Some(threads),
            _ => crate::abi::exit_with_usage_error(&format!("APLC_THREADS must be a positive integer, not `{text}`")),
        }
    })
}

/// The value of the program parameter `name` (a UTF-8 string of `length` bytes): see [`parameter_value`]. Generated
/// code calls it once per parameter and keeps the value in a global.
///
/// # Safety
/// `name` must point to `length` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn aplrt_parameter(name: *const u8, length: i64, default: i64) -> i64 {
    let name = match usize::try_from(length) {
        // SAFETY: the caller guarantees `length` readable bytes.
        Ok(length) if length > 0 && !name.is_null() => {
            String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(name, length) }).into_owned()
        }
        _ => return default,
    };
    parameter_value(&name, default)
}

/// [`aplrt_parameter`] for Rust callers. A parameter's name starts with its class (`threshold_i45` is of class
/// `threshold`). The value is, in order: the environment variable `APLC_PARAM_<name>`, `APLC_PARAM_<class>`, the
/// tuning file's `name`, its `class`, else `default` (`crate::tuning` documents the tuning file). A malformed
/// variable or tuning file stops the program with a usage error.
pub fn parameter_value(name: &str, default: i64) -> i64 {
    crate::tuning::process_parameter_value(name, default)
}

/// Runs `body(context, start, end)` over the tasks `0..tasks`, on every thread of the pool when `work` (the
/// compiler's estimate of the construct's cost) is at least `threshold`, else on the calling thread in one call.
///
/// # Safety
/// `body` must be safe to call with `context` and any disjoint subranges of `0..tasks` from several threads at once.
#[no_mangle]
pub unsafe extern "C" fn aplrt_parallel_for(
    body: ParallelBody,
    context: *mut u8,
    tasks: i64,
    work: i64,
    threshold: i64,
) {
    if tasks <= 0 {
        return;
    }
    let threads = if tasks == 1 || work < threshold {
        1
    } else {
        thread_count()
    };
    if threads <= 1 {
        // SAFETY: the caller guarantees that the body may run the whole range.
        unsafe { body(context, 0, tasks) };
        return;
    }
    let pool = pool_for(threads);
    let Ok(_dispatch) = pool.dispatch.try_lock() else {
        // Another construct of this process is running on the pool: run this one here.
        // SAFETY: as above.
        unsafe { body(context, 0, tasks) };
        return;
    };
    let pieces = tasks.min(threads as i64 * PIECES_PER_THREAD);
    let job = Arc::new(Job {
        body,
        context: context as usize,
        tasks,
        pieces,
        next_piece: AtomicI64::new(0),
        pieces_left: AtomicI64::new(pieces),
    });
    {
        let mut state = pool.shared.lock_state();
        state.generation += 1;
        state.job = Some(job.clone());
        pool.shared
            .published_generation
            .store(state.generation, Ordering::Release);
        if state.parked_workers > 0 {
            pool.shared.work_available.notify_all();
        }
        pool.shared.unlock_state(state);
    }
    job.run_pieces(&pool.shared);
    if pool.spins {
        spin_until(|| job.pieces_left.load(Ordering::Acquire) == 0);
    }
    let mut state = pool.shared.lock_state();
    while job.pieces_left.load(Ordering::Acquire) > 0 {
        state.caller_parked = true;
        state = pool.shared.wait(&pool.shared.job_done, state);
        state.caller_parked = false;
    }
    // Every piece's results were written before its worker counted it done.
    happens_after(&job.pieces_left);
    state.job = None;
    pool.shared.unlock_state(state);
}

/// One call of [`aplrt_parallel_for`] on the pool.
struct Job {
    body: ParallelBody,
    /// The context pointer, as an integer so that the job may cross threads (the body's contract makes it safe).
    context: usize,
    tasks: i64,
    pieces: i64,
    next_piece: AtomicI64,
    pieces_left: AtomicI64,
}

impl Job {
    /// Takes pieces until none is left; the thread that finishes the last one wakes the caller.
    fn run_pieces(&self, shared: &Shared) {
        loop {
            let piece = self.next_piece.fetch_add(1, Ordering::Relaxed);
            if piece >= self.pieces {
                return;
            }
            self.run_piece(piece, shared);
        }
    }

    fn run_piece(&self, piece: i64, shared: &Shared) {
        let start = piece * self.tasks / self.pieces;
        let end = (piece + 1) * self.tasks / self.pieces;
        // SAFETY: pieces are disjoint subranges of 0..tasks, as `aplrt_parallel_for`'s contract allows.
        unsafe { (self.body)(self.context as *mut u8, start, end) };
        happens_before(&self.pieces_left);
        if self.pieces_left.fetch_sub(1, Ordering::AcqRel) == 1 {
            // The caller checks `pieces_left` under the lock before it parks, so it cannot miss this.
            let state = shared.lock_state();
            if state.caller_parked {
                shared.job_done.notify_all();
            }
            shared.unlock_state(state);
        }
    }
}

struct State {
    /// Incremented for every job, so that a worker takes each job once.
    generation: u64,
    job: Option<Arc<Job>>,
    /// Set by [`aplrt_finish`]: the workers return.
    stopping: bool,
    /// Workers waiting on `work_available`: a new job wakes them only if there are any (a spinning worker sees it).
    parked_workers: usize,
    /// Whether the caller of the running job waits on `job_done`: the last piece wakes it only then.
    caller_parked: bool,
}

struct Shared {
    state: Mutex<State>,
    /// `State::generation`, readable without the lock by a spinning worker (it then takes the lock to get the job);
    /// [`aplrt_finish`] changes it too, so that spinning workers stop at once.
    published_generation: AtomicU64,
    work_available: Condvar,
    job_done: Condvar,
}

/// The state's lock, its release and the waits on its condition variables, annotated for valgrind's thread checkers
/// (`thread_checker.rs`): a release happens before the next acquisition, which they cannot see through std's futexes.
/// The lock and its release are never inlined: the fast paths of std's futex mutex (a compare-exchange, a swap on
/// the lock word) are inlined into them, so that a checker's report of that atomic access names them, and
/// tests/valgrind_support/std_futex_locks.supp can suppress it there and nowhere else.
impl Shared {
    #[inline(never)]
    fn lock_state(&self) -> MutexGuard<'_, State> {
        let guard = self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        happens_after(&self.state);
        guard
    }

    #[inline(never)]
    fn unlock_state(&self, guard: MutexGuard<'_, State>) {
        happens_before(&self.state);
        drop(guard);
    }

    fn wait<'a>(&self, condition: &Condvar, guard: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        happens_before(&self.state);
        let guard = condition.wait(guard).unwrap_or_else(|poisoned| poisoned.into_inner());
        happens_after(&self.state);
        guard
    }
}

struct Pool {
    shared: Arc<Shared>,
    /// Held by the thread whose job runs on the pool.
    dispatch: Mutex<()>,
    threads: usize,
    process: u32,
    /// Whether idle threads spin before parking (see the module's documentation).
    spins: bool,
    /// The workers' handles, joined by [`aplrt_finish`].
    workers: Mutex<Vec<std::thread::JoinHandle<()>>>,
}

/// The pools started in this process (one per thread count asked for; a forked child finds its parent's here too).
static POOLS: Mutex<Vec<Arc<Pool>>> = Mutex::new(Vec::new());

/// The pool of this process with `threads` threads (the caller counts as one), created on first use.
fn pool_for(threads: usize) -> Arc<Pool> {
    let process = std::process::id();
    let mut pools = POOLS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(pool) = pools
        .iter()
        .find(|pool| pool.threads == threads && pool.process == process)
    {
        return pool.clone();
    }
    let pool = Arc::new(start_pool(threads, process));
    pools.push(pool.clone());
    pool
}

fn start_pool(threads: usize, process: u32) -> Pool {
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            generation: 0,
            job: None,
            stopping: false,
            parked_workers: 0,
            caller_parked: false,
        }),
        published_generation: AtomicU64::new(0),
        work_available: Condvar::new(),
        job_done: Condvar::new(),
    });
    let spins = threads <= core_count() && !crate::thread_checker::running_under_valgrind();
    let first_cores = first_cores::cores_for_workers(threads - 1);
    static WORKERS_STARTED: AtomicUsize = AtomicUsize::new(0);
    let workers = (1..threads)
        .filter_map(|worker| {
            let shared = shared.clone();
            let first_core = first_cores.get(worker - 1).copied();
            let number = WORKERS_STARTED.fetch_add(1, Ordering::Relaxed);
            // A worker that cannot be started leaves more pieces for the others: the job still completes.
            std::thread::Builder::new()
                .name(format!("aplc-worker-{number}"))
                .stack_size(crate::abi::WORKER_STACK_BYTES)
                .spawn(move || {
                    if let Some(core) = first_core {
                        first_cores::start_on(core);
                    }
                    run_worker(&shared, spins)
                })
                .ok()
        })
        .collect();
    Pool {
        shared,
        dispatch: Mutex::new(()),
        threads,
        process,
        spins,
        workers: Mutex::new(workers),
    }
}

/// Ends a compiled program's run: flushes its output and stops the workers of this process's pools, so that the
/// process ends with no thread of ours alive (memory checkers then see every thread's memory returned). Called by the
/// `main` of executables after the program; the JIT and the REPL keep their pools for the next program or line.
#[no_mangle]
pub extern "C" fn aplrt_finish() {
    crate::abi::aplrt_flush();
    crate::abi::release_retained_blocks();
    let process = std::process::id();
    let pools: Vec<Arc<Pool>> = {
        let mut pools = POOLS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        std::mem::take(&mut *pools)
    };
    for pool in pools.iter().filter(|pool| pool.process == process) {
        let mut state = pool.shared.lock_state();
        state.stopping = true;
        pool.shared.published_generation.fetch_add(1, Ordering::Release);
        pool.shared.unlock_state(state);
        pool.shared.work_available.notify_all();
        let workers = std::mem::take(&mut *pool.workers.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
        for worker in workers {
            let _ = worker.join();
        }
    }
}

/// A worker: waits for a job it has not run yet (spinning first when `spins`), runs pieces of it, and waits again.
fn run_worker(shared: &Shared, spins: bool) {
    let mut seen = 0;
    loop {
        if spins {
            spin_until(|| shared.published_generation.load(Ordering::Acquire) != seen);
        }
        let job = {
            let mut state = shared.lock_state();
            while !state.stopping && (state.generation == seen || state.job.is_none()) {
                state.parked_workers += 1;
                state = shared.wait(&shared.work_available, state);
                state.parked_workers -= 1;
            }
            if state.stopping {
                shared.unlock_state(state);
                return;
            }
            seen = state.generation;
            let job = state.job.clone().expect("checked above");
            shared.unlock_state(state);
            job
        };
        job.run_pieces(shared);
    }
}

/// Checks `ready` until it holds or [`SPIN_BEFORE_PARKING`] has passed; says which. The clock is read every 64
/// checks (a check with its pause is a few dozen nanoseconds).
fn spin_until(mut ready: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    loop {
        for _ in 0..64 {
            if ready() {
                return true;
            }
            std::hint::spin_loop();
        }
        if start.elapsed() >= SPIN_BEFORE_PARKING {
            return false;
        }
    }
}

/// Where a new worker starts. Linux may start a thread on the core of the thread that created it, and the caller of
/// the first parallel construct then keeps that core busy: the worker waits for it (2 ms in this VM, measured with
/// `perf sched`) and the two share one core until the balancer moves one, milliseconds later, which made a program
/// with one parallel loop of 10 ms (easter) run on two threads as slowly as on one in half the runs. So each worker
/// starts on a core of its own, other than the caller's, and is then allowed every core again (the affinity it had):
/// a first placement, not a pinning.
mod first_cores {
    /// A `cpu_set_t` of glibc: 1024 bits.
    type CpuSet = [u64; 16];

    extern "C" {
        fn sched_getcpu() -> i32;
        fn sched_getaffinity(pid: i32, size: usize, mask: *mut CpuSet) -> i32;
        fn sched_setaffinity(pid: i32, size: usize, mask: *const CpuSet) -> i32;
    }

    /// The cores the calling thread may run on (`None` when they cannot be read).
    pub fn allowed() -> Option<CpuSet> {
        let mut allowed: CpuSet = [0; 16];
        // SAFETY: the mask is a writable `cpu_set_t` of the size passed; pid 0 is the calling thread.
        (unsafe { sched_getaffinity(0, std::mem::size_of::<CpuSet>(), &mut allowed) } == 0).then_some(allowed)
    }

    /// The cores the process may use other than the calling thread's, one for each of `workers` (fewer when there
    /// are fewer such cores; empty when the affinity cannot be read).
    pub fn cores_for_workers(workers: usize) -> Vec<usize> {
        let Some(allowed) = allowed() else {
            return Vec::new();
        };
        // SAFETY: no arguments; -1 when the core is unknown.
        let current = unsafe { sched_getcpu() };
        (0..1024)
            .filter(|&core| allowed[core / 64] >> (core % 64) & 1 == 1 && core as i32 != current)
            .take(workers)
            .collect()
    }

    /// Moves the calling thread to `core`, then allows it every core it was allowed before; does nothing if either
    /// step fails.
    pub fn start_on(core: usize) {
        let Some(allowed) = allowed() else {
            return;
        };
        let mut only: CpuSet = [0; 16];
        only[core / 64] |= 1 << (core % 64);
        // SAFETY: both masks are readable `cpu_set_t`s of the size passed; pid 0 is the calling thread.
        unsafe {
            if sched_setaffinity(0, std::mem::size_of::<CpuSet>(), &only) == 0 {
                sched_setaffinity(0, std::mem::size_of::<CpuSet>(), &allowed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    unsafe extern "C" fn add_task_numbers(context: *mut u8, start: i64, end: i64) {
        let sums = context as *const AtomicI64;
        for task in start..end {
            // SAFETY: the test passes an array of as many counters as tasks.
            unsafe { (*sums.add(task as usize)).fetch_add(task + 1, Ordering::Relaxed) };
        }
    }

    #[test]
    fn every_task_runs_exactly_once_on_the_pool() {
        for tasks in [1_i64, 2, 7, 64, 1000] {
            let sums: Vec<AtomicI64> = (0..tasks).map(|_| AtomicI64::new(0)).collect();
            // SAFETY: each task touches only its own counter.
            unsafe { aplrt_parallel_for(add_task_numbers, sums.as_ptr() as *mut u8, tasks, 1 << 40, 0) };
            for (task, sum) in sums.iter().enumerate() {
                assert_eq!(sum.load(Ordering::Relaxed), task as i64 + 1, "task {task} of {tasks}");
            }
        }
    }

    #[test]
    fn jobs_in_quick_succession_and_after_parking_all_complete() {
        // Back to back, the workers find each job while spinning; after a pause longer than the spin they have
        // parked and must be woken (and the caller may park waiting for the last piece).
        for round in 0..400_i64 {
            if round % 100 == 99 {
                std::thread::sleep(SPIN_BEFORE_PARKING * 3);
            }
            let tasks = 1 + round % 37;
            let sums: Vec<AtomicI64> = (0..tasks).map(|_| AtomicI64::new(0)).collect();
            // SAFETY: each task touches only its own counter.
            unsafe { aplrt_parallel_for(add_task_numbers, sums.as_ptr() as *mut u8, tasks, 1 << 40, 0) };
            let total: i64 = sums.iter().map(|sum| sum.load(Ordering::Relaxed)).sum();
            assert_eq!(total, tasks * (tasks + 1) / 2, "round {round}");
        }
    }

    #[test]
    fn a_worker_starts_on_a_core_of_its_own_and_may_then_run_on_every_core() {
        let before = first_cores::allowed().expect("the affinity can be read");
        let cores = first_cores::cores_for_workers(64);
        let allowed_count = before.iter().map(|word| word.count_ones() as usize).sum::<usize>();
        // Every allowed core but (at most) the calling thread's, each once.
        assert!(
            cores.len() + 1 >= allowed_count && cores.len() <= allowed_count,
            "{cores:?}"
        );
        assert!(cores.iter().all(|&core| before[core / 64] >> (core % 64) & 1 == 1));
        let mut distinct = cores.clone();
        distinct.dedup();
        assert_eq!(distinct, cores);
        if let Some(&core) = cores.first() {
            let after = std::thread::spawn(move || {
                first_cores::start_on(core);
                first_cores::allowed()
            })
            .join()
            .unwrap();
            // A first placement, not a pinning: the thread may run anywhere it could before.
            assert_eq!(after, Some(before));
        }
    }

    #[test]
    fn work_below_the_threshold_runs_in_one_call() {
        unsafe extern "C" fn record_range(context: *mut u8, start: i64, end: i64) {
            let calls = context as *const Mutex<Vec<(i64, i64)>>;
            // SAFETY: the test passes a mutex-protected vector.
            unsafe { (*calls).lock().unwrap().push((start, end)) };
        }
        let calls = Mutex::new(Vec::<(i64, i64)>::new());
        // SAFETY: the body only locks the vector.
        unsafe { aplrt_parallel_for(record_range, &calls as *const _ as *mut u8, 100, 10, 1000) };
        assert_eq!(*calls.lock().unwrap(), vec![(0, 100)]);
    }

    #[test]
    fn parameters_default_when_unset() {
        assert_eq!(parameter_value("surely_not_set_by_anyone", 42), 42);
    }
}

//! The run-time half of the OpenCL backend: the C entry points that host code generated for OpenCL calls to run
//! kernels and to keep arrays resident on the device. The compiler generates the OpenCL C source of a program's
//! kernels (one string per program, a static constant of the generated code) and host code that calls these
//! functions; they build the source once per process, launch kernels, and move array blocks between host and device
//! only when the other side holds a newer copy. The OpenCL loader `libOpenCL.so.1` is opened at run time (`dlopen`,
//! see `api.rs`), so executables link without it and run without it until they launch a kernel.
//!
//! | Function                | C signature                                                                      |
//! |-------------------------|----------------------------------------------------------------------------------|
//! | [`aplrt_cl_launch`]     | `int64_t aplrt_cl_launch(const uint8_t *source, int64_t source_length,`           |
//! |                         | `    const uint8_t *name, int64_t name_length, int64_t global_size,`             |
//! |                         | `    const uint64_t *scalars, int64_t scalar_count,`                              |
//! |                         | `    const ClBlockArgument *blocks, int64_t block_count)`                         |
//! | [`aplrt_cl_to_host`]    | `void aplrt_cl_to_host(uint8_t *pointer, int64_t bytes)`                          |
//! | [`aplrt_cl_host_wrote`] | `void aplrt_cl_host_wrote(uint8_t *pointer)`                                      |
//! | [`aplrt_cl_fresh`]      | `void aplrt_cl_fresh(uint8_t *pointer, int64_t bytes)`                            |
//! | [`aplrt_cl_forget`]     | `void aplrt_cl_forget(uint8_t *pointer)`                                          |
//! | [`aplrt_cl_finish`]     | `void aplrt_cl_finish(void)`                                                      |
//!
//! `ClBlockArgument` is `struct { uint8_t *pointer; int64_t bytes; int64_t writes; }` (24 bytes, [`ClBlockArgument`]).
//!
//! Kernels. A kernel launched with `scalar_count` scalars and `block_count` blocks takes, in order: the scalars, each
//! an 8-byte `long`, `ulong` or `double` (the 8 bytes of `scalars[i]` are passed as they are; narrower types such as
//! `char`, `int` or `uchar` are refused by OpenCL, so booleans and characters must be widened to `long`); then one
//! `__global T *` per block, in the order of `blocks`; last, the error word, a `__global int *` to one `int` that is 0
//! when the kernel starts. A work-item that finds an error stores a non-zero code there; [`aplrt_cl_launch`] returns
//! that code and resets the word to 0. Work-items run over `0..global_size` rounded up to a multiple of the work-group
//! size, so every kernel starts with `if (get_global_id(0) >= n) return;`. Sources are built with `-cl-std=CL1.2`
//! and nothing that relaxes floating point.
//!
//! Residency. Each block (an [`crate::abi::aplrt_alloc`] address) passed to a kernel gets a device buffer of the same
//! size, kept until [`aplrt_cl_forget`]. A table records which side holds the newer contents: a launch uploads a
//! block only when the host's copy is newer (a block never seen before counts as written by the host, unless
//! [`aplrt_cl_fresh`] said that nobody wrote it yet); [`aplrt_cl_to_host`] downloads only when a kernel wrote the
//! block since; [`aplrt_cl_host_wrote`] marks the device copy stale. Calls with pointers the table does not hold
//! (blocks no kernel used) are cheap no-ops, and so are zero-byte blocks, which never travel. Only
//! [`aplrt_cl_launch`] sets the device up (and may stop a program that cannot have one): a program whose constructs
//! all stay on the host never creates an OpenCL context, and runs where there is no device.
//!
//! Environment:
//! - `APLC_DEVICE`: a case-insensitive substring of `<platform name> <device name>` choosing the device; without it
//!   the first GPU of any platform, else the first device of any kind.
//! - `APLC_OPENCL_GROUP_SIZE`: the work-group size (default [`DEFAULT_GROUP_SIZE`], at most what the device and the
//!   kernel allow); anything but a positive integer is a usage error (status 2).
//! - `APLC_OPENCL_STATS`: [`aplrt_cl_finish`] prints one line of counts on standard error.
//! - `APLC_OPENCL_PROFILE`: also kernel and transfer times (the queue is then created with profiling enabled).
//! - `APLC_OPENCL_CACHE`: the folder of the built programs cached on disk (`cache.rs`; `off`: none), by default
//!   `$XDG_CACHE_HOME/aplc/opencl` or `~/.cache/aplc/opencl`.
//! - `APLC_OPENCL_SOURCE`: a file of OpenCL C built instead of the program's own kernels (a developer's aid: it
//!   lets a kernel variant, edited by hand from `aplc dump --stage opencl`, be timed on a machine that has a device
//!   but no compiler; it must define every kernel the program launches, with the same parameters).
//!
//! Errors, as in [`crate::abi`]: a device out of memory is the APL error `WS FULL` (status 1); an OpenCL source the
//! device cannot build, or any other failing OpenCL call, is a compiler bug, `INTERNAL ERROR: ...` (status 2); and a
//! machine where the backend cannot run at all (no OpenCL loader, platform or matching device, or no double precision
//! for a program that needs it) prints `OPENCL ERROR: ...` and exits with [`OPENCL_UNAVAILABLE_EXIT_STATUS`] (3),
//! so that test harnesses can tell it apart. [`opencl_device_available`] answers the same question without exiting.

mod api;
mod cache;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ffi::{c_void, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;
use std::sync::{Mutex, MutexGuard};

use api::{
    check, error_name, string_info, value_info, Api, ClInt, ClUint, Event, Handle, Kernel, Memory, Program,
    CL_DEVICE_EXTENSIONS, CL_DEVICE_MAX_WORK_GROUP_SIZE, CL_DEVICE_NAME, CL_DEVICE_NOT_FOUND, CL_DEVICE_TYPE,
    CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_GPU, CL_DRIVER_VERSION, CL_FALSE, CL_INVALID_BUFFER_SIZE,
    CL_KERNEL_WORK_GROUP_SIZE, CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_MEM_READ_WRITE, CL_OUT_OF_RESOURCES,
    CL_PLATFORM_NAME, CL_PLATFORM_NOT_FOUND_KHR, CL_PROFILING_COMMAND_END, CL_PROFILING_COMMAND_START,
    CL_QUEUE_PROFILING_ENABLE, CL_TRUE,
};

use crate::abi::{exit_after_reporting, exit_with_apl_error, exit_with_internal_error, RuntimeErrorKind};

/// The exit status of a program that needs the OpenCL backend on a machine where it cannot run (no OpenCL loader,
/// no platform, no matching device, no double precision).
pub const OPENCL_UNAVAILABLE_EXIT_STATUS: i32 = 3;

/// Another name of [`OPENCL_UNAVAILABLE_EXIT_STATUS`] (the compiler driver's).
pub const NO_DEVICE_EXIT_STATUS: i32 = OPENCL_UNAVAILABLE_EXIT_STATUS;

/// The work-group size when `APLC_OPENCL_GROUP_SIZE` is unset.
pub const DEFAULT_GROUP_SIZE: usize = 256;

/// The options every program is built with.
pub const BUILD_OPTIONS: &str = "-cl-std=CL1.2";

/// A block argument of [`aplrt_cl_launch`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ClBlockArgument {
    /// The block's host address (from `aplrt_alloc`).
    pub pointer: *mut u8,
    /// Its size in bytes.
    pub bytes: i64,
    /// 1 when the kernel stores into the block, else 0.
    pub writes: i64,
}

/// What the backend has done in this process so far (cumulative), for tests and for the statistics line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClStatistics {
    /// Kernel launches (launches of zero work-items are not counted: they run nothing).
    pub launches: u64,
    /// Distinct kernel names launched.
    pub distinct_kernels: u64,
    /// Block uploads (host to device) and their bytes.
    pub uploads: u64,
    pub upload_bytes: u64,
    /// Block downloads (device to host) and their bytes.
    pub downloads: u64,
    pub download_bytes: u64,
}

impl ClStatistics {
    fn minus(&self, earlier: &ClStatistics) -> ClStatistics {
        ClStatistics {
            launches: self.launches - earlier.launches,
            distinct_kernels: self.distinct_kernels - earlier.distinct_kernels,
            uploads: self.uploads - earlier.uploads,
            upload_bytes: self.upload_bytes - earlier.upload_bytes,
            downloads: self.downloads - earlier.downloads,
            download_bytes: self.download_bytes - earlier.download_bytes,
        }
    }
}

/// Which side holds the newer contents of a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Residency {
    /// Nobody wrote the block yet: no upload is needed before a kernel uses it.
    Fresh,
    /// The host wrote it since the device copy was made: upload before a kernel reads it.
    HostNewer,
    /// A kernel wrote it: download before the host reads it.
    DeviceNewer,
    /// Both copies are the same.
    Both,
}

struct Entry {
    /// Created at the first launch that uses the block.
    buffer: Option<Memory>,
    bytes: usize,
    residency: Residency,
}

impl Entry {
    /// A block nobody wrote yet, without a device buffer.
    fn fresh(bytes: usize) -> Entry {
        Entry {
            buffer: None,
            bytes,
            residency: Residency::Fresh,
        }
    }
}

struct BuiltProgram {
    source: Vec<u8>,
    program: Program,
    kernels: HashMap<String, Kernel>,
}

#[derive(Default)]
struct Profile {
    /// Per kernel name: launches and total nanoseconds.
    kernels: BTreeMap<String, (u64, u64)>,
    /// Programs built from OpenCL C source and from cached binaries, and the time both took (wall-clock).
    programs_from_source: u64,
    programs_from_cache: u64,
    build_nanoseconds: u64,
    upload_nanoseconds: u64,
    download_nanoseconds: u64,
}

struct State {
    api: &'static Api,
    device: Handle,
    /// `<platform name> <device name>`.
    description: String,
    device_name: String,
    /// The description and the driver's version: what a cached program binary must have been built for.
    identity: String,
    has_fp64: bool,
    max_group_size: usize,
    profiling: bool,
    context: Handle,
    queue: Handle,
    /// One `int`, 0 between launches.
    error_word: Memory,
    /// What zero-byte blocks are bound to (a zero-size buffer is invalid).
    empty_buffer: Memory,
    /// By the address of the source string.
    programs: HashMap<usize, BuiltProgram>,
    /// By the host address of the block.
    blocks: HashMap<usize, Entry>,
    statistics: ClStatistics,
    kernel_names: HashSet<String>,
    /// The kernel names launched since [`aplrt_cl_finish`] last reported.
    kernel_names_since_report: HashSet<String>,
    profile: Profile,
    /// The statistics when [`aplrt_cl_finish`] last reported.
    reported: ClStatistics,
}

// SAFETY: OpenCL handles may be used from any thread (OpenCL 1.2 makes every API call but clSetKernelArg
// thread-safe, and kernels are only touched under the state's mutex). The context and queue live as long as the
// process.
unsafe impl Send for State {}

enum Slot {
    /// Not set up yet: no kernel has been launched. The blocks host code announced as fresh so far (address and
    /// bytes), for the state to start with: announcing a block never sets the device up, so a program whose
    /// constructs all stay on the host never pays for an OpenCL context (about 0.3 s on an NVIDIA GPU).
    Unknown(BTreeMap<usize, usize>),
    Ready(Box<State>),
    Unavailable(String),
}

static STATE: Mutex<Slot> = Mutex::new(Slot::Unknown(BTreeMap::new()));

fn lock_state() -> MutexGuard<'static, Slot> {
    STATE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The state, set up on first use, or the reason the backend cannot run here.
fn ready_state(slot: &mut Slot) -> Result<&mut State, String> {
    if let Slot::Unknown(fresh) = slot {
        let fresh = std::mem::take(fresh);
        *slot = match State::create() {
            Ok(mut state) => {
                for (pointer, bytes) in fresh {
                    state.blocks.insert(pointer, Entry::fresh(bytes));
                }
                Slot::Ready(Box::new(state))
            }
            Err(reason) => Slot::Unavailable(reason),
        };
    }
    match slot {
        Slot::Ready(state) => Ok(state),
        Slot::Unavailable(reason) => Err(reason.clone()),
        Slot::Unknown(_) => unreachable!("the slot was just filled"),
    }
}

/// The state, or the program stops with status 3.
fn state_or_exit(slot: &mut Slot) -> &mut State {
    match ready_state(slot) {
        Ok(state) => state,
        Err(reason) => exit_unavailable(&reason),
    }
}

fn exit_unavailable(reason: &str) -> ! {
    exit_after_reporting(&format!("OPENCL ERROR: {reason}"), OPENCL_UNAVAILABLE_EXIT_STATUS)
}

/// Whether this process can run OpenCL kernels: `Ok` with a description of the device [`aplrt_cl_launch`] uses
/// (`<platform name> <device name>`), or `Err` with the reason it cannot (the message `OPENCL ERROR:` would print).
/// Sets the device up on success; the answer is the same for the whole process.
pub fn opencl_device_available() -> Result<String, String> {
    guarded("device selection", || {
        let mut slot = lock_state();
        ready_state(&mut slot).map(|state| state.description.clone())
    })
}

/// The counts of transfers and launches so far in this process.
pub fn statistics() -> ClStatistics {
    guarded("statistics", || match &*lock_state() {
        Slot::Ready(state) => state.statistics.clone(),
        _ => ClStatistics::default(),
    })
}

/// Runs `body`, turning a panic (a bug here) into an internal error rather than an abort.
fn guarded<R>(what: &str, body: impl FnOnce() -> R) -> R {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(result) => result,
        Err(_) => exit_with_internal_error(&format!("OpenCL {what} failed (a panic in the run-time library)")),
    }
}

fn internal_failure(what: &str, code: ClInt) -> ! {
    exit_with_internal_error(&format!("OpenCL {what} failed: {}", error_name(code)))
}

fn device_memory_full(device_name: &str, bytes: usize, code: ClInt) -> ! {
    exit_with_apl_error(
        RuntimeErrorKind::WorkspaceFull,
        &format!(
            "cannot allocate {bytes} bytes on the OpenCL device {device_name} ({})",
            error_name(code)
        ),
    )
}

/// The work-group size asked for by `APLC_OPENCL_GROUP_SIZE`, read once per process.
fn requested_group_size() -> usize {
    static GROUP_SIZE: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *GROUP_SIZE.get_or_init(|| match std::env::var("APLC_OPENCL_GROUP_SIZE") {
        Err(_) => DEFAULT_GROUP_SIZE,
        Ok(text) => match text.trim().parse::<usize>() {
            Ok(size) if size >= 1 => size,
            _ => crate::abi::exit_with_usage_error(&format!(
                "APLC_OPENCL_GROUP_SIZE must be a positive integer, not `{text}`"
            )),
        },
    })
}

/// The contents of the file named by `APLC_OPENCL_SOURCE`, when it is set; a file that cannot be read is a usage
/// error (status 2).
fn replacement_source() -> Option<Vec<u8>> {
    let path = std::env::var_os("APLC_OPENCL_SOURCE")?;
    match std::fs::read(&path) {
        Ok(text) => Some(text),
        Err(error) => crate::abi::exit_with_usage_error(&format!(
            "APLC_OPENCL_SOURCE names {}, which cannot be read: {error}",
            std::path::Path::new(&path).display()
        )),
    }
}

fn environment_flag(name: &str) -> bool {
    std::env::var_os(name).is_some()
}

const INSTALL_ADVICE: &str = "install an OpenCL implementation such as PoCL (scripts/setup.sh does)";

/// A device of some platform: (handle, `<platform name> <device name>`, device name, is a GPU).
type DeviceChoice = (Handle, String, String, bool);

/// Every device of every platform.
fn all_devices(api: &Api) -> Result<Vec<DeviceChoice>, String> {
    let no_platform =
        || format!("no OpenCL platform is installed (error {CL_PLATFORM_NOT_FOUND_KHR}); {INSTALL_ADVICE}");
    let mut count: ClUint = 0;
    // SAFETY: asks for the count only.
    match check(unsafe { (api.get_platform_ids)(0, ptr::null_mut(), &mut count) }) {
        Ok(()) => {}
        Err(CL_PLATFORM_NOT_FOUND_KHR) => return Err(no_platform()),
        Err(code) => {
            return Err(format!(
                "the OpenCL platforms cannot be listed ({}); {INSTALL_ADVICE}",
                error_name(code)
            ))
        }
    }
    if count == 0 {
        return Err(no_platform());
    }
    let mut platforms: Vec<Handle> = vec![ptr::null_mut(); count as usize];
    // SAFETY: room for `count` handles.
    check(unsafe { (api.get_platform_ids)(count, platforms.as_mut_ptr(), ptr::null_mut()) })
        .map_err(|code| format!("the OpenCL platforms cannot be listed ({})", error_name(code)))?;
    let mut devices = Vec::new();
    for platform in platforms {
        let platform_name = string_info(api.get_platform_info, platform, CL_PLATFORM_NAME).unwrap_or_default();
        let mut device_count: ClUint = 0;
        // SAFETY: asks for the count only.
        match check(unsafe {
            (api.get_device_ids)(platform, CL_DEVICE_TYPE_ALL, 0, ptr::null_mut(), &mut device_count)
        }) {
            Ok(()) => {}
            Err(CL_DEVICE_NOT_FOUND) => continue,
            Err(code) => {
                return Err(format!(
                    "the devices of OpenCL platform {platform_name} cannot be listed ({})",
                    error_name(code)
                ))
            }
        }
        let mut ids: Vec<Handle> = vec![ptr::null_mut(); device_count as usize];
        // SAFETY: room for `device_count` handles.
        check(unsafe {
            (api.get_device_ids)(
                platform,
                CL_DEVICE_TYPE_ALL,
                device_count,
                ids.as_mut_ptr(),
                ptr::null_mut(),
            )
        })
        .map_err(|code| {
            format!(
                "the devices of OpenCL platform {platform_name} cannot be listed ({})",
                error_name(code)
            )
        })?;
        for device in ids {
            let name = string_info(api.get_device_info, device, CL_DEVICE_NAME)
                .unwrap_or_default()
                .trim()
                .to_string();
            let kind: u64 = value_info(api.get_device_info, device, CL_DEVICE_TYPE).unwrap_or(0);
            let description = format!("{} {name}", platform_name.trim());
            devices.push((device, description, name, kind & CL_DEVICE_TYPE_GPU != 0));
        }
    }
    Ok(devices)
}

/// The device to use: `APLC_DEVICE`'s match, else the first GPU, else the first device.
fn select_device(api: &Api) -> Result<DeviceChoice, String> {
    let mut devices = all_devices(api)?;
    if devices.is_empty() {
        return Err(format!(
            "the installed OpenCL platforms have no device; {INSTALL_ADVICE}"
        ));
    }
    let chosen = match std::env::var("APLC_DEVICE") {
        Ok(wanted) => {
            let wanted_lower = wanted.to_lowercase();
            match devices
                .iter()
                .position(|(_, description, _, _)| description.to_lowercase().contains(&wanted_lower))
            {
                Some(position) => position,
                None => {
                    let names: Vec<&str> = devices
                        .iter()
                        .map(|(_, description, _, _)| description.as_str())
                        .collect();
                    return Err(format!(
                        "no OpenCL device matches APLC_DEVICE=`{wanted}`; the devices are: {}",
                        names.join("; ")
                    ));
                }
            }
        }
        Err(_) => devices.iter().position(|(_, _, _, is_gpu)| *is_gpu).unwrap_or(0),
    };
    Ok(devices.swap_remove(chosen))
}

/// A new read-write buffer of `bytes` bytes (at least 1), or the OpenCL error.
fn create_buffer(api: &Api, context: Handle, bytes: usize) -> Result<Memory, ClInt> {
    let mut code: ClInt = 0;
    // SAFETY: no host pointer is given.
    let buffer = unsafe { (api.create_buffer)(context, CL_MEM_READ_WRITE, bytes.max(1), ptr::null_mut(), &mut code) };
    check(code)?;
    Ok(Memory(buffer))
}

impl State {
    fn create() -> Result<State, String> {
        let api = api::api()?;
        let (device, description, device_name, _) = select_device(api)?;
        let driver = string_info(api.get_device_info, device, CL_DRIVER_VERSION).unwrap_or_default();
        let identity = format!("{description}; driver {driver}");
        let has_fp64 = string_info(api.get_device_info, device, CL_DEVICE_EXTENSIONS)
            .map(|extensions| {
                extensions
                    .split_whitespace()
                    .any(|extension| extension == "cl_khr_fp64")
            })
            .unwrap_or(false);
        let max_group_size = value_info::<usize>(api.get_device_info, device, CL_DEVICE_MAX_WORK_GROUP_SIZE)
            .unwrap_or(1)
            .max(1);
        let profiling = environment_flag("APLC_OPENCL_PROFILE");
        let mut code: ClInt = 0;
        // SAFETY: one valid device, no properties or callback.
        let context = unsafe { (api.create_context)(ptr::null(), 1, &device, None, ptr::null_mut(), &mut code) };
        check(code)
            .map_err(|code| format!("cannot create an OpenCL context on {description}: {}", error_name(code)))?;
        let properties = if profiling { CL_QUEUE_PROFILING_ENABLE } else { 0 };
        // SAFETY: the device belongs to the context. clCreateCommandQueue is deprecated from OpenCL 2.0 but present
        // everywhere, including OpenCL 1.2 platforms, which lack clCreateCommandQueueWithProperties.
        let queue = unsafe { (api.create_command_queue)(context, device, properties, &mut code) };
        check(code).map_err(|code| format!("cannot create an OpenCL queue on {description}: {}", error_name(code)))?;
        let buffer_failure = |code| format!("cannot create a buffer on {description}: {}", error_name(code));
        let error_word = create_buffer(api, context, std::mem::size_of::<ClInt>()).map_err(buffer_failure)?;
        let empty_buffer = create_buffer(api, context, 1).map_err(buffer_failure)?;
        let zero: ClInt = 0;
        // SAFETY: a blocking write of one int from a live local.
        check(unsafe {
            (api.enqueue_write_buffer)(
                queue,
                error_word.0,
                CL_TRUE,
                0,
                std::mem::size_of::<ClInt>(),
                (&zero as *const ClInt).cast(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        })
        .map_err(|code| format!("cannot write a buffer on {description}: {}", error_name(code)))?;
        Ok(State {
            api,
            device,
            description,
            device_name,
            identity,
            has_fp64,
            max_group_size,
            profiling,
            context,
            queue,
            error_word,
            empty_buffer,
            programs: HashMap::new(),
            blocks: HashMap::new(),
            statistics: ClStatistics::default(),
            kernel_names: HashSet::new(),
            kernel_names_since_report: HashSet::new(),
            profile: Profile::default(),
            reported: ClStatistics::default(),
        })
    }

    /// The kernel `name` of `source`, building the source on first use.
    fn kernel(&mut self, source_key: usize, source: &[u8], name: &str) -> Handle {
        let up_to_date = self
            .programs
            .get(&source_key)
            .is_some_and(|built| built.source == source);
        if !up_to_date {
            let built = self.build(source);
            self.programs.insert(source_key, built);
        }
        let api = self.api;
        let device_name = self.device_name.clone();
        let built = self.programs.get_mut(&source_key).expect("the program was just built");
        if let Some(kernel) = built.kernels.get(name) {
            return kernel.0;
        }
        let c_name = CString::new(name)
            .unwrap_or_else(|_| exit_with_internal_error(&format!("OpenCL kernel name `{name}` contains NUL")));
        let mut code: ClInt = 0;
        // SAFETY: a built program and a C string.
        let kernel = Kernel(unsafe { (api.create_kernel)(built.program.0, c_name.as_ptr(), &mut code) });
        if let Err(code) = check(code) {
            exit_with_internal_error(&format!(
                "OpenCL kernel `{name}` cannot be created on {device_name}: {}",
                error_name(code)
            ));
        }
        let handle = kernel.0;
        built.kernels.insert(name.to_string(), kernel);
        handle
    }

    /// Builds a program: from the device's binary in the on-disk cache when there is one for exactly this source
    /// (`cache.rs`), else from source, storing the binary for the next run.
    fn build(&mut self, source: &[u8]) -> BuiltProgram {
        let own_source = source;
        let replacement = replacement_source();
        let source = replacement.as_deref().unwrap_or(own_source);
        let text = String::from_utf8_lossy(source);
        if !self.has_fp64 && mentions_word(&text, "double") {
            exit_unavailable(&format!(
                "device {} has no double precision (cl_khr_fp64)",
                self.device_name
            ));
        }
        let started = std::time::Instant::now();
        let entry = cache::folder().map(|folder| (cache::key(&self.identity, BUILD_OPTIONS, source), folder));
        let cached = entry
            .as_ref()
            .and_then(|(key, folder)| cache::load(folder, key))
            .and_then(|binary| self.program_from_binary(&binary));
        let program = match cached {
            Some(program) => {
                self.profile.programs_from_cache += 1;
                program
            }
            None => {
                let program = self.program_from_source(source, &text);
                if let Some((key, folder)) = &entry {
                    if let Ok(binary) = api::program_binary(self.api, program.0) {
                        cache::store(folder, key, &binary);
                    }
                }
                self.profile.programs_from_source += 1;
                program
            }
        };
        self.profile.build_nanoseconds += started.elapsed().as_nanos() as u64;
        BuiltProgram {
            // The program's own source, which later launches compare with theirs.
            source: own_source.to_vec(),
            program,
            kernels: HashMap::new(),
        }
    }

    /// A program built from a binary of this device, or `None` when the device refuses it (another driver made it,
    /// or it is damaged): the caller then builds from source.
    fn program_from_binary(&self, binary: &[u8]) -> Option<Program> {
        let (mut status, mut code): (ClInt, ClInt) = (0, 0);
        let (length, pointer) = (binary.len(), binary.as_ptr());
        // SAFETY: one device of this context, one binary of `length` bytes.
        let program = Program(unsafe {
            (self.api.create_program_with_binary)(
                self.context,
                1,
                &self.device,
                &length,
                &pointer,
                &mut status,
                &mut code,
            )
        });
        check(code).and(check(status)).ok()?;
        let options = CString::new(BUILD_OPTIONS).expect("no NUL in the options");
        // SAFETY: a program of this context, one device of it, no callback.
        check(unsafe { (self.api.build_program)(program.0, 1, &self.device, options.as_ptr(), None, ptr::null_mut()) })
            .ok()?;
        Some(program)
    }

    /// A program built from OpenCL C source; a source the device cannot build is a compiler bug, reported with the
    /// build log and the source lines it points at.
    fn program_from_source(&self, source: &[u8], text: &str) -> Program {
        let api = self.api;
        let mut code: ClInt = 0;
        let source_pointer = source.as_ptr().cast::<std::ffi::c_char>();
        let length = source.len();
        // SAFETY: one string of `length` bytes.
        let program =
            Program(unsafe { (api.create_program_with_source)(self.context, 1, &source_pointer, &length, &mut code) });
        if let Err(code) = check(code) {
            internal_failure("program creation (clCreateProgramWithSource)", code);
        }
        let options = CString::new(BUILD_OPTIONS).expect("no NUL in the options");
        // SAFETY: a program of this context, one device of it, no callback.
        let built =
            check(unsafe { (api.build_program)(program.0, 1, &self.device, options.as_ptr(), None, ptr::null_mut()) });
        if let Err(code) = built {
            let log = api::build_log(api, program.0, self.device).unwrap_or_default();
            let log = if log.trim().is_empty() {
                format!("(no build log; clBuildProgram said {})", error_name(code))
            } else {
                log
            };
            exit_with_internal_error(&format!(
                "OpenCL kernel build failed on {}:\n{}",
                self.device_name,
                annotated_build_log(&log, text)
            ));
        }
        program
    }

    fn new_buffer(&self, bytes: usize) -> Memory {
        match create_buffer(self.api, self.context, bytes) {
            Ok(buffer) => buffer,
            Err(code @ (CL_MEM_OBJECT_ALLOCATION_FAILURE | CL_OUT_OF_RESOURCES | CL_INVALID_BUFFER_SIZE)) => {
                device_memory_full(&self.device_name, bytes, code)
            }
            Err(code) => internal_failure("buffer creation (clCreateBuffer)", code),
        }
    }

    /// Makes the device copy of a block current before a launch; returns its buffer. With profiling, the upload's
    /// event goes to `events`.
    ///
    /// # Safety
    /// `block.pointer` must point to `block.bytes` readable bytes that stay unchanged until the queue finishes.
    unsafe fn make_resident(&mut self, block: &ClBlockArgument, events: &mut Vec<Event>) -> Handle {
        let bytes = block.bytes as usize;
        let key = block.pointer as usize;
        let (needs_buffer, needs_upload) = match self.blocks.get(&key) {
            None => (true, true),
            Some(entry) if entry.residency == Residency::Fresh => {
                (entry.buffer.is_none() || entry.bytes != bytes, false)
            }
            // The address was reused for a block of another size that nobody announced: a new block.
            Some(entry) if entry.bytes != bytes || entry.buffer.is_none() => (true, true),
            Some(entry) => (false, entry.residency == Residency::HostNewer),
        };
        if needs_buffer {
            let buffer = self.new_buffer(bytes);
            let residency = match self.blocks.get(&key) {
                Some(entry) if entry.residency == Residency::Fresh => Residency::Fresh,
                _ => Residency::HostNewer,
            };
            self.blocks.insert(
                key,
                Entry {
                    buffer: Some(buffer),
                    bytes,
                    residency,
                },
            );
        }
        let entry = self.blocks.get_mut(&key).expect("the entry was just made");
        let buffer = entry.buffer.as_ref().expect("the buffer was just made").0;
        if needs_upload {
            let mut event: Handle = ptr::null_mut();
            // SAFETY: the buffer holds `bytes` bytes and the caller guarantees as many readable bytes, unchanged
            // until the write completes, which is before the launch returns (the error word's blocking read follows
            // it on this in-order queue).
            let code = unsafe {
                (self.api.enqueue_write_buffer)(
                    self.queue,
                    buffer,
                    CL_FALSE,
                    0,
                    bytes,
                    block.pointer as *const c_void,
                    0,
                    ptr::null(),
                    if self.profiling { &mut event } else { ptr::null_mut() },
                )
            };
            match check(code) {
                Ok(()) => {
                    if !event.is_null() {
                        events.push(Event(event));
                    }
                }
                Err(code @ CL_MEM_OBJECT_ALLOCATION_FAILURE) => device_memory_full(&self.device_name, bytes, code),
                Err(code) => internal_failure("upload (clEnqueueWriteBuffer)", code),
            }
            entry.residency = Residency::Both;
            self.statistics.uploads += 1;
            self.statistics.upload_bytes += bytes as u64;
        }
        buffer
    }

    fn set_argument(&self, kernel: Handle, name: &str, index: ClUint, size: usize, value: *const c_void, what: &str) {
        // SAFETY: `value` points to `size` readable bytes.
        if let Err(code) = check(unsafe { (self.api.set_kernel_arg)(kernel, index, size, value) }) {
            exit_with_internal_error(&format!(
                "OpenCL argument {index} ({what}) of kernel `{name}` cannot be set: {}",
                error_name(code)
            ));
        }
    }

    /// # Safety
    /// As for [`aplrt_cl_launch`].
    unsafe fn launch(
        &mut self,
        source: &[u8],
        source_key: usize,
        name: &str,
        global_size: usize,
        scalars: &[u64],
        blocks: &[ClBlockArgument],
    ) -> i64 {
        let api = self.api;
        let mut upload_events = Vec::new();
        let mut block_buffers: Vec<Handle> = Vec::with_capacity(blocks.len() + 1);
        for block in blocks {
            if block.bytes == 0 || block.pointer.is_null() {
                block_buffers.push(self.empty_buffer.0);
            } else {
                // SAFETY: the caller guarantees the block.
                block_buffers.push(unsafe { self.make_resident(block, &mut upload_events) });
            }
        }
        block_buffers.push(self.error_word.0);
        let kernel = self.kernel(source_key, source, name);
        let mut index: ClUint = 0;
        for scalar in scalars {
            let what = "a scalar, which the kernel must declare long, ulong or double";
            self.set_argument(kernel, name, index, 8, (scalar as *const u64).cast(), what);
            index += 1;
        }
        for buffer in &block_buffers {
            let what = "a buffer";
            let size = std::mem::size_of::<Handle>();
            self.set_argument(kernel, name, index, size, (buffer as *const Handle).cast(), what);
            index += 1;
        }
        let kernel_group = api::value_info_2::<usize>(
            api.get_kernel_work_group_info,
            kernel,
            self.device,
            CL_KERNEL_WORK_GROUP_SIZE,
        )
        .unwrap_or(self.max_group_size)
        .max(1);
        let group = requested_group_size().min(self.max_group_size).min(kernel_group).max(1);
        let global = global_size.div_ceil(group) * group;
        let mut kernel_event: Handle = ptr::null_mut();
        // SAFETY: every argument is set; one dimension with these sizes.
        let code = unsafe {
            (api.enqueue_nd_range_kernel)(
                self.queue,
                kernel,
                1,
                ptr::null(),
                &global,
                &group,
                0,
                ptr::null(),
                if self.profiling {
                    &mut kernel_event
                } else {
                    ptr::null_mut()
                },
            )
        };
        let kernel_event = Event(kernel_event);
        match check(code) {
            Ok(()) => {}
            Err(code @ CL_MEM_OBJECT_ALLOCATION_FAILURE) => device_memory_full(
                &self.device_name,
                blocks.iter().map(|block| block.bytes as usize).sum(),
                code,
            ),
            Err(code) => internal_failure(&format!("launch of kernel `{name}` (clEnqueueNDRangeKernel)"), code),
        }
        let mut error: ClInt = 0;
        // SAFETY: a blocking read of one int into a local.
        let code = unsafe {
            (api.enqueue_read_buffer)(
                self.queue,
                self.error_word.0,
                CL_TRUE,
                0,
                std::mem::size_of::<ClInt>(),
                (&mut error as *mut ClInt).cast(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        if let Err(code) = check(code) {
            internal_failure(&format!("kernel `{name}` (reading its error word)"), code);
        }
        if error != 0 {
            let zero: ClInt = 0;
            // SAFETY: a blocking write of one int from a local.
            let code = unsafe {
                (api.enqueue_write_buffer)(
                    self.queue,
                    self.error_word.0,
                    CL_TRUE,
                    0,
                    std::mem::size_of::<ClInt>(),
                    (&zero as *const ClInt).cast(),
                    0,
                    ptr::null(),
                    ptr::null_mut(),
                )
            };
            if let Err(code) = check(code) {
                internal_failure("reset of the error word", code);
            }
        }
        for block in blocks {
            if block.bytes == 0 || block.pointer.is_null() {
                continue;
            }
            if let Some(entry) = self.blocks.get_mut(&(block.pointer as usize)) {
                entry.residency = if block.writes != 0 || entry.residency == Residency::DeviceNewer {
                    // Written now, or by an earlier kernel and not read back yet (or passed twice, once written).
                    Residency::DeviceNewer
                } else {
                    Residency::Both
                };
            }
        }
        self.statistics.launches += 1;
        if !self.kernel_names.contains(name) {
            self.kernel_names.insert(name.to_string());
            self.statistics.distinct_kernels += 1;
        }
        if !self.kernel_names_since_report.contains(name) {
            self.kernel_names_since_report.insert(name.to_string());
        }
        if self.profiling {
            let kernel_time = self.event_nanoseconds(&kernel_event);
            let upload_time: u64 = upload_events.iter().map(|event| self.event_nanoseconds(event)).sum();
            let profile = self.profile.kernels.entry(name.to_string()).or_insert((0, 0));
            profile.0 += 1;
            profile.1 += kernel_time;
            self.profile.upload_nanoseconds += upload_time;
        }
        i64::from(error)
    }

    /// The time a finished command took on the device, when profiling.
    fn event_nanoseconds(&self, event: &Event) -> u64 {
        if event.0.is_null() {
            return 0;
        }
        let start = value_info::<u64>(self.api.get_event_profiling_info, event.0, CL_PROFILING_COMMAND_START);
        let end = value_info::<u64>(self.api.get_event_profiling_info, event.0, CL_PROFILING_COMMAND_END);
        match (start, end) {
            (Ok(start), Ok(end)) => end.saturating_sub(start),
            _ => 0,
        }
    }

    /// # Safety
    /// `pointer` must point to `bytes` writable bytes.
    unsafe fn download(&mut self, pointer: *mut u8, bytes: usize) {
        let Some(entry) = self.blocks.get_mut(&(pointer as usize)) else {
            return;
        };
        if entry.residency != Residency::DeviceNewer {
            return;
        }
        let Some(buffer) = entry.buffer.as_ref() else {
            return;
        };
        let length = bytes.min(entry.bytes);
        let mut event: Handle = ptr::null_mut();
        // SAFETY: a blocking read of at most the buffer's size into `bytes` writable bytes.
        let code = unsafe {
            (self.api.enqueue_read_buffer)(
                self.queue,
                buffer.0,
                CL_TRUE,
                0,
                length,
                pointer.cast(),
                0,
                ptr::null(),
                if self.profiling { &mut event } else { ptr::null_mut() },
            )
        };
        let event = Event(event);
        if let Err(code) = check(code) {
            internal_failure("download (clEnqueueReadBuffer)", code);
        }
        entry.residency = Residency::Both;
        self.statistics.downloads += 1;
        self.statistics.download_bytes += length as u64;
        if self.profiling {
            self.profile.download_nanoseconds += self.event_nanoseconds(&event);
        }
    }

    fn finish_queue(&self) {
        // SAFETY: the queue lives as long as the process.
        if let Err(code) = check(unsafe { (self.api.finish)(self.queue) }) {
            internal_failure("finish (clFinish)", code);
        }
    }

    fn report(&mut self) {
        let stats = environment_flag("APLC_OPENCL_STATS");
        let profile = environment_flag("APLC_OPENCL_PROFILE");
        if !stats && !profile {
            return;
        }
        let mut counts = self.statistics.minus(&self.reported);
        counts.distinct_kernels = self.kernel_names_since_report.len() as u64;
        eprintln!("{}", statistics_line(&self.device_name, &counts));
        if profile {
            if !self.profiling {
                eprintln!("opencl: profile: APLC_OPENCL_PROFILE was set after the queue was created; no times");
            } else {
                eprintln!(
                    "opencl: programs: {} built from source, {} from the cache, {:.3} ms",
                    self.profile.programs_from_source,
                    self.profile.programs_from_cache,
                    self.profile.build_nanoseconds as f64 / 1e6
                );
                for (name, (launches, nanoseconds)) in &self.profile.kernels {
                    eprintln!(
                        "opencl: kernel {name}: launches {launches}, {:.3} ms",
                        *nanoseconds as f64 / 1e6
                    );
                }
                eprintln!(
                    "{}",
                    transfer_line("to-device", counts.upload_bytes, self.profile.upload_nanoseconds)
                );
                eprintln!(
                    "{}",
                    transfer_line("to-host", counts.download_bytes, self.profile.download_nanoseconds)
                );
            }
        }
        self.reported = self.statistics.clone();
        self.kernel_names_since_report.clear();
        self.profile = Profile::default();
    }
}

fn statistics_line(device_name: &str, counts: &ClStatistics) -> String {
    format!(
        "opencl: device {device_name}; kernels {}, launches {}, to-device {} ({} B), to-host {} ({} B)",
        counts.distinct_kernels,
        counts.launches,
        counts.uploads,
        counts.upload_bytes,
        counts.downloads,
        counts.download_bytes
    )
}

fn transfer_line(direction: &str, bytes: u64, nanoseconds: u64) -> String {
    let bandwidth = if nanoseconds == 0 {
        0.0
    } else {
        bytes as f64 / (nanoseconds as f64 / 1e9)
    };
    format!(
        "opencl: {direction}: {bytes} B in {:.3} ms, {bandwidth:.3e} B/s",
        nanoseconds as f64 / 1e6
    )
}

/// Whether `word` appears in `text` as a whole identifier.
fn mentions_word(text: &str, word: &str) -> bool {
    let is_identifier = |character: char| character.is_ascii_alphanumeric() || character == '_';
    text.match_indices(word).any(|(start, _)| {
        let before = text[..start].chars().next_back();
        let after = text[start + word.len()..].chars().next();
        !before.is_some_and(is_identifier) && !after.is_some_and(is_identifier)
    })
}

/// The build log, then each source line it points at (`<file>:<line>:<column>:`), numbered.
pub fn annotated_build_log(log: &str, source: &str) -> String {
    let source_lines: Vec<&str> = source.lines().collect();
    let mut mentioned: Vec<usize> = Vec::new();
    for log_line in log.lines() {
        if let Some(line) = first_line_reference(log_line) {
            if line >= 1 && line <= source_lines.len() && !mentioned.contains(&line) {
                mentioned.push(line);
            }
        }
    }
    let mut text = log.trim_end().to_string();
    if !mentioned.is_empty() {
        text.push_str("\nsource lines mentioned:");
        for line in mentioned {
            text.push_str(&format!("\n{line:5} | {}", source_lines[line - 1]));
        }
    }
    text
}

/// The line number of the first `:<line>:<column>:` in a log line.
fn first_line_reference(log_line: &str) -> Option<usize> {
    let parts: Vec<&str> = log_line.split(':').collect();
    parts.windows(3).find_map(|window| {
        // The window's third part, what follows `<column>:`, makes the column end with a colon.
        let line = window[0].trim().parse::<usize>().ok()?;
        window[1].trim().parse::<usize>().ok()?;
        Some(line)
    })
}

/// # Safety
/// `pointer` must point to `length` readable bytes when `length > 0`.
unsafe fn byte_slice<'a>(pointer: *const u8, length: i64, what: &str) -> &'a [u8] {
    match usize::try_from(length) {
        Ok(0) => &[],
        // SAFETY: the caller guarantees `length` readable bytes.
        Ok(length) if !pointer.is_null() => unsafe { std::slice::from_raw_parts(pointer, length) },
        _ => exit_with_internal_error(&format!("aplrt_cl_launch: invalid {what} (length {length})")),
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The C entry points
// ---------------------------------------------------------------------------------------------------------------

/// Runs kernel `name` (UTF-8, `name_length` bytes) of the OpenCL C program `source` (`source_length` bytes, built on
/// first use and kept by the address of the source) over `global_size` work-items, with the arguments described in
/// the module documentation. Returns the kernel's error word (0: no error; otherwise the code a work-item stored)
/// and resets it to 0. A `global_size` of 0 (or less) runs nothing and returns 0. When it returns, the kernel has
/// finished and every upload with it.
///
/// # Safety
/// `source` and `name` must point to their lengths in readable bytes, `scalars` to `scalar_count` `uint64_t`s,
/// `blocks` to `block_count` block arguments, each of whose `pointer` points to `bytes` bytes from `aplrt_alloc`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn aplrt_cl_launch(
    source: *const u8,
    source_length: i64,
    name: *const u8,
    name_length: i64,
    global_size: i64,
    scalars: *const u64,
    scalar_count: i64,
    blocks: *const ClBlockArgument,
    block_count: i64,
) -> i64 {
    guarded("launch", || {
        if global_size <= 0 {
            return 0;
        }
        // SAFETY: the caller guarantees the lengths.
        let source_bytes = unsafe { byte_slice(source, source_length, "kernel source") };
        // SAFETY: as above.
        let name_bytes = unsafe { byte_slice(name, name_length, "kernel name") };
        let name = String::from_utf8_lossy(name_bytes);
        let scalars: &[u64] = match usize::try_from(scalar_count) {
            Ok(0) => &[],
            // SAFETY: the caller guarantees `scalar_count` values.
            Ok(count) if !scalars.is_null() => unsafe { std::slice::from_raw_parts(scalars, count) },
            _ => exit_with_internal_error(&format!("aplrt_cl_launch: invalid scalars (count {scalar_count})")),
        };
        let blocks: &[ClBlockArgument] = match usize::try_from(block_count) {
            Ok(0) => &[],
            // SAFETY: the caller guarantees `block_count` block arguments.
            Ok(count) if !blocks.is_null() => unsafe { std::slice::from_raw_parts(blocks, count) },
            _ => exit_with_internal_error(&format!("aplrt_cl_launch: invalid blocks (count {block_count})")),
        };
        if let Some(block) = blocks.iter().find(|block| block.bytes < 0) {
            exit_with_internal_error(&format!("aplrt_cl_launch: a block of {} bytes", block.bytes));
        }
        let mut slot = lock_state();
        let state = state_or_exit(&mut slot);
        // SAFETY: the caller guarantees the blocks.
        unsafe {
            state.launch(
                source_bytes,
                source as usize,
                &name,
                global_size as usize,
                scalars,
                blocks,
            )
        }
    })
}

/// Before host code reads the block at `pointer` (`bytes` bytes): if a kernel wrote it since, copies the device's
/// copy back (a blocking read). A block no kernel used is left alone.
///
/// # Safety
/// `pointer` must point to `bytes` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn aplrt_cl_to_host(pointer: *mut u8, bytes: i64) {
    guarded("download", || {
        if pointer.is_null() || bytes <= 0 {
            return;
        }
        let mut slot = lock_state();
        if let Slot::Ready(state) = &mut *slot {
            // SAFETY: the caller guarantees the block.
            unsafe { state.download(pointer, bytes as usize) };
        }
    })
}

/// 1 when a kernel wrote the block at `pointer` since the host last saw it (the host would have to copy it back
/// before reading it, or before storing into part of it), else 0, also for a block no kernel used. The host code of
/// a construct that may run on either side asks this of its blocks: rather than copy whole arrays back for a little
/// work, it runs the construct on the device.
#[no_mangle]
pub extern "C" fn aplrt_cl_newer_on_device(pointer: *mut u8) -> i64 {
    guarded("residency query", || {
        let slot = lock_state();
        match &*slot {
            Slot::Ready(state) => state
                .blocks
                .get(&(pointer as usize))
                .is_some_and(|entry| entry.residency == Residency::DeviceNewer)
                .into(),
            _ => 0,
        }
    })
}

/// After host code stored into the block at `pointer`: the device copy, if any, is stale.
#[no_mangle]
pub extern "C" fn aplrt_cl_host_wrote(pointer: *mut u8) {
    guarded("host_wrote", || {
        let mut slot = lock_state();
        match &mut *slot {
            Slot::Ready(state) => {
                if let Some(entry) = state.blocks.get_mut(&(pointer as usize)) {
                    if entry.residency != Residency::Fresh || entry.buffer.is_some() {
                        entry.residency = Residency::HostNewer;
                    } else {
                        // A fresh block without a device buffer: the first launch creates and uploads it.
                        state.blocks.remove(&(pointer as usize));
                    }
                }
            }
            // Written before the device was set up: no longer fresh, so the first launch that uses it uploads it.
            Slot::Unknown(fresh) => {
                fresh.remove(&(pointer as usize));
            }
            Slot::Unavailable(_) => {}
        }
    })
}

/// After `aplrt_alloc` returned `pointer` (`bytes` bytes): a new block whose contents nobody wrote yet, so a kernel
/// may use it without an upload. The device buffer is made at the first launch that uses it; before the first launch
/// of the program the block is only remembered (the device is not set up for it).
#[no_mangle]
pub extern "C" fn aplrt_cl_fresh(pointer: *mut u8, bytes: i64) {
    guarded("fresh", || {
        if pointer.is_null() || bytes <= 0 {
            return;
        }
        let mut slot = lock_state();
        match &mut *slot {
            Slot::Unknown(fresh) => {
                fresh.insert(pointer as usize, bytes as usize);
            }
            Slot::Ready(state) => {
                state.blocks.insert(pointer as usize, Entry::fresh(bytes as usize));
            }
            // The first launch already reported that the device cannot be used.
            Slot::Unavailable(_) => {}
        }
    })
}

/// Before the block at `pointer` is freed: releases its device buffer and forgets it (the address may be reused).
#[no_mangle]
pub extern "C" fn aplrt_cl_forget(pointer: *mut u8) {
    guarded("forget", || match &mut *lock_state() {
        Slot::Ready(state) => {
            state.blocks.remove(&(pointer as usize));
        }
        Slot::Unknown(fresh) => {
            fresh.remove(&(pointer as usize));
        }
        Slot::Unavailable(_) => {}
    })
}

/// At the end of a program: waits for the queue to finish and, when `APLC_OPENCL_STATS` or `APLC_OPENCL_PROFILE` is
/// set, prints the program's counts (since the last call) on standard error:
/// `opencl: device <name>; kernels <distinct kernel names launched>, launches <n>, to-device <n> (<bytes> B),
/// to-host <n> (<bytes> B)`; with `APLC_OPENCL_PROFILE`, then one line per kernel name (`opencl: kernel <name>:
/// launches <n>, <ms> ms`) and one per direction (`opencl: to-device: <bytes> B in <ms> ms, <bandwidth> B/s`).
#[no_mangle]
pub extern "C" fn aplrt_cl_finish() {
    guarded("finish", || {
        let mut slot = lock_state();
        match &mut *slot {
            Slot::Ready(state) => {
                state.finish_queue();
                state.report();
            }
            _ => {
                if environment_flag("APLC_OPENCL_STATS") || environment_flag("APLC_OPENCL_PROFILE") {
                    eprintln!("{}", statistics_line("(none used)", &ClStatistics::default()));
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_found_whole() {
        assert!(mentions_word("__global double* a", "double"));
        assert!(mentions_word("double", "double"));
        assert!(!mentions_word("doubled x; my_double", "double"));
        assert!(!mentions_word("long n", "double"));
    }

    #[test]
    fn build_logs_point_at_source_lines() {
        let source = "first\nsecond\nthird\n";
        let log = "<source>:2:5: error: use of undeclared identifier 'x'\n    x = 1;\n<source>:9:1: warning: past end";
        let annotated = annotated_build_log(log, source);
        assert!(annotated.starts_with(log), "{annotated}");
        assert!(annotated.contains("\n    2 | second"), "{annotated}");
        assert!(!annotated.contains("| first"), "{annotated}");
        assert!(!annotated.contains("| third"), "{annotated}");
        assert_eq!(first_line_reference("input.cl:12:7: error"), Some(12));
        assert_eq!(first_line_reference("no numbers here"), None);
    }

    #[test]
    fn statistics_lines_have_the_documented_format() {
        let counts = ClStatistics {
            launches: 3,
            distinct_kernels: 2,
            uploads: 4,
            upload_bytes: 800,
            downloads: 1,
            download_bytes: 80,
        };
        assert_eq!(
            statistics_line("gpu", &counts),
            "opencl: device gpu; kernels 2, launches 3, to-device 4 (800 B), to-host 1 (80 B)"
        );
        assert_eq!(
            transfer_line("to-host", 1_000_000, 1_000_000),
            "opencl: to-host: 1000000 B in 1.000 ms, 1.000e9 B/s"
        );
    }
}

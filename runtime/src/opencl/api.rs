//! The few OpenCL 1.2 entry points the backend calls, found with `dlopen`/`dlsym` in the OpenCL ICD loader
//! (`libOpenCL.so.1`) on first use, so that nothing links OpenCL: a program that launches no kernel, or a machine
//! without OpenCL, never needs it. The run-time library depends on no crate (build.rs builds it with a lone `rustc`
//! call), hence these hand-written declarations rather than a binding crate. Handles are owned by the small wrappers
//! at the end, which release them on drop.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::ptr;
use std::sync::OnceLock;

pub type ClInt = i32;
pub type ClUint = u32;
pub type Handle = *mut c_void;

pub const CL_SUCCESS: ClInt = 0;
pub const CL_DEVICE_NOT_FOUND: ClInt = -1;
pub const CL_MEM_OBJECT_ALLOCATION_FAILURE: ClInt = -4;
pub const CL_OUT_OF_RESOURCES: ClInt = -5;
pub const CL_INVALID_BUFFER_SIZE: ClInt = -61;
pub const CL_PLATFORM_NOT_FOUND_KHR: ClInt = -1001;

pub const CL_PLATFORM_NAME: ClUint = 0x0902;
pub const CL_DEVICE_TYPE: ClUint = 0x1000;
pub const CL_DEVICE_MAX_WORK_GROUP_SIZE: ClUint = 0x1004;
pub const CL_DEVICE_NAME: ClUint = 0x102B;
pub const CL_DEVICE_EXTENSIONS: ClUint = 0x1030;
pub const CL_DEVICE_TYPE_GPU: u64 = 1 << 2;
pub const CL_DEVICE_TYPE_ALL: u64 = 0xFFFF_FFFF;
pub const CL_QUEUE_PROFILING_ENABLE: u64 = 1 << 1;
pub const CL_PROGRAM_BUILD_LOG: ClUint = 0x1183;
pub const CL_DRIVER_VERSION: ClUint = 0x102D;
pub const CL_PROGRAM_BINARY_SIZES: ClUint = 0x1165;
pub const CL_PROGRAM_BINARIES: ClUint = 0x1166;
pub const CL_KERNEL_WORK_GROUP_SIZE: ClUint = 0x11B0;
pub const CL_MEM_READ_WRITE: u64 = 1;
pub const CL_PROFILING_COMMAND_START: ClUint = 0x1282;
pub const CL_PROFILING_COMMAND_END: ClUint = 0x1283;
pub const CL_TRUE: ClUint = 1;
pub const CL_FALSE: ClUint = 0;

/// The name of an OpenCL error code, with the code: `CL_OUT_OF_RESOURCES (-5)`.
pub fn error_name(code: ClInt) -> String {
    let name = match code {
        0 => "CL_SUCCESS",
        -1 => "CL_DEVICE_NOT_FOUND",
        -2 => "CL_DEVICE_NOT_AVAILABLE",
        -3 => "CL_COMPILER_NOT_AVAILABLE",
        -4 => "CL_MEM_OBJECT_ALLOCATION_FAILURE",
        -5 => "CL_OUT_OF_RESOURCES",
        -6 => "CL_OUT_OF_HOST_MEMORY",
        -7 => "CL_PROFILING_INFO_NOT_AVAILABLE",
        -11 => "CL_BUILD_PROGRAM_FAILURE",
        -14 => "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST",
        -30 => "CL_INVALID_VALUE",
        -31 => "CL_INVALID_DEVICE_TYPE",
        -32 => "CL_INVALID_PLATFORM",
        -33 => "CL_INVALID_DEVICE",
        -34 => "CL_INVALID_CONTEXT",
        -36 => "CL_INVALID_COMMAND_QUEUE",
        -37 => "CL_INVALID_HOST_PTR",
        -38 => "CL_INVALID_MEM_OBJECT",
        -43 => "CL_INVALID_BUILD_OPTIONS",
        -44 => "CL_INVALID_PROGRAM",
        -45 => "CL_INVALID_PROGRAM_EXECUTABLE",
        -46 => "CL_INVALID_KERNEL_NAME",
        -48 => "CL_INVALID_KERNEL",
        -49 => "CL_INVALID_ARG_INDEX",
        -50 => "CL_INVALID_ARG_VALUE",
        -51 => "CL_INVALID_ARG_SIZE",
        -52 => "CL_INVALID_KERNEL_ARGS",
        -54 => "CL_INVALID_WORK_GROUP_SIZE",
        -55 => "CL_INVALID_WORK_ITEM_SIZE",
        -57 => "CL_INVALID_EVENT_WAIT_LIST",
        -58 => "CL_INVALID_EVENT",
        -59 => "CL_INVALID_OPERATION",
        -61 => "CL_INVALID_BUFFER_SIZE",
        -63 => "CL_INVALID_GLOBAL_WORK_SIZE",
        -1001 => "CL_PLATFORM_NOT_FOUND_KHR",
        _ => "an OpenCL error",
    };
    format!("{name} ({code})")
}

type InfoFunction = unsafe extern "C" fn(Handle, ClUint, usize, *mut c_void, *mut usize) -> ClInt;
type ObjectInfoFunction = unsafe extern "C" fn(Handle, Handle, ClUint, usize, *mut c_void, *mut usize) -> ClInt;
type ReleaseFunction = unsafe extern "C" fn(Handle) -> ClInt;
type Notify = Option<unsafe extern "C" fn(*const c_char, *const c_void, usize, *mut c_void)>;
type BuildNotify = Option<unsafe extern "C" fn(Handle, *mut c_void)>;

/// The OpenCL functions, from the loaded library.
pub struct Api {
    pub get_platform_ids: unsafe extern "C" fn(ClUint, *mut Handle, *mut ClUint) -> ClInt,
    pub get_platform_info: InfoFunction,
    pub get_device_ids: unsafe extern "C" fn(Handle, u64, ClUint, *mut Handle, *mut ClUint) -> ClInt,
    pub get_device_info: InfoFunction,
    pub create_context:
        unsafe extern "C" fn(*const isize, ClUint, *const Handle, Notify, *mut c_void, *mut ClInt) -> Handle,
    pub create_command_queue: unsafe extern "C" fn(Handle, Handle, u64, *mut ClInt) -> Handle,
    pub create_program_with_source:
        unsafe extern "C" fn(Handle, ClUint, *const *const c_char, *const usize, *mut ClInt) -> Handle,
    pub create_program_with_binary: unsafe extern "C" fn(
        Handle,
        ClUint,
        *const Handle,
        *const usize,
        *const *const u8,
        *mut ClInt,
        *mut ClInt,
    ) -> Handle,
    pub build_program:
        unsafe extern "C" fn(Handle, ClUint, *const Handle, *const c_char, BuildNotify, *mut c_void) -> ClInt,
    pub get_program_info: InfoFunction,
    pub get_program_build_info: ObjectInfoFunction,
    pub create_kernel: unsafe extern "C" fn(Handle, *const c_char, *mut ClInt) -> Handle,
    pub set_kernel_arg: unsafe extern "C" fn(Handle, ClUint, usize, *const c_void) -> ClInt,
    pub get_kernel_work_group_info: ObjectInfoFunction,
    pub enqueue_nd_range_kernel: unsafe extern "C" fn(
        Handle,
        Handle,
        ClUint,
        *const usize,
        *const usize,
        *const usize,
        ClUint,
        *const Handle,
        *mut Handle,
    ) -> ClInt,
    pub create_buffer: unsafe extern "C" fn(Handle, u64, usize, *mut c_void, *mut ClInt) -> Handle,
    pub enqueue_write_buffer: unsafe extern "C" fn(
        Handle,
        Handle,
        ClUint,
        usize,
        usize,
        *const c_void,
        ClUint,
        *const Handle,
        *mut Handle,
    ) -> ClInt,
    pub enqueue_read_buffer: unsafe extern "C" fn(
        Handle,
        Handle,
        ClUint,
        usize,
        usize,
        *mut c_void,
        ClUint,
        *const Handle,
        *mut Handle,
    ) -> ClInt,
    pub finish: unsafe extern "C" fn(Handle) -> ClInt,
    pub get_event_profiling_info: InfoFunction,
    pub release_mem_object: ReleaseFunction,
    pub release_event: ReleaseFunction,
    pub release_kernel: ReleaseFunction,
    pub release_program: ReleaseFunction,
}

extern "C" {
    fn dlopen(filename: *const c_char, flag: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
    fn dlerror() -> *const c_char;
}

const RTLD_NOW: c_int = 2;

/// The library names tried, in order.
pub const LIBRARY_NAMES: [&str; 2] = ["libOpenCL.so.1", "libOpenCL.so"];

/// The OpenCL functions, loaded once per process, or why they cannot be.
pub fn api() -> Result<&'static Api, String> {
    static API: OnceLock<Result<Api, String>> = OnceLock::new();
    API.get_or_init(load).as_ref().map_err(Clone::clone)
}

fn last_dl_error() -> String {
    // SAFETY: dlerror returns null or a C string valid until the next dl call on this thread.
    let message = unsafe { dlerror() };
    if message.is_null() {
        "unknown error".to_string()
    } else {
        // SAFETY: as above.
        unsafe { CStr::from_ptr(message) }.to_string_lossy().into_owned()
    }
}

fn load() -> Result<Api, String> {
    let mut errors = Vec::new();
    let mut library = ptr::null_mut();
    for name in LIBRARY_NAMES {
        let c_name = CString::new(name).expect("no NUL in the library names");
        // SAFETY: a valid C string; loading the ICD loader runs only its initialisers.
        library = unsafe { dlopen(c_name.as_ptr(), RTLD_NOW) };
        if !library.is_null() {
            break;
        }
        errors.push(last_dl_error());
    }
    if library.is_null() {
        return Err(format!(
            "the OpenCL loader cannot be loaded ({}); install ocl-icd-libopencl1 and an OpenCL implementation such as \
             PoCL (scripts/setup.sh does)",
            errors.join("; ")
        ));
    }
    let symbol = |name: &str| -> Result<*mut c_void, String> {
        let c_name = CString::new(name).expect("no NUL in the symbol names");
        // SAFETY: a library handle from dlopen and a valid C string.
        let address = unsafe { dlsym(library, c_name.as_ptr()) };
        if address.is_null() {
            Err(format!("the OpenCL loader lacks {name}"))
        } else {
            Ok(address)
        }
    };
    macro_rules! function {
        ($name:literal) => {
            // SAFETY: the symbol is the OpenCL 1.2 function of this name, whose C signature the field declares.
            unsafe { function_pointer(symbol($name)?) }
        };
    }
    Ok(Api {
        get_platform_ids: function!("clGetPlatformIDs"),
        get_platform_info: function!("clGetPlatformInfo"),
        get_device_ids: function!("clGetDeviceIDs"),
        get_device_info: function!("clGetDeviceInfo"),
        create_context: function!("clCreateContext"),
        create_command_queue: function!("clCreateCommandQueue"),
        create_program_with_source: function!("clCreateProgramWithSource"),
        create_program_with_binary: function!("clCreateProgramWithBinary"),
        build_program: function!("clBuildProgram"),
        get_program_info: function!("clGetProgramInfo"),
        get_program_build_info: function!("clGetProgramBuildInfo"),
        create_kernel: function!("clCreateKernel"),
        set_kernel_arg: function!("clSetKernelArg"),
        get_kernel_work_group_info: function!("clGetKernelWorkGroupInfo"),
        enqueue_nd_range_kernel: function!("clEnqueueNDRangeKernel"),
        create_buffer: function!("clCreateBuffer"),
        enqueue_write_buffer: function!("clEnqueueWriteBuffer"),
        enqueue_read_buffer: function!("clEnqueueReadBuffer"),
        finish: function!("clFinish"),
        get_event_profiling_info: function!("clGetEventProfilingInfo"),
        release_mem_object: function!("clReleaseMemObject"),
        release_event: function!("clReleaseEvent"),
        release_kernel: function!("clReleaseKernel"),
        release_program: function!("clReleaseProgram"),
    })
}

/// The function at `address`, as the function pointer type `F`.
///
/// # Safety
/// `address` must be a function whose C signature is `F`'s.
unsafe fn function_pointer<F: Copy>(address: *mut c_void) -> F {
    assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<*mut c_void>());
    // SAFETY: the caller guarantees the signature; the sizes agree.
    unsafe { std::mem::transmute_copy::<*mut c_void, F>(&address) }
}

/// `code` as a `Result`.
pub fn check(code: ClInt) -> Result<(), ClInt> {
    if code == CL_SUCCESS {
        Ok(())
    } else {
        Err(code)
    }
}

/// A string property of an object (`clGet*Info`), without its trailing NUL.
pub fn string_info(function: InfoFunction, object: Handle, parameter: ClUint) -> Result<String, ClInt> {
    let bytes = bytes_info(|size, value, size_out| {
        // SAFETY: the buffer has `size` writable bytes (or is null with size 0).
        unsafe { function(object, parameter, size, value, size_out) }
    })?;
    Ok(String::from_utf8_lossy(&bytes).trim_end_matches('\0').to_string())
}

/// The build log of a program for a device.
pub fn build_log(api: &Api, program: Handle, device: Handle) -> Result<String, ClInt> {
    let bytes = bytes_info(|size, value, size_out| {
        // SAFETY: as in `string_info`.
        unsafe { (api.get_program_build_info)(program, device, CL_PROGRAM_BUILD_LOG, size, value, size_out) }
    })?;
    Ok(String::from_utf8_lossy(&bytes).trim_end_matches('\0').to_string())
}

/// The binary of a program built for one device (`CL_PROGRAM_BINARIES`), or the OpenCL error.
pub fn program_binary(api: &Api, program: Handle) -> Result<Vec<u8>, ClInt> {
    let size: usize = value_info(api.get_program_info, program, CL_PROGRAM_BINARY_SIZES)?;
    let mut binary = vec![0u8; size];
    let mut pointer = binary.as_mut_ptr();
    // SAFETY: one device, so one pointer to `size` writable bytes.
    check(unsafe {
        (api.get_program_info)(
            program,
            CL_PROGRAM_BINARIES,
            std::mem::size_of::<*mut u8>(),
            (&mut pointer as *mut *mut u8).cast(),
            ptr::null_mut(),
        )
    })?;
    Ok(binary)
}

/// A variable-size property: asks for its size, then for its bytes.
fn bytes_info(query: impl Fn(usize, *mut c_void, *mut usize) -> ClInt) -> Result<Vec<u8>, ClInt> {
    let mut size = 0usize;
    check(query(0, ptr::null_mut(), &mut size))?;
    let mut bytes = vec![0u8; size];
    if size > 0 {
        check(query(size, bytes.as_mut_ptr().cast(), ptr::null_mut()))?;
    }
    Ok(bytes)
}

/// A fixed-size property (`T` is the property's C type: `size_t`, `cl_ulong`, ...).
pub fn value_info<T: Copy + Default>(function: InfoFunction, object: Handle, parameter: ClUint) -> Result<T, ClInt> {
    let mut value = T::default();
    // SAFETY: `value` has size_of::<T>() writable bytes.
    check(unsafe {
        function(
            object,
            parameter,
            std::mem::size_of::<T>(),
            (&mut value as *mut T).cast(),
            ptr::null_mut(),
        )
    })?;
    Ok(value)
}

/// A fixed-size property of an object for a device (`clGetKernelWorkGroupInfo`).
pub fn value_info_2<T: Copy + Default>(
    function: ObjectInfoFunction,
    object: Handle,
    device: Handle,
    parameter: ClUint,
) -> Result<T, ClInt> {
    let mut value = T::default();
    // SAFETY: `value` has size_of::<T>() writable bytes.
    check(unsafe {
        function(
            object,
            device,
            parameter,
            std::mem::size_of::<T>(),
            (&mut value as *mut T).cast(),
            ptr::null_mut(),
        )
    })?;
    Ok(value)
}

macro_rules! owned_handle {
    ($name:ident, $release:ident) => {
        /// An owned OpenCL object, released on drop.
        pub struct $name(pub Handle);

        impl Drop for $name {
            fn drop(&mut self) {
                if !self.0.is_null() {
                    if let Ok(api) = api() {
                        // SAFETY: a live object this wrapper owns; a failed release only leaks it.
                        unsafe { (api.$release)(self.0) };
                    }
                }
            }
        }
    };
}

owned_handle!(Memory, release_mem_object);
owned_handle!(Event, release_event);
owned_handle!(Kernel, release_kernel);
owned_handle!(Program, release_program);

//! The one table of run-time library functions that generated code may call. Code generation declares them from
//! here (never by hand), the JIT maps each to its address in aplc's own copy of the run-time library, and AOT
//! executables get them from `libaplc_runtime.a`. Names and signatures must match `runtime/src/abi.rs` (and
//! `runtime/src/opencl.rs` for the OpenCL backend's `aplrt_cl_*`), whose module documentation is the C-level table;
//! the tests check that every entry links and runs.

use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::context::ContextRef;
use inkwell::module::{Linkage, Module};
use inkwell::types::{BasicMetadataTypeEnum, BasicType, BasicTypeEnum};
use inkwell::values::FunctionValue;
use inkwell::AddressSpace;

use aplc_runtime::abi;
use aplc_runtime::abi::RuntimeErrorKind;
use aplc_runtime::opencl;
use aplc_runtime::parallel;

use crate::runtime::error::AplErrorKind;

/// The C types that appear in the run-time library's signatures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbiType {
    I32,
    I64,
    F64,
    /// Any pointer (LLVM 19 pointers are opaque).
    Pointer,
}

/// Names for the entries of [`RUNTIME_FUNCTIONS`], so that code generation cannot misspell a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuntimeFunctionId {
    Alloc,
    Free,
    PrintArray,
    Flush,
    Finish,
    Error,
    ErrorReport,
    EnterSite,
    LeaveSite,
    NowMillis,
    ReportBench,
    Roll,
    SetArguments,
    ArgumentInt,
    ArgumentDouble,
    ReadFile,
    ReadArrayFile,
    Format,
    ParallelFor,
    Parameter,
    NoteComparison,
    SetDefaultThreads,
    StackFloor,
    ClLaunch,
    ClToHost,
    ClHostWrote,
    ClNewerOnDevice,
    ClFresh,
    ClForget,
    ClFinish,
}

/// One run-time library function: its C name and signature, what LLVM may assume about it, and its address in this
/// process (for the JIT).
#[derive(Debug)]
pub struct RuntimeFunction {
    pub id: RuntimeFunctionId,
    pub name: &'static str,
    pub parameters: &'static [AbiType],
    /// `None` for `void`.
    pub result: Option<AbiType>,
    /// The function never returns (it exits the process), so LLVM may treat what follows a call as unreachable.
    pub never_returns: bool,
    /// The result is fresh memory that nothing else points to (`noalias`), as for `malloc`: this lets LLVM's alias
    /// analysis tell arrays apart, which vectorisation and load/store forwarding depend on.
    pub returns_fresh_memory: bool,
    /// A pointer rather than a `usize`, because Rust cannot turn a function's address into an integer at compile
    /// time.
    address_in_this_process: *const (),
}

impl RuntimeFunction {
    /// The address of the function in the aplc process, which links the run-time library as a Rust library.
    pub fn address_in_this_process(&self) -> usize {
        self.address_in_this_process as usize
    }
}

use AbiType::{Pointer, F64, I32, I64};

/// Every run-time library function generated code may call.
pub const RUNTIME_FUNCTIONS: &[RuntimeFunction] = &[
    RuntimeFunction {
        id: RuntimeFunctionId::StackFloor,
        name: "aplrt_stack_floor",
        parameters: &[],
        result: Some(I64),
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: aplc_runtime::stack::aplrt_stack_floor as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::Alloc,
        name: "aplrt_alloc",
        parameters: &[I64],
        result: Some(Pointer),
        never_returns: false,
        returns_fresh_memory: true,
        address_in_this_process: abi::aplrt_alloc as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::Free,
        name: "aplrt_free",
        parameters: &[Pointer, I64],
        result: None,
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: abi::aplrt_free as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::PrintArray,
        name: "aplrt_print_array",
        parameters: &[I32, I64, Pointer, Pointer, I32],
        result: None,
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: abi::aplrt_print_array as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::Flush,
        name: "aplrt_flush",
        parameters: &[],
        result: None,
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: abi::aplrt_flush as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::Finish,
        name: "aplrt_finish",
        parameters: &[],
        result: None,
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: parallel::aplrt_finish as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::Error,
        name: "aplrt_error",
        parameters: &[I32, Pointer, I64],
        result: None,
        never_returns: true,
        returns_fresh_memory: false,
        address_in_this_process: abi::aplrt_error as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::ErrorReport,
        name: "aplrt_error_report",
        parameters: &[I32, Pointer, I64],
        result: None,
        never_returns: true,
        returns_fresh_memory: false,
        address_in_this_process: abi::aplrt_error_report as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::EnterSite,
        name: "aplrt_enter_site",
        parameters: &[Pointer, I64],
        result: None,
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: abi::aplrt_enter_site as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::LeaveSite,
        name: "aplrt_leave_site",
        parameters: &[],
        result: None,
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: abi::aplrt_leave_site as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::NowMillis,
        name: "aplrt_now_millis",
        parameters: &[],
        result: Some(I64),
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: abi::aplrt_now_millis as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::ReportBench,
        name: "aplrt_report_bench",
        parameters: &[I64, I64],
        result: None,
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: abi::aplrt_report_bench as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::Roll,
        name: "aplrt_roll",
        parameters: &[I64],
        result: Some(I64),
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: abi::aplrt_roll as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::SetArguments,
        name: "aplrt_set_arguments",
        parameters: &[I32, Pointer],
        result: None,
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: abi::aplrt_set_arguments as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::ArgumentInt,
        name: "aplrt_argument_int",
        parameters: &[I64, I64],
        result: Some(I64),
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: abi::aplrt_argument_int as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::ArgumentDouble,
        name: "aplrt_argument_double",
        parameters: &[I64, F64],
        result: Some(F64),
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: abi::aplrt_argument_double as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::ReadFile,
        name: "aplrt_read_file",
        parameters: &[Pointer, I64, Pointer],
        result: Some(Pointer),
        never_returns: false,
        returns_fresh_memory: true,
        address_in_this_process: abi::aplrt_read_file as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::ReadArrayFile,
        name: "aplrt_read_array_file",
        parameters: &[I32, Pointer, I64, Pointer],
        result: Some(Pointer),
        never_returns: false,
        returns_fresh_memory: true,
        address_in_this_process: abi::aplrt_read_array_file as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::Format,
        name: "aplrt_format",
        parameters: &[I32, I64, Pointer, Pointer, I32, I32, Pointer],
        result: Some(Pointer),
        never_returns: false,
        returns_fresh_memory: true,
        address_in_this_process: abi::aplrt_format as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::ParallelFor,
        name: "aplrt_parallel_for",
        parameters: &[Pointer, Pointer, I64, I64, I64],
        result: None,
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: parallel::aplrt_parallel_for as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::Parameter,
        name: "aplrt_parameter",
        parameters: &[Pointer, I64, I64],
        result: Some(I64),
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: parallel::aplrt_parameter as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::NoteComparison,
        name: "aplrt_note_comparison",
        parameters: &[Pointer, I64, I64],
        result: None,
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: aplc_runtime::tuning::aplrt_note_comparison as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::SetDefaultThreads,
        name: "aplrt_set_default_threads",
        parameters: &[I64],
        result: None,
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: parallel::aplrt_set_default_threads as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::ClLaunch,
        name: "aplrt_cl_launch",
        parameters: &[Pointer, I64, Pointer, I64, I64, Pointer, I64, Pointer, I64],
        result: Some(I64),
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: opencl::aplrt_cl_launch as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::ClToHost,
        name: "aplrt_cl_to_host",
        parameters: &[Pointer, I64],
        result: None,
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: opencl::aplrt_cl_to_host as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::ClHostWrote,
        name: "aplrt_cl_host_wrote",
        parameters: &[Pointer],
        result: None,
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: opencl::aplrt_cl_host_wrote as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::ClNewerOnDevice,
        name: "aplrt_cl_newer_on_device",
        parameters: &[Pointer],
        result: Some(I64),
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: opencl::aplrt_cl_newer_on_device as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::ClFresh,
        name: "aplrt_cl_fresh",
        parameters: &[Pointer, I64],
        result: None,
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: opencl::aplrt_cl_fresh as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::ClForget,
        name: "aplrt_cl_forget",
        parameters: &[Pointer],
        result: None,
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: opencl::aplrt_cl_forget as *const (),
    },
    RuntimeFunction {
        id: RuntimeFunctionId::ClFinish,
        name: "aplrt_cl_finish",
        parameters: &[],
        result: None,
        never_returns: false,
        returns_fresh_memory: false,
        address_in_this_process: opencl::aplrt_cl_finish as *const (),
    },
];

impl RuntimeFunctionId {
    /// This function's entry in [`RUNTIME_FUNCTIONS`].
    pub fn definition(self) -> &'static RuntimeFunction {
        RUNTIME_FUNCTIONS
            .iter()
            .find(|function| function.id == self)
            .expect("every RuntimeFunctionId has an entry in RUNTIME_FUNCTIONS")
    }
}

/// The table entry with this C name, if any.
pub fn runtime_function_named(name: &str) -> Option<&'static RuntimeFunction> {
    RUNTIME_FUNCTIONS.iter().find(|function| function.name == name)
}

/// The declaration of a run-time function in the module, added on first use (with its attributes) and reused after.
pub fn declare_runtime_function<'ctx>(module: &Module<'ctx>, id: RuntimeFunctionId) -> FunctionValue<'ctx> {
    let definition = id.definition();
    if let Some(existing) = module.get_function(definition.name) {
        return existing;
    }
    let context = module.get_context();
    let parameter_types: Vec<BasicMetadataTypeEnum> = definition
        .parameters
        .iter()
        .map(|&parameter| llvm_type_of(&context, parameter).into())
        .collect();
    let function_type = match definition.result {
        None => context.void_type().fn_type(&parameter_types, false),
        Some(result) => llvm_type_of(&context, result).fn_type(&parameter_types, false),
    };
    let function = module.add_function(definition.name, function_type, Some(Linkage::External));
    add_runtime_function_attributes(&context, function, definition);
    function
}

/// Declares every function of the table (for tests, and for modules that want them all up front).
pub fn declare_all_runtime_functions(module: &Module<'_>) {
    for function in RUNTIME_FUNCTIONS {
        declare_runtime_function(module, function.id);
    }
}

fn llvm_type_of<'ctx>(context: &ContextRef<'ctx>, abi_type: AbiType) -> BasicTypeEnum<'ctx> {
    match abi_type {
        AbiType::I32 => context.i32_type().into(),
        AbiType::I64 => context.i64_type().into(),
        AbiType::F64 => context.f64_type().into(),
        AbiType::Pointer => context.ptr_type(AddressSpace::default()).into(),
    }
}

/// No run-time function unwinds (a panic inside one aborts), hence `nounwind` on all of them, which spares LLVM
/// from keeping cleanup paths around every call.
fn add_runtime_function_attributes(
    context: &ContextRef<'_>,
    function: FunctionValue<'_>,
    definition: &RuntimeFunction,
) {
    let enum_attribute =
        |name: &str| -> Attribute { context.create_enum_attribute(Attribute::get_named_enum_kind_id(name), 0) };
    function.add_attribute(AttributeLoc::Function, enum_attribute("nounwind"));
    if definition.never_returns {
        function.add_attribute(AttributeLoc::Function, enum_attribute("noreturn"));
    }
    if definition.returns_fresh_memory {
        function.add_attribute(AttributeLoc::Return, enum_attribute("noalias"));
    }
}

/// The code passed to `aplrt_error` for an APL error raised by compiled code.
pub fn runtime_error_kind_of(kind: AplErrorKind) -> RuntimeErrorKind {
    match kind {
        AplErrorKind::Domain => RuntimeErrorKind::Domain,
        AplErrorKind::Length => RuntimeErrorKind::Length,
        AplErrorKind::Rank => RuntimeErrorKind::Rank,
        AplErrorKind::Index => RuntimeErrorKind::Index,
        AplErrorKind::Value => RuntimeErrorKind::Value,
        AplErrorKind::Syntax => RuntimeErrorKind::Syntax,
        AplErrorKind::Limit => RuntimeErrorKind::Limit,
        AplErrorKind::FileIo => RuntimeErrorKind::FileIo,
        AplErrorKind::Nonce => RuntimeErrorKind::Nonce,
        AplErrorKind::WorkspaceFull => RuntimeErrorKind::WorkspaceFull,
    }
}

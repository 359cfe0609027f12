//! The machine code is generated for: the host CPU by default, or the CPU named by `--target-cpu`. Three things must
//! agree for LLVM to use that CPU everywhere, and this module does all three:
//! - the target machine, which AOT uses to write object files and the optimiser uses for its cost model;
//! - the module's triple and data layout, taken from the target machine;
//! - the `"target-cpu"` and `"target-features"` attributes on every function: MCJIT builds its own target machine
//!   for a generic x86-64 CPU, and only these attributes make it (and per-function code generation in general) use
//!   AVX and friends.
//!
//! Optimisation is explicit: [`optimise_module`] runs LLVM's `default<O3>` pipeline. The optimisation level given
//! to the target machine only affects instruction selection and scheduling, so without this nothing is inlined,
//! unrolled or vectorised.

use std::collections::HashSet;

use inkwell::attributes::AttributeLoc;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, InitializationConfig, RelocMode, Target, TargetMachine};
use inkwell::values::{CallSiteValue, FunctionValue};
use inkwell::OptimizationLevel;

use super::error::CodegenError;
use crate::runtime::float_mode::FloatMode;

/// The LLVM pass pipeline every module goes through (the new pass manager's name for `-O3`).
pub const OPTIMISATION_PIPELINE: &str = "default<O3>";

/// The CPU names that mean "the machine the compiler runs on", as in rustc's `-C target-cpu=native`.
const HOST_CPU_NAMES: [&str; 2] = ["native", "host"];

/// The user's choices about code generation, passed explicitly to every entry point of the backend.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CodegenOptions {
    /// `--target-cpu`: an LLVM CPU name (`x86-64`, `x86-64-v3`, `skylake-avx512`, ...). `None`, `native` and `host`
    /// mean the CPU aplc runs on, with all its features. A named CPU gets the features LLVM knows for it. Objects
    /// built for the host run only on similar CPUs, so executables meant for other machines should name a baseline
    /// such as `x86-64-v2`. An unknown name is refused ([`check_target_cpu_name`]): LLVM would abort on it.
    pub target_cpu: Option<String>,
    /// `--threads`: the number of threads the program's parallel constructs use unless `APLC_THREADS` says otherwise
    /// (`None`: all cores). Baked into the program's entry.
    pub threads: Option<usize>,
    /// `--float`: whether double results that are not finite real numbers stop the program with a DOMAIN ERROR
    /// (Dyalog) or flow on as IEEE ∞ and NaN. `None`: as the script's `⍝ aplc: float NAME` pragma says, which the
    /// driver reads; Dyalog's mode where nothing says.
    pub float_mode: Option<FloatMode>,
    /// The program's source, which the sites of its run-time checks point into (`error ... at START..END` in the loop
    /// IR): an APL error is then reported with its line and column, as `aplc run` reports it. `None`: the plain
    /// `NAME: message` line.
    pub source: Option<crate::source::SourceFile>,
    /// `--error-format`: how compiled code reports an APL error with a site (miette's drawing, or one JSON object).
    pub error_format: crate::diagnostics::ErrorFormat,
    /// `--backend opencl` / `aplc build --gpu`: the parallel constructs a kernel can express run as OpenCL kernels
    /// (`crate::codegen::opencl`); `None`: everything is native code.
    pub opencl: Option<crate::codegen::opencl::OpenClOptions>,
}

impl CodegenOptions {
    /// The float mode the code is generated for.
    pub fn float_mode(&self) -> FloatMode {
        self.float_mode.unwrap_or_default()
    }
}

/// A CPU name and an LLVM feature string (`+avx2,+fma,-avx512f,...`; empty means the CPU's defaults).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetCpu {
    pub name: String,
    pub features: String,
}

impl TargetCpu {
    /// The CPU aplc runs on, with the features LLVM detects on it.
    pub fn host() -> TargetCpu {
        TargetCpu {
            name: TargetMachine::get_host_cpu_name().to_string(),
            features: TargetMachine::get_host_cpu_features().to_string(),
        }
    }

    pub fn from_options(options: &CodegenOptions) -> TargetCpu {
        match options.target_cpu.as_deref() {
            None => TargetCpu::host(),
            Some(name) if HOST_CPU_NAMES.contains(&name) => TargetCpu::host(),
            Some(name) => TargetCpu {
                name: name.to_string(),
                features: String::new(),
            },
        }
    }

    /// The CPU and features a target machine was created with.
    pub fn of_target_machine(target_machine: &TargetMachine) -> TargetCpu {
        TargetCpu {
            name: target_machine.get_cpu().to_string(),
            features: feature_string_of(target_machine),
        }
    }
}

/// The feature string of a target machine. LLVM returns a copy that the caller must dispose of; inkwell's
/// `get_feature_string` never does, which leaked about 900 bytes per compiled REPL line (valgrind found it).
fn feature_string_of(target_machine: &TargetMachine) -> String {
    use inkwell::llvm_sys::core::LLVMDisposeMessage;
    use inkwell::llvm_sys::target_machine::LLVMGetTargetMachineFeatureString;
    // SAFETY: the target machine is alive for the call; LLVM returns a fresh NUL-terminated copy (never null), which
    // is read once and then handed back to LLVM's allocator.
    unsafe {
        let copy = LLVMGetTargetMachineFeatureString(target_machine.as_mut_ptr());
        let features = std::ffi::CStr::from_ptr(copy).to_string_lossy().into_owned();
        LLVMDisposeMessage(copy);
        features
    }
}

/// Checks a `--target-cpu` name before LLVM sees it: `native`, `host`, or one of the CPUs LLVM 19 knows for x86-64.
/// The error is worded for the command line (a usage error) and says where the valid names are listed.
pub fn check_target_cpu_name(name: &str) -> Result<(), String> {
    if HOST_CPU_NAMES.contains(&name) || super::cpu_names::X86_CPU_NAMES.contains(&name) {
        return Ok(());
    }
    Err(format!(
        "unknown --target-cpu {name:?} for {}: use `native` (the default), a baseline such as `x86-64-v2` or \
         `x86-64-v3`, or a CPU name from `llc-19 -march=x86-64 -mcpu=help` (LLVM 19's list)",
        TargetMachine::get_default_triple().as_str().to_string_lossy()
    ))
}

/// What `aplc --version` adds to the version number: the LLVM aplc generates code with, the target triple and the
/// host CPU (the default `--target-cpu`).
pub fn code_generator_description() -> String {
    let (major, minor, patch) = inkwell::support::get_llvm_version();
    format!(
        "LLVM {major}.{minor}.{patch}, target {} (host CPU {})",
        TargetMachine::get_default_triple().as_str().to_string_lossy(),
        TargetMachine::get_host_cpu_name().to_string()
    )
}

/// Registers the host's LLVM target (x86 here). Cheap after the first call.
pub fn initialize_native_target() -> Result<(), CodegenError> {
    Target::initialize_native(&InitializationConfig::default()).map_err(|message| CodegenError::UnsupportedTarget {
        triple: TargetMachine::get_default_triple().to_string(),
        message,
    })
}

/// The target machine for the host triple and the CPU the options choose. Position-independent code, so that
/// objects link into the position-independent executables `cc` makes by default on Debian.
pub fn create_target_machine(options: &CodegenOptions) -> Result<TargetMachine, CodegenError> {
    initialize_native_target()?;
    let triple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple).map_err(|message| CodegenError::UnsupportedTarget {
        triple: triple.to_string(),
        message: message.to_string(),
    })?;
    let cpu = TargetCpu::from_options(options);
    // LLVM aborts the process on an unknown CPU name while generating code; refuse it here instead.
    let named_cpu = options
        .target_cpu
        .as_deref()
        .filter(|name| !HOST_CPU_NAMES.contains(name));
    if named_cpu.is_some_and(|name| check_target_cpu_name(name).is_err()) {
        return Err(CodegenError::TargetMachineCreation {
            triple: triple.to_string(),
            cpu: cpu.name.clone(),
        });
    }
    target
        .create_target_machine(
            &triple,
            &cpu.name,
            &cpu.features,
            OptimizationLevel::Aggressive,
            RelocMode::PIC,
            CodeModel::Default,
        )
        .ok_or_else(|| CodegenError::TargetMachineCreation {
            triple: triple.to_string(),
            cpu: cpu.name.clone(),
        })
}

/// Makes the module generate for this target machine: its triple, its data layout (which the optimiser needs to
/// know the sizes and alignments of types), and the CPU attributes on every function.
pub fn prepare_module_for_target(module: &Module<'_>, target_machine: &TargetMachine) {
    module.set_triple(&target_machine.get_triple());
    module.set_data_layout(&target_machine.get_target_data().get_data_layout());
    attach_target_cpu_attributes(module, &TargetCpu::of_target_machine(target_machine));
}

/// Adds `"target-cpu"` and `"target-features"` to every function defined in the module (declarations have no code
/// to generate). Functions added later need the call again.
///
/// On a CPU with AVX-512, functions also get `"prefer-vector-width"="512"`: LLVM's tuning for Intel's server cores
/// keeps vector loops to 256 bits (for the clock frequency of early AVX-512 parts), which halves the lanes of every
/// loop and the registers a register tile may hold; on a Sapphire Rapids core, 512 bits made signal, mandelbrot and
/// sum 25-30% faster (bench/run's programs, each built both ways). Loops that call elementary functions (`*`, `⍟`,
/// `○`) are left at the default: the C library computes those a lane at a time, and wider vectors only added lane
/// shuffles (blackscholes took 22% longer).
pub fn attach_target_cpu_attributes(module: &Module<'_>, cpu: &TargetCpu) {
    let context = module.get_context();
    let prefer_512_bits = has_512_bit_vectors(&cpu.features);
    let elementary = functions_reaching_elementary_functions(module);
    for function in module.get_functions() {
        if function.count_basic_blocks() == 0 {
            continue;
        }
        function.add_attribute(
            AttributeLoc::Function,
            context.create_string_attribute("target-cpu", &cpu.name),
        );
        if !cpu.features.is_empty() {
            function.add_attribute(
                AttributeLoc::Function,
                context.create_string_attribute("target-features", &cpu.features),
            );
        }
        if prefer_512_bits && !elementary.contains(&function_name(function)) {
            function.add_attribute(
                AttributeLoc::Function,
                context.create_string_attribute("prefer-vector-width", "512"),
            );
        }
    }
}

/// Whether a feature string enables AVX-512 (`+avx512f`).
fn has_512_bit_vectors(features: &str) -> bool {
    features.split(',').any(|feature| feature == "+avx512f")
}

fn function_name(function: FunctionValue<'_>) -> String {
    function.get_name().to_string_lossy().into_owned()
}

/// The functions defined in the module that call an elementary function (`llvm.exp`, `llvm.log`, `llvm.pow`, ...),
/// directly or through the module's other functions (an outlined parallel body is inlined into its chunk loop).
fn functions_reaching_elementary_functions(module: &Module<'_>) -> HashSet<String> {
    const ELEMENTARY: [&str; 12] = [
        "llvm.exp.",
        "llvm.exp2.",
        "llvm.log.",
        "llvm.log2.",
        "llvm.log10.",
        "llvm.pow.",
        "llvm.sin.",
        "llvm.cos.",
        "llvm.tan.",
        "llvm.asin.",
        "llvm.acos.",
        "llvm.atan.",
    ];
    let callees: Vec<(String, Vec<String>)> = module
        .get_functions()
        .filter(|function| function.count_basic_blocks() > 0)
        .map(|function| (function_name(function), called_functions(function)))
        .collect();
    let mut reaching: HashSet<String> = HashSet::new();
    loop {
        let before = reaching.len();
        for (caller, called) in &callees {
            let reaches = called.iter().any(|name| {
                reaching.contains(name)
                    || ELEMENTARY.iter().any(|prefix| name.starts_with(prefix))
                    || is_c_library_elementary(name)
            });
            if reaches {
                reaching.insert(caller.clone());
            }
        }
        if reaching.len() == before {
            return reaching;
        }
    }
}

/// The names of the functions a function calls directly.
fn called_functions(function: FunctionValue<'_>) -> Vec<String> {
    function
        .get_basic_blocks()
        .iter()
        .flat_map(|block| block.get_instructions())
        .filter_map(|instruction| CallSiteValue::try_from(instruction).ok()?.get_called_fn_value())
        .map(function_name)
        .collect()
}

/// The C library's elementary functions that the translation calls by name.
fn is_c_library_elementary(name: &str) -> bool {
    matches!(
        name,
        "exp" | "log" | "pow" | "sin" | "cos" | "tan" | "asin" | "acos" | "atan" | "sinh" | "cosh" | "tanh" | "atan2"
    )
}

/// Runs the O3 pipeline on the module, with the target machine's cost model (vector widths, instruction costs).
pub fn optimise_module(module: &Module<'_>, target_machine: &TargetMachine) -> Result<(), CodegenError> {
    module
        .run_passes(OPTIMISATION_PIPELINE, target_machine, PassBuilderOptions::create())
        .map_err(|message| CodegenError::PassPipeline {
            pipeline: OPTIMISATION_PIPELINE.to_string(),
            message: message.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use inkwell::context::Context;

    /// The `prefer-vector-width` of a function after the CPU attributes are attached (None: none).
    fn preferred_width(module: &Module<'_>, name: &str) -> Option<String> {
        let function = module.get_function(name).expect("the function is defined");
        function
            .get_string_attribute(AttributeLoc::Function, "prefer-vector-width")
            .map(|attribute| attribute.get_string_value().to_string_lossy().into_owned())
    }

    #[test]
    fn avx512_cpus_prefer_512_bit_vectors_except_where_elementary_functions_are_called() {
        let context = Context::create();
        let module = context.create_module("widths");
        let f64_type = context.f64_type();
        let unary = f64_type.fn_type(&[f64_type.into()], false);
        let exp = module.add_function("llvm.exp.f64", unary, None);
        let builder = context.create_builder();
        // `body` calls exp; `chunks` calls `body` (as a chunk loop calls its outlined body); `plain` calls nothing.
        let body = module.add_function("body", unary, None);
        builder.position_at_end(context.append_basic_block(body, "entry"));
        let argument = body.get_nth_param(0).expect("a parameter").into_float_value();
        let value = builder.build_call(exp, &[argument.into()], "e").expect("a call");
        let result = value.try_as_basic_value().basic().expect("a value");
        builder.build_return(Some(&result)).expect("a return");
        for (name, callee) in [("chunks", Some(body)), ("plain", None)] {
            let function = module.add_function(name, unary, None);
            builder.position_at_end(context.append_basic_block(function, "entry"));
            let argument = function.get_nth_param(0).expect("a parameter");
            let result = match callee {
                Some(callee) => builder
                    .build_call(callee, &[argument.into()], "r")
                    .expect("a call")
                    .try_as_basic_value()
                    .basic()
                    .expect("a value"),
                None => argument,
            };
            builder.build_return(Some(&result)).expect("a return");
        }
        let avx512 = TargetCpu {
            name: "sapphirerapids".to_string(),
            features: "+avx2,+avx512f,+fma".to_string(),
        };
        attach_target_cpu_attributes(&module, &avx512);
        assert_eq!(preferred_width(&module, "plain").as_deref(), Some("512"));
        assert_eq!(preferred_width(&module, "body"), None);
        assert_eq!(preferred_width(&module, "chunks"), None);
        let other = context.create_module("avx2");
        let plain = other.add_function("plain", unary, None);
        builder.position_at_end(context.append_basic_block(plain, "entry"));
        let argument = plain.get_nth_param(0).expect("a parameter");
        builder.build_return(Some(&argument)).expect("a return");
        let avx2 = TargetCpu {
            name: "znver3".to_string(),
            features: "+avx2,+fma,-avx512f".to_string(),
        };
        attach_target_cpu_attributes(&other, &avx2);
        assert_eq!(preferred_width(&other, "plain"), None);
    }
}

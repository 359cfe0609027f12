//! Ahead-of-time compilation: the module becomes an object file for the host CPU (or `--target-cpu`), which the
//! system C compiler links with the run-time library's static archive into an executable. The executable needs no
//! LLVM at run time; it depends only on the C library (and libm, libpthread, libdl, which Rust's standard library
//! inside the archive uses).
//!
//! The run-time library (`libaplc_runtime.a`) travels inside aplc: `build.rs` builds it and it is embedded here
//! ([`EMBEDDED_RUNTIME_LIBRARY`]), so that an installed or copied aplc builds executables from any folder. For
//! linking it is extracted once into the user's cache folder (`$XDG_CACHE_HOME/aplc`, else `~/.cache/aplc`), under a
//! name that carries its fingerprint (two versions of aplc never share a file), or into a private temporary folder
//! when there is no writable cache folder. The environment variable `APLC_RUNTIME_LIB` overrides it with another
//! archive.
//!
//! The intermediate object file goes into a private temporary folder, never beside the output (where it could
//! replace a user's file of the same name).

use std::path::{Path, PathBuf};
use std::process::Command;

use inkwell::module::{Linkage, Module};
use inkwell::targets::FileType;

use super::error::CodegenError;
use super::jit::require_entry_function;
use super::runtime_table::{declare_runtime_function, RuntimeFunctionId};
use super::target::{create_target_machine, optimise_module, prepare_module_for_target, CodegenOptions};
use super::verify_module;

/// The file name of the run-time library's static archive.
pub const RUNTIME_LIBRARY_FILE_NAME: &str = "libaplc_runtime.a";

/// The environment variable that names the static archive explicitly.
pub const RUNTIME_LIBRARY_VARIABLE: &str = "APLC_RUNTIME_LIB";

/// The environment variable that names the C compiler used as linker (default: `cc`).
pub const LINKER_VARIABLE: &str = "CC";

/// The system libraries Rust's standard library (inside the archive) needs, after the archive on the command line.
pub const SYSTEM_LIBRARIES: [&str; 3] = ["-lm", "-lpthread", "-ldl"];

/// Compiles the module into an executable at `output`: adds a C `main` around the entry function, writes an object
/// file in a private temporary folder (removed afterwards), and links it with the run-time library.
pub fn compile_module_to_executable(
    module: &Module<'_>,
    entry_function_name: &str,
    options: &CodegenOptions,
    runtime_library: &Path,
    output: &Path,
) -> Result<(), CodegenError> {
    define_c_main_calling_entry(module, entry_function_name)?;
    let folder = crate::process::TemporaryFolder::create().map_err(|message| CodegenError::ObjectEmission {
        path: std::env::temp_dir(),
        message,
    })?;
    let object_path = folder.path().join("program.o");
    emit_object_file(module, options, &object_path)?;
    link_executable(&object_path, runtime_library, output)
}

/// Adds `int main(int argc, char **argv)` that hands its arguments to the run-time library, calls the entry function, then `aplrt_finish` (flushes the output and
/// stops the worker threads), and returns the entry's status. The entry must exist; the module must not define `main` already.
pub fn define_c_main_calling_entry(module: &Module<'_>, entry_function_name: &str) -> Result<(), CodegenError> {
    require_entry_function(module, entry_function_name)?;
    if module.get_function("main").is_some() {
        return Err(CodegenError::InvalidModule {
            module_name: module.get_name().to_string_lossy().into_owned(),
            message: "the module already defines main, which AOT compilation adds".to_string(),
        });
    }
    let entry_function =
        module
            .get_function(entry_function_name)
            .ok_or_else(|| CodegenError::MissingEntryFunction {
                name: entry_function_name.to_string(),
            })?;
    let finish_function = declare_runtime_function(module, RuntimeFunctionId::Finish);
    let context = module.get_context();
    let i32_type = context.i32_type();
    let pointer_type = context.ptr_type(inkwell::AddressSpace::default());
    let main_type = i32_type.fn_type(&[i32_type.into(), pointer_type.into()], false);
    let main_function = module.add_function("main", main_type, Some(Linkage::External));
    let builder = context.create_builder();
    builder.position_at_end(context.append_basic_block(main_function, "entry"));
    let build_failed = |error: inkwell::builder::BuilderError| CodegenError::InvalidModule {
        module_name: module.get_name().to_string_lossy().into_owned(),
        message: format!("building main failed: {error}"),
    };
    // The program's arguments (`⎕ArgInt`, `⎕ArgDouble`) are main's, past the executable's own name.
    let set_arguments_function = declare_runtime_function(module, RuntimeFunctionId::SetArguments);
    let argc = main_function.get_nth_param(0).expect("main has argc");
    let argv = main_function.get_nth_param(1).expect("main has argv");
    builder
        .build_call(set_arguments_function, &[argc.into(), argv.into()], "")
        .map_err(build_failed)?;
    let status = builder
        .build_call(entry_function, &[], "status")
        .map_err(build_failed)?
        .try_as_basic_value()
        .basic()
        .ok_or_else(|| CodegenError::MissingEntryFunction {
            name: entry_function_name.to_string(),
        })?;
    builder.build_call(finish_function, &[], "").map_err(build_failed)?;
    builder.build_return(Some(&status)).map_err(build_failed)?;
    Ok(())
}

/// Verifies, targets and optimises the module, and writes it as an object file.
pub fn emit_object_file(module: &Module<'_>, options: &CodegenOptions, object_path: &Path) -> Result<(), CodegenError> {
    verify_module(module)?;
    let target_machine = create_target_machine(options)?;
    prepare_module_for_target(module, &target_machine);
    optimise_module(module, &target_machine)?;
    target_machine
        .write_to_file(module, FileType::Object, object_path)
        .map_err(|message| CodegenError::ObjectEmission {
            path: object_path.to_path_buf(),
            message: message.to_string(),
        })
}

/// Links an object file with the run-time library into an executable, with the C compiler (`$CC`, else `cc`).
/// `--gc-sections` drops the parts of the Rust standard library the program never calls.
pub fn link_executable(object_path: &Path, runtime_library: &Path, output: &Path) -> Result<(), CodegenError> {
    let compiler = std::env::var(LINKER_VARIABLE).unwrap_or_else(|_| "cc".to_string());
    let result = Command::new(&compiler)
        .arg(object_path)
        .arg(runtime_library)
        .arg("-o")
        .arg(output)
        .arg("-Wl,--gc-sections")
        .args(SYSTEM_LIBRARIES)
        .output()
        .map_err(|error| CodegenError::LinkerNotRunnable {
            compiler: compiler.clone(),
            output: output.to_path_buf(),
            message: error.to_string(),
        })?;
    if result.status.success() {
        Ok(())
    } else {
        Err(CodegenError::LinkFailed {
            output: output.to_path_buf(),
            status: result.status.to_string(),
            stderr: String::from_utf8_lossy(&result.stderr).into_owned(),
        })
    }
}

/// The run-time library's static archive, built by `build.rs` from `runtime/`. A `static`, not a `const`: a constant
/// would copy its 20-odd megabytes into every crate that uses it.
pub static EMBEDDED_RUNTIME_LIBRARY: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/libaplc_runtime.a"));

/// The fingerprint of [`EMBEDDED_RUNTIME_LIBRARY`] (computed by `build.rs`), part of the extracted file's name.
pub const RUNTIME_LIBRARY_FINGERPRINT: &str = env!("APLC_RUNTIME_FINGERPRINT");

/// The archive to link with. When it had to be extracted into a temporary folder (no usable cache folder), the
/// folder lives as long as this value.
#[derive(Debug)]
pub struct RuntimeLibrary {
    path: PathBuf,
    _temporary_folder: Option<crate::process::TemporaryFolder>,
}

impl RuntimeLibrary {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// The archive to link with: the one `APLC_RUNTIME_LIB` names, else the embedded one extracted to the cache folder
/// (`$XDG_CACHE_HOME/aplc`, else `$HOME/.cache/aplc`).
pub fn find_runtime_library() -> Result<RuntimeLibrary, CodegenError> {
    find_runtime_library_from(
        std::env::var_os(RUNTIME_LIBRARY_VARIABLE).as_deref(),
        user_cache_folder().as_deref(),
    )
}

/// [`find_runtime_library`] with the value of `APLC_RUNTIME_LIB` and the cache folder given: a set variable must name
/// an existing file; otherwise the embedded archive is extracted into the cache folder (once per fingerprint), or,
/// when there is none or it cannot be written, into a private temporary folder for this build only.
pub fn find_runtime_library_from(
    variable_value: Option<&std::ffi::OsStr>,
    cache_folder: Option<&Path>,
) -> Result<RuntimeLibrary, CodegenError> {
    if let Some(path) = variable_value {
        let path = PathBuf::from(path);
        return if path.is_file() {
            Ok(RuntimeLibrary {
                path,
                _temporary_folder: None,
            })
        } else {
            Err(CodegenError::RuntimeLibraryVariableInvalid { path })
        };
    }
    let cache_failure = match cache_folder.map(extract_embedded_runtime_library) {
        Some(Ok(path)) => {
            return Ok(RuntimeLibrary {
                path,
                _temporary_folder: None,
            })
        }
        Some(Err(message)) => message,
        None => "neither XDG_CACHE_HOME nor HOME is set".to_string(),
    };
    let not_extracted = |message: String| CodegenError::RuntimeLibraryNotExtracted {
        message: format!("{cache_failure}; {message}"),
    };
    let temporary_folder = crate::process::TemporaryFolder::create().map_err(not_extracted)?;
    let path = extract_embedded_runtime_library(temporary_folder.path()).map_err(not_extracted)?;
    Ok(RuntimeLibrary {
        path,
        _temporary_folder: Some(temporary_folder),
    })
}

/// `$XDG_CACHE_HOME/aplc`, else `$HOME/.cache/aplc` (variables set to an empty value count as unset).
fn user_cache_folder() -> Option<PathBuf> {
    let non_empty = |name: &str| {
        std::env::var_os(name)
            .filter(|value| !value.is_empty())
            .map(PathBuf::from)
    };
    non_empty("XDG_CACHE_HOME")
        .or_else(|| non_empty("HOME").map(|home| home.join(".cache")))
        .map(|cache| cache.join("aplc"))
}

/// Writes the embedded archive into `folder` (created if missing) as `libaplc_runtime-<fingerprint>.a`, unless an
/// identical copy is there already. The bytes go to a file of this extraction first, renamed into place, so that a
/// concurrent aplc (or test thread) never links a half-written archive; concurrent renames put identical bytes.
pub fn extract_embedded_runtime_library(folder: &Path) -> Result<PathBuf, String> {
    let path = folder.join(format!("libaplc_runtime-{RUNTIME_LIBRARY_FINGERPRINT}.a"));
    if is_embedded_runtime_library(&path) {
        return Ok(path);
    }
    static NEXT_PARTIAL: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let partial_number = NEXT_PARTIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let partial = folder.join(format!(
        ".libaplc_runtime-{RUNTIME_LIBRARY_FINGERPRINT}.a.{}-{partial_number}",
        std::process::id()
    ));
    let written = std::fs::create_dir_all(folder)
        .and_then(|()| std::fs::write(&partial, EMBEDDED_RUNTIME_LIBRARY))
        .and_then(|()| std::fs::rename(&partial, &path));
    written.map(|()| path).map_err(|error| {
        let _ = std::fs::remove_file(&partial);
        format!("cannot extract the run-time library into {}: {error}", folder.display())
    })
}

/// Whether the file holds exactly the embedded archive (a truncated or foreign file of that name is replaced).
fn is_embedded_runtime_library(path: &Path) -> bool {
    let same_length =
        std::fs::metadata(path).is_ok_and(|metadata| metadata.len() == EMBEDDED_RUNTIME_LIBRARY.len() as u64);
    same_length && std::fs::read(path).is_ok_and(|bytes| bytes == EMBEDDED_RUNTIME_LIBRARY)
}

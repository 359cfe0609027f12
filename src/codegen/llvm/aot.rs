//! Ahead-of-time compilation: the module becomes an object file for the host CPU (or `--target-cpu`), which the
//! system C compiler links with the run-time library's static archive into an executable. The executable needs no
//! LLVM at run time; it depends only on the C library (and libm, libpthread, libdl, which Rust's standard library
//! inside the archive uses).
//!
//! Finding `libaplc_runtime.a` (see [`find_runtime_library`]): the environment variable `APLC_RUNTIME_LIB` wins if
//! set. Otherwise the archive is looked for where Cargo puts it, relative to the running executable (aplc in
//! `target/<profile>/`, or a test binary in `target/<profile>/deps/`):
//! - `target/<profile>/libaplc_runtime.a`, which `cargo build -p aplc-runtime [--release]` (or a build of the whole
//!   workspace) writes;
//! - `target/<profile>/deps/libaplc_runtime-<hash>.a`, which Cargo writes whenever it builds aplc, because it builds
//!   every crate type of a dependency, the static library included.
//!
//! Of the candidates that exist the most recently modified is taken, so that an old archive left over from an
//! earlier `cargo build -p aplc-runtime` does not shadow the one Cargo just rebuilt with aplc.

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
/// file next to the output (removed after linking), and links it with the run-time library.
pub fn compile_module_to_executable(
    module: &Module<'_>,
    entry_function_name: &str,
    options: &CodegenOptions,
    runtime_library: &Path,
    output: &Path,
) -> Result<(), CodegenError> {
    define_c_main_calling_entry(module, entry_function_name)?;
    let object_path = object_path_for_executable(output);
    emit_object_file(module, options, &object_path)?;
    let linked = link_executable(&object_path, runtime_library, output);
    // The object is an intermediate; a failed link reports its own error, so a failed removal adds nothing.
    let _ = std::fs::remove_file(&object_path);
    linked
}

/// Where the intermediate object file of an executable goes: beside it, with `.o` appended to its name.
pub fn object_path_for_executable(output: &Path) -> PathBuf {
    let mut object_name = output.file_name().unwrap_or_default().to_os_string();
    object_name.push(".o");
    output.with_file_name(object_name)
}

/// Adds `int main(int argc, char **argv)` that calls the entry function, then `aplrt_finish` (flushes the output and
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

/// Finds `libaplc_runtime.a` as the module documentation describes, from `APLC_RUNTIME_LIB` and the location of
/// the running executable.
pub fn find_runtime_library() -> Result<PathBuf, CodegenError> {
    let executable = std::env::current_exe().unwrap_or_default();
    let executable_directory = executable.parent().unwrap_or(Path::new("."));
    find_runtime_library_from(
        std::env::var_os(RUNTIME_LIBRARY_VARIABLE).as_deref(),
        executable_directory,
    )
}

/// [`find_runtime_library`] with the value of `APLC_RUNTIME_LIB` and the executable's directory given: a set
/// variable must name an existing file; otherwise the newest candidate near the executable is taken.
pub fn find_runtime_library_from(
    variable_value: Option<&std::ffi::OsStr>,
    executable_directory: &Path,
) -> Result<PathBuf, CodegenError> {
    if let Some(path) = variable_value {
        let path = PathBuf::from(path);
        return if path.is_file() {
            Ok(path)
        } else {
            Err(CodegenError::RuntimeLibraryVariableInvalid { path })
        };
    }
    let candidates = runtime_library_candidates(executable_directory);
    newest_existing_file(&candidates).ok_or_else(|| CodegenError::RuntimeLibraryNotFound {
        searched: describe_searched_places(executable_directory),
    })
}

/// The places Cargo may have put the archive, for an executable in `executable_directory` (which is
/// `target/<profile>` for aplc and `target/<profile>/deps` for test binaries). Only existing files are returned.
pub fn runtime_library_candidates(executable_directory: &Path) -> Vec<PathBuf> {
    let profile_directory = profile_directory_of(executable_directory);
    let mut candidates = vec![
        executable_directory.join(RUNTIME_LIBRARY_FILE_NAME),
        profile_directory.join(RUNTIME_LIBRARY_FILE_NAME),
    ];
    candidates.extend(hashed_runtime_libraries_in(&profile_directory.join("deps")));
    candidates.sort();
    candidates.dedup();
    candidates.retain(|candidate| candidate.is_file());
    candidates
}

/// `target/<profile>` for an executable directory that is either it or its `deps` subdirectory.
fn profile_directory_of(executable_directory: &Path) -> PathBuf {
    match (executable_directory.file_name(), executable_directory.parent()) {
        (Some(name), Some(parent)) if name == "deps" => parent.to_path_buf(),
        _ => executable_directory.to_path_buf(),
    }
}

/// The `libaplc_runtime-<hash>.a` files in a Cargo `deps` directory.
fn hashed_runtime_libraries_in(deps_directory: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(deps_directory) else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.path())
        .filter(|path| {
            let name = path.file_name().and_then(|name| name.to_str()).unwrap_or("");
            name.starts_with("libaplc_runtime-") && name.ends_with(".a")
        })
        .collect()
}

/// The most recently modified of the files (ties keep the earlier one in the list).
pub fn newest_existing_file(candidates: &[PathBuf]) -> Option<PathBuf> {
    candidates
        .iter()
        .filter_map(|path| {
            let modified = std::fs::metadata(path).and_then(|metadata| metadata.modified()).ok()?;
            Some((modified, path))
        })
        .fold(
            None,
            |newest: Option<(std::time::SystemTime, &PathBuf)>, (modified, path)| match newest {
                Some((newest_time, _)) if newest_time >= modified => newest,
                _ => Some((modified, path)),
            },
        )
        .map(|(_, path)| path.clone())
}

fn describe_searched_places(executable_directory: &Path) -> String {
    let profile_directory = profile_directory_of(executable_directory);
    format!(
        "${RUNTIME_LIBRARY_VARIABLE} (not set), {}, {}, {}",
        executable_directory.join(RUNTIME_LIBRARY_FILE_NAME).display(),
        profile_directory.join(RUNTIME_LIBRARY_FILE_NAME).display(),
        profile_directory.join("deps").join("libaplc_runtime-*.a").display()
    )
}

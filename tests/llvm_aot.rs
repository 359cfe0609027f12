//! The AOT path: hand-built modules written as object files, linked with `cc` against `libaplc_runtime.a`, and run
//! as separate processes. The archive is the one embedded in aplc (built by build.rs), extracted by
//! `find_runtime_library` into the user's cache folder.

mod llvm_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use inkwell::context::Context;
use inkwell::module::Module;

use aplc::codegen::llvm::aot::{
    compile_module_to_executable, define_c_main_calling_entry, find_runtime_library, link_executable,
    EMBEDDED_RUNTIME_LIBRARY,
};
use aplc::codegen::llvm::error::CodegenError;
use aplc::codegen::llvm::runtime_table::RuntimeFunctionId;
use aplc::codegen::llvm::target::CodegenOptions;
use aplc::codegen::llvm::{verify_module, PROGRAM_ENTRY_FUNCTION_NAME};
use aplc_runtime::abi::{RollGenerator, ROLL_SEED};
use llvm_support::{
    build_length_error_module, build_module_referencing_every_runtime_function, build_program_printing_integers,
    build_sum_of_first_integers_module, call_alloc_and_free, call_integer_function, call_read_file_length,
    LENGTH_ERROR_MESSAGE,
};

/// A fresh directory for one test's files, under Cargo's temporary directory for integration tests.
fn test_directory(test_name: &str) -> PathBuf {
    let directory = Path::new(env!("CARGO_TARGET_TMPDIR")).join("llvm_aot").join(test_name);
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    directory
}

/// Compiles the module into an executable in the test's directory and runs it.
fn compile_and_run(module: &Module<'_>, test_name: &str, options: &CodegenOptions) -> (PathBuf, Output) {
    verify_module(module).expect("the hand-built module is valid");
    let directory = test_directory(test_name);
    // A file of the user's with the name an intermediate object beside the output would have had: it must survive.
    std::fs::write(directory.join("program.o"), "the user's file").unwrap();
    let executable = directory.join("program");
    let runtime_library = find_runtime_library().expect("the embedded libaplc_runtime.a is extracted");
    compile_module_to_executable(
        module,
        PROGRAM_ENTRY_FUNCTION_NAME,
        options,
        runtime_library.path(),
        &executable,
    )
    .expect("the module compiles and links");
    let output = Command::new(&executable).output().expect("the executable runs");
    (executable, output)
}

#[test]
fn the_sum_executable_prints_5050_and_exits_with_0() {
    let context = Context::create();
    let module = build_sum_of_first_integers_module(&context, 100);
    let (executable, output) = compile_and_run(&module, "sum", &CodegenOptions::default());
    assert_eq!(String::from_utf8_lossy(&output.stdout), "5050\n");
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    assert_eq!(output.status.code(), Some(0));
    // The object file was an intermediate in a temporary folder: the user's program.o beside the output is intact.
    assert_eq!(
        std::fs::read_to_string(executable.with_file_name("program.o")).unwrap(),
        "the user's file"
    );
}

#[test]
fn the_executable_does_not_depend_on_llvm() {
    let context = Context::create();
    let module = build_sum_of_first_integers_module(&context, 10);
    let (executable, output) = compile_and_run(&module, "no_llvm", &CodegenOptions::default());
    assert_eq!(String::from_utf8_lossy(&output.stdout), "55\n");
    let ldd = Command::new("ldd").arg(&executable).output().expect("ldd runs");
    let libraries = String::from_utf8_lossy(&ldd.stdout);
    // ldd really listed the dynamic dependencies: the C library is always one.
    assert!(libraries.contains("libc.so"), "ldd said:\n{libraries}");
    assert!(!libraries.to_lowercase().contains("llvm"), "ldd said:\n{libraries}");
}

#[test]
fn a_length_error_exits_with_1_after_flushing_what_was_printed() {
    let context = Context::create();
    let module = build_length_error_module(&context);
    let (_, output) = compile_and_run(&module, "length_error", &CodegenOptions::default());
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&output.stdout), "7\n");
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        format!("LENGTH ERROR: {LENGTH_ERROR_MESSAGE}\n")
    );
}

#[test]
fn every_runtime_function_resolves_in_the_static_library() {
    let context = Context::create();
    let module = build_module_referencing_every_runtime_function(&context);
    let (_, output) = compile_and_run(&module, "every_function", &CodegenOptions::default());
    assert_eq!(
        output.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn a_baseline_cpu_executable_runs_here() {
    let context = Context::create();
    let module = build_sum_of_first_integers_module(&context, 100);
    let options = CodegenOptions {
        target_cpu: Some("x86-64".to_string()),
        ..CodegenOptions::default()
    };
    let (_, output) = compile_and_run(&module, "baseline_cpu", &options);
    assert_eq!(String::from_utf8_lossy(&output.stdout), "5050\n");
}

#[test]
fn adding_main_twice_is_refused() {
    let context = Context::create();
    let module = build_sum_of_first_integers_module(&context, 1);
    define_c_main_calling_entry(&module, PROGRAM_ENTRY_FUNCTION_NAME).unwrap();
    verify_module(&module).unwrap();
    let second = define_c_main_calling_entry(&module, PROGRAM_ENTRY_FUNCTION_NAME);
    assert!(
        matches!(second, Err(CodegenError::InvalidModule { ref message, .. }) if message.contains("main")),
        "{second:?}"
    );
}

#[test]
fn a_failed_link_reports_the_linker_output() {
    let directory = test_directory("failed_link");
    let not_an_object = directory.join("not_an_object.o");
    std::fs::write(&not_an_object, "this is not an object file").unwrap();
    let runtime_library = find_runtime_library().unwrap();
    let result = link_executable(&not_an_object, runtime_library.path(), &directory.join("program"));
    match result {
        Err(CodegenError::LinkFailed { stderr, .. }) => assert!(!stderr.is_empty()),
        other => panic!("expected LinkFailed, got {other:?}"),
    }
}

/// Standard output and standard error as text, and the exit status.
fn outcome(output: &Output) -> (String, String, Option<i32>) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.code(),
    )
}

#[test]
fn rolls_follow_the_documented_seeded_generator_on_every_run() {
    let context = Context::create();
    let module = build_program_printing_integers(&context, "rolls", |module, builder| {
        (0..5)
            .map(|_| call_integer_function(module, builder, RuntimeFunctionId::Roll, &[6]))
            .collect()
    });
    let (executable, output) = compile_and_run(&module, "rolls", &CodegenOptions::default());
    let mut generator = RollGenerator::with_seed(ROLL_SEED);
    let expected: String = (0..5).map(|_| format!("{}\n", generator.roll(6))).collect();
    assert_eq!(outcome(&output), (expected.clone(), String::new(), Some(0)));
    // Seeded once with a fixed seed: a second run rolls the same numbers.
    let second_run = Command::new(&executable).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&second_run.stdout), expected);
}

#[test]
fn rolling_zero_is_a_domain_error() {
    let context = Context::create();
    let module = build_program_printing_integers(&context, "roll_zero", |module, builder| {
        vec![call_integer_function(module, builder, RuntimeFunctionId::Roll, &[0])]
    });
    let (_, output) = compile_and_run(&module, "roll_zero", &CodegenOptions::default());
    let expected_error = "DOMAIN ERROR: ? needs a positive integer, not 0\n".to_string();
    assert_eq!(outcome(&output), (String::new(), expected_error, Some(1)));
}

#[test]
fn an_impossible_allocation_stops_with_ws_full() {
    let context = Context::create();
    let module = build_program_printing_integers(&context, "ws_full", |module, builder| {
        call_alloc_and_free(module, builder, i64::MAX);
        Vec::new()
    });
    let (_, output) = compile_and_run(&module, "ws_full", &CodegenOptions::default());
    let expected_error = "WS FULL: cannot allocate 9223372036854775807 bytes\n".to_string();
    assert_eq!(outcome(&output), (String::new(), expected_error, Some(1)));
}

#[test]
fn the_clock_reads_the_time_of_the_run() {
    let context = Context::create();
    let module = build_program_printing_integers(&context, "clock", |module, builder| {
        vec![call_integer_function(
            module,
            builder,
            RuntimeFunctionId::NowMillis,
            &[],
        )]
    });
    let milliseconds_now = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64
    };
    let before = milliseconds_now();
    let (_, output) = compile_and_run(&module, "clock", &CodegenOptions::default());
    let after = milliseconds_now();
    // The milliseconds since 1970 are beyond 32 bits, which the display shows as a double of 10 digits (as Dyalog
    // holds such an integer): within 1000 ms of the true time, rounded either way.
    let printed: f64 = String::from_utf8_lossy(&output.stdout)
        .trim()
        .replace('E', "e")
        .parse()
        .unwrap();
    let (earliest, latest) = ((before - 1000) as f64, (after + 1000) as f64);
    assert!(
        earliest <= printed && printed <= latest,
        "{before} ≤ {printed} ≤ {after}"
    );
}

#[test]
fn reading_a_file_gives_its_length_and_a_missing_file_is_a_file_io_error() {
    let directory = test_directory("read_file_data");
    let existing = directory.join("data.txt");
    // "⍴" is three bytes in UTF-8: 3 + 4 = 7 bytes.
    std::fs::write(&existing, "⍴1 2\n").unwrap();
    let missing = directory.join("missing.txt");
    let existing_path = existing.to_str().unwrap().to_string();
    let missing_path = missing.to_str().unwrap().to_string();

    let context = Context::create();
    let reading_existing = build_program_printing_integers(&context, "read_existing_file", |module, builder| {
        vec![call_read_file_length(module, builder, &existing_path)]
    });
    let (_, output) = compile_and_run(&reading_existing, "read_existing_file", &CodegenOptions::default());
    assert_eq!(outcome(&output), ("7\n".to_string(), String::new(), Some(0)));

    let reading_missing = build_program_printing_integers(&context, "read_missing_file", |module, builder| {
        vec![call_read_file_length(module, builder, &missing_path)]
    });
    let (_, output) = compile_and_run(&reading_missing, "read_missing_file", &CodegenOptions::default());
    let expected_error =
        format!("FILE I/O ERROR: cannot read {missing_path}: No such file or directory (os error 2)\n");
    assert_eq!(outcome(&output), (String::new(), expected_error, Some(1)));
}

#[test]
fn output_is_flushed_when_the_program_calls_exit_itself() {
    use aplc::codegen::llvm::emit::FunctionEmitter;
    use aplc_runtime::abi::ElementKind;
    let context = Context::create();
    let module = context.create_module("exit_without_flush");
    {
        let emitter = FunctionEmitter::for_new_program_entry(&module);
        emitter
            .emit_print_scalar(ElementKind::Int, emitter.int_constant(42).into(), 10)
            .unwrap();
        // C's exit, called before the flush that the generated main does after the entry returns: only the
        // run-time library's atexit handler can write the buffered 42.
        let exit_type = context.void_type().fn_type(&[context.i32_type().into()], false);
        let exit_function = module.add_function("exit", exit_type, None);
        emitter
            .builder
            .build_call(exit_function, &[emitter.i32_constant(3).into()], "")
            .unwrap();
        emitter.emit_return_status(0).unwrap();
    }
    let (_, output) = compile_and_run(&module, "exit_without_flush", &CodegenOptions::default());
    assert_eq!(outcome(&output), ("42\n".to_string(), String::new(), Some(3)));
}

#[test]
fn the_environment_variable_wins_and_must_name_a_file() {
    use aplc::codegen::llvm::aot::find_runtime_library_from;
    let directory = test_directory("variable");
    let named = directory.join("custom_runtime.a");
    std::fs::write(&named, "archive").unwrap();

    let found = find_runtime_library_from(Some(named.as_os_str()), Some(&directory.join("cache"))).unwrap();
    assert_eq!(found.path(), named);
    // The variable is taken as it is: nothing is extracted.
    assert!(!directory.join("cache").exists());
    let missing = directory.join("missing.a");
    assert_eq!(
        find_runtime_library_from(Some(missing.as_os_str()), None).unwrap_err(),
        CodegenError::RuntimeLibraryVariableInvalid { path: missing }
    );
}

#[test]
fn the_embedded_archive_is_extracted_once_under_its_fingerprint() {
    use aplc::codegen::llvm::aot::{find_runtime_library_from, RUNTIME_LIBRARY_FINGERPRINT};
    let directory = test_directory("extraction");
    let cache = directory.join("cache").join("aplc");
    let extracted = find_runtime_library_from(None, Some(&cache)).unwrap();
    // The folder is created; the name carries the fingerprint (16 hexadecimal digits of the archive's hash).
    assert_eq!(
        extracted.path(),
        cache.join(format!("libaplc_runtime-{RUNTIME_LIBRARY_FINGERPRINT}.a"))
    );
    assert_eq!(RUNTIME_LIBRARY_FINGERPRINT.len(), 16);
    assert!(RUNTIME_LIBRARY_FINGERPRINT.chars().all(|c| c.is_ascii_hexdigit()));
    assert!(std::fs::read(extracted.path()).unwrap() == EMBEDDED_RUNTIME_LIBRARY);
    // A real archive: `ar` files start with this magic string.
    assert!(EMBEDDED_RUNTIME_LIBRARY.starts_with(b"!<arch>\n"));

    // A complete copy is reused as it is (its modification time does not change)...
    let written_at = std::fs::metadata(extracted.path()).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert_eq!(
        find_runtime_library_from(None, Some(&cache)).unwrap().path(),
        extracted.path()
    );
    assert_eq!(
        std::fs::metadata(extracted.path()).unwrap().modified().unwrap(),
        written_at
    );
    // ...a truncated one is replaced.
    std::fs::write(extracted.path(), &EMBEDDED_RUNTIME_LIBRARY[..100]).unwrap();
    find_runtime_library_from(None, Some(&cache)).unwrap();
    assert!(std::fs::read(extracted.path()).unwrap() == EMBEDDED_RUNTIME_LIBRARY);
    // Nothing else is left in the folder (no partial files).
    assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 1);
}

#[test]
fn concurrent_extractions_all_get_the_whole_archive() {
    use aplc::codegen::llvm::aot::find_runtime_library_from;
    let cache = test_directory("concurrent_extraction").join("cache");
    let paths: Vec<PathBuf> = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..8)
            .map(|_| {
                scope.spawn(|| {
                    find_runtime_library_from(None, Some(&cache))
                        .unwrap()
                        .path()
                        .to_path_buf()
                })
            })
            .collect();
        threads.into_iter().map(|thread| thread.join().unwrap()).collect()
    });
    assert!(paths.iter().all(|path| path == &paths[0]));
    assert!(std::fs::read(&paths[0]).unwrap() == EMBEDDED_RUNTIME_LIBRARY);
    assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 1);
}

#[test]
fn without_a_usable_cache_folder_the_archive_goes_to_a_temporary_folder() {
    use aplc::codegen::llvm::aot::find_runtime_library_from;
    let directory = test_directory("no_cache");
    // A file where the cache folder should be: it cannot be created.
    let blocked = directory.join("not_a_folder");
    std::fs::write(&blocked, "a file").unwrap();
    for cache in [None, Some(blocked.join("aplc"))] {
        let library = find_runtime_library_from(None, cache.as_deref()).unwrap();
        let path = library.path().to_path_buf();
        assert!(path.starts_with(std::env::temp_dir()), "{}", path.display());
        assert!(std::fs::read(&path).unwrap() == EMBEDDED_RUNTIME_LIBRARY);
        // The temporary copy goes with the value.
        drop(library);
        assert!(!path.exists());
    }
}

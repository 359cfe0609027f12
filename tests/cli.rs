//! The `aplc` command line as a user meets it: a copied (installed) binary builds executables from any folder with
//! nothing of the build tree around. Expected outputs are worked out by hand.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh folder for one test's files.
fn test_directory(test_name: &str) -> PathBuf {
    let directory = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli").join(test_name);
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    directory
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The names in a folder, sorted.
fn folder_entries(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// x←⍳5 is 1 2 3 4 5; +/x×x is 1+4+9+16+25 = 55; ⌽x is 5 4 3 2 1.
const PROGRAM: &str = "x←⍳5\n+/x×x\n⌽x\n";
const PROGRAM_OUTPUT: &str = "55\n5 4 3 2 1\n";

#[test]
fn a_copied_binary_builds_executables_from_any_folder() {
    let directory = test_directory("copied_binary");
    let (bin, work, cache, home) = (
        directory.join("bin"),
        directory.join("work"),
        directory.join("cache"),
        directory.join("home"),
    );
    for folder in [&bin, &work, &cache, &home] {
        std::fs::create_dir(folder).unwrap();
    }
    // Only the binary: no target/ folder beside it, no run-time library anywhere but inside it.
    let aplc = bin.join("aplc");
    std::fs::copy(env!("CARGO_BIN_EXE_aplc"), &aplc).unwrap();
    std::fs::write(work.join("prog.apl"), PROGRAM).unwrap();
    let build = |output: &str| {
        Command::new(&aplc)
            .args(["build", "prog.apl", "-o", output])
            .current_dir(&work)
            .env_remove("APLC_RUNTIME_LIB")
            .env("XDG_CACHE_HOME", &cache)
            .env("HOME", &home)
            .output()
            .unwrap()
    };
    let built = build("prog");
    assert_eq!((text(&built.stderr), built.status.code()), (String::new(), Some(0)));
    let run = Command::new(work.join("prog")).output().unwrap();
    assert_eq!(
        (text(&run.stdout), run.status.code()),
        (PROGRAM_OUTPUT.to_string(), Some(0))
    );

    // The archive went into $XDG_CACHE_HOME/aplc, once, under its fingerprint; nothing into HOME.
    let extracted = folder_entries(&cache.join("aplc"));
    assert_eq!(extracted.len(), 1, "{extracted:?}");
    assert!(
        extracted[0].starts_with("libaplc_runtime-") && extracted[0].ends_with(".a"),
        "{extracted:?}"
    );
    assert!(folder_entries(&home).is_empty());
    // A second build reuses it.
    let again = build("prog2");
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert_eq!(folder_entries(&cache.join("aplc")), extracted);
    assert_eq!(
        text(&Command::new(work.join("prog2")).output().unwrap().stdout),
        PROGRAM_OUTPUT
    );
}

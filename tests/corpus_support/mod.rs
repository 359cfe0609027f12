//! The list of corpus programs every corpus harness walks: each `.apl` file under apl-tests/, in a stable order,
//! except the parser snapshots in apl-tests/syntax/ (which have their own harness and are not whole programs).

use std::path::{Path, PathBuf};

pub fn corpus_apl_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(directory) = pending.pop() {
        for entry in std::fs::read_dir(&directory).expect("apl-tests is readable") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                if path.file_name().is_some_and(|name| name != "syntax") {
                    pending.push(path);
                }
            } else if path.extension().is_some_and(|extension| extension == "apl") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

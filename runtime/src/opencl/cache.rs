//! Built OpenCL programs cached on disk, so that a program's kernels are compiled once per device and not at every
//! run (`clBuildProgram` from source takes tens to hundreds of milliseconds; a build from the device's own binary
//! far less).
//!
//! An entry is two files named by a hash of its key: `<hash>.key`, the whole key (the device's identity, the build
//! options and the source), and `<hash>.bin`, the binary `clGetProgramInfo` gave after building that source. An entry
//! is used only when its key file equals the key byte for byte, so a hash collision or a changed driver can never
//! serve another program's binary; and a binary the device refuses is simply built again from source. Files are
//! written to a temporary name and renamed, so a reader never sees half an entry; a cache that cannot be written is
//! skipped silently (it only saves time).
//!
//! `APLC_OPENCL_CACHE` names the folder, or `off` for none; by default `$XDG_CACHE_HOME/aplc/opencl`, else
//! `$HOME/.cache/aplc/opencl`.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The cache's folder, or `None` when caching is off (or there is no home to put it in).
pub fn folder() -> Option<PathBuf> {
    match std::env::var_os("APLC_OPENCL_CACHE") {
        Some(value) if value == "off" => None,
        Some(value) if !value.is_empty() => Some(PathBuf::from(value)),
        _ => {
            let base = match std::env::var_os("XDG_CACHE_HOME") {
                Some(base) if !base.is_empty() => PathBuf::from(base),
                _ => PathBuf::from(std::env::var_os("HOME")?).join(".cache"),
            };
            Some(base.join("aplc").join("opencl"))
        }
    }
}

/// What identifies a build: the device (platform, name, driver version), the build options and the source.
pub fn key(device_identity: &str, options: &str, source: &[u8]) -> Vec<u8> {
    let mut key = Vec::with_capacity(device_identity.len() + options.len() + source.len() + 2);
    key.extend_from_slice(device_identity.as_bytes());
    key.push(0);
    key.extend_from_slice(options.as_bytes());
    key.push(0);
    key.extend_from_slice(source);
    key
}

/// The entry's file name without extension: the 64-bit FNV-1a hash of the key, in hex (a stable hash: the same key
/// names the same files in every process).
fn stem(key: &[u8]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in key {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// The cached binary of exactly this key, if there is one.
pub fn load(folder: &Path, key: &[u8]) -> Option<Vec<u8>> {
    let stem = stem(key);
    let stored_key = std::fs::read(folder.join(format!("{stem}.key"))).ok()?;
    if stored_key != key {
        return None;
    }
    std::fs::read(folder.join(format!("{stem}.bin")))
        .ok()
        .filter(|binary| !binary.is_empty())
}

/// Stores a binary for the key (the binary first: an entry whose key file exists has its binary).
pub fn store(folder: &Path, key: &[u8], binary: &[u8]) {
    let stem = stem(key);
    let _ = std::fs::create_dir_all(folder)
        .and_then(|()| write_by_rename(folder, &format!("{stem}.bin"), binary))
        .and_then(|()| write_by_rename(folder, &format!("{stem}.key"), key));
}

/// Writes `name` in `folder` through a temporary file of this process, renamed over it.
fn write_by_rename(folder: &Path, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    let temporary = folder.join(format!("{name}.{}.tmp", std::process::id()));
    let written = std::fs::File::create(&temporary).and_then(|mut file| file.write_all(bytes));
    let renamed = written.and_then(|()| std::fs::rename(&temporary, folder.join(name)));
    if renamed.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    renamed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_found_only_for_its_exact_key() {
        let folder = std::env::temp_dir().join(format!("aplc-opencl-cache-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        let first = key("PoCL cpu 6.0", "-cl-std=CL1.2", b"__kernel void k() {}");
        assert_eq!(load(&folder, &first), None);
        store(&folder, &first, b"binary one");
        assert_eq!(load(&folder, &first).as_deref(), Some(&b"binary one"[..]));
        // Another driver, other options or another source: no entry.
        for other in [
            key("PoCL cpu 6.1", "-cl-std=CL1.2", b"__kernel void k() {}"),
            key("PoCL cpu 6.0", "", b"__kernel void k() {}"),
            key("PoCL cpu 6.0", "-cl-std=CL1.2", b"__kernel void k() { }"),
        ] {
            assert_eq!(load(&folder, &other), None);
        }
        // A key file that does not match (as after a hash collision) hides the binary.
        std::fs::write(folder.join(format!("{}.key", stem(&first))), b"another key").unwrap();
        assert_eq!(load(&folder, &first), None);
        let _ = std::fs::remove_dir_all(&folder);
    }
}

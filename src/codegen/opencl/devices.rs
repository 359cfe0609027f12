//! `aplc devices`: the OpenCL devices of this machine, as the `opencl` backend and `--gpu` executables may choose
//! them (`APLC_DEVICE` is a case-insensitive substring of `<platform> <device>`; without it the first GPU, else the
//! first device). The compiler asks through the `opencl3` crate; the run-time library, which executables link and
//! which must build without dependencies, loads libOpenCL itself (`runtime/src/opencl.rs`).

use opencl3::device::{Device, CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_GPU};
use opencl3::platform::get_platforms;

/// One OpenCL device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceDescription {
    pub platform: String,
    pub name: String,
    pub is_gpu: bool,
    pub compute_units: u32,
    pub memory_bytes: u64,
    /// Whether it has double precision (`cl_khr_fp64`), which programs with doubles need.
    pub doubles: bool,
}

/// Every device of every platform, in the order the run-time library sees them; `Err` says why there are none
/// (no platform at all is OpenCL's error -1001).
pub fn list_devices() -> Result<Vec<DeviceDescription>, String> {
    let platforms = get_platforms().map_err(|error| format!("no OpenCL platform ({error})"))?;
    let mut devices = Vec::new();
    for platform in platforms {
        let platform_name = platform.name().unwrap_or_default();
        let Ok(ids) = platform.get_devices(CL_DEVICE_TYPE_ALL) else {
            continue;
        };
        for id in ids {
            let device = Device::new(id);
            devices.push(DeviceDescription {
                platform: platform_name.clone(),
                name: device.name().unwrap_or_default(),
                is_gpu: device.dev_type().is_ok_and(|kind| kind & CL_DEVICE_TYPE_GPU != 0),
                compute_units: device.max_compute_units().unwrap_or(0),
                memory_bytes: device.global_mem_size().unwrap_or(0),
                doubles: device
                    .extensions()
                    .is_ok_and(|extensions| extensions.split_whitespace().any(|name| name == "cl_khr_fp64")),
            });
        }
    }
    Ok(devices)
}

/// The listing `aplc devices` prints: one line per device.
pub fn describe_devices(devices: &[DeviceDescription]) -> String {
    if devices.is_empty() {
        return "no OpenCL device".to_string();
    }
    devices
        .iter()
        .map(|device| {
            format!(
                "{} {}: {}, {} compute units, {:.1} GiB{}",
                device.platform,
                device.name,
                if device.is_gpu { "GPU" } else { "not a GPU" },
                device.compute_units,
                device.memory_bytes as f64 / (1u64 << 30) as f64,
                if device.doubles {
                    ""
                } else {
                    ", no doubles (cl_khr_fp64)"
                }
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

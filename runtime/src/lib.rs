//! The run-time library of aplc programs, shared by every way a program runs: the TAIL and memory-IR interpreters
//! call it as a Rust library, JIT-compiled code calls its C entry points in-process, and AOT executables link it as a
//! static library, so that they need no LLVM. It knows nothing of the compiler.

pub mod abi;
pub mod arguments;
pub mod display;
pub mod json;
pub mod number_format;
pub mod opencl;
pub mod parallel;
pub mod retained_blocks;
pub mod stack;
pub mod text_input;
pub mod thread_checker;
pub mod tuning;

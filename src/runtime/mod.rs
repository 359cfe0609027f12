//! What programs need at run time, whichever way they run (TAIL interpreter, memory-IR interpreter, JIT, AOT):
//! APL errors and the display of arrays. Knows nothing of the compiler's IRs.

pub mod display;
pub mod error;
pub mod number_format;

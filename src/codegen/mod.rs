//! Code generation: from the lowest IR (the memory IR) to machine code. `llvm` is the native backend (JIT and AOT);
//! it is the only module of the compiler that imports inkwell. Code generation never looks at the front end (syntax,
//! elaboration, TAIL); what it needs to know arrives in the memory IR.

pub mod llvm;
pub mod opencl;

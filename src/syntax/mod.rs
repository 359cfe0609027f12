//! The syntax layer: APL text to an AST with spans, or source-pointing syntax errors. Knows nothing of TAIL.

pub mod ast;

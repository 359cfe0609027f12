//! The checker: verifies a program in which every `let` and every lambda carries its type (as the printer writes
//! inferred programs, and as every optimiser pass must keep them). It runs inference in checking mode: annotations
//! are taken as given, each bound value must be a subtype of its annotation, and nothing is filled in.

use super::ast::{Program, Type};
use super::error::TypeError;

/// The type of a fully annotated program, or the first type error (a missing annotation is an error too).
pub fn check_program(program: &Program) -> Result<Type, TypeError> {
    super::infer::type_of_annotated(program)
}

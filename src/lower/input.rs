//! The inputs of a REPL line: `inputI(k, n)` (and `inputD`, `inputB`, `inputC`) is the ravel of the k-th array the
//! caller passes in, n elements long. Such an array lives in a block that the program neither allocates nor frees:
//! the entry function of the line (`crate::codegen::llvm::translate::line`) binds it to the k-th input pointer.
//! The lowering records which block holds which input in [`LineProgram::inputs`].

use super::lower::{collect_result_blocks, insert_frees, Env, LowerResult, Lowered, Lowerer};
use super::pull::{Arr, Materialised};
use crate::loops::ir::{self, Expr, InputBlock, Layout, LineProgram, ScalarType};
use crate::loops::LowerError;
use crate::tail::ast::{self as tail, Op};
use std::collections::HashSet;

/// Lowers a typed TAIL program that may read inputs (and return several values in a tuple, the line's outputs).
/// Blocks holding the result are not freed: the caller reads them after the program ran.
pub fn lower_line_program(program: &tail::Program) -> LowerResult<LineProgram> {
    let mut lowerer = Lowerer::default();
    let functions = lowerer.lower_functions(program)?;
    let (mut body, result) = lowerer.capture(|lowerer| {
        let value = lowerer.lower(&program.body, &Env::default())?;
        lowerer.result_value(value)
    })?;
    let mut keep = HashSet::new();
    collect_result_blocks(&result, &mut keep);
    insert_frees(&mut body, &keep);
    let inputs = lowerer
        .input_blocks
        .iter()
        .map(|&(index, block)| InputBlock { index, block })
        .collect();
    // The memory passes are not run on a line (they could reuse an input's block, which the session owns); the
    // recognition of parallel maps only changes how loops run.
    let program = crate::loops::passes::parallelise::parallelise_maps(ir::Program {
        functions,
        body,
        result,
    });
    Ok(LineProgram { program, inputs })
}

impl Lowerer {
    /// `inputX(k, n)`: a materialised vector in the block bound to input k (the same block for every use of k).
    pub(super) fn input(&mut self, op: Op, index: Expr, length: Expr) -> LowerResult<Lowered> {
        let element = match op {
            Op::InputI => ScalarType::Int,
            Op::InputD => ScalarType::Double,
            Op::InputB => ScalarType::Bool,
            _ => ScalarType::Char,
        };
        let Some(index) = index.as_int().and_then(|index| usize::try_from(index).ok()) else {
            return Err(LowerError::unsupported("an input number unknown at compile time"));
        };
        let block = match self.input_blocks.iter().find(|(known, _)| *known == index) {
            Some((_, block)) if block.element == element => *block,
            Some(_) => {
                return Err(LowerError::ill_typed(format!(
                    "input {index} read with two element types"
                )))
            }
            None => {
                let block = self.fresh_block(element);
                self.input_blocks.push((index, block));
                block
            }
        };
        let shape = vec![length];
        Ok(Lowered::Array(Arr::Mat(Materialised {
            block,
            layout: Layout::row_major(&shape),
            shape,
        })))
    }
}

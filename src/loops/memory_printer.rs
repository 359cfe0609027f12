//! `aplc dump --stage mem`: the loop program after the memory passes, with a table of its memory in front. The table
//! is comment lines (`#`, which the loop-IR parser skips), so the whole dump reads back with
//! [`super::parser::parse_program`] and prints again the same:
//!
//! ```text
//! # memory: allocs 2, allocs-in-loops 0, loops 3, copies 0, frees 2
//! # mem2 : bool[36] allocated outside loops
//! #   g3 = [6][6]@mem2 -> 0+{(6:6),(6:1)}
//! # mem5 : int[n4] allocated outside loops
//! let n4 : int = 36
//! ...
//! ```
//!
//! One line per block, in allocation order: its element type and size, and whether it is allocated inside a loop;
//! under it, every named array that lives in it (the program's `view`s) with its LMAD.

use super::ir::{Block, Program, Stmt};
use super::printer::{print_expr, print_program};
use super::structure::structure_counts;

/// The dump text.
pub fn print_memory_program(program: &Program) -> String {
    let mut out = format!("# memory: {}\n", structure_counts(program).summary());
    let mut blocks = Vec::new();
    collect_blocks(&program.body, 0, &mut blocks);
    for entry in &blocks {
        let place = if entry.loop_depth > 0 {
            "inside a loop"
        } else {
            "outside loops"
        };
        out.push_str(&format!(
            "# {} : {}[{}] allocated {place}\n",
            entry.block.name(),
            entry.block.storage_name(),
            entry.size
        ));
        for view in &entry.views {
            out.push_str(&format!("#   {view}\n"));
        }
    }
    out.push_str(&print_program(program));
    out
}

struct BlockEntry {
    block: Block,
    /// The size as printed (`?` for a block the runtime allocates, such as `⍕`'s result, or a function returns).
    size: String,
    loop_depth: usize,
    /// `name = [n][m]@memK -> 0+{...}` for every view of the block.
    views: Vec<String>,
}

fn collect_blocks(statements: &[Stmt], loop_depth: usize, blocks: &mut Vec<BlockEntry>) {
    for statement in statements {
        match statement {
            Stmt::Alloc { block, size, .. } => blocks.push(entry(*block, print_expr(size), loop_depth)),
            Stmt::Format { result, .. }
            | Stmt::ReadFile { result, .. }
            | Stmt::Call {
                result: crate::loops::ir::Slot::Array { block: result, .. },
                ..
            } => blocks.push(entry(*result, "?".to_string(), loop_depth)),
            Stmt::View {
                name,
                block,
                shape,
                layout,
            } => {
                let annotation = super::memory::annotation(&block.name(), shape, layout);
                if let Some(owner) = blocks.iter_mut().rev().find(|entry| entry.block.id == block.id) {
                    owner.views.push(format!("{name} = {annotation}"));
                }
            }
            Stmt::For { body, .. }
            | Stmt::While { body, .. }
            | Stmt::ParallelFor { body, .. }
            | Stmt::ParallelReduce { body, .. } => collect_blocks(body, loop_depth + 1, blocks),
            Stmt::If { then, otherwise, .. } => {
                collect_blocks(then, loop_depth, blocks);
                collect_blocks(otherwise, loop_depth, blocks);
            }
            _ => {}
        }
    }
}

fn entry(block: Block, size: String, loop_depth: usize) -> BlockEntry {
    BlockEntry {
        block,
        size,
        loop_depth,
        views: Vec::new(),
    }
}

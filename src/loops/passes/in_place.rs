//! In-place updates (FUNMEM's reuse of a dying block, ../shared/design/funmem-and-tuning.md): lowering implements a
//! functional update such as `g[i;j]←1` by copying the whole array into a fresh block and storing into the copy:
//!
//! ```text
//! alloc mem4 : bool[36]
//! for i5 < 36 {
//!   store mem4[i5] = mem2[i5]
//! }
//! free mem2
//! store mem4[8] = tt
//! ```
//!
//! When the source block dies at the copy (nothing mentions it between the copy and its `free`), the copy is the only
//! reader of the old value, so the new array may take over the old block: the `alloc`, the copy loop and the `free`
//! go, and the later statements use `mem2` where they used `mem4`.
//!
//! Why this is sound: blocks are the only way the loop IR reaches memory, and two distinct blocks never share
//! elements (each is a fresh allocation; views and LMADs only re-address one block, and a `view` of the source
//! mentions it). `swap` is the one statement that makes a block name denote another buffer, and it mentions both
//! blocks. So "no statement mentions the source between the copy and its free" proves that no alias of the old
//! value is read after the copy, and the copy (same element type, identity index, as many elements as the new block
//! holds) leaves the new block equal to the old one on every element a correct program reads.

use crate::loops::ir::{Block, Expr, Program, ResultValue, Stmt};
use crate::loops::rewrite::mentions_block;
use crate::loops::rewrite::{nested_lists_mut, rename_block, rename_block_in_result};

/// The pass: every copy whose source dies at it becomes a reuse of the source block.
pub fn reuse_dying_blocks(mut program: Program) -> Program {
    reuse_in_list(&mut program.body, &mut program.result);
    program
}

fn reuse_in_list(statements: &mut Vec<Stmt>, result: &mut ResultValue) {
    for statement in statements.iter_mut() {
        for list in nested_lists_mut(statement) {
            reuse_in_list(list, result);
        }
    }
    let mut position = 0;
    while position < statements.len() {
        match dying_copy_at(statements, position) {
            Some(DyingCopy { source, target, free }) => {
                // Remove from the back so that the earlier positions stay valid.
                statements.remove(free);
                statements.remove(position + 1);
                statements.remove(position);
                rename_block(&mut statements[position..], target, source);
                rename_block_in_result(result, target, source);
            }
            None => position += 1,
        }
    }
}

/// A copy of `source` into a fresh `target` whose source dies at it; `free` is the position of `free source`.
struct DyingCopy {
    source: Block,
    target: Block,
    free: usize,
}

/// Whether `statements[position]` starts `alloc target : t[n]; for i < n { store target[i] = source[i] }` and the
/// statements after the copy do not mention `source` before its `free`.
fn dying_copy_at(statements: &[Stmt], position: usize) -> Option<DyingCopy> {
    let Stmt::Alloc {
        block: target, size, ..
    } = statements.get(position)?
    else {
        return None;
    };
    let source = whole_copy_source(statements.get(position + 1)?, *target, size)?;
    let free = (position + 2..statements.len())
        .find(|&later| mentions_block(&statements[later], source.id))
        .filter(|&later| statements[later] == Stmt::Free { block: source })?;
    Some(DyingCopy {
        source,
        target: *target,
        free,
    })
}

/// The source of `for i < size { store target[i] = source[i] }`, a copy of a whole block of the same element type.
fn whole_copy_source(statement: &Stmt, target: Block, size: &Expr) -> Option<Block> {
    let Stmt::For { index, count, body } = statement else {
        return None;
    };
    let [Stmt::Store {
        block,
        index: Expr::Var(stored_at),
        value: Expr::Load {
            block: source,
            index: loaded_at,
        },
    }] = body.as_slice()
    else {
        return None;
    };
    let identity = stored_at == index && matches!(&**loaded_at, Expr::Var(loaded) if loaded == index);
    (count == size && *block == target && *source != target && source.element == target.element && identity)
        .then_some(*source)
}

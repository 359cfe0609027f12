//! Recomputing cheap blocks instead of storing them. Lowering materialises an array that is used twice (the use-count
//! rule), even when each element is a small formula of its index, as `0,⍵` is in the signal benchmark's
//! `diff←{1↓⍵-¯1⌽⍵}`:
//!
//! ```text
//! alloc mem1 : int[101]
//! for i2 < 101 {
//!   store mem1[i2] = ((i2 < 1) ? 0 : ((i2 - 1) + 1))
//! }
//! ... mem1[(j10 + 1)] ... mem1[(((j10 + 1) + -1) % 101)] ...
//! free mem1
//! ```
//!
//! When the block is filled by one loop `for i < n { store b[i] = f(i) }` (`let`s before the store are substituted
//! into `f`), or, for a one-element block, by one `store b[0] = f`, and is otherwise only read, every load `b[e]`
//! can be replaced by `f(e)`: the block, its fill loop, its views and its free go. This is the fusion of pull arrays
//! done after the fact, for the arrays whose recomputation is cheaper than a memory round trip.
//!
//! Conditions: `f` cannot fail and reads no memory ([`is_safe_pure`]), so evaluating it at the loads instead of in
//! the fill loop can neither lose nor add an APL error; it reads no mutable variable (an immutable `let` defined
//! before the fill has the same value at every load, and the loads come after the fill, in its scope); it is cheap
//! (at most [`FORMULA_SIZE_LIMIT`] nodes, no division, which costs more than the load it replaces) and the block has
//! at most [`LOAD_LIMIT`] loads, so the code grows by a bounded amount; and no other statement stores into, prints,
//! formats, swaps or returns the block. A correct program loads only elements `0 ≤ e < n`, where `f(e)` is exactly
//! what the fill stored.

use crate::loops::ir::{for_each_statement, Block, Expr, Program, Stmt};
use crate::loops::rewrite::{
    is_safe_pure, nested_lists_mut, result_mentions_block, rewrite_exprs, size_of, substitute_variable, variables_of,
};
use crate::tail::ast::Op;
use std::collections::HashSet;

/// The largest formula (in expression nodes) recomputed at each load.
pub const FORMULA_SIZE_LIMIT: usize = 16;
/// The most loads of one block that are replaced by its formula.
pub const LOAD_LIMIT: usize = 8;

/// The pass.
pub fn recompute_cheap_blocks(mut program: Program) -> Program {
    let mutable = mutable_variables(&program.body);
    while let Some(cheap) = find_cheap_block(&program, &mutable) {
        remove_block(&mut program.body, &cheap);
    }
    program
}

/// A block to replace: its id, the fill's loop index (`None` for a one-element store) and the formula.
struct CheapBlock {
    block: Block,
    index: Option<u32>,
    formula: Expr,
}

impl CheapBlock {
    /// The value the block holds at `position`.
    fn value_at(&self, position: &Expr) -> Expr {
        match self.index {
            Some(index) => substitute_variable(&self.formula, index, position),
            None => self.formula.clone(),
        }
    }
}

fn mutable_variables(body: &[Stmt]) -> HashSet<u32> {
    let mut mutable = HashSet::new();
    for_each_statement(body, &mut |statement| {
        if let Stmt::Mutable { var, .. } = statement {
            mutable.insert(var.id);
        }
    });
    mutable
}

fn find_cheap_block(program: &Program, mutable: &HashSet<u32>) -> Option<CheapBlock> {
    let mut candidates = Vec::new();
    collect_filled_blocks(&program.body, mutable, &mut candidates);
    candidates.into_iter().find(|candidate| {
        !result_mentions_block(&program.result, candidate.block.id) && only_read_after_fill(&program.body, candidate)
    })
}

/// The blocks allocated and then filled by the next statement with a cheap, safe formula.
fn collect_filled_blocks(statements: &[Stmt], mutable: &HashSet<u32>, into: &mut Vec<CheapBlock>) {
    for (position, statement) in statements.iter().enumerate() {
        match statement {
            Stmt::Alloc { block, size, .. } => {
                if let Some(cheap) = statements
                    .get(position + 1)
                    .and_then(|fill| filled_by(fill, *block, size))
                {
                    let mut used = HashSet::new();
                    variables_of(&cheap.formula, &mut used);
                    let cheap_enough = size_of(&cheap.formula) <= FORMULA_SIZE_LIMIT && !has_division(&cheap.formula);
                    if cheap_enough && is_safe_pure(&cheap.formula) && used.is_disjoint(mutable) {
                        into.push(cheap);
                    }
                }
            }
            Stmt::For { body, .. }
            | Stmt::While { body, .. }
            | Stmt::ParallelFor { body, .. }
            | Stmt::ParallelReduce { body, .. } => collect_filled_blocks(body, mutable, into),
            Stmt::If { then, otherwise, .. } => {
                collect_filled_blocks(then, mutable, into);
                collect_filled_blocks(otherwise, mutable, into);
            }
            _ => {}
        }
    }
}

/// Whether the formula divides (`divi`, `resi`): a division costs more than the load it would replace.
fn has_division(expr: &Expr) -> bool {
    match expr {
        Expr::Prim(op, args) => matches!(op, Op::DivI | Op::ResI) || args.iter().any(has_division),
        Expr::Select(c, a, b) => has_division(c) || has_division(a) || has_division(b),
        Expr::Load { index, .. } => has_division(index),
        Expr::At(_, inner) => has_division(inner),
        _ => false,
    }
}

/// `for i < size { store block[i] = f(i) }`, or `store block[0] = f` for a block of size 1.
fn filled_by(fill: &Stmt, block: Block, size: &Expr) -> Option<CheapBlock> {
    match fill {
        Stmt::For { index, count, body } if count == size => match body.split_last()? {
            (
                Stmt::Store {
                    block: stored,
                    index: Expr::Var(at),
                    value,
                },
                lets,
            ) if *stored == block && at == index => Some(CheapBlock {
                block,
                index: Some(index.id),
                formula: inline_lets(value, lets)?,
            }),
            _ => None,
        },
        Stmt::Store {
            block: stored,
            index: Expr::Int(0),
            value,
        } if *stored == block && *size == Expr::Int(1) => Some(CheapBlock {
            block,
            index: None,
            formula: value.clone(),
        }),
        _ => None,
    }
}

/// The value with the body's `let`s substituted (latest first, so that a `let` may use earlier ones); `None` when the
/// body has another statement or a `let` that is not safe (its value would be evaluated at every load instead).
fn inline_lets(value: &Expr, lets: &[Stmt]) -> Option<Expr> {
    lets.iter()
        .rev()
        .try_fold(value.clone(), |formula, statement| match statement {
            Stmt::Let { var, value } if is_safe_pure(value) => Some(substitute_variable(&formula, var.id, value)),
            _ => None,
        })
}

/// Whether the block's only uses besides its allocation, its fill and its `free` are loads (at most [`LOAD_LIMIT`])
/// and views.
fn only_read_after_fill(body: &[Stmt], cheap: &CheapBlock) -> bool {
    let id = cheap.block.id;
    let mut stores = 0;
    let mut other_uses = false;
    for_each_statement(body, &mut |statement| match statement {
        Stmt::Store { block, .. } => stores += usize::from(block.id == id),
        Stmt::Swap { first, second } => other_uses |= first.id == id || second.id == id,
        Stmt::PrintArray { array, .. } => other_uses |= array.block.id == id,
        Stmt::Format { source, .. } => other_uses |= source.block.id == id,
        Stmt::ReadFile { path, .. } => other_uses |= path.block.id == id,
        // A function reads an array argument's block itself.
        Stmt::Call { .. } => other_uses |= crate::loops::rewrite::mentions_block(statement, id),
        _ => {}
    });
    // The fill's formula reads no memory, so every load counted is one to replace.
    let mut loads = 0;
    rewrite_exprs(&mut body.to_vec(), &mut |expr| {
        if matches!(expr, Expr::Load { block, .. } if block.id == id) {
            loads += 1;
        }
    });
    stores == 1 && !other_uses && loads <= LOAD_LIMIT
}

/// Replaces every load of the block by its formula and removes the allocation, the fill, the views and the free.
fn remove_block(statements: &mut Vec<Stmt>, cheap: &CheapBlock) {
    let id = cheap.block.id;
    rewrite_exprs(statements, &mut |expr| {
        if let Expr::Load { block, index } = expr {
            if block.id == id {
                *expr = cheap.value_at(index);
            }
        }
    });
    remove_statements_of_block(statements, id);
}

fn remove_statements_of_block(statements: &mut Vec<Stmt>, id: u32) {
    let mut position = 0;
    while position < statements.len() {
        let removed = match &statements[position] {
            Stmt::Alloc { block, .. } if block.id == id => 2,
            Stmt::Free { block } | Stmt::View { block, .. } if block.id == id => 1,
            _ => 0,
        };
        if removed > 0 {
            statements.drain(position..position + removed);
            continue;
        }
        for list in nested_lists_mut(&mut statements[position]) {
            remove_statements_of_block(list, id);
        }
        position += 1;
    }
}

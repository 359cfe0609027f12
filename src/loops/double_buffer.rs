//! Double buffering for the loops that allocate their next state in every iteration. A `⍣` loop whose state's shape
//! is only known symbolically is lowered as
//!
//! ```text
//! alloc mem25 : double[524288]            (the state, before the loop)
//! for it115 < 100 {
//!   ...
//!   alloc mem82 : double[n81]             (the next state; n81 = 2*s28*s29, and s28, s29 never change)
//!   ...
//!   swap mem25, mem82
//!   free mem82                            (the old state's buffer)
//! }
//! ```
//!
//! When the new block always has the size the state was allocated with, the buffer freed at the end of an iteration
//! is exactly the one the next iteration would allocate: it may be kept, and the two blocks alternate between two
//! buffers allocated once ([`super::hoist`] then moves the `alloc` before the loop and the `free` after it).
//!
//! The sizes are compared as constants: [`ProgramFacts`] knows the values of the `let`s whose values are constant,
//! and of the mutable variables that are only ever assigned their own value (`let n79 = s28 ... s28 := n79`).

use super::ir::{for_each_statement, Block, Expr, Stmt};
use super::lower::mentions_block;
use crate::tail::ast::Op;
use std::collections::HashMap;

/// What the whole program tells about constant sizes and where each block is allocated.
#[derive(Default)]
pub struct ProgramFacts {
    constants: HashMap<u32, i64>,
    allocation_sizes: HashMap<u32, Expr>,
    swaps: HashMap<u32, usize>,
}

impl ProgramFacts {
    pub fn of(body: &[Stmt]) -> ProgramFacts {
        let mut facts = ProgramFacts::default();
        let copy_roots = copy_roots(body);
        let root = |id: u32| *copy_roots.get(&id).unwrap_or(&id);
        let mut assigned_other_values: HashMap<u32, bool> = HashMap::new();
        for_each_statement(body, &mut |statement| match statement {
            Stmt::Assign { var, value } => {
                let self_copy = matches!(value, Expr::Var(source) if root(source.id) == var.id);
                *assigned_other_values.entry(var.id).or_default() |= !self_copy;
            }
            Stmt::Alloc { block, size } => {
                facts.allocation_sizes.insert(block.id, size.clone());
            }
            Stmt::Swap { first, second } => {
                *facts.swaps.entry(first.id).or_default() += 1;
                *facts.swaps.entry(second.id).or_default() += 1;
            }
            _ => {}
        });
        for_each_statement(body, &mut |statement| match statement {
            Stmt::Let { var, value } => {
                if let Some(constant) = facts.constant(value) {
                    facts.constants.insert(var.id, constant);
                }
            }
            Stmt::Mutable { var, value } if !assigned_other_values.get(&var.id).copied().unwrap_or(false) => {
                if let Some(constant) = facts.constant(value) {
                    facts.constants.insert(var.id, constant);
                }
            }
            _ => {}
        });
        facts
    }

    /// The value of an int expression of constants, constant variables, `+`, `-` and `*`.
    fn constant(&self, expr: &Expr) -> Option<i64> {
        match expr {
            Expr::Int(n) => Some(*n),
            Expr::Var(var) => self.constants.get(&var.id).copied(),
            Expr::Prim(op, args) if args.len() == 2 => {
                let (a, b) = (self.constant(&args[0])?, self.constant(&args[1])?);
                match op {
                    Op::AddI => Some(a.wrapping_add(b)),
                    Op::SubI => Some(a.wrapping_sub(b)),
                    Op::MulI => Some(a.wrapping_mul(b)),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// For every `let x = y` (a copy of a variable), the variable it ultimately copies.
fn copy_roots(body: &[Stmt]) -> HashMap<u32, u32> {
    let mut roots: HashMap<u32, u32> = HashMap::new();
    for_each_statement(body, &mut |statement| {
        if let Stmt::Let {
            var,
            value: Expr::Var(source),
        } = statement
        {
            let root = *roots.get(&source.id).unwrap_or(&source.id);
            roots.insert(var.id, root);
        }
    });
    roots
}

/// Whether `block`, allocated with `size` and freed at the top level of a loop body, may keep its buffer from one
/// iteration to the next: the body swaps it exactly once, at its top level, with a block allocated outside the loop
/// that no other statement of the program swaps and whose allocated size is the same constant as `size`; and
/// after the swap nothing but its `free` mentions it (so the buffer it then holds, the old state, is dead).
pub fn keeps_buffer_across_iterations(body: &[Stmt], block: Block, size: &Expr, facts: &ProgramFacts) -> bool {
    let swap_position = body
        .iter()
        .position(|statement| matches!(statement, Stmt::Swap { first, second } if *first == block || *second == block));
    let Some(swap_position) = swap_position else {
        return false;
    };
    let Stmt::Swap { first, second } = &body[swap_position] else {
        return false;
    };
    let partner = if *first == block { *second } else { *first };
    let partner_allocated_in_loop = body.iter().any(|statement| {
        let mut found = false;
        for_each_statement(std::slice::from_ref(statement), &mut |s| {
            found |= matches!(s, Stmt::Alloc { block, .. } if *block == partner);
        });
        found
    });
    let swapped_once = facts.swaps.get(&block.id) == Some(&1) && facts.swaps.get(&partner.id) == Some(&1);
    let same_size = match (facts.allocation_sizes.get(&partner.id), facts.constant(size)) {
        (Some(partner_size), Some(size)) => facts.constant(partner_size) == Some(size),
        _ => false,
    };
    let dead_after_swap = body[swap_position + 1..]
        .iter()
        .find(|statement| mentions_block(statement, block.id))
        .is_some_and(|statement| *statement == Stmt::Free { block });
    !partner_allocated_in_loop && swapped_once && same_size && dead_after_swap
}

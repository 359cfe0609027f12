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
//! The sizes are compared as constants, or when they are not constant (read at run time) as polynomials over
//! immutable variables (`(2 × n) × n` and `(n85 × n86) × n87` with `n85 = 2`, `n86 = n87 = n`). [`ProgramFacts`]
//! knows the values of the `let`s whose values are constant,
//! and of the mutable variables that keep their initial value. Those are found as a greatest fixpoint: assume every
//! mutable variable keeps its initial value, evaluate the `let`s and every assignment under that assumption, drop the
//! variables whose initial value is not a constant or that are assigned another value, and repeat. What remains is
//! sound by induction over the run: while every remaining variable holds its initial value, every `let` computes the
//! constant it was evaluated to and every assignment stores the variable's own value again. This is how a `⍣` loop's
//! state shape is written (`let d6 = mini(1, s3); let n7 = (s3 - d6); let n13 = (1 + n7); ... s3 := n13`, which is
//! `s3` again when `s3` starts at 2).

use crate::loops::ir::{for_each_statement, Block, Expr, Stmt};
use crate::loops::rewrite::mentions_block;
use crate::mem::term::Term;
use crate::tail::ast::Op;
use std::collections::{HashMap, HashSet};

/// What the whole program tells about constant sizes and where each block is allocated.
#[derive(Default)]
pub struct ProgramFacts {
    constants: HashMap<u32, i64>,
    allocation_sizes: HashMap<u32, Expr>,
    swaps: HashMap<u32, usize>,
    /// The definitions of the program's `let`s, and its mutable variables: for comparing sizes that are not
    /// constants (read at run time) as polynomials over immutable values.
    definitions: HashMap<u32, Expr>,
    mutables: HashSet<u32>,
}

impl ProgramFacts {
    pub fn of(body: &[Stmt]) -> ProgramFacts {
        let mut facts = ProgramFacts::default();
        let mut assignments: Vec<(u32, Expr)> = Vec::new();
        let mut assumed: HashSet<u32> = HashSet::new();
        for_each_statement(body, &mut |statement| match statement {
            Stmt::Assign { var, value } => assignments.push((var.id, value.clone())),
            Stmt::Mutable { var, .. } => {
                assumed.insert(var.id);
                facts.mutables.insert(var.id);
            }
            Stmt::Let { var, value } => {
                facts.definitions.insert(var.id, value.clone());
            }
            Stmt::Alloc { block, size, .. } => {
                facts.allocation_sizes.insert(block.id, size.clone());
            }
            Stmt::Swap { first, second } => {
                *facts.swaps.entry(first.id).or_default() += 1;
                *facts.swaps.entry(second.id).or_default() += 1;
            }
            _ => {}
        });
        // The greatest set of mutable variables that keep their initial value: assume all do, and drop those whose
        // initial value is not a constant or that are assigned another value, until nothing changes.
        loop {
            facts.constants = constants_assuming(body, &assumed);
            // (The constants are the greatest fixpoint's; the definitions stay as collected above.)
            let before = assumed.len();
            assumed.retain(|id| facts.constants.contains_key(id));
            for (id, value) in &assignments {
                if assumed.contains(id) && facts.constant(value) != facts.constants.get(id).copied() {
                    assumed.remove(id);
                }
            }
            if assumed.len() == before {
                return facts;
            }
        }
    }

    /// The value of an int expression of constants, constant variables, `+`, `-`, `*`, `⌊` and `⌈`.
    fn constant(&self, expr: &Expr) -> Option<i64> {
        match expr {
            Expr::Int(n) => Some(*n),
            Expr::Var(var) => self.constants.get(&var.id).copied(),
            Expr::Prim(op, args) if args.len() == 2 => {
                let (a, b) = (self.constant(&args[0])?, self.constant(&args[1])?);
                match op {
                    Op::AddW => Some(a.wrapping_add(b)),
                    Op::SubW => Some(a.wrapping_sub(b)),
                    Op::MulW => Some(a.wrapping_mul(b)),
                    Op::MinI => Some(a.min(b)),
                    Op::MaxI => Some(a.max(b)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// An int expression as a polynomial ([`Term`], the LMAD algebra's) over immutable variables, let-bound ones
    /// expanded through their definitions a few levels deep; None when it reads a mutable variable, a load, or
    /// anything but `+ - ×`, or a coefficient overflows. Two sizes with equal terms are equal wherever both are
    /// evaluated: a variable defined outside a loop keeps its value in it, and one defined inside cannot occur in the
    /// size of a block allocated outside.
    fn term(&self, expr: &Expr, depth: usize) -> Option<Term> {
        if let Some(value) = self.constant(expr) {
            return Some(Term::constant(value));
        }
        match expr {
            Expr::Var(var) if self.mutables.contains(&var.id) => None,
            Expr::Var(var) => match self.definitions.get(&var.id) {
                Some(definition) if depth > 0 => self
                    .term(definition, depth - 1)
                    .or_else(|| Some(Term::variable(&var.name()))),
                _ => Some(Term::variable(&var.name())),
            },
            Expr::Prim(op @ (Op::AddW | Op::SubW | Op::MulW), args) if args.len() == 2 => {
                let (a, b) = (self.term(&args[0], depth)?, self.term(&args[1], depth)?);
                match op {
                    Op::AddW => a.checked_add(&b),
                    Op::SubW => a.checked_sub(&b),
                    _ => a.checked_mul(&b),
                }
            }
            _ => None,
        }
    }

    /// Whether two sizes are provably equal: the same constant, or the same polynomial over immutable variables.
    fn same_size(&self, first: &Expr, second: &Expr) -> bool {
        const EXPANSION_DEPTH: usize = 12;
        match (self.constant(first), self.constant(second)) {
            (Some(a), Some(b)) => a == b,
            _ => self
                .term(first, EXPANSION_DEPTH)
                .is_some_and(|a| self.term(second, EXPANSION_DEPTH) == Some(a)),
        }
    }

    /// Whether the variable has the same known value wherever it is in scope.
    pub fn is_constant(&self, id: u32) -> bool {
        self.constants.contains_key(&id)
    }
}

/// The constant `let`s and initial values of the `assumed` mutable variables, in program order.
fn constants_assuming(body: &[Stmt], assumed: &HashSet<u32>) -> HashMap<u32, i64> {
    let mut scratch = ProgramFacts::default();
    for_each_statement(body, &mut |statement| match statement {
        Stmt::Let { var, value } => {
            if let Some(constant) = scratch.constant(value) {
                scratch.constants.insert(var.id, constant);
            }
        }
        Stmt::Mutable { var, value } if assumed.contains(&var.id) => {
            if let Some(constant) = scratch.constant(value) {
                scratch.constants.insert(var.id, constant);
            }
        }
        _ => {}
    });
    scratch.constants
}

/// Whether `block`, allocated with `size` and freed at the top level of a loop body, may keep its buffer from one
/// iteration to the next: the body swaps it exactly once, at its top level, with a block allocated outside the loop
/// that no other statement of the program swaps and whose allocated size is provably `size` (the same constant, or
/// the same polynomial in sizes read at run time); and
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
    let same_size = facts
        .allocation_sizes
        .get(&partner.id)
        .is_some_and(|partner_size| facts.same_size(partner_size, size));
    let dead_after_swap = body[swap_position + 1..]
        .iter()
        .find(|statement| mentions_block(statement, block.id))
        .is_some_and(|statement| *statement == Stmt::Free { block });
    !partner_allocated_in_loop && swapped_once && same_size && dead_after_swap
}

//! Materialisation decisions for let-bound arrays that are used more than once (the use-count rule of `lower.rs`
//! materialises them otherwise). Two cases keep such an array a pull array:
//!
//! - **Cheap to recompute** ([`Lowerer::is_cheap_to_recompute`]). Reading one element is probed once on placeholder
//!   indices; the array is recomputed at every use when the read emits only `let`s (no loop, branch or check) and
//!   its weighted operation count is at most [`MAX_RECOMPUTED_COST`]: int and bool arithmetic, comparisons, selects,
//!   conversions and loads count 1, div/mod by a positive constant 3, double add/sub/mul 1; anything dearer (a
//!   division by a variable, double division, powers, transcendental functions, floor) makes it expensive. So index arithmetic over iota, catenations, takes, drops,
//!   rotations and `each` of cheap scalar functions (`0,⍳N` in signal) is never written to memory, while anything
//!   costing more than a few instructions per element is still computed once.
//! - **Read at one index by one consumer** ([`used_element_wise_once`]). When every use of the array (directly, or
//!   through other let-bound arrays computed element-wise from it) is an array argument of `each`/`zipWith` and all
//!   those element-wise terms end in a single consumer, every element is read only at the same index inside the
//!   same loop. The array then stays a pull array whose reads are memoised ([`memoised`]): the first read at an index
//!   binds the element to a variable and later reads at the same index (in a statement list that is still open)
//!   reuse it. Chains of element-wise arrays each used several times (easter, blackscholes) become one loop with
//!   let-bound scalars instead of one loop and one block per array.

use super::lower::{LowerResult, Lowerer};
use super::pull::{Index, Pull};
use crate::loops::ir::{Expr, ScalarType, Stmt};
use crate::tail::ast::{self as tail, ExprKind, Op};
use std::cell::RefCell;
use std::rc::Rc;

/// The most weighted operations per element for which a shared pull array is recomputed at each use instead of
/// being materialised (a handful of instructions: cheaper than a store, a load and the page faults of a block).
pub const MAX_RECOMPUTED_COST: usize = 8;

/// Above [`MAX_RECOMPUTED_COST`]: the weight of operations that are never worth recomputing.
const EXPENSIVE: usize = MAX_RECOMPUTED_COST + 1;

impl Lowerer {
    /// Whether a pull array is cheap enough to recompute at every use (see the module documentation). The probe
    /// emits nothing and leaves no trace (variable ids, mutable variables), so the printed IR is unchanged.
    pub fn is_cheap_to_recompute(&mut self, pull: &Pull) -> bool {
        if pull.cheap {
            return true;
        }
        let saved = self.probe_state();
        let probe = self.capture(|lowerer| {
            let rank = pull.shape.len();
            let index: Vec<Expr> = (0..rank)
                .map(|_| Expr::Var(lowerer.fresh_var(ScalarType::Int, "probe")))
                .collect();
            match &pull.index {
                Index::Flat(f) => {
                    let position = index.first().cloned().unwrap_or(Expr::Int(0));
                    f(lowerer, position)
                }
                Index::Shaped(f) => f(lowerer, &index),
            }
        });
        self.restore_probe_state(saved);
        let Ok((statements, value)) = probe else {
            return false;
        };
        let mut cost = expression_cost(&value);
        for statement in &statements {
            match statement {
                Stmt::Let { value, .. } => cost += expression_cost(value),
                _ => return false,
            }
        }
        cost <= MAX_RECOMPUTED_COST
    }
}

/// Whether an expression costs at most one weighted operation, so that substituting it for a variable used several
/// times (a `choose` turned into a select) duplicates next to nothing.
pub fn is_cheap_to_duplicate(expr: &Expr) -> bool {
    expression_cost(expr) <= 1
}

/// The weighted operation count of a scalar expression (saturating at [`EXPENSIVE`]).
fn expression_cost(expr: &Expr) -> usize {
    let cost = match expr {
        Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) | Expr::Var(_) => 0,
        Expr::Prim(op, args) => operation_cost(*op, args) + args.iter().map(expression_cost).sum::<usize>(),
        Expr::Load { index, .. } => 1 + expression_cost(index),
        Expr::Select(condition, then, otherwise) => {
            1 + expression_cost(condition) + expression_cost(then) + expression_cost(otherwise)
        }
        Expr::At(_, inner) => expression_cost(inner),
        Expr::Threshold { value, .. } => 1 + expression_cost(value),
    };
    cost.min(EXPENSIVE)
}

/// A division by a constant is a multiply and shifts; by a variable, a hardware division (tens of cycles).
fn operation_cost(op: Op, args: &[Expr]) -> usize {
    match op {
        Op::DivI if args[1].as_int().is_some_and(|d| d > 0) => 3,
        Op::ResI if args[0].as_int().is_some_and(|d| d > 0) => 3,
        Op::AddI
        | Op::SubI
        | Op::MulI
        | Op::AddW
        | Op::SubW
        | Op::MulW
        | Op::NegW
        | Op::MinI
        | Op::MaxI
        | Op::NegI
        | Op::AbsI
        | Op::AndI
        | Op::OrI
        | Op::XorI
        | Op::PopCount
        | Op::LtI
        | Op::LteI
        | Op::GtI
        | Op::GteI
        | Op::EqI
        | Op::NeqI
        | Op::AndB
        | Op::OrB
        | Op::XorB
        | Op::NandB
        | Op::NorB
        | Op::EqB
        | Op::NotB
        | Op::I2D
        | Op::B2I
        | Op::AddD
        | Op::SubD
        | Op::MulD
        | Op::NegD
        | Op::AbsD => 1,
        _ => EXPENSIVE,
    }
}

// ---- Memoised reads ----

/// Elements already computed, with the index they were read at and the statement list they are bound in.
#[derive(Default)]
struct Memo {
    entries: Vec<MemoEntry>,
}

struct MemoEntry {
    flat: bool,
    index: Vec<Expr>,
    scope: u64,
    value: Expr,
}

impl Memo {
    fn lookup(&self, lowerer: &Lowerer, flat: bool, index: &[Expr]) -> Option<Expr> {
        self.entries
            .iter()
            .rev()
            .find(|entry| entry.flat == flat && entry.index == index && lowerer.scope_is_open(entry.scope))
            .map(|entry| entry.value.clone())
    }
}

/// The pull array with memoised reads: a read at an index already read in a statement list that is still open
/// reuses the variable the first read bound. Only indices made of constants and immutable variables are remembered
/// (a mutable counter or a load may have another value at the next read).
pub fn memoised(pull: Pull) -> Pull {
    let memo = Rc::new(RefCell::new(Memo::default()));
    let index = match pull.index {
        Index::Flat(f) => Index::Flat(Rc::new(move |lowerer: &mut Lowerer, position: Expr| {
            read_memoised(lowerer, &memo, true, std::slice::from_ref(&position), &mut |lowerer| {
                f(lowerer, position.clone())
            })
        })),
        Index::Shaped(f) => Index::Shaped(Rc::new(move |lowerer: &mut Lowerer, index: &[Expr]| {
            read_memoised(lowerer, &memo, false, index, &mut |lowerer| f(lowerer, index))
        })),
    };
    Pull { index, ..pull }
}

fn read_memoised(
    lowerer: &mut Lowerer,
    memo: &RefCell<Memo>,
    flat: bool,
    index: &[Expr],
    compute: &mut dyn FnMut(&mut Lowerer) -> LowerResult<Expr>,
) -> LowerResult<Expr> {
    if let Some(value) = memo.borrow().lookup(lowerer, flat, index) {
        return Ok(value);
    }
    let value = compute(lowerer)?;
    let value = lowerer.bind(value, "m");
    if index.iter().all(|i| lowerer.is_stable(i)) {
        let scope = lowerer.current_scope();
        memo.borrow_mut().entries.push(MemoEntry {
            flat,
            index: index.to_vec(),
            scope,
            value: value.clone(),
        });
    }
    Ok(value)
}

// ---- Which shared arrays are read at one index by one consumer ----

/// How an expression uses the tracked arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Use {
    /// Not at all.
    Absent,
    /// The expression is an array whose element at an index reads the tracked arrays only at that index.
    ElementWise,
    /// In some other way (under a lambda, or in a consumer whose element-wise arguments are counted as sites).
    Consumed,
    /// In a way that rules out fusion.
    Poisoned,
}

/// Whether every use of the array `name` in `body` is an element-wise one ending in a single consumer (see the
/// module documentation): then each element is read once per element of that consumer's argument, at one index.
pub fn used_element_wise_once(name: &str, body: &tail::Expr) -> bool {
    let mut analysis = SiteCount {
        tracked: vec![name.to_string()],
        sites: 0,
        poisoned: false,
    };
    if analysis.walk(body) == Use::ElementWise {
        analysis.sites += 1;
    }
    !analysis.poisoned && analysis.sites == 1
}

struct SiteCount {
    /// The array and the let-bound arrays computed element-wise from it (innermost last).
    tracked: Vec<String>,
    /// Maximal element-wise terms over the tracked arrays that a non-element-wise operation consumes.
    sites: usize,
    poisoned: bool,
}

impl SiteCount {
    fn mentions(&self, expr: &tail::Expr) -> bool {
        self.tracked.iter().any(|name| mentions_name(name, expr))
    }

    fn walk(&mut self, expr: &tail::Expr) -> Use {
        if self.poisoned || !self.mentions(expr) {
            return Use::Absent;
        }
        match &expr.kind {
            ExprKind::Var(_) => Use::ElementWise,
            ExprKind::Op {
                op: Op::Each | Op::EachV | Op::ZipWith,
                args,
            } => {
                if self.mentions(&args[0]) {
                    return self.poison();
                }
                let mut result = Use::Absent;
                for arg in &args[1..] {
                    match self.walk(arg) {
                        Use::ElementWise => result = Use::ElementWise,
                        Use::Absent | Use::Consumed => {}
                        Use::Poisoned => return self.poison(),
                    }
                }
                // An argument that consumes a tracked array elsewhere is already counted; this term is element-wise
                // only through its other arguments.
                result
            }
            ExprKind::Let { name, value, body, .. } => self.walk_let(name, value, body),
            ExprKind::Lambda { .. } => self.poison(),
            // The components of a tuple are the next state of a loop, which fills those of one shape in one loop
            // (`loop_state.rs`): together they are one consumer.
            ExprKind::Tuple(components) => {
                let mut element_wise = false;
                for component in components {
                    match self.walk(component) {
                        Use::ElementWise => element_wise = true,
                        Use::Poisoned => return self.poison(),
                        Use::Absent | Use::Consumed => {}
                    }
                }
                self.sites += usize::from(element_wise);
                Use::Consumed
            }
            _ => {
                for child in children(expr) {
                    match self.walk(child) {
                        Use::ElementWise => self.sites += 1,
                        Use::Poisoned => return self.poison(),
                        Use::Absent | Use::Consumed => {}
                    }
                }
                Use::Consumed
            }
        }
    }

    fn walk_let(&mut self, name: &str, value: &tail::Expr, body: &tail::Expr) -> Use {
        let value_use = self.walk(value);
        if value_use == Use::Poisoned {
            return self.poison();
        }
        // A let-bound element-wise array becomes an alias of the tracked ones; a rebinding of a tracked name hides
        // it in the body.
        let saved = self.tracked.clone();
        self.tracked.retain(|tracked| tracked != name);
        if value_use == Use::ElementWise {
            self.tracked.push(name.to_string());
        }
        let body_use = self.walk(body);
        self.tracked = saved;
        match body_use {
            Use::Poisoned => self.poison(),
            Use::ElementWise => Use::ElementWise,
            _ if value_use == Use::Consumed => Use::Consumed,
            other => other,
        }
    }

    fn poison(&mut self) -> Use {
        self.poisoned = true;
        Use::Poisoned
    }
}

fn children(expr: &tail::Expr) -> Vec<&tail::Expr> {
    match &expr.kind {
        ExprKind::Vector { elements, .. } => elements.iter().collect(),
        ExprKind::Op { args, .. } | ExprKind::Call { args, .. } => args.iter().collect(),
        ExprKind::Tuple(components) => components.iter().collect(),
        ExprKind::Project { tuple, .. } => vec![tuple],
        ExprKind::Let { value, body, .. } => vec![value, body],
        ExprKind::Lambda { body, .. } => vec![body],
        _ => vec![],
    }
}

/// Whether `name` occurs free in `expr`.
fn mentions_name(name: &str, expr: &tail::Expr) -> bool {
    match &expr.kind {
        ExprKind::Var(other) => other == name,
        ExprKind::Let {
            name: bound,
            value,
            body,
            ..
        } => mentions_name(name, value) || (bound != name && mentions_name(name, body)),
        ExprKind::Lambda { parameter, body, .. } => parameter != name && mentions_name(name, body),
        _ => children(expr).into_iter().any(|child| mentions_name(name, child)),
    }
}

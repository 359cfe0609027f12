//! Loop interchange of a row of reductions: `for i { acc = e; for k { acc := f(x(i,k), acc) }; out[p] = acc; p += 1 }`
//! becomes `for i { out[b+i] = e }; for k { for i { out[b+i] := f(x(i,k), out[b+i]) } }` when that makes the
//! innermost loop read memory contiguously.
//!
//! An inner product `A f.g B` lowers to one reduction per element of the result, and the reduction reads `B` down a
//! column: a stride of a whole row in the innermost loop, which defeats the cache and the vectoriser (matmul's
//! `+.×`, and the bit-matrix products `≠.∧` of the Sobol benchmarks). With the loops exchanged — the i-k-j order of
//! hand-written matrix products — the innermost loop walks a row of `B` and of the result, and the element of `A` is
//! invariant in it. Every element is still the same fold in the same order (`k` runs as before), so the results are
//! bit for bit the same, rounding included; only elements of different rows are interleaved.
//!
//! The rewrite applies only when the reduction body is pure: `let`s of operations that cannot fail except by a
//! double result that is not a finite real number (a DOMAIN ERROR whichever element fails first — the order in which
//! elements are tried changes, as with the deferred checks of code generation), then the accumulating assignment.
//! It is chosen by counting loads whose stride along the innermost loop is neither 0 nor ±1, before and after.
//!
//! A fold the interchange leaves in its order (its row is read contiguously: `+/` of a matrix, `+⌿` of a formula)
//! becomes the nested parallel reduction it is ([`fold_as_parallel_reduction`]), unless its length is known to be at
//! most one chunk: then the loop over the rows gets an outer-parallel and an inner-parallel version like any other
//! nest, and a long row is folded in the chunked order of every `reduce`.

use super::index_simplify::{coefficient_of, mentions};
use crate::loops::ir::{Block, Expr, Stmt, Var};
use crate::tail::ast::Op;
use std::collections::HashMap;

/// Interchanges every row of reductions in `statements` (nested lists included) where that is legal and makes the
/// innermost loop more contiguous. `next_id` is the lowering's fresh-name counter.
pub fn interchange_statements(statements: &mut Vec<Stmt>, next_id: &mut u32) {
    let mut definitions = HashMap::new();
    interchange_list(statements, &mut definitions, next_id);
}

fn interchange_list(statements: &mut Vec<Stmt>, definitions: &mut HashMap<u32, Expr>, next_id: &mut u32) {
    let mut position = 0;
    while position < statements.len() {
        remember_definition(&statements[position], definitions);
        if let Some(replacement) = interchanged(&statements[position], definitions, next_id) {
            let added = replacement.len();
            statements.splice(position..=position, replacement);
            position += added;
            continue;
        }
        if let Some(reduction) = fold_as_parallel_reduction(&statements[position..], next_id) {
            statements.splice(position..position + 2, reduction);
            position += 2;
            continue;
        }
        match &mut statements[position] {
            Stmt::For { body, .. } | Stmt::While { body, .. } => interchange_list(body, definitions, next_id),
            Stmt::If { then, otherwise, .. } => {
                interchange_list(then, definitions, next_id);
                interchange_list(otherwise, definitions, next_id);
            }
            _ => {}
        }
        position += 1;
    }
}

fn remember_definition(statement: &Stmt, definitions: &mut HashMap<u32, Expr>) {
    if let Stmt::Let { var, value } = statement {
        if var.ty == crate::loops::ir::ScalarType::Int {
            definitions.insert(var.id, value.clone());
        }
    }
}

/// The parts of a row of reductions:
/// `for row < rows { var acc = initial; for k < depth { lets; acc := step }; store out[counter] = acc;
/// counter := counter + 1 }`, possibly with the guard of an empty reduction, `acc := ((depth == 0) ? c : acc)`, after
/// the fold (a `+/` of no elements is 0, not the fold's -0.0); the guard is folded into the initial value, which is
/// what every element holds when the fold runs no step.
struct RowOfReductions<'a> {
    row: &'a Var,
    rows: &'a Expr,
    initial: Expr,
    accumulator: &'a Var,
    reduction_index: &'a Var,
    depth: &'a Expr,
    lets: &'a [Stmt],
    step: &'a Expr,
    out: Block,
    counter: &'a Var,
}

fn match_row_of_reductions(statement: &Stmt) -> Option<RowOfReductions<'_>> {
    let Stmt::For {
        index: row,
        count: rows,
        body,
    } = statement
    else {
        return None;
    };
    let (mutable, fold, empty_guard, store, advance) = match body.as_slice() {
        [mutable, fold, store, advance] => (mutable, fold, None, store, advance),
        [mutable, fold, guard, store, advance] => (mutable, fold, Some(empty_reduction_guard(guard)?), store, advance),
        _ => return None,
    };
    let (
        Stmt::Mutable {
            var: accumulator,
            value: initial,
        },
        Stmt::For {
            index: reduction_index,
            count: depth,
            body: inner,
        },
        Stmt::Store {
            block: out,
            index: Expr::Var(counter),
            value: Expr::Var(stored),
        },
        Stmt::Assign {
            var: advanced,
            value: Expr::Prim(Op::AddW, increment),
        },
    ) = (mutable, fold, store, advance)
    else {
        return None;
    };
    let (
        Some((
            Stmt::Assign {
                var: assigned,
                value: step,
            },
            lets,
        )),
        true,
    ) = (inner.split_last(), increment == &[Expr::var(counter), Expr::Int(1)])
    else {
        return None;
    };
    let shape_holds = stored == accumulator && assigned == accumulator && advanced == counter;
    let initial = match empty_guard {
        None => initial.clone(),
        Some((guard_var, condition, value)) => {
            let guard_holds = guard_var == accumulator
                && !mentions(condition, row)
                && !mentions(condition, accumulator)
                && is_constant(initial)
                && is_constant(value);
            if !guard_holds {
                return None;
            }
            Expr::Select(
                Box::new(condition.clone()),
                Box::new(value.clone()),
                Box::new(initial.clone()),
            )
        }
    };
    shape_holds.then_some(RowOfReductions {
        row,
        rows,
        initial,
        accumulator,
        reduction_index,
        depth,
        lets,
        step,
        out: *out,
        counter,
    })
}

/// The parts of the guard of an empty reduction, `acc := (condition ? value : acc)`.
fn empty_reduction_guard(statement: &Stmt) -> Option<(&Var, &Expr, &Expr)> {
    let Stmt::Assign {
        var,
        value: Expr::Select(condition, value, otherwise),
    } = statement
    else {
        return None;
    };
    matches!(&**otherwise, Expr::Var(kept) if kept == var).then_some((var, &**condition, &**value))
}

fn is_constant(expr: &Expr) -> bool {
    matches!(expr, Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_))
}

/// A sequential fold that the interchange left in its order (a row of a reduction that reads its row contiguously),
/// `var acc = start; for k < depth { lets; acc := op(x, acc) }`, as the parallel reduction it is, `reduce r =
/// op(start) for k < depth { lets; yield x }; var acc = r`, when its operator folds in chunks, it starts from the
/// operator's exact identity, and its length is not known to be at most one chunk. Then the loop over the rows and
/// each row's reduction can both be parallel: `passes::parallelise` gives the loop both versions (the rows in
/// parallel, or a few long rows one after another, each on every thread), and both fold each row in the same chunked
/// order, as an OpenCL kernel does (a long sequential fold rounds differently on the CPU, whose vectoriser
/// reassociates it, than in a kernel). Lowering cannot decide this itself: before `index_simplify`, the reads of a
/// pull array go through residues that hide whether a row's fold walks a row or a column (which the interchange
/// wants).
fn fold_as_parallel_reduction(statements: &[Stmt], next_id: &mut u32) -> Option<Vec<Stmt>> {
    let [Stmt::Mutable {
        var: accumulator,
        value: initial,
    }, Stmt::For { index, count, body }, ..] = statements
    else {
        return None;
    };
    let (
        Stmt::Assign {
            var: assigned,
            value: step,
        },
        lets,
    ) = body.split_last()?
    else {
        return None;
    };
    let (site, op, element) = fold_step(step, accumulator)?;
    let start = crate::loops::ir::chunked_reduction_start(op)?;
    let exact_start = initial.same_bits(&start);
    let plain = |value: &Expr| !mentions(value, accumulator) && !value.draws_random_numbers();
    let lets_are_plain = lets
        .iter()
        .all(|statement| matches!(statement, Stmt::Let { value, .. } if plain(value)));
    // A fold of at most one chunk whose length is known is the chunked reduction already, and never worth running
    // in parallel (sobol's and optionpricer's rows of 26 and 30 bits): it stays the loop that LLVM unrolls best.
    let one_known_chunk = count
        .as_int()
        .is_some_and(|count| count <= crate::loops::ir::REDUCTION_CHUNK);
    if assigned != accumulator
        || one_known_chunk
        || !exact_start
        || !lets_are_plain
        || !plain(element)
        || mentions(count, accumulator)
    {
        return None;
    }
    *next_id += 1;
    let result = Var {
        id: *next_id,
        ..accumulator.clone()
    };
    Some(vec![
        Stmt::ParallelReduce {
            result: result.clone(),
            reduction: crate::loops::ir::Reduction {
                op,
                neutral: start,
                commutative: true,
            },
            index: index.clone(),
            count: count.clone(),
            body: lets.to_vec(),
            element: element.clone(),
            site,
        },
        Stmt::Mutable {
            var: accumulator.clone(),
            value: Expr::var(&result),
        },
    ])
}

/// The site, operator and element of a fold's step `acc := op(x, acc)` (or `op(acc, x)`, the operator commuting).
fn fold_step<'a>(step: &'a Expr, accumulator: &Var) -> Option<(Option<crate::source::Span>, Op, &'a Expr)> {
    let (site, operation) = match step {
        Expr::At(site, inner) => (Some(*site), &**inner),
        other => (None, other),
    };
    let Expr::Prim(op, arguments) = operation else {
        return None;
    };
    match arguments.as_slice() {
        [x, Expr::Var(acc)] | [Expr::Var(acc), x] if acc == accumulator => Some((site, *op, x)),
        _ => None,
    }
}

/// The interchanged statements for a row of reductions, when legal and profitable.
fn interchanged(statement: &Stmt, outer: &HashMap<u32, Expr>, next_id: &mut u32) -> Option<Vec<Stmt>> {
    let found = match_row_of_reductions(statement)?;
    if !is_legal(&found) || !is_profitable(&found, outer) {
        return None;
    }
    Some(rewrite(&found, next_id))
}

fn is_legal(found: &RowOfReductions) -> bool {
    let lets_are_pure = found.lets.iter().all(|statement| match statement {
        Stmt::Let { value, .. } => {
            cannot_fail_but_by_nan(value, Some(found.out)) && !mentions(value, found.accumulator)
        }
        _ => false,
    });
    let step_is_pure = cannot_fail_but_by_nan(found.step, Some(found.out));
    let initial_is_constant = match &found.initial {
        Expr::Select(_, value, initial) => is_constant(value) && is_constant(initial),
        initial => is_constant(initial),
    };
    let depth_is_invariant = !mentions(found.depth, found.row);
    lets_are_pure && step_is_pure && initial_is_constant && depth_is_invariant
}

/// Operations that cannot fail, or only with a DOMAIN ERROR for a double result that is not a finite real number; and no
/// load of `out` (when given), which the interchanged loops write while the reductions run.
pub(super) fn cannot_fail_but_by_nan(expr: &Expr, out: Option<Block>) -> bool {
    match expr {
        Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) | Expr::Var(_) => true,
        Expr::Load { block, index } => Some(*block) != out && cannot_fail_but_by_nan(index, out),
        Expr::Select(condition, then, otherwise) => [condition, then, otherwise]
            .iter()
            .all(|part| cannot_fail_but_by_nan(part, out)),
        Expr::At(_, inner) | Expr::Threshold { value: inner, .. } => cannot_fail_but_by_nan(inner, out),
        Expr::Prim(op, arguments) => {
            let divisor_is_positive = || arguments.first().and_then(Expr::as_int).is_some_and(|n| n > 0);
            let second_is_positive = || arguments.get(1).and_then(Expr::as_int).is_some_and(|n| n > 0);
            let op_is_safe = match op {
                Op::ResI => divisor_is_positive(),
                Op::DivI => second_is_positive(),
                _ => is_total_or_nan_checked(*op),
            };
            op_is_safe && arguments.iter().all(|argument| cannot_fail_but_by_nan(argument, out))
        }
    }
}

fn is_total_or_nan_checked(op: Op) -> bool {
    use Op::*;
    matches!(
        op,
        AddI | SubI
            | MulI
            | AddW
            | SubW
            | MulW
            | NegW
            | MinI
            | MaxI
            | NegI
            | AbsI
            | SignI
            | AddD
            | SubD
            | MulD
            | MinD
            | MaxD
            | NegD
            | AbsD
            | LtI
            | LteI
            | GtI
            | GteI
            | EqI
            | NeqI
            | LtD
            | LteD
            | GtD
            | GteD
            | EqD
            | NeqD
            | AndB
            | OrB
            | XorB
            | NandB
            | NorB
            | EqB
            | NotB
            | I2D
            | B2I
    )
}

/// Whether exchanging the loops lowers the number of loads that stride through memory in the innermost loop.
fn is_profitable(found: &RowOfReductions, outer: &HashMap<u32, Expr>) -> bool {
    let mut definitions = outer.clone();
    let mut loads = Vec::new();
    for statement in found.lets {
        if let Stmt::Let { var, value } = statement {
            collect_load_indices(value, &mut loads);
            if var.ty == crate::loops::ir::ScalarType::Int {
                definitions.insert(var.id, value.clone());
            }
        }
    }
    collect_load_indices(found.step, &mut loads);
    let strided = |index: &Var| {
        loads
            .iter()
            .filter(|load| !matches!(coefficient_of(load, index, &definitions), Some(-1..=1)))
            .count()
    };
    strided(found.row) < strided(found.reduction_index)
}

fn collect_load_indices(expr: &Expr, indices: &mut Vec<Expr>) {
    match expr {
        Expr::Load { index, .. } => {
            indices.push((**index).clone());
            collect_load_indices(index, indices);
        }
        Expr::Prim(_, arguments) => arguments
            .iter()
            .for_each(|argument| collect_load_indices(argument, indices)),
        Expr::Select(condition, then, otherwise) => {
            for part in [condition, then, otherwise] {
                collect_load_indices(part, indices);
            }
        }
        Expr::At(_, inner) => collect_load_indices(inner, indices),
        _ => {}
    }
}

/// `let start = counter; for r < rows { out[start+r] = initial }; for k < depth { for row < rows { lets;
/// out[start+row] = step[acc := out[start+row]] } }; counter := counter + rows`.
fn rewrite(found: &RowOfReductions, next_id: &mut u32) -> Vec<Stmt> {
    let mut fresh = |hint: &str| {
        *next_id += 1;
        Var {
            id: *next_id,
            ty: crate::loops::ir::ScalarType::Int,
            hint: hint.into(),
        }
    };
    let start = fresh("start");
    let fill_index = fresh("i");
    let element = |index: &Var| Expr::add_int(Expr::var(&start), Expr::var(index));
    let accumulated = Expr::load(found.out, element(found.row));
    let mut inner_body = found.lets.to_vec();
    inner_body.push(Stmt::Store {
        block: found.out,
        index: element(found.row),
        value: replace_var(found.step, found.accumulator, &accumulated),
    });
    let row_count = match found.rows.as_int() {
        Some(rows) => Expr::Int(rows.max(0)),
        None => Expr::max(found.rows.clone(), Expr::Int(0)),
    };
    vec![
        Stmt::Let {
            var: start.clone(),
            value: Expr::var(found.counter),
        },
        Stmt::For {
            index: fill_index.clone(),
            count: found.rows.clone(),
            body: vec![Stmt::Store {
                block: found.out,
                index: element(&fill_index),
                value: found.initial.clone(),
            }],
        },
        Stmt::For {
            index: found.reduction_index.clone(),
            count: found.depth.clone(),
            body: vec![Stmt::For {
                index: found.row.clone(),
                count: found.rows.clone(),
                body: inner_body,
            }],
        },
        Stmt::Assign {
            var: found.counter.clone(),
            value: Expr::add_int(Expr::var(found.counter), row_count),
        },
    ]
}

pub(super) fn replace_var(expr: &Expr, var: &Var, replacement: &Expr) -> Expr {
    match expr {
        Expr::Var(found) if found == var => replacement.clone(),
        Expr::Prim(op, arguments) => Expr::Prim(
            *op,
            arguments
                .iter()
                .map(|argument| replace_var(argument, var, replacement))
                .collect(),
        ),
        Expr::Load { block, index } => Expr::load(*block, replace_var(index, var, replacement)),
        Expr::Select(condition, then, otherwise) => Expr::Select(
            Box::new(replace_var(condition, var, replacement)),
            Box::new(replace_var(then, var, replacement)),
            Box::new(replace_var(otherwise, var, replacement)),
        ),
        Expr::At(site, inner) => Expr::At(*site, Box::new(replace_var(inner, var, replacement))),
        other => other.clone(),
    }
}

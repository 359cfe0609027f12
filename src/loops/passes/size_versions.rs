//! A second version of the program for sizes below 2^31, where the overflow checks that sizes known only at run time
//! keep can go.
//!
//! `overflow_checks.rs` turns APL's checked int arithmetic into wrapping arithmetic where interval analysis proves
//! the result fits. With a size read at run time (`N←⎕ArgInt 1`, the length of a file read) every loop index has the
//! range `0 … 2^63-2`, so `7×i` or `i×j` keeps its check: a branch per element that also stops LLVM from vectorising
//! the loop (votes ran 7 times slower with `N` an argument than with `N` a constant).
//!
//! This pass picks the first top-level int `let` whose bound would remove checks inside loops, and runs the rest of
//! the program in two versions:
//!
//! ```text
//! let n = argInt(1, 10000000)
//! if (n < 2147483648) {
//!   … the rest, renamed, where every index below n is below 2^31 and the checks it decides are gone …
//! } else {
//!   … the rest as it was …
//! }
//! ```
//!
//! Both versions are the same statements, so the program's output and errors are the same whichever runs; the test
//! is one comparison. It is kept only when the first version has fewer checked operations inside loops than the
//! second (counted after the analysis has run on both), and made at most once per program, so the code at most
//! doubles. The program's result must not read what the rest defines (a script's result is a constant).

use crate::loops::ir::{for_each_statement, Expr, Program, ResultValue, ScalarType, Stmt};
use crate::loops::passes::overflow_checks::remove_overflow_checks;
use crate::loops::rewrite::{rename_allocated_blocks, rename_defined_variables, rewrite_exprs};
use crate::tail::ast::Op;
use std::collections::HashSet;

/// The bound of the first version: below it, an index times an index (`i×j`) fits 64 bits, and so does any index
/// times a constant below 2^32.
const SMALL_SIZE_BOUND: i64 = 1 << 31;

/// How many top-level `let`s are tried: each try copies and analyses the rest of the program.
const MOST_CANDIDATES_TRIED: usize = 8;

/// Versions the program on the first run-time int that bounds away checks in loops (see the module).
pub fn version_on_small_sizes(mut program: Program) -> Program {
    if !result_is_constant(&program.result) {
        return program;
    }
    let candidates: Vec<usize> = program
        .body
        .iter()
        .enumerate()
        .filter_map(|(position, statement)| match statement {
            Stmt::Let { var, value } if var.ty == ScalarType::Int && !matches!(value, Expr::Int(_)) => Some(position),
            _ => None,
        })
        .take(MOST_CANDIDATES_TRIED)
        .collect();
    for position in candidates {
        let Stmt::Let { var, .. } = &program.body[position] else {
            unreachable!("candidates are lets")
        };
        let var = var.clone();
        let rest = &program.body[position + 1..];
        if checked_operations_in_loops(rest) == 0 {
            break;
        }
        if frees_a_block_allocated_before(rest) {
            continue;
        }
        let mut next_id = program.largest_id();
        let mut small = rest.to_vec();
        rename_defined_variables(&mut small, &mut next_id);
        rename_allocated_blocks(&mut small, &mut next_id);
        let mut versioned = vec![Stmt::If {
            condition: Expr::Prim(Op::LtI, vec![Expr::Var(var), Expr::Int(SMALL_SIZE_BOUND)]),
            then: small,
            otherwise: rest.to_vec(),
        }];
        remove_overflow_checks_given_prefix(&program.body[..=position], &mut versioned);
        let Stmt::If { then, otherwise, .. } = &versioned[0] else {
            unreachable!("built above")
        };
        if checked_operations_in_loops(then) < checked_operations_in_loops(otherwise) {
            program.body.truncate(position + 1);
            program.body.extend(versioned);
            return program;
        }
    }
    program
}

/// Runs the interval analysis on `prefix` followed by `statements`, so that the ranges the prefix defines hold, and
/// keeps the rewritten `statements`.
fn remove_overflow_checks_given_prefix(prefix: &[Stmt], statements: &mut Vec<Stmt>) {
    let mut whole: Vec<Stmt> = prefix.to_vec();
    whole.append(statements);
    remove_overflow_checks(&mut whole);
    *statements = whole.split_off(prefix.len());
}

/// Whether the statements free a block they do not allocate: a block of the part before the versions, which both
/// versions would free. Only one of them runs, but the loop-IR checker counts a block's frees in both branches of an
/// `if`, so such a program keeps one version.
fn frees_a_block_allocated_before(statements: &[Stmt]) -> bool {
    let mut allocated = HashSet::new();
    let mut freed = Vec::new();
    for_each_statement(statements, &mut |statement| match statement {
        Stmt::Alloc { block, .. } | Stmt::ReadFile { result: block, .. } | Stmt::Format { result: block, .. } => {
            allocated.insert(block.id);
        }
        Stmt::Free { block } => freed.push(block.id),
        _ => {}
    });
    freed.iter().any(|id| !allocated.contains(id))
}

fn result_is_constant(result: &ResultValue) -> bool {
    match result {
        ResultValue::Scalar(expr) => matches!(expr, Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_)),
        ResultValue::Array(_) => false,
        ResultValue::Tuple(items) => items.iter().all(result_is_constant),
    }
}

/// The checked int operations (`addi subi muli negi`, and checked `+` reductions) inside loops of the statements,
/// each counted once however often its loop runs.
fn checked_operations_in_loops(statements: &[Stmt]) -> usize {
    statements
        .iter()
        .map(|statement| match statement {
            Stmt::For { body, .. } | Stmt::While { body, .. } | Stmt::ParallelFor { body, .. } => {
                checked_operations(body)
            }
            Stmt::ParallelReduce { .. } => checked_operations(std::slice::from_ref(statement)),
            Stmt::If { then, otherwise, .. } => {
                checked_operations_in_loops(then) + checked_operations_in_loops(otherwise)
            }
            _ => 0,
        })
        .sum()
}

/// Every checked int operation of the statements, at any depth.
fn checked_operations(statements: &[Stmt]) -> usize {
    let mut count = 0;
    // `rewrite_exprs` visits every subexpression; on a copy, it only counts.
    rewrite_exprs(&mut statements.to_vec(), &mut |expr| {
        if let Expr::Prim(Op::AddI | Op::SubI | Op::MulI | Op::NegI, _) = expr {
            count += 1;
        }
    });
    for_each_statement(statements, &mut |statement| {
        if let Stmt::ParallelReduce { reduction, .. } = statement {
            count += usize::from(reduction.op == Op::AddI);
        }
    });
    count
}

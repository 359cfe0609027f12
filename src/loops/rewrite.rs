//! Small tools the memory passes share for reading and rewriting loop IR: visiting every expression of a statement
//! (mutably), renaming a block, substituting for variables and loads, and deciding which expressions are safe to
//! evaluate anywhere (no APL error, no memory access).

use super::ir::{defined_variables_of, for_each_statement, ArrayRef, Block, Expr, ResultValue, Stmt, Var};
use crate::tail::ast::Op;
use std::collections::{HashMap, HashSet};

/// Calls `visit` on every expression directly in `statement` (not in nested statement lists), including the extents
/// of array references and views.
pub fn for_each_own_expr_mut(statement: &mut Stmt, visit: &mut dyn FnMut(&mut Expr)) {
    match statement {
        Stmt::Let { value, .. } | Stmt::Mutable { value, .. } | Stmt::Assign { value, .. } => visit(value),
        Stmt::For { count, .. } | Stmt::ParallelFor { count, .. } => visit(count),
        Stmt::ParallelReduce {
            reduction,
            count,
            element,
            ..
        } => {
            visit(&mut reduction.neutral);
            visit(count);
            visit(element);
        }
        Stmt::While { condition, .. } | Stmt::If { condition, .. } => visit(condition),
        Stmt::Alloc { size, .. } => visit(size),
        Stmt::Store { index, value, .. } => {
            visit(index);
            visit(value);
        }
        Stmt::PrintArray { array, precision } => {
            array.shape.iter_mut().for_each(&mut *visit);
            visit(precision);
        }
        Stmt::PrintScalar { value, precision } => {
            visit(value);
            visit(precision);
        }
        Stmt::Format { source, precision, .. } => {
            source.shape.iter_mut().for_each(&mut *visit);
            visit(precision);
        }
        Stmt::View { shape, layout, .. } => {
            shape.iter_mut().for_each(&mut *visit);
            layout.strides.iter_mut().for_each(&mut *visit);
            visit(&mut layout.offset);
        }
        Stmt::ReadFile { path, .. } => path.shape.iter_mut().for_each(&mut *visit),
        Stmt::ReportBench { iterations, start } => {
            visit(iterations);
            visit(start);
        }
        Stmt::Call { args, .. } => args
            .iter_mut()
            .flat_map(super::ir::Argument::expressions_mut)
            .for_each(visit),
        Stmt::Free { .. } | Stmt::Swap { .. } | Stmt::Error { .. } | Stmt::ReadClock { .. } => {}
    }
}

/// The statement lists nested directly in a statement (loop bodies, branches).
pub fn nested_lists_mut(statement: &mut Stmt) -> Vec<&mut Vec<Stmt>> {
    statement.nested_lists_mut()
}

/// Calls `visit` on every expression of the statements, nested ones included, innermost subexpressions first
/// (a post-order walk, so that a rewrite of a node sees its rewritten children).
pub fn rewrite_exprs(statements: &mut [Stmt], visit: &mut dyn FnMut(&mut Expr)) {
    for statement in statements.iter_mut() {
        for_each_own_expr_mut(statement, &mut |expr| rewrite_expr(expr, visit));
        for list in nested_lists_mut(statement) {
            rewrite_exprs(list, visit);
        }
    }
}

/// Rewrites an expression bottom-up: `visit` sees every node after its operands.
pub fn rewrite_expr(expr: &mut Expr, visit: &mut dyn FnMut(&mut Expr)) {
    match expr {
        Expr::Prim(_, args) => args.iter_mut().for_each(|arg| rewrite_expr(arg, visit)),
        Expr::Load { index, .. } => rewrite_expr(index, visit),
        Expr::Select(condition, then, otherwise) => {
            rewrite_expr(condition, visit);
            rewrite_expr(then, visit);
            rewrite_expr(otherwise, visit);
        }
        Expr::At(_, inner) | Expr::Threshold { value: inner, .. } => rewrite_expr(inner, visit),
        _ => {}
    }
    visit(expr);
}

/// What replaces `statements[position]`, if anything (see [`replace_statements_outside_parallel`]).
pub type StatementReplacement<'a> = dyn FnMut(&[Stmt], usize) -> Option<Vec<Stmt>> + 'a;

/// Walks the statements in order, nested lists included but not the bodies of parallel constructs, and replaces each
/// statement for which `replacement(statements, position)` gives statements; the replacements are not walked again.
/// The passes that turn one statement into others use it (a loop into its parallel versions, or inside out).
pub fn replace_statements_outside_parallel(statements: &mut Vec<Stmt>, replacement: &mut StatementReplacement<'_>) {
    let mut position = 0;
    while position < statements.len() {
        if let Some(replacement) = replacement(statements, position) {
            let added = replacement.len();
            statements.splice(position..=position, replacement);
            position += added;
            continue;
        }
        let statement = &mut statements[position];
        if !statement.is_parallel() {
            for list in statement.nested_lists_mut() {
                replace_statements_outside_parallel(list, replacement);
            }
        }
        position += 1;
    }
}

/// Gives every block the statements allocate (at any depth) a fresh id above `next_id`, and renames its uses there:
/// with [`rename_defined_variables`], what makes a copy of statements that can stand beside the original.
pub fn rename_allocated_blocks(statements: &mut [Stmt], next_id: &mut u32) {
    let mut allocated = Vec::new();
    for_each_statement(statements, &mut |statement| {
        if let Stmt::Alloc { block, .. } = statement {
            allocated.push(*block);
        }
    });
    for block in allocated {
        *next_id += 1;
        let renamed = Block { id: *next_id, ..block };
        rename_block(statements, block, renamed);
    }
}

/// Renames block `from` to `to` everywhere in the statements (definitions, uses, frees, swaps, views).
pub fn rename_block(statements: &mut [Stmt], from: Block, to: Block) {
    let rename = |block: &mut Block| {
        if *block == from {
            *block = to;
        }
    };
    for statement in statements.iter_mut() {
        match statement {
            Stmt::Alloc { block, .. } | Stmt::Store { block, .. } | Stmt::Free { block } | Stmt::View { block, .. } => {
                rename(block)
            }
            Stmt::Swap { first, second } => {
                rename(first);
                rename(second);
            }
            Stmt::PrintArray { array, .. } => rename(&mut array.block),
            Stmt::Format { source, result, .. } => {
                rename(&mut source.block);
                rename(result);
            }
            Stmt::ReadFile { path, result, .. } => {
                rename(&mut path.block);
                rename(result);
            }
            _ => {}
        }
        for list in nested_lists_mut(statement) {
            rename_block(list, from, to);
        }
    }
    rewrite_exprs(statements, &mut |expr| {
        if let Expr::Load { block, .. } = expr {
            rename(block);
        }
    });
}

/// Renames block `from` to `to` in a program result.
pub fn rename_block_in_result(result: &mut ResultValue, from: Block, to: Block) {
    match result {
        ResultValue::Scalar(expr) => rename_block_in_expr(expr, from, to),
        ResultValue::Array(ArrayRef { block, .. }) => {
            if *block == from {
                *block = to;
            }
        }
        ResultValue::Tuple(components) => components
            .iter_mut()
            .for_each(|component| rename_block_in_result(component, from, to)),
    }
}

fn rename_block_in_expr(expr: &mut Expr, from: Block, to: Block) {
    rewrite_expr(expr, &mut |expr| {
        if let Expr::Load { block, .. } = expr {
            if *block == from {
                *block = to;
            }
        }
    });
}

/// Whether the program's result mentions the block (as an array or in a load).
pub fn result_mentions_block(result: &ResultValue, id: u32) -> bool {
    match result {
        ResultValue::Scalar(expr) => expr_loads_block(expr, id),
        ResultValue::Array(array) => array.block.id == id,
        ResultValue::Tuple(components) => components.iter().any(|c| result_mentions_block(c, id)),
    }
}

/// Whether the statement, or a statement nested in it, mentions the block: allocates, stores to, loads from, frees,
/// swaps, prints, views, formats into or reads a file into it.
pub fn mentions_block(statement: &Stmt, id: u32) -> bool {
    let mut found = false;
    for_each_statement(std::slice::from_ref(statement), &mut |s| {
        let direct = match s {
            Stmt::Alloc { block, size, .. } => block.id == id || expr_loads_block(size, id),
            Stmt::Store { block, index, value } => {
                block.id == id || expr_loads_block(index, id) || expr_loads_block(value, id)
            }
            Stmt::Free { block } => block.id == id,
            Stmt::Swap { first, second } => first.id == id || second.id == id,
            Stmt::PrintArray { array, .. } => array.block.id == id,
            Stmt::Let { value, .. } | Stmt::Mutable { value, .. } | Stmt::Assign { value, .. } => {
                expr_loads_block(value, id)
            }
            Stmt::PrintScalar { value, .. } => expr_loads_block(value, id),
            Stmt::For { count, .. } | Stmt::ParallelFor { count, .. } => expr_loads_block(count, id),
            Stmt::ParallelReduce {
                reduction,
                count,
                element,
                ..
            } => [&reduction.neutral, count, element]
                .into_iter()
                .any(|expr| expr_loads_block(expr, id)),
            Stmt::While { condition, .. } | Stmt::If { condition, .. } => expr_loads_block(condition, id),
            Stmt::Error { .. } | Stmt::ReadClock { .. } => false,
            Stmt::Call { args, result, .. } => {
                result.block().is_some_and(|block| block.id == id)
                    || args.iter().any(|arg| match arg {
                        super::ir::Argument::Scalar(expr) => expr_loads_block(expr, id),
                        super::ir::Argument::Array(array) => array.block.id == id,
                    })
            }
            Stmt::ReportBench { iterations, start } => expr_loads_block(iterations, id) || expr_loads_block(start, id),
            Stmt::View { block, .. } => block.id == id,
            Stmt::Format { source, result, .. } => source.block.id == id || result.id == id,
            Stmt::ReadFile { path, result, .. } => path.block.id == id || result.id == id,
        };
        found |= direct;
    });
    found
}

/// Whether an expression loads from the block.
pub fn expr_loads_block(expr: &Expr, id: u32) -> bool {
    match expr {
        Expr::Load { block, index } => block.id == id || expr_loads_block(index, id),
        Expr::Prim(_, args) => args.iter().any(|arg| expr_loads_block(arg, id)),
        Expr::Select(c, a, b) => expr_loads_block(c, id) || expr_loads_block(a, id) || expr_loads_block(b, id),
        Expr::At(_, inner) | Expr::Threshold { value: inner, .. } => expr_loads_block(inner, id),
        _ => false,
    }
}

/// Whether an expression loads from any block.
pub fn expr_loads_any_block(expr: &Expr) -> bool {
    let mut loads = false;
    super::ir::for_each_load(expr, &mut |_, _| loads = true);
    loads
}

/// A variable with an id above `next_id` (which it advances), for the statements a pass adds.
pub fn fresh_variable(next_id: &mut u32, ty: super::ir::ScalarType, hint: &str) -> Var {
    *next_id += 1;
    Var {
        id: *next_id,
        ty,
        hint: hint.into(),
    }
}

/// Visits every node of an expression, the expression itself first.
pub fn for_each_subexpression(expr: &Expr, visit: &mut dyn FnMut(&Expr)) {
    visit(expr);
    match expr {
        Expr::Prim(_, args) => args.iter().for_each(|arg| for_each_subexpression(arg, visit)),
        Expr::Load { index, .. } => for_each_subexpression(index, visit),
        Expr::Select(c, a, b) => [c, a, b].into_iter().for_each(|e| for_each_subexpression(e, visit)),
        Expr::At(_, inner) | Expr::Threshold { value: inner, .. } => for_each_subexpression(inner, visit),
        _ => {}
    }
}

/// The ids of the variables an expression reads.
pub fn variables_of(expr: &Expr, into: &mut HashSet<u32>) {
    match expr {
        Expr::Var(var) => {
            into.insert(var.id);
        }
        Expr::Load { index, .. } => variables_of(index, into),
        Expr::Prim(_, args) => args.iter().for_each(|arg| variables_of(arg, into)),
        Expr::Select(c, a, b) => {
            variables_of(c, into);
            variables_of(a, into);
            variables_of(b, into);
        }
        Expr::At(_, inner) | Expr::Threshold { value: inner, .. } => variables_of(inner, into),
        _ => {}
    }
}

/// The expression with every use of variable `id` replaced by `replacement`.
pub fn substitute_variable(expr: &Expr, id: u32, replacement: &Expr) -> Expr {
    let mut result = expr.clone();
    rewrite_expr(&mut result, &mut |node| {
        if matches!(node, Expr::Var(var) if var.id == id) {
            *node = replacement.clone();
        }
    });
    result
}

/// Gives every variable the statements define (at any depth) a fresh id above `next_id`, and renames its uses there:
/// a copy of statements made to stand beside the original keeps variable ids unique in the program.
pub fn rename_defined_variables(statements: &mut [Stmt], next_id: &mut u32) {
    let renaming = fresh_names_of_defined_variables(statements, next_id);
    rename_variables(statements, &renaming);
}

/// A fresh variable (id above `next_id`, same type and hint) for every variable the statements define at any depth,
/// keyed by the old id: the renaming that [`rename_variables`] applies to a copy of the statements (and to whatever
/// else refers to them).
pub fn fresh_names_of_defined_variables(statements: &[Stmt], next_id: &mut u32) -> HashMap<u32, Var> {
    let mut renaming = HashMap::new();
    for_each_statement(statements, &mut |statement| {
        for var in defined_variables_of(statement) {
            *next_id += 1;
            renaming.insert(
                var.id,
                Var {
                    id: *next_id,
                    ..var.clone()
                },
            );
        }
    });
    renaming
}

/// Replaces every variable of `renaming`'s keys, where it is defined and where it is read, by its value.
pub fn rename_variables(statements: &mut [Stmt], renaming: &HashMap<u32, Var>) {
    let rename = |var: &mut Var| {
        if let Some(renamed) = renaming.get(&var.id) {
            *var = renamed.clone();
        }
    };
    for statement in statements.iter_mut() {
        match statement {
            Stmt::Let { var, .. } | Stmt::Mutable { var, .. } | Stmt::Assign { var, .. } | Stmt::ReadClock { var } => {
                rename(var)
            }
            Stmt::For { index, .. } | Stmt::ParallelFor { index, .. } => rename(index),
            Stmt::ParallelReduce { result, index, .. } => {
                rename(result);
                rename(index);
            }
            Stmt::ReadFile { length, .. } => rename(length),
            Stmt::Format { shape, .. } => shape.iter_mut().for_each(rename),
            _ => {}
        }
        for_each_own_expr_mut(statement, &mut |expr| {
            rewrite_expr(expr, &mut |node| {
                if let Expr::Var(var) = node {
                    rename(var);
                }
            })
        });
        for list in statement.nested_lists_mut() {
            rename_variables(list, renaming);
        }
    }
}

/// The number of nodes of an expression (a cost measure for recomputing it).
pub fn size_of(expr: &Expr) -> usize {
    match expr {
        Expr::Load { index, .. } => 1 + size_of(index),
        Expr::Prim(_, args) => 1 + args.iter().map(size_of).sum::<usize>(),
        Expr::Select(c, a, b) => 1 + size_of(c) + size_of(a) + size_of(b),
        Expr::At(_, inner) => size_of(inner),
        Expr::Threshold { value, .. } => 1 + size_of(value),
        _ => 1,
    }
}

/// Whether evaluating the expression can neither fail nor touch memory, so that it may be evaluated earlier, later,
/// more often or not at all without changing what the program does: constants, variables, and the int, bool and
/// conversion operators that have no error case (int arithmetic wraps, the residue by 0 is the argument; division
/// only by a non-zero literal).
pub fn is_safe_pure(expr: &Expr) -> bool {
    match expr {
        Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) | Expr::Var(_) => true,
        Expr::Load { .. } => false,
        Expr::Select(c, a, b) => is_safe_pure(c) && is_safe_pure(a) && is_safe_pure(b),
        Expr::Prim(op, args) => operator_is_safe(*op, args) && args.iter().all(is_safe_pure),
        Expr::At(_, inner) => is_safe_pure(inner),
        // Reading a parameter is pure, but a pass must not move the choice between versions.
        Expr::Threshold { .. } => false,
    }
}

/// Whether evaluating the expression can raise no APL error: as [`is_safe_pure`], except that loads count (lowering's
/// reads are in bounds by construction; an APL index is checked by an explicit `error` statement), and so do the
/// double operators that have no error case (comparisons, which are tolerant; minimum, maximum, negation, magnitude).
/// Double arithmetic can fail: in Dyalog's float mode a result that is not a finite real number is a DOMAIN ERROR.
pub fn raises_no_apl_error(expr: &Expr) -> bool {
    match expr {
        Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) | Expr::Var(_) => true,
        Expr::Load { index, .. } => raises_no_apl_error(index),
        Expr::Select(c, a, b) => raises_no_apl_error(c) && raises_no_apl_error(a) && raises_no_apl_error(b),
        Expr::At(_, inner) | Expr::Threshold { value: inner, .. } => raises_no_apl_error(inner),
        Expr::Prim(op, args) => operator_raises_no_apl_error(*op, args) && args.iter().all(raises_no_apl_error),
    }
}

/// Whether applying the operator to the arguments' values can raise no APL error (see [`raises_no_apl_error`]).
pub fn operator_raises_no_apl_error(op: Op, args: &[Expr]) -> bool {
    let total_on_doubles = matches!(
        op,
        Op::LtD | Op::LteD | Op::GtD | Op::GteD | Op::EqD | Op::NeqD | Op::MinD | Op::MaxD | Op::NegD | Op::AbsD
    );
    total_on_doubles || operator_is_safe(op, args)
}

fn operator_is_safe(op: Op, args: &[Expr]) -> bool {
    match op {
        Op::AddW
        | Op::SubW
        | Op::MulW
        | Op::NegW
        | Op::MinI
        | Op::MaxI
        | Op::LtI
        | Op::LteI
        | Op::GtI
        | Op::GteI
        | Op::EqI
        | Op::NeqI
        | Op::AndB
        | Op::OrB
        | Op::NotB
        | Op::XorB
        | Op::EqB
        | Op::B2I
        | Op::I2D
        | Op::ResI => true,
        // divi(a, n): only a non-zero literal divisor rules the DOMAIN ERROR out.
        Op::DivI => args.get(1).and_then(Expr::as_int).is_some_and(|n| n != 0),
        _ => false,
    }
}

//! Fusion of a loop that fills an array row by row with the loop that then reads it row by row, with the array
//! contracted to a buffer of one row.
//!
//! After the i-k-j interchange, a bit-matrix product `bits≠.∧v` is a loop `for i < n` that writes row `i` (`w`
//! elements, through a position counter `p = w×i`), and the next use of the product, `(bits≠.∧v)+.×weights`, is a loop
//! `for r < n` that reads only row `r`. Materialising the whole product (Sobol: 10⁷×26 booleans, 260 MB) costs a page
//! fault per 4 kB and the memory traffic of writing and reading it; fused, row `i` is read right after it is written,
//! so one row of buffer is enough:
//!
//! ```text
//! alloc B[n×w]; var p = 0                      alloc B[w]; var p = 0
//! for i < n { ... B[p + e] ...; p := p + w }   for i < n { ... B[e] ...; p := p + w
//! (frees, views, allocs)                  =>               ...B[f]...  (the reader's body, r renamed i) }
//! for r < n { ... B[w×r + f] ... }             (frees, views)
//! ```
//!
//! Legal when `e` and `f` are provably in `0..w` (so each iteration touches only its own row), the writer stores only
//! into `B`, the reader does not store into `B` nor into anything the writer reads, `B` has no other use after the
//! reader than its `free`, and neither body can fail otherwise than with a double result that is not a finite real number
//! (then the program stops with a DOMAIN ERROR whichever row fails first) and has no other effect.

use super::index_simplify::{offset_within_row, RowShape};
use super::interchange::cannot_fail_but_by_nan;
use crate::loops::ir::{Block, Expr, Stmt, Var};
use crate::tail::ast::Op;
use std::collections::{HashMap, HashSet};

/// Fuses every writer/reader pair of the top-level statement list that qualifies.
pub fn fuse_rows(statements: &mut Vec<Stmt>) {
    let mut position = 0;
    while position < statements.len() {
        if !try_fuse_at(statements, position) {
            position += 1;
        }
    }
}

/// The writer's parts: `alloc block[n×w]; var counter = 0; for row < n { ...; counter := counter + w }`.
struct Writer {
    block: Block,
    counter: Var,
    rows: i64,
    width: i64,
}

fn match_writer(statements: &[Stmt]) -> Option<Writer> {
    let [Stmt::Alloc { block, size, .. }, Stmt::Mutable {
        var: counter,
        value: Expr::Int(0),
    }, Stmt::For { count, body, .. }, ..] = statements
    else {
        return None;
    };
    let (total, rows) = (size.as_int()?, count.as_int()?);
    let Some(Stmt::Assign {
        var,
        value: Expr::Prim(Op::AddW, increment),
    }) = body.last()
    else {
        return None;
    };
    let width = match increment.as_slice() {
        [Expr::Var(advanced), Expr::Int(width)] if advanced == counter && var == counter => *width,
        _ => return None,
    };
    (rows >= 1 && width >= 1 && rows.checked_mul(width) == Some(total)).then(|| Writer {
        block: *block,
        counter: counter.clone(),
        rows,
        width,
    })
}

/// Fuses the writer starting at `position` with its reader when legal; returns whether it did.
fn try_fuse_at(statements: &mut Vec<Stmt>, position: usize) -> bool {
    let Some(writer) = match_writer(&statements[position..]) else {
        return false;
    };
    let writer_loop = position + 2;
    // Between writer and reader: frees and views of other blocks, and allocations (moved before the fused loop).
    let mut reader = writer_loop + 1;
    let mut fresh_blocks = HashSet::new();
    while let Some(statement) = statements.get(reader) {
        match statement {
            Stmt::Free { block } | Stmt::View { block, .. } if *block != writer.block => {}
            Stmt::Alloc { block, size, .. } if size.as_int().is_some() => {
                fresh_blocks.insert(block.id);
            }
            _ => break,
        }
        reader += 1;
    }
    let Some(fused_body) = fused_body(statements, writer_loop, reader, &writer, &fresh_blocks) else {
        return false;
    };
    if !only_freed_after(&statements[reader + 1..], writer.block) {
        return false;
    }
    let Stmt::For { body, .. } = &mut statements[writer_loop] else {
        return false;
    };
    *body = fused_body;
    let site = match &statements[position] {
        Stmt::Alloc { site, .. } => *site,
        _ => None,
    };
    statements[position] = Stmt::Alloc {
        block: writer.block,
        size: Expr::Int(writer.width),
        site,
    };
    statements.remove(reader);
    let between: Vec<Stmt> = statements.drain(writer_loop + 1..reader).collect();
    let (allocations, rest): (Vec<Stmt>, Vec<Stmt>) = between
        .into_iter()
        .partition(|statement| matches!(statement, Stmt::Alloc { .. }));
    statements.splice(writer_loop + 1..writer_loop + 1, rest);
    statements.splice(writer_loop..writer_loop, allocations);
    true
}

/// The writer's body with its row addressed in a one-row buffer, followed by the reader's body (its index renamed).
fn fused_body(
    statements: &[Stmt],
    writer_loop: usize,
    reader_loop: usize,
    writer: &Writer,
    fresh_blocks: &HashSet<u32>,
) -> Option<Vec<Stmt>> {
    let Stmt::For {
        index: row,
        body: writer_body,
        ..
    } = &statements[writer_loop]
    else {
        return None;
    };
    let Some(Stmt::For {
        index: reader_row,
        count,
        body: reader_body,
    }) = statements.get(reader_loop)
    else {
        return None;
    };
    if count.as_int() != Some(writer.rows) {
        return None;
    }
    let writer_stores_only_the_row = stored_blocks(writer_body).iter().all(|&id| id == writer.block.id);
    let reader_stores = stored_blocks(reader_body);
    let reader_stores_fresh = reader_stores.iter().all(|id| fresh_blocks.contains(id));
    if !writer_stores_only_the_row || !reader_stores_fresh || !is_quiet(writer_body) || !is_quiet(reader_body) {
        return None;
    }
    let mut fused = readdressed(writer_body, writer.block, &writer.counter, 1, writer.width)?;
    let renamed = rename_in(reader_body, reader_row, row);
    fused.extend(readdressed(&renamed, writer.block, row, writer.width, writer.width)?);
    Some(fused)
}

/// The ids of the blocks a statement list stores into.
fn stored_blocks(statements: &[Stmt]) -> HashSet<u32> {
    let mut blocks = HashSet::new();
    crate::loops::ir::for_each_statement(statements, &mut |statement| {
        if let Stmt::Store { block, .. } = statement {
            blocks.insert(block.id);
        }
    });
    blocks
}

/// Lets, variables, counted loops and stores only, of expressions that cannot fail but by a not-a-real-number.
fn is_quiet(statements: &[Stmt]) -> bool {
    statements.iter().all(|statement| match statement {
        Stmt::Let { value, .. } | Stmt::Mutable { value, .. } | Stmt::Assign { value, .. } => {
            cannot_fail_but_by_nan(value, None)
        }
        Stmt::For { count, body, .. } => cannot_fail_but_by_nan(count, None) && is_quiet(body),
        Stmt::Store { index, value, .. } => cannot_fail_but_by_nan(index, None) && cannot_fail_but_by_nan(value, None),
        _ => false,
    })
}

/// Whether `block` appears in `statements` only in `free block`.
fn only_freed_after(statements: &[Stmt], block: Block) -> bool {
    let mut used = false;
    crate::loops::ir::for_each_statement(statements, &mut |statement| {
        used |= match statement {
            Stmt::Free { .. } => false,
            Stmt::Alloc { block: other, .. } | Stmt::Store { block: other, .. } | Stmt::View { block: other, .. } => {
                *other == block || statement_reads(statement, block)
            }
            Stmt::Swap { first, second } => *first == block || *second == block,
            Stmt::PrintArray { array, .. } => array.block == block,
            Stmt::Format { source, result, .. } => source.block == block || *result == block,
            Stmt::Call { .. } => crate::loops::rewrite::mentions_block(statement, block.id),
            _ => statement_reads(statement, block),
        };
    });
    !used
}

fn statement_reads(statement: &Stmt, block: Block) -> bool {
    let mut reads = false;
    for_each_expression(statement, &mut |expr| reads |= loads_from(expr, block));
    reads
}

fn loads_from(expr: &Expr, block: Block) -> bool {
    match expr {
        Expr::Load { block: read, index } => *read == block || loads_from(index, block),
        Expr::Prim(_, arguments) => arguments.iter().any(|argument| loads_from(argument, block)),
        Expr::Select(condition, then, otherwise) => {
            loads_from(condition, block) || loads_from(then, block) || loads_from(otherwise, block)
        }
        Expr::At(_, inner) => loads_from(inner, block),
        _ => false,
    }
}

/// The expressions directly in one statement (not in nested statement lists).
fn for_each_expression(statement: &Stmt, visit: &mut dyn FnMut(&Expr)) {
    crate::loops::ir::statement_expressions(statement)
        .into_iter()
        .for_each(visit);
}

/// `statements` with every access to `block` at `coefficient × base + e` (e in `0..width`) moved to `e`; None when
/// some access is not of that form.
fn readdressed(statements: &[Stmt], block: Block, base: &Var, coefficient: i64, width: i64) -> Option<Vec<Stmt>> {
    let row = RowShape {
        base,
        coefficient,
        width,
    };
    readdress_list(statements, block, &row, &mut HashMap::new(), &mut HashMap::new())
}

fn readdress_list(
    statements: &[Stmt],
    block: Block,
    row: &RowShape,
    definitions: &mut HashMap<u32, Expr>,
    loop_counts: &mut HashMap<u32, i64>,
) -> Option<Vec<Stmt>> {
    let mut result = Vec::with_capacity(statements.len());
    for statement in statements {
        let readdress = |expr: &Expr| readdress_expr(expr, block, row, definitions, loop_counts);
        let rewritten = match statement {
            Stmt::Let { var, value } => Stmt::Let {
                var: var.clone(),
                value: readdress(value)?,
            },
            Stmt::Mutable { var, value } => Stmt::Mutable {
                var: var.clone(),
                value: readdress(value)?,
            },
            Stmt::Assign { var, value } => Stmt::Assign {
                var: var.clone(),
                value: readdress(value)?,
            },
            Stmt::Store {
                block: target,
                index,
                value,
            } => {
                let index = if *target == block {
                    offset_within_row(index, row, definitions, loop_counts)?
                } else {
                    readdress(index)?
                };
                Stmt::Store {
                    block: *target,
                    index,
                    value: readdress(value)?,
                }
            }
            Stmt::For { index, count, body } => {
                if let Some(trip_count) = count.as_int() {
                    loop_counts.insert(index.id, trip_count);
                }
                Stmt::For {
                    index: index.clone(),
                    count: count.clone(),
                    body: readdress_list(body, block, row, definitions, loop_counts)?,
                }
            }
            _ => return None,
        };
        if let Stmt::Let { var, value } = &rewritten {
            if var.ty == crate::loops::ir::ScalarType::Int {
                definitions.insert(var.id, value.clone());
            }
        }
        result.push(rewritten);
    }
    Some(result)
}

fn readdress_expr(
    expr: &Expr,
    block: Block,
    row: &RowShape,
    definitions: &HashMap<u32, Expr>,
    loop_counts: &HashMap<u32, i64>,
) -> Option<Expr> {
    let mut again = |inner: &Expr| readdress_expr(inner, block, row, definitions, loop_counts);
    Some(match expr {
        Expr::Load { block: read, index } if *read == block => {
            Expr::load(block, offset_within_row(index, row, definitions, loop_counts)?)
        }
        Expr::Load { block: read, index } => Expr::load(*read, again(index)?),
        Expr::Prim(op, arguments) => Expr::Prim(*op, arguments.iter().map(&mut again).collect::<Option<_>>()?),
        Expr::Select(condition, then, otherwise) => Expr::select(again(condition)?, again(then)?, again(otherwise)?),
        Expr::At(site, inner) => Expr::At(*site, Box::new(again(inner)?)),
        other => other.clone(),
    })
}

/// `statements` with the variable `from` replaced by `to` everywhere.
fn rename_in(statements: &[Stmt], from: &Var, to: &Var) -> Vec<Stmt> {
    let rename = |expr: &Expr| super::interchange::replace_var(expr, from, &Expr::var(to));
    statements
        .iter()
        .map(|statement| match statement {
            Stmt::Let { var, value } => Stmt::Let {
                var: var.clone(),
                value: rename(value),
            },
            Stmt::Mutable { var, value } => Stmt::Mutable {
                var: var.clone(),
                value: rename(value),
            },
            Stmt::Assign { var, value } => Stmt::Assign {
                var: var.clone(),
                value: rename(value),
            },
            Stmt::Store { block, index, value } => Stmt::Store {
                block: *block,
                index: rename(index),
                value: rename(value),
            },
            Stmt::For { index, count, body } => Stmt::For {
                index: index.clone(),
                count: rename(count),
                body: rename_in(body, from, to),
            },
            other => other.clone(),
        })
        .collect()
}

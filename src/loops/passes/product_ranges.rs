//! A reduction or a loop over a product range that reads its index through a residue becomes a loop of rows.
//!
//! `+/(R×Y)⍴⍳Y`, or any reduction of an array reshaped from a shorter one, reads element `k` of the reshaped array as
//! element `k mod Y` of the source: `reduce acc = addw(0) for k < R·Y { … k % Y … }`. With `Y` known only at run
//! time, `k % Y` is a hardware division in every iteration (tens of cycles, and no vector instruction has it). Since
//! `k` runs over `0 … R·Y-1` in order, it is `q·Y + r` for `q < R` and `r < Y` in order, so the same elements, in the
//! same order, come from
//!
//! ```text
//! alloc rows : int[R]
//! for q < R {
//!   reduce inner = addw(0) for r < Y { … r … }
//!   store rows[q] = inner
//! }
//! reduce acc = addw(0) for q < R { yield rows[q] }
//! free rows
//! ```
//!
//! (a map of row reductions rather than a reduction of reductions: a reduction's threads share whole chunks of 4096
//! elements, and R is often smaller),
//! where `k % Y` is `r`, `k / Y` (floor division) is `q`, and any other use of `k` is `q·Y + r`. Only reductions
//! whose operator is exactly associative and commutative are regrouped this way (wrapping int `+` and `×`, int min and
//! max, boolean and, or, xor), since the grouping of the elements changes (a floating-point sum would round
//! differently). APL's checked int `+` (`addi`, the exact sum, DOMAIN ERROR when it does not fit) is regrouped when the
//! elements' magnitude is bounded by some M (from the ranges of `overflow_checks`): the inner sums are then wrapping
//! sums that cannot overflow as long as `Y ≤ int max ÷ M`, which the guard below tests, and the outer reduction stays
//! the exact sum of the same total.
//!
//! A loop (a parallel map, or a sequential loop) over `R·Y` iterations that reads its index the same way becomes
//! `for q < R { for r < Y { … } }`: its iterations run in the same order, so nothing needs to be associative; the
//! map that fills a reshaped vector, `x←(R×Y)⍴⍳Y` used more than once, is such a loop.
//!
//! The identities hold when `Y > 0`; the rewrite also wants `Y ≤ 2^40` (see [`LONGEST_INNER_RANGE`]). When `Y` is not
//! such a constant it keeps the original beside the split, under a test: `var acc' = neutral; if 0 < Y ≤ bound {
//! split; acc' := its result } else { the reduction as it was; acc' := its result }; let acc = acc'` (for a loop,
//! simply `if 0 < Y ≤ bound { split } else { the loop }`).

use crate::loops::ir::{Block, Expr, Program, Reduction, ScalarType, Stmt, Var};
use crate::loops::passes::overflow_checks::remove_overflow_checks;
use crate::loops::rewrite::{fresh_variable, nested_lists_mut, rename_defined_variables};
use crate::tail::ast::Op;
use std::collections::HashMap;

/// Splits every reduction and loop over a product range whose index is read through a residue or a quotient (see
/// the module).
pub fn split_product_ranges(mut program: Program) -> Program {
    let mut next_id = program.largest_id();
    let mut products = HashMap::new();
    collect_products(&program.body, &mut products);
    for function in &program.functions {
        collect_products(&function.body, &mut products);
    }
    let mut changed = rewrite_list(&mut program.body, &products, &mut next_id);
    for function in &mut program.functions {
        changed |= rewrite_list(&mut function.body, &products, &mut next_id);
    }
    if changed {
        // The guard bounds the modulus, and with it the inner index: the checks and the guards of floor divisions
        // in the body that this bound decides go.
        remove_overflow_checks(&mut program.body);
        for function in &mut program.functions {
            remove_overflow_checks(&mut function.body);
        }
    }
    program
}

/// The two factors of every `let` bound to a product of two variables or constants.
fn collect_products(statements: &[Stmt], products: &mut HashMap<u32, [Expr; 2]>) {
    crate::loops::ir::for_each_statement(statements, &mut |statement| {
        if let Stmt::Let { var, value } = statement {
            if let Expr::Prim(Op::MulI | Op::MulW, factors) = value.without_site() {
                if let [a, b] = factors.as_slice() {
                    if is_simple(a) && is_simple(b) {
                        products.insert(var.id, [a.clone(), b.clone()]);
                    }
                }
            }
        }
    });
}

fn is_simple(expr: &Expr) -> bool {
    matches!(expr, Expr::Var(_) | Expr::Int(_))
}

/// Splits the reductions of the statements that match; whether there was one.
fn rewrite_list(statements: &mut Vec<Stmt>, products: &HashMap<u32, [Expr; 2]>, next_id: &mut u32) -> bool {
    let mut changed = false;
    let mut position = 0;
    while position < statements.len() {
        let statement = &statements[position];
        let replacement =
            split_reduction(statement, products, next_id).or_else(|| split_loop(statement, products, next_id));
        if let Some(replacement) = replacement {
            let added = replacement.len();
            statements.splice(position..=position, replacement);
            position += added;
            changed = true;
            continue;
        }
        for list in nested_lists_mut(&mut statements[position]) {
            changed |= rewrite_list(list, products, next_id);
        }
        position += 1;
    }
    changed
}

/// The longest inner range split off: an inner range longer than 2^40 elements (a terabyte of booleans) never
/// occurs, and with this bound the inner index is small enough for the ranges to decide the guards of the body's int
/// floor divisions (`|x| < 2^46`).
const LONGEST_INNER_RANGE: i64 = 1 << 40;

/// Whether regrouping the elements of a reduction by `op` gives exactly the same result.
fn exactly_associative(op: Op) -> bool {
    matches!(
        op,
        Op::AddW | Op::MulW | Op::MaxI | Op::MinI | Op::AndB | Op::OrB | Op::XorB
    )
}

/// The statements that replace a reduction that matches, else `None`.
fn split_reduction(statement: &Stmt, products: &HashMap<u32, [Expr; 2]>, next_id: &mut u32) -> Option<Vec<Stmt>> {
    let Stmt::ParallelReduce {
        result,
        reduction,
        index,
        count,
        body,
        element,
        site,
    } = statement
    else {
        return None;
    };
    // The inner reductions' operator, and the largest modulus for which they cannot overflow.
    let (inner_op, largest_modulus) = if exactly_associative(reduction.op) {
        (reduction.op, LONGEST_INNER_RANGE)
    } else if reduction.op == Op::AddI {
        (
            Op::AddW,
            largest_modulus_of_exact_inner_sums(index, count, body, element)?,
        )
    } else {
        return None;
    };
    let (rows, modulus) = rows_and_modulus(count, products, index, body, element)?;
    let (outer_index, inner_index) = fresh_row_indices(next_id);
    let inner_result = fresh_variable(next_id, result.ty, "inner");
    let uses = IndexUses::of(index, modulus, &outer_index, &inner_index);
    // The body moves into the inner reduction (in the unguarded case the original goes, so its variables stay
    // defined once; `guarded_by_modulus` renames the split's).
    let inner_body = uses.rewritten(body);
    let inner_element = uses.rewrite(element);
    // The inner reductions' results go to a block, one per row, which a map fills (in parallel once
    // `parallelise` has seen it: a row's reduction is too long to be a chunk of the outer reduction's, and a
    // reduction's chunks are the units its threads share), and the outer reduction folds the block.
    *next_id += 1;
    let sums = Block::new(*next_id, result.ty);
    let row_sum_index = fresh_variable(next_id, ScalarType::Int, "q");
    let split = vec![
        Stmt::Alloc {
            block: sums,
            size: Expr::Prim(Op::MaxI, vec![rows.clone(), Expr::Int(0)]),
            site: *site,
        },
        Stmt::For {
            index: outer_index.clone(),
            count: rows.clone(),
            body: vec![
                Stmt::ParallelReduce {
                    result: inner_result.clone(),
                    reduction: Reduction {
                        op: inner_op,
                        neutral: reduction.neutral.clone(),
                        commutative: reduction.commutative,
                    },
                    index: inner_index,
                    count: modulus.clone(),
                    body: inner_body,
                    element: inner_element,
                    site: *site,
                },
                Stmt::Store {
                    block: sums,
                    index: Expr::Var(outer_index),
                    value: Expr::Var(inner_result),
                },
            ],
        },
        Stmt::ParallelReduce {
            result: result.clone(),
            reduction: reduction.clone(),
            index: row_sum_index.clone(),
            count: rows.clone(),
            body: Vec::new(),
            element: Expr::Load {
                block: sums,
                index: Box::new(Expr::Var(row_sum_index)),
            },
            site: *site,
        },
        Stmt::Free { block: sums },
    ];
    match modulus {
        Expr::Int(n) if *n > 0 && *n <= largest_modulus => Some(split),
        Expr::Int(_) => None,
        _ => Some(guarded_by_modulus(
            statement,
            split,
            result,
            modulus,
            largest_modulus,
            next_id,
        )),
    }
}

/// The largest number of elements whose wrapping sum is their exact sum, from a bound on the elements' magnitude;
/// `None` when the ranges bound them by nothing useful.
fn largest_modulus_of_exact_inner_sums(index: &Var, count: &Expr, body: &[Stmt], element: &Expr) -> Option<i64> {
    let mut ranges = crate::loops::passes::overflow_checks::IntRanges::default();
    ranges.assume_index_below(index, count);
    let mut body = body.to_vec();
    ranges.rewrite_statements(&mut body);
    let magnitude = ranges.range_of(element).magnitude().max(1);
    let largest = i128::from(i64::MAX) / magnitude;
    // A bound this loose is no bound: elements of any int.
    (largest >= 2).then(|| largest.min(LONGEST_INNER_RANGE.into()) as i64)
}

/// `var chosen = neutral; if 0 < modulus ≤ largest { split; chosen := result } else { original; chosen := result };
/// let result = chosen`, the copies' variables renamed so that each is defined once.
fn guarded_by_modulus(
    original: &Stmt,
    mut split: Vec<Stmt>,
    result: &Var,
    modulus: &Expr,
    largest_modulus: i64,
    next_id: &mut u32,
) -> Vec<Stmt> {
    let chosen = fresh_variable(next_id, result.ty, "chosen");
    let Stmt::ParallelReduce { reduction, .. } = original else {
        unreachable!("a reduction")
    };
    let mut fallback = vec![original.clone()];
    rename_defined_variables(&mut fallback, next_id);
    let fallback_result = match &fallback[0] {
        Stmt::ParallelReduce { result, .. } => result.clone(),
        _ => unreachable!("a reduction"),
    };
    rename_defined_variables(&mut split, next_id);
    let split_result = split
        .iter()
        .rev()
        .find_map(|statement| match statement {
            Stmt::ParallelReduce { result, .. } => Some(result.clone()),
            _ => None,
        })
        .expect("the split ends with the outer reduction");
    split.push(Stmt::Assign {
        var: chosen.clone(),
        value: Expr::Var(split_result),
    });
    fallback.push(Stmt::Assign {
        var: chosen.clone(),
        value: Expr::Var(fallback_result),
    });
    vec![
        Stmt::Mutable {
            var: chosen.clone(),
            value: reduction.neutral.clone(),
        },
        Stmt::If {
            condition: modulus_within(modulus, largest_modulus),
            then: split,
            otherwise: fallback,
        },
        Stmt::Let {
            var: result.clone(),
            value: Expr::Var(chosen),
        },
    ]
}

/// `for q < R { for r < Y { body } }` for a loop (sequential, or a parallel map) over `R×Y` iterations whose body reads
/// its index through `k % Y` or `k / Y`: the iterations run in the same order, so any body keeps its meaning. The
/// outer loop is sequential here; `parallelise` (the next memory pass) makes it a parallel map when its rows are
/// independent, as a parallel map's are. Under the same test of `Y` as a reduction's when `Y` is not a constant.
fn split_loop(statement: &Stmt, products: &HashMap<u32, [Expr; 2]>, next_id: &mut u32) -> Option<Vec<Stmt>> {
    let (Stmt::For { index, count, body } | Stmt::ParallelFor { index, count, body }) = statement else {
        return None;
    };
    let (rows, modulus) = rows_and_modulus(count, products, index, body, &Expr::Int(0))?;
    let (outer_index, inner_index) = fresh_row_indices(next_id);
    let inner_body = IndexUses::of(index, modulus, &outer_index, &inner_index).rewritten(body);
    let split = Stmt::For {
        index: outer_index,
        count: rows.clone(),
        body: vec![Stmt::For {
            index: inner_index,
            count: modulus.clone(),
            body: inner_body,
        }],
    };
    match modulus {
        Expr::Int(n) if *n > 0 && *n <= LONGEST_INNER_RANGE => Some(vec![split]),
        Expr::Int(_) => None,
        _ => {
            let mut split = vec![split];
            // The original stays beside the copy: the copy's variables get fresh names.
            rename_defined_variables(&mut split, next_id);
            Some(vec![Stmt::If {
                condition: modulus_within(modulus, LONGEST_INNER_RANGE),
                then: split,
                otherwise: vec![statement.clone()],
            }])
        }
    }
}

/// The factors `(R, Y)` of a count `R×Y` (a variable bound to the product) when the body or the element reads `index`
/// through `index % Y` or `index / Y`.
fn rows_and_modulus<'a>(
    count: &Expr,
    products: &'a HashMap<u32, [Expr; 2]>,
    index: &Var,
    body: &[Stmt],
    element: &Expr,
) -> Option<(&'a Expr, &'a Expr)> {
    let Expr::Var(count_var) = count else {
        return None;
    };
    let [first, second] = products.get(&count_var.id)?;
    [(first, second), (second, first)]
        .into_iter()
        .find(|(_, modulus)| reads_index_through(body, element, index, modulus))
}

/// The indices of the rows (`q`) and of the elements in a row (`r`) of a split.
fn fresh_row_indices(next_id: &mut u32) -> (Var, Var) {
    (
        fresh_variable(next_id, ScalarType::Int, "q"),
        fresh_variable(next_id, ScalarType::Int, "r"),
    )
}

/// `0 < modulus ≤ largest`.
fn modulus_within(modulus: &Expr, largest: i64) -> Expr {
    Expr::Prim(
        Op::AndB,
        vec![
            Expr::Prim(Op::GtI, vec![modulus.clone(), Expr::Int(0)]),
            Expr::Prim(Op::LteI, vec![modulus.clone(), Expr::Int(largest)]),
        ],
    )
}

/// Whether the body or the element reads `index` through `index % modulus` or `index / modulus` at least once.
fn reads_index_through(body: &[Stmt], element: &Expr, index: &Var, modulus: &Expr) -> bool {
    let mut found = false;
    let mut look = |node: &mut Expr| {
        found |= is_residue_of(node, index.id, modulus) || is_quotient_of(node, index.id, modulus);
    };
    // The walk over every node of every expression, nested statements included, takes them mutably: walk a copy.
    crate::loops::rewrite::rewrite_exprs(&mut body.to_vec(), &mut look);
    crate::loops::rewrite::rewrite_expr(&mut element.clone(), &mut look);
    found
}

fn is_residue_of(expr: &Expr, index: u32, modulus: &Expr) -> bool {
    matches!(expr, Expr::Prim(Op::ResI, args)
        if matches!(args.as_slice(), [n, Expr::Var(k)] if k.id == index && n == modulus))
}

fn is_quotient_of(expr: &Expr, index: u32, modulus: &Expr) -> bool {
    matches!(expr, Expr::Prim(Op::DivI, args)
        if matches!(args.as_slice(), [Expr::Var(k), n] if k.id == index && n == modulus))
}

/// How the uses of the old index are rewritten: `k % m` is `r`, `k / m` is `q`, any other `k` is `q·m + r`.
struct IndexUses<'a> {
    index: u32,
    modulus: &'a Expr,
    outer: &'a Var,
    inner: &'a Var,
}

impl<'a> IndexUses<'a> {
    fn of(index: &Var, modulus: &'a Expr, outer: &'a Var, inner: &'a Var) -> IndexUses<'a> {
        IndexUses {
            index: index.id,
            modulus,
            outer,
            inner,
        }
    }

    /// A copy of the statements with the index's uses replaced.
    fn rewritten(&self, statements: &[Stmt]) -> Vec<Stmt> {
        let mut copy = statements.to_vec();
        self.rewrite_statements(&mut copy);
        copy
    }

    fn rewrite_statements(&self, statements: &mut [Stmt]) {
        for statement in statements {
            crate::loops::rewrite::for_each_own_expr_mut(statement, &mut |expr| *expr = self.rewrite(expr));
            for list in nested_lists_mut(statement) {
                self.rewrite_statements(list);
            }
        }
    }

    /// The expression with the index's uses replaced, the outermost match first.
    fn rewrite(&self, expr: &Expr) -> Expr {
        if is_residue_of(expr, self.index, self.modulus) {
            return Expr::Var(self.inner.clone());
        }
        if is_quotient_of(expr, self.index, self.modulus) {
            return Expr::Var(self.outer.clone());
        }
        match expr {
            Expr::Var(var) if var.id == self.index => Expr::Prim(
                Op::AddW,
                vec![
                    Expr::Prim(Op::MulW, vec![Expr::Var(self.outer.clone()), self.modulus.clone()]),
                    Expr::Var(self.inner.clone()),
                ],
            ),
            Expr::Prim(op, args) => Expr::Prim(*op, args.iter().map(|arg| self.rewrite(arg)).collect()),
            Expr::Load { block, index } => Expr::Load {
                block: *block,
                index: Box::new(self.rewrite(index)),
            },
            Expr::Select(condition, then, otherwise) => Expr::Select(
                Box::new(self.rewrite(condition)),
                Box::new(self.rewrite(then)),
                Box::new(self.rewrite(otherwise)),
            ),
            Expr::At(site, inner) => Expr::At(*site, Box::new(self.rewrite(inner))),
            Expr::Threshold { name, value } => Expr::Threshold {
                name: name.clone(),
                value: Box::new(self.rewrite(value)),
            },
            Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) | Expr::Var(_) => expr.clone(),
        }
    }
}

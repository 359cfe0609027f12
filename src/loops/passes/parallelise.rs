//! Parallel maps: the last loop pass turns each sequential `for` loop whose iterations are independent into a
//! `parfor` (see `ir.rs` for what a parallel body may do). Lowering already emits the parallel reductions it knows;
//! maps are recognised here, after the memory passes, because those passes decide which blocks a loop shares with
//! its iterations (a block hoisted out of a loop is shared, and the loop that reuses it must stay sequential).
//!
//! A loop `for i < n { body }` becomes parallel when:
//! - its body has no effect but stores and APL errors (no print, `⍕`, file, clock, swap, random numbers);
//! - it assigns no mutable variable declared outside it, except a *cursor*: a running write position
//!   `var p = …; for i { for j < m { … store[p] …; p := p + 1 } }` (how lowering walks a shape in row-major order),
//!   which is replaced by its closed form `p0 + i·m + j` (induction-variable substitution) first;
//! - it frees only blocks it allocated, and frees all of them;
//! - distinct iterations store to distinct positions of every block they share, proved with the LMAD of the
//!   stores: each store position is affine in `i` and the indices of the loops inside the body,
//!   `τ + c·i + Σ c_j·j` with `j < n_j`, and the iteration's positions span at most `Σ |c_j|·(n_j-1) + 1 ≤ |c|`
//!   (the non-negativity of sizes and strides is the LMAD algebra's, `crate::mem::term::VariableBounds`);
//! - it loads a shared block that it stores only at positions where the same iteration stores.
//!
//! Only outermost loops are made parallel: a loop inside a parallel body runs sequentially anyway. When the loop's
//! body, made parallel on its own, would hold parallel constructs worth running (an inner reduction, or a map inside
//! a sequential loop, as in a matrix product's `for i { for k { parfor j } }`), which level should be parallel depends
//! on the sizes: the loop gets two versions under `if reached(outer_i, n)`, the outer-parallel one and the
//! sequential loop with its inner constructs parallel (a renamed copy), and the run-time parameter `outer_i` chooses
//! (see `crate::loops::parameters`). A plain nest of maps gets only the outer version.

use crate::loops::ir::{blocks_allocated_in, Block, Expr, Program, Stmt, Var};
use crate::loops::parameters::{
    construct_work, is_always_sequential, outer_threshold_name, DEFAULT_PARALLEL_THRESHOLD,
};
use crate::loops::printer::print_expr;
use crate::loops::rewrite::{rename_allocated_blocks, rename_defined_variables, replace_statements_outside_parallel};
use crate::mem::term::{Term, VariableBounds};
use crate::tail::ast::Op;
use std::collections::{BTreeMap, HashMap, HashSet};

/// How deep let-bound variables are looked through when an index expression is put in affine form.
const DEFINITION_DEPTH: usize = 12;

/// Makes every eligible outermost `for` loop of the program a `parfor`.
pub fn parallelise_maps(mut program: Program) -> Program {
    let mut definitions = HashMap::new();
    let mut next_id = program.largest_id();
    parallelise_list(&mut program.body, &mut definitions, &mut next_id);
    program
}

fn parallelise_list(statements: &mut Vec<Stmt>, definitions: &mut HashMap<u32, Expr>, next_id: &mut u32) {
    replace_statements_outside_parallel(statements, &mut |statements, position| {
        if let Stmt::Let { var, value } = &statements[position] {
            definitions.insert(var.id, value.clone());
        }
        parallel_version(statements, position, definitions, next_id)
    });
}

/// The statements that replace `statements[position]` when it is a loop that can run in parallel: the `parfor`,
/// with the cursors it advanced set to their final values before and after it; or, when the loop also holds parallel
/// constructs (its own, or loops inside that are parallel on their own), both versions (see
/// [`outer_or_inner_version`]).
fn parallel_version(
    statements: &[Stmt],
    position: usize,
    definitions: &HashMap<u32, Expr>,
    next_id: &mut u32,
) -> Option<Vec<Stmt>> {
    let outer_parallel = outer_parallel_version(&statements[position], definitions, next_id)?;
    let inner_parallel = inner_parallel_version(&statements[position], definitions, next_id);
    let Stmt::For { body: inner_body, .. } = &inner_parallel else {
        unreachable!("the inner version is a loop")
    };
    if inner_version_is_worth_keeping(inner_body, definitions) {
        let Stmt::For { index, .. } = &statements[position] else {
            unreachable!("only loops have a parallel version")
        };
        return Some(vec![outer_or_inner_version(index, outer_parallel, inner_parallel)]);
    }
    Some(outer_parallel)
}

/// The loop as a `parfor` (with its cursors replaced by closed forms), when its iterations are independent. What is
/// inside stays as it is: inside a parallel body every construct runs sequentially.
fn outer_parallel_version(
    sequential_loop: &Stmt,
    definitions: &HashMap<u32, Expr>,
    next_id: &mut u32,
) -> Option<Vec<Stmt>> {
    let Stmt::For { index, count, body } = sequential_loop else {
        return None;
    };
    if body_has_forbidden_effect(body) {
        return None;
    }
    let outer_mutables = mutables_assigned_outside_declaration(body);
    let mut body = body.clone();
    let mut before = Vec::new();
    let mut after = Vec::new();
    for cursor in outer_mutables {
        let substitution = substitute_cursor(&cursor, index, count, &mut body, next_id)?;
        before.extend(substitution.before);
        after.extend(substitution.after);
    }
    let mut definitions = definitions.clone();
    collect_definitions(&body, &mut definitions);
    if !frees_only_its_own_blocks(&body) || !iterations_are_independent(index, count, &body, &definitions) {
        return None;
    }
    before.push(Stmt::ParallelFor {
        index: index.clone(),
        count: count.clone(),
        body,
    });
    before.extend(after);
    Some(before)
}

/// The loop kept sequential, with the loops inside made parallel as any others: a renamed copy, so that it can stand
/// beside the outer-parallel version.
fn inner_parallel_version(sequential_loop: &Stmt, definitions: &HashMap<u32, Expr>, next_id: &mut u32) -> Stmt {
    let mut copy = vec![sequential_loop.clone()];
    rename_defined_variables(&mut copy, next_id);
    rename_allocated_blocks(&mut copy, next_id);
    let mut copy = copy.pop().expect("one loop was copied");
    if let Stmt::For { body, .. } = &mut copy {
        parallelise_list(body, &mut definitions.clone(), next_id);
    }
    copy
}

/// The two versions of a parallel loop that holds parallel constructs, chosen at run time by the number of its
/// iterations: `if reached(outer_i, n) { parfor i < n { … } } else { for i < n { … } }`. The first runs the
/// iterations on the threads and what is inside each sequentially (many short rows); the second runs the iterations
/// one after another and each inner construct on every thread (a few long rows). In the tree of thresholds the
/// first version's are the `parfor`'s own, the second's those of the constructs inside.
fn outer_or_inner_version(index: &Var, outer_parallel: Vec<Stmt>, inner_parallel: Stmt) -> Stmt {
    let Stmt::For { count, .. } = &inner_parallel else {
        unreachable!("the inner version is a loop")
    };
    let condition = Expr::Threshold {
        name: outer_threshold_name(&index.name()),
        value: Box::new(count.clone()),
    };
    Stmt::If {
        condition,
        then: outer_parallel,
        otherwise: vec![inner_parallel],
    }
}

/// Whether distinct iterations of a loop with this index and body store to distinct positions of every block the
/// body does not allocate itself, and load no position another iteration stores. The checker uses it for `parfor`:
/// with the body's own `let`s, and failing that with the `let`s outside the loop too (`outer_definitions`), as the
/// pass had them. Only failing that: an outer `let` may also change the forms the proof works on (an outer
/// `tiles = rows / 8` makes `rows` a quotient's `8·q + ρ` everywhere), and the edge tiles of a register-tiled
/// product (apl-tests/memory/power_product_by_state.apl) are proved with the body's own `let`s but not with all.
///
/// The pieces of a loop that index-space splitting made are looked at joined back into one loop
/// ([`super::index_split::join_pieces`]): each piece covers part of the loop's range, so its own counts and offsets
/// would not show that together they stay within a row.
pub fn stores_are_disjoint_across_iterations(
    index: &Var,
    count: &Expr,
    body: &[Stmt],
    outer_definitions: &HashMap<u32, Expr>,
) -> bool {
    let body = super::index_split::join_pieces(body);
    let mut own_definitions = HashMap::new();
    collect_definitions(&body, &mut own_definitions);
    if iterations_are_independent(index, count, &body, &own_definitions) {
        return true;
    }
    let mut definitions = outer_definitions.clone();
    definitions.extend(own_definitions);
    !outer_definitions.is_empty() && iterations_are_independent(index, count, &body, &definitions)
}

/// The inner loops of a position `offset + coefficient·i + Σ stride·l`: each loop's `(stride, count)`.
type InnerStrides = Vec<(Term, Term)>;

fn iterations_are_independent(index: &Var, count: &Expr, body: &[Stmt], definitions: &HashMap<u32, Expr>) -> bool {
    let private = blocks_allocated_in(body);
    let loops = inner_loops(body);
    let mut affine = AffineForm {
        index,
        count,
        loops: &loops,
        definitions,
        quotients: HashMap::new(),
    };
    affine.quotients = affine.quotients_of(body);
    let mut stores: HashMap<u32, Vec<Expr>> = HashMap::new();
    let mut loads: Vec<(Block, Expr)> = Vec::new();
    for_each_access(body, &mut |access| match access {
        Access::Store(block, position) if !private.contains(&block.id) => {
            stores.entry(block.id).or_default().push(position.clone())
        }
        Access::Load(block, position) if !private.contains(&block.id) => loads.push((block, position.clone())),
        _ => {}
    });
    let stores_disjoint = stores
        .values()
        .all(|positions| affine.positions_are_disjoint_across_iterations(positions));
    let loads_own = loads.iter().all(|(block, position)| match stores.get(&block.id) {
        None => true,
        Some(positions) => {
            let load = affine.term(position);
            load.is_some() && positions.iter().any(|store| affine.term(store) == load)
        }
    });
    stores_disjoint && loads_own
}

/// Whether statements that compute one element of a parallel reduction (then `element`) may be its body: no effect a parallel body may not have, no assignment to a variable declared outside, and no store
/// to a block allocated outside (element computations only read).
pub fn may_be_parallel_body(body: &[Stmt], element: &Expr) -> bool {
    let stores_outside = {
        let private = blocks_allocated_in(body);
        let mut found = false;
        crate::loops::ir::for_each_statement(body, &mut |statement| {
            found |= matches!(statement, Stmt::Store { block, .. } if !private.contains(&block.id));
        });
        found
    };
    !contains_parallel_construct(body)
        && !body_has_forbidden_effect(body)
        && !element.draws_random_numbers()
        && mutables_assigned_outside_declaration(body).is_empty()
        && frees_only_its_own_blocks(body)
        && !stores_outside
}

// ---- The effects a parallel body may not have ----

fn contains_parallel_construct(body: &[Stmt]) -> bool {
    let mut found = false;
    crate::loops::ir::for_each_statement(body, &mut |statement| found |= statement.is_parallel());
    found
}

/// Whether the body holds a parallel construct that may run in parallel: one whose work is known at compile time to
/// be too small (`parameters::is_always_sequential`, a map over a row of 26 elements) does not count, so the loop
/// around it is the one made parallel (where it runs sequentially, as every construct in a parallel body does).
/// Neither does an int sum: lowering makes each row of an int `+/` of a matrix a parallel reduction for its exact
/// value (`Op::AddI`), not for its parallelism, and the loop over the rows is the one to run in parallel, as for the
/// rows of any other reduction.
fn contains_parallel_construct_worth_running(body: &[Stmt], definitions: &HashMap<u32, Expr>) -> bool {
    let mut found = false;
    crate::loops::ir::for_each_statement(body, &mut |statement| {
        let int_sum = matches!(statement, Stmt::ParallelReduce { reduction, .. }
            if matches!(reduction.op, Op::AddI | Op::AddW));
        let small = is_always_sequential(statement)
            || construct_work(statement)
                .and_then(|work| constant_value(&work, definitions, DEFINITION_DEPTH))
                .is_some_and(|work| work < DEFAULT_PARALLEL_THRESHOLD);
        found |= statement.is_parallel() && !int_sum && !small
    });
    found
}

/// Whether the inner-parallel version of a loop can beat its outer-parallel version on some sizes: when its body
/// holds a parallel reduction worth running (a row's sum, which the outer version folds sequentially), or a parallel
/// construct worth running inside a sequential loop (matrix product's `for k { parfor j }`: few rows leave the outer
/// version with little parallelism). A map over the inner index of a plain nest is not: the outer version covers the
/// same elements with one level of parallelism (and a GPU kernel of it covers every element), so a second version
/// would only double the code.
fn inner_version_is_worth_keeping(body: &[Stmt], definitions: &HashMap<u32, Expr>) -> bool {
    fn search(statements: &[Stmt], inside_loop: bool, definitions: &HashMap<u32, Expr>) -> bool {
        statements.iter().any(|statement| match statement {
            Stmt::ParallelFor { .. } | Stmt::ParallelReduce { .. } => {
                let reduction = matches!(statement, Stmt::ParallelReduce { .. });
                (reduction || inside_loop)
                    && contains_parallel_construct_worth_running(std::slice::from_ref(statement), definitions)
            }
            Stmt::For { body, .. } | Stmt::While { body, .. } => search(body, true, definitions),
            _ => statement
                .nested_lists()
                .into_iter()
                .any(|list| search(list, inside_loop, definitions)),
        })
    }
    search(body, false, definitions)
}

/// The value of an int expression whose variables are let-bound to constants (a board of `6 6⍴…` has extents
/// `let s = 6`), when it has one.
fn constant_value(expr: &Expr, definitions: &HashMap<u32, Expr>, depth: usize) -> Option<i64> {
    let value = |expr: &Expr| constant_value(expr, definitions, depth);
    match expr {
        Expr::Int(n) => Some(*n),
        Expr::Var(var) if depth > 0 => constant_value(definitions.get(&var.id)?, definitions, depth - 1),
        Expr::Prim(Op::AddW, args) => value(&args[0])?.checked_add(value(&args[1])?),
        Expr::Prim(Op::SubW, args) => value(&args[0])?.checked_sub(value(&args[1])?),
        Expr::Prim(Op::MulW, args) => value(&args[0])?.checked_mul(value(&args[1])?),
        Expr::Prim(Op::MaxI, args) => Some(value(&args[0])?.max(value(&args[1])?)),
        Expr::Prim(Op::MinI, args) => Some(value(&args[0])?.min(value(&args[1])?)),
        _ => None,
    }
}

fn body_has_forbidden_effect(body: &[Stmt]) -> bool {
    let mut found = false;
    crate::loops::ir::for_each_statement(body, &mut |statement| {
        found |= matches!(
            statement,
            Stmt::PrintArray { .. }
                | Stmt::PrintScalar { .. }
                | Stmt::ReadFile { .. }
                | Stmt::ReadClock { .. }
                | Stmt::ReportBench { .. }
                | Stmt::Format { .. }
                | Stmt::Swap { .. }
                // A function may print; recursion stays on the thread that runs the program.
                | Stmt::Call { .. }
        ) || crate::loops::ir::statement_expressions(statement)
            .iter()
            .any(|expr| expr.draws_random_numbers());
    });
    found
}

/// The mutable variables the body assigns but does not declare.
fn mutables_assigned_outside_declaration(body: &[Stmt]) -> Vec<Var> {
    let mut declared = HashSet::new();
    let mut assigned: Vec<Var> = Vec::new();
    crate::loops::ir::for_each_statement(body, &mut |statement| match statement {
        Stmt::Mutable { var, .. } => {
            declared.insert(var.id);
        }
        Stmt::Assign { var, .. } if !assigned.contains(var) => assigned.push(var.clone()),
        _ => {}
    });
    assigned.retain(|var| !declared.contains(&var.id));
    assigned
}

/// Every block the body frees it allocated, and every block it allocates it frees (in the same list).
fn frees_only_its_own_blocks(body: &[Stmt]) -> bool {
    let mut allocated = HashSet::new();
    let mut freed = HashSet::new();
    crate::loops::ir::for_each_statement(body, &mut |statement| match statement {
        Stmt::Alloc { block, .. } => {
            allocated.insert(block.id);
        }
        Stmt::Free { block } => {
            freed.insert(block.id);
        }
        _ => {}
    });
    allocated == freed
}

// ---- Cursors ----

struct CursorSubstitution {
    before: Vec<Stmt>,
    after: Vec<Stmt>,
}

/// Replaces a cursor `p` (declared before the loop, advanced by `p := p + c` in the innermost of a perfect chain of
/// counted loops inside the body, after every other statement of that list that mentions `p`, with a step `c` the
/// loop does not change, and read only in that innermost body) by its closed form: `let p0 = p` before the loop,
/// `let q = p0 + i·T + Σ j_k·T_k` at the top of the innermost body (where `T_k` is `c` times the number of increments
/// per iteration of loop k), and `p := p0 + max(n, 0)·T` after the loop. The chain may be empty: `p := p + 26` in
/// the body itself (a row cursor). `None` when the cursor does not have that form.
fn substitute_cursor(
    cursor: &Var,
    index: &Var,
    count: &Expr,
    body: &mut Vec<Stmt>,
    next_id: &mut u32,
) -> Option<CursorSubstitution> {
    let (chain, path, step, increment_position) = loop_chain_to_increment(cursor, body)?;
    if !step_is_invariant(&step, index, body) {
        return None;
    }
    let mut fresh = |hint: &str| {
        *next_id += 1;
        Var {
            id: *next_id,
            ty: cursor.ty,
            hint: hint.into(),
        }
    };
    let start = fresh("p0_");
    let closed_form = fresh("q");
    // Advance per iteration of the loop at each level, innermost last: T_k = n_{k+1} × … × n_last × c.
    let mut counts: Vec<Expr> = chain.iter().map(|(_, count)| count.clone()).collect();
    counts.push(step);
    let per_iteration = Expr::product(&counts);
    let mut position = Expr::add_int(
        Expr::var(&start),
        Expr::mul_int(Expr::var(index), per_iteration.clone()),
    );
    for (level, (loop_index, _)) in chain.iter().enumerate() {
        let stride = Expr::product(&counts[level + 1..]);
        position = Expr::add_int(position, Expr::mul_int(Expr::var(loop_index), stride));
    }
    let innermost = innermost_body_mut(body, &path)?;
    innermost.remove(increment_position);
    let replacement = Expr::var(&closed_form);
    crate::loops::rewrite::rewrite_exprs(innermost, &mut |expr| {
        if matches!(expr, Expr::Var(var) if var == cursor) {
            *expr = replacement.clone();
        }
    });
    innermost.insert(
        0,
        Stmt::Let {
            var: closed_form,
            value: position,
        },
    );
    let total = Expr::mul_int(Expr::max(count.clone(), Expr::Int(0)), per_iteration);
    Some(CursorSubstitution {
        before: vec![Stmt::Let {
            var: start.clone(),
            value: Expr::var(cursor),
        }],
        after: vec![Stmt::Assign {
            var: cursor.clone(),
            value: Expr::add_int(Expr::var(&start), total),
        }],
    })
}

/// The chain of loops (index, count) from the body down to the list whose last statement mentioning the cursor is
/// `p := p + c`, with the positions of those loops in their lists, the step `c` and the increment's position in its
/// list; the cursor must occur nowhere but in that list, and the counts must not depend on the chain's own indices.
#[allow(clippy::type_complexity)]
fn loop_chain_to_increment(cursor: &Var, body: &[Stmt]) -> Option<(Vec<(Var, Expr)>, Vec<usize>, Expr, usize)> {
    let mut chain: Vec<(Var, Expr)> = Vec::new();
    let mut path = Vec::new();
    let mut list = body;
    loop {
        let last_mention = list
            .iter()
            .rposition(|statement| statement_mentions_var(statement, cursor))?;
        if let Some(step) = increment_step(&list[last_mention], cursor) {
            // Reads before the increment see the closed form; another assignment would break it.
            let assigned_elsewhere = list[..last_mention]
                .iter()
                .any(|statement| statement_assigns(statement, cursor));
            let step_reads_chain = chain.iter().any(|(index, _)| expr_mentions_var(&step, index));
            return if assigned_elsewhere || step_reads_chain {
                None
            } else {
                Some((chain, path, step, last_mention))
            };
        }
        // Otherwise exactly one statement of the list mentions the cursor, and it is a counted loop.
        let mut mentioning = list
            .iter()
            .enumerate()
            .filter(|(_, statement)| statement_mentions_var(statement, cursor));
        let Some((position, Stmt::For { index, count, body })) = mentioning.next() else {
            return None;
        };
        if mentioning.next().is_some() || chain.iter().any(|(outer, _)| expr_mentions_var(count, outer)) {
            return None;
        }
        chain.push((index.clone(), count.clone()));
        path.push(position);
        list = body;
    }
}

/// The body of the loop reached by following `path` (positions of loops in successive lists).
fn innermost_body_mut<'b>(body: &'b mut Vec<Stmt>, path: &[usize]) -> Option<&'b mut Vec<Stmt>> {
    match path.split_first() {
        None => Some(body),
        Some((position, rest)) => match body.get_mut(*position)? {
            Stmt::For { body, .. } => innermost_body_mut(body, rest),
            _ => None,
        },
    }
}

/// `c` when the statement is `p := p + c` (or `c + p`) for the cursor `p`, with a `c` that does not read `p`.
fn increment_step(statement: &Stmt, cursor: &Var) -> Option<Expr> {
    let Stmt::Assign { var, value } = statement else {
        return None;
    };
    let Expr::Prim(Op::AddW, args) = value else {
        return None;
    };
    let step = match args.as_slice() {
        [Expr::Var(v), step] | [step, Expr::Var(v)] if v == cursor => step,
        _ => return None,
    };
    (var == cursor && !expr_mentions_var(step, cursor)).then(|| step.clone())
}

/// Whether the step of a cursor reads only values fixed before the loop: not its index nor anything the body defines.
fn step_is_invariant(step: &Expr, index: &Var, body: &[Stmt]) -> bool {
    let mut defined = crate::loops::ir::variables_defined_in(body);
    defined.insert(index.id);
    crate::loops::ir::reads_only_outside(step, &defined)
}

fn statement_assigns(statement: &Stmt, var: &Var) -> bool {
    let mut found = false;
    crate::loops::ir::for_each_statement(std::slice::from_ref(statement), &mut |s| {
        found |= matches!(s, Stmt::Assign { var: assigned, .. } if assigned == var);
    });
    found
}

fn statement_mentions_var(statement: &Stmt, var: &Var) -> bool {
    statement_assigns(statement, var) || nested_mentions_var(statement, var)
}

/// Whether any expression of the statement or of the statements nested in it reads the variable.
fn nested_mentions_var(statement: &Stmt, var: &Var) -> bool {
    let mut found = false;
    crate::loops::ir::for_each_statement(std::slice::from_ref(statement), &mut |s| {
        found |= crate::loops::ir::statement_expressions(s)
            .iter()
            .any(|expr| expr_mentions_var(expr, var));
    });
    found
}

fn expr_mentions_var(expr: &Expr, var: &Var) -> bool {
    super::index_simplify::mentions(expr, var)
}

// ---- Affine positions ----

/// Every `let` of the statements, nested ones included (variable ids are unique in a program).
fn collect_definitions(statements: &[Stmt], definitions: &mut HashMap<u32, Expr>) {
    crate::loops::ir::for_each_statement(statements, &mut |statement| {
        if let Stmt::Let { var, value } = statement {
            definitions.insert(var.id, value.clone());
        }
    });
}

/// The indices and counts of the loops inside a body, by index id.
fn inner_loops(body: &[Stmt]) -> HashMap<u32, (Var, Expr)> {
    let mut loops = HashMap::new();
    crate::loops::ir::for_each_statement(body, &mut |statement| match statement {
        Stmt::For { index, count, .. }
        | Stmt::ParallelFor { index, count, .. }
        | Stmt::ParallelReduce { index, count, .. } => {
            loops.insert(index.id, (index.clone(), count.clone()));
        }
        _ => {}
    });
    loops
}

enum Access<'a> {
    Store(Block, &'a Expr),
    Load(Block, &'a Expr),
}

fn for_each_access<'a>(body: &'a [Stmt], visit: &mut dyn FnMut(Access<'a>)) {
    for statement in body {
        if let Stmt::Store { block, index, .. } = statement {
            visit(Access::Store(*block, index));
        }
        for expr in crate::loops::ir::statement_expressions(statement) {
            crate::loops::ir::for_each_load(expr, &mut |block, index| visit(Access::Load(block, index)));
        }
        for list in statement.nested_lists() {
            for_each_access(list, visit);
        }
    }
}

/// Index expressions as polynomials over the parallel index, the inner loop indices and opaque invariants.
struct AffineForm<'a> {
    index: &'a Var,
    /// The loop's count: the body runs only when it is positive, so there `maxi(count, 0)` is `count`.
    count: &'a Expr,
    loops: &'a HashMap<u32, (Var, Expr)>,
    definitions: &'a HashMap<u32, Expr>,
    /// The floor quotients `x / c` of the body whose dividend is one invariant `x`, by `x`'s name: `x` is
    /// `c·q + ρ` with `q` the quotient and `ρ` its remainder (both opaque variables, never negative as `x` is not),
    /// and [`AffineForm::term`] writes `x` so. That is what proves that `c·q ≤ x`: a register tile's columns
    /// (`passes/register_tiles.rs`) run in whole tiles up to `c·(n / c)` and one by one from there to `n`.
    quotients: HashMap<String, Term>,
}

impl AffineForm<'_> {
    /// The quotients of [`AffineForm::quotients`] in the body's expressions (and the definitions they read): the
    /// first divisor of each dividend (another divisor of the same dividend stays an opaque variable).
    fn quotients_of(&self, body: &[Stmt]) -> HashMap<String, Term> {
        let mut quotients = HashMap::new();
        let mut visit = |expr: &Expr| {
            crate::loops::rewrite::for_each_subexpression(expr, &mut |node| {
                let Expr::Prim(Op::DivI, args) = node else {
                    return;
                };
                let [dividend, Expr::Int(divisor)] = args.as_slice() else {
                    return;
                };
                let Some(name) = self.term(dividend).and_then(|term| term.as_single_variable()) else {
                    return;
                };
                if *divisor <= 0 || quotients.contains_key(&name) || self.loop_or_index_named(&name) {
                    return;
                }
                let quotient = Term::variable(&format!("({})", print_expr(node)));
                let remainder = Term::variable(&format!("({} % {divisor})", print_expr(dividend)));
                quotients.insert(name, &(&quotient * &Term::constant(*divisor)) + &remainder);
            });
        };
        crate::loops::ir::for_each_statement(body, &mut |statement| {
            crate::loops::ir::statement_expressions(statement)
                .into_iter()
                .for_each(&mut visit);
        });
        self.definitions.values().for_each(&mut visit);
        quotients
    }

    fn loop_or_index_named(&self, name: &str) -> bool {
        Self::variable_name(self.index) == name || self.loops.values().any(|(var, _)| Self::variable_name(var) == name)
    }

    fn variable_name(var: &Var) -> String {
        var.name()
    }

    /// The expression as a term, let-bound variables looked through; an opaque subexpression (division, select,
    /// load, ...) becomes a variable of its own when it depends on no loop index, else there is no term.
    fn term(&self, expr: &Expr) -> Option<Term> {
        let term = self.term_at_depth(expr, DEFINITION_DEPTH)?;
        Some(
            self.quotients
                .iter()
                .fold(term, |term, (name, expanded)| term.substitute(name, expanded)),
        )
    }

    fn term_at_depth(&self, expr: &Expr, depth: usize) -> Option<Term> {
        match expr {
            Expr::Int(n) => Some(Term::constant(*n)),
            Expr::Var(var) => {
                if var == self.index || self.loops.contains_key(&var.id) {
                    return Some(Term::variable(&Self::variable_name(var)));
                }
                match self.definitions.get(&var.id) {
                    Some(definition) if depth > 0 => self.term_at_depth(definition, depth - 1),
                    _ if self.depends_on_loop_index(expr, DEFINITION_DEPTH) => None,
                    _ => Some(Term::variable(&Self::variable_name(var))),
                }
            }
            Expr::Prim(Op::AddW, args) => self
                .term_at_depth(&args[0], depth)?
                .checked_add(&self.term_at_depth(&args[1], depth)?),
            Expr::Prim(Op::SubW, args) => self
                .term_at_depth(&args[0], depth)?
                .checked_sub(&self.term_at_depth(&args[1], depth)?),
            Expr::Prim(Op::MulW, args) => self
                .term_at_depth(&args[0], depth)?
                .checked_mul(&self.term_at_depth(&args[1], depth)?),
            Expr::Prim(Op::NegW, args) => self.term_at_depth(&args[0], depth)?.checked_scale(-1),
            Expr::Prim(Op::MaxI, args) => self.term_of_clamped_at_zero(args, depth),
            _ if self.depends_on_loop_index(expr, DEFINITION_DEPTH) => None,
            _ => Some(Term::variable(&format!("({})", print_expr(expr)))),
        }
    }

    /// The term of `maxi(x, 0)` (or `maxi(0, x)`): `x`'s, when the algebra's bounds (sizes and the variables they
    /// are made of are never negative, `VariableBounds::all_non_negative`) prove `x ≥ 0`. A cursor that advances by a
    /// whole row per iteration advances by `maxi(n, 0)`, lowering's count of a loop that may not run. The loop's own
    /// count is never negative where its body runs.
    fn term_of_clamped_at_zero(&self, args: &[Expr], depth: usize) -> Option<Term> {
        let ([value, Expr::Int(0)] | [Expr::Int(0), value]) = args else {
            return self.opaque_term(&Expr::Prim(Op::MaxI, args.to_vec()));
        };
        if value == self.count {
            return self.term_at_depth(value, depth);
        }
        match self.term_at_depth(value, depth) {
            Some(term) if VariableBounds::all_non_negative().is_provably_non_negative(&term) => Some(term),
            _ => self.opaque_term(&Expr::Prim(Op::MaxI, args.to_vec())),
        }
    }

    /// An expression the algebra cannot look into, as one variable (`None` when it depends on a loop index).
    fn opaque_term(&self, expr: &Expr) -> Option<Term> {
        if self.depends_on_loop_index(expr, DEFINITION_DEPTH) {
            return None;
        }
        Some(Term::variable(&format!("({})", print_expr(expr))))
    }

    /// Whether the expression reads a loop index or a variable defined inside the body other than by a `let` (a
    /// mutable, a reduction's result), looking through lets.
    fn depends_on_loop_index(&self, expr: &Expr, depth: usize) -> bool {
        match expr {
            Expr::Var(var) => {
                var == self.index
                    || self.loops.contains_key(&var.id)
                    || match self.definitions.get(&var.id) {
                        Some(definition) => depth == 0 || self.depends_on_loop_index(definition, depth - 1),
                        None => false,
                    }
            }
            Expr::Prim(_, args) => args.iter().any(|arg| self.depends_on_loop_index(arg, depth)),
            Expr::Load { index, .. } => self.depends_on_loop_index(index, depth),
            Expr::Select(c, a, b) => [c, a, b].iter().any(|e| self.depends_on_loop_index(e, depth)),
            Expr::At(_, inner) | Expr::Threshold { value: inner, .. } => self.depends_on_loop_index(inner, depth),
            _ => false,
        }
    }

    /// The positions one iteration stores to, as `(offset, coefficient of the parallel index, span)`: the
    /// iteration's positions lie in `offset + coefficient·i + [0, span)` (for a non-negative coefficient part of
    /// every inner index).
    fn iteration_extent(&self, position: &Expr) -> Option<(Term, Term, Term)> {
        let (offset, coefficient, inner) = self.iteration_terms(position)?;
        let bounds = VariableBounds::all_non_negative();
        let mut span = Term::one();
        for (stride, count) in &inner {
            let magnitude = if bounds.is_provably_non_negative(stride) {
                stride.clone()
            } else if bounds.is_provably_non_positive(stride) {
                stride.checked_scale(-1)?
            } else {
                return None;
            };
            span = span.checked_add(&magnitude.checked_mul(&count.checked_sub(&Term::one())?)?)?;
        }
        Some((offset, coefficient, span))
    }

    /// A position as `offset + coefficient·i + Σ stride·l` over the parallel index i and the inner loops' indices l:
    /// the offset, the coefficient and each inner loop's `(stride, count)`, none of them depending on a loop index.
    fn iteration_terms(&self, position: &Expr) -> Option<(Term, Term, InnerStrides)> {
        let term = self.term(position)?;
        let index_name = Self::variable_name(self.index);
        let mut coefficient = Term::zero();
        let mut offset = Term::zero();
        // Ordered by name, so that two positions of the same form give the same list of strides.
        let mut inner: BTreeMap<String, Term> = BTreeMap::new();
        let loop_names: HashMap<String, &Expr> = self
            .loops
            .values()
            .map(|(var, count)| (Self::variable_name(var), count))
            .collect();
        for (monomial, factor) in term.monomials() {
            let indices: Vec<&String> = monomial
                .iter()
                .filter(|name| **name == index_name || loop_names.contains_key(*name))
                .collect();
            let rest: Vec<String> = monomial
                .iter()
                .filter(|name| **name != index_name && !loop_names.contains_key(*name))
                .cloned()
                .collect();
            let rest_term = rest
                .iter()
                .fold(Term::constant(factor), |product, name| &product * &Term::variable(name));
            match indices.as_slice() {
                [] => offset = offset.checked_add(&rest_term)?,
                [name] if **name == index_name => coefficient = coefficient.checked_add(&rest_term)?,
                [name] => {
                    let entry = inner.entry((*name).clone()).or_insert_with(Term::zero);
                    *entry = entry.checked_add(&rest_term)?;
                }
                _ => return None,
            }
        }
        let mut strides = Vec::new();
        for (name, stride) in inner {
            let count_expr = loop_names.get(&name)?;
            let reads_an_index = |count: &Term| {
                count.variables().contains(&index_name) || loop_names.keys().any(|l| count.variables().contains(l))
            };
            // The count itself where it is the same in every iteration, else a constant bound of it.
            let count = match self.term(count_expr) {
                Some(count) if !reads_an_index(&count) => count,
                _ => Term::constant(self.constant_bound_of_count(count_expr, DEFINITION_DEPTH)?),
            };
            strides.push((stride, count));
        }
        Some((offset, coefficient, strides))
    }

    /// A constant upper bound of an inner loop's count `mini(K, e)` (or `mini(e, K)`) with a constant K ≥ 0, let-bound
    /// variables looked through: a chunk's length `mini(4096, n - c·4096)` in a scan's phase 3 (`crate::lower`'s
    /// `scan.rs`), which depends on the parallel index and so has no term of its own. Only an upper bound of the
    /// count matters to the span of an iteration's positions, which grows with it; the strides of interleaved strips
    /// do not involve counts.
    fn constant_bound_of_count(&self, count: &Expr, depth: usize) -> Option<i64> {
        match count {
            Expr::Var(var) if depth > 0 => self
                .definitions
                .get(&var.id)
                .and_then(|definition| self.constant_bound_of_count(definition, depth - 1)),
            Expr::Prim(Op::MinI, args) => args.iter().filter_map(Expr::as_int).filter(|k| *k >= 0).min(),
            _ => None,
        }
    }

    /// Whether the union of the positions of every store in `positions` for iteration i is disjoint from the union
    /// for any other iteration: each iteration's positions lie in a range of their own (a row), or are a residue
    /// class of their own (interleaved strips).
    fn positions_are_disjoint_across_iterations(&self, positions: &[Expr]) -> bool {
        self.positions_lie_in_disjoint_ranges(positions) || self.positions_are_interleaved(positions)
    }

    /// The interleaved strips of a work-item (`step_interchange::DEVICE_STRIPS`): every store at the same position
    /// `offset + i + l·n`, over a parallel index i < n and inner indices l whose stride is n. Two iterations' positions
    /// differ by their difference, which is not a multiple of n (it is less than n), plus a multiple of n.
    fn positions_are_interleaved(&self, positions: &[Expr]) -> bool {
        let Some(terms) = positions
            .iter()
            .map(|position| self.iteration_terms(position))
            .collect::<Option<Vec<_>>>()
        else {
            return false;
        };
        let Some(count) = self.term(self.count) else {
            return false;
        };
        let (_, coefficient, inner) = &terms[0];
        terms.iter().all(|other| other == &terms[0])
            && *coefficient == Term::one()
            && !inner.is_empty()
            && inner.iter().all(|(stride, _)| *stride == count)
    }

    fn positions_lie_in_disjoint_ranges(&self, positions: &[Expr]) -> bool {
        let Some(extents) = positions
            .iter()
            .map(|position| self.iteration_extent(position))
            .collect::<Option<Vec<_>>>()
        else {
            return false;
        };
        let bounds = VariableBounds::all_non_negative();
        let (first_offset, coefficient, _) = &extents[0];
        let stride = if bounds.is_provably_non_negative(coefficient) {
            coefficient.clone()
        } else if let Some(negated) = coefficient.checked_scale(-1) {
            negated
        } else {
            return false;
        };
        // Every offset's shift from the first, then the lowest offset: one provably at most every other (a
        // constant shift, or one such as `r·n + w` in a register tile's rows, which is never negative).
        let Some(shifts) = extents
            .iter()
            .map(|(offset, c, _)| {
                if c != coefficient {
                    return None;
                }
                offset.checked_sub(first_offset)
            })
            .collect::<Option<Vec<Term>>>()
        else {
            return false;
        };
        let Some(lowest) = shifts
            .iter()
            .find(|candidate| shifts.iter().all(|shift| bounds.is_provably_at_most(candidate, shift)))
        else {
            return false;
        };
        extents.iter().zip(&shifts).all(|((_, _, span), shift)| {
            let reach = shift.checked_sub(lowest).and_then(|above| span.checked_add(&above));
            reach.is_some_and(|reach| bounds.is_provably_at_most(&reach, &stride))
        })
    }
}

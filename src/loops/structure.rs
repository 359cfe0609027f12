//! Structure counts of a loop program, the numbers the corpus's `⍝# STAGE COUNTER N` lines check
//! (apl-tests/README.md): how many allocations (and how many of them inside loops, and of narrow int blocks), loops,
//! frees and copies a program has. They are counted in the program text (statically), not over a run: an allocation
//! inside a loop counts once.
//!
//! A *copy* is a loop nest whose only work is moving elements unchanged from one block into another: a `for` whose
//! body is `let`s and `:=`s of index arithmetic (no loads, no possible error, see
//! [`super::rewrite::is_safe_pure`]) around exactly one item, which is either one `store dst[i] = src[j]` with `src`
//! a different block than `dst` and `j` free of loads, or one `for` that is itself such a nest. A whole nest counts as
//! one copy. A broadcast (`store dst[i] = src[0]`) is a copy too; a loop that computes anything on the way is not.

use super::ir::{for_each_statement, statement_expressions, Expr, Program, Stmt, Storage};
use super::rewrite::is_safe_pure;

/// The counts of one program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StructureCounts {
    /// `alloc` statements, and `format` and file-reading statements (the runtime allocates their result).
    pub allocations: usize,
    /// The allocations inside the body of a `for` or `while` loop (at any depth).
    pub allocations_in_loops: usize,
    /// Loops of every kind: `for`, `while`, `parfor` and `reduce`.
    pub loops: usize,
    /// `for` and `while` statements outside every parallel construct (a loop inside one runs sequentially within
    /// each of its iterations or chunks, which is not a loss of parallelism).
    pub sequential_loops: usize,
    /// `parfor` statements.
    pub parallel_maps: usize,
    /// `reduce` statements.
    pub parallel_reductions: usize,
    /// Copy loop nests, as defined above.
    pub copies: usize,
    /// Innermost loops (loops with no loop inside) whose body has no select and no `if`: the interior pieces that
    /// index-space splitting leaves of a stencil, among others.
    pub select_free_innermost_loops: usize,
    pub frees: usize,
    /// Choices between the versions of a loop (`if reached(outer_i, n) { parfor … } else { for … }`, see
    /// `parameters.rs`); the loops of both versions count above.
    pub versions: usize,
    /// `for` loops whose body updates at least [`MANY_ACCUMULATORS`] accumulators (`acc := f(…, acc)` at its top
    /// level): the walks along k of register tiles (`passes/register_tiles.rs`), which keep a block of a matrix
    /// product's results in registers.
    pub register_tiles: usize,
    /// `alloc`s of narrow int blocks (`int8`, `int16`, `int32`: `passes/narrow_storage.rs`).
    pub narrow_blocks: usize,
}

/// How many accumulators make a loop a register tile's walk for [`StructureCounts::register_tiles`].
pub const MANY_ACCUMULATORS: usize = 16;

/// The counter names of `⍝#` lines, in the order the dumps list them.
pub const COUNTER_NAMES: &[&str] = &[
    "allocs",
    "allocs-in-loops",
    "loops",
    "copies",
    "frees",
    "sequential-loops",
    "parallel-maps",
    "parallel-reductions",
    "select-free-innermost-loops",
    "versions",
    "register-tiles",
    "narrow-blocks",
];

impl StructureCounts {
    /// The value of a counter by its `⍝#` name (`None` for an unknown name).
    pub fn counter(&self, name: &str) -> Option<usize> {
        match name {
            "allocs" => Some(self.allocations),
            "allocs-in-loops" => Some(self.allocations_in_loops),
            "loops" => Some(self.loops),
            "copies" => Some(self.copies),
            "frees" => Some(self.frees),
            "sequential-loops" => Some(self.sequential_loops),
            "parallel-maps" => Some(self.parallel_maps),
            "parallel-reductions" => Some(self.parallel_reductions),
            "select-free-innermost-loops" => Some(self.select_free_innermost_loops),
            "versions" => Some(self.versions),
            "register-tiles" => Some(self.register_tiles),
            "narrow-blocks" => Some(self.narrow_blocks),
            _ => None,
        }
    }

    /// `allocs 2, allocs-in-loops 0, loops 3, copies 0, frees 2`.
    pub fn summary(&self) -> String {
        COUNTER_NAMES
            .iter()
            .map(|name| format!("{name} {}", self.counter(name).unwrap_or_default()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

pub fn structure_counts(program: &Program) -> StructureCounts {
    let mut counts = StructureCounts::default();
    count_statements(&program.body, 0, false, &mut counts);
    counts.copies = count_copies(&program.body);
    for_each_statement(&program.body, &mut |statement| {
        if let Some(body) = statement.nested_lists().first().filter(|_| statement.is_loop()) {
            let element_free = match statement {
                Stmt::ParallelReduce { element, .. } => !contains_select(element),
                _ => true,
            };
            counts.select_free_innermost_loops += usize::from(element_free && is_select_free_innermost_body(body));
        }
        if let Stmt::For { body, .. } = statement {
            counts.register_tiles += usize::from(accumulators_updated_in(body) >= MANY_ACCUMULATORS);
        }
    });
    counts
}

/// The assignments `v := e` at the top level of a loop body whose `e` reads `v`.
fn accumulators_updated_in(body: &[Stmt]) -> usize {
    body.iter()
        .filter(|statement| match statement {
            Stmt::Assign { var, value } => {
                let mut read = std::collections::HashSet::new();
                super::rewrite::variables_of(value, &mut read);
                read.contains(&var.id)
            }
            _ => false,
        })
        .count()
}

/// Whether a loop body has no loop, no `if` and no select, at any depth.
fn is_select_free_innermost_body(body: &[Stmt]) -> bool {
    let mut free = true;
    for_each_statement(body, &mut |statement| {
        free &= !statement.is_loop() && !matches!(statement, Stmt::If { .. });
        for expr in statement_expressions(statement) {
            free &= !contains_select(expr);
        }
    });
    free
}

fn contains_select(expr: &Expr) -> bool {
    match expr {
        Expr::Select(..) => true,
        Expr::Prim(_, arguments) => arguments.iter().any(contains_select),
        Expr::Load { index, .. } => contains_select(index),
        Expr::At(_, inner) | Expr::Threshold { value: inner, .. } => contains_select(inner),
        Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) | Expr::Var(_) => false,
    }
}

fn count_statements(statements: &[Stmt], loop_depth: usize, inside_parallel: bool, counts: &mut StructureCounts) {
    for statement in statements {
        match statement {
            Stmt::Alloc { .. } | Stmt::Format { .. } | Stmt::ReadFile { .. } => {
                if let Stmt::Alloc { block, .. } = statement {
                    counts.narrow_blocks += usize::from(block.storage != Storage::Natural);
                }
                counts.allocations += 1;
                if loop_depth > 0 {
                    counts.allocations_in_loops += 1;
                }
            }
            Stmt::Free { .. } => counts.frees += 1,
            Stmt::For { body, .. } | Stmt::While { body, .. } => {
                counts.loops += 1;
                counts.sequential_loops += usize::from(!inside_parallel);
                count_statements(body, loop_depth + 1, inside_parallel, counts);
            }
            Stmt::ParallelFor { body, .. } => {
                counts.loops += 1;
                counts.parallel_maps += 1;
                count_statements(body, loop_depth + 1, true, counts);
            }
            Stmt::ParallelReduce { body, .. } => {
                counts.loops += 1;
                counts.parallel_reductions += 1;
                count_statements(body, loop_depth + 1, true, counts);
            }
            Stmt::If {
                condition,
                then,
                otherwise,
            } => {
                counts.versions += usize::from(matches!(condition, Expr::Threshold { .. }));
                count_statements(then, loop_depth, inside_parallel, counts);
                count_statements(otherwise, loop_depth, inside_parallel, counts);
            }
            _ => {}
        }
    }
}

/// Copy nests, each counted once at its outermost loop.
fn count_copies(statements: &[Stmt]) -> usize {
    statements
        .iter()
        .map(|statement| match statement {
            Stmt::For { body, .. } | Stmt::ParallelFor { body, .. } if is_copy_body(body) => 1,
            Stmt::For { body, .. }
            | Stmt::While { body, .. }
            | Stmt::ParallelFor { body, .. }
            | Stmt::ParallelReduce { body, .. } => count_copies(body),
            Stmt::If { then, otherwise, .. } => count_copies(then) + count_copies(otherwise),
            _ => 0,
        })
        .sum()
}

/// Whether a `for` body is a copy body: index arithmetic around exactly one element move or one nested copy loop.
pub fn is_copy_body(body: &[Stmt]) -> bool {
    let mut work = body.iter().filter(|statement| !is_index_arithmetic(statement));
    match (work.next(), work.next()) {
        (
            Some(Stmt::Store {
                block,
                index,
                value:
                    Expr::Load {
                        block: source,
                        index: source_index,
                    },
            }),
            None,
        ) => source != block && is_safe_pure(index) && is_safe_pure(source_index),
        (Some(Stmt::For { body, .. } | Stmt::ParallelFor { body, .. }), None) => is_copy_body(body),
        _ => false,
    }
}

fn is_index_arithmetic(statement: &Stmt) -> bool {
    match statement {
        Stmt::Let { value, .. } | Stmt::Mutable { value, .. } | Stmt::Assign { value, .. } => is_safe_pure(value),
        _ => false,
    }
}

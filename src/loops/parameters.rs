//! The named parameters of a compiled program: values that change how fast it runs, never what it prints, and that
//! can be set at run time (`APLC_PARAM_<name>=value`) without compiling again. Today each outermost parallel
//! construct has one, its threshold: below that much work (iterations times the estimated cost of one, see
//! [`construct_work`]) it runs on one thread, because starting the pool costs more than it saves. A construct whose
//! work is known at compile time to be below the default threshold (a `parfor` over 26 elements) has none: backends
//! run it sequentially without asking the run-time library. The parameters are what an autotuner would search
//! (`aplc dump --stage params` lists them).
//!
//! The work estimate is the iteration count times the cost of one iteration: each statement costs 1, and a loop in
//! the body costs its count times its body when the count is known before the construct starts (16 times its body
//! when not).

use super::ir::{self, Expr, Program, Stmt};
use std::collections::HashSet;

/// The default threshold: about 30 microseconds of simple work per construct, well above what waking the pool's
/// workers costs.
pub const DEFAULT_PARALLEL_THRESHOLD: i64 = 1 << 15;

/// One parameter of a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parameter {
    pub name: String,
    pub default: i64,
    pub description: String,
}

/// The name of the threshold of the parallel construct whose index variable is printed as `index_name`.
pub fn threshold_name(index_name: &str) -> String {
    format!("threshold_{index_name}")
}

/// Every parameter of the program, in program order.
pub fn program_parameters(program: &Program) -> Vec<Parameter> {
    let mut parameters = Vec::new();
    collect_outermost_parallel_constructs(&program.body, &mut parameters);
    parameters
}

fn collect_outermost_parallel_constructs(statements: &[Stmt], parameters: &mut Vec<Parameter>) {
    for statement in statements {
        match statement {
            Stmt::ParallelFor { .. } | Stmt::ParallelReduce { .. } if is_always_sequential(statement) => {}
            Stmt::ParallelFor { index, .. } => parameters.push(Parameter {
                name: threshold_name(&index.name()),
                default: DEFAULT_PARALLEL_THRESHOLD,
                description: format!("parfor {}: least work to run it on every thread", index.name()),
            }),
            Stmt::ParallelReduce { index, result, .. } => parameters.push(Parameter {
                name: threshold_name(&index.name()),
                default: DEFAULT_PARALLEL_THRESHOLD,
                description: format!(
                    "reduce {} for {}: least work to run it on every thread",
                    result.name(),
                    index.name()
                ),
            }),
            _ => {
                for list in statement.nested_lists() {
                    collect_outermost_parallel_constructs(list, parameters);
                }
            }
        }
    }
}

/// The text of `aplc dump --stage params`: one `name = default  # description` line per parameter.
pub fn print_parameters(parameters: &[Parameter]) -> String {
    let mut text = String::new();
    for parameter in parameters {
        text.push_str(&format!(
            "{} = {}  # {}\n",
            parameter.name, parameter.default, parameter.description
        ));
    }
    text
}

/// The estimated work of a parallel construct: its count times the cost of one iteration. `None` for other
/// statements.
pub fn construct_work(statement: &Stmt) -> Option<Expr> {
    match statement {
        Stmt::ParallelFor { count, body, .. } => Some(parallel_for_work(count, body)),
        Stmt::ParallelReduce { count, body, .. } => Some(reduce_work(count, body)),
        _ => None,
    }
}

/// The work of `parfor i < count { body }`.
pub fn parallel_for_work(count: &Expr, body: &[Stmt]) -> Expr {
    Expr::mul_int(count.clone(), work_of(body))
}

/// The work of `reduce … for i < count { body }`: an iteration also folds its element.
pub fn reduce_work(count: &Expr, body: &[Stmt]) -> Expr {
    Expr::mul_int(count.clone(), Expr::add_int(work_of(body), Expr::Int(1)))
}

/// Whether the construct's work is known at compile time and below the default threshold: running it on the pool
/// would never pay, so it runs sequentially and has no parameter.
pub fn is_always_sequential(statement: &Stmt) -> bool {
    construct_work(statement).is_some_and(|work| is_below_default_threshold(&work))
}

/// Whether `work` is a compile-time constant below the default threshold. The cut does not depend on the
/// environment: a reduction compiled inline may round its chunks differently from its outlined form (LLVM vectorises
/// the two differently), so which form a program gets must not depend on a tuning variable, only on the program.
pub fn is_below_default_threshold(work: &Expr) -> bool {
    work.as_int().is_some_and(|work| work < DEFAULT_PARALLEL_THRESHOLD)
}

/// How many times its body an inner loop of unknown count is assumed to run, for the work estimate.
const UNKNOWN_LOOP_TRIPS: i64 = 16;

/// The estimated cost of one run of the statements (see the module documentation), as an expression over values
/// known before them.
pub fn work_of(statements: &[Stmt]) -> Expr {
    work_with(statements, &ir::variables_defined_in(statements))
}

fn work_with(statements: &[Stmt], defined: &HashSet<u32>) -> Expr {
    statements.iter().fold(Expr::Int(0), |total, statement| {
        let cost = match statement {
            Stmt::For { count, body, .. }
            | Stmt::ParallelFor { count, body, .. }
            | Stmt::ParallelReduce { count, body, .. } => {
                let trips = if ir::reads_only_outside(count, defined) {
                    count.clone()
                } else {
                    Expr::Int(UNKNOWN_LOOP_TRIPS)
                };
                Expr::mul_int(
                    Expr::max(trips, Expr::Int(0)),
                    Expr::add_int(work_with(body, defined), Expr::Int(1)),
                )
            }
            Stmt::While { body, .. } => Expr::mul_int(Expr::Int(UNKNOWN_LOOP_TRIPS), work_with(body, defined)),
            Stmt::If { then, otherwise, .. } => Expr::add_int(work_with(then, defined), work_with(otherwise, defined)),
            _ => Expr::Int(1),
        };
        Expr::add_int(total, cost)
    })
}

//! The named parameters of a compiled program: values that change how fast it runs, never what it prints, and that
//! can be set at run time (`APLC_PARAM_<name>=value`, or a tuning file that `aplc tune` writes) without compiling
//! again. They are thresholds, compared at run time against a value the program computes; each chooses between two
//! versions of a piece of the program, and together they form a tree (a version may hold further choices):
//! - `threshold_<i>` of each outermost parallel construct: below that much work (iterations times the estimated cost
//!   of one, see [`construct_work`]) it runs on one thread, because starting the pool costs more than it saves. A
//!   construct whose work is known at compile time to be below the default threshold (a `parfor` over 26 elements)
//!   has none: backends run it sequentially without asking the run-time library.
//! - `outer_<i>` of a parallel loop that holds parallel constructs (`reached(outer_i, n)` in the IR, made by
//!   `passes::parallelise`): with at least that many iterations the loop runs in parallel and what is inside
//!   sequentially; with fewer, the iterations run one after another, each inner construct in parallel. This is the
//!   multi-versioning of Futhark's incremental flattening, for the two levels a CPU or a GPU kernel can use.
//! - `offload_<i>` (OpenCL backend only) of a construct a kernel can run, whose work is known only at run time: with
//!   at least that much work it runs on the device, else on the host.
//!
//! `aplc dump --stage params` prints the tree; `aplc tune` searches it.
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

/// The default of an `outer_<i>` threshold on a multicore CPU: a loop of at least this many iterations runs in
/// parallel with the constructs inside it sequential; a shorter one runs sequentially around its inner constructs,
/// each on every thread. A few pieces per thread balance the load of the outer version on a machine of a few cores;
/// with fewer rows than that, the inner version keeps every core busy (but pays a start of the pool per inner
/// construct). `aplc tune` finds the crossing for a machine and a program's sizes.
pub const DEFAULT_OUTER_THRESHOLD: i64 = 16;

/// The default of an `outer_<i>` threshold on an OpenCL device. The inner version launches a kernel per iteration
/// of the loop (per iteration of every sequential loop around the construct: a matrix product's `for i { for k {
/// parfor j } }` is rows × columns launches of some microseconds each), the outer version one kernel of as many
/// work-items as rows. A few hundred work-items already beat hundreds of thousands of launches.
pub const DEFAULT_OUTER_THRESHOLD_ON_DEVICE: i64 = 256;

/// The name of the threshold that chooses between the versions of the loop whose index is printed as `index_name`.
pub fn outer_threshold_name(index_name: &str) -> String {
    format!("outer_{index_name}")
}

/// The default value of the parameter `name`, by its class (the part before the first `_`): for native code on the
/// CPU, or for the host code of the OpenCL backend (`on_device`).
pub fn default_value(name: &str, on_device: bool) -> i64 {
    match name.split('_').next() {
        Some("outer") if on_device => DEFAULT_OUTER_THRESHOLD_ON_DEVICE,
        Some("outer") => DEFAULT_OUTER_THRESHOLD,
        _ => DEFAULT_PARALLEL_THRESHOLD,
    }
}

/// The value that a threshold never reaches: every comparison against it takes the `otherwise` version (the
/// bottom version of the tree, where the autotuner starts).
pub const NEVER_REACHED: i64 = i64::MAX;

/// A node of a program's threshold tree: a parameter compared at run time against a value the program computes
/// (the work of a construct, the iterations of an outer loop), `value >= parameter` choosing the version whose
/// thresholds are `reached`, anything else the version whose thresholds are `otherwise`. Siblings guard
/// different parts of the program. A tuner may assume that once a version wins at some compared value it wins at
/// every larger one (the monotonicity of Munksgaard et al.), so the only settings worth trying for a parameter
/// are the values that were compared against it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThresholdNode {
    pub parameter: Parameter,
    pub reached: Vec<ThresholdNode>,
    pub otherwise: Vec<ThresholdNode>,
}

/// The name of the threshold of the parallel construct whose index variable is printed as `index_name`.
pub fn threshold_name(index_name: &str) -> String {
    format!("threshold_{index_name}")
}

/// The program's threshold tree, in program order: for native code on the CPU, or (`device`, with the OpenCL
/// backend's `--opencl-min-work`) for the host code of the OpenCL backend.
pub fn parameter_tree(program: &Program, device: Option<i64>) -> Vec<ThresholdNode> {
    tree_of(&program.body, device)
}

fn tree_of(statements: &[Stmt], device: Option<i64>) -> Vec<ThresholdNode> {
    let mut nodes = Vec::new();
    for statement in statements {
        match statement {
            Stmt::If {
                condition: Expr::Threshold { name, value },
                then,
                otherwise,
            } => nodes.push(ThresholdNode {
                parameter: Parameter {
                    name: name.clone(),
                    default: default_value(name, device.is_some()),
                    description: format!(
                        "for {} iterations: the loop in parallel when they reach this, else the constructs inside it",
                        crate::loops::printer::print_expr(value)
                    ),
                },
                reached: tree_of(then, device),
                otherwise: tree_of(otherwise, device),
            }),
            Stmt::ParallelFor { .. } | Stmt::ParallelReduce { .. } if is_always_sequential(statement) => {}
            Stmt::ParallelFor { .. } | Stmt::ParallelReduce { .. } => nodes.push(construct_node(statement, device)),
            _ => {
                for list in statement.nested_lists() {
                    nodes.extend(tree_of(list, device));
                }
            }
        }
    }
    nodes
}

/// The threshold of an outermost parallel construct; on the OpenCL backend, under the choice of the device when its
/// work is known only at run time (then the host may also run it).
fn construct_node(statement: &Stmt, device: Option<i64>) -> ThresholdNode {
    let on_threads = ThresholdNode {
        parameter: construct_parameter(statement),
        reached: Vec::new(),
        otherwise: Vec::new(),
    };
    let work_known = construct_work(statement).is_some_and(|work| work.as_int().is_some());
    match device {
        Some(min_work) if min_work > 0 && !work_known => ThresholdNode {
            parameter: Parameter {
                name: offload_threshold_name(&construct_index(statement).name()),
                default: min_work,
                description: format!(
                    "{}: least work to run it on the OpenCL device",
                    construct_title(statement)
                ),
            },
            reached: Vec::new(),
            otherwise: vec![on_threads],
        },
        _ => on_threads,
    }
}

/// The name of the offload threshold of the construct whose index is printed as `index_name` (OpenCL backend).
pub fn offload_threshold_name(index_name: &str) -> String {
    format!("offload_{index_name}")
}

fn construct_index(statement: &Stmt) -> &ir::Var {
    match statement {
        Stmt::ParallelFor { index, .. } | Stmt::ParallelReduce { index, .. } => index,
        _ => unreachable!("only parallel constructs have thresholds"),
    }
}

fn construct_title(statement: &Stmt) -> String {
    match statement {
        Stmt::ParallelReduce { index, result, .. } => format!("reduce {} for {}", result.name(), index.name()),
        _ => format!("parfor {}", construct_index(statement).name()),
    }
}

fn construct_parameter(statement: &Stmt) -> Parameter {
    Parameter {
        name: threshold_name(&construct_index(statement).name()),
        default: DEFAULT_PARALLEL_THRESHOLD,
        description: format!("{}: least work to run it on every thread", construct_title(statement)),
    }
}

/// The text of `aplc dump --stage params` for a tree: one `name = default  # description` line per parameter, and
/// below a node, indented, the parameters of its versions after `>=:` (the version taken when the value compared
/// reaches the parameter) and `<:` (the other).
pub fn print_parameter_tree(nodes: &[ThresholdNode]) -> String {
    let mut text = String::new();
    print_nodes(nodes, 0, &mut text);
    text
}

fn print_nodes(nodes: &[ThresholdNode], depth: usize, text: &mut String) {
    for node in nodes {
        let parameter = &node.parameter;
        let indent = "  ".repeat(depth);
        text.push_str(&format!(
            "{indent}{} = {}  # {}\n",
            parameter.name, parameter.default, parameter.description
        ));
        for (label, version) in [(">=", &node.reached), ("<", &node.otherwise)] {
            if !version.is_empty() {
                text.push_str(&format!("{indent}  {label}:\n"));
                print_nodes(version, depth + 2, text);
            }
        }
    }
}

/// The estimated work of a parallel construct: its count times the cost of one iteration. `None` for other
/// statements.
pub fn construct_work(statement: &Stmt) -> Option<Expr> {
    match statement {
        Stmt::ParallelFor { index, count, body } => Some(parallel_for_work(index, count, body)),
        Stmt::ParallelReduce { index, count, body, .. } => Some(reduce_work(index, count, body)),
        _ => None,
    }
}

/// The work of `parfor index < count { body }`.
pub fn parallel_for_work(index: &ir::Var, count: &Expr, body: &[Stmt]) -> Expr {
    Expr::mul_int(count.clone(), work_of_iteration(index, body))
}

/// The work of `reduce … for i < count { body }`: an iteration also folds its element.
pub fn reduce_work(index: &ir::Var, count: &Expr, body: &[Stmt]) -> Expr {
    Expr::mul_int(
        count.clone(),
        Expr::add_int(work_of_iteration(index, body), Expr::Int(1)),
    )
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

/// The estimated cost of one iteration of a construct with this index and body: the index is defined inside too (a
/// loop in the body whose count is the index runs an unknown number of times, as far as the construct's start knows).
fn work_of_iteration(index: &ir::Var, body: &[Stmt]) -> Expr {
    let mut defined = ir::variables_defined_in(body);
    defined.insert(index.id);
    work_with(body, &defined)
}

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

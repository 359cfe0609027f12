//! The named parameters of a compiled program: values that change how fast it runs, never what it prints, and that
//! can be set at run time (`APLC_PARAM_<name>=value`) without compiling again. Today each outermost parallel
//! construct has one, its threshold: below that much work (iterations times the estimated cost of one, see
//! `codegen/llvm/translate/parallel.rs`) it runs on one thread, because starting the pool costs more than it saves.
//! They are the parameters an autotuner would search (`aplc dump --stage params` lists them).

use super::ir::{Program, Stmt};

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

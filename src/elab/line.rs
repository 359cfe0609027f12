//! A REPL's elaboration that does not recompute earlier lines: [`Session::elaborate_line`].
//!
//! Every array an earlier line computed stays a let-bound TAIL variable (`v17`) in the session's environment. The
//! caller keeps the values of those variables; a new line's TAIL program mentions the ones it needs as free
//! variables, which the caller binds to its inputs, and returns the values of the variables this line bound that the
//! session still refers to (its outputs: the arrays assigned to names, and those captured by dfns). Before the line
//! is elaborated, each name whose value the caller knows is rebound with the value's actual extents (and a scalar
//! with its value), so that elaboration specialises to them.

use super::env::{Arr, Scalar, Val};
use super::ir::{Base, Expr, Type};
use super::{lower, wrap_entries, ElabError, ElabErrors, Entry, Session};
use crate::source::{SourceFile, Span};
use crate::syntax::ast;
use aplc_runtime::display::PrintSettings;
use std::collections::HashSet;

/// What the caller knows about a variable's value.
#[derive(Clone, Debug)]
pub struct KnownValue {
    pub shape: Vec<usize>,
    /// The value of a scalar (rank 0), so that it is a compile-time constant in later lines.
    pub scalar: Option<Scalar>,
}

/// A line's TAIL program and what it returns.
#[derive(Clone, Debug)]
pub struct ElaboratedLine {
    /// The program: its free variables are variables of earlier lines; its result is the outputs (nothing when
    /// there are none, the value when one, a tuple otherwise).
    pub program: crate::tail::ast::Program,
    /// The variables whose values the program returns, in order, with their types.
    pub outputs: Vec<(String, Base, usize)>,
}

/// The session's state before a line, to undo the line when it fails after elaboration.
pub struct Checkpoint {
    env: super::env::Env,
    globals: super::env::Env,
    print: PrintSettings,
}

/// What a user name denotes, for `)vars` and `)fns`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobalClass {
    Array,
    Function,
}

impl Session {
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            env: self.elaborator.env.clone(),
            globals: self.elaborator.globals.clone(),
            print: self.elaborator.print,
        }
    }

    pub fn restore(&mut self, checkpoint: Checkpoint) {
        let elaborator = &mut self.elaborator;
        elaborator.env = checkpoint.env;
        elaborator.globals = checkpoint.globals;
        elaborator.print = checkpoint.print;
        elaborator.frames[0].clear();
    }

    /// Elaborates a piece whose earlier values the caller keeps (see the module documentation). `known` gives what
    /// the caller knows of a variable of an earlier line. A piece that fails leaves the session as it was.
    pub fn elaborate_line(
        &mut self,
        program: &ast::Program,
        file: &SourceFile,
        known: &dyn Fn(&str) -> Option<KnownValue>,
    ) -> Result<ElaboratedLine, ElabErrors> {
        let checkpoint = self.checkpoint();
        self.elaborator.frames[0].clear();
        self.specialise_to_known_values(known);
        let outcome = self.elaborate_statements(program);
        match outcome {
            Ok(line) => {
                self.elaborator.frames[0].clear();
                self.elaborator.env = compact(&self.elaborator.env, None);
                self.elaborator.globals = self.elaborator.env.clone();
                Ok(line)
            }
            Err(error) => {
                self.restore(checkpoint);
                Err(ElabErrors::new(file, vec![error]))
            }
        }
    }

    fn elaborate_statements(&mut self, program: &ast::Program) -> Result<ElaboratedLine, ElabError> {
        let elaborator = &mut self.elaborator;
        for statement in &program.statements {
            elaborator.top_level_statement(statement)?;
        }
        let referenced = self.referenced_variables();
        let elaborator = &mut self.elaborator;
        let mut outputs = Vec::new();
        for entry in &elaborator.frames[0] {
            match entry {
                Entry::Let(name, Type::Array { base, rank }, _) if referenced.contains(name) => {
                    outputs.push((name.clone(), *base, *rank))
                }
                Entry::Let(name, Type::Tuple(_), _) if referenced.contains(name) => {
                    return Err(ElabError::nonce(
                        Span::default(),
                        format!("the session cannot keep the tuple {name} between lines"),
                    ))
                }
                _ => {}
            }
        }
        let mut results: Vec<Expr> = outputs.iter().map(|(name, _, _)| Expr::Var(name.clone())).collect();
        let result = match results.len() {
            0 => Expr::Int(0),
            1 => results.pop().expect("one output"),
            _ => Expr::Tuple(results),
        };
        let body = wrap_entries(elaborator.frames[0].clone(), result);
        let program = lower::lower_program(&body, &elaborator.functions)
            .map_err(|message| ElabError::nonce(Span::default(), message))?;
        Ok(ElaboratedLine { program, outputs })
    }

    /// Rebinds each name whose value is a known variable with the value's extents (an array) or the value itself
    /// (a scalar), and records what TAIL will know of the known variables the session refers to.
    fn specialise_to_known_values(&mut self, known: &dyn Fn(&str) -> Option<KnownValue>) {
        for name in self.referenced_variables() {
            let Some(value) = known(&name) else { continue };
            match value.shape.len() {
                0 => {
                    self.elaborator.singleton_variables.insert(name);
                }
                1 => {
                    self.elaborator.static_length_variables.insert(name);
                }
                _ => {}
            }
        }
        let elaborator = &mut self.elaborator;
        for (name, value) in elaborator.env.current_bindings() {
            let Val::Array(array) = value else { continue };
            let Expr::Var(variable) = &array.expr else { continue };
            let Some(value) = known(variable) else { continue };
            if value.shape.len() != array.rank {
                continue;
            }
            let specialised = match value.scalar {
                Some(scalar) if scalar.base() == array.base => Arr::scalar_constant(scalar),
                _ => Arr {
                    extents: value.shape.iter().map(|&extent| Some(extent as i64)).collect(),
                    ..array
                },
            };
            elaborator.env = elaborator.env.bind(&name, Val::Array(specialised));
        }
        elaborator.globals = elaborator.env.clone();
    }

    /// The let-bound variables that the session's names refer to (directly, or through dfns' environments).
    pub fn referenced_variables(&self) -> HashSet<String> {
        let mut variables = HashSet::new();
        let mut visited = HashSet::new();
        let mut visit = |array: &Arr| collect_variables(&array.expr, &mut variables);
        self.elaborator.env.visit_reachable_arrays(&mut visited, &mut visit);
        self.elaborator.globals.visit_reachable_arrays(&mut visited, &mut visit);
        variables
    }

    /// The user's names, sorted, with what each denotes.
    pub fn global_names(&self) -> Vec<(String, GlobalClass)> {
        let mut names: Vec<(String, GlobalClass)> = self
            .elaborator
            .env
            .current_bindings()
            .into_iter()
            .filter(|(name, _)| name.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '∆' || c == '⍙'))
            .map(|(name, value)| {
                let class = match value {
                    Val::Array(_) | Val::Tuple(_) | Val::Nested { .. } => GlobalClass::Array,
                    Val::Function(_) | Val::Operator(_) => GlobalClass::Function,
                };
                (name, class)
            })
            .collect();
        names.sort_by(|left, right| left.0.cmp(&right.0));
        names
    }

    /// Forgets a name (dfns that captured it keep their own binding); false when it is not defined.
    pub fn erase(&mut self, name: &str) -> bool {
        if self.elaborator.env.lookup(name).is_none() {
            return false;
        }
        self.elaborator.env = compact(&self.elaborator.env, Some(name));
        self.elaborator.globals = self.elaborator.env.clone();
        true
    }
}

/// The environment without shadowed bindings (and without `erased`), so that values no name refers to any more can
/// be dropped.
fn compact(env: &super::env::Env, erased: Option<&str>) -> super::env::Env {
    env.current_bindings()
        .into_iter()
        .filter(|(name, _)| Some(name.as_str()) != erased)
        .fold(super::env::Env::default(), |compacted, (name, value)| {
            compacted.bind(&name, value)
        })
}

fn collect_variables(expr: &Expr, variables: &mut HashSet<String>) {
    match expr {
        Expr::Var(name) => {
            variables.insert(name.clone());
        }
        Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) | Expr::Complex(..) => {}
        Expr::Vector(elements, _) | Expr::Op(_, elements) | Expr::Tuple(elements) | Expr::Call(_, elements) => elements
            .iter()
            .for_each(|element| collect_variables(element, variables)),
        Expr::Lambda(_, _, body) | Expr::Project(_, body) | Expr::At(_, body) => collect_variables(body, variables),
        Expr::Let(_, _, value, body) | Expr::Sequence(value, body) => {
            collect_variables(value, variables);
            collect_variables(body, variables);
        }
        Expr::If(condition, then, otherwise, _) => {
            collect_variables(condition, variables);
            collect_variables(then, variables);
            collect_variables(otherwise, variables);
        }
    }
}

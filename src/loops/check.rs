//! The loop IR checker: every variable is defined (once) before it is used and assigned only when mutable, types are
//! consistent (operator arguments, loads, stores, conditions, loop counts), and every block is allocated before it is
//! used and freed at most once (never inside a loop nested deeper than its allocation, where it would be freed on
//! every iteration). Run after lowering in the tests.
//!
//! The body of a parallel construct must also keep its iterations independent: it assigns no mutable variable
//! declared outside it, has no effect but stores and APL errors (no print, `⍕`, file, clock, swap or random numbers),
//! and the stores of a parallel map go to positions that are provably distinct for distinct iterations
//! (`parallelise::stores_are_disjoint_across_iterations`, the same proof the pass that makes loops parallel uses).

use super::error::CheckError;
use super::ir::{
    prim_argument_types, prim_result_type, ArrayRef, Block, Expr, Program, ResultValue, ScalarType, Stmt, Storage,
};
use std::collections::{HashMap, HashSet};

pub fn check_program(program: &Program) -> Result<(), CheckError> {
    let mut signatures = HashMap::new();
    for function in &program.functions {
        let parameters = function.parameters.iter().map(slot_kind).collect();
        let result = match &function.result {
            ResultValue::Scalar(value) => Kind::Scalar(value.ty()),
            ResultValue::Array(array) => Kind::Array(array.block.element, array.shape.len()),
            ResultValue::Tuple(_) => return Err(error(format!("function {} returns a tuple", function.name))),
        };
        if signatures.insert(function.name.clone(), (parameters, result)).is_some() {
            return Err(error(format!("function {} defined twice", function.name)));
        }
    }
    // Each function is checked alone (it sees only its parameters), with the ids of the whole program unique.
    let mut defined = HashSet::new();
    for function in &program.functions {
        let mut checker = Checker {
            defined,
            functions: signatures.clone(),
            ..Checker::default()
        };
        checker.scopes.push(HashMap::new());
        for parameter in &function.parameters {
            for var in parameter.variables() {
                checker.define(var, false)?;
            }
            if let Some(block) = parameter.block() {
                // The caller's block: read here, never freed (a free at any depth is refused).
                checker.blocks.insert(block.id, BlockState::Live { depth: usize::MAX });
            }
        }
        checker.statements(&function.body)?;
        checker.result(&function.result)?;
        if let ResultValue::Array(array) = &function.result {
            if function.parameters.iter().any(|slot| slot.block() == Some(array.block)) {
                return Err(error(format!(
                    "function {} returns its parameter's block",
                    function.name
                )));
            }
        }
        defined = checker.defined;
    }
    let mut checker = Checker {
        defined,
        functions: signatures,
        ..Checker::default()
    };
    checker.statements(&program.body)?;
    checker.result(&program.result)
}

#[derive(Clone, Copy, PartialEq)]
enum BlockState {
    /// Allocated at this loop depth.
    Live {
        depth: usize,
    },
    Freed,
}

#[derive(Default)]
struct Checker {
    /// Variables in scope (id to type and mutability), innermost scope last.
    scopes: Vec<HashMap<u32, (ScalarType, bool)>>,
    /// Every variable id ever defined (ids must be unique in the program).
    defined: HashSet<u32>,
    blocks: HashMap<u32, BlockState>,
    /// The storage of each narrow block, from its `alloc` (a block absent here is stored naturally).
    narrow_storage: HashMap<u32, Storage>,
    loop_depth: usize,
    /// Inside the body of a parallel construct: the number of scopes outside it (variables of those scopes may be
    /// read but not assigned).
    parallel_floor: Option<usize>,
    /// The value of every `let` met so far (ids are unique in a program): what the proof that a `parfor`'s stores
    /// are disjoint may look through, as the pass that made it parallel did (a row length `5000 + n` outside the
    /// loop is at least 1).
    definitions: HashMap<u32, Expr>,
    /// The program's functions: parameter kinds and result kind, by name.
    functions: HashMap<String, (Vec<Kind>, Kind)>,
}

/// What a parameter, argument or result of a function is: a scalar type, or an array's element type and rank.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Scalar(ScalarType),
    Array(ScalarType, usize),
}

fn slot_kind(slot: &super::ir::Slot) -> Kind {
    match slot {
        super::ir::Slot::Scalar(var) => Kind::Scalar(var.ty),
        super::ir::Slot::Array { block, shape } => Kind::Array(block.element, shape.len()),
    }
}

fn error(message: impl Into<String>) -> CheckError {
    CheckError {
        message: message.into(),
    }
}

impl Checker {
    fn lookup(&self, id: u32) -> Option<(ScalarType, bool)> {
        self.scopes.iter().rev().find_map(|scope| scope.get(&id).copied())
    }

    /// The position in `scopes` of the scope that defines the variable.
    fn defining_scope(&self, id: u32) -> Option<usize> {
        self.scopes.iter().rposition(|scope| scope.contains_key(&id))
    }

    /// Checks the body of a parallel construct (its index already defined in a fresh scope by the caller).
    fn parallel_body(&mut self, body: &[Stmt]) -> Result<(), CheckError> {
        let outer = self.parallel_floor;
        if outer.is_none() {
            self.parallel_floor = Some(self.scopes.len() - 1);
        }
        let result = self.nested(body, true);
        self.parallel_floor = outer;
        result
    }

    /// An error when the statement is an effect a parallel body may not have.
    fn check_parallel_effects(&self, statement: &Stmt) -> Result<(), CheckError> {
        if self.parallel_floor.is_none() {
            return Ok(());
        }
        let forbidden = match statement {
            Stmt::PrintArray { .. } | Stmt::PrintScalar { .. } => Some("print"),
            Stmt::ReadFile { .. } => Some("read_file"),
            Stmt::ReadClock { .. } | Stmt::ReportBench { .. } => Some("clock"),
            Stmt::Format { .. } => Some("format"),
            Stmt::Swap { .. } => Some("swap"),
            Stmt::Call { .. } => Some("call"),
            _ => None,
        };
        if let Some(what) = forbidden {
            return Err(error(format!("{what} inside a parallel construct")));
        }
        if super::ir::statement_expressions(statement)
            .iter()
            .any(|expr| expr.draws_random_numbers())
        {
            return Err(error("random numbers drawn inside a parallel construct"));
        }
        Ok(())
    }

    fn define(&mut self, var: &super::ir::Var, mutable: bool) -> Result<(), CheckError> {
        if !self.defined.insert(var.id) {
            return Err(error(format!("variable {} defined twice", var.name())));
        }
        if self.scopes.is_empty() {
            self.scopes.push(HashMap::new());
        }
        self.scopes
            .last_mut()
            .expect("a scope")
            .insert(var.id, (var.ty, mutable));
        Ok(())
    }

    fn live(&self, block: &Block, what: &str) -> Result<(), CheckError> {
        let allocated_storage = self.narrow_storage.get(&block.id).copied().unwrap_or(Storage::Natural);
        if block.storage != allocated_storage {
            return Err(error(format!(
                "{what} of {} as {}, which is allocated as another storage",
                block.name(),
                block.storage_name()
            )));
        }
        match self.blocks.get(&block.id) {
            Some(BlockState::Live { .. }) => Ok(()),
            Some(BlockState::Freed) => Err(error(format!("{what} of {} after it was freed", block.name()))),
            None => Err(error(format!("{what} of {} before it is allocated", block.name()))),
        }
    }

    fn expect(&self, expr: &Expr, ty: ScalarType, what: &str) -> Result<(), CheckError> {
        let found = self.expr(expr)?;
        if found == ty {
            Ok(())
        } else {
            Err(error(format!("{what}: expected {}, found {}", ty.name(), found.name())))
        }
    }

    fn expr(&self, expr: &Expr) -> Result<ScalarType, CheckError> {
        match expr {
            Expr::Int(_) => Ok(ScalarType::Int),
            Expr::Double(_) => Ok(ScalarType::Double),
            Expr::Bool(_) => Ok(ScalarType::Bool),
            Expr::Char(_) => Ok(ScalarType::Char),
            Expr::Var(var) => match self.lookup(var.id) {
                Some((ty, _)) if ty == var.ty => Ok(ty),
                Some((ty, _)) => Err(error(format!(
                    "variable {} used as {} but defined as {}",
                    var.name(),
                    var.ty.name(),
                    ty.name()
                ))),
                None => Err(error(format!("variable {} used before it is defined", var.name()))),
            },
            Expr::Prim(op, args) => {
                let expected = prim_argument_types(*op);
                if expected.len() != args.len() {
                    return Err(error(format!("{} given {} arguments", op.name(), args.len())));
                }
                for (arg, ty) in args.iter().zip(expected) {
                    let ty = ty.ok_or_else(|| error(format!("{} is not a scalar operator", op.name())))?;
                    self.expect(arg, ty, op.name())?;
                }
                prim_result_type(*op).ok_or_else(|| error(format!("{} is not a scalar operator", op.name())))
            }
            Expr::Load { block, index } => {
                self.live(block, "load")?;
                self.expect(index, ScalarType::Int, "load index")?;
                Ok(block.element)
            }
            Expr::Select(condition, then, otherwise) => {
                self.expect(condition, ScalarType::Bool, "select condition")?;
                let ty = self.expr(then)?;
                self.expect(otherwise, ty, "select branches")?;
                Ok(ty)
            }
            Expr::At(_, inner) => self.expr(inner),
            Expr::Threshold { name, value } => {
                if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    return Err(error(format!("reached: `{name}` is not a parameter name")));
                }
                self.expect(value, ScalarType::Int, "reached")?;
                Ok(ScalarType::Bool)
            }
        }
    }

    fn nested(&mut self, body: &[Stmt], loop_body: bool) -> Result<(), CheckError> {
        self.scopes.push(HashMap::new());
        if loop_body {
            self.loop_depth += 1;
        }
        let result = self.statements(body);
        if loop_body {
            self.loop_depth -= 1;
        }
        self.scopes.pop();
        result
    }

    fn statements(&mut self, statements: &[Stmt]) -> Result<(), CheckError> {
        for statement in statements {
            self.statement(statement)?;
        }
        Ok(())
    }

    fn statement(&mut self, statement: &Stmt) -> Result<(), CheckError> {
        self.check_parallel_effects(statement)?;
        match statement {
            Stmt::Let { var, value } | Stmt::Mutable { var, value } => {
                self.expect(value, var.ty, &format!("definition of {}", var.name()))?;
                if matches!(statement, Stmt::Let { .. }) {
                    self.definitions.insert(var.id, value.clone());
                }
                self.define(var, matches!(statement, Stmt::Mutable { .. }))
            }
            Stmt::Assign { var, value } => {
                match self.lookup(var.id) {
                    Some((_, true)) => {}
                    Some((_, false)) => return Err(error(format!("assignment to immutable {}", var.name()))),
                    None => return Err(error(format!("assignment to undefined {}", var.name()))),
                }
                if let (Some(floor), Some(scope)) = (self.parallel_floor, self.defining_scope(var.id)) {
                    if scope < floor {
                        return Err(error(format!(
                            "assignment to {}, declared outside the parallel construct",
                            var.name()
                        )));
                    }
                }
                self.expect(value, var.ty, &format!("assignment to {}", var.name()))
            }
            Stmt::For { index, count, body } => {
                self.expect(count, ScalarType::Int, "loop count")?;
                if index.ty != ScalarType::Int {
                    return Err(error(format!("loop index {} is not an int", index.name())));
                }
                self.scopes.push(HashMap::new());
                self.define(index, false)?;
                let result = self.nested(body, true);
                self.scopes.pop();
                result
            }
            Stmt::While { condition, body } => {
                self.expect(condition, ScalarType::Bool, "while condition")?;
                self.nested(body, true)
            }
            Stmt::ParallelFor { index, count, body } => {
                self.expect(count, ScalarType::Int, "parallel loop count")?;
                if index.ty != ScalarType::Int {
                    return Err(error(format!("loop index {} is not an int", index.name())));
                }
                if !super::passes::parallelise::stores_are_disjoint_across_iterations(
                    index,
                    count,
                    body,
                    &self.definitions,
                ) {
                    return Err(error(format!(
                        "parfor {}: iterations may store to the same position",
                        index.name()
                    )));
                }
                self.scopes.push(HashMap::new());
                self.define(index, false)?;
                let result = self.parallel_body(body);
                self.scopes.pop();
                result
            }
            Stmt::ParallelReduce {
                result,
                reduction,
                index,
                count,
                body,
                element,
                ..
            } => {
                self.expect(count, ScalarType::Int, "reduction count")?;
                self.expect(&reduction.neutral, result.ty, "neutral element")?;
                let op_type = prim_result_type(reduction.op);
                let argument_types = prim_argument_types(reduction.op);
                if op_type != Some(result.ty) || argument_types != [Some(result.ty), Some(result.ty)] {
                    return Err(error(format!(
                        "reduction with {} into {}",
                        reduction.op.name(),
                        result.ty.name()
                    )));
                }
                self.scopes.push(HashMap::new());
                self.define(index, false)?;
                let outer = self.parallel_floor;
                if outer.is_none() {
                    self.parallel_floor = Some(self.scopes.len() - 1);
                }
                self.loop_depth += 1;
                // The element is evaluated in the body's scope, after it.
                let checked = self
                    .statements(body)
                    .and_then(|()| self.expect(element, result.ty, "reduced element"));
                self.loop_depth -= 1;
                self.parallel_floor = outer;
                self.scopes.pop();
                checked?;
                self.define(result, false)
            }
            Stmt::If {
                condition,
                then,
                otherwise,
            } => {
                self.expect(condition, ScalarType::Bool, "if condition")?;
                self.nested(then, false)?;
                self.nested(otherwise, false)
            }
            Stmt::Alloc { block, size, .. } => {
                self.expect(size, ScalarType::Int, "allocation size")?;
                if let Some(BlockState::Live { .. }) = self.blocks.get(&block.id) {
                    return Err(error(format!("{} allocated while live", block.name())));
                }
                if block.storage != Storage::Natural {
                    if block.element != ScalarType::Int {
                        return Err(error(format!("{} is narrow but not an int block", block.name())));
                    }
                    self.narrow_storage.insert(block.id, block.storage);
                }
                self.blocks
                    .insert(block.id, BlockState::Live { depth: self.loop_depth });
                Ok(())
            }
            Stmt::Store { block, index, value } => {
                self.live(block, "store")?;
                self.expect(index, ScalarType::Int, "store index")?;
                self.expect(value, block.element, &format!("store to {}", block.name()))
            }
            Stmt::Free { block } => match self.blocks.get(&block.id) {
                Some(BlockState::Live { depth }) if *depth == self.loop_depth => {
                    self.blocks.insert(block.id, BlockState::Freed);
                    Ok(())
                }
                Some(BlockState::Live { .. }) => Err(error(format!(
                    "{} freed inside a loop it was allocated outside of",
                    block.name()
                ))),
                Some(BlockState::Freed) => Err(error(format!("{} freed twice", block.name()))),
                None => Err(error(format!("free of {} which was never allocated", block.name()))),
            },
            Stmt::Swap { first, second } => {
                self.live(first, "swap")?;
                self.live(second, "swap")?;
                if first.element != second.element || first.storage != second.storage {
                    return Err(error("swap of blocks of different element types or storage"));
                }
                Ok(())
            }
            Stmt::PrintArray { array, precision } => {
                self.expect(precision, ScalarType::Int, "print precision")?;
                self.array(array)
            }
            Stmt::PrintScalar { value, precision } => {
                self.expect(precision, ScalarType::Int, "print precision")?;
                self.expr(value).map(|_| ())
            }
            Stmt::Call {
                result, function, args, ..
            } => {
                let (parameters, result_type) = self
                    .functions
                    .get(function)
                    .cloned()
                    .ok_or_else(|| error(format!("call of the undefined function {function}")))?;
                if parameters.len() != args.len() {
                    return Err(error(format!("call of {function} with {} arguments", args.len())));
                }
                for (arg, kind) in args.iter().zip(parameters) {
                    match (arg, kind) {
                        (super::ir::Argument::Scalar(value), Kind::Scalar(ty)) => {
                            self.expect(value, ty, &format!("argument of {function}"))?
                        }
                        (super::ir::Argument::Array(array), Kind::Array(element, rank))
                            if array.block.element == element && array.shape.len() == rank =>
                        {
                            self.array(array)?
                        }
                        _ => return Err(error(format!("an argument of {function} of another kind"))),
                    }
                }
                if slot_kind(result) != result_type {
                    return Err(error(format!("the result of {function} is of another kind")));
                }
                if let Some(block) = result.block() {
                    if let Some(BlockState::Live { .. }) = self.blocks.get(&block.id) {
                        return Err(error(format!("{} defined by a call while it is live", block.name())));
                    }
                    self.blocks
                        .insert(block.id, BlockState::Live { depth: self.loop_depth });
                }
                result
                    .variables()
                    .into_iter()
                    .try_for_each(|var| self.define(var, false))
            }
            Stmt::Error { .. } => Ok(()),
            Stmt::ReadFile {
                path, result, length, ..
            } => {
                self.array(path)?;
                if path.block.element != ScalarType::Char || path.shape.len() != 1 {
                    return Err(error("the file name of read_file must be a char vector"));
                }
                if let Some(BlockState::Live { .. }) = self.blocks.get(&result.id) {
                    return Err(error(format!("{} allocated while live", result.name())));
                }
                self.blocks
                    .insert(result.id, BlockState::Live { depth: self.loop_depth });
                self.define(length, false)
            }
            Stmt::ReadClock { var } => {
                if var.ty != ScalarType::Int {
                    return Err(error(format!("clock read into {}, which is not an int", var.name())));
                }
                self.define(var, false)
            }
            Stmt::ReportBench { iterations, start } => {
                self.expect(iterations, ScalarType::Int, "bench iteration count")?;
                self.expect(start, ScalarType::Int, "bench start time")
            }
            Stmt::Format {
                source,
                precision,
                result,
                shape,
                ..
            } => {
                self.expect(precision, ScalarType::Int, "print precision")?;
                self.array(source)?;
                if let Some(BlockState::Live { .. }) = self.blocks.get(&result.id) {
                    return Err(error(format!("{} allocated while live", result.name())));
                }
                if result.element != ScalarType::Char {
                    return Err(error("format's result must be a char block"));
                }
                self.blocks
                    .insert(result.id, BlockState::Live { depth: self.loop_depth });
                for var in shape {
                    self.define(var, false)?;
                }
                Ok(())
            }
            Stmt::View {
                block, shape, layout, ..
            } => {
                self.live(block, "view")?;
                for extent in shape.iter().chain(&layout.strides).chain([&layout.offset]) {
                    self.expect(extent, ScalarType::Int, "view extent, stride or offset")?;
                }
                if layout.strides.len() != shape.len() {
                    return Err(error(format!(
                        "view of {} with a stride per axis missing",
                        block.name()
                    )));
                }
                Ok(())
            }
        }
    }

    /// An array handed to the run-time library or to a function, which read 64-bit ints: never a narrow block.
    fn array(&self, array: &ArrayRef) -> Result<(), CheckError> {
        self.live(&array.block, "use")?;
        if array.block.storage != Storage::Natural {
            return Err(error(format!(
                "{} is stored narrow but handed to the run-time library or a function",
                array.block.name()
            )));
        }
        for extent in &array.shape {
            self.expect(extent, ScalarType::Int, "extent")?;
        }
        Ok(())
    }

    fn result(&self, result: &ResultValue) -> Result<(), CheckError> {
        match result {
            ResultValue::Scalar(value) => self.expr(value).map(|_| ()),
            ResultValue::Array(array) => self.array(array),
            ResultValue::Tuple(components) => components.iter().try_for_each(|c| self.result(c)),
        }
    }
}

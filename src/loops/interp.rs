//! Runs a loop program with real buffers: one `Vec` per block, bounds-checked loads and stores. Scalar operators are
//! evaluated by `crate::tail::scalar_ops` (the TAIL interpreter's own semantics), and printing goes through the same
//! [`Host`] with a [`Value`] rebuilt from block and shape, so the output is formatted identically.
//!
//! A failed bounds check, an undefined variable or a use after free is a [`RunError::Internal`] (a compiler bug);
//! APL errors come only from `error` statements, scalar operators and allocations that fail (`WS FULL`) ([`RunError::Apl`]).

use super::error::RunError;
use super::ir::{
    Argument, ArrayRef, Block, Expr, Program, Reduction, ResultValue, ScalarType, Slot, Stmt, Var, REDUCTION_CHUNK,
};
use crate::runtime::error::{AplError, AplErrorKind};
use crate::source::Span;
use crate::tail::ast::Op;
use crate::tail::interp::{numbers_in_file, Host};
use crate::tail::scalar_ops::{apply_scalar_op_in, ExactIntSum, FloatMode};
use crate::tail::value::{ArrayData, ArrayValue, Scalar, Value};
use aplc_runtime::abi::{RollGenerator, ROLL_SEED};
use aplc_runtime::arguments::{double_argument, int_argument};
use aplc_runtime::display::PrintSettings;
use aplc_runtime::text_input;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Runs a program; returns its result value (after everything it printed went to the host).
pub fn run_program<'a>(program: &'a Program, host: &'a mut dyn Host) -> Result<Value, RunError> {
    let mut machine = Machine {
        float_mode: host.float_mode(),
        host,
        variables: HashMap::new(),
        blocks: HashMap::new(),
        random: RefCell::new(RollGenerator::with_seed(ROLL_SEED)),
        functions: &program.functions,
        call_depth: 0,
    };
    machine.run(&program.body)?;
    machine.result(&program.result)
}

struct Machine<'h> {
    host: &'h mut dyn Host,
    float_mode: FloatMode,
    variables: HashMap<u32, Scalar>,
    /// Live blocks (a freed block is removed).
    blocks: HashMap<u32, Vec<Scalar>>,
    /// The generator behind `roll`, seeded as the TAIL interpreter's and the run-time library's are. In a cell because
    /// expressions are evaluated through `&self`.
    random: RefCell<RollGenerator>,
    /// The program's functions.
    functions: &'h [super::ir::Function],
    /// How many calls are active.
    call_depth: usize,
}

fn internal(message: impl Into<String>) -> RunError {
    RunError::Internal(message.into())
}

impl Machine<'_> {
    fn run(&mut self, statements: &[Stmt]) -> Result<(), RunError> {
        for statement in statements {
            self.step(statement)?;
        }
        Ok(())
    }

    fn step(&mut self, statement: &Stmt) -> Result<(), RunError> {
        match statement {
            Stmt::Let { var, value } | Stmt::Mutable { var, value } | Stmt::Assign { var, value } => {
                let value = self.eval(value)?;
                self.variables.insert(var.id, value);
            }
            Stmt::For { index, count, body } => {
                let count = self.eval_int(count)?;
                for i in 0..count.max(0) {
                    self.variables.insert(index.id, Scalar::Int(i));
                    self.run(body)?;
                }
            }
            Stmt::While { condition, body } => {
                while self.eval_bool(condition)? {
                    self.run(body)?;
                }
            }
            // Iterations are independent, so running them in order is one of the allowed schedules.
            Stmt::ParallelFor { index, count, body } => {
                let count = self.eval_int(count)?;
                for i in 0..count.max(0) {
                    self.variables.insert(index.id, Scalar::Int(i));
                    self.run(body)?;
                }
            }
            Stmt::ParallelReduce {
                result,
                reduction,
                index,
                count,
                body,
                element,
                site,
            } => {
                let value = self
                    .parallel_reduce(reduction, index, count, body, element)
                    .map_err(|error| at_site(error, *site))?;
                self.variables.insert(result.id, value);
            }
            Stmt::If {
                condition,
                then,
                otherwise,
            } => {
                if self.eval_bool(condition)? {
                    self.run(then)?;
                } else {
                    self.run(otherwise)?;
                }
            }
            Stmt::Alloc { block, size, site } => {
                let size = self.eval_int(size)?;
                let size = usize::try_from(size).map_err(|_| internal(format!("negative allocation size {size}")))?;
                // The fill is a constant (for complex numbers `mkx` of two constants), so evaluating it cannot fail.
                let fill = self.eval(&block.element.fill())?;
                let mut buffer = Vec::new();
                // An allocation that fails would abort the process: report `WS FULL` as native code does.
                buffer.try_reserve_exact(size).map_err(|_| {
                    let error = RunError::Apl(AplError::new(
                        AplErrorKind::WorkspaceFull,
                        format!("cannot allocate {} of {size} elements", block.name()),
                    ));
                    at_site(error, *site)
                })?;
                buffer.resize(size, fill);
                if self.blocks.insert(block.id, buffer).is_some() {
                    return Err(internal(format!("{} allocated twice", block.name())));
                }
            }
            Stmt::Store { block, index, value } => {
                let position = self.eval_int(index)?;
                let value = self.eval(value)?;
                // A narrow block holds only what its storage fits (the narrowing pass proved it): a value that does
                // not fit would be truncated by native code, so here it is a bug of that proof.
                if let (Some(bits), Scalar::Int(int)) = (block.storage.narrow_bits(), &value) {
                    if !block.storage.holds(*int) {
                        return Err(internal(format!(
                            "{int} stored in {}, an int{bits} block",
                            block.name()
                        )));
                    }
                }
                let buffer = self.buffer_mut(block)?;
                let length = buffer.len();
                let slot = usize::try_from(position)
                    .ok()
                    .and_then(|p| buffer.get_mut(p))
                    .ok_or_else(|| internal(format!("store {}[{position}] out of bounds 0..{length}", block.name())))?;
                *slot = value;
            }
            Stmt::Free { block } => {
                if self.blocks.remove(&block.id).is_none() {
                    return Err(internal(format!("free of {} which is not allocated", block.name())));
                }
            }
            Stmt::Swap { first, second } => {
                let a = self
                    .blocks
                    .remove(&first.id)
                    .ok_or_else(|| internal(format!("swap of unallocated {}", first.name())))?;
                let b = self
                    .blocks
                    .remove(&second.id)
                    .ok_or_else(|| internal(format!("swap of unallocated {}", second.name())))?;
                self.blocks.insert(first.id, b);
                self.blocks.insert(second.id, a);
            }
            Stmt::PrintArray { array, precision } => {
                let value = self.array_value(array)?;
                let settings = self.print_settings(precision)?;
                self.host.print(&value, settings).map_err(RunError::Apl)?;
            }
            Stmt::PrintScalar { value, precision } => {
                let value = Value::Scalar(self.eval(value)?);
                let settings = self.print_settings(precision)?;
                self.host.print(&value, settings).map_err(RunError::Apl)?;
            }
            Stmt::Format {
                source,
                precision,
                matrix,
                result,
                shape,
                ..
            } => {
                let precision = self.precision(precision)?;
                // A scalar comes back as Value::Scalar: format it as the rank-0 array it is.
                let value = self.array_value(source)?;
                let array = value
                    .to_array()
                    .ok_or_else(|| internal("format of a non-array"))?
                    .into_owned();
                self.format(&array, precision, *matrix, result, shape)?;
            }
            Stmt::View { block, .. } => {
                self.buffer(block)?;
            }
            Stmt::Error { kind, message, site } => {
                return Err(at_site(RunError::Apl(AplError::new(*kind, message.clone())), *site))
            }
            Stmt::ReadFile {
                path,
                result,
                length,
                site,
            } => {
                let elements = self
                    .read_file(path, result.element)
                    .map_err(|error| at_site(error, *site))?;
                self.variables.insert(length.id, Scalar::Int(elements.len() as i64));
                if self.blocks.insert(result.id, elements).is_some() {
                    return Err(internal(format!("{} allocated twice", result.name())));
                }
            }
            Stmt::Call {
                result,
                function,
                args,
                site,
            } => {
                self.call(function, args, result)
                    .map_err(|error| at_site(error, *site))?;
            }
            Stmt::ReadClock { var } => {
                let now = self.host.now_millis();
                self.variables.insert(var.id, Scalar::Int(now));
            }
            Stmt::ReportBench { iterations, start } => {
                let iterations = self.eval_int(iterations)?;
                let elapsed = self.host.now_millis() - self.eval_int(start)?;
                self.host.report_bench(iterations, elapsed);
            }
        }
        Ok(())
    }

    /// `roll(n)`: the next number of the shared generator (lowering has checked that `n` is positive).
    fn roll(&self, arguments: &[Scalar]) -> Result<Scalar, RunError> {
        match arguments {
            [Scalar::Int(n)] if *n > 0 => Ok(Scalar::Int(self.random.borrow_mut().roll(*n))),
            _ => Err(RunError::Apl(AplError::new(
                crate::runtime::error::AplErrorKind::Domain,
                format!("roll of {arguments:?}"),
            ))),
        }
    }

    /// `argInt(i, d)` or `argDouble(i, d)`: a program argument from the host, read as the run-time library does.
    fn program_argument(&self, op: Op, arguments: &[Scalar]) -> Result<Scalar, RunError> {
        let program_arguments = self.host.program_arguments();
        let value = match (op, arguments) {
            (Op::ArgInt, [Scalar::Int(index), Scalar::Int(default)]) => {
                int_argument(program_arguments, *index, *default).map(Scalar::Int)
            }
            (Op::ArgDouble, [Scalar::Int(index), Scalar::Double(default)]) => {
                double_argument(program_arguments, *index, *default).map(Scalar::Double)
            }
            _ => return Err(internal(format!("{} of {arguments:?}", op.name()))),
        };
        value.map_err(|error| RunError::Apl(error.into()))
    }

    fn buffer(&self, block: &Block) -> Result<&Vec<Scalar>, RunError> {
        self.blocks
            .get(&block.id)
            .ok_or_else(|| internal(format!("{} used but not allocated", block.name())))
    }

    fn buffer_mut(&mut self, block: &Block) -> Result<&mut Vec<Scalar>, RunError> {
        self.blocks
            .get_mut(&block.id)
            .ok_or_else(|| internal(format!("{} used but not allocated", block.name())))
    }

    /// A parallel reduction in exactly the chunked order that defines it (`ir::REDUCTION_CHUNK`), so that the result
    /// is the native code's bit for bit.
    fn parallel_reduce(
        &mut self,
        reduction: &Reduction,
        index: &Var,
        count: &Expr,
        body: &[Stmt],
        element: &Expr,
    ) -> Result<Scalar, RunError> {
        let count = self.eval_int(count)?.max(0);
        let neutral = self.eval(&reduction.neutral)?;
        if reduction.op == Op::AddI {
            // The exact sum, whatever the partial sums (see `Op::AddI`).
            let mut sum = ExactIntSum::default();
            sum.add(self.eval_int(&reduction.neutral)?);
            for i in 0..count {
                self.variables.insert(index.id, Scalar::Int(i));
                self.run(body)?;
                sum.add(self.eval_int(element)?);
            }
            return Ok(Scalar::Int(sum.value().map_err(RunError::Apl)?));
        }
        let mut total = neutral;
        let mut chunk_start = 0;
        while chunk_start < count {
            let chunk_end = count.min(chunk_start + REDUCTION_CHUNK);
            let mut partial = neutral;
            for i in chunk_start..chunk_end {
                self.variables.insert(index.id, Scalar::Int(i));
                self.run(body)?;
                let x = self.eval(element)?;
                partial = apply_scalar_op_in(self.float_mode, reduction.op, &[partial, x]).map_err(RunError::Apl)?;
            }
            total = apply_scalar_op_in(self.float_mode, reduction.op, &[total, partial]).map_err(RunError::Apl)?;
            chunk_start = chunk_end;
        }
        Ok(total)
    }

    fn eval(&self, expr: &Expr) -> Result<Scalar, RunError> {
        match expr {
            Expr::Int(n) => Ok(Scalar::Int(*n)),
            Expr::Double(x) => Ok(Scalar::Double(*x)),
            Expr::Bool(b) => Ok(Scalar::Bool(*b)),
            Expr::Char(c) => Ok(Scalar::Char(*c)),
            Expr::Var(var) => self
                .variables
                .get(&var.id)
                .copied()
                .ok_or_else(|| internal(format!("variable {} read before it is set", var.name()))),
            Expr::Prim(op, args) => {
                let mut values = Vec::with_capacity(args.len());
                for arg in args {
                    values.push(self.eval(arg)?);
                }
                match op {
                    Op::Roll => return self.roll(&values),
                    Op::ArgInt | Op::ArgDouble => return self.program_argument(*op, &values),
                    _ => {}
                }
                apply_scalar_op_in(self.float_mode, *op, &values).map_err(RunError::Apl)
            }
            Expr::Load { block, index } => {
                let position = self.eval_int(index)?;
                let buffer = self.buffer(block)?;
                usize::try_from(position)
                    .ok()
                    .and_then(|p| buffer.get(p))
                    .copied()
                    .ok_or_else(|| {
                        internal(format!(
                            "load {}[{position}] out of bounds 0..{}",
                            block.name(),
                            buffer.len()
                        ))
                    })
            }
            Expr::Select(condition, then, otherwise) => {
                if self.eval_bool(condition)? {
                    self.eval(then)
                } else {
                    self.eval(otherwise)
                }
            }
            Expr::At(site, inner) => self.eval(inner).map_err(|error| at_site(error, Some(*site))),
            Expr::Threshold { name, value } => {
                let value = self.eval_int(value)?;
                let default = crate::loops::parameters::default_value(name, false);
                Ok(Scalar::Bool(
                    value >= aplc_runtime::parallel::parameter_value(name, default),
                ))
            }
        }
    }

    fn eval_int(&self, expr: &Expr) -> Result<i64, RunError> {
        match self.eval(expr)? {
            Scalar::Int(n) => Ok(n),
            other => Err(internal(format!("expected an int, found {other:?}"))),
        }
    }

    /// `⍕` through the run-time library, into a new char block.
    fn format(
        &mut self,
        array: &ArrayValue,
        precision: u32,
        matrix: bool,
        result: &Block,
        shape: &[super::ir::Var],
    ) -> Result<(), RunError> {
        use aplc_runtime::display::{format_to_char_matrix, ArrayData as View, ArrayView};
        let data = match &array.data {
            ArrayData::Bool(v) => View::Bool(v),
            ArrayData::Int(v) => View::Int(v),
            ArrayData::Double(v) => View::Double(v),
            ArrayData::Char(v) => View::Char(v),
            ArrayData::Complex(v) => View::Complex(v),
        };
        let rows = format_to_char_matrix(
            &ArrayView {
                shape: &array.shape,
                data,
            },
            precision,
        );
        let (extents, chars): (Vec<usize>, Vec<char>) = if matrix {
            let width = rows.first().map_or(0, Vec::len);
            (vec![rows.len(), width], rows.into_iter().flatten().collect())
        } else {
            let chars: Vec<char> = rows.into_iter().next().unwrap_or_default();
            (vec![chars.len()], chars)
        };
        if extents.len() != shape.len() {
            return Err(internal("format result with the wrong number of extents"));
        }
        for (var, extent) in shape.iter().zip(extents) {
            self.variables.insert(var.id, Scalar::Int(extent as i64));
        }
        let buffer = chars.into_iter().map(Scalar::Char).collect();
        if self.blocks.insert(result.id, buffer).is_some() {
            return Err(internal(format!("{} allocated twice", result.name())));
        }
        Ok(())
    }

    /// A print precision; lowering checked that it is in 1..17.
    /// The `⎕PP` and `⎕PW` of a print statement's print code.
    fn print_settings(&self, expr: &Expr) -> Result<PrintSettings, RunError> {
        PrintSettings::from_code(self.eval_int(expr)?).map_err(internal)
    }

    fn precision(&self, expr: &Expr) -> Result<u32, RunError> {
        let precision = self.eval_int(expr)?;
        u32::try_from(precision)
            .ok()
            .filter(|p| (1..=17).contains(p))
            .ok_or_else(|| internal(format!("print precision {precision} outside 1..17")))
    }

    fn eval_bool(&self, expr: &Expr) -> Result<bool, RunError> {
        match self.eval(expr)? {
            Scalar::Bool(b) => Ok(b),
            other => Err(internal(format!("expected a bool, found {other:?}"))),
        }
    }

    /// The array value of a row-major block and its shape.
    /// The elements of the text file named by the char vector `path`, read and parsed as the TAIL interpreter does.
    fn read_file(&mut self, path: &ArrayRef, element: ScalarType) -> Result<Vec<Scalar>, RunError> {
        let name: String = match self.array_value(path)? {
            Value::Array(array) => match &array.data {
                ArrayData::Char(chars) => chars.iter().collect(),
                _ => return Err(internal("read_file of a file name that is not text")),
            },
            _ => return Err(internal("read_file of a file name that is not a vector")),
        };
        let text = self.host.read_file(&name).map_err(RunError::Apl)?;
        Ok(match element {
            ScalarType::Char => text.chars().map(Scalar::Char).collect(),
            ScalarType::Int => numbers_in_file(text_input::ints_in_text(&text))
                .map_err(RunError::Apl)?
                .into_iter()
                .map(Scalar::Int)
                .collect(),
            ScalarType::Double => numbers_in_file(text_input::doubles_in_text(&text))
                .map_err(RunError::Apl)?
                .into_iter()
                .map(Scalar::Double)
                .collect(),
            other => return Err(internal(format!("read_file of {} elements", other.name()))),
        })
    }

    fn array_value(&self, array: &ArrayRef) -> Result<Value, RunError> {
        let mut shape = Vec::with_capacity(array.shape.len());
        for extent in &array.shape {
            let extent = self.eval_int(extent)?;
            shape.push(usize::try_from(extent).map_err(|_| internal(format!("negative extent {extent}")))?);
        }
        let count: usize = shape.iter().product();
        let buffer = self.buffer(&array.block)?;
        if buffer.len() < count {
            return Err(internal(format!(
                "{} has {} elements, the shape needs {count}",
                array.block.name(),
                buffer.len()
            )));
        }
        let mut data = ArrayData::empty(array.block.element.base());
        for element in &buffer[..count] {
            data.push(*element)
                .ok_or_else(|| internal(format!("{} holds an element of another type", array.block.name())))?;
        }
        Ok(ArrayValue::new(shape, data).into_value())
    }

    fn result(&self, result: &ResultValue) -> Result<Value, RunError> {
        match result {
            ResultValue::Scalar(value) => Ok(Value::Scalar(self.eval(value)?)),
            ResultValue::Array(array) => self.array_value(array),
            ResultValue::Tuple(components) => Ok(Value::Tuple(Rc::new(
                components.iter().map(|c| self.result(c)).collect::<Result<_, _>>()?,
            ))),
        }
    }
}

/// An APL error located at the source site of what raised it (when there is one and it has no position yet).
impl Machine<'_> {
    /// A call: the callee runs with its own variables and blocks (a recursive call reuses the ids of its caller's);
    /// an array argument is copied into the callee's block, an array result moved into the caller's.
    fn call(&mut self, name: &str, args: &[Argument], result: &Slot) -> Result<(), RunError> {
        let functions = self.functions;
        let function = functions
            .iter()
            .find(|function| function.name == name)
            .ok_or_else(|| internal(format!("call of the undefined function {name}")))?;
        let mut variables = HashMap::new();
        let mut blocks = HashMap::new();
        for (parameter, arg) in function.parameters.iter().zip(args) {
            match (parameter, arg) {
                (Slot::Scalar(var), Argument::Scalar(value)) => {
                    variables.insert(var.id, self.eval(value)?);
                }
                (Slot::Array { block, shape }, Argument::Array(array)) => {
                    for (var, extent) in shape.iter().zip(&array.shape) {
                        variables.insert(var.id, Scalar::Int(self.eval_int(extent)?));
                    }
                    let elements = self
                        .blocks
                        .get(&array.block.id)
                        .cloned()
                        .ok_or_else(|| internal(format!("call with {} which is not live", array.block.name())))?;
                    blocks.insert(block.id, elements);
                }
                _ => return Err(internal(format!("an argument of {name} of another kind"))),
            }
        }
        if self.call_depth >= crate::tail::ast::MAX_CALL_DEPTH {
            return Err(RunError::Apl(crate::tail::interp::call_depth_error()));
        }
        if !crate::tail::interp::stack_has_room() {
            return Err(RunError::Apl(crate::tail::interp::stack_exhausted_error()));
        }
        let caller_variables = std::mem::replace(&mut self.variables, variables);
        let caller_blocks = std::mem::replace(&mut self.blocks, blocks);
        self.call_depth += 1;
        let returned = self.run(&function.body).and_then(|()| self.returned(&function.result));
        self.call_depth -= 1;
        self.variables = caller_variables;
        self.blocks = caller_blocks;
        match (returned?, result) {
            (Returned::Scalar(value), Slot::Scalar(var)) => {
                self.variables.insert(var.id, value);
            }
            (Returned::Array(elements, extents), Slot::Array { block, shape }) => {
                for (var, extent) in shape.iter().zip(extents) {
                    self.variables.insert(var.id, Scalar::Int(extent));
                }
                self.blocks.insert(block.id, elements);
            }
            _ => return Err(internal(format!("the result of {name} is of another kind"))),
        }
        Ok(())
    }

    /// What a function returns, taken out of its frame.
    fn returned(&mut self, result: &ResultValue) -> Result<Returned, RunError> {
        match result {
            ResultValue::Scalar(value) => Ok(Returned::Scalar(self.eval(value)?)),
            ResultValue::Array(array) => {
                let extents = array
                    .shape
                    .iter()
                    .map(|extent| self.eval_int(extent))
                    .collect::<Result<Vec<_>, _>>()?;
                let elements = self
                    .blocks
                    .remove(&array.block.id)
                    .ok_or_else(|| internal(format!("{} returned but not live", array.block.name())))?;
                Ok(Returned::Array(elements, extents))
            }
            ResultValue::Tuple(_) => Err(internal("a function returns a tuple")),
        }
    }
}

/// A function's result on its way to the caller.
enum Returned {
    Scalar(Scalar),
    Array(Vec<Scalar>, Vec<i64>),
}

fn at_site(error: RunError, site: Option<Span>) -> RunError {
    match (error, site) {
        (RunError::Apl(error), Some(site)) => RunError::Apl(error.with_span(site)),
        (error, _) => error,
    }
}

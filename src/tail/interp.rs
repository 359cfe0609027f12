//! The reference interpreter: evaluates a TAIL program with APL's semantics. It is the oracle for every backend, so
//! it favours clarity; it still runs big arrays as plain loops over flat vectors (the scalar operators passed to
//! `each`, `zipWith`, `reduce` and `scan` are applied without building intermediate values).
//!
//! Evaluation is call-by-value, left to right. Failures are [`AplError`]s (DOMAIN, LENGTH, RANK, INDEX ...), never
//! panics, even for programs that were not type-checked. The interpreter touches no files and no stdout: printing,
//! reading files and the clock go through a [`Host`].

use super::array_ops::{self, Axis, Direction};
use super::ast::{BaseType, Expr, ExprKind, Op, Type};
use super::scalar_ops::{apply_scalar_op_in, is_associative, is_scalar_op, ExactIntSum, FloatMode};
use super::value::{ArrayData, ArrayValue, Environment, Function, Scalar, Value};
use crate::runtime::error::{AplError, AplErrorKind, REDUCING_AN_EMPTY_AXIS_WITHOUT_IDENTITY};
use aplc_runtime::abi::{RollGenerator, ROLL_SEED};
use aplc_runtime::arguments::{double_argument, int_argument};
use aplc_runtime::display::PrintSettings;
use aplc_runtime::text_input;
use std::rc::Rc;

/// What a running program may ask of its surroundings.
pub trait Host {
    /// Shows a value (`⎕←`) with the print settings `⎕PP` and `⎕PW`; the host chooses the format (see
    /// [`display_lines_with_settings`]).
    fn print(&mut self, value: &Value, settings: PrintSettings) -> Result<(), AplError>;
    /// The contents of a text file.
    fn read_file(&mut self, path: &str) -> Result<String, AplError>;
    /// The current time in milliseconds since some fixed point.
    fn now_millis(&mut self) -> i64;
    /// Reports the time a `bench` (`⎕BENCH`) loop took; by default one line on standard error, in the words the
    /// run-time library of compiled programs uses.
    fn report_bench(&mut self, iterations: i64, elapsed_millis: i64) {
        eprintln!("{}", aplc_runtime::abi::bench_report_line(iterations, elapsed_millis));
    }
    /// The words given after the program (`aplc run prog.apl 1000`), read by `argInt` and `argDouble`; none by
    /// default.
    fn program_arguments(&self) -> &[String] {
        &[]
    }
    /// What double arithmetic does with results that are not finite real numbers (`--float`); Dyalog's DOMAIN ERROR
    /// unless the host was asked for IEEE arithmetic.
    fn float_mode(&self) -> FloatMode {
        FloatMode::Dyalog
    }
}

/// A host for tests and embedding: records printed lines, serves files from memory, and has a fixed clock.
#[derive(Default)]
pub struct MemoryHost {
    pub printed_lines: Vec<String>,
    pub files: std::collections::HashMap<String, String>,
    pub now: i64,
    /// The iteration counts of the `bench` loops that reported, in order.
    pub bench_reports: Vec<i64>,
    /// The program's arguments.
    pub arguments: Vec<String>,
}

impl Host for MemoryHost {
    fn print(&mut self, value: &Value, settings: PrintSettings) -> Result<(), AplError> {
        self.printed_lines.extend(display_lines_with_settings(value, settings));
        Ok(())
    }

    fn read_file(&mut self, path: &str) -> Result<String, AplError> {
        self.files
            .get(path)
            .cloned()
            .ok_or_else(|| AplError::new(AplErrorKind::FileIo, format!("cannot read {path}")))
    }

    fn now_millis(&mut self) -> i64 {
        self.now
    }

    fn report_bench(&mut self, iterations: i64, _elapsed_millis: i64) {
        self.bench_reports.push(iterations);
    }

    fn program_arguments(&self) -> &[String] {
        &self.arguments
    }
}

/// The default print precision (`⎕PP`).
pub const PRINT_PRECISION: u32 = 10;

/// The lines Dyalog would print for a value with `⎕PP` 10 and `⎕PW` 80 (tuples: each component in turn;
/// functions: a placeholder).
pub fn display_lines(value: &Value) -> Vec<String> {
    display_lines_with_settings(value, PrintSettings::with_precision(PRINT_PRECISION))
}

/// The lines Dyalog would print for a value with the given `⎕PP` and `⎕PW`.
pub fn display_lines_with_settings(value: &Value, settings: PrintSettings) -> Vec<String> {
    match value {
        Value::Tuple(components) => components
            .iter()
            .flat_map(|c| display_lines_with_settings(c, settings))
            .collect(),
        Value::Function(_) => vec!["<function>".to_string()],
        _ => {
            let array = value.to_array().expect("an array value");
            aplc_runtime::display::display(&view(&array), settings)
        }
    }
}

/// A print operation's print code ([`PrintSettings`]; DOMAIN ERROR when out of range).
fn print_settings(value: &Value) -> Result<PrintSettings, AplError> {
    PrintSettings::from_code(as_int(value)?).map_err(AplError::domain)
}

/// A `⎕PP` argument: 1 to 17 (DOMAIN ERROR otherwise).
fn print_precision(value: &Value) -> Result<u32, AplError> {
    match as_int(value)? {
        p @ 1..=17 => Ok(p as u32),
        p => Err(AplError::domain(format!("print precision {p} is outside 1..17"))),
    }
}

fn view(array: &ArrayValue) -> aplc_runtime::display::ArrayView<'_> {
    use aplc_runtime::display::ArrayData as View;
    let data = match &array.data {
        ArrayData::Bool(v) => View::Bool(v),
        ArrayData::Int(v) => View::Int(v),
        ArrayData::Double(v) => View::Double(v),
        ArrayData::Char(v) => View::Char(v),
        ArrayData::Complex(v) => View::Complex(v),
    };
    aplc_runtime::display::ArrayView {
        shape: &array.shape,
        data,
    }
}

/// Evaluates a whole program.
pub fn eval_program<'a>(program: &'a super::ast::Program, host: &'a mut dyn Host) -> Result<Value, AplError> {
    let mut interpreter = Interpreter {
        float_mode: host.float_mode(),
        host,
        random: RollGenerator::with_seed(ROLL_SEED),
        lambda_bodies: std::collections::HashMap::new(),
        functions: &program.functions,
        call_depth: 0,
    };
    interpreter.eval(&program.body, &Environment::default())
}

/// The error of a call one deeper than [`super::ast::MAX_CALL_DEPTH`] (the message every backend gives).
pub fn call_depth_error() -> AplError {
    AplError::new(AplErrorKind::WorkspaceFull, call_depth_message())
}

/// The error of a call when the thread's stack is nearly used up (`aplc_runtime::stack`), before the depth limit.
pub fn stack_exhausted_error() -> AplError {
    AplError::new(AplErrorKind::WorkspaceFull, stack_exhausted_message())
}

/// The message of [`stack_exhausted_error`].
pub fn stack_exhausted_message() -> String {
    "recursion too deep for the stack of this thread".to_string()
}

/// Whether the stack has room for one more call (see `aplc_runtime::stack`): the interpreters check at every call.
pub fn stack_has_room() -> bool {
    aplc_runtime::stack::current_stack_address() >= aplc_runtime::stack::stack_floor()
}

/// The message of [`call_depth_error`].
pub fn call_depth_message() -> String {
    format!("recursion deeper than {} calls", aplc_runtime::abi::MAX_CALL_DEPTH)
}

struct Interpreter<'h> {
    host: &'h mut dyn Host,
    float_mode: FloatMode,
    /// The generator behind `roll`: the run-time library's, with its fixed seed, so that runs are reproducible and
    /// every backend draws the same numbers.
    random: RollGenerator,
    /// The body of every lambda evaluated so far, by the address of its node in the program (which outlives the
    /// run), so that a closure built once per element does not copy its body each time.
    lambda_bodies: std::collections::HashMap<usize, Rc<Expr>>,
    /// The program's functions.
    functions: &'h [super::ast::Function],
    /// How many calls of them are active.
    call_depth: usize,
}

fn not_well_typed(what: &str) -> AplError {
    AplError::domain(format!("{what} (the program is not well typed)"))
}

fn as_array(value: &Value) -> Result<std::borrow::Cow<'_, ArrayValue>, AplError> {
    value.to_array().ok_or_else(|| not_well_typed("expected an array"))
}

fn as_scalar(value: &Value) -> Result<Scalar, AplError> {
    match value {
        Value::Scalar(scalar) => Ok(*scalar),
        Value::Array(array) if array.data.len() == 1 => Ok(array.data.get(0)),
        Value::Array(array) => Err(AplError::length(format!(
            "expected one element, found shape {:?}",
            array.shape
        ))),
        _ => Err(not_well_typed("expected a scalar")),
    }
}

fn as_int(value: &Value) -> Result<i64, AplError> {
    match as_scalar(value)? {
        Scalar::Int(x) => Ok(x),
        Scalar::Bool(b) => Ok(b as i64),
        _ => Err(not_well_typed("expected an int")),
    }
}

fn as_bool(value: &Value) -> Result<bool, AplError> {
    match as_scalar(value)? {
        Scalar::Bool(b) => Ok(b),
        _ => Err(not_well_typed("expected a bool")),
    }
}

fn as_text(value: &Value) -> Result<String, AplError> {
    match &as_array(value)?.data {
        ArrayData::Char(chars) => Ok(chars.iter().collect()),
        _ => Err(not_well_typed("expected a char vector")),
    }
}

fn int_vector(values: Vec<i64>) -> Value {
    Value::Array(Rc::new(ArrayValue::vector(ArrayData::Int(values))))
}

fn array(array: ArrayValue) -> Value {
    array.into_value()
}

impl Interpreter<'_> {
    fn eval(&mut self, expr: &Expr, env: &Environment) -> Result<Value, AplError> {
        // The innermost node with source text behind it names the error's position (elaborated code outside every
        // APL primitive has the empty span: no position rather than a wrong one).
        self.eval_kind(expr, env).map_err(|error| match expr.span.is_empty() {
            true => error,
            false => error.with_span(expr.span),
        })
    }

    fn eval_kind(&mut self, expr: &Expr, env: &Environment) -> Result<Value, AplError> {
        match &expr.kind {
            ExprKind::Int(x) => Ok(Value::Scalar(Scalar::Int(*x))),
            ExprKind::Double(x) => Ok(Value::Scalar(Scalar::Double(*x))),
            ExprKind::Bool(x) => Ok(Value::Scalar(Scalar::Bool(*x))),
            ExprKind::Char(x) => Ok(Value::Scalar(Scalar::Char(*x))),
            ExprKind::Complex(re, im) => Ok(Value::Scalar(Scalar::Complex(*re, *im))),
            ExprKind::Var(name) => env
                .lookup(name)
                .cloned()
                .ok_or_else(|| AplError::new(AplErrorKind::Value, format!("unbound variable {name}"))),
            ExprKind::Vector { elements, element_type } => {
                let mut scalars = Vec::with_capacity(elements.len());
                for element in elements {
                    scalars.push(as_scalar(&self.eval(element, env)?)?);
                }
                let base = scalars
                    .first()
                    .map(|s| s.base_type())
                    .or(*element_type)
                    .unwrap_or(BaseType::Int);
                let data = ArrayData::from_scalars(base, &scalars)
                    .ok_or_else(|| not_well_typed("vector literal with elements of different types"))?;
                Ok(Value::Array(Rc::new(ArrayValue::vector(data))))
            }
            ExprKind::Op { op, args } if args.len() <= 2 && is_scalar_op(*op) => {
                // The common case inside element functions, without allocating.
                let mut scalars = [Scalar::Int(0); 2];
                for (slot, arg) in scalars.iter_mut().zip(args) {
                    *slot = as_scalar(&self.eval(arg, env)?)?;
                }
                apply_scalar_op_in(self.float_mode, *op, &scalars[..args.len()]).map(Value::Scalar)
            }
            ExprKind::Op { op, args } => {
                let mut values = Vec::with_capacity(args.len());
                for arg in args {
                    values.push(self.eval(arg, env)?);
                }
                self.apply_op(*op, &values)
            }
            ExprKind::OpRef(op) => Ok(Value::Function(Rc::new(Function::Op { op: *op, args: vec![] }))),
            ExprKind::Let { .. } => {
                // A chain of lets is a loop, not a recursion: generated programs have thousands.
                let mut env = env.clone();
                let mut current = expr;
                while let ExprKind::Let { name, value, body, .. } = &current.kind {
                    let value = self.eval(value, &env)?;
                    env = env.bind(Rc::from(name.as_str()), value);
                    current = body;
                }
                self.eval(current, &env)
            }
            ExprKind::Lambda { .. } => Ok(Value::Function(Rc::new(self.closure(expr, env)))),
            ExprKind::Tuple(components) => {
                let mut values = Vec::with_capacity(components.len());
                for component in components {
                    values.push(self.eval(component, env)?);
                }
                Ok(Value::Tuple(Rc::new(values)))
            }
            ExprKind::Project { index, tuple } => match self.eval(tuple, env)? {
                Value::Tuple(values) if *index >= 1 && *index <= values.len() => Ok(values[index - 1].clone()),
                _ => Err(not_well_typed("projection out of a non-tuple or out of range")),
            },
            ExprKind::Call { function, args } => {
                let functions = self.functions;
                let function = functions
                    .iter()
                    .find(|defined| defined.name == *function)
                    .ok_or_else(|| not_well_typed("a call of a function the program does not define"))?;
                let mut local = Environment::default();
                for ((name, _), arg) in function.parameters.iter().zip(args) {
                    let value = self.eval(arg, env)?;
                    local = local.bind(Rc::from(name.as_str()), value);
                }
                if self.call_depth >= super::ast::MAX_CALL_DEPTH {
                    return Err(call_depth_error());
                }
                if !stack_has_room() {
                    return Err(stack_exhausted_error());
                }
                self.call_depth += 1;
                let result = self.eval(&function.body, &local);
                self.call_depth -= 1;
                result
            }
        }
    }

    /// Applies a function value to arguments (curried: extra arguments go to the result).
    fn apply(&mut self, function: &Value, args: &[Value]) -> Result<Value, AplError> {
        let Value::Function(function) = function else {
            return Err(not_well_typed("application of a non-function"));
        };
        if args.is_empty() {
            return Ok(Value::Function(function.clone()));
        }
        match &**function {
            Function::Op { op, args: given } => {
                let arity = op.arity();
                let mut all = given.clone();
                let taken = (arity - given.len()).min(args.len());
                all.extend_from_slice(&args[..taken]);
                let result = if all.len() < arity {
                    Value::Function(Rc::new(Function::Op { op: *op, args: all }))
                } else {
                    self.apply_op(*op, &all)?
                };
                if taken < args.len() {
                    self.apply(&result, &args[taken..])
                } else {
                    Ok(result)
                }
            }
            Function::Closure {
                parameters,
                bound,
                body,
                environment,
            } => {
                let remaining = parameters.len() - bound;
                let taken = remaining.min(args.len());
                let mut env = environment.clone();
                for (parameter, arg) in parameters[*bound..].iter().zip(&args[..taken]) {
                    env = env.bind(parameter.clone(), arg.clone());
                }
                if taken < remaining {
                    return Ok(Value::Function(Rc::new(Function::Closure {
                        parameters: parameters.clone(),
                        bound: bound + taken,
                        body: body.clone(),
                        environment: env,
                    })));
                }
                let result = self.eval(body, &env)?;
                if taken < args.len() {
                    self.apply(&result, &args[taken..])
                } else {
                    Ok(result)
                }
            }
        }
    }

    /// The closure of a lambda expression: its curried parameters are collected so that applying it to all of them
    /// creates no intermediate closures, and its body is shared (copied out of the program once per lambda).
    fn closure(&mut self, lambda: &Expr, env: &Environment) -> Function {
        let mut parameters: Vec<Rc<str>> = Vec::new();
        let mut body = lambda;
        while let ExprKind::Lambda {
            parameter, body: inner, ..
        } = &body.kind
        {
            parameters.push(Rc::from(parameter.as_str()));
            body = inner;
        }
        let key = lambda as *const Expr as usize;
        let shared_body = self
            .lambda_bodies
            .entry(key)
            .or_insert_with(|| Rc::new(body.clone()))
            .clone();
        Function::Closure {
            parameters: parameters.into(),
            bound: 0,
            body: shared_body,
            environment: env.clone(),
        }
    }

    /// Applies a function to scalars, giving a scalar (the element function of each/zipWith/reduce/scan).
    fn apply_to_scalars(&mut self, function: &Value, args: &[Scalar]) -> Result<Scalar, AplError> {
        if let Value::Function(f) = function {
            if let Function::Op { op, args: given } = &**f {
                if given.is_empty() && is_scalar_op(*op) && op.arity() == args.len() {
                    return apply_scalar_op_in(self.float_mode, *op, args);
                }
            }
        }
        if let Value::Function(f) = function {
            if let Function::Closure {
                parameters,
                bound,
                body,
                environment,
            } = &**f
            {
                if parameters.len() - bound == args.len() {
                    let mut env = environment.clone();
                    for (parameter, arg) in parameters[*bound..].iter().zip(args) {
                        env = env.bind(parameter.clone(), Value::Scalar(*arg));
                    }
                    return as_scalar(&self.eval(body, &env)?);
                }
            }
        }
        let values: Vec<Value> = args.iter().map(|s| Value::Scalar(*s)).collect();
        as_scalar(&self.apply(function, &values)?)
    }

    fn apply_op(&mut self, op: Op, args: &[Value]) -> Result<Value, AplError> {
        if args.len() != op.arity() {
            return Err(not_well_typed(&format!(
                "{} applied to {} arguments",
                op.name(),
                args.len()
            )));
        }
        if is_scalar_op(op) {
            let scalars: Vec<Scalar> = args.iter().map(as_scalar).collect::<Result<_, _>>()?;
            return apply_scalar_op_in(self.float_mode, op, &scalars).map(Value::Scalar);
        }
        match op {
            Op::Roll => {
                let n = as_int(&args[0])?;
                if n <= 0 {
                    return Err(AplError::domain(format!("roll of {n}")));
                }
                Ok(Value::Scalar(Scalar::Int(self.random.roll(n))))
            }
            Op::Zilde => Ok(int_vector(vec![])),
            Op::Pi => Ok(Value::Scalar(Scalar::Double(std::f64::consts::PI))),
            Op::NowI => Ok(Value::Scalar(Scalar::Int(self.host.now_millis()))),
            Op::ArgInt => {
                let arguments = self.host.program_arguments();
                let value = int_argument(arguments, as_int(&args[0])?, as_int(&args[1])?)?;
                Ok(Value::Scalar(Scalar::Int(value)))
            }
            Op::ArgDouble => {
                let default = match as_scalar(&args[1])? {
                    Scalar::Double(x) => x,
                    _ => return Err(not_well_typed("expected a double")),
                };
                let value = double_argument(self.host.program_arguments(), as_int(&args[0])?, default)?;
                Ok(Value::Scalar(Scalar::Double(value)))
            }
            Op::Iota | Op::IotaV => Ok(array(array_ops::iota(as_int(&args[0])?)?)),
            Op::Shape | Op::ShapeV => Ok(array(array_ops::shape(&*as_array(&args[0])?))),
            Op::Reshape => {
                let shape = array_ops::ints(&*as_array(&args[0])?, "the shape")?;
                Ok(array(array_ops::reshape(&shape, &*as_array(&args[1])?)?))
            }
            Op::Ravel => Ok(array(array_ops::ravel(&*as_array(&args[0])?))),
            Op::Tally => Ok(Value::Scalar(Scalar::Int(array_ops::tally(&*as_array(&args[0])?)))),
            Op::Reverse => Ok(array(array_ops::reverse(&*as_array(&args[0])?, Axis::Last))),
            Op::VReverse | Op::VReverseV => Ok(array(array_ops::reverse(&*as_array(&args[0])?, Axis::First))),
            Op::Rotate | Op::RotateV => Ok(array(array_ops::rotate(
                as_int(&args[0])?,
                &*as_array(&args[1])?,
                Axis::Last,
            ))),
            Op::VRotate | Op::VRotateV => Ok(array(array_ops::rotate(
                as_int(&args[0])?,
                &*as_array(&args[1])?,
                Axis::First,
            ))),
            Op::Transpose => Ok(array(array_ops::transpose(&*as_array(&args[0])?))),
            Op::Transpose2 => {
                let axes = array_ops::ints(&*as_array(&args[0])?, "transpose axes")?;
                let axes: Vec<usize> = axes.iter().map(|&a| usize::try_from(a).unwrap_or(0)).collect();
                Ok(array(array_ops::transpose_by(&axes, &*as_array(&args[1])?)?))
            }
            Op::Take | Op::TakeV => Ok(array(array_ops::take(as_int(&args[0])?, &*as_array(&args[1])?)?)),
            Op::Drop | Op::DropV => Ok(array(array_ops::drop(as_int(&args[0])?, &*as_array(&args[1])?))),
            Op::TakeLastV => Ok(array(array_ops::take(
                as_int(&args[0])?.wrapping_neg(),
                &*as_array(&args[1])?,
            )?)),
            Op::DropLastV => Ok(array(array_ops::drop(
                as_int(&args[0])?.wrapping_neg(),
                &*as_array(&args[1])?,
            ))),
            Op::First | Op::FirstV => Ok(Value::Scalar(array_ops::first(&*as_array(&args[0])?))),
            Op::Cat | Op::CatV => Ok(array(array_ops::catenate(
                &*as_array(&args[0])?,
                &*as_array(&args[1])?,
                Axis::Last,
            )?)),
            Op::CatFirst => Ok(array(array_ops::catenate(
                &*as_array(&args[0])?,
                &*as_array(&args[1])?,
                Axis::First,
            )?)),
            Op::Cons | Op::ConsV => Ok(array(array_ops::cons(&*as_array(&args[0])?, &*as_array(&args[1])?)?)),
            Op::Snoc | Op::SnocV => Ok(array(array_ops::snoc(&*as_array(&args[0])?, &*as_array(&args[1])?)?)),
            Op::Each | Op::EachV => self.each(&args[0], &*as_array(&args[1])?),
            Op::ZipWith => self.zip_with(&args[0], &*as_array(&args[1])?, &*as_array(&args[2])?),
            Op::Reduce => self.reduce(&args[0], as_scalar(&args[1])?, &*as_array(&args[2])?),
            Op::NonEmptyRows => {
                if as_array(&args[0])?.shape.last() == Some(&0) {
                    return Err(AplError::domain(REDUCING_AN_EMPTY_AXIS_WITHOUT_IDENTITY));
                }
                Ok(args[0].clone())
            }
            Op::Scan => self.scan(&args[0], &*as_array(&args[2])?),
            Op::Compress => {
                let mask = array_ops::bools(&*as_array(&args[0])?, "the compress mask")?;
                Ok(array(array_ops::compress(&mask, &*as_array(&args[1])?)?))
            }
            Op::Replicate => {
                let counts = array_ops::ints(&*as_array(&args[0])?, "replicate counts")?;
                Ok(array(array_ops::replicate(&counts, &*as_array(&args[1])?)?))
            }
            Op::Expand => {
                let mask = array_ops::bools(&*as_array(&args[0])?, "the expand mask")?;
                Ok(array(array_ops::expand(&mask, &*as_array(&args[1])?)?))
            }
            Op::Power => {
                let mut value = args[2].clone();
                for _ in 0..as_int(&args[1])?.max(0) {
                    value = self.apply(&args[0], &[value])?;
                }
                Ok(value)
            }
            Op::Bench => {
                let iterations = as_int(&args[1])?.max(0);
                let start = self.host.now_millis();
                let mut value = args[2].clone();
                for _ in 0..iterations {
                    value = self.apply(&args[0], &[value])?;
                }
                let elapsed = self.host.now_millis() - start;
                self.host.report_bench(iterations, elapsed);
                Ok(value)
            }
            Op::PowerUntil => {
                let mut value = args[2].clone();
                loop {
                    let next = self.apply(&args[0], std::slice::from_ref(&value))?;
                    if as_bool(&self.apply(&args[1], &[next.clone(), value])?)? {
                        return Ok(next);
                    }
                    value = next;
                }
            }
            Op::CondScl => {
                if as_bool(&args[1])? {
                    self.apply(&args[0], &args[2..3])
                } else {
                    Ok(args[2].clone())
                }
            }
            Op::Index => Ok(array(array_ops::index(
                as_int(&args[0])?,
                as_int(&args[1])?,
                &*as_array(&args[2])?,
            )?)),
            Op::Update => {
                let indices = array_ops::ints(&*as_array(&args[1])?, "indices")?;
                Ok(array(array_ops::update(
                    &*as_array(&args[0])?,
                    &indices,
                    as_scalar(&args[2])?,
                )?))
            }
            Op::Scatter => {
                let positions = array_ops::ints(&*as_array(&args[1])?, "positions")?;
                Ok(array(array_ops::scatter(
                    &*as_array(&args[0])?,
                    &positions,
                    &*as_array(&args[2])?,
                )?))
            }
            Op::IndexOf => Ok(array(array_ops::index_of(&*as_array(&args[0])?, &*as_array(&args[1])?))),
            Op::Member => Ok(array(array_ops::member(&*as_array(&args[0])?, &*as_array(&args[1])?))),
            Op::Where => Ok(array(array_ops::where_true(&array_ops::bools(
                &*as_array(&args[0])?,
                "⍸'s argument",
            )?))),
            Op::GradeUp => Ok(array(array_ops::grade(&*as_array(&args[0])?, Direction::Ascending)?)),
            Op::GradeDown => Ok(array(array_ops::grade(&*as_array(&args[0])?, Direction::Descending)?)),
            Op::Decode => {
                let radix = array_ops::ints(&*as_array(&args[0])?, "the radix")?;
                let digits = array_ops::ints(&*as_array(&args[1])?, "the digits")?;
                Ok(Value::Scalar(Scalar::Int(array_ops::decode(&radix, &digits)?)))
            }
            Op::Encode => {
                let radix = array_ops::ints(&*as_array(&args[0])?, "the radix")?;
                Ok(int_vector(array_ops::encode(&radix, as_int(&args[1])?)?))
            }
            Op::Mem => Ok(args[0].clone()),
            Op::Print => {
                self.host.print(&args[1], print_settings(&args[0])?)?;
                Ok(args[1].clone())
            }
            Op::Format => self.format_vector(&*as_array(&args[1])?, print_precision(&args[0])?),
            Op::FormatMatrix => self.format_matrix(&*as_array(&args[1])?, print_precision(&args[0])?),
            Op::ReadFile => {
                let text = self.host.read_file(&as_text(&args[0])?)?;
                Ok(array(ArrayValue::vector(ArrayData::Char(text.chars().collect()))))
            }
            Op::ReadIntVecFile => {
                let text = self.host.read_file(&as_text(&args[0])?)?;
                Ok(int_vector(numbers_in_file(text_input::ints_in_text(&text))?))
            }
            Op::ReadDoubleVecFile => {
                let text = self.host.read_file(&as_text(&args[0])?)?;
                let numbers = numbers_in_file(text_input::doubles_in_text(&text))?;
                Ok(array(ArrayValue::vector(ArrayData::Double(numbers))))
            }
            _ => Err(AplError::new(
                AplErrorKind::Nonce,
                format!("{} is not implemented", op.name()),
            )),
        }
    }

    fn each(&mut self, function: &Value, source: &ArrayValue) -> Result<Value, AplError> {
        let mut results = Vec::with_capacity(source.data.len());
        for i in 0..source.data.len() {
            results.push(self.apply_to_scalars(function, &[source.data.get(i)])?);
        }
        self.collect(source.shape.clone(), &results, function, &[source.base_type()])
    }

    /// Builds an array from computed elements. An empty result gets the element type the function would produce
    /// for arguments of the given types, worked out from the function's text without running it (running it on
    /// fill elements could fail or print); int when that cannot be told.
    fn collect(
        &mut self,
        shape: Vec<usize>,
        results: &[Scalar],
        function: &Value,
        argument_types: &[BaseType],
    ) -> Result<Value, AplError> {
        let base = match results.first() {
            Some(first) => first.base_type(),
            None => static_result_base(function, argument_types).unwrap_or(BaseType::Int),
        };
        let data = ArrayData::from_scalars(base, results)
            .ok_or_else(|| not_well_typed("a function returned elements of different types"))?;
        Ok(array(ArrayValue::new(shape, data)))
    }

    fn zip_with(&mut self, function: &Value, left: &ArrayValue, right: &ArrayValue) -> Result<Value, AplError> {
        if left.rank() != right.rank() {
            return Err(AplError::rank(format!(
                "zipWith of ranks {} and {}",
                left.rank(),
                right.rank()
            )));
        }
        if left.shape != right.shape {
            return Err(AplError::length(format!(
                "zipWith of shapes {:?} and {:?}",
                left.shape, right.shape
            )));
        }
        let mut results = Vec::with_capacity(left.data.len());
        for i in 0..left.data.len() {
            results.push(self.apply_to_scalars(function, &[left.data.get(i), right.data.get(i)])?);
        }
        self.collect(
            left.shape.clone(),
            &results,
            function,
            &[left.base_type(), right.base_type()],
        )
    }

    /// Right fold of every row along the last axis; an empty row gives the neutral element, a non-empty row
    /// `f(a0, f(a1, ... a(m-1)))` (the neutral element is not used, as in APL).
    fn reduce(&mut self, function: &Value, neutral: Scalar, source: &ArrayValue) -> Result<Value, AplError> {
        if source.rank() == 0 {
            return Ok(Value::Scalar(source.data.get(0)));
        }
        let extent = *source.shape.last().expect("rank ≥ 1");
        let result_shape = source.shape[..source.rank() - 1].to_vec();
        let rows: usize = result_shape.iter().product();
        let mut results = Vec::with_capacity(rows);
        let exact_sum = matches!(function, Value::Function(f)
            if matches!(&**f, Function::Op { op: Op::AddI, args } if args.is_empty()));
        for row in 0..rows {
            if exact_sum && extent > 0 {
                let mut sum = ExactIntSum::default();
                for k in 0..extent {
                    match source.data.get(row * extent + k) {
                        Scalar::Int(x) => sum.add(x),
                        _ => return Err(not_well_typed("addi reduction of non-ints")),
                    }
                }
                results.push(Scalar::Int(sum.value()?));
                continue;
            }
            let mut accumulator = neutral;
            if extent > 0 {
                accumulator = source.data.get(row * extent + extent - 1);
                for k in (0..extent - 1).rev() {
                    accumulator = self.apply_to_scalars(function, &[source.data.get(row * extent + k), accumulator])?;
                }
            }
            results.push(accumulator);
        }
        let data = ArrayData::from_scalars(neutral.base_type(), &results)
            .or_else(|| {
                results
                    .first()
                    .and_then(|r| ArrayData::from_scalars(r.base_type(), &results))
            })
            .ok_or_else(|| not_well_typed("reduce with elements of different types"))?;
        Ok(array(ArrayValue::new(result_shape, data)))
    }

    /// Inclusive scan along the last axis with APL's definition (element k is the reduction of the first k+1
    /// elements). For associative scalar operators that equals the running left accumulation, which is linear; for
    /// other functions every prefix is folded from the right.
    fn scan(&mut self, function: &Value, source: &ArrayValue) -> Result<Value, AplError> {
        if source.rank() == 0 || source.data.is_empty() {
            return Ok(Value::Array(Rc::new(source.clone())).normalised());
        }
        let associative = matches!(function, Value::Function(f)
            if matches!(&**f, Function::Op { op, args } if args.is_empty() && is_associative(*op)));
        let extent = *source.shape.last().expect("rank ≥ 1");
        let rows = source.data.len() / extent.max(1);
        let mut results = Vec::with_capacity(source.data.len());
        for row in 0..rows {
            let element = |k: usize| source.data.get(row * extent + k);
            if associative {
                let mut accumulator = element(0);
                results.push(accumulator);
                for k in 1..extent {
                    accumulator = self.apply_to_scalars(function, &[accumulator, element(k)])?;
                    results.push(accumulator);
                }
            } else {
                for end in 0..extent {
                    let mut accumulator = element(end);
                    for k in (0..end).rev() {
                        accumulator = self.apply_to_scalars(function, &[element(k), accumulator])?;
                    }
                    results.push(accumulator);
                }
            }
        }
        self.collect(
            source.shape.clone(),
            &results,
            function,
            &[source.base_type(), source.base_type()],
        )
    }

    /// `⍕` of a scalar or vector: one line of text.
    fn format_vector(&mut self, source: &ArrayValue, precision: u32) -> Result<Value, AplError> {
        if source.rank() > 1 {
            return Err(AplError::rank(
                "format of an array of rank 2 or more (use formatMatrix for a matrix)",
            ));
        }
        let rows = aplc_runtime::display::format_to_char_matrix(&view(source), precision);
        let chars: Vec<char> = rows.into_iter().next().unwrap_or_default();
        Ok(array(ArrayValue::vector(ArrayData::Char(chars))))
    }

    /// `⍕` of a matrix: the displayed lines as rows of a char matrix.
    fn format_matrix(&mut self, source: &ArrayValue, precision: u32) -> Result<Value, AplError> {
        if source.rank() != 2 {
            return Err(AplError::rank("formatMatrix needs a matrix"));
        }
        let rows = aplc_runtime::display::format_to_char_matrix(&view(source), precision);
        let width = rows.first().map_or(0, Vec::len);
        let height = rows.len();
        let chars: Vec<char> = rows.into_iter().flatten().collect();
        Ok(array(ArrayValue::new(vec![height, width], ArrayData::Char(chars))))
    }
}

/// The base type of an op's result: concrete, or the index of the argument whose type determines it.
enum OpResultBase {
    Known(BaseType),
    SameAsArgument(usize),
    Unknown,
}

fn op_result_base(op: Op) -> OpResultBase {
    let mut parameters = Vec::new();
    let mut ty = &op.scheme().body;
    while let Type::Function(parameter, result) = ty {
        parameters.push(&**parameter);
        ty = result;
    }
    let head_variable = |ty: &Type| match ty {
        Type::Array(b, _) | Type::Vector(b, _) | Type::Singleton(b, _) | Type::SingletonVector(b, _) => match b {
            BaseType::Var(id) => Some((0, *id)),
            _ => None,
        },
        Type::Var(id) => Some((1, *id)),
        _ => None,
    };
    match ty {
        Type::Array(b, _) | Type::Vector(b, _) | Type::Singleton(b, _) | Type::SingletonVector(b, _)
            if !matches!(b, BaseType::Var(_)) =>
        {
            OpResultBase::Known(*b)
        }
        result => match head_variable(result) {
            Some(variable) => parameters
                .iter()
                .position(|p| head_variable(p) == Some(variable))
                .map_or(OpResultBase::Unknown, OpResultBase::SameAsArgument),
            None => OpResultBase::Unknown,
        },
    }
}

/// The base type a function returns for arguments of the given base types, read off its text.
fn static_result_base(function: &Value, argument_types: &[BaseType]) -> Option<BaseType> {
    let Value::Function(function) = function else {
        return None;
    };
    match &**function {
        Function::Op { op, args } => match op_result_base(*op) {
            OpResultBase::Known(base) => Some(base),
            OpResultBase::SameAsArgument(k) if k < args.len() => value_base(&args[k]),
            OpResultBase::SameAsArgument(k) => argument_types.get(k - args.len()).copied(),
            OpResultBase::Unknown => None,
        },
        Function::Closure {
            parameters,
            bound,
            body,
            environment,
        } => {
            let mut locals: Vec<(String, Option<BaseType>)> = parameters[*bound..]
                .iter()
                .zip(argument_types)
                .map(|(parameter, base)| (parameter.to_string(), Some(*base)))
                .collect();
            if locals.len() < parameters.len() - bound {
                return None;
            }
            static_base(body, &mut locals, environment)
        }
    }
}

fn value_base(value: &Value) -> Option<BaseType> {
    match value {
        Value::Scalar(scalar) => Some(scalar.base_type()),
        Value::Array(array) => Some(array.base_type()),
        _ => None,
    }
}

/// The base type of an expression's value, from literals, variables and the op table (None when it cannot be told).
fn static_base(expr: &Expr, locals: &mut Vec<(String, Option<BaseType>)>, env: &Environment) -> Option<BaseType> {
    match &expr.kind {
        ExprKind::Int(_) => Some(BaseType::Int),
        ExprKind::Double(_) => Some(BaseType::Double),
        ExprKind::Bool(_) => Some(BaseType::Bool),
        ExprKind::Char(_) => Some(BaseType::Char),
        ExprKind::Complex(..) => Some(BaseType::Complex),
        ExprKind::Var(name) => match locals.iter().rev().find(|(local, _)| local == name) {
            Some((_, base)) => *base,
            None => env.lookup(name).and_then(value_base),
        },
        ExprKind::Vector { elements, element_type } => {
            element_type.or_else(|| elements.first().and_then(|e| static_base(e, locals, env)))
        }
        ExprKind::Op { op, args } => match op_result_base(*op) {
            OpResultBase::Known(base) => Some(base),
            OpResultBase::SameAsArgument(k) => static_base(&args[k], locals, env),
            OpResultBase::Unknown => None,
        },
        ExprKind::Let { name, value, body, .. } => {
            let base = static_base(value, locals, env);
            locals.push((name.clone(), base));
            let result = static_base(body, locals, env);
            locals.pop();
            result
        }
        ExprKind::OpRef(_)
        | ExprKind::Lambda { .. }
        | ExprKind::Tuple(_)
        | ExprKind::Project { .. }
        | ExprKind::Call { .. } => None,
    }
}

/// Whitespace-separated numbers, with APL's `¯` accepted as a minus sign.
/// The numbers of a file (parsed by the run-time library, as compiled programs parse them), or a DOMAIN ERROR.
pub fn numbers_in_file<T>(parsed: Result<Vec<T>, String>) -> Result<Vec<T>, AplError> {
    parsed.map_err(|token| AplError::domain(text_input::not_a_number_message(&token)))
}

impl Value {
    /// A rank-0 array as a scalar; other values unchanged.
    fn normalised(self) -> Value {
        match self {
            Value::Array(array) if array.shape.is_empty() => Value::Scalar(array.data.get(0)),
            other => other,
        }
    }
}

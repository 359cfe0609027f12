//! System names: `⎕IO`, `⎕PP` (read and assigned), `⎕CT`, `⎕ML`, `⎕FR` (read, and assigned their one value),
//! `⎕NOW`, `⎕A`, `⎕D`, `⎕UCS`, `⎕C`, `⎕NC`, the `⎕INT32*` bitwise family, the file
//! readers `⎕ReadFile`, `⎕ReadIntVecFile`, `⎕ReadDoubleVecFile`, and the program-argument readers `d ⎕ArgInt i`,
//! `d ⎕ArgDouble i`. The operator `⎕BENCH` (power with timing) is a
//! derived function built in `derive` (mod.rs) and elaborated by `timed_power` (operators.rs).

use super::env::{Arr, Fun, Scalar, Val};
use super::error::{ElabError, ElabResult};
use super::ir::{Base, Expr};
use super::resolve::system_name_is_function;
use super::Elaborator;
use crate::source::Span;
use crate::syntax::ast;
use crate::tail::scalar_ops::COMPARISON_TOLERANCE;
use aplc_runtime::display::PrintSettings;
use std::rc::Rc;

/// `⎕ML`: Dyalog's default migration level, the meaning of the primitives aplc compiles.
const MIGRATION_LEVEL: i64 = 1;
/// `⎕FR`: 64-bit binary floating point.
const FLOAT_REPRESENTATION: i64 = 645;

impl Elaborator {
    pub fn system_name(&mut self, name: &ast::Name) -> ElabResult<Val> {
        let upper = name.text.to_uppercase();
        if system_name_is_function(&upper) {
            return Ok(Val::Function(Rc::new(Fun::System(upper, name.span))));
        }
        Ok(Val::Array(match upper.as_str() {
            "⎕IO" => Arr::scalar_constant(Scalar::Bool(true)),
            "⎕PP" => Arr::scalar_constant(Scalar::Int(i64::from(self.print.precision))),
            "⎕PW" => Arr::scalar_constant(Scalar::Int(self.print.width as i64)),
            "⎕CT" => Arr::scalar_constant(Scalar::Double(COMPARISON_TOLERANCE)),
            "⎕ML" => Arr::scalar_constant(Scalar::Int(MIGRATION_LEVEL)),
            "⎕FR" => Arr::scalar_constant(Scalar::Int(FLOAT_REPRESENTATION)),
            "⎕NOW" => Arr::dynamic(Expr::op("nowi", vec![]), Base::Int, 0),
            "⎕A" => Arr::vector_constant(('A'..='Z').map(Scalar::Char).collect(), Base::Char),
            "⎕D" => Arr::vector_constant(('0'..='9').map(Scalar::Char).collect(), Base::Char),
            _ => return Err(ElabError::nonce(name.span, format!("the system name {}", name.text))),
        }))
    }

    pub fn assign_system_name(
        &mut self,
        name: &ast::Name,
        value: Val,
        assignment: &ast::Assignment,
    ) -> ElabResult<Val> {
        let upper = name.text.to_uppercase();
        if !assignment.modifier.is_empty() || assignment.indices.is_some() {
            return Err(ElabError::nonce(assignment.span, format!("modifying {}", name.text)));
        }
        let constant_scalar = match &value {
            Val::Array(array) => array.constant_scalar(),
            _ => None,
        };
        let constant = constant_scalar.and_then(|s| s.as_int());
        match (upper.as_str(), constant) {
            ("⎕PP", Some(precision)) if (1..=17).contains(&precision) => self.print.precision = precision as u32,
            ("⎕PP", Some(_)) => return Err(ElabError::domain(assignment.span, "⎕PP must be between 1 and 17")),
            ("⎕PP", None) => {
                return Err(ElabError::nonce(
                    assignment.span,
                    "⎕PP set to a value that is not a constant",
                ))
            }
            ("⎕PW", Some(width))
                if usize::try_from(width).is_ok_and(|width| PrintSettings::WIDTHS.contains(&width)) =>
            {
                self.print.width = width as usize
            }
            ("⎕PW", Some(_)) => return Err(ElabError::domain(assignment.span, "⎕PW must be between 42 and 32767")),
            ("⎕PW", None) => {
                return Err(ElabError::nonce(
                    assignment.span,
                    "⎕PW set to a value that is not a constant",
                ))
            }
            ("⎕IO", Some(1)) => {}
            ("⎕IO", _) => {
                return Err(ElabError::nonce(assignment.span, "⎕IO other than 1")
                    .with_hint("aplc compiles with index origin 1"))
            }
            // Assigning the one value aplc compiles with is accepted, as for ⎕IO.
            ("⎕CT", _) if constant_scalar.and_then(|s| s.as_double()) == Some(COMPARISON_TOLERANCE) => {}
            ("⎕CT", _) => {
                return Err(ElabError::nonce(assignment.span, "⎕CT other than 1E¯14")
                    .with_hint("aplc compiles with Dyalog's default comparison tolerance, 1E¯14"))
            }
            ("⎕ML", Some(MIGRATION_LEVEL)) | ("⎕FR", Some(FLOAT_REPRESENTATION)) => {}
            ("⎕ML", _) => {
                return Err(ElabError::nonce(assignment.span, "⎕ML other than 1")
                    .with_hint("aplc compiles with Dyalog's default migration level, 1"))
            }
            ("⎕FR", _) => {
                return Err(ElabError::nonce(assignment.span, "⎕FR other than 645").with_hint(
                    "aplc's floating-point numbers are 64-bit binary (⎕FR 645); decimal ones (1287) are not supported",
                ))
            }
            _ => return Err(ElabError::nonce(name.span, format!("assigning {}", name.text))),
        }
        Ok(value)
    }

    pub fn system_function_monadic(&mut self, name: &str, argument: Val, span: Span) -> ElabResult<Val> {
        if name == "⎕C" {
            return self.case_conversion("lower_case", argument, span);
        }
        let argument = self.expect_array(argument, span)?;
        let (op, base) = match name {
            "⎕READFILE" => ("readFile", Base::Char),
            "⎕READINTVECFILE" => ("readIntVecFile", Base::Int),
            "⎕READDOUBLEVECFILE" => ("readDoubleVecFile", Base::Double),
            "⎕INT32NOT" => {
                let argument = self.integer_argument(argument, span)?;
                return self
                    .pointwise_monadic(argument, span, &mut |_, x| {
                        Ok(Val::Array(Arr::dynamic(
                            wrap_to_32_bits(Expr::op("noti", vec![x.expr])),
                            Base::Int,
                            0,
                        )))
                    })
                    .map(Val::Array);
            }
            "⎕UCS" => return self.unicode_conversion(argument, span).map(Val::Array),
            "⎕NC" => return self.name_class(argument, span).map(Val::Array),
            "⎕ARGINT" | "⎕ARGDOUBLE" => {
                return Err(
                    ElabError::syntax(span, format!("{} needs a default on its left", written_name(name))).with_hint(
                        "d ⎕ArgInt i is program argument i, or d when the program got fewer than i arguments",
                    ),
                )
            }
            other => return Err(ElabError::nonce(span, format!("{other} used monadically"))),
        };
        if argument.base != Base::Char || argument.rank > 1 {
            return Err(ElabError::domain(span, format!("{name} takes a file name")));
        }
        let argument = self.ravel(argument);
        Ok(Val::Array(Arr::dynamic(Expr::op(op, vec![argument.expr]), base, 1)))
    }

    /// `⎕C ⍵` (and `¯1 ⎕C ⍵`, `1 ⎕C ⍵`): the characters of ⍵, in every item of a nested array, through the prelude's
    /// `lower_case` or `upper_case`; numbers are unchanged, as in Dyalog.
    fn case_conversion(&mut self, function_name: &'static str, argument: Val, span: Span) -> ElabResult<Val> {
        match argument {
            Val::Tuple(items) => {
                let converted = items
                    .into_iter()
                    .map(|item| self.case_conversion(function_name, item, span))
                    .collect::<ElabResult<Vec<Val>>>()?;
                Ok(Val::Tuple(converted))
            }
            Val::Array(array) if array.base == Base::Char => self.apply_prelude_monadic(function_name, array, span),
            Val::Array(array) => Ok(Val::Array(array)),
            _ => Err(ElabError::nonce(span, "⎕C of a nested array of this kind")),
        }
    }

    /// `⎕NC 'name'`: what the name denotes where it is read, known when compiling: 0 nothing (undefined, or a
    /// tradfn's local not yet assigned), 2 an array, 3 a function, 4 an operator, ¯1 not a valid name. The
    /// optional left argument of a tradfn is tested this way (`:If 0=⎕NC'A'`).
    fn name_class(&mut self, argument: Arr, span: Span) -> ElabResult<Arr> {
        let text: Option<String> = match &argument.constant {
            Some(characters) if argument.base == Base::Char && argument.rank <= 1 => characters
                .iter()
                .map(|scalar| match scalar {
                    Scalar::Char(character) => Some(*character),
                    _ => None,
                })
                .collect(),
            _ => None,
        };
        let Some(text) = text else {
            return Err(ElabError::nonce(
                span,
                "⎕NC of anything but one name written as a string",
            ));
        };
        let name = text.trim();
        let is_valid_name = name
            .chars()
            .next()
            .is_some_and(|first| first.is_ascii_alphabetic() || "_∆⍙".contains(first))
            && name.chars().all(|c| c.is_ascii_alphanumeric() || "_∆⍙¯".contains(c));
        let class = if !is_valid_name {
            -1
        } else {
            match self.lookup_name(name) {
                None => 0,
                Some(Val::Array(_) | Val::Tuple(_) | Val::Nested { .. }) => 2,
                Some(Val::Function(_)) => 3,
                Some(Val::Operator(_)) => 4,
            }
        };
        Ok(Arr::scalar_constant(Scalar::Int(class)))
    }

    /// `⎕UCS ⍵`: the code points of characters, or the characters of code points (a DOMAIN ERROR for a number that
    /// is not one).
    fn unicode_conversion(&mut self, argument: Arr, span: Span) -> ElabResult<Arr> {
        let (op, base, argument) = match argument.base {
            Base::Char => ("c2i", Base::Int, argument),
            Base::Complex => return Err(ElabError::domain(span, "⎕UCS of complex numbers")),
            _ => ("i2c", Base::Char, self.integer_argument(argument, span)?),
        };
        self.pointwise_monadic(argument, span, &mut |_, x| {
            Ok(Val::Array(Arr::dynamic(Expr::op(op, vec![x.expr]), base, 0)))
        })
    }

    pub fn system_function_dyadic(&mut self, name: &str, left: Val, right: Val, span: Span) -> ElabResult<Val> {
        if let "⎕ARGINT" | "⎕ARGDOUBLE" = name {
            return self.program_argument(name, left, right, span);
        }
        if name == "⎕C" {
            let direction = match &left {
                Val::Array(array) => array.constant_scalar().and_then(|scalar| scalar.as_int()),
                _ => None,
            };
            return match direction {
                Some(1) => self.case_conversion("upper_case", right, span),
                Some(-1 | 0) => self.case_conversion("lower_case", right, span),
                Some(_) => Err(ElabError::domain(span, "⎕C's left argument must be ¯1, 0 or 1")),
                None => Err(ElabError::nonce(span, "⎕C with a left argument that is not a constant")),
            };
        }
        let op: &'static str = match name {
            "⎕INT32AND" => "andi",
            "⎕INT32OR" => "ori",
            "⎕INT32XOR" => "xori",
            "⎕INT32SHL" => "shli",
            "⎕INT32SHR" => "shri",
            "⎕INT32SHAR" => "shari",
            other => return Err(ElabError::nonce(span, format!("{other} used dyadically"))),
        };
        let left = self.expect_array(left, span)?;
        let right = self.expect_array(right, span)?;
        let left = self.integer_argument(left, span)?;
        let right = self.integer_argument(right, span)?;
        self.pointwise_dyadic(left, right, span, &mut |_, x, y| {
            // A logical right shift sees the 32-bit pattern as unsigned.
            let x = if op == "shri" { unsigned_32_bits(x.expr) } else { x.expr };
            let expr = wrap_to_32_bits(Expr::op(op, vec![x, y.expr]));
            Ok(Val::Array(Arr::dynamic(expr, Base::Int, 0)))
        })
        .map(Val::Array)
    }
}

impl Elaborator {
    /// `default ⎕ArgInt index` and `default ⎕ArgDouble index`: program argument `index` (from 1) read at run time as
    /// an int or a double, `default` when the program got fewer arguments. Both arguments are scalars; the result is
    /// never a compile-time constant, which is the point (benchmark sizes that the compiler cannot fold).
    fn program_argument(&mut self, name: &str, left: Val, right: Val, span: Span) -> ElabResult<Val> {
        let (op, base) = match name {
            "⎕ARGINT" => ("argInt", Base::Int),
            _ => ("argDouble", Base::Double),
        };
        let default = self.expect_array(left, span)?;
        let index = self.expect_array(right, span)?;
        if default.rank != 0 || index.rank != 0 {
            return Err(ElabError::rank(
                span,
                format!(
                    "{} takes a scalar default on its left and a scalar argument number on its right",
                    written_name(name)
                ),
            ));
        }
        let index = self.integer_argument(index, span)?;
        let default = match base {
            Base::Int => self.integer_argument(default, span)?,
            _ => self.convert(default, Base::Double, span)?,
        };
        let expr = Expr::op(op, vec![index.expr, default.expr]);
        Ok(Val::Array(Arr::dynamic(expr, base, 0)))
    }
}

/// A program-argument reader's name as the documentation writes it (system names reach here in upper case).
fn written_name(upper: &str) -> &'static str {
    match upper {
        "⎕ARGINT" => "⎕ArgInt",
        _ => "⎕ArgDouble",
    }
}

const TWO_TO_32: i64 = 1 << 32;
const TWO_TO_31: i64 = 1 << 31;

/// The int whose low 32 bits are those of `expr`, as an unsigned number (0 to 2*32-1).
fn unsigned_32_bits(expr: Expr) -> Expr {
    Expr::op("resi", vec![Expr::Int(TWO_TO_32), expr])
}

/// The ⎕INT32 functions compute in 32 bits: the low 32 bits of a 64-bit result, read as a signed number.
fn wrap_to_32_bits(expr: Expr) -> Expr {
    let shifted = Expr::op("addi", vec![expr, Expr::Int(TWO_TO_31)]);
    Expr::op("subi", vec![unsigned_32_bits(shifted), Expr::Int(TWO_TO_31)])
}

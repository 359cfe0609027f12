//! Scalar expressions: constants, variables, loads, `select`, and every scalar operator of TAIL with exactly the
//! semantics of `crate::tail::scalar_ops` (wrapping int arithmetic, floor division, APL residue, tolerant double
//! comparison and floor, `0÷0 = 1`, DOMAIN ERROR for results that are not finite real numbers: NaN or overflow to ∞).

use inkwell::intrinsics::Intrinsic;
use inkwell::module::Linkage;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValue, BasicValueEnum, FastMathFlags, FloatValue, FunctionValue, IntValue};
use inkwell::{FloatPredicate, IntPredicate};

use crate::runtime::error::AplErrorKind;

mod complex;

use super::{internal_error, nan_checks, not_a_finite_real_number, special_functions, ProgramTranslator};
use crate::codegen::llvm::error::CodegenError;
use crate::codegen::llvm::runtime_table::{declare_runtime_function, RuntimeFunctionId};
use crate::loops::ir::{Expr, Var};
use crate::source::Span;
use crate::tail::ast::Op;
use crate::tail::scalar_ops::COMPARISON_TOLERANCE;

/// How an operator can fail, which decides whether it may be evaluated speculatively and inside vectorised loops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FailureClass {
    /// Never an APL error.
    Never,
    /// A double result that is not a finite real number: deferrable.
    DoubleDomain,
    /// An error that must stop the program before the result is used (int results may become indices).
    Immediate,
}

/// `(floor or ceil, its operand, its site)` when `expr` is a rounding of a double to an int.
fn rounding_of(expr: &Expr) -> Option<(Op, &Expr, Option<Span>)> {
    match expr {
        Expr::Prim(op @ (Op::Floor | Op::Ceil), operand) => Some((*op, &operand[0], None)),
        Expr::At(site, inner) => {
            rounding_of(inner).map(|(op, operand, inner_site)| (op, operand, inner_site.or(Some(*site))))
        }
        _ => None,
    }
}

/// k when `value` is the constant 2^k with 0 < k < 63.
fn power_of_two_exponent(value: IntValue<'_>) -> Option<i64> {
    let value = value.get_sign_extended_constant()?;
    (value > 1 && value.count_ones() == 1).then(|| i64::from(value.trailing_zeros()))
}

fn failure_class(op: Op, arguments: &[Expr]) -> FailureClass {
    use FailureClass::*;
    match op {
        Op::AddD | Op::SubD | Op::MulD | Op::DivD | Op::ResD | Op::PowD | Op::LogD => DoubleDomain,
        Op::Ln | Op::Sin | Op::Cos | Op::Tan | Op::Asin | Op::Acos | Op::Acosh | Op::Atanh | Op::Sqrt => DoubleDomain,
        // These overflow to ∞.
        Op::ExpD | Op::Sinh | Op::Cosh => DoubleDomain,
        Op::Gamma | Op::BinomialD | Op::DivX => DoubleDomain,
        Op::DivI => match arguments.get(1).and_then(Expr::as_int) {
            // Only the most negative int divided by -1 overflows.
            Some(divisor) if divisor != 0 && divisor != -1 => Never,
            _ => Immediate,
        },
        Op::ShlI | Op::ShrI | Op::SharI => match arguments.get(1).and_then(Expr::as_int) {
            Some(amount) if amount >= 0 => Never,
            _ => Immediate,
        },
        // A roll advances the random generator: it must run exactly where (and as often as) the program says.
        Op::Roll => Immediate,
        // A program argument that is not a number stops the program where it is read.
        Op::ArgInt | Op::ArgDouble => Immediate,
        // An int result that does not fit in 64 bits: deferrable like a double's (see `translate.rs`).
        Op::AddI | Op::SubI | Op::MulI | Op::NegI | Op::AbsI => DoubleDomain,
        Op::PowI | Op::FactorialI | Op::I2C | Op::I2B | Op::D2I | Op::Floor | Op::Ceil | Op::BinomialI => Immediate,
        _ => Never,
    }
}

impl<'ctx> ProgramTranslator<'_, 'ctx> {
    pub(super) fn translate_expression(&self, expression: &Expr) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        let context = self.emitter.context;
        match expression {
            Expr::Int(value) => Ok(self.emitter.int_constant(*value).into()),
            Expr::Double(value) => Ok(context.f64_type().const_float(*value).into()),
            Expr::Bool(value) => Ok(context.bool_type().const_int(u64::from(*value), false).into()),
            Expr::Char(value) => Ok(context.i32_type().const_int(u64::from(*value), false).into()),
            Expr::Var(var) => self.read_variable(var),
            Expr::Prim(op, arguments) => self.translate_operator_application(*op, arguments),
            Expr::Load { block, index } => self.translate_load(*block, index),
            Expr::Select(condition, then, otherwise) => self.translate_select(condition, then, otherwise),
            Expr::At(site, inner) => self.with_site(*site, || self.translate_expression(inner)),
            Expr::Threshold { name, value } => Ok(self.translate_threshold(name, value)?.into()),
        }
    }

    pub(super) fn translate_int(&self, expression: &Expr) -> Result<IntValue<'ctx>, CodegenError> {
        Ok(self.translate_expression(expression)?.into_int_value())
    }

    pub(super) fn translate_bool(&self, expression: &Expr) -> Result<IntValue<'ctx>, CodegenError> {
        Ok(self.translate_expression(expression)?.into_int_value())
    }

    /// Whether both arms of a `select` may be evaluated before the choice: no loads (the arm not chosen may index
    /// outside its block) and no checks that branch.
    fn is_speculatable(&self, expression: &Expr) -> bool {
        let deferring = self.deferred_checks.borrow().is_some();
        match expression {
            Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) | Expr::Var(_) => true,
            Expr::Load { .. } => false,
            Expr::Select(condition, then, otherwise) => {
                self.is_speculatable(condition) && self.is_speculatable(then) && self.is_speculatable(otherwise)
            }
            Expr::At(_, inner) => self.is_speculatable(inner),
            // It calls the run-time library (to read the parameter and log the comparison).
            Expr::Threshold { .. } => false,
            Expr::Prim(op, arguments) => {
                let allowed = match failure_class(*op, arguments) {
                    FailureClass::Never => true,
                    FailureClass::DoubleDomain => deferring,
                    FailureClass::Immediate => false,
                };
                allowed && arguments.iter().all(|argument| self.is_speculatable(argument))
            }
        }
    }

    /// `condition ? then : otherwise`, lazily: an LLVM `select` when both arms are speculatable (their deferred checks
    /// guarded by the choice), otherwise branches and a phi.
    fn translate_select(
        &self,
        condition: &Expr,
        then: &Expr,
        otherwise: &Expr,
    ) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        let condition = self.translate_bool(condition)?;
        if self.is_speculatable(then) && self.is_speculatable(otherwise) {
            let then_value = self.with_speculation_guard(condition, || self.translate_expression(then))?;
            let not_condition = self.emitter.builder.build_not(condition, "not_chosen")?;
            let otherwise_value =
                self.with_speculation_guard(not_condition, || self.translate_expression(otherwise))?;
            return Ok(self
                .emitter
                .builder
                .build_select(condition, then_value, otherwise_value, "selected")?);
        }
        self.translate_select_with_branches(condition, then, otherwise)
    }

    fn with_speculation_guard<T>(
        &self,
        condition: IntValue<'ctx>,
        evaluate: impl FnOnce() -> Result<T, CodegenError>,
    ) -> Result<T, CodegenError> {
        let outer = *self.speculation_guard.borrow();
        let guard = match outer {
            Some(outer) => self.emitter.builder.build_and(outer, condition, "guard")?,
            None => condition,
        };
        *self.speculation_guard.borrow_mut() = Some(guard);
        let result = evaluate();
        *self.speculation_guard.borrow_mut() = outer;
        result
    }

    fn translate_select_with_branches(
        &self,
        condition: IntValue<'ctx>,
        then: &Expr,
        otherwise: &Expr,
    ) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        let context = self.emitter.context;
        let function = self.emitter.function;
        let builder = &self.emitter.builder;
        let then_block = context.append_basic_block(function, "select_then");
        let otherwise_block = context.append_basic_block(function, "select_else");
        let join_block = context.append_basic_block(function, "select_join");
        builder.build_conditional_branch(condition, then_block, otherwise_block)?;
        builder.position_at_end(then_block);
        let then_value = self.translate_expression(then)?;
        let then_end = self.current_block()?;
        builder.build_unconditional_branch(join_block)?;
        builder.position_at_end(otherwise_block);
        let otherwise_value = self.translate_expression(otherwise)?;
        let otherwise_end = self.current_block()?;
        builder.build_unconditional_branch(join_block)?;
        builder.position_at_end(join_block);
        let phi = builder.build_phi(then_value.get_type(), "selected")?;
        phi.add_incoming(&[(&then_value, then_end), (&otherwise_value, otherwise_end)]);
        Ok(phi.as_basic_value())
    }

    fn current_block(&self) -> Result<inkwell::basic_block::BasicBlock<'ctx>, CodegenError> {
        self.emitter
            .builder
            .get_insert_block()
            .ok_or_else(|| internal_error("the builder has no position".to_string()))
    }

    /// One step `acc := f(x, acc)` of a reduction: the operation with `reassoc` and `nsz`, its not-a-real-number
    /// check left to the end of the loop (see the module documentation).
    pub(super) fn translate_reduction_step(
        &self,
        accumulator: &Var,
        value: &Expr,
    ) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        let Expr::Prim(op, arguments) = value.without_site() else {
            return Err(internal_error(format!(
                "{} is not a reduction step",
                accumulator.name()
            )));
        };
        let left = self.translate_expression(&arguments[0])?.into_float_value();
        let right = self.translate_expression(&arguments[1])?.into_float_value();
        let name = accumulator.name();
        let reassociate = !self.accumulators_in_order.borrow().contains(&accumulator.id);
        let result = match op {
            Op::AddD => self.emitter.emit_reduction_float_add(left, right, reassociate, &name)?,
            Op::MulD => self.emitter.emit_reduction_float_mul(left, right, reassociate, &name)?,
            Op::MaxD => self.call_reduction_intrinsic("llvm.maxnum", left, right, reassociate, &name)?,
            Op::MinD => self.call_reduction_intrinsic("llvm.minnum", left, right, reassociate, &name)?,
            other => return Err(internal_error(format!("{} is not a reduction operator", other.name()))),
        };
        Ok(result.into())
    }

    fn call_reduction_intrinsic(
        &self,
        intrinsic_name: &str,
        left: FloatValue<'ctx>,
        right: FloatValue<'ctx>,
        reassociate: bool,
        name: &str,
    ) -> Result<FloatValue<'ctx>, CodegenError> {
        let result = self
            .emitter
            .emit_double_intrinsic(intrinsic_name, &[left, right], name)?;
        if let Some(instruction) = result.as_instruction_value().filter(|_| reassociate) {
            instruction
                .set_fast_math_flags(FastMathFlags::AllowReassoc | FastMathFlags::NoSignedZeros)
                .map_err(|error| internal_error(error.to_string()))?;
        }
        Ok(result)
    }

    // ---- Operators ----

    fn translate_operator_application(&self, op: Op, arguments: &[Expr]) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        let elided = self.elide_next_nan_check.replace(false);
        let contracts = self.contract_next_sum.replace(false);
        // Inside a deferring loop nest, an operation argument that the operation propagates a NaN or ∞ of needs no
        // check of its own.
        let deferring = self.deferred_checks.borrow().is_some();
        let compares_ints = matches!(op, Op::EqI | Op::NeqI | Op::LtI | Op::LteI | Op::GtI | Op::GteI);
        if compares_ints {
            if let Some(compared) = self.translate_narrow_comparison(op, arguments)? {
                return Ok(compared.into());
            }
        }
        let values = arguments
            .iter()
            .enumerate()
            .map(|(position, argument)| {
                let implied = deferring && nan_checks::propagates_non_finite(op, position);
                // (An argument's site does not keep its check: a NaN or ∞ that flows on is reported at the
                // operation that checks it, the outer one; README, "Run-time errors".)
                self.elide_next_nan_check
                    .set(implied && matches!(argument.without_site(), Expr::Prim(..)));
                match compares_ints && deferring {
                    true => self.translate_compared_rounding(argument),
                    false => self.translate_expression(argument),
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        self.elide_next_nan_check.set(false);
        self.nan_check_elided.set(elided);
        let result = match values.as_slice() {
            [x] => self.translate_unary_operator(op, *x),
            [x, y] => self.translate_binary_operator(op, *x, *y),
            _ => Err(unsupported_operator(op)),
        };
        self.nan_check_elided.set(false);
        if let (true, Ok(BasicValueEnum::FloatValue(sum))) = (contracts, &result) {
            crate::codegen::llvm::emit::allow_contraction(*sum)?;
        }
        result
    }

    fn translate_unary_operator(&self, op: Op, x: BasicValueEnum<'ctx>) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        if x.is_struct_value() {
            return self.translate_complex_unary_operator(op, x.into_struct_value());
        }
        let builder = &self.emitter.builder;
        let context = self.emitter.context;
        let name = op.name();
        Ok(match op {
            Op::D2X => self
                .make_complex(x.into_float_value(), context.f64_type().const_zero())?
                .into(),
            Op::Roll => self.call_roll(x.into_int_value())?.into(),
            Op::NegW => builder.build_int_neg(x.into_int_value(), name)?.into(),
            Op::NegI => {
                let x = x.into_int_value();
                self.check_has_negation(op, x)?;
                builder.build_int_neg(x, name)?.into()
            }
            Op::AbsI => {
                let x = x.into_int_value();
                self.check_has_negation(op, x)?;
                self.int_absolute_value(x)?.into()
            }
            Op::SignI => self.int_sign(x.into_int_value())?.into(),
            Op::NotB => builder.build_not(x.into_int_value(), name)?.into(),
            Op::NotI => self.int32_not(x.into_int_value())?.into(),
            Op::PopCount => self.int32_population_count(x.into_int_value())?.into(),
            Op::I2B => self.int_to_bool(x.into_int_value())?.into(),
            Op::D2I => self.double_to_int_exactly(x.into_float_value())?.into(),
            Op::FactorialI => self.int_factorial(x.into_int_value())?.into(),
            Op::I2D => builder
                .build_signed_int_to_float(x.into_int_value(), context.f64_type(), name)?
                .into(),
            Op::I2C => self.int_to_char(x.into_int_value())?.into(),
            Op::B2I | Op::B2IV | Op::C2I => builder
                .build_int_z_extend(x.into_int_value(), context.i64_type(), name)?
                .into(),
            Op::Floor | Op::Ceil => self.double_to_int_rounded(op, x.into_float_value())?.into(),
            _ => self.translate_double_unary_operator(op, x.into_float_value())?.into(),
        })
    }

    fn translate_double_unary_operator(&self, op: Op, x: FloatValue<'ctx>) -> Result<FloatValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let name = op.name();
        let result = match op {
            Op::NegD => return Ok(builder.build_float_neg(x, name)?),
            Op::AbsD => return self.double_intrinsic("llvm.fabs", &[x], name),
            Op::SignD => return self.double_sign(x),
            Op::ExpD => self.double_intrinsic("llvm.exp", &[x], name)?,
            Op::Atan | Op::Tanh | Op::Asinh => return self.call_libm(op, x),
            Op::Sinh | Op::Cosh => self.call_libm(op, x)?,
            Op::Ln => {
                if self.float_mode.checks_finite_results() {
                    let not_positive = self.double_compare(FloatPredicate::OLE, x, self.double_constant(0.0))?;
                    let message = "ln: logarithm of zero or a negative number".to_string();
                    self.check_deferrable_domain(not_positive, message)?;
                }
                self.double_intrinsic("llvm.log", &[x], name)?
            }
            Op::Sin => self.double_intrinsic("llvm.sin", &[x], name)?,
            Op::Cos => self.double_intrinsic("llvm.cos", &[x], name)?,
            Op::Sqrt => self.double_intrinsic("llvm.sqrt", &[x], name)?,
            Op::Tan | Op::Asin | Op::Acos | Op::Acosh | Op::Atanh => self.call_libm(op, x)?,
            Op::Gamma => {
                let (value, negative_integer) = self.double_factorial(x)?;
                self.check_deferrable_domain(negative_integer, "factd: factorial of a negative integer".to_string())?;
                value
            }
            _ => return Err(unsupported_operator(op)),
        };
        self.check_real_result(op, result, &[x])?;
        Ok(result)
    }

    fn translate_binary_operator(
        &self,
        op: Op,
        x: BasicValueEnum<'ctx>,
        y: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        if x.is_struct_value() {
            return self.translate_complex_binary_operator(op, x.into_struct_value(), y.into_struct_value());
        }
        if op == Op::MakeX {
            return Ok(self.make_complex(x.into_float_value(), y.into_float_value())?.into());
        }
        if matches!(op, Op::ArgInt | Op::ArgDouble) {
            return self.with_runtime_site(self.current_site.get(), || self.call_program_argument(op, x, y));
        }
        if x.is_float_value() {
            return self.translate_double_binary_operator(op, x.into_float_value(), y.into_float_value());
        }
        let (x, y) = (x.into_int_value(), y.into_int_value());
        if let Some(predicate) = int_comparison_predicate(op) {
            return Ok(self
                .emitter
                .builder
                .build_int_compare(predicate, x, y, op.name())?
                .into());
        }
        Ok(self.translate_int_binary_operator(op, x, y)?.into())
    }

    fn translate_int_binary_operator(
        &self,
        op: Op,
        x: IntValue<'ctx>,
        y: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let name = op.name();
        Ok(match op {
            Op::AddW => builder.build_int_add(x, y, name)?,
            Op::SubW => builder.build_int_sub(x, y, name)?,
            Op::MulW => builder.build_int_mul(x, y, name)?,
            Op::AddI | Op::SubI => self.checked_int_sum_or_difference(op, x, y)?,
            Op::MulI => self.checked_int_product(x, y)?,
            // Floor division by 2^k is an arithmetic shift, and the residue modulo 2^k a mask, for either sign of x.
            Op::DivI => match power_of_two_exponent(y) {
                Some(exponent) => builder.build_right_shift(x, self.int_constant(exponent), true, name)?,
                None => self.int_floor_division(x, y)?,
            },
            Op::ResI => match power_of_two_exponent(x) {
                Some(exponent) => builder.build_and(y, self.int_constant((1i64 << exponent) - 1), name)?,
                None => self.int_residue(x, y)?,
            },
            Op::MinI => self.int_intrinsic("llvm.smin", x, y, name)?,
            Op::MaxI => self.int_intrinsic("llvm.smax", x, y, name)?,
            Op::PowI => self.int_power(x, y)?,
            Op::AndB => builder.build_and(x, y, name)?,
            Op::OrB => builder.build_or(x, y, name)?,
            Op::XorB => builder.build_xor(x, y, name)?,
            Op::AndI | Op::OrI | Op::XorI => self.int32_bitwise(op, x, y)?,
            Op::NandB => {
                let both = builder.build_and(x, y, "both")?;
                builder.build_not(both, name)?
            }
            Op::NorB => {
                let either = builder.build_or(x, y, "either")?;
                builder.build_not(either, name)?
            }
            Op::ShlI | Op::ShrI | Op::SharI => self.int_shift(op, x, y)?,
            Op::BinomialI => self.int_binomial(x, y)?,
            _ => return Err(unsupported_operator(op)),
        })
    }

    fn translate_double_binary_operator(
        &self,
        op: Op,
        x: FloatValue<'ctx>,
        y: FloatValue<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let name = op.name();
        let result = match op {
            Op::LtD | Op::LteD | Op::GtD | Op::GteD | Op::EqD | Op::NeqD => {
                return Ok(self.double_tolerant_comparison(op, x, y)?.into())
            }
            Op::MinD => return Ok(self.double_intrinsic("llvm.minnum", &[x, y], name)?.into()),
            Op::MaxD => return Ok(self.double_intrinsic("llvm.maxnum", &[x, y], name)?.into()),
            Op::AddD => builder.build_float_add(x, y, name)?,
            Op::SubD => builder.build_float_sub(x, y, name)?,
            Op::MulD => builder.build_float_mul(x, y, name)?,
            Op::DivD => self.double_division(x, y)?,
            Op::ResD => self.double_residue(x, y)?,
            Op::BinomialD => self.double_binomial(x, y)?,
            Op::PowD => self.double_intrinsic("llvm.pow", &[x, y], name)?,
            Op::LogD => {
                let log_y = self.double_intrinsic("llvm.log", &[y], "log_y")?;
                let log_x = self.double_intrinsic("llvm.log", &[x], "log_x")?;
                builder.build_float_div(log_y, log_x, name)?
            }
            _ => return Err(unsupported_operator(op)),
        };
        self.check_real_result(op, result, &[x, y])?;
        Ok(result.into())
    }

    // ---- Helpers: checks ----

    /// DOMAIN ERROR when the result is NaN or infinite but every argument is finite.
    fn check_real_result(
        &self,
        op: Op,
        result: FloatValue<'ctx>,
        arguments: &[FloatValue<'ctx>],
    ) -> Result<(), CodegenError> {
        if self.nan_check_elided.get() || !self.float_mode.checks_finite_results() {
            return Ok(());
        }
        let builder = &self.emitter.builder;
        let mut failed = self.is_not_finite(result)?;
        // Where checks may be left out (`nan_checks.rs`), an argument that is not finite is one whose check was left
        // out.
        let arguments = if self.deferred_checks.borrow().is_some() {
            &[]
        } else {
            arguments
        };
        for &argument in arguments {
            let argument_is_finite = self.is_finite(argument)?;
            failed = builder.build_and(failed, argument_is_finite, "not_real")?;
        }
        self.check_deferrable_domain(failed, not_a_finite_real_number(op))
    }

    // ---- Helpers: ints ----

    fn int_constant(&self, value: i64) -> IntValue<'ctx> {
        self.emitter.int_constant(value)
    }

    fn int_compare(
        &self,
        predicate: IntPredicate,
        x: IntValue<'ctx>,
        y: IntValue<'ctx>,
        name: &str,
    ) -> Result<IntValue<'ctx>, CodegenError> {
        Ok(self.emitter.builder.build_int_compare(predicate, x, y, name)?)
    }

    fn int_select(
        &self,
        condition: IntValue<'ctx>,
        then: IntValue<'ctx>,
        otherwise: IntValue<'ctx>,
        name: &str,
    ) -> Result<IntValue<'ctx>, CodegenError> {
        Ok(self
            .emitter
            .builder
            .build_select(condition, then, otherwise, name)?
            .into_int_value())
    }

    fn int_intrinsic(
        &self,
        intrinsic_name: &str,
        x: IntValue<'ctx>,
        y: IntValue<'ctx>,
        name: &str,
    ) -> Result<IntValue<'ctx>, CodegenError> {
        let declaration = self.intrinsic_declaration(intrinsic_name, self.emitter.context.i64_type().into())?;
        let call = self
            .emitter
            .builder
            .build_call(declaration, &[x.into(), y.into()], name)?;
        call.try_as_basic_value()
            .basic()
            .map(|value| value.into_int_value())
            .ok_or_else(|| internal_error(format!("{intrinsic_name} returned no value")))
    }

    fn intrinsic_declaration(
        &self,
        intrinsic_name: &str,
        overloaded_type: BasicTypeEnum<'ctx>,
    ) -> Result<FunctionValue<'ctx>, CodegenError> {
        Intrinsic::find(intrinsic_name)
            .and_then(|intrinsic| intrinsic.get_declaration(self.emitter.module, &[overloaded_type]))
            .ok_or_else(|| internal_error(format!("{intrinsic_name} is not an LLVM intrinsic")))
    }

    /// `x + y` or `x - y`, with the overflow test of two's complement (the result's sign differs from both operands'
    /// for a sum, from the minuend's and the subtrahend's negation for a difference): plain bit operations, which
    /// vectorise where LLVM's `*.with.overflow` intrinsics do not.
    fn checked_int_sum_or_difference(
        &self,
        op: Op,
        x: IntValue<'ctx>,
        y: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let (result, sign_changes) = if op == Op::AddI {
            let sum = builder.build_int_add(x, y, "addi")?;
            let from_x = builder.build_xor(x, sum, "sign_from_x")?;
            let from_y = builder.build_xor(y, sum, "sign_from_y")?;
            (sum, builder.build_and(from_x, from_y, "sign_changes")?)
        } else {
            let difference = builder.build_int_sub(x, y, "subi")?;
            let operands_differ = builder.build_xor(x, y, "signs_differ")?;
            let from_x = builder.build_xor(x, difference, "sign_from_x")?;
            (difference, builder.build_and(operands_differ, from_x, "sign_changes")?)
        };
        let overflow = self.int_compare(IntPredicate::SLT, sign_changes, self.int_constant(0), "overflow")?;
        self.check_integer_overflow(op, overflow)?;
        Ok(result)
    }

    /// `x × y`: by a constant, two comparisons of the other operand (which vectorise); otherwise LLVM's
    /// `smul.with.overflow`.
    fn checked_int_product(&self, x: IntValue<'ctx>, y: IntValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        let constant = |value: IntValue<'ctx>| value.get_sign_extended_constant();
        let factor_and_other = match (constant(x), constant(y)) {
            (Some(factor), _) => Some((factor, y)),
            (_, Some(factor)) => Some((factor, x)),
            _ => None,
        };
        let (product, overflow) = match factor_and_other {
            Some((factor, other)) if factor != 0 && factor != -1 => {
                // other × factor fits exactly when other lies between MIN/factor and MAX/factor (rounded inwards).
                let (low, high) = if factor > 0 {
                    (i64::MIN / factor, i64::MAX / factor)
                } else {
                    (i64::MAX / factor, i64::MIN / factor)
                };
                let below = self.int_compare(IntPredicate::SLT, other, self.int_constant(low), "below")?;
                let above = self.int_compare(IntPredicate::SGT, other, self.int_constant(high), "above")?;
                let overflow = self.emitter.builder.build_or(below, above, "overflow")?;
                (self.emitter.builder.build_int_mul(x, y, "muli")?, overflow)
            }
            _ => special_functions::emit_multiply_with_overflow(&self.emitter, x, y)?,
        };
        self.check_integer_overflow(Op::MulI, overflow)?;
        Ok(product)
    }

    /// The DOMAIN ERROR of an int result that does not fit in 64 bits, as the interpreter words it; deferred to the
    /// end of an effect-free loop nest like a double's (see `translate.rs`).
    fn check_integer_overflow(&self, op: Op, overflow: IntValue<'ctx>) -> Result<(), CodegenError> {
        let message = format!("{}: {}", op.name(), crate::tail::scalar_ops::INTEGER_OVERFLOW);
        self.check_deferrable_domain(overflow, message)
    }

    /// The overflow check of `-x` and `|x`: only the most negative int has no negation.
    fn check_has_negation(&self, op: Op, x: IntValue<'ctx>) -> Result<(), CodegenError> {
        let overflow = self.int_compare(IntPredicate::EQ, x, self.int_constant(i64::MIN), "no_negation")?;
        self.check_integer_overflow(op, overflow)
    }

    fn int_absolute_value(&self, x: IntValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        let negative = self.int_compare(IntPredicate::SLT, x, self.int_constant(0), "negative")?;
        let negated = self.emitter.builder.build_int_neg(x, "negated")?;
        self.int_select(negative, negated, x, "absi")
    }

    fn int_sign(&self, x: IntValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        let zero = self.int_constant(0);
        let positive = self.int_compare(IntPredicate::SGT, x, zero, "positive")?;
        let negative = self.int_compare(IntPredicate::SLT, x, zero, "negative")?;
        let negative_or_zero = self.int_select(negative, self.int_constant(-1), zero, "negative_or_zero")?;
        self.int_select(positive, self.int_constant(1), negative_or_zero, "signi")
    }

    /// `x!` from a table of 0! to 20! (21! does not fit in 64 bits).
    fn int_factorial(&self, x: IntValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        let negative = self.int_compare(IntPredicate::SLT, x, self.int_constant(0), "negative")?;
        self.check_immediately(negative, AplErrorKind::Domain, "facti: factorial of a negative int")?;
        let too_large = self.int_compare(IntPredicate::SGT, x, self.int_constant(20), "too_large")?;
        self.check_immediately(too_large, AplErrorKind::Domain, "facti: factorial too large")?;
        let table = self.factorial_table();
        let i64_type = self.emitter.context.i64_type();
        let table_type = i64_type.array_type(21);
        // SAFETY (for LLVM): x is in 0..=20 after the checks.
        let element = unsafe {
            self.emitter.builder.build_in_bounds_gep(
                table_type,
                table.as_pointer_value(),
                &[self.int_constant(0), x],
                "factorial_entry",
            )
        }?;
        Ok(self
            .emitter
            .builder
            .build_load(i64_type, element, "facti")?
            .into_int_value())
    }

    fn factorial_table(&self) -> inkwell::values::GlobalValue<'ctx> {
        const TABLE_NAME: &str = "factorials";
        if let Some(existing) = self.emitter.module.get_global(TABLE_NAME) {
            return existing;
        }
        let i64_type = self.emitter.context.i64_type();
        let factorials: Vec<IntValue<'ctx>> = (0..=20u64)
            .scan(1u64, |product, k| {
                *product *= k.max(1);
                Some(i64_type.const_int(*product, false))
            })
            .collect();
        let table = self
            .emitter
            .module
            .add_global(i64_type.array_type(21), None, TABLE_NAME);
        table.set_initializer(&i64_type.const_array(&factorials));
        table.set_constant(true);
        table.set_linkage(Linkage::Private);
        table
    }

    /// A code point: DOMAIN ERROR outside Unicode scalar values (negative, above U+10FFFF, surrogates).
    fn int_to_char(&self, x: IntValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let beyond_unicode = self.int_compare(IntPredicate::UGT, x, self.int_constant(0x10_FFFF), "beyond_unicode")?;
        let above_surrogates_start = self.int_compare(IntPredicate::SGE, x, self.int_constant(0xD800), "")?;
        let below_surrogates_end = self.int_compare(IntPredicate::SLE, x, self.int_constant(0xDFFF), "")?;
        let surrogate = builder.build_and(above_surrogates_start, below_surrogates_end, "surrogate")?;
        let invalid = builder.build_or(beyond_unicode, surrogate, "not_a_code_point")?;
        self.check_immediately(invalid, AplErrorKind::Domain, "i2c: not a Unicode code point")?;
        Ok(builder.build_int_truncate(x, self.emitter.context.i32_type(), "i2c")?)
    }

    /// `⌊x÷y` (rounding towards negative infinity); DOMAIN ERROR for y = 0; `i64::MIN ÷ ¯1` wraps.
    fn int_floor_division(&self, x: IntValue<'ctx>, y: IntValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let zero = self.int_constant(0);
        let divisor_is_zero = self.int_compare(IntPredicate::EQ, y, zero, "divisor_is_zero")?;
        self.check_immediately(divisor_is_zero, AplErrorKind::Domain, "divi: division by zero")?;
        let divisor_is_minus_one = self.int_compare(IntPredicate::EQ, y, self.int_constant(-1), "by_minus_one")?;
        let most_negative = self.int_compare(IntPredicate::EQ, x, self.int_constant(i64::MIN), "most_negative")?;
        let overflow = builder.build_and(divisor_is_minus_one, most_negative, "overflow")?;
        self.check_integer_overflow(Op::DivI, overflow)?;
        let safe_divisor = self.int_select(divisor_is_minus_one, self.int_constant(1), y, "safe_divisor")?;
        let quotient = builder.build_int_signed_div(x, safe_divisor, "quotient")?;
        let remainder = builder.build_int_signed_rem(x, safe_divisor, "remainder")?;
        let negated = builder.build_int_neg(x, "negated")?;
        let quotient = self.int_select(divisor_is_minus_one, negated, quotient, "quotient")?;
        let inexact = self.int_compare(IntPredicate::NE, remainder, zero, "inexact")?;
        let signs = builder.build_xor(remainder, y, "signs")?;
        let signs_differ = self.int_compare(IntPredicate::SLT, signs, zero, "signs_differ")?;
        let round_down = builder.build_and(inexact, signs_differ, "round_down")?;
        let adjusted = builder.build_int_sub(quotient, self.int_constant(1), "adjusted")?;
        self.int_select(round_down, adjusted, quotient, "divi")
    }

    /// APL's `x|y`: y when x = 0, otherwise y mod x with the sign of x.
    fn int_residue(&self, x: IntValue<'ctx>, y: IntValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let zero = self.int_constant(0);
        let modulus_is_zero = self.int_compare(IntPredicate::EQ, x, zero, "modulus_is_zero")?;
        let modulus_is_minus_one = self.int_compare(IntPredicate::EQ, x, self.int_constant(-1), "")?;
        let no_division = builder.build_or(modulus_is_zero, modulus_is_minus_one, "no_division")?;
        let safe_modulus = self.int_select(no_division, self.int_constant(1), x, "safe_modulus")?;
        let remainder = builder.build_int_signed_rem(y, safe_modulus, "remainder")?;
        let inexact = self.int_compare(IntPredicate::NE, remainder, zero, "inexact")?;
        let signs = builder.build_xor(remainder, x, "signs")?;
        let signs_differ = self.int_compare(IntPredicate::SLT, signs, zero, "signs_differ")?;
        let shift = builder.build_and(inexact, signs_differ, "shift")?;
        let shifted = builder.build_int_add(remainder, x, "shifted")?;
        let residue = self.int_select(shift, shifted, remainder, "residue")?;
        self.int_select(modulus_is_zero, y, residue, "resi")
    }

    /// The low 32 bits of an int, as `⎕INT32...` sees it.
    fn low_32_bits(&self, x: IntValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        let i32_type = self.emitter.context.i32_type();
        Ok(self.emitter.builder.build_int_truncate(x, i32_type, "low_32_bits")?)
    }

    fn sign_extended(&self, x: IntValue<'ctx>, name: &str) -> Result<IntValue<'ctx>, CodegenError> {
        let i64_type = self.emitter.context.i64_type();
        Ok(self.emitter.builder.build_int_s_extend(x, i64_type, name)?)
    }

    /// `⎕INT32NOT`.
    fn int32_not(&self, x: IntValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        let inverted = self.emitter.builder.build_not(self.low_32_bits(x)?, "inverted")?;
        self.sign_extended(inverted, "noti")
    }

    /// `popcnt`: the one bits of the low 32 bits, counted by `llvm.ctpop` on an i32 (a vector popcount where the
    /// target has one, a few shuffles where it does not).
    fn int32_population_count(&self, x: IntValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        let word = self.low_32_bits(x)?;
        let declaration = self.intrinsic_declaration("llvm.ctpop", self.emitter.context.i32_type().into())?;
        let call = self.emitter.builder.build_call(declaration, &[word.into()], "ones")?;
        let ones = call
            .try_as_basic_value()
            .basic()
            .map(|value| value.into_int_value())
            .ok_or_else(|| internal_error("llvm.ctpop returned no value".to_string()))?;
        let i64_type = self.emitter.context.i64_type();
        Ok(self.emitter.builder.build_int_z_extend(ones, i64_type, "popcnt")?)
    }

    /// `⎕INT32AND`, `⎕INT32OR`, `⎕INT32XOR`: on the low 32 bits, the result sign-extended.
    fn int32_bitwise(&self, op: Op, x: IntValue<'ctx>, y: IntValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let (x, y) = (self.low_32_bits(x)?, self.low_32_bits(y)?);
        let combined = match op {
            Op::AndI => builder.build_and(x, y, "combined")?,
            Op::OrI => builder.build_or(x, y, "combined")?,
            _ => builder.build_xor(x, y, "combined")?,
        };
        self.sign_extended(combined, op.name())
    }

    /// An int used as a boolean: DOMAIN ERROR unless 0 or 1.
    fn int_to_bool(&self, x: IntValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        let not_a_bit = self.int_compare(IntPredicate::UGT, x, self.int_constant(1), "not_a_bit")?;
        self.check_immediately(not_a_bit, AplErrorKind::Domain, "i2b: a boolean must be 0 or 1")?;
        self.int_compare(IntPredicate::EQ, x, self.int_constant(1), "i2b")
    }

    /// Shifts on 32 bits: DOMAIN ERROR for a negative amount; amounts of 32 or more shift everything out.
    fn int_shift(&self, op: Op, x: IntValue<'ctx>, y: IntValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let negative = self.int_compare(IntPredicate::SLT, y, self.int_constant(0), "negative_shift")?;
        let message = format!("{}: negative shift", op.name());
        self.check_immediately(negative, AplErrorKind::Domain, &message)?;
        let thirty_one = self.int_constant(31);
        let in_range = self.int_compare(IntPredicate::SLE, y, thirty_one, "in_range")?;
        let clamped = self.int_intrinsic("llvm.smin", y, thirty_one, "clamped_amount")?;
        let amount = self.low_32_bits(clamped)?;
        let word = self.low_32_bits(x)?;
        let shifted = match op {
            Op::SharI => builder.build_right_shift(word, amount, true, "shifted")?,
            Op::ShlI => builder.build_left_shift(word, amount, "shifted")?,
            _ => builder.build_right_shift(word, amount, false, "shifted")?,
        };
        let extended = self.sign_extended(shifted, "extended")?;
        if op == Op::SharI {
            return Ok(extended);
        }
        self.int_select(in_range, extended, self.int_constant(0), op.name())
    }

    /// `x*y` on ints by repeated squaring with wrapping products (the same result modulo 2⁶⁴ as Rust's
    /// `wrapping_pow`); DOMAIN ERROR for a negative or huge exponent.
    fn int_power(&self, x: IntValue<'ctx>, y: IntValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        let invalid = self.int_compare(IntPredicate::UGT, y, self.int_constant(u32::MAX as i64), "bad_exponent")?;
        self.check_immediately(invalid, AplErrorKind::Domain, "powi: negative or huge exponent")?;
        let context = self.emitter.context;
        let function = self.emitter.function;
        let builder = &self.emitter.builder;
        let i64_type = context.i64_type();
        let preheader = self.current_block()?;
        let header = context.append_basic_block(function, "power_header");
        let body = context.append_basic_block(function, "power_body");
        let exit = context.append_basic_block(function, "power_exit");
        builder.build_unconditional_branch(header)?;
        builder.position_at_end(header);
        let result = builder.build_phi(i64_type, "power_result")?;
        let base = builder.build_phi(i64_type, "power_base")?;
        let exponent = builder.build_phi(i64_type, "power_exponent")?;
        let overflow = builder.build_phi(context.bool_type(), "power_overflow")?;
        let (result_value, base_value, exponent_value, overflow_value) = (
            result.as_basic_value().into_int_value(),
            base.as_basic_value().into_int_value(),
            exponent.as_basic_value().into_int_value(),
            overflow.as_basic_value().into_int_value(),
        );
        let more = self.int_compare(IntPredicate::NE, exponent_value, self.int_constant(0), "more")?;
        builder.build_conditional_branch(more, body, exit)?;
        builder.position_at_end(body);
        let low_bit = builder.build_and(exponent_value, self.int_constant(1), "low_bit")?;
        let odd = self.int_compare(IntPredicate::NE, low_bit, self.int_constant(0), "odd")?;
        let (multiplied, product_overflow) =
            special_functions::emit_multiply_with_overflow(&self.emitter, result_value, base_value)?;
        let next_result = self.int_select(odd, multiplied, result_value, "next_result")?;
        let (next_base, square_overflow) =
            special_functions::emit_multiply_with_overflow(&self.emitter, base_value, base_value)?;
        let next_exponent = builder.build_right_shift(exponent_value, self.int_constant(1), false, "")?;
        // The result overflows when a product it takes does, or when a square that a later bit of the exponent still
        // multiplies in does (|x| ≥ 2 then, so the result is at least as large as that square).
        let product_taken = builder.build_and(odd, product_overflow, "product_overflow")?;
        let square_needed = self.int_compare(IntPredicate::NE, next_exponent, self.int_constant(0), "more_bits")?;
        let square_taken = builder.build_and(square_needed, square_overflow, "square_overflow")?;
        let step_overflow = builder.build_or(product_taken, square_taken, "step_overflow")?;
        let next_overflow = builder.build_or(overflow_value, step_overflow, "next_overflow")?;
        builder.build_unconditional_branch(header)?;
        result.add_incoming(&[(&self.int_constant(1), preheader), (&next_result, body)]);
        base.add_incoming(&[(&x, preheader), (&next_base, body)]);
        exponent.add_incoming(&[(&y, preheader), (&next_exponent, body)]);
        overflow.add_incoming(&[(&context.bool_type().const_zero(), preheader), (&next_overflow, body)]);
        builder.position_at_end(exit);
        self.check_integer_overflow(Op::PowI, overflow_value)?;
        Ok(result_value)
    }

    /// APL's `x!y` on ints; DOMAIN ERROR for negative arguments and results beyond the int range.
    fn int_binomial(&self, x: IntValue<'ctx>, y: IntValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let zero = self.int_constant(0);
        let x_negative = self.int_compare(IntPredicate::SLT, x, zero, "x_negative")?;
        let y_negative = self.int_compare(IntPredicate::SLT, y, zero, "y_negative")?;
        let negative = builder.build_or(x_negative, y_negative, "negative")?;
        self.check_immediately(
            negative,
            AplErrorKind::Domain,
            "binomi: negative arguments (use binomd)",
        )?;
        let function = special_functions::binomial_int_function(self.emitter.module)?;
        let result = builder
            .build_call(function, &[x.into(), y.into()], "binomi")?
            .try_as_basic_value()
            .basic()
            .ok_or_else(|| internal_error("aplc_binomial_int returned no value".to_string()))?
            .into_int_value();
        let too_large = self.int_compare(IntPredicate::SLT, result, zero, "too_large")?;
        self.check_immediately(too_large, AplErrorKind::Domain, "binomi: result too large")?;
        Ok(result)
    }

    // ---- Helpers: doubles ----

    /// `x!` on doubles as the interpreter computes it: exact products for the integers 0 to 170, Γ(x+1) otherwise.
    /// Returns the value and whether x is a negative integer (a DOMAIN ERROR).
    fn double_factorial(&self, x: FloatValue<'ctx>) -> Result<(FloatValue<'ctx>, IntValue<'ctx>), CodegenError> {
        let builder = &self.emitter.builder;
        let floor = self.double_intrinsic("llvm.floor", &[x], "floor")?;
        let integral = self.double_compare(FloatPredicate::OEQ, x, floor)?;
        let negative = self.double_compare(FloatPredicate::OLT, x, self.double_constant(0.0))?;
        let negative_integer = builder.build_and(integral, negative, "negative_integer")?;
        let at_most_170 = self.double_compare(FloatPredicate::OLE, x, self.double_constant(170.0))?;
        let not_negative = builder.build_not(negative, "not_negative")?;
        let in_table_range = builder.build_and(at_most_170, not_negative, "")?;
        let small_integer = builder.build_and(integral, in_table_range, "small_integer")?;
        let count = self.double_select(small_integer, x, self.double_constant(0.0), "count")?;
        let count = builder.build_float_to_signed_int(count, self.emitter.context.i64_type(), "count")?;
        let exact_function = special_functions::exact_factorial_function(self.emitter.module)?;
        let exact = self.call_double_function(exact_function, &[count.into()], "exact_factorial")?;
        let successor = builder.build_float_add(x, self.double_constant(1.0), "successor")?;
        let gamma_function = special_functions::gamma_function(self.emitter.module)?;
        let general = self.call_double_function(gamma_function, &[successor.into()], "gamma")?;
        let value = self.double_select(small_integer, exact, general, "factd")?;
        Ok((value, negative_integer))
    }

    fn call_double_function(
        &self,
        function: FunctionValue<'ctx>,
        arguments: &[inkwell::values::BasicMetadataValueEnum<'ctx>],
        name: &str,
    ) -> Result<FloatValue<'ctx>, CodegenError> {
        self.emitter
            .builder
            .build_call(function, arguments, name)?
            .try_as_basic_value()
            .basic()
            .map(|value| value.into_float_value())
            .ok_or_else(|| internal_error(format!("{name} returned no value")))
    }

    /// Whether a factorial of the interpreter fails: a negative integer, or a result that is not a finite real number
    /// from a finite argument.
    fn double_factorial_failed(
        &self,
        argument: FloatValue<'ctx>,
        value: FloatValue<'ctx>,
        negative_integer: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let value_is_not_finite = self.is_not_finite(value)?;
        let argument_is_finite = self.is_finite(argument)?;
        let not_real = builder.build_and(value_is_not_finite, argument_is_finite, "not_real")?;
        Ok(builder.build_or(negative_integer, not_real, "factorial_failed")?)
    }

    /// APL's `x!y` on doubles: `y! ÷ (x! × (y-x)!)`, where `(y-x)!` failing (at a negative integer) gives 0.
    fn double_binomial(&self, x: FloatValue<'ctx>, y: FloatValue<'ctx>) -> Result<FloatValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let (numerator, numerator_negative) = self.double_factorial(y)?;
        let numerator_failed = self.double_factorial_failed(y, numerator, numerator_negative)?;
        let (left, left_negative) = self.double_factorial(x)?;
        let left_failed = self.double_factorial_failed(x, left, left_negative)?;
        let either_failed = builder.build_or(numerator_failed, left_failed, "factorial_failed")?;
        self.check_deferrable_domain(either_failed, "binomd: factorial of a negative integer".to_string())?;
        let difference = builder.build_float_sub(y, x, "difference")?;
        let (rest, rest_negative) = self.double_factorial(difference)?;
        let rest_failed = self.double_factorial_failed(difference, rest, rest_negative)?;
        let denominator = builder.build_float_mul(left, rest, "denominator")?;
        let quotient = builder.build_float_div(numerator, denominator, "quotient")?;
        self.double_select(rest_failed, self.double_constant(0.0), quotient, "binomd")
    }

    fn double_constant(&self, value: f64) -> FloatValue<'ctx> {
        self.emitter.context.f64_type().const_float(value)
    }

    fn double_compare(
        &self,
        predicate: FloatPredicate,
        x: FloatValue<'ctx>,
        y: FloatValue<'ctx>,
    ) -> Result<IntValue<'ctx>, CodegenError> {
        Ok(self.emitter.builder.build_float_compare(predicate, x, y, "")?)
    }

    fn double_select(
        &self,
        condition: IntValue<'ctx>,
        then: FloatValue<'ctx>,
        otherwise: FloatValue<'ctx>,
        name: &str,
    ) -> Result<FloatValue<'ctx>, CodegenError> {
        Ok(self
            .emitter
            .builder
            .build_select(condition, then, otherwise, name)?
            .into_float_value())
    }

    fn double_intrinsic(
        &self,
        intrinsic_name: &str,
        arguments: &[FloatValue<'ctx>],
        name: &str,
    ) -> Result<FloatValue<'ctx>, CodegenError> {
        self.emitter.emit_double_intrinsic(intrinsic_name, arguments, name)
    }

    /// A function of the C maths library that LLVM 19 has no intrinsic for (`tan`, `asinh`, ...): the JIT finds it
    /// in the aplc process, executables link it with `-lm`.
    fn call_libm(&self, op: Op, x: FloatValue<'ctx>) -> Result<FloatValue<'ctx>, CodegenError> {
        let function_name = op.name();
        let function = self.emitter.module.get_function(function_name).unwrap_or_else(|| {
            let f64_type = self.emitter.context.f64_type();
            let function_type = f64_type.fn_type(&[f64_type.into()], false);
            self.emitter
                .module
                .add_function(function_name, function_type, Some(Linkage::External))
        });
        self.emitter
            .builder
            .build_call(function, &[x.into()], function_name)?
            .try_as_basic_value()
            .basic()
            .map(|value| value.into_float_value())
            .ok_or_else(|| internal_error(format!("{function_name} returned no value")))
    }

    /// `aplrt_roll(n)`: the next number of the run-time library's generator (lowering has checked that n > 0).
    fn call_roll(&self, bound: IntValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        self.name_site_of_failing_roll(bound)?;
        let roll_function = declare_runtime_function(self.emitter.module, RuntimeFunctionId::Roll);
        self.emitter
            .builder
            .build_call(roll_function, &[bound.into()], "roll")?
            .try_as_basic_value()
            .basic()
            .map(|value| value.into_int_value())
            .ok_or_else(|| internal_error("aplrt_roll returned no value".to_string()))
    }

    /// A roll that will fail (a bound that is not positive) gives the run-time library its site first, so that the
    /// DOMAIN ERROR it stops with points at the `?`. Only the failing roll pays for it: rolls run once per element.
    fn name_site_of_failing_roll(&self, bound: IntValue<'ctx>) -> Result<(), CodegenError> {
        let Some(template) = self.current_site.get().and_then(|site| self.site_report_template(site)) else {
            return Ok(());
        };
        let context = self.emitter.context;
        let function = self.emitter.function;
        let failing = context.append_basic_block(function, "roll_fails");
        let rolling = context.append_basic_block(function, "roll");
        let zero = self.emitter.int_constant(0);
        let not_positive =
            self.emitter
                .builder
                .build_int_compare(IntPredicate::SLE, bound, zero, "roll_bound_not_positive")?;
        self.emitter
            .builder
            .build_conditional_branch(not_positive, failing, rolling)?;
        self.emitter.builder.position_at_end(failing);
        self.emit_enter_site(&template)?;
        self.emitter.builder.build_unconditional_branch(rolling)?;
        self.emitter.builder.position_at_end(rolling);
        Ok(())
    }

    /// `aplrt_argument_int(i, d)` or `aplrt_argument_double(i, d)`: a program argument, read by the run-time library
    /// (which stops the program with the APL error when it is malformed).
    fn call_program_argument(
        &self,
        op: Op,
        index: BasicValueEnum<'ctx>,
        default: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        let id = match op {
            Op::ArgInt => RuntimeFunctionId::ArgumentInt,
            _ => RuntimeFunctionId::ArgumentDouble,
        };
        let function = declare_runtime_function(self.emitter.module, id);
        self.emitter
            .builder
            .build_call(function, &[index.into(), default.into()], op.name())?
            .try_as_basic_value()
            .basic()
            .ok_or_else(|| internal_error(format!("{} returned no value", op.name())))
    }

    fn double_sign(&self, x: FloatValue<'ctx>) -> Result<FloatValue<'ctx>, CodegenError> {
        let zero = self.double_constant(0.0);
        let positive = self.double_compare(FloatPredicate::OGT, x, zero)?;
        let negative = self.double_compare(FloatPredicate::OLT, x, zero)?;
        let negative_or_zero = self.double_select(negative, self.double_constant(-1.0), zero, "negative_or_zero")?;
        self.double_select(positive, self.double_constant(1.0), negative_or_zero, "signd")
    }

    /// APL's `x÷y`: `0÷0` is 1, another division by zero a DOMAIN ERROR (±∞ or NaN in the IEEE float mode).
    fn double_division(&self, x: FloatValue<'ctx>, y: FloatValue<'ctx>) -> Result<FloatValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let zero = self.double_constant(0.0);
        let divisor_is_zero = self.double_compare(FloatPredicate::OEQ, y, zero)?;
        let quotient = builder.build_float_div(x, y, "quotient")?;
        if self.float_mode.checks_finite_results() {
            let dividend_is_not_zero = self.double_compare(FloatPredicate::UNE, x, zero)?;
            let by_zero = builder.build_and(divisor_is_zero, dividend_is_not_zero, "division_by_zero")?;
            self.check_deferrable_domain(by_zero, "divd: division by zero".to_string())?;
            // Past the check, a zero divisor means `0÷0`.
            return self.double_select(divisor_is_zero, self.double_constant(1.0), quotient, "divd");
        }
        let dividend_is_zero = self.double_compare(FloatPredicate::OEQ, x, zero)?;
        let zero_by_zero = builder.build_and(divisor_is_zero, dividend_is_zero, "zero_by_zero")?;
        self.double_select(zero_by_zero, self.double_constant(1.0), quotient, "divd")
    }

    /// `x = y` within `⎕CT` relative to the larger magnitude.
    fn double_tolerantly_equal(
        &self,
        x: FloatValue<'ctx>,
        y: FloatValue<'ctx>,
    ) -> Result<IntValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let exactly = self.double_compare(FloatPredicate::OEQ, x, y)?;
        let difference = builder.build_float_sub(x, y, "difference")?;
        let distance = self.double_intrinsic("llvm.fabs", &[difference], "distance")?;
        let x_magnitude = self.double_intrinsic("llvm.fabs", &[x], "x_magnitude")?;
        let y_magnitude = self.double_intrinsic("llvm.fabs", &[y], "y_magnitude")?;
        let larger = self.double_intrinsic("llvm.maxnum", &[x_magnitude, y_magnitude], "larger_magnitude")?;
        let tolerance = builder.build_float_mul(self.double_constant(COMPARISON_TOLERANCE), larger, "tolerance")?;
        let mut close = self.double_compare(FloatPredicate::OLE, distance, tolerance)?;
        if !self.float_mode.checks_finite_results() {
            // An infinite distance is not within ⎕CT of an infinite magnitude: ∞ equals only ∞.
            let finite_distance =
                self.double_compare(FloatPredicate::OLT, distance, self.double_constant(f64::INFINITY))?;
            close = builder.build_and(close, finite_distance, "close")?;
        }
        Ok(builder.build_or(exactly, close, "tolerantly_equal")?)
    }

    fn double_tolerant_comparison(
        &self,
        op: Op,
        x: FloatValue<'ctx>,
        y: FloatValue<'ctx>,
    ) -> Result<IntValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let equal = self.double_tolerantly_equal(x, y)?;
        let name = op.name();
        Ok(match op {
            Op::EqD => equal,
            Op::NeqD => builder.build_not(equal, name)?,
            Op::LtD | Op::GtD => {
                let predicate = if op == Op::LtD {
                    FloatPredicate::OLT
                } else {
                    FloatPredicate::OGT
                };
                let strictly = self.double_compare(predicate, x, y)?;
                let not_equal = builder.build_not(equal, "not_equal")?;
                builder.build_and(strictly, not_equal, name)?
            }
            _ => {
                let predicate = if op == Op::LteD {
                    FloatPredicate::OLT
                } else {
                    FloatPredicate::OGT
                };
                let strictly = self.double_compare(predicate, x, y)?;
                builder.build_or(strictly, equal, name)?
            }
        })
    }

    /// APL's tolerant floor: the nearest integer when x is tolerantly equal to it, the floor otherwise.
    fn double_tolerant_floor(&self, x: FloatValue<'ctx>) -> Result<FloatValue<'ctx>, CodegenError> {
        let nearest = self.double_intrinsic("llvm.round", &[x], "nearest")?;
        let near_integer = self.double_tolerantly_equal(x, nearest)?;
        let floor = self.double_intrinsic("llvm.floor", &[x], "floor")?;
        self.double_select(near_integer, nearest, floor, "tolerant_floor")
    }

    /// `⌊x` or `⌈x` as an int; DOMAIN ERROR outside the int range (and for NaN).
    fn double_to_int_rounded(&self, op: Op, x: FloatValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        let rounded = self.double_tolerant_rounding(op, x)?;
        self.double_in_int_range(rounded, op.name())?;
        let builder = &self.emitter.builder;
        Ok(builder.build_float_to_signed_int(rounded, self.emitter.context.i64_type(), op.name())?)
    }

    /// The tolerant `⌊x` (`op` floor) or `⌈x` (ceil), still a double.
    fn double_tolerant_rounding(&self, op: Op, x: FloatValue<'ctx>) -> Result<FloatValue<'ctx>, CodegenError> {
        if op == Op::Ceil {
            let builder = &self.emitter.builder;
            let negated = builder.build_float_neg(x, "negated")?;
            let floor = self.double_tolerant_floor(negated)?;
            Ok(builder.build_float_neg(floor, "tolerant_ceiling")?)
        } else {
            self.double_tolerant_floor(x)
        }
    }

    /// An operand of an int comparison in a loop that defers its checks. `⌊x`, `⌈x` and `n|⌊x` there make a bool,
    /// never an index, so the int-range check of the rounding may be deferred like a double's DOMAIN ERROR (one
    /// branch per element would keep the loop from being vectorised: Sobol's bit matrices `2|⌊i÷2*k`). Until the
    /// deferred check stops the program, an out-of-range value converts as 0, so the conversion stays defined.
    fn translate_compared_rounding(&self, argument: &Expr) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        if let Expr::At(site, inner) = argument {
            return self.with_site(*site, || self.translate_compared_rounding(inner));
        }
        let (divisor, (op, operand, site)) = match argument {
            Expr::Prim(Op::ResI, residue) => match (residue[0].as_int(), rounding_of(&residue[1])) {
                (Some(divisor), Some(rounded)) => (Some(divisor), rounded),
                _ => return self.translate_expression(argument),
            },
            other => match rounding_of(other) {
                Some(rounded) => (None, rounded),
                None => return self.translate_expression(argument),
            },
        };
        let rounded = self.double_tolerant_rounding(op, self.translate_expression(operand)?.into_float_value())?;
        let in_range = self.double_is_in_int_range(rounded)?;
        let builder = &self.emitter.builder;
        let out_of_range = builder.build_not(in_range, "out_of_int_range")?;
        let message = format!("{}: value out of the int range", op.name());
        match site {
            Some(site) => self.with_site(site, || self.check_deferrable_domain(out_of_range, message))?,
            None => self.check_deferrable_domain(out_of_range, message)?,
        }
        let convertible = self.double_select(in_range, rounded, self.double_constant(0.0), "convertible")?;
        let value = builder.build_float_to_signed_int(convertible, self.emitter.context.i64_type(), op.name())?;
        match divisor {
            Some(divisor) => {
                self.translate_binary_operator(Op::ResI, self.emitter.int_constant(divisor).into(), value.into())
            }
            None => Ok(value.into()),
        }
    }

    /// Whether an integral double is in the int range (NaN is not).
    fn double_is_in_int_range(&self, rounded: FloatValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        let limit = 9_223_372_036_854_775_808.0; // 2⁶³
        let above_minimum = self.double_compare(FloatPredicate::OGE, rounded, self.double_constant(-limit))?;
        let below_maximum = self.double_compare(FloatPredicate::OLT, rounded, self.double_constant(limit))?;
        Ok(self
            .emitter
            .builder
            .build_and(above_minimum, below_maximum, "in_int_range")?)
    }

    /// A double used as an int: DOMAIN ERROR unless it is tolerantly an integer in the int range.
    fn double_to_int_exactly(&self, x: FloatValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let nearest = self.double_intrinsic("llvm.round", &[x], "nearest")?;
        let whole = self.double_tolerantly_equal(x, nearest)?;
        let not_whole = builder.build_not(whole, "not_whole")?;
        self.check_immediately(not_whole, AplErrorKind::Domain, "d2i: not an integer")?;
        self.double_in_int_range(nearest, "d2i")?;
        Ok(builder.build_float_to_signed_int(nearest, self.emitter.context.i64_type(), "d2i")?)
    }

    /// DOMAIN ERROR unless the (integral) double is in the int range (NaN is not).
    fn double_in_int_range(&self, rounded: FloatValue<'ctx>, op_name: &str) -> Result<(), CodegenError> {
        let in_range = self.double_is_in_int_range(rounded)?;
        let out_of_range = self.emitter.builder.build_not(in_range, "out_of_int_range")?;
        let message = format!("{op_name}: value out of the int range");
        self.check_immediately(out_of_range, AplErrorKind::Domain, &message)
    }

    /// APL's `x|y` on doubles: y when x = 0, 0 when y÷x is tolerantly an integer, otherwise `y - x×⌊y÷x`.
    fn double_residue(&self, x: FloatValue<'ctx>, y: FloatValue<'ctx>) -> Result<FloatValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let zero = self.double_constant(0.0);
        let quotient = builder.build_float_div(y, x, "quotient")?;
        let nearest = self.double_intrinsic("llvm.round", &[quotient], "nearest")?;
        let whole = self.double_tolerantly_equal(quotient, nearest)?;
        let floor = self.double_intrinsic("llvm.floor", &[quotient], "floor")?;
        let multiple = builder.build_float_mul(x, floor, "multiple")?;
        let remainder = builder.build_float_sub(y, multiple, "remainder")?;
        let residue = self.double_select(whole, zero, remainder, "residue")?;
        let modulus_is_zero = self.double_compare(FloatPredicate::OEQ, x, zero)?;
        self.double_select(modulus_is_zero, y, residue, "resd")
    }
}

fn int_comparison_predicate(op: Op) -> Option<IntPredicate> {
    Some(match op {
        Op::LtI => IntPredicate::SLT,
        Op::LteI => IntPredicate::SLE,
        Op::GtI => IntPredicate::SGT,
        Op::GteI => IntPredicate::SGE,
        Op::EqI | Op::EqB | Op::EqC => IntPredicate::EQ,
        Op::NeqI | Op::NeqC => IntPredicate::NE,
        Op::LtC => IntPredicate::ULT,
        Op::LteC => IntPredicate::ULE,
        Op::GtC => IntPredicate::UGT,
        Op::GteC => IntPredicate::UGE,
        _ => return None,
    })
}

fn unsupported_operator(op: Op) -> CodegenError {
    CodegenError::UnsupportedOperator {
        operator: op.name().to_string(),
    }
}

//! Module-internal helper functions for the scalar operators that need loops of their own: Γ (for `factd` and
//! `binomd` on non-integers), the exact factorial of small integers as a double, and the int binomial. Each is
//! defined once per module on first use, with the same arithmetic, in the same order, as `crate::tail::scalar_ops`
//! (so results agree bit for bit with the interpreters).

use inkwell::module::Linkage;
use inkwell::values::{FunctionValue, IntValue};
use inkwell::{FloatPredicate, IntPredicate};

use crate::codegen::llvm::emit::FunctionEmitter;
use crate::codegen::llvm::error::CodegenError;

use super::internal_error;
use inkwell::module::Module;

/// The Lanczos coefficients (g = 7, 9 terms) of `crate::tail::scalar_ops::gamma`.
const LANCZOS_COEFFICIENTS: [f64; 9] = [
    0.999_999_999_999_809_9,
    676.520_368_121_885_1,
    -1_259.139_216_722_402_8,
    771.323_428_777_653_1,
    -176.615_029_162_140_6,
    12.507_343_278_686_905,
    -0.138_571_095_265_720_12,
    9.984_369_578_019_572e-6,
    1.505_632_735_149_311_6e-7,
];

fn existing_or_new_function<'ctx>(
    module: &Module<'ctx>,
    name: &str,
    function_type: inkwell::types::FunctionType<'ctx>,
    define: impl FnOnce(FunctionValue<'ctx>) -> Result<(), CodegenError>,
) -> Result<FunctionValue<'ctx>, CodegenError> {
    if let Some(existing) = module.get_function(name) {
        return Ok(existing);
    }
    let function = module.add_function(name, function_type, Some(Linkage::Internal));
    define(function)?;
    Ok(function)
}

/// `double aplc_gamma(double x)`: Γ(x) by Lanczos for x ≥ 0.5, by the reflection formula below.
pub(super) fn gamma_function<'ctx>(module: &Module<'ctx>) -> Result<FunctionValue<'ctx>, CodegenError> {
    let lanczos = lanczos_gamma_function(module)?;
    let context = module.get_context();
    let f64_type = context.f64_type();
    let function_type = f64_type.fn_type(&[f64_type.into()], false);
    existing_or_new_function(module, "aplc_gamma", function_type, |function| {
        let emitter = FunctionEmitter::for_function(module, function);
        let builder = &emitter.builder;
        let x = parameter_as_float(function, 0)?;
        x.set_name("x");
        let pi = f64_type.const_float(std::f64::consts::PI);
        let below_half = builder.build_float_compare(FloatPredicate::OLT, x, f64_type.const_float(0.5), "")?;
        let direct = call_float(&emitter, lanczos, x, "direct")?;
        let pi_x = builder.build_float_mul(pi, x, "pi_x")?;
        let sine = emitter.emit_double_intrinsic("llvm.sin", &[pi_x], "sine")?;
        let one_minus_x = builder.build_float_sub(f64_type.const_float(1.0), x, "one_minus_x")?;
        let mirrored = call_float(&emitter, lanczos, one_minus_x, "mirrored")?;
        let denominator = builder.build_float_mul(sine, mirrored, "denominator")?;
        let reflected = builder.build_float_div(pi, denominator, "reflected")?;
        let result = builder.build_select(below_half, reflected, direct, "gamma")?;
        builder.build_return(Some(&result))?;
        Ok(())
    })
}

/// The Lanczos branch of Γ, for x ≥ 0.5.
fn lanczos_gamma_function<'ctx>(module: &Module<'ctx>) -> Result<FunctionValue<'ctx>, CodegenError> {
    let context = module.get_context();
    let f64_type = context.f64_type();
    let function_type = f64_type.fn_type(&[f64_type.into()], false);
    existing_or_new_function(module, "aplc_gamma_lanczos", function_type, |function| {
        let emitter = FunctionEmitter::for_function(module, function);
        let builder = &emitter.builder;
        let x = parameter_as_float(function, 0)?;
        let shifted = builder.build_float_sub(x, f64_type.const_float(1.0), "shifted")?;
        let mut sum = f64_type.const_float(LANCZOS_COEFFICIENTS[0]);
        for (k, coefficient) in LANCZOS_COEFFICIENTS.iter().enumerate().skip(1) {
            let denominator = builder.build_float_add(shifted, f64_type.const_float(k as f64), "")?;
            let term = builder.build_float_div(f64_type.const_float(*coefficient), denominator, "term")?;
            sum = builder.build_float_add(sum, term, "sum")?;
        }
        let t = builder.build_float_add(shifted, f64_type.const_float(7.5), "t")?;
        let exponent = builder.build_float_add(shifted, f64_type.const_float(0.5), "exponent")?;
        let power = emitter.emit_double_intrinsic("llvm.pow", &[t, exponent], "power")?;
        let minus_t = builder.build_float_neg(t, "minus_t")?;
        let decay = emitter.emit_double_intrinsic("llvm.exp", &[minus_t], "decay")?;
        let root_two_pi = f64_type.const_float((2.0 * std::f64::consts::PI).sqrt());
        let product = builder.build_float_mul(root_two_pi, power, "")?;
        let product = builder.build_float_mul(product, decay, "")?;
        let result = builder.build_float_mul(product, sum, "gamma")?;
        builder.build_return(Some(&result))?;
        Ok(())
    })
}

/// `double aplc_exact_factorial(i64 n)`: 1 × 2 × ... × n in doubles, in that order.
pub(super) fn exact_factorial_function<'ctx>(module: &Module<'ctx>) -> Result<FunctionValue<'ctx>, CodegenError> {
    let context = module.get_context();
    let f64_type = context.f64_type();
    let function_type = f64_type.fn_type(&[context.i64_type().into()], false);
    existing_or_new_function(module, "aplc_exact_factorial", function_type, |function| {
        let emitter = FunctionEmitter::for_function(module, function);
        let n = parameter_as_int(function, 0)?;
        let product = emitter.emit_mutable_variable(f64_type.into(), "product", f64_type.const_float(1.0).into())?;
        emitter.emit_for_loop(n, "k", |emitter, k| {
            let builder = &emitter.builder;
            let factor = builder.build_int_add(k, emitter.int_constant(1), "factor")?;
            let factor = builder.build_signed_int_to_float(factor, f64_type, "factor")?;
            let current = builder.build_load(f64_type, product, "product")?.into_float_value();
            let next = builder.build_float_mul(current, factor, "product")?;
            builder.build_store(product, next)?;
            Ok(())
        })?;
        let result = emitter.builder.build_load(f64_type, product, "factorial")?;
        emitter.builder.build_return(Some(&result))?;
        Ok(())
    })
}

/// `i64 aplc_binomial_int(i64 x, i64 y)` for x, y ≥ 0: the number of ways to choose x of y, or -1 when it does not
/// fit in an int. Each step `r × (y-i) ÷ (i+1)` is exact; dividing by the common factor first keeps the product
/// equal to the next value, so an overflow of the product is exactly a result too large.
pub(super) fn binomial_int_function<'ctx>(module: &Module<'ctx>) -> Result<FunctionValue<'ctx>, CodegenError> {
    let context = module.get_context();
    let i64_type = context.i64_type();
    let function_type = i64_type.fn_type(&[i64_type.into(), i64_type.into()], false);
    existing_or_new_function(module, "aplc_binomial_int", function_type, |function| {
        let emitter = FunctionEmitter::for_function(module, function);
        let builder = &emitter.builder;
        let (x, y) = (parameter_as_int(function, 0)?, parameter_as_int(function, 1)?);
        let x_above_y = builder.build_int_compare(IntPredicate::SGT, x, y, "x_above_y")?;
        emitter.emit_if(
            x_above_y,
            "none",
            |emitter| emitter.emit_return_status_i64(0),
            |_| Ok(()),
        )?;
        let rest = builder.build_int_sub(y, x, "rest")?;
        let chosen = builder.build_select(builder.build_int_compare(IntPredicate::SLT, rest, x, "")?, rest, x, "k")?;
        let result = emitter.emit_mutable_variable(i64_type.into(), "result", emitter.int_constant(1).into())?;
        emitter.emit_for_loop(chosen.into_int_value(), "i", |emitter, i| {
            let builder = &emitter.builder;
            let current = builder.build_load(i64_type, result, "result")?.into_int_value();
            let divisor = builder.build_int_add(i, emitter.int_constant(1), "divisor")?;
            let common = emit_gcd(emitter, current, divisor)?;
            let reduced = builder.build_int_unsigned_div(current, common, "reduced")?;
            let remaining_divisor = builder.build_int_unsigned_div(divisor, common, "remaining_divisor")?;
            let numerator = builder.build_int_sub(y, i, "numerator")?;
            let factor = builder.build_int_unsigned_div(numerator, remaining_divisor, "factor")?;
            let (product, overflow) = emit_multiply_with_overflow(emitter, reduced, factor)?;
            emitter.emit_if(
                overflow,
                "too_large",
                |emitter| emitter.emit_return_status_i64(-1),
                |_| Ok(()),
            )?;
            emitter.builder.build_store(result, product)?;
            Ok(())
        })?;
        let final_result = emitter.builder.build_load(i64_type, result, "binomial")?;
        emitter.builder.build_return(Some(&final_result))?;
        Ok(())
    })
}

/// Euclid's algorithm on non-negative ints.
fn emit_gcd<'ctx>(
    emitter: &FunctionEmitter<'_, 'ctx>,
    a: IntValue<'ctx>,
    b: IntValue<'ctx>,
) -> Result<IntValue<'ctx>, CodegenError> {
    let i64_type = emitter.context.i64_type();
    let left = emitter.emit_mutable_variable(i64_type.into(), "gcd_left", a.into())?;
    let right = emitter.emit_mutable_variable(i64_type.into(), "gcd_right", b.into())?;
    emitter.emit_while_loop(
        "gcd",
        |emitter| {
            let right_value = emitter.builder.build_load(i64_type, right, "right")?.into_int_value();
            Ok(emitter
                .builder
                .build_int_compare(IntPredicate::NE, right_value, emitter.int_constant(0), "")?)
        },
        |emitter| {
            let builder = &emitter.builder;
            let left_value = builder.build_load(i64_type, left, "left")?.into_int_value();
            let right_value = builder.build_load(i64_type, right, "right")?.into_int_value();
            let remainder = builder.build_int_unsigned_rem(left_value, right_value, "remainder")?;
            builder.build_store(left, right_value)?;
            builder.build_store(right, remainder)?;
            Ok(())
        },
    )?;
    Ok(emitter.builder.build_load(i64_type, left, "gcd")?.into_int_value())
}

/// `a × b` wrapping, and whether the exact product overflows 64 bits.
pub(super) fn emit_multiply_with_overflow<'ctx>(
    emitter: &FunctionEmitter<'_, 'ctx>,
    a: IntValue<'ctx>,
    b: IntValue<'ctx>,
) -> Result<(IntValue<'ctx>, IntValue<'ctx>), CodegenError> {
    let i64_type = emitter.context.i64_type();
    let declaration = inkwell::intrinsics::Intrinsic::find("llvm.smul.with.overflow")
        .and_then(|intrinsic| intrinsic.get_declaration(emitter.module, &[i64_type.into()]))
        .ok_or_else(|| internal_error("llvm.smul.with.overflow is missing".to_string()))?;
    let pair = emitter
        .builder
        .build_call(declaration, &[a.into(), b.into()], "product_and_overflow")?
        .try_as_basic_value()
        .basic()
        .ok_or_else(|| internal_error("llvm.smul.with.overflow returned no value".to_string()))?
        .into_struct_value();
    let product = emitter
        .builder
        .build_extract_value(pair, 0, "product")?
        .into_int_value();
    let overflow = emitter
        .builder
        .build_extract_value(pair, 1, "overflow")?
        .into_int_value();
    Ok((product, overflow))
}

fn call_float<'ctx>(
    emitter: &FunctionEmitter<'_, 'ctx>,
    function: FunctionValue<'ctx>,
    argument: inkwell::values::FloatValue<'ctx>,
    name: &str,
) -> Result<inkwell::values::FloatValue<'ctx>, CodegenError> {
    emitter
        .builder
        .build_call(function, &[argument.into()], name)?
        .try_as_basic_value()
        .basic()
        .map(|value| value.into_float_value())
        .ok_or_else(|| internal_error(format!("{name}: the call returned no value")))
}

fn parameter_as_float<'ctx>(
    function: FunctionValue<'ctx>,
    position: u32,
) -> Result<inkwell::values::FloatValue<'ctx>, CodegenError> {
    function
        .get_nth_param(position)
        .map(|parameter| parameter.into_float_value())
        .ok_or_else(|| internal_error("a helper function lacks a parameter".to_string()))
}

fn parameter_as_int<'ctx>(function: FunctionValue<'ctx>, position: u32) -> Result<IntValue<'ctx>, CodegenError> {
    function
        .get_nth_param(position)
        .map(|parameter| parameter.into_int_value())
        .ok_or_else(|| internal_error("a helper function lacks a parameter".to_string()))
}

/// Returning an `i64` from a helper (the emitter's own `emit_return_status` returns the `i32` of the entry).
trait ReturnInt {
    fn emit_return_status_i64(&self, value: i64) -> Result<(), CodegenError>;
}

impl ReturnInt for FunctionEmitter<'_, '_> {
    fn emit_return_status_i64(&self, value: i64) -> Result<(), CodegenError> {
        self.builder.build_return(Some(&self.int_constant(value)))?;
        Ok(())
    }
}

//! Complex numbers in registers: an LLVM `{ double, double }` (the real part, then the imaginary part), the same
//! layout as in memory and in the run-time library's ABI. Every operation computes exactly what
//! `crate::tail::scalar_ops` computes, operation by operation (no fused multiply-add, no reassociation), so that
//! the printed digits agree with the interpreter's.

use inkwell::module::Linkage;
use inkwell::types::StructType;
use inkwell::values::{BasicValueEnum, FloatValue, StructValue};
use inkwell::FloatPredicate;

use super::super::{internal_error, ProgramTranslator};
use super::unsupported_operator;
use crate::codegen::llvm::error::CodegenError;
use crate::tail::ast::Op;

impl<'ctx> ProgramTranslator<'_, 'ctx> {
    fn complex_type(&self) -> StructType<'ctx> {
        let f64_type = self.emitter.context.f64_type();
        self.emitter
            .context
            .struct_type(&[f64_type.into(), f64_type.into()], false)
    }

    pub(super) fn make_complex(
        &self,
        re: FloatValue<'ctx>,
        im: FloatValue<'ctx>,
    ) -> Result<StructValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let with_re = builder.build_insert_value(self.complex_type().get_undef(), re, 0, "with_re")?;
        let complex = builder.build_insert_value(with_re, im, 1, "complex")?;
        Ok(complex.into_struct_value())
    }

    fn complex_parts(&self, value: StructValue<'ctx>) -> Result<(FloatValue<'ctx>, FloatValue<'ctx>), CodegenError> {
        let builder = &self.emitter.builder;
        let re = builder.build_extract_value(value, 0, "re")?.into_float_value();
        let im = builder.build_extract_value(value, 1, "im")?.into_float_value();
        Ok((re, im))
    }

    pub(super) fn translate_complex_unary_operator(
        &self,
        op: Op,
        x: StructValue<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let (re, im) = self.complex_parts(x)?;
        let (result_re, result_im) = match op {
            Op::RealX => return Ok(re.into()),
            Op::ImagX => return Ok(im.into()),
            Op::MagnitudeX => return Ok(self.call_hypot(re, im)?.into()),
            Op::NegX => (
                builder.build_float_neg(re, "neg_re")?,
                builder.build_float_neg(im, "neg_im")?,
            ),
            Op::ConjX => (re, builder.build_float_neg(im, "conj_im")?),
            Op::ExpX => {
                let magnitude = self.double_intrinsic("llvm.exp", &[re], "exp_magnitude")?;
                let cosine = self.double_intrinsic("llvm.cos", &[im], "cos_im")?;
                let sine = self.double_intrinsic("llvm.sin", &[im], "sin_im")?;
                (
                    builder.build_float_mul(magnitude, cosine, "exp_re")?,
                    builder.build_float_mul(magnitude, sine, "exp_im")?,
                )
            }
            _ => return Err(unsupported_operator(op)),
        };
        Ok(self.make_complex(result_re, result_im)?.into())
    }

    pub(super) fn translate_complex_binary_operator(
        &self,
        op: Op,
        x: StructValue<'ctx>,
        y: StructValue<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let (a, b) = self.complex_parts(x)?;
        let (c, d) = self.complex_parts(y)?;
        let (re, im) = match op {
            Op::EqX | Op::NeqX => return Ok(self.complex_equality(op, (a, b), (c, d))?.into()),
            Op::DivX => return Ok(self.complex_division((a, b), (c, d))?.into()),
            Op::AddX => (
                builder.build_float_add(a, c, "sum_re")?,
                builder.build_float_add(b, d, "sum_im")?,
            ),
            Op::SubX => (
                builder.build_float_sub(a, c, "difference_re")?,
                builder.build_float_sub(b, d, "difference_im")?,
            ),
            Op::MulX => {
                let ac = builder.build_float_mul(a, c, "ac")?;
                let bd = builder.build_float_mul(b, d, "bd")?;
                let ad = builder.build_float_mul(a, d, "ad")?;
                let bc = builder.build_float_mul(b, c, "bc")?;
                (
                    builder.build_float_sub(ac, bd, "product_re")?,
                    builder.build_float_add(ad, bc, "product_im")?,
                )
            }
            _ => return Err(unsupported_operator(op)),
        };
        Ok(self.make_complex(re, im)?.into())
    }

    /// Exact equality of both parts, as the interpreter compares complex numbers.
    fn complex_equality(
        &self,
        op: Op,
        (a, b): (FloatValue<'ctx>, FloatValue<'ctx>),
        (c, d): (FloatValue<'ctx>, FloatValue<'ctx>),
    ) -> Result<inkwell::values::IntValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let re_equal = self.double_compare(FloatPredicate::OEQ, a, c)?;
        let im_equal = self.double_compare(FloatPredicate::OEQ, b, d)?;
        let equal = builder.build_and(re_equal, im_equal, "eqx")?;
        Ok(if op == Op::EqX {
            equal
        } else {
            builder.build_not(equal, "neqx")?
        })
    }

    /// `(a+bi) ÷ (c+di)` by the textbook formula; `0÷0` is 1, another division by zero a DOMAIN ERROR.
    fn complex_division(
        &self,
        (a, b): (FloatValue<'ctx>, FloatValue<'ctx>),
        (c, d): (FloatValue<'ctx>, FloatValue<'ctx>),
    ) -> Result<StructValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let zero = self.double_constant(0.0);
        let cc = builder.build_float_mul(c, c, "cc")?;
        let dd = builder.build_float_mul(d, d, "dd")?;
        let denominator = builder.build_float_add(cc, dd, "denominator")?;
        let divisor_is_zero = self.double_compare(FloatPredicate::OEQ, denominator, zero)?;
        let re_zero = self.double_compare(FloatPredicate::OEQ, a, zero)?;
        let im_zero = self.double_compare(FloatPredicate::OEQ, b, zero)?;
        let dividend_is_zero = builder.build_and(re_zero, im_zero, "dividend_is_zero")?;
        let dividend_is_not_zero = builder.build_not(dividend_is_zero, "dividend_is_not_zero")?;
        let failed = builder.build_and(divisor_is_zero, dividend_is_not_zero, "division_by_zero")?;
        self.check_deferrable_domain(failed, "divx: division by zero".to_string())?;
        let ac = builder.build_float_mul(a, c, "ac")?;
        let bd = builder.build_float_mul(b, d, "bd")?;
        let bc = builder.build_float_mul(b, c, "bc")?;
        let ad = builder.build_float_mul(a, d, "ad")?;
        let re_numerator = builder.build_float_add(ac, bd, "re_numerator")?;
        let im_numerator = builder.build_float_sub(bc, ad, "im_numerator")?;
        let re = builder.build_float_div(re_numerator, denominator, "quotient_re")?;
        let im = builder.build_float_div(im_numerator, denominator, "quotient_im")?;
        let quotient = self.make_complex(re, im)?;
        let one = self.make_complex(self.double_constant(1.0), zero)?;
        Ok(builder
            .build_select(divisor_is_zero, one, quotient, "divx")?
            .into_struct_value())
    }

    /// `|z|` as the interpreter computes it: the C library's `hypot`, which avoids overflow in `re² + im²`.
    fn call_hypot(&self, re: FloatValue<'ctx>, im: FloatValue<'ctx>) -> Result<FloatValue<'ctx>, CodegenError> {
        let f64_type = self.emitter.context.f64_type();
        let function = self.emitter.module.get_function("hypot").unwrap_or_else(|| {
            let function_type = f64_type.fn_type(&[f64_type.into(), f64_type.into()], false);
            self.emitter
                .module
                .add_function("hypot", function_type, Some(Linkage::External))
        });
        self.emitter
            .builder
            .build_call(function, &[re.into(), im.into()], "magnx")?
            .try_as_basic_value()
            .basic()
            .map(|value| value.into_float_value())
            .ok_or_else(|| internal_error("hypot returned no value".to_string()))
    }
}

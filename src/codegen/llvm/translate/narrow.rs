//! Narrow integer arithmetic (issue #15, item 2): an int `let` whose value is a sum or difference of booleans and
//! small constants (the neighbour count of a Game of Life cell, `+/` of a few comparisons) is computed in the
//! narrowest of i8, i16 and i32 that holds every value it can take, and widened (sign-extended) to the loop IR's
//! 64-bit int only for the uses that need it. LLVM's instruction combiner then compares and selects on the narrow
//! value too, so a vectorised loop works on 64 lanes of bytes where it worked on 8 of 64-bit ints.
//!
//! The range of each value is derived from its operands (`b2i` is 0 or 1, a constant is itself, a sum's bounds are
//! the sums of its operands' bounds, a variable has the range recorded when its `let` was narrowed), and only the
//! wrapping index operators `addw`/`subw` are narrowed: APL's checked `addi`/`subi` keep their overflow checks. The
//! narrow type is chosen for the hull of every intermediate value (`(a+b)-c` may end small after a large sum), so
//! every value provably lies in it: narrow and 64-bit arithmetic give the same number, and narrowing never changes a
//! result.

use super::ProgramTranslator;
use crate::codegen::llvm::error::CodegenError;
use crate::loops::ir::{Expr, ScalarType, Var};
use crate::tail::ast::Op;
use inkwell::values::IntValue;
use inkwell::IntPredicate;

/// The inclusive range of an int value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct IntRange {
    pub low: i64,
    pub high: i64,
}

impl IntRange {
    fn constant(value: i64) -> IntRange {
        IntRange {
            low: value,
            high: value,
        }
    }

    fn union(self, other: IntRange) -> IntRange {
        IntRange {
            low: self.low.min(other.low),
            high: self.high.max(other.high),
        }
    }

    /// The fewest bits among 8, 16 and 32 of a signed int holding the whole range (None: 64 are needed).
    fn narrow_bits(self) -> Option<u32> {
        [8u32, 16, 32].into_iter().find(|bits| {
            let limit = 1i64 << (bits - 1);
            self.low >= -limit && self.high < limit
        })
    }
}

/// The ranges of a narrowable expression: of its value, and the hull of the values of all its parts (intermediate
/// sums, and the narrow types of the variables it reads), which the narrow type must hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Ranges {
    pub value: IntRange,
    pub hull: IntRange,
}

impl Ranges {
    fn of_value(value: IntRange) -> Ranges {
        Ranges { value, hull: value }
    }
}

/// A narrowed `let`: its value in the narrow type, and its ranges (the hull says which type it has).
#[derive(Clone, Copy)]
pub(super) struct NarrowValue<'ctx> {
    pub value: IntValue<'ctx>,
    pub ranges: Ranges,
}

impl<'ctx> ProgramTranslator<'_, 'ctx> {
    /// The value of an int `let`, computed narrow and sign-extended to 64 bits when its range allows (recording the
    /// narrow value for later narrow uses), or None when it does not.
    pub(super) fn translate_narrow_let(&self, var: &Var, value: &Expr) -> Result<Option<IntValue<'ctx>>, CodegenError> {
        if var.ty != ScalarType::Int || !is_narrowable_operation(value) {
            return Ok(None);
        }
        let Some(ranges) = self.narrow_ranges(value) else {
            return Ok(None);
        };
        let Some(bits) = ranges.hull.narrow_bits() else {
            return Ok(None);
        };
        let narrow = self.translate_narrow(value, bits)?;
        narrow.set_name(&format!("{}.narrow", var.name()));
        self.narrow_values
            .borrow_mut()
            .insert(var.id, NarrowValue { value: narrow, ranges });
        let wide = self
            .emitter
            .builder
            .build_int_s_extend(narrow, self.emitter.context.i64_type(), &var.name())?;
        Ok(Some(wide))
    }

    /// An int comparison of narrow values (a narrowed variable with a constant, say), compared in their narrow type,
    /// or None when an argument is not narrow. Comparing the widened values instead would let LLVM's instruction
    /// combiner do the whole sum in 64 bits again (it removes a sign extension by widening what it extends).
    pub(super) fn translate_narrow_comparison(
        &self,
        op: Op,
        arguments: &[Expr],
    ) -> Result<Option<IntValue<'ctx>>, CodegenError> {
        let [x, y] = arguments else {
            return Ok(None);
        };
        let uses_a_narrowed_let =
            |expr: &Expr| matches!(expr, Expr::Var(var) if self.narrow_values.borrow().contains_key(&var.id));
        if !uses_a_narrowed_let(x) && !uses_a_narrowed_let(y) {
            return Ok(None);
        }
        let (Some(x_ranges), Some(y_ranges)) = (self.narrow_ranges(x), self.narrow_ranges(y)) else {
            return Ok(None);
        };
        let Some(bits) = x_ranges.hull.union(y_ranges.hull).narrow_bits() else {
            return Ok(None);
        };
        let (x, y) = (self.translate_narrow(x, bits)?, self.translate_narrow(y, bits)?);
        let predicate = match op {
            Op::EqI => IntPredicate::EQ,
            Op::NeqI => IntPredicate::NE,
            Op::LtI => IntPredicate::SLT,
            Op::LteI => IntPredicate::SLE,
            Op::GtI => IntPredicate::SGT,
            Op::GteI => IntPredicate::SGE,
            _ => return Ok(None),
        };
        Ok(Some(
            self.emitter.builder.build_int_compare(predicate, x, y, "compared")?,
        ))
    }

    /// The ranges of an expression built only of narrowable parts, or None.
    fn narrow_ranges(&self, expr: &Expr) -> Option<Ranges> {
        match expr {
            Expr::Int(value) => Some(Ranges::of_value(IntRange::constant(*value))),
            Expr::Var(var) => self.narrow_values.borrow().get(&var.id).map(|narrow| narrow.ranges),
            Expr::Prim(Op::B2I, _) => Some(Ranges::of_value(IntRange { low: 0, high: 1 })),
            Expr::Prim(op @ (Op::AddW | Op::SubW), arguments) => {
                let (x, y) = (self.narrow_ranges(&arguments[0])?, self.narrow_ranges(&arguments[1])?);
                let value = if *op == Op::AddW {
                    IntRange {
                        low: x.value.low.checked_add(y.value.low)?,
                        high: x.value.high.checked_add(y.value.high)?,
                    }
                } else {
                    IntRange {
                        low: x.value.low.checked_sub(y.value.high)?,
                        high: x.value.high.checked_sub(y.value.low)?,
                    }
                };
                Some(Ranges {
                    value,
                    hull: x.hull.union(y.hull).union(value),
                })
            }
            _ => None,
        }
    }

    /// Emits an expression whose hull fits `bits` in that width (so every part of it fits, and every variable it reads
    /// is at most that wide).
    fn translate_narrow(&self, expr: &Expr, bits: u32) -> Result<IntValue<'ctx>, CodegenError> {
        let context = self.emitter.context;
        let builder = &self.emitter.builder;
        let narrow_type = match bits {
            8 => context.i8_type(),
            16 => context.i16_type(),
            _ => context.i32_type(),
        };
        Ok(match expr {
            Expr::Int(value) => narrow_type.const_int(*value as u64, true),
            Expr::Var(var) => {
                let narrow = self.narrow_values.borrow().get(&var.id).copied();
                let narrow = narrow.ok_or_else(|| super::internal_error(format!("{} is not narrow", var.name())))?;
                let width = narrow.value.get_type().get_bit_width();
                if width == bits {
                    narrow.value
                } else {
                    builder.build_int_s_extend(narrow.value, narrow_type, "widen")?
                }
            }
            Expr::Prim(Op::B2I, arguments) => {
                let flag = self.translate_bool(&arguments[0])?;
                builder.build_int_z_extend(flag, narrow_type, "b2i")?
            }
            Expr::Prim(op @ (Op::AddW | Op::SubW), arguments) => {
                let x = self.translate_narrow(&arguments[0], bits)?;
                let y = self.translate_narrow(&arguments[1], bits)?;
                // No signed wrap: the range proves the result fits.
                if *op == Op::AddW {
                    builder.build_int_nsw_add(x, y, "sum")?
                } else {
                    builder.build_int_nsw_sub(x, y, "difference")?
                }
            }
            other => return Err(super::internal_error(format!("not a narrow expression: {other:?}"))),
        })
    }
}

/// Whether a `let`'s value is an operation worth narrowing (a sum, a difference, a boolean made an int); a plain
/// variable or constant is left as it is.
fn is_narrowable_operation(value: &Expr) -> bool {
    matches!(value, Expr::Prim(Op::AddW | Op::SubW | Op::B2I, _))
}

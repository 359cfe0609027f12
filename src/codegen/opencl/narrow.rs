//! 32-bit index arithmetic in kernels.
//!
//! APL's ints are 64-bit, and so is the loop IR's index arithmetic. A GPU does a 64-bit integer addition, comparison
//! or conversion to double in two or more instructions, so a kernel whose elements are mostly index arithmetic
//! (signal's rotated and catenated `⍳N`) spends a fifth of its time on the upper halves of numbers that fit in 32
//! bits (NVIDIA H200, bench/results-gpu.md, run 5). So a kernel has two versions of its body when the second is worth
//! it: the one as written, and one in which every int value that provably fits in an `int` is computed as one.
//!
//! The proof is a bound on each value's magnitude, `units·NARROW_UNIT + constant`, from the bounds of what it is
//! made of: the work-item index (below the item count), the kernel's int parameters and integer literals. The launch
//! chooses the 32-bit version (the kernel's `aplc_narrow` parameter, the same for every work-item: no divergence)
//! when the item count and every int parameter that version reads are at most [`NARROW_UNIT`] in magnitude;
//! otherwise, on larger data, the kernel runs the 64-bit version.
//!
//! Within the 32-bit version, a value is an `int` when its bound is at most `i32::MAX`: sums, differences,
//! negations, minima, maxima and selections of such values, products by a literal, floor divisions and residues (a
//! 2-D kernel's row and column from its cell index), and 0/1 from booleans. A product of two values that vary, a
//! load (data can be anything) and a mutable variable stay 64-bit. A value whose bound fits cannot overflow 32 bits,
//! so the 64-bit results are the same: wrapping arithmetic does not wrap, and the overflow checks of APL's checked
//! arithmetic cannot fail (they are left out of this version; a zero divisor is still checked). Where an `int` meets
//! a `long`, C widens it with its sign: the same value.

use std::collections::{BTreeMap, HashMap};

use crate::loops::ir::{Expr, ScalarType, Var};
use crate::tail::ast::Op;

/// The magnitude the 32-bit version assumes of the item count and of each int parameter it reads: 2^27, so that a
/// value may be made of 15 of them (a sum of the index and a few offsets, or a multiple of one) and still fit.
pub const NARROW_UNIT: i64 = 1 << 27;

/// An upper bound on a value's magnitude: `units·NARROW_UNIT + constant`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Magnitude {
    pub units: u64,
    pub constant: u64,
}

impl Magnitude {
    pub const ONE_UNIT: Magnitude = Magnitude { units: 1, constant: 0 };

    fn constant(value: i64) -> Magnitude {
        Magnitude {
            units: 0,
            constant: value.unsigned_abs(),
        }
    }

    /// Whether every value of this magnitude fits in an `int`.
    pub fn fits_in_32_bits(self) -> bool {
        self.largest() <= i32::MAX as u128
    }

    /// The largest magnitude the bound allows.
    pub fn largest(self) -> u128 {
        (self.units as u128) * (NARROW_UNIT as u128) + self.constant as u128
    }

    fn plus(self, other: Magnitude) -> Magnitude {
        Magnitude {
            units: self.units.saturating_add(other.units),
            constant: self.constant.saturating_add(other.constant),
        }
    }

    fn times_constant(self, factor: u64) -> Magnitude {
        Magnitude {
            units: self.units.saturating_mul(factor),
            constant: self.constant.saturating_mul(factor),
        }
    }

    fn either(self, other: Magnitude) -> Magnitude {
        Magnitude {
            units: self.units.max(other.units),
            constant: self.constant.max(other.constant),
        }
    }
}

/// What the writer of a kernel's 32-bit version knows: the int variables it declared as `int`, with their bounds,
/// the kernel's int parameters, and which of them the version reads (the kernel's test of the version covers those).
#[derive(Default)]
pub struct NarrowInts {
    variables: HashMap<u32, Magnitude>,
    /// The int parameters, by variable id: their C names.
    parameters: HashMap<u32, String>,
    /// The parameters this version reads as `int`s, by id: the variable, and the C name of the parameter.
    read_parameters: BTreeMap<u32, (Var, String)>,
    /// Whether any value became an `int` (otherwise the version is the other one again, and left out).
    narrowed_anything: bool,
}

impl NarrowInts {
    /// For a kernel of these scalar parameters, in which `index` (when given) is below the item count.
    pub fn new(parameters: &[Var], index: Option<&Var>, parameter_name: impl Fn(&Var) -> String) -> NarrowInts {
        let mut narrow = NarrowInts {
            parameters: parameters
                .iter()
                .filter(|var| var.ty == ScalarType::Int)
                .map(|var| (var.id, parameter_name(var)))
                .collect(),
            ..NarrowInts::default()
        };
        if let Some(index) = index {
            narrow.variables.insert(index.id, Magnitude::ONE_UNIT);
        }
        narrow
    }

    /// The C name of a parameter's `int` copy in this version.
    pub fn parameter_copy(name: &str) -> String {
        format!("{name}_32")
    }

    /// A bound on `expr` (an int) that fits in 32 bits, or `None`.
    pub fn magnitude(&self, expr: &Expr) -> Option<Magnitude> {
        let magnitude = self.bound(expr)?;
        magnitude.fits_in_32_bits().then_some(magnitude)
    }

    fn bound(&self, expr: &Expr) -> Option<Magnitude> {
        match expr {
            Expr::Int(value) => Some(Magnitude::constant(*value)),
            Expr::Var(var) if var.ty == ScalarType::Int => self
                .variables
                .get(&var.id)
                .copied()
                .or_else(|| self.parameters.contains_key(&var.id).then_some(Magnitude::ONE_UNIT)),
            Expr::At(_, inner) => self.bound(inner),
            Expr::Select(_, then, otherwise) => Some(self.bound(then)?.either(self.bound(otherwise)?)),
            Expr::Prim(op, arguments) => self.bound_of_operation(*op, arguments),
            _ => None,
        }
    }

    fn bound_of_operation(&self, op: Op, arguments: &[Expr]) -> Option<Magnitude> {
        match (op, arguments) {
            (Op::AddW | Op::AddI | Op::SubW | Op::SubI, [x, y]) => Some(self.bound(x)?.plus(self.bound(y)?)),
            (Op::MinI | Op::MaxI, [x, y]) => Some(self.bound(x)?.either(self.bound(y)?)),
            (Op::MulW | Op::MulI, [Expr::Int(factor), other] | [other, Expr::Int(factor)]) => {
                Some(self.bound(other)?.times_constant(factor.unsigned_abs()))
            }
            (Op::NegW | Op::NegI | Op::AbsI, [x]) => self.bound(x),
            // Floor division by a nonzero int is at most the dividend in magnitude; the residue x|y is below |x|,
            // or y when x is 0.
            (Op::DivI, [x, y]) => {
                self.bound(y)?;
                self.bound(x)
            }
            (Op::ResI, [x, y]) => Some(self.bound(x)?.either(self.bound(y)?)),
            (Op::B2I | Op::B2IV, [_]) => Some(Magnitude::constant(1)),
            _ => None,
        }
    }

    /// Records a variable declared as an `int`.
    pub fn declare(&mut self, var: &Var, magnitude: Magnitude) {
        self.variables.insert(var.id, magnitude);
        self.narrowed_anything = true;
    }

    /// The C text of an int variable in this version: the `int` copy of a parameter (noting that the version reads
    /// it), else `None` (its own name).
    pub fn parameter_text(&mut self, var: &Var) -> Option<String> {
        let name = self.parameters.get(&var.id)?;
        self.read_parameters.insert(var.id, (var.clone(), name.clone()));
        Some(Self::parameter_copy(name))
    }

    pub fn note_narrowed(&mut self) {
        self.narrowed_anything = true;
    }

    pub fn narrowed_anything(&self) -> bool {
        self.narrowed_anything
    }

    /// The parameters this version reads: the launch chooses it when the item count and each of them is at most
    /// `NARROW_UNIT` in magnitude.
    pub fn read_parameters(&self) -> Vec<Var> {
        self.read_parameters.values().map(|(var, _)| var.clone()).collect()
    }

    /// The declarations of the `int` copies of the parameters this version reads.
    pub fn parameter_copies(&self) -> Vec<String> {
        self.read_parameters
            .values()
            .map(|(_, name)| format!("int {} = (int){name};", Self::parameter_copy(name)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int_var(id: u32) -> Var {
        Var {
            id,
            ty: ScalarType::Int,
            hint: "x".into(),
        }
    }

    #[test]
    fn sums_of_a_few_units_fit_and_products_of_two_variables_do_not() {
        let (index, parameter) = (int_var(1), int_var(2));
        let narrow = NarrowInts::new(std::slice::from_ref(&parameter), Some(&index), |var| {
            format!("v_{}", var.id)
        });
        let index_plus_parameter = Expr::add_int(Expr::var(&index), Expr::var(&parameter));
        assert_eq!(
            narrow.magnitude(&index_plus_parameter),
            Some(Magnitude { units: 2, constant: 0 })
        );
        // 15 units and a little fit in 2^31 - 1; 16 units do not.
        let fifteen = Expr::mul_int(Expr::Int(15), Expr::var(&index));
        assert!(narrow
            .magnitude(&Expr::add_int(fifteen.clone(), Expr::Int(1000)))
            .is_some());
        assert!(narrow.magnitude(&Expr::add_int(fifteen, Expr::var(&index))).is_none());
        assert!(narrow
            .magnitude(&Expr::mul_int(Expr::var(&index), Expr::var(&parameter)))
            .is_none());
        // A literal beyond the int range, and a variable nobody declared, have no bound.
        assert!(narrow.magnitude(&Expr::Int(1 << 31)).is_none());
        assert!(narrow.magnitude(&Expr::var(&int_var(3))).is_none());
    }

    #[test]
    fn the_parameters_read_as_ints_are_the_ones_the_launch_tests() {
        let parameters = [int_var(2), int_var(3)];
        let mut narrow = NarrowInts::new(&parameters, None, |var| format!("v_{}", var.id));
        assert!(narrow.read_parameters().is_empty());
        assert_eq!(narrow.parameter_text(&parameters[1]).as_deref(), Some("v_3_32"));
        assert_eq!(narrow.read_parameters(), vec![parameters[1].clone()]);
        assert_eq!(narrow.parameter_copies(), vec!["int v_3_32 = (int)v_3;".to_string()]);
        // A variable that is no parameter has no copy.
        assert_eq!(narrow.parameter_text(&int_var(4)), None);
    }
}

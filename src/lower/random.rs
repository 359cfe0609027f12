//! `roll` (APL's `?`) in the loop IR. A roll is a scalar operator with an effect: it advances the program's one
//! random generator (the run-time library's `RollGenerator`, which the interpreters share), so every backend draws the
//! same numbers only if it draws them in the same order, once each. Two rules make the loop program do that:
//! - each roll is bound by a `let` where it is lowered, so it is evaluated exactly once at that point;
//! - an array whose elements roll (`each(roll, ...)`, or a function that rolls inside) is materialised at once,
//!   row-major, which is the order the TAIL interpreter draws in; a pull array would draw when (and as often as)
//!   its consumer reads it.

use super::lower::{Function, LowerResult, Lowerer};
use super::pull::Arr;
use crate::loops::ir::{for_each_statement, statement_expressions, Expr, ScalarType};
use crate::runtime::error::AplErrorKind;
use crate::tail::ast::Op;

impl Lowerer {
    /// `roll(n)`: DOMAIN ERROR unless `n` is positive, then one draw, bound to a variable.
    pub(super) fn roll(&mut self, bound: Expr) -> Expr {
        let bound = self.bind(bound, "bound");
        self.fail_if(
            Expr::lt(bound.clone(), Expr::Int(1)),
            AplErrorKind::Domain,
            "? needs a positive integer",
        );
        self.bind(Expr::Prim(Op::Roll, vec![bound]), "roll")
    }

    /// Whether applying the function to scalars of these types draws random numbers (found by lowering it once on
    /// placeholder variables, as `result_type` does, and looking for `roll` in what it emits). The names the probe
    /// takes are given back, so that the program's numbering does not depend on the probe.
    pub(super) fn function_draws_random_numbers(
        &mut self,
        function: &Function,
        argument_types: &[ScalarType],
    ) -> LowerResult<bool> {
        let names_before = self.name_supply();
        let probe = self.capture(|lowerer| {
            let arguments: Vec<Expr> = argument_types
                .iter()
                .map(|ty| Expr::Var(lowerer.fresh_var(*ty, "probe")))
                .collect();
            lowerer.apply_scalar(function, &arguments)
        });
        self.restore_name_supply(names_before);
        let (statements, result) = probe?;
        let mut rolls = result.draws_random_numbers();
        for_each_statement(&statements, &mut |statement| {
            rolls |= statement_expressions(statement)
                .into_iter()
                .any(Expr::draws_random_numbers);
        });
        Ok(rolls)
    }

    /// The array itself, or, when its elements draw random numbers, the array materialised now in row-major order.
    pub(super) fn materialised_if_rolling(&mut self, arr: Arr, rolls: bool) -> LowerResult<Arr> {
        if rolls {
            Ok(Arr::Mat(self.materialise(&arr)?))
        } else {
            Ok(arr)
        }
    }
}

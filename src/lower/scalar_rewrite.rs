//! Rewrites of scalar operations into cheaper forms with exactly the same results, applied as the lowering builds
//! each operation (so every backend that runs the loop IR, the `mem` interpreter included, computes the same thing).
//!
//! - `⌊x÷c` on an int x and a positive integral constant c (`floor(divd(i2d(x), c))`, easter's computus) is an
//!   integer floor division when |x| < 2^46, with the double form kept for larger x. Why it is exact: x÷c is
//!   q + r÷c with 0 ≤ r < c; i2d is exact and the division correctly rounded below 2^53, so the computed quotient is
//!   within |x÷c|×2^-53 of the true one; APL's tolerant floor (tolerance 1E¯14 relative) could only round it up to
//!   q+1 when 1÷c ≤ 1E¯14×|x÷c|, i.e. |x| ≥ 1E14 > 2^46. So the floor is q, which `divi` computes with a multiply
//!   and shifts instead of a conversion, a double division and the tolerant floor's compares and range check.

use super::lower::Lowerer;
use crate::loops::ir::Expr;
use crate::loops::rewrite::operator_raises_no_apl_error;
use crate::tail::ast::Op;

/// Below this magnitude an int's `⌊x÷c` equals its floor division by c (see the module documentation).
const EXACT_FLOOR_DIVISION_BOUND: i64 = 1 << 46;

impl Lowerer {
    /// The scalar operation `op(args)`, rewritten when a cheaper exact form exists.
    pub fn scalar_operation(&mut self, op: Op, args: Vec<Expr>) -> Expr {
        if op == Op::Floor {
            if let Some((dividend, divisor)) = int_divided_by_constant(&args[0]) {
                let division = self.floor_division(dividend, divisor);
                return self.at_current_site(division);
            }
        }
        self.operation_at_current_site(op, args)
    }

    /// `op(args)`, with the current source site around it when the operation can raise an APL error (so that the
    /// error points at the APL primitive it comes from).
    pub fn operation_at_current_site(&self, op: Op, args: Vec<Expr>) -> Expr {
        if operator_raises_no_apl_error(op, &args) {
            Expr::Prim(op, args)
        } else {
            self.at_current_site(Expr::Prim(op, args))
        }
    }

    fn at_current_site(&self, expr: Expr) -> Expr {
        match self.site {
            Some(site) => Expr::at(site, expr),
            None => expr,
        }
    }

    fn floor_division(&mut self, dividend: Expr, divisor: i64) -> Expr {
        let x = self.bind(dividend, "x");
        let bound = EXACT_FLOOR_DIVISION_BOUND;
        let in_range = Expr::Prim(
            Op::AndB,
            vec![
                Expr::lt(x.clone(), Expr::Int(bound)),
                Expr::lt(Expr::Int(-bound), x.clone()),
            ],
        );
        let exact = Expr::Prim(Op::DivI, vec![x.clone(), Expr::Int(divisor)]);
        let general = Expr::Prim(
            Op::Floor,
            vec![Expr::Prim(
                Op::DivD,
                vec![Expr::Prim(Op::I2D, vec![x]), Expr::Double(divisor as f64)],
            )],
        );
        Expr::select(in_range, exact, general)
    }
}

/// `divd(i2d(x), c)` with c a positive integral double below 2^31: x and c.
fn int_divided_by_constant(expr: &Expr) -> Option<(Expr, i64)> {
    let Expr::Prim(Op::DivD, args) = expr.without_site() else {
        return None;
    };
    let (Expr::Prim(Op::I2D, dividend), Expr::Double(divisor)) = (&args[0], &args[1]) else {
        return None;
    };
    let integral = divisor.fract() == 0.0 && *divisor >= 1.0 && *divisor < 2_147_483_648.0;
    integral.then(|| (dividend[0].clone(), *divisor as i64))
}

//! Semantics of the scalar operators (those whose scheme mentions only scalar types): arithmetic, comparisons,
//! booleans, conversions and elementary functions, with APL's domain rules.
//!
//! A double result that is not a finite real number although every argument was one is a DOMAIN ERROR, as in Dyalog
//! APL: NaN (`¯8*0.5`, `asin 2`, without complex results) and overflow to ∞ (`1e308×10`, `*1000`, `0*¯1`). No value of
//! a running program is then ∞ or NaN (from numbers it computes).

use super::ast::Op;
use super::value::Scalar;
use crate::runtime::error::AplError;
pub use crate::runtime::float_mode::FloatMode;

/// Whether `op` is a scalar operator handled by [`apply_scalar_op`] (computed once from the op table).
pub fn is_scalar_op(op: Op) -> bool {
    static SCALAR: std::sync::OnceLock<Vec<bool>> = std::sync::OnceLock::new();
    SCALAR.get_or_init(|| Op::ALL.iter().map(|op| has_scalar_scheme(*op)).collect())[op as usize]
}

fn has_scalar_scheme(op: Op) -> bool {
    use super::ast::Type;
    fn is_scalar_type(ty: &Type) -> bool {
        matches!(ty, Type::Array(_, shape) if shape.as_constant() == Some(0)) || matches!(ty, Type::Singleton(..))
    }
    let mut ty = &op.scheme().body;
    let mut arity = 0;
    while let Type::Function(argument, result) = ty {
        if !is_scalar_type(argument) {
            return false;
        }
        arity += 1;
        ty = result;
    }
    // roll, nowi and the argument readers have scalar types but effects (random state, the clock, the host's program
    // arguments): the interpreter handles them.
    arity > 0 && is_scalar_type(ty) && !matches!(op, Op::Roll | Op::NowI | Op::ArgInt | Op::ArgDouble)
}

fn domain(op: Op, message: &str) -> AplError {
    AplError::domain(format!("{}: {message}", op.name()))
}

/// The DOMAIN ERROR of an int operation whose exact result does not fit in 64 bits.
pub fn integer_overflow(op: Op) -> AplError {
    domain(op, INTEGER_OVERFLOW)
}

/// The message of [`integer_overflow`] (after the operator's name), which compiled code reports too.
pub const INTEGER_OVERFLOW: &str = "integer overflow";

/// The exact sum of ints (`reduce(addi, 0, v)`), added one at a time: a DOMAIN ERROR only when the sum itself does
/// not fit in 64 bits. An `i128` holds the sum of up to 2^64 ints exactly, so no order of additions can matter.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExactIntSum(i128);

impl ExactIntSum {
    pub fn add(&mut self, value: i64) {
        self.0 += i128::from(value);
    }

    pub fn value(self) -> Result<i64, AplError> {
        i64::try_from(self.0).map_err(|_| integer_overflow(Op::AddI))
    }
}

fn wrong_arguments(op: Op, args: &[Scalar]) -> AplError {
    AplError::domain(format!(
        "{} cannot be applied to {:?} (the program is not well typed)",
        op.name(),
        args
    ))
}

/// Applies a scalar operator to scalar arguments (as many as its arity), in Dyalog's float mode.
pub fn apply_scalar_op(op: Op, args: &[Scalar]) -> Result<Scalar, AplError> {
    apply_scalar_op_in(FloatMode::Dyalog, op, args)
}

/// Applies a scalar operator to scalar arguments (as many as its arity).
pub fn apply_scalar_op_in(mode: FloatMode, op: Op, args: &[Scalar]) -> Result<Scalar, AplError> {
    match args {
        [Scalar::Int(x)] => int_unary(op, *x),
        [Scalar::Double(x)] => double_unary(mode, op, *x),
        [Scalar::Bool(x)] => match op {
            Op::NotB => Ok(Scalar::Bool(!x)),
            Op::B2I | Op::B2IV => Ok(Scalar::Int(*x as i64)),
            _ => Err(wrong_arguments(op, args)),
        },
        [Scalar::Char(x)] => match op {
            Op::C2I => Ok(Scalar::Int(*x as i64)),
            _ => Err(wrong_arguments(op, args)),
        },
        [Scalar::Complex(re, im)] => complex_unary(op, *re, *im),
        [Scalar::Int(x), Scalar::Int(y)] => int_binary(op, *x, *y),
        [Scalar::Double(x), Scalar::Double(y)] => double_binary(mode, op, *x, *y),
        [Scalar::Bool(x), Scalar::Bool(y)] => bool_binary(op, *x, *y),
        [Scalar::Char(x), Scalar::Char(y)] => char_binary(op, *x, *y),
        [Scalar::Complex(a, b), Scalar::Complex(c, d)] => complex_binary(op, (*a, *b), (*c, *d)),
        _ => Err(wrong_arguments(op, args)),
    }
    .map_err(|error| {
        if error.message.contains(op.name()) {
            error
        } else {
            domain(op, &error.message)
        }
    })
}

/// `⌊x÷y` on ints (`divi`): DOMAIN ERROR for y = 0, and for the one quotient that overflows (the most negative int
/// divided by -1).
pub fn int_floor_division(x: i64, y: i64) -> Result<i64, AplError> {
    if y == 0 {
        return Err(domain(Op::DivI, "division by zero"));
    }
    let quotient = x.checked_div(y).ok_or_else(|| integer_overflow(Op::DivI))?;
    // Round towards negative infinity, as APL's ⌊x÷y.
    if x % y != 0 && ((x < 0) != (y < 0)) {
        Ok(quotient - 1)
    } else {
        Ok(quotient)
    }
}

/// APL residue on ints: `x|y` is y when x = 0, otherwise y mod x with the sign of x.
pub fn int_residue(x: i64, y: i64) -> i64 {
    if x == 0 {
        return y;
    }
    let remainder = y.wrapping_rem(x);
    if remainder != 0 && ((remainder < 0) != (x < 0)) {
        remainder + x
    } else {
        remainder
    }
}

fn int_unary(op: Op, x: i64) -> Result<Scalar, AplError> {
    let result = match op {
        Op::NegI => x.checked_neg().ok_or_else(|| integer_overflow(op))?,
        Op::AbsI => x.checked_abs().ok_or_else(|| integer_overflow(op))?,
        Op::NegW => x.wrapping_neg(),
        Op::SignI => x.signum(),
        Op::NotI => !(x as i32) as i64,
        Op::PopCount => i64::from((x as u32).count_ones()),
        Op::FactorialI => {
            if x < 0 {
                return Err(domain(op, "factorial of a negative int"));
            }
            (1..=x)
                .try_fold(1i64, |product, k| product.checked_mul(k))
                .ok_or_else(|| domain(op, "factorial too large"))?
        }
        Op::I2D => return Ok(Scalar::Double(x as f64)),
        Op::I2B => {
            return match x {
                0 | 1 => Ok(Scalar::Bool(x == 1)),
                _ => Err(domain(op, "a boolean must be 0 or 1")),
            }
        }
        Op::I2C => {
            return u32::try_from(x)
                .ok()
                .and_then(char::from_u32)
                .map(Scalar::Char)
                .ok_or_else(|| domain(op, "not a Unicode code point"))
        }
        _ => return Err(wrong_arguments(op, &[Scalar::Int(x)])),
    };
    Ok(Scalar::Int(result))
}

fn int_binary(op: Op, x: i64, y: i64) -> Result<Scalar, AplError> {
    let result = match op {
        Op::AddI => x.checked_add(y).ok_or_else(|| integer_overflow(op))?,
        Op::SubI => x.checked_sub(y).ok_or_else(|| integer_overflow(op))?,
        Op::MulI => x.checked_mul(y).ok_or_else(|| integer_overflow(op))?,
        Op::AddW => x.wrapping_add(y),
        Op::SubW => x.wrapping_sub(y),
        Op::MulW => x.wrapping_mul(y),
        Op::DivI => int_floor_division(x, y)?,
        Op::ResI => int_residue(x, y),
        Op::MinI => x.min(y),
        Op::MaxI => x.max(y),
        Op::PowI => {
            let exponent = u32::try_from(y).map_err(|_| domain(op, "negative or huge exponent"))?;
            x.checked_pow(exponent).ok_or_else(|| integer_overflow(op))?
        }
        // The bitwise ops are ⎕INT32AND ... on 32-bit two's complement, as in apltail; results are sign-extended.
        Op::AndI => ((x as i32) & (y as i32)) as i64,
        Op::OrI => ((x as i32) | (y as i32)) as i64,
        Op::XorI => ((x as i32) ^ (y as i32)) as i64,
        Op::ShlI | Op::ShrI | Op::SharI => {
            if y < 0 {
                return Err(domain(op, "negative shift"));
            }
            match op {
                Op::ShlI if y < 32 => ((x as i32) << y) as i64,
                Op::ShrI if y < 32 => (((x as i32 as u32) >> y) as i32) as i64,
                Op::SharI => ((x as i32) >> y.min(31)) as i64,
                _ => 0,
            }
        }
        Op::BinomialI => {
            if x < 0 || y < 0 {
                return Err(domain(op, "negative arguments (use binomd)"));
            }
            if x > y {
                0
            } else {
                let k = x.min(y - x) as u128;
                let mut result: u128 = 1;
                for i in 0..k {
                    result = result * (y as u128 - i) / (i + 1);
                    if result > i64::MAX as u128 {
                        return Err(domain(op, "result too large"));
                    }
                }
                result as i64
            }
        }
        Op::LtI => return Ok(Scalar::Bool(x < y)),
        Op::LteI => return Ok(Scalar::Bool(x <= y)),
        Op::GtI => return Ok(Scalar::Bool(x > y)),
        Op::GteI => return Ok(Scalar::Bool(x >= y)),
        Op::EqI => return Ok(Scalar::Bool(x == y)),
        Op::NeqI => return Ok(Scalar::Bool(x != y)),
        _ => return Err(wrong_arguments(op, &[Scalar::Int(x), Scalar::Int(y)])),
    };
    Ok(Scalar::Int(result))
}

/// A double result, or (in Dyalog's mode) DOMAIN ERROR when it is NaN or infinite from finite arguments.
fn checked_double(mode: FloatMode, op: Op, result: f64, args: &[f64]) -> Result<Scalar, AplError> {
    if mode.checks_finite_results() && !result.is_finite() && args.iter().all(|x| x.is_finite()) {
        Err(domain(op, NOT_A_FINITE_REAL_NUMBER))
    } else {
        Ok(Scalar::Double(result))
    }
}

/// The message of the DOMAIN ERROR of a double result that is NaN or infinite (the same words on every backend).
pub const NOT_A_FINITE_REAL_NUMBER: &str = "result is not a finite real number";

fn double_to_int(op: Op, x: f64) -> Result<Scalar, AplError> {
    if x.is_finite() && x >= i64::MIN as f64 && x < i64::MAX as f64 {
        Ok(Scalar::Int(x as i64))
    } else {
        Err(domain(op, "value out of the int range"))
    }
}

/// Γ(x) by the Lanczos approximation (g = 7, 9 terms), with the reflection formula for x < 0.5.
pub fn gamma(x: f64) -> f64 {
    const COEFFICIENTS: [f64; 9] = [
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
    if x < 0.5 {
        std::f64::consts::PI / ((std::f64::consts::PI * x).sin() * gamma(1.0 - x))
    } else {
        let x = x - 1.0;
        let mut sum = COEFFICIENTS[0];
        for (k, coefficient) in COEFFICIENTS.iter().enumerate().skip(1) {
            sum += coefficient / (x + k as f64);
        }
        let t = x + 7.5;
        (2.0 * std::f64::consts::PI).sqrt() * t.powf(x + 0.5) * (-t).exp() * sum
    }
}

fn factorial_double(mode: FloatMode, op: Op, x: f64) -> Result<Scalar, AplError> {
    if x < 0.0 && x == x.floor() {
        return Err(domain(op, "factorial of a negative integer"));
    }
    if x == x.floor() && (0.0..=170.0).contains(&x) {
        // Exact for integers as far as doubles go.
        return Ok(Scalar::Double(
            (1..=x as u64).fold(1.0, |product, k| product * k as f64),
        ));
    }
    checked_double(mode, op, gamma(x + 1.0), &[x])
}

fn double_unary(mode: FloatMode, op: Op, x: f64) -> Result<Scalar, AplError> {
    let result = match op {
        Op::NegD => -x,
        Op::AbsD => x.abs(),
        Op::SignD => {
            if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                0.0
            }
        }
        Op::ExpD => x.exp(),
        Op::Ln => {
            if x <= 0.0 && mode.checks_finite_results() {
                return Err(domain(op, "logarithm of zero or a negative number"));
            }
            x.ln()
        }
        Op::Sin => x.sin(),
        Op::Cos => x.cos(),
        Op::Tan => x.tan(),
        Op::Asin => x.asin(),
        Op::Acos => x.acos(),
        Op::Atan => x.atan(),
        Op::Sinh => x.sinh(),
        Op::Cosh => x.cosh(),
        Op::Tanh => x.tanh(),
        Op::Asinh => x.asinh(),
        Op::Acosh => x.acosh(),
        Op::Atanh => x.atanh(),
        Op::Sqrt => x.sqrt(),
        Op::Gamma => return factorial_double(mode, op, x),
        Op::Floor => return double_to_int(op, tolerant_floor(x)),
        Op::Ceil => return double_to_int(op, -tolerant_floor(-x)),
        Op::D2X => return Ok(Scalar::Complex(x, 0.0)),
        Op::D2I => {
            let nearest = x.round();
            if !tolerantly_equal(x, nearest) {
                return Err(domain(op, "not an integer"));
            }
            return double_to_int(op, nearest);
        }
        _ => return Err(wrong_arguments(op, &[Scalar::Double(x)])),
    };
    checked_double(mode, op, result, &[x])
}

/// APL's default comparison tolerance `⎕CT`.
pub const COMPARISON_TOLERANCE: f64 = 1e-14;

/// `x = y` in APL: equal within ⎕CT relative to the larger magnitude (exactly equal when either is 0, or infinite in
/// the IEEE float mode: the distance from a finite number to ∞ is not within ⎕CT × ∞).
pub fn tolerantly_equal(x: f64, y: f64) -> bool {
    let distance = (x - y).abs();
    x == y || (distance <= COMPARISON_TOLERANCE * x.abs().max(y.abs()) && distance.is_finite())
}

/// APL's tolerant floor: the nearest integer when x is tolerantly equal to it, the floor otherwise.
pub fn tolerant_floor(x: f64) -> f64 {
    let nearest = x.round();
    if tolerantly_equal(x, nearest) {
        nearest
    } else {
        x.floor()
    }
}

/// APL division: `0÷0` is 1 and `x÷0` for other x is a DOMAIN ERROR.
pub fn apl_divide(x: f64, y: f64) -> Option<f64> {
    if y == 0.0 {
        (x == 0.0).then_some(1.0)
    } else {
        Some(x / y)
    }
}

fn double_binary(mode: FloatMode, op: Op, x: f64, y: f64) -> Result<Scalar, AplError> {
    let result = match op {
        Op::AddD => x + y,
        Op::SubD => x - y,
        Op::MulD => x * y,
        Op::DivD => match apl_divide(x, y) {
            Some(quotient) => quotient,
            None if mode.checks_finite_results() => return Err(domain(op, "division by zero")),
            None => x / y,
        },
        Op::ResD => {
            // Tolerant, as APL's |: when y÷x is tolerantly an integer the residue is 0.
            if x == 0.0 {
                y
            } else if tolerantly_equal(y / x, (y / x).round()) {
                0.0
            } else {
                y - x * (y / x).floor()
            }
        }
        Op::MinD => x.min(y),
        Op::MaxD => x.max(y),
        Op::PowD => x.powf(y),
        Op::BinomialD => {
            let numerator = factorial_double(mode, op, y)?;
            let left = factorial_double(mode, op, x)?;
            let rest = factorial_double(mode, op, y - x);
            match (numerator, left, rest) {
                (Scalar::Double(n), Scalar::Double(l), Ok(Scalar::Double(r))) => n / (l * r),
                // (y-x)! at a negative integer is infinite: the binomial is 0 (as for x > y ≥ 0 on integers).
                _ => 0.0,
            }
        }
        Op::LogD => y.ln() / x.ln(),
        Op::MakeX => return Ok(Scalar::Complex(x, y)),
        Op::LtD => return Ok(Scalar::Bool(x < y && !tolerantly_equal(x, y))),
        Op::LteD => return Ok(Scalar::Bool(x < y || tolerantly_equal(x, y))),
        Op::GtD => return Ok(Scalar::Bool(x > y && !tolerantly_equal(x, y))),
        Op::GteD => return Ok(Scalar::Bool(x > y || tolerantly_equal(x, y))),
        Op::EqD => return Ok(Scalar::Bool(tolerantly_equal(x, y))),
        Op::NeqD => return Ok(Scalar::Bool(!tolerantly_equal(x, y))),
        _ => return Err(wrong_arguments(op, &[Scalar::Double(x), Scalar::Double(y)])),
    };
    checked_double(mode, op, result, &[x, y])
}

fn bool_binary(op: Op, x: bool, y: bool) -> Result<Scalar, AplError> {
    let result = match op {
        Op::AndB => x && y,
        Op::OrB => x || y,
        Op::XorB => x != y,
        Op::NandB => !(x && y),
        Op::NorB => !(x || y),
        Op::EqB => x == y,
        _ => return Err(wrong_arguments(op, &[Scalar::Bool(x), Scalar::Bool(y)])),
    };
    Ok(Scalar::Bool(result))
}

fn char_binary(op: Op, x: char, y: char) -> Result<Scalar, AplError> {
    let result = match op {
        Op::LtC => x < y,
        Op::LteC => x <= y,
        Op::GtC => x > y,
        Op::GteC => x >= y,
        Op::EqC => x == y,
        Op::NeqC => x != y,
        _ => return Err(wrong_arguments(op, &[Scalar::Char(x), Scalar::Char(y)])),
    };
    Ok(Scalar::Bool(result))
}

fn complex_unary(op: Op, re: f64, im: f64) -> Result<Scalar, AplError> {
    let (r, i) = match op {
        Op::NegX => (-re, -im),
        Op::ConjX => (re, -im),
        Op::ExpX => {
            let magnitude = re.exp();
            (magnitude * im.cos(), magnitude * im.sin())
        }
        Op::MagnitudeX => return Ok(Scalar::Double(re.hypot(im))),
        Op::RealX => return Ok(Scalar::Double(re)),
        Op::ImagX => return Ok(Scalar::Double(im)),
        _ => return Err(wrong_arguments(op, &[Scalar::Complex(re, im)])),
    };
    Ok(Scalar::Complex(r, i))
}

fn complex_binary(op: Op, (a, b): (f64, f64), (c, d): (f64, f64)) -> Result<Scalar, AplError> {
    let (re, im) = match op {
        Op::AddX => (a + c, b + d),
        Op::SubX => (a - c, b - d),
        Op::MulX => (a * c - b * d, a * d + b * c),
        Op::DivX => {
            let denominator = c * c + d * d;
            if denominator == 0.0 {
                if a == 0.0 && b == 0.0 {
                    (1.0, 0.0)
                } else {
                    return Err(domain(op, "division by zero"));
                }
            } else {
                ((a * c + b * d) / denominator, (b * c - a * d) / denominator)
            }
        }
        Op::EqX => return Ok(Scalar::Bool(a == c && b == d)),
        Op::NeqX => return Ok(Scalar::Bool(a != c || b != d)),
        _ => return Err(wrong_arguments(op, &[Scalar::Complex(a, b), Scalar::Complex(c, d)])),
    };
    Ok(Scalar::Complex(re, im))
}

/// Operators for which a left-to-right inclusive scan equals APL's right-fold definition (they are associative).
pub fn is_associative(op: Op) -> bool {
    matches!(
        op,
        Op::AddI
            | Op::MulI
            | Op::AddW
            | Op::MulW
            | Op::MinI
            | Op::MaxI
            | Op::AndI
            | Op::OrI
            | Op::XorI
            | Op::AddD
            | Op::MulD
            | Op::MinD
            | Op::MaxD
            | Op::AndB
            | Op::OrB
            | Op::XorB
            | Op::EqB
            | Op::AddX
            | Op::MulX
    )
}

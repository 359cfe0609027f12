//! Searching, sorting and number-base operations, as plain loops: indexOf and member (a scan of the searched vector
//! per element), where (count, allocate, fill), gradeUp/gradeDown (a stable insertion sort of the positions: O(n²), a
//! reference lowering rather than a fast one), decode and encode.

use super::lower::{LowerResult, Lowered, Lowerer};
use super::pull::{Arr, Materialised, Pull};
use crate::loops::error::LowerError;
use crate::loops::ir::{Expr, Layout, ScalarType, Stmt};
use crate::runtime::error::AplErrorKind;
use crate::tail::ast::Op;

/// Equality of two elements of a type.
fn equal(ty: ScalarType, a: Expr, b: Expr) -> Expr {
    let op = match ty {
        ScalarType::Int => Op::EqI,
        ScalarType::Double => Op::EqD,
        ScalarType::Bool => Op::EqB,
        ScalarType::Char => Op::EqC,
        ScalarType::Complex => Op::EqX,
    };
    Expr::Prim(op, vec![a, b])
}

/// `a < b` on elements of a type (booleans as ints), exactly.
fn less(ty: ScalarType, a: Expr, b: Expr) -> Expr {
    match ty {
        ScalarType::Int => Expr::Prim(Op::LtI, vec![a, b]),
        // Exact order, as the interpreter's grade (ltd is tolerant): a - b < 0 holds only for a < b, since a
        // tolerant comparison with 0 is exact.
        ScalarType::Double => Expr::Prim(Op::LtD, vec![Expr::Prim(Op::SubD, vec![a, b]), Expr::Double(0.0)]),
        ScalarType::Char => Expr::Prim(Op::LtC, vec![a, b]),
        // Complex numbers have no order: `grade` stops with a DOMAIN ERROR before it compares any.
        ScalarType::Complex => Expr::Bool(false),
        ScalarType::Bool => Expr::Prim(
            Op::LtI,
            vec![Expr::Prim(Op::B2I, vec![a]), Expr::Prim(Op::B2I, vec![b])],
        ),
    }
}

impl Lowerer {
    pub(super) fn lower_search(&mut self, op: Op, next: &mut dyn FnMut() -> Lowered) -> LowerResult<Lowered> {
        match op {
            Op::IndexOf => {
                let within = self.as_array(next())?;
                let arr = self.as_array(next())?;
                self.index_of(within, arr).map(Lowered::Array)
            }
            Op::Member => {
                let arr = self.as_array(next())?;
                let within = self.as_array(next())?;
                self.member(arr, within).map(Lowered::Array)
            }
            Op::Where => {
                let mask = self.as_array(next())?;
                self.where_true(mask).map(Lowered::Array)
            }
            Op::GradeUp | Op::GradeDown => {
                let arr = self.as_array(next())?;
                self.grade(arr, op == Op::GradeDown).map(Lowered::Array)
            }
            Op::Decode => {
                let radix = self.as_array(next())?;
                let digits = self.as_array(next())?;
                self.decode(radix, digits).map(Lowered::Scalar)
            }
            Op::Encode => {
                let radix = self.as_array(next())?;
                let value = self.as_int(next())?;
                self.encode(radix, value).map(Lowered::Array)
            }
            other => Err(LowerError::unsupported(other.name())),
        }
    }

    /// The searched vector as a row-major block (it is read once per element of the other argument).
    fn searched(&mut self, arr: Arr) -> LowerResult<Arr> {
        let arr = self.indexable(arr)?;
        if arr.rank() != 1 {
            return Err(LowerError::ill_typed("the searched argument must be a vector"));
        }
        // Row-major, so that a read is one load expression with no statements (grade reads inside a while condition).
        Ok(match arr {
            Arr::Mat(mat) if mat.layout.is_row_major(&mat.shape) => Arr::Mat(mat),
            other => Arr::Mat(self.materialise(&other)?),
        })
    }

    /// Dyadic ⍳: the 1-based position of the first occurrence, or 1 + the length (scanning from the back, so the last
    /// match found is the first occurrence).
    fn index_of(&mut self, within: Arr, arr: Arr) -> LowerResult<Arr> {
        let within = self.searched(within)?;
        let arr = self.indexable(arr)?;
        let length = within.shape()[0].clone();
        let element = within.element();
        let shape = arr.shape();
        Ok(Arr::Pull(Pull::shaped(
            ScalarType::Int,
            shape,
            move |lowerer, index| {
                let x = lowerer.read_shaped(&arr, index)?;
                let x = lowerer.bind(x, "x");
                let found = lowerer.mutable(Expr::add_int(length.clone(), Expr::Int(1)), "pos");
                lowerer.for_loop(length.clone(), "k", |lowerer, k| {
                    let j = lowerer.bind(Expr::sub_int(Expr::sub_int(length.clone(), Expr::Int(1)), k), "j");
                    let y = lowerer.read_flat(&within, j.clone())?;
                    let value = Expr::select(
                        equal(element, y, x.clone()),
                        Expr::add_int(j, Expr::Int(1)),
                        Expr::var(&found),
                    );
                    lowerer.emit(Stmt::Assign {
                        var: found.clone(),
                        value,
                    });
                    Ok(())
                })?;
                Ok(Expr::var(&found))
            },
        )))
    }

    /// `A∊V`.
    fn member(&mut self, arr: Arr, within: Arr) -> LowerResult<Arr> {
        let within = self.searched(within)?;
        let arr = self.indexable(arr)?;
        let length = within.shape()[0].clone();
        let element = within.element();
        let shape = arr.shape();
        Ok(Arr::Pull(Pull::shaped(
            ScalarType::Bool,
            shape,
            move |lowerer, index| {
                let x = lowerer.read_shaped(&arr, index)?;
                let x = lowerer.bind(x, "x");
                let found = lowerer.mutable(Expr::Bool(false), "found");
                lowerer.for_loop(length.clone(), "k", |lowerer, k| {
                    let y = lowerer.read_flat(&within, k)?;
                    let value = Expr::or(Expr::var(&found), equal(element, y, x.clone()));
                    lowerer.emit(Stmt::Assign {
                        var: found.clone(),
                        value,
                    });
                    Ok(())
                })?;
                Ok(Expr::var(&found))
            },
        )))
    }

    /// `⍸B`: count, allocate, fill.
    fn where_true(&mut self, mask: Arr) -> LowerResult<Arr> {
        let mask = self.searched(mask)?;
        let length = mask.shape()[0].clone();
        let count = self.mutable(Expr::Int(0), "count");
        self.for_loop(length.clone(), "k", |lowerer, k| {
            let b = lowerer.read_flat(&mask, k)?;
            lowerer.emit(Stmt::Assign {
                var: count.clone(),
                value: Expr::add_int(Expr::var(&count), Expr::Prim(Op::B2I, vec![b])),
            });
            Ok(())
        })?;
        let size = self.bind(Expr::var(&count), "n");
        let block = self.fresh_block(ScalarType::Int);
        self.emit(Stmt::Alloc {
            site: self.site,
            block,
            size: size.clone(),
        });
        let write = self.mutable(Expr::Int(0), "w");
        self.for_loop(length, "k", |lowerer, k| {
            let b = lowerer.read_flat(&mask, k.clone())?;
            let then = vec![
                Stmt::Store {
                    block,
                    index: Expr::var(&write),
                    value: Expr::add_int(k, Expr::Int(1)),
                },
                Stmt::Assign {
                    var: write.clone(),
                    value: Expr::add_int(Expr::var(&write), Expr::Int(1)),
                },
            ];
            lowerer.emit_if(b, then, vec![]);
            Ok(())
        })?;
        let shape = vec![size];
        Ok(Arr::Mat(Materialised {
            block,
            layout: Layout::row_major(&shape),
            shape,
        }))
    }

    /// ⍋ / ⍒: a stable insertion sort of the 0-based positions by their keys (a position moves left only past
    /// keys that sort strictly after its own), then made 1-based.
    fn grade(&mut self, arr: Arr, descending: bool) -> LowerResult<Arr> {
        let keys = self.searched(arr)?;
        let element = keys.element();
        if element == ScalarType::Complex {
            self.fail_if(Expr::Bool(true), AplErrorKind::Domain, "grade of complex numbers");
        }
        let length = keys.shape()[0].clone();
        let block = self.fresh_block(ScalarType::Int);
        self.emit(Stmt::Alloc {
            site: self.site,
            block,
            size: length.clone(),
        });
        self.for_loop(length.clone(), "i", |lowerer, i| {
            let key = lowerer.read_flat(&keys, i.clone())?;
            let key = lowerer.bind(key, "key");
            let hole = lowerer.mutable(i.clone(), "h");
            let previous_position = Expr::load(block, Expr::sub_int(Expr::var(&hole), Expr::Int(1)));
            let previous_key = lowerer.read_flat(&keys, previous_position.clone())?;
            let after = if descending {
                less(element, previous_key, key.clone())
            } else {
                less(element, key.clone(), previous_key)
            };
            // The select keeps the load of position h-1 from running when h = 0.
            let condition = Expr::select(Expr::lt(Expr::Int(0), Expr::var(&hole)), after, Expr::Bool(false));
            lowerer.emit(Stmt::While {
                condition,
                body: vec![
                    Stmt::Store {
                        block,
                        index: Expr::var(&hole),
                        value: previous_position,
                    },
                    Stmt::Assign {
                        var: hole.clone(),
                        value: Expr::sub_int(Expr::var(&hole), Expr::Int(1)),
                    },
                ],
            });
            lowerer.emit(Stmt::Store {
                block,
                index: Expr::var(&hole),
                value: i,
            });
            Ok(())
        })?;
        self.for_loop(length.clone(), "i", |lowerer, i| {
            lowerer.emit(Stmt::Store {
                block,
                index: i.clone(),
                value: Expr::add_int(Expr::load(block, i), Expr::Int(1)),
            });
            Ok(())
        })?;
        let shape = vec![length];
        Ok(Arr::Mat(Materialised {
            block,
            layout: Layout::row_major(&shape),
            shape,
        }))
    }

    /// `R⊥D`: Horner's rule; a one-element argument is extended to the other's length, an empty one gives 0.
    fn decode(&mut self, radix: Arr, digits: Arr) -> LowerResult<Expr> {
        let radix = self.searched(radix)?;
        let digits = self.searched(digits)?;
        let radix_length = radix.shape()[0].clone();
        let digit_length = digits.shape()[0].clone();
        let length = self.bind(Expr::max(radix_length.clone(), digit_length.clone()), "n");
        let fits = |extent: &Expr| {
            Expr::or(
                Expr::eq(extent.clone(), Expr::Int(1)),
                Expr::eq(extent.clone(), length.clone()),
            )
        };
        let either_empty = Expr::or(
            Expr::eq(radix_length.clone(), Expr::Int(0)),
            Expr::eq(digit_length.clone(), Expr::Int(0)),
        );
        let wrong = Expr::select(
            either_empty.clone(),
            Expr::Bool(false),
            Expr::not_bool(Expr::Prim(Op::AndB, vec![fits(&radix_length), fits(&digit_length)])),
        );
        self.fail_if(wrong, AplErrorKind::Length, "decode of different lengths");
        let value = self.mutable(Expr::Int(0), "value");
        let count = Expr::select(either_empty, Expr::Int(0), length.clone());
        let count = self.bind(count, "m");
        self.for_loop(count, "k", |lowerer, k| {
            let at = |extent: &Expr| Expr::select(Expr::eq(extent.clone(), Expr::Int(1)), Expr::Int(0), k.clone());
            let r = lowerer.read_flat(&radix, at(&radix_length))?;
            let d = lowerer.read_flat(&digits, at(&digit_length))?;
            lowerer.emit(Stmt::Assign {
                var: value.clone(),
                // APL arithmetic on the program's values: an overflow is a DOMAIN ERROR.
                value: Expr::Prim(Op::AddI, vec![Expr::Prim(Op::MulI, vec![Expr::var(&value), r]), d]),
            });
            Ok(())
        })?;
        Ok(Expr::Var(value))
    }

    /// `R⊤x`: the digits of x, last one first; a 0 radix takes all that remains.
    fn encode(&mut self, radix: Arr, value: Expr) -> LowerResult<Arr> {
        let radix = self.searched(radix)?;
        let length = radix.shape()[0].clone();
        let block = self.fresh_block(ScalarType::Int);
        self.emit(Stmt::Alloc {
            site: self.site,
            block,
            size: length.clone(),
        });
        let rest = self.mutable(value, "rest");
        self.for_loop(length.clone(), "k", |lowerer, k| {
            let j = lowerer.bind(Expr::sub_int(Expr::sub_int(length.clone(), Expr::Int(1)), k), "j");
            let r = lowerer.read_flat(&radix, j.clone())?;
            let r = lowerer.bind(r, "r");
            let whole = vec![
                Stmt::Store {
                    block,
                    index: j.clone(),
                    value: Expr::var(&rest),
                },
                Stmt::Assign {
                    var: rest.clone(),
                    value: Expr::Int(0),
                },
            ];
            let (digit_statements, ()) = lowerer.capture(|lowerer| {
                let digit = lowerer.bind(Expr::modulo(Expr::var(&rest), r.clone()), "digit");
                lowerer.emit(Stmt::Store {
                    block,
                    index: j.clone(),
                    value: digit.clone(),
                });
                // ⌊rest÷r, which is (rest - digit) ÷ r exactly without a difference that could overflow.
                let quotient = Expr::Prim(Op::DivI, vec![Expr::var(&rest), r.clone()]);
                lowerer.emit(Stmt::Assign {
                    var: rest.clone(),
                    value: quotient,
                });
                Ok(())
            })?;
            lowerer.emit_if(Expr::eq(r, Expr::Int(0)), whole, digit_statements);
            Ok(())
        })?;
        let shape = vec![length];
        Ok(Arr::Mat(Materialised {
            block,
            layout: Layout::row_major(&shape),
            shape,
        }))
    }
}

//! Operations that need loops of their own and materialise their result: reduce (a fold per output element), scan,
//! compress / replicate / expand (count, allocate, fill), and power (a loop over a materialised array, double
//! buffered when the shape does not change).

use super::error::LowerError;
use super::ir::{Expr, Layout, ScalarType, Stmt, Var};
use super::lower::{Function, LowerResult, Lowered, Lowerer};
use super::pull::{Arr, Materialised, Pull};
use crate::runtime::error::AplErrorKind;
use crate::tail::ast::Op;
use crate::tail::scalar_ops::is_associative;

/// The start value of a right fold that needs no special case for the last element: an element e with
/// `f(x, e) = x` for every x (bit for bit), when `neutral` is the operator's identity. Doubles start from -0.0 for
/// `+` (since `x + 0.0` turns -0.0 into 0.0); an empty row must then still give `neutral` (see `fold_row`).
fn identity_start(op: Op, neutral: &Expr) -> Option<Expr> {
    let exact = match (op, neutral) {
        (Op::AddI | Op::OrI | Op::XorI, Expr::Int(0)) => true,
        (Op::MulI, Expr::Int(1)) => true,
        (Op::AndI, Expr::Int(-1)) => true,
        (Op::MaxI, Expr::Int(n)) => *n == i64::MIN,
        (Op::MinI, Expr::Int(n)) => *n == i64::MAX,
        (Op::MulD, Expr::Double(x)) => *x == 1.0,
        (Op::AndB | Op::EqB, Expr::Bool(true)) => true,
        (Op::OrB | Op::XorB, Expr::Bool(false)) => true,
        _ => false,
    };
    match (op, neutral) {
        _ if exact => Some(neutral.clone()),
        (Op::AddD, Expr::Double(x)) if *x == 0.0 => Some(Expr::Double(-0.0)),
        _ => None,
    }
}

impl Lowerer {
    /// APL's right fold of one row of length `extent`: `f(a0, f(a1, ... a(m-1)))`, the neutral element for an empty
    /// row. `element(j)` reads element j of the row. Returns the accumulator variable.
    fn fold_row(
        &mut self,
        function: &Function,
        neutral: &Expr,
        extent: &Expr,
        element: &dyn Fn(&mut Lowerer, Expr) -> LowerResult<Expr>,
    ) -> LowerResult<Expr> {
        let start = match function {
            Function::Op(op) => identity_start(*op, neutral),
            Function::Lambda { .. } => None,
        };
        let accumulator = self.mutable(start.clone().unwrap_or_else(|| neutral.clone()), "acc");
        let step = |lowerer: &mut Lowerer, j: Expr| -> LowerResult<()> {
            let x = element(lowerer, j)?;
            let x = lowerer.bind(x, "x");
            let value = lowerer.apply_scalar(function, &[x, Expr::var(&accumulator)])?;
            lowerer.emit(Stmt::Assign {
                var: accumulator.clone(),
                value,
            });
            Ok(())
        };
        if let Some(start) = start {
            // One loop from the end, starting from the identity.
            self.for_loop(extent.clone(), "k", |lowerer, k| {
                let j = lowerer.bind(Expr::sub_int(Expr::sub_int(extent.clone(), Expr::Int(1)), k), "j");
                step(lowerer, j)
            })?;
            // Compared bit for bit: -0.0 == 0.0 as numbers, but an empty row must give exactly `neutral`.
            let same_start = match (&start, neutral) {
                (Expr::Double(a), Expr::Double(b)) => a.to_bits() == b.to_bits(),
                (a, b) => a == b,
            };
            if !same_start && extent.as_int().is_none_or(|n| n == 0) {
                let empty = Expr::eq(extent.clone(), Expr::Int(0));
                let value = Expr::select(empty, neutral.clone(), Expr::var(&accumulator));
                self.emit(Stmt::Assign {
                    var: accumulator.clone(),
                    value,
                });
            }
        } else {
            let (statements, ()) = self.capture(|lowerer| {
                let last = lowerer.bind(Expr::sub_int(extent.clone(), Expr::Int(1)), "last");
                let x = element(lowerer, last.clone())?;
                lowerer.emit(Stmt::Assign {
                    var: accumulator.clone(),
                    value: x,
                });
                lowerer.for_loop(last.clone(), "k", |lowerer, k| {
                    let j = lowerer.bind(Expr::sub_int(Expr::sub_int(last.clone(), Expr::Int(1)), k), "j");
                    step(lowerer, j)
                })
            })?;
            self.emit_if(Expr::lt(Expr::Int(0), extent.clone()), statements, vec![]);
        }
        Ok(Expr::Var(accumulator))
    }

    /// `reduce(f, neutral, A)` along the last axis: a scalar loop for a vector, a materialised result otherwise.
    pub(super) fn reduce(&mut self, function: Function, neutral: Expr, arr: Arr) -> LowerResult<Lowered> {
        let arr = self.indexable(arr)?;
        if arr.rank() == 0 {
            return Ok(Lowered::Array(arr));
        }
        let neutral = self.bind(neutral, "neutral");
        let shape = arr.shape();
        let extent = shape[shape.len() - 1].clone();
        let outer = shape[..shape.len() - 1].to_vec();
        if outer.is_empty() {
            let result = self.fold_row(&function, &neutral, &extent, &|lowerer, j| lowerer.read_flat(&arr, j))?;
            return Ok(Lowered::Scalar(result));
        }
        let rows = self.size_of(&outer);
        let block = self.fresh_block(neutral.ty());
        self.emit(Stmt::Alloc {
            block,
            size: rows.clone(),
        });
        if arr.prefers_flat() {
            self.for_loop(rows, "r", |lowerer, r| {
                let start = lowerer.bind(Expr::mul_int(r.clone(), extent.clone()), "start");
                let result = lowerer.fold_row(&function, &neutral, &extent, &|lowerer, j| {
                    lowerer.read_flat(&arr, Expr::add_int(start.clone(), j))
                })?;
                lowerer.emit(Stmt::Store {
                    block,
                    index: r,
                    value: result,
                });
                Ok(())
            })?;
        } else {
            self.nested_loops(&outer, &mut |lowerer, index, position| {
                let result = lowerer.fold_row(&function, &neutral, &extent, &|lowerer, j| {
                    let mut full = index.to_vec();
                    full.push(j);
                    lowerer.read_shaped(&arr, &full)
                })?;
                lowerer.emit(Stmt::Store {
                    block,
                    index: position,
                    value: result,
                });
                Ok(())
            })?;
        }
        Ok(Lowered::Array(Arr::Mat(Materialised {
            block,
            layout: Layout::row_major(&outer),
            shape: outer,
        })))
    }

    /// `scan(f, A)` along the last axis, inclusive, with APL's definition (element k is the right fold of the first
    /// k+1 elements): a running accumulator for associative operators, a fold per prefix otherwise.
    pub(super) fn scan(&mut self, function: Function, arr: Arr) -> LowerResult<Arr> {
        let arr = self.indexable(arr)?;
        if arr.rank() == 0 {
            return Ok(arr);
        }
        let source = Arr::Mat(match arr {
            Arr::Mat(mat) => mat,
            other => self.materialise(&other)?,
        });
        let shape = source.shape();
        let extent = shape[shape.len() - 1].clone();
        let size = self.size_of(&shape);
        let rows = self.size_of(&shape[..shape.len() - 1]);
        let element = source.element();
        let block = self.fresh_block(element);
        self.emit(Stmt::Alloc {
            block,
            size: size.clone(),
        });
        let associative = matches!(function, Function::Op(op) if is_associative(op));
        self.for_loop(rows, "r", |lowerer, r| {
            let start = lowerer.bind(Expr::mul_int(r, extent.clone()), "start");
            let read = |lowerer: &mut Lowerer, j: Expr| -> LowerResult<Expr> {
                let value = lowerer.read_flat(&source, Expr::add_int(start.clone(), j))?;
                Ok(lowerer.bind(value, "x"))
            };
            if associative {
                let (statements, ()) = lowerer.capture(|lowerer| {
                    let first = read(lowerer, Expr::Int(0))?;
                    let accumulator = lowerer.mutable(first, "acc");
                    lowerer.emit(Stmt::Store {
                        block,
                        index: start.clone(),
                        value: Expr::var(&accumulator),
                    });
                    let rest = lowerer.bind(Expr::sub_int(extent.clone(), Expr::Int(1)), "m");
                    lowerer.for_loop(rest, "k", |lowerer, k| {
                        let j = lowerer.bind(Expr::add_int(k, Expr::Int(1)), "j");
                        let x = read(lowerer, j.clone())?;
                        let value = lowerer.apply_scalar(&function, &[Expr::var(&accumulator), x])?;
                        lowerer.emit(Stmt::Assign {
                            var: accumulator.clone(),
                            value,
                        });
                        lowerer.emit(Stmt::Store {
                            block,
                            index: Expr::add_int(start.clone(), j),
                            value: Expr::var(&accumulator),
                        });
                        Ok(())
                    })
                })?;
                lowerer.emit_if(Expr::lt(Expr::Int(0), extent.clone()), statements, vec![]);
                Ok(())
            } else {
                lowerer.for_loop(extent.clone(), "e", |lowerer, end| {
                    let accumulator = {
                        let last = read(lowerer, end.clone())?;
                        lowerer.mutable(last, "acc")
                    };
                    lowerer.for_loop(end.clone(), "k", |lowerer, k| {
                        let j = lowerer.bind(Expr::sub_int(Expr::sub_int(end.clone(), Expr::Int(1)), k), "j");
                        let x = read(lowerer, j)?;
                        let value = lowerer.apply_scalar(&function, &[x, Expr::var(&accumulator)])?;
                        lowerer.emit(Stmt::Assign {
                            var: accumulator.clone(),
                            value,
                        });
                        Ok(())
                    })?;
                    lowerer.emit(Stmt::Store {
                        block,
                        index: Expr::add_int(start.clone(), end),
                        value: Expr::var(&accumulator),
                    });
                    Ok(())
                })
            }
        })?;
        Ok(Arr::Mat(Materialised {
            block,
            layout: Layout::row_major(&shape),
            shape,
        }))
    }

    /// compress (bool mask), replicate (int counts; negative counts give fill elements) and expand (a fill element
    /// where the mask is ff), all along the last axis. The left vector may have one element, extended to the axis.
    pub(super) fn compress_like(&mut self, op: Op, counts: Arr, arr: Arr) -> LowerResult<Arr> {
        let counts = self.indexable(counts)?;
        if counts.rank() != 1 {
            return Err(LowerError::ill_typed(format!(
                "{}'s left argument must be a vector",
                op.name()
            )));
        }
        let arr = self.indexable(arr)?;
        let arr = match arr.rank() {
            0 => Arr::Pull({
                let element = arr.element();
                Pull::shaped(element, vec![Expr::Int(1)], move |lowerer, _| {
                    lowerer.read_shaped(&arr, &[])
                })
            }),
            _ => arr,
        };
        let shape = arr.shape();
        let extent = shape[shape.len() - 1].clone();
        let length = counts.shape()[0].clone();
        // The count of column c (the single element extended, for compress and replicate).
        let count_of = |lowerer: &mut Lowerer, column: Expr| -> LowerResult<Expr> {
            let position = if op == Op::Expand {
                column
            } else {
                Expr::select(Expr::eq(length.clone(), Expr::Int(1)), Expr::Int(0), column)
            };
            let value = lowerer.read_flat(&counts, position)?;
            let value = match value.ty() {
                ScalarType::Bool => Expr::Prim(Op::B2I, vec![value]),
                _ => value,
            };
            Ok(lowerer.bind(value, "c"))
        };
        let columns = if op == Op::Expand {
            length.clone()
        } else {
            extent.clone()
        };
        if op == Op::Expand {
            // The number of tt in the mask must equal the last extent.
            let ones = self.mutable(Expr::Int(0), "ones");
            self.for_loop(length.clone(), "c", |lowerer, c| {
                let count = count_of(lowerer, c)?;
                lowerer.emit(Stmt::Assign {
                    var: ones.clone(),
                    value: Expr::add_int(Expr::var(&ones), count),
                });
                Ok(())
            })?;
            let differ = Expr::not_bool(Expr::eq(Expr::var(&ones), extent.clone()));
            self.fail_if(differ, AplErrorKind::Length, "expand: mask and argument lengths differ");
        } else {
            let wrong = Expr::not_bool(Expr::or(
                Expr::eq(length.clone(), Expr::Int(1)),
                Expr::eq(length.clone(), extent.clone()),
            ));
            self.fail_if(wrong, AplErrorKind::Length, &format!("{}: lengths differ", op.name()));
        }
        // The result's last extent: the sum of |count| over the columns.
        let total = self.mutable(Expr::Int(0), "total");
        let total_columns = if op == Op::Expand {
            length.clone()
        } else {
            columns.clone()
        };
        self.for_loop(total_columns, "c", |lowerer, c| {
            let count = count_of(lowerer, c)?;
            let width = if op == Op::Expand {
                Expr::Int(1)
            } else {
                Expr::Prim(Op::AbsI, vec![count])
            };
            lowerer.emit(Stmt::Assign {
                var: total.clone(),
                value: Expr::add_int(Expr::var(&total), width),
            });
            Ok(())
        })?;
        let new_extent = self.bind(Expr::var(&total), "n");
        let mut new_shape = shape.clone();
        let last = new_shape.len() - 1;
        new_shape[last] = new_extent.clone();
        let rows = self.size_of(&shape[..last]);
        let size = self.size_of(&new_shape);
        let element = arr.element();
        let block = self.fresh_block(element);
        self.emit(Stmt::Alloc { block, size });
        let write = self.mutable(Expr::Int(0), "w");
        let store = |lowerer: &mut Lowerer, value: Expr| {
            lowerer.emit(Stmt::Store {
                block,
                index: Expr::var(&write),
                value,
            });
            lowerer.emit(Stmt::Assign {
                var: write.clone(),
                value: Expr::add_int(Expr::var(&write), Expr::Int(1)),
            });
        };
        self.for_loop(rows, "r", |lowerer, r| {
            let start = lowerer.bind(Expr::mul_int(r, extent.clone()), "start");
            if op == Op::Expand {
                let next = lowerer.mutable(Expr::Int(0), "next");
                return lowerer.for_loop(length.clone(), "c", |lowerer, c| {
                    let count = count_of(lowerer, c)?;
                    let (then, ()) = lowerer.capture(|lowerer| {
                        let value = lowerer.read_flat(&arr, Expr::add_int(start.clone(), Expr::var(&next)))?;
                        store(lowerer, value);
                        lowerer.emit(Stmt::Assign {
                            var: next.clone(),
                            value: Expr::add_int(Expr::var(&next), Expr::Int(1)),
                        });
                        Ok(())
                    })?;
                    let (otherwise, ()) = lowerer.capture(|lowerer| {
                        store(lowerer, element.fill());
                        Ok(())
                    })?;
                    lowerer.emit(Stmt::If {
                        condition: Expr::eq(count, Expr::Int(1)),
                        then,
                        otherwise,
                    });
                    Ok(())
                });
            }
            lowerer.for_loop(extent.clone(), "c", |lowerer, c| {
                let count = count_of(lowerer, c.clone())?;
                // The element is read (once) only when the count is positive.
                let copies = lowerer.bind(Expr::Prim(Op::AbsI, vec![count.clone()]), "copies");
                let (body, ()) = lowerer.capture(|lowerer| {
                    let (read, x) =
                        lowerer.capture(|lowerer| lowerer.read_flat(&arr, Expr::add_int(start.clone(), c)))?;
                    let (then, ()) = lowerer.capture(|lowerer| {
                        for statement in read {
                            lowerer.emit(statement);
                        }
                        let x = lowerer.bind(x, "x");
                        lowerer.for_loop(copies.clone(), "t", |lowerer, _| {
                            store(lowerer, x.clone());
                            Ok(())
                        })
                    })?;
                    let (otherwise, ()) = lowerer.capture(|lowerer| {
                        lowerer.for_loop(copies.clone(), "t", |lowerer, _| {
                            store(lowerer, element.fill());
                            Ok(())
                        })
                    })?;
                    lowerer.emit(Stmt::If {
                        condition: Expr::lt(Expr::Int(0), count.clone()),
                        then,
                        otherwise,
                    });
                    Ok(())
                })?;
                for statement in body {
                    lowerer.emit(statement);
                }
                Ok(())
            })
        })?;
        Ok(Arr::Mat(Materialised {
            block,
            layout: Layout::row_major(&new_shape),
            shape: new_shape,
        }))
    }

    /// `power(f, n, x)`: n applications of f. Scalars use a mutable variable. Arrays are materialised before the loop;
    /// when the body keeps the shape (the same shape expressions), two blocks allocated once before the loop are
    /// swapped after each iteration (double buffering); otherwise each iteration allocates the new array and frees
    /// the old one.
    pub(super) fn power(&mut self, function: Function, count: Expr, value: Lowered) -> LowerResult<Lowered> {
        let count = self.bind(count, "times");
        match value {
            Lowered::Scalar(initial) => {
                let current = self.mutable(initial, "x");
                self.for_loop(count, "it", |lowerer, _| {
                    let next = lowerer.apply_scalar(&function, &[Expr::var(&current)])?;
                    lowerer.emit(Stmt::Assign {
                        var: current.clone(),
                        value: next,
                    });
                    Ok(())
                })?;
                Ok(Lowered::Scalar(Expr::Var(current)))
            }
            Lowered::Array(arr) => self.power_array(function, count, arr),
            _ => Err(LowerError::unsupported("power on tuples or functions")),
        }
    }

    /// `powerUntil(f, p, x)` on scalars: `y ← f x` until `p(y, x)`, then y.
    pub(super) fn power_until(&mut self, function: Function, predicate: Function, initial: Expr) -> LowerResult<Expr> {
        let current = self.mutable(initial, "x");
        let done = self.mutable(Expr::Bool(false), "done");
        let (body, ()) = self.capture(|lowerer| {
            let next = lowerer.apply_scalar(&function, &[Expr::var(&current)])?;
            let next = lowerer.bind(next, "y");
            let stop = lowerer.apply(
                &predicate,
                vec![Lowered::Scalar(next.clone()), Lowered::Scalar(Expr::var(&current))],
            )?;
            let stop = lowerer.as_scalar(stop)?;
            let stop = lowerer.bind(stop, "stop");
            lowerer.emit(Stmt::Assign {
                var: current.clone(),
                value: next,
            });
            lowerer.emit(Stmt::Assign {
                var: done.clone(),
                value: stop,
            });
            Ok(())
        })?;
        self.emit(Stmt::While {
            condition: Expr::not_bool(Expr::var(&done)),
            body,
        });
        Ok(Expr::Var(current))
    }

    fn power_array(&mut self, function: Function, count: Expr, arr: Arr) -> LowerResult<Lowered> {
        let initial = self.materialise(&arr)?;
        let element = arr.element();
        // Shape variables of the current array (mutable in case the body changes the shape).
        let shape_vars: Vec<Var> = initial
            .shape
            .iter()
            .map(|_| self.fresh_var(ScalarType::Int, "s"))
            .collect();
        let shape: Vec<Expr> = shape_vars.iter().map(Expr::var).collect();
        let current = Materialised {
            block: initial.block,
            layout: Layout::row_major(&shape),
            shape: shape.clone(),
        };
        let iteration = self.fresh_var(ScalarType::Int, "it");
        let (body, result) = self.capture(|lowerer| {
            let result = lowerer.apply(&function, vec![Lowered::Array(Arr::Mat(current.clone()))])?;
            match result {
                Lowered::Array(result) => lowerer.indexable(result),
                Lowered::Scalar(value) => Ok(Arr::Pull(Pull::scalar(value))),
                _ => Err(LowerError::ill_typed("power's function must return an array")),
            }
        })?;
        let fixed_shape = result.shape() == shape;
        for (var, extent) in shape_vars.iter().zip(&initial.shape) {
            let value = extent.clone();
            self.emit(if fixed_shape {
                Stmt::Let {
                    var: var.clone(),
                    value,
                }
            } else {
                Stmt::Mutable {
                    var: var.clone(),
                    value,
                }
            });
        }
        let mut loop_body = body;
        if fixed_shape {
            let size = self.size_of(&shape);
            let next = self.fresh_block(element);
            self.emit(Stmt::Alloc {
                block: next,
                size: size.clone(),
            });
            let (fill, ()) = self.capture(|lowerer| {
                lowerer.fill_block(&result, next, &size)?;
                lowerer.emit(Stmt::Swap {
                    first: current.block,
                    second: next,
                });
                Ok(())
            })?;
            loop_body.extend(fill);
        } else {
            let (fill, ()) = self.capture(|lowerer| {
                let new_shape: Vec<Expr> = result
                    .shape()
                    .into_iter()
                    .map(|extent| {
                        // A fresh variable even for a variable extent: the assignments below must not clobber it.
                        let var = lowerer.fresh_var(ScalarType::Int, "n");
                        lowerer.emit(Stmt::Let {
                            var: var.clone(),
                            value: extent,
                        });
                        Expr::Var(var)
                    })
                    .collect();
                let size = lowerer.size_of(&new_shape);
                let next = lowerer.fresh_block(element);
                lowerer.emit(Stmt::Alloc {
                    block: next,
                    size: size.clone(),
                });
                lowerer.fill_block(&result, next, &size)?;
                lowerer.emit(Stmt::Swap {
                    first: current.block,
                    second: next,
                });
                for (var, extent) in shape_vars.iter().zip(new_shape) {
                    lowerer.emit(Stmt::Assign {
                        var: var.clone(),
                        value: extent,
                    });
                }
                Ok(())
            })?;
            loop_body.extend(fill);
        }
        self.emit(Stmt::For {
            index: iteration,
            count,
            body: loop_body,
        });
        Ok(Lowered::Array(Arr::Mat(current)))
    }
}

//! Operations that need loops of their own and materialise their result: reduce (a fold per output element),
//! compress / replicate / expand (count, allocate, fill), and power (a loop over a materialised array, double
//! buffered when the shape does not change).

use super::lower::{Function, LowerResult, Lowered, Lowerer};
use super::pull::{Arr, Materialised, Pull};
use crate::loops::error::LowerError;
use crate::loops::ir::{Expr, Layout, Reduction, ScalarType, Stmt, Var};
use crate::runtime::error::AplErrorKind;
use crate::tail::ast::Op;

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

/// Operators whose reduction may run in any order (and in parallel, see `ir::Stmt::ParallelReduce`): associative and
/// commutative on ints and booleans exactly, and `+`/`×` on doubles, which APL lets associate (the issue's one
/// licence for reassociation; codegen marks those steps `reassoc` anyway). `-`, `÷` and double `⌈`/`⌊` keep the
/// right fold's order. Int `+` is here because its reduction is the exact sum (`Op::AddI`), which every backend
/// computes whatever the order; int `×` is not: its steps are checked for overflow one by one, and which step
/// overflows first (or whether a later 0 comes first) depends on the order, so it keeps the right fold's.
pub(super) fn folds_in_any_order(op: Op) -> bool {
    crate::loops::ir::chunked_reduction_start(op).is_some()
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
            // One loop starting from the identity: from the end (APL's right fold), or from the front when the
            // order cannot change the result, so that the loop reads memory forwards and vectorises without shuffles.
            let forwards = matches!(function, Function::Op(op) if folds_in_any_order(*op));
            self.for_loop(extent.clone(), "k", |lowerer, k| {
                if forwards {
                    return step(lowerer, k);
                }
                let j = lowerer.bind(Expr::sub_int(Expr::sub_int(extent.clone(), Expr::Int(1)), k), "j");
                step(lowerer, j)
            })?;
            // Compared bit for bit: -0.0 == 0.0 as numbers, but an empty row must give exactly `neutral`.
            let same_start = start.same_bits(neutral);
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

    /// A vector's reduction as a parallel reduction, when the operator may fold in any order from an exact identity
    /// and computing an element has no effect a parallel body may not have (random numbers, prints, cursors of
    /// memoised reads); `None` otherwise, with nothing emitted.
    fn parallel_fold(
        &mut self,
        function: &Function,
        neutral: &Expr,
        extent: &Expr,
        element: &dyn Fn(&mut Lowerer, Expr) -> LowerResult<Expr>,
    ) -> LowerResult<Option<Expr>> {
        let Function::Op(op) = function else {
            return Ok(None);
        };
        let (true, Some(start)) = (folds_in_any_order(*op), identity_start(*op, neutral)) else {
            return Ok(None);
        };
        let probe = self.probe_state();
        let index = self.fresh_var(ScalarType::Int, "k");
        self.element_loops += 1;
        let captured = self.capture(|lowerer| {
            let x = element(lowerer, Expr::var(&index))?;
            Ok(lowerer.bind(x, "x"))
        });
        self.element_loops -= 1;
        let (body, x) = captured?;
        if !crate::loops::passes::parallelise::may_be_parallel_body(&body, &x) {
            self.restore_probe_state(probe);
            return Ok(None);
        }
        let result = self.fresh_var(start.ty(), "acc");
        let same_start = start.same_bits(neutral);
        self.emit(Stmt::ParallelReduce {
            result: result.clone(),
            reduction: Reduction {
                op: *op,
                neutral: start,
                commutative: true,
            },
            index,
            count: extent.clone(),
            body,
            element: x,
            site: self.site,
        });
        // As in `fold_row`: the -0.0 start of a double sum must still give exactly `neutral` for an empty vector.
        if !same_start && extent.as_int().is_none_or(|n| n == 0) {
            let empty = Expr::eq(extent.clone(), Expr::Int(0));
            return Ok(Some(
                self.bind(Expr::select(empty, neutral.clone(), Expr::var(&result)), "acc"),
            ));
        }
        Ok(Some(Expr::var(&result)))
    }

    /// One row of a reduction of rank 2 or more. An int `+` row is a (nested) parallel reduction, whose value is the
    /// exact sum (`Op::AddI`): a sequential fold would check each partial sum for overflow. Other rows fold
    /// sequentially (a parallel construct inside the loop over the rows would run sequentially anyway).
    fn fold_row_of_reduce(
        &mut self,
        function: &Function,
        neutral: &Expr,
        extent: &Expr,
        element: &dyn Fn(&mut Lowerer, Expr) -> LowerResult<Expr>,
    ) -> LowerResult<Expr> {
        if matches!(function, Function::Op(Op::AddI)) {
            if let Some(result) = self.parallel_fold(function, neutral, extent, element)? {
                return Ok(result);
            }
        }
        self.fold_row(function, neutral, extent, element)
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
            let element = |lowerer: &mut Lowerer, j: Expr| lowerer.read_flat(&arr, j);
            if let Some(result) = self.parallel_fold(&function, &neutral, &extent, &element)? {
                return Ok(Lowered::Scalar(result));
            }
            let result = self.fold_row(&function, &neutral, &extent, &element)?;
            return Ok(Lowered::Scalar(result));
        }
        let rows = self.size_of(&outer);
        let block = self.fresh_block(neutral.ty());
        self.emit(Stmt::Alloc {
            site: self.site,
            block,
            size: rows.clone(),
        });
        if arr.prefers_flat() {
            self.for_loop(rows, "r", |lowerer, r| {
                let start = lowerer.bind(Expr::mul_int(r.clone(), extent.clone()), "start");
                let result = lowerer.fold_row_of_reduce(&function, &neutral, &extent, &|lowerer, j| {
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
                let result = lowerer.fold_row_of_reduce(&function, &neutral, &extent, &|lowerer, j| {
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

    /// compress (bool mask), replicate (int counts; negative counts give fill elements) and expand (a fill element
    /// where the mask is ff), all along the last axis: check the lengths, count the result's last extent, allocate,
    /// and fill row by row with a running write position. For compress and replicate the left vector may have one
    /// element, extended to the axis.
    pub(super) fn compress_like(&mut self, op: Op, counts: Arr, arr: Arr) -> LowerResult<Arr> {
        let counts = self.indexable(counts)?;
        if counts.rank() != 1 {
            let message = format!("{}'s left argument must be a vector", op.name());
            return Err(LowerError::ill_typed(message));
        }
        // The counts are read once per row and once more for the total: compute them once.
        let counts = match counts {
            Arr::Pull(ref pull) if !pull.cheap => Arr::Mat(self.materialise(&counts)?),
            other => other,
        };
        let arr = self.indexable(arr)?;
        let arr = if arr.rank() == 0 {
            let element = arr.element();
            Arr::Pull(Pull::shaped(element, vec![Expr::Int(1)], move |lowerer, _| {
                lowerer.read_shaped(&arr, &[])
            }))
        } else {
            arr
        };
        let shape = arr.shape();
        let last = shape.len() - 1;
        let columns = Columns {
            op,
            extent: shape[last].clone(),
            length: counts.shape()[0].clone(),
            counts,
        };
        self.check_compress_lengths(&columns)?;
        let new_extent = self.compressed_extent(&columns)?;
        let mut new_shape = shape.clone();
        new_shape[last] = new_extent;
        let rows = self.size_of(&shape[..last]);
        let size = self.size_of(&new_shape);
        let element = arr.element();
        let block = self.fresh_block(element);
        self.emit(Stmt::Alloc {
            block,
            size,
            site: self.site,
        });
        let write = self.mutable(Expr::Int(0), "w");
        self.for_loop(rows, "r", |lowerer, r| {
            let start = lowerer.bind(Expr::mul_int(r, columns.extent.clone()), "start");
            let output = Output {
                block,
                write: write.clone(),
                fill: element.fill(),
            };
            if op == Op::Expand {
                lowerer.fill_expanded_row(&columns, &arr, &start, &output)
            } else {
                lowerer.fill_replicated_row(&columns, &arr, &start, &output)
            }
        })?;
        Ok(Arr::Mat(Materialised {
            block,
            layout: Layout::row_major(&new_shape),
            shape: new_shape,
        }))
    }

    /// The count of column c: an int (bools as 0/1), with a one-element count vector extended (not for expand, whose
    /// mask has one element per result column).
    fn column_count(&mut self, columns: &Columns, column: Expr) -> LowerResult<Expr> {
        let position = if columns.op == Op::Expand {
            column
        } else {
            Expr::select(Expr::eq(columns.length.clone(), Expr::Int(1)), Expr::Int(0), column)
        };
        let value = self.read_flat(&columns.counts, position)?;
        let value = match value.ty() {
            ScalarType::Bool => Expr::Prim(Op::B2I, vec![value]),
            _ => value,
        };
        Ok(self.bind(value, "c"))
    }

    /// LENGTH ERROR unless the counts fit the last axis: one per column or a single one (compress, replicate), or as
    /// many ones in the mask as there are columns (expand).
    fn check_compress_lengths(&mut self, columns: &Columns) -> LowerResult<()> {
        let (length, extent) = (columns.length.clone(), columns.extent.clone());
        if columns.op == Op::Expand {
            let ones = self.mutable(Expr::Int(0), "ones");
            self.for_loop(length, "c", |lowerer, c| {
                let count = lowerer.column_count(columns, c)?;
                lowerer.emit(Stmt::Assign {
                    var: ones.clone(),
                    value: Expr::add_int(Expr::var(&ones), count),
                });
                Ok(())
            })?;
            let differ = Expr::not_bool(Expr::eq(Expr::var(&ones), extent));
            self.fail_if(differ, AplErrorKind::Length, "expand: mask and argument lengths differ");
        } else {
            let fits = Expr::or(Expr::eq(length.clone(), Expr::Int(1)), Expr::eq(length, extent));
            let message = format!("{}: lengths differ", columns.op.name());
            self.fail_if(Expr::not_bool(fits), AplErrorKind::Length, &message);
        }
        Ok(())
    }

    /// The result's last extent: the sum of |count| over the columns (the mask's length for expand).
    fn compressed_extent(&mut self, columns: &Columns) -> LowerResult<Expr> {
        if columns.op == Op::Expand {
            return Ok(columns.length.clone());
        }
        let total = self.mutable(Expr::Int(0), "total");
        self.for_loop(columns.extent.clone(), "c", |lowerer, c| {
            let count = lowerer.column_count(columns, c)?;
            lowerer.emit(Stmt::Assign {
                var: total.clone(),
                value: Expr::add_int(Expr::var(&total), Expr::Prim(Op::AbsI, vec![count])),
            });
            Ok(())
        })?;
        Ok(self.bind(Expr::var(&total), "n"))
    }

    /// One row of compress/replicate: |count| copies of each column, of the element (count > 0) or of the fill.
    fn fill_replicated_row(&mut self, columns: &Columns, arr: &Arr, start: &Expr, output: &Output) -> LowerResult<()> {
        if columns.counts.element() == ScalarType::Bool {
            return self.fill_compressed_row(columns, arr, start, output);
        }
        self.for_loop(columns.extent.clone(), "c", |lowerer, c| {
            let count = lowerer.column_count(columns, c.clone())?;
            let copies = lowerer.bind(Expr::Prim(Op::AbsI, vec![count.clone()]), "copies");
            // The element is read once, and only when the count is positive.
            let (then, ()) = lowerer.capture(|lowerer| {
                let x = lowerer.read_flat(arr, Expr::add_int(start.clone(), c))?;
                let x = lowerer.bind(x, "x");
                lowerer.for_loop(copies.clone(), "t", |lowerer, _| {
                    output.store(lowerer, x.clone());
                    Ok(())
                })
            })?;
            let (otherwise, ()) = lowerer.capture(|lowerer| {
                lowerer.for_loop(copies.clone(), "t", |lowerer, _| {
                    output.store(lowerer, output.fill.clone());
                    Ok(())
                })
            })?;
            lowerer.emit_if(Expr::lt(Expr::Int(0), count), then, otherwise);
            Ok(())
        })
    }

    /// One row of compress by a boolean mask: the element of each column whose mask is 1, one store each (a mask
    /// count is 0 or 1, so the general row's inner loop over copies and its branch for fills have nothing to do).
    fn fill_compressed_row(&mut self, columns: &Columns, arr: &Arr, start: &Expr, output: &Output) -> LowerResult<()> {
        self.for_loop(columns.extent.clone(), "c", |lowerer, c| {
            let position = Expr::select(Expr::eq(columns.length.clone(), Expr::Int(1)), Expr::Int(0), c.clone());
            let keep = lowerer.read_flat(&columns.counts, position)?;
            let keep = lowerer.bind(keep, "keep");
            let (then, ()) = lowerer.capture(|lowerer| {
                let x = lowerer.read_flat(arr, Expr::add_int(start.clone(), c))?;
                output.store(lowerer, x);
                Ok(())
            })?;
            lowerer.emit_if(keep, then, vec![]);
            Ok(())
        })
    }

    /// One row of expand: the next element where the mask is tt, the fill where it is ff.
    fn fill_expanded_row(&mut self, columns: &Columns, arr: &Arr, start: &Expr, output: &Output) -> LowerResult<()> {
        let next = self.mutable(Expr::Int(0), "next");
        self.for_loop(columns.length.clone(), "c", |lowerer, c| {
            let count = lowerer.column_count(columns, c)?;
            let (then, ()) = lowerer.capture(|lowerer| {
                let value = lowerer.read_flat(arr, Expr::add_int(start.clone(), Expr::var(&next)))?;
                output.store(lowerer, value);
                lowerer.emit(Stmt::Assign {
                    var: next.clone(),
                    value: Expr::add_int(Expr::var(&next), Expr::Int(1)),
                });
                Ok(())
            })?;
            let (otherwise, ()) = lowerer.capture(|lowerer| {
                output.store(lowerer, output.fill.clone());
                Ok(())
            })?;
            lowerer.emit_if(Expr::eq(count, Expr::Int(1)), then, otherwise);
            Ok(())
        })
    }
}

/// The left argument of compress / replicate / expand and the last axis it applies to.
struct Columns {
    op: Op,
    counts: Arr,
    /// The number of counts (or mask elements).
    length: Expr,
    /// The last extent of the right argument.
    extent: Expr,
}

/// Where compress-like operations write: a block, the running write position, and the fill element.
struct Output {
    block: crate::loops::ir::Block,
    write: Var,
    fill: Expr,
}

impl Output {
    /// `block[w] = value; w := w + 1`.
    fn store(&self, lowerer: &mut Lowerer, value: Expr) {
        lowerer.emit(Stmt::Store {
            block: self.block,
            index: Expr::var(&self.write),
            value,
        });
        lowerer.emit(Stmt::Assign {
            var: self.write.clone(),
            value: Expr::add_int(Expr::var(&self.write), Expr::Int(1)),
        });
    }
}

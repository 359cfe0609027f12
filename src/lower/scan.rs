//! Scans along the last axis (`f\A`, inclusive, APL's definition: element k is the right fold of the first k+1
//! elements of its row).
//!
//! - An operator that may fold in any order (`reduce::folds_in_any_order`: int `+ ⌈ ⌊` and the bitwise ones, the
//!   boolean ones, double `+ ×`) scans a row in chunks of `REDUCTION_CHUNK` elements, the chunks defining the order
//!   as they do for a parallel reduction, with the work-efficient three phases of a reduce-then-scan:
//!   1. the total of every chunk but the last, each folded left to right from the operator's exact start
//!      (`chunked_reduction_start`): independent chunks, a `parfor` once `parallelise.rs` has seen them;
//!   2. the exclusive prefix of those totals, folded left to right (sequential, one step per chunk);
//!   3. every chunk again, a running accumulator from its prefix storing each element: independent chunks too.
//!
//!   That is 2n steps (a sequential scan does n) and a span of 2·4096 + n/4096 steps, so every backend runs it in
//!   parallel: the CPU's pool over chunks, an OpenCL kernel for each of phases 1 and 3. A row of at most one chunk is the running
//!   accumulator alone (the same value: the first step from the exact start is the first element, bit for bit), and
//!   so are the short rows of a matrix, parallel across rows instead. An int `+` folds its totals and prefixes in
//!   wrapping arithmetic and checks only phase 3's steps: a prefix that fits is then exact (it is the true prefix
//!   modulo 2^64), so the scan stops with a DOMAIN ERROR exactly when a sequential one would, even where a chunk's
//!   total alone would not fit. Double `+` and `×` round per chunk (APL's licence to reassociate them, as for `+/`).
//!   A chunk's total can overflow where no prefix does, a DOMAIN ERROR that a sequential scan would not raise: for
//!   `+` only at magnitudes near 1e308, for `×` when a chunk's own product passes 1e308 while the true prefix, which
//!   starts from a small product of the chunks before, stays in range.
//! - Other associative operators (int `×`, double `⌈ ⌊`): a running accumulator per row.
//! - The rest (`-\`, `÷\`, dfns): a right fold per prefix, quadratic as APL defines it.

use super::lower::{Function, LowerResult, Lowerer};
use super::pull::{Arr, Materialised};
use super::reduce::folds_in_any_order;
use crate::loops::ir::{chunked_reduction_start, Block, Expr, Layout, Stmt, Var, REDUCTION_CHUNK};
use crate::tail::ast::Op;
use crate::tail::scalar_ops::is_associative;

/// What a scan reads and writes: a materialised row-major source, the result's block, and the rows' length.
struct ScanRows {
    source: Arr,
    block: Block,
    extent: Expr,
}

impl ScanRows {
    /// Element `j` of the row that starts at flat position `start`, bound to a variable.
    fn read(&self, lowerer: &mut Lowerer, start: &Expr, j: Expr) -> LowerResult<Expr> {
        let value = lowerer.read_flat(&self.source, Expr::add_int(start.clone(), j))?;
        Ok(lowerer.bind(value, "x"))
    }

    fn store(&self, lowerer: &mut Lowerer, position: Expr, value: Expr) {
        lowerer.emit(Stmt::Store {
            block: self.block,
            index: position,
            value,
        });
    }

    /// One step of a running scan: `acc := f(acc, x)` with x element `j` of the row at `start`, stored at x's place.
    fn running_step(
        &self,
        lowerer: &mut Lowerer,
        function: &Function,
        accumulator: &Var,
        start: &Expr,
        j: Expr,
    ) -> LowerResult<()> {
        let x = self.read(lowerer, start, j.clone())?;
        let value = lowerer.apply_scalar(function, &[Expr::var(accumulator), x])?;
        lowerer.emit(Stmt::Assign {
            var: accumulator.clone(),
            value,
        });
        self.store(lowerer, Expr::add_int(start.clone(), j), Expr::var(accumulator));
        Ok(())
    }
}

impl Lowerer {
    /// `scan(f, A)` along the last axis; see the module documentation for the three forms.
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
        let block = self.fresh_block(source.element());
        self.emit(Stmt::Alloc {
            site: self.site,
            block,
            size,
        });
        let target = ScanRows { source, block, extent };
        let chunk_start = match &function {
            Function::Op(op) if folds_in_any_order(*op) => chunked_reduction_start(*op).map(|start| (*op, start)),
            _ => None,
        };
        if let Some((op, start)) = chunk_start {
            self.scan_rows_of_any_length(&function, op, &start, &target, rows)?;
        } else if matches!(function, Function::Op(op) if is_associative(op)) {
            self.scan_rows_with_running_accumulators(&function, &target, rows)?;
        } else {
            self.scan_rows_by_prefix_folds(&function, &target, rows)?;
        }
        Ok(Arr::Mat(Materialised {
            block,
            layout: Layout::row_major(&shape),
            shape,
        }))
    }

    /// Rows of at most one chunk with running accumulators (parallel across the rows), longer ones in chunks (each
    /// row's chunks parallel): decided at compile time when the extent is known, else by a test of the extent.
    fn scan_rows_of_any_length(
        &mut self,
        function: &Function,
        op: Op,
        start: &Expr,
        target: &ScanRows,
        rows: Expr,
    ) -> LowerResult<()> {
        let short = |lowerer: &mut Lowerer| lowerer.scan_rows_with_running_accumulators(function, target, rows.clone());
        let long = |lowerer: &mut Lowerer| {
            if rows.as_int() == Some(1) {
                return lowerer.scan_row_in_chunks(function, op, start, target, &Expr::Int(0));
            }
            lowerer.for_loop(rows.clone(), "r", |lowerer, r| {
                let row_start = lowerer.bind(Expr::mul_int(r, target.extent.clone()), "start");
                lowerer.scan_row_in_chunks(function, op, start, target, &row_start)
            })
        };
        match target.extent.as_int() {
            Some(extent) if extent <= REDUCTION_CHUNK => short(self),
            Some(_) => long(self),
            None => {
                let (short, ()) = self.capture(short)?;
                let (long, ()) = self.capture(long)?;
                let one_chunk = Expr::lt(target.extent.clone(), Expr::Int(REDUCTION_CHUNK + 1));
                self.emit_if(one_chunk, short, long);
                Ok(())
            }
        }
    }

    /// The three phases of the module documentation for the row at flat position `row_start`, whose length is more
    /// than one chunk. `offsets[c]` holds the fold of the chunks before chunk c (the start for chunk 0).
    fn scan_row_in_chunks(
        &mut self,
        function: &Function,
        op: Op,
        start: &Expr,
        target: &ScanRows,
        row_start: &Expr,
    ) -> LowerResult<()> {
        let extent = target.extent.clone();
        let chunk_count = Expr::div_int(
            Expr::add_int(extent.clone(), Expr::Int(REDUCTION_CHUNK - 1)),
            Expr::Int(REDUCTION_CHUNK),
        );
        let chunks = self.bind(chunk_count, "chunks");
        let offsets = self.fresh_block(start.ty());
        self.emit(Stmt::Alloc {
            site: self.site,
            block: offsets,
            size: chunks.clone(),
        });
        self.emit(Stmt::Store {
            block: offsets,
            index: Expr::Int(0),
            value: start.clone(),
        });
        let full_chunks = self.bind(Expr::sub_int(chunks.clone(), Expr::Int(1)), "full");
        // Phase 1: the totals of the full chunks, chunk c's into offsets[c + 1].
        self.for_loop(full_chunks.clone(), "c", |lowerer, c| {
            let first = Expr::add_int(row_start.clone(), Expr::mul_int(c.clone(), Expr::Int(REDUCTION_CHUNK)));
            let first = lowerer.bind(first, "first");
            let total = lowerer.mutable(start.clone(), "total");
            lowerer.for_loop(Expr::Int(REDUCTION_CHUNK), "j", |lowerer, j| {
                let x = target.read(lowerer, &first, j)?;
                let value = lowerer.unchecked_where_exact(function, op, x, Expr::var(&total))?;
                lowerer.emit(Stmt::Assign {
                    var: total.clone(),
                    value,
                });
                Ok(())
            })?;
            lowerer.emit(Stmt::Store {
                block: offsets,
                index: Expr::add_int(c, Expr::Int(1)),
                value: Expr::var(&total),
            });
            Ok(())
        })?;
        // Phase 2: the exclusive prefix, in place and in chunk order.
        let prefix = self.mutable(start.clone(), "prefix");
        self.for_loop(full_chunks, "c", |lowerer, c| {
            let next = lowerer.bind(Expr::add_int(c, Expr::Int(1)), "next");
            let chunk_total = lowerer.bind(Expr::load(offsets, next.clone()), "t");
            let value = lowerer.unchecked_where_exact(function, op, Expr::var(&prefix), chunk_total)?;
            lowerer.emit(Stmt::Assign {
                var: prefix.clone(),
                value,
            });
            lowerer.emit(Stmt::Store {
                block: offsets,
                index: next,
                value: Expr::var(&prefix),
            });
            Ok(())
        })?;
        // Phase 3: each chunk's running accumulator from its prefix, with APL's checks.
        self.for_loop(chunks, "c", |lowerer, c| {
            let first = lowerer.bind(Expr::mul_int(c.clone(), Expr::Int(REDUCTION_CHUNK)), "first");
            let length = Expr::min(Expr::Int(REDUCTION_CHUNK), Expr::sub_int(extent.clone(), first.clone()));
            let length = lowerer.bind(length, "length");
            let chunk_start = lowerer.bind(Expr::add_int(row_start.clone(), first), "from");
            let accumulator = lowerer.mutable(Expr::load(offsets, c), "acc");
            lowerer.for_loop(length, "j", |lowerer, j| {
                target.running_step(lowerer, function, &accumulator, &chunk_start, j)
            })
        })
    }

    /// `f(a, b)` for the totals and prefixes of phases 1 and 2: an int `+` wraps (see the module documentation),
    /// every other operator is the scan's own.
    fn unchecked_where_exact(&mut self, function: &Function, op: Op, a: Expr, b: Expr) -> LowerResult<Expr> {
        if op == Op::AddI {
            return Ok(Expr::Prim(Op::AddW, vec![a, b]));
        }
        self.apply_scalar(function, &[a, b])
    }

    /// Each row scanned by one running accumulator `acc := f(acc, x)` (an associative `f`), rows in any order.
    fn scan_rows_with_running_accumulators(
        &mut self,
        function: &Function,
        target: &ScanRows,
        rows: Expr,
    ) -> LowerResult<()> {
        self.for_loop(rows, "r", |lowerer, r| {
            let start = lowerer.bind(Expr::mul_int(r, target.extent.clone()), "start");
            let (statements, ()) = lowerer.capture(|lowerer| {
                let first = target.read(lowerer, &start, Expr::Int(0))?;
                let accumulator = lowerer.mutable(first, "acc");
                target.store(lowerer, start.clone(), Expr::var(&accumulator));
                let rest = lowerer.bind(Expr::sub_int(target.extent.clone(), Expr::Int(1)), "m");
                lowerer.for_loop(rest, "k", |lowerer, k| {
                    let j = lowerer.bind(Expr::add_int(k, Expr::Int(1)), "j");
                    target.running_step(lowerer, function, &accumulator, &start, j)
                })
            })?;
            lowerer.emit_if(Expr::lt(Expr::Int(0), target.extent.clone()), statements, vec![]);
            Ok(())
        })
    }

    /// Element k of each row as the right fold `f(x0, f(x1, ... x_k))` of its own: for operators that are not
    /// associative, whose scan APL defines so.
    fn scan_rows_by_prefix_folds(&mut self, function: &Function, target: &ScanRows, rows: Expr) -> LowerResult<()> {
        self.for_loop(rows, "r", |lowerer, r| {
            let start = lowerer.bind(Expr::mul_int(r, target.extent.clone()), "start");
            lowerer.for_loop(target.extent.clone(), "e", |lowerer, end| {
                let last = target.read(lowerer, &start, end.clone())?;
                let accumulator = lowerer.mutable(last, "acc");
                lowerer.for_loop(end.clone(), "k", |lowerer, k| {
                    let j = lowerer.bind(Expr::sub_int(Expr::sub_int(end.clone(), Expr::Int(1)), k), "j");
                    let x = target.read(lowerer, &start, j)?;
                    let value = lowerer.apply_scalar(function, &[x, Expr::var(&accumulator)])?;
                    lowerer.emit(Stmt::Assign {
                        var: accumulator.clone(),
                        value,
                    });
                    Ok(())
                })?;
                target.store(lowerer, Expr::add_int(start.clone(), end), Expr::var(&accumulator));
                Ok(())
            })
        })
    }
}

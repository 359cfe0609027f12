//! Register tiles for rows of accumulations: a matrix product's rows are computed [`TILE_ROWS`] at a time, in tiles of
//! `TILE_ROWS × TILE_COLUMNS` accumulators that stay in registers along the reduced axis, one block of it at a time.
//!
//! The interchange (`interchange.rs`) and the recognition of parallel maps leave `A f.g B` (matmul's `+.×`) as
//!
//! ```text
//! parfor i < n {
//!   let s = …i…                                       (the row's start in C, and other row values)
//!   for j0 < m { store C[s + j0] = e }                (the fold's start)
//!   for k < d {
//!     for j < m { let x = A[…i, k…]; let y = B[…k, j…]; …; store C[s + j] = f(g(x, y), C[s + j]) }
//!   }
//! }
//! ```
//!
//! whose innermost loop loads and stores a row of C for every k: a load and a store per multiply-add, so the loop
//! runs at the speed of the L1 cache's stores, not of the arithmetic (matmul 512's product: 9.6 ms on one core of an
//! AMD EPYC; with the tile below 4.3 ms). The pass makes it
//!
//! ```text
//! parfor b < n / 8 {                                  (the starts, and the columns no tile of columns covers)
//!   for r < 8 { let i = 8b + r; the row values; for j0 < m / 16 · 16 { store C[s + j0] = e } }
//!   for r < 8 { let i = 8b + r; the row as before, over the columns m / 16 · 16 ≤ j < m only }
//! }
//! let h = the length of a block of k                  (k_block_length_for: B's rows of a block fit the L2 cache)
//! for kb < ⌈d / h⌉ {
//!   parfor b < n / 8 {
//!     for r < 8: let i_r = 8b + r; the row values of row i_r
//!     for c < m / 16 {
//!       for w < 16: let j_w = 16c + w
//!       for r, w: var acc_rw = C[s_r + j_w]             (128 accumulators, from the start or the blocks before)
//!       for t < min(h, d − kb·h) {
//!         let k = kb·h + t
//!         for r: the k values of row i_r; for r, w: the body at (i_r, k, j_w); acc_rw := f(…, acc_rw)
//!       }
//!       for r, w: store C[s_r + j_w] = acc_rw
//!     }
//!   }
//! }
//! parfor q < n - n / 8 · 8 { let i = n / 8 · 8 + q; the row as before }       (the last rows)
//! ```
//!
//! Per k the tile loads 8 elements of A and 16 of B and does 128 multiply-adds, all in registers: LLVM's SLP
//! vectoriser makes the 16 accumulators of a row two `<8 x double>` (AVX-512) or four `<4 x double>` registers.
//! 8 × 16 was the fastest shape measured in C on an AMD EPYC, for AVX-512 (3.1 ms) and for AVX2 (6.4 ms), against
//! 4 × 16, 4 × 32, 8 × 8, 4 × 8 and 2 × 16. Code generation keeps the 128 folds in order (no `reassoc`, which let
//! the loop vectoriser fold each along k with gathers) and checks their results one by one after the walk (see
//! `MOST_REASSOCIATED_REDUCTIONS` in `codegen/llvm/translate.rs`); `tests/vectorised_kernels.rs` checks the vectors.
//! Each `acc := acc + x × y` step may be one fused multiply-add (`emit::allow_contraction`).
//!
//! Why blocks of k, outside the tiles of rows: a tile of rows walks B's rows from the first to the last, a column
//! tile at a time; for matmul 512 all of B (2 MiB) does not stay in a core's L2 cache from one tile of rows to the
//! next, so every tile read B from L3. With blocks of [`K_BLOCK_BYTES`] of B, every tile of rows reads the block the
//! tile before read. On an Intel Sapphire Rapids core the product took 7.1 ms with blocks against 10.0 ms without
//! (4.4 ms with blocks and fused multiply-adds; NumPy's OpenBLAS 3.9 ms). Each block reloads and stores the
//! accumulators once: 2 × 128 accesses per `h` × 128 multiply-adds.
//!
//! What stays the same: every element of C is the same fold in the same order (k runs 0, 1, …, d−1 from the same
//! start, the blocks one after the other, each continuing from the value the one before stored), so the results are
//! the same bit for bit. Every expression of the body is evaluated at the same (i, k, j) as before (the tiles and the
//! remainders cover each exactly once); the row values and the k values of a row (`let`s between the k and the j
//! loop) may be evaluated more than once, in the tile and for the row's last columns. When several elements raise
//! an APL error, which one is reported may change, as it already may between the rows of a parallel map: a block
//! checks its accumulators after its walk, and a sum that is not a finite number stays so in the blocks after.
//!
//! What the pass asks of the nest: the elements are doubles (booleans, one byte each, fill 64 lanes of a vector
//! along a row, which a tile of 16 columns would waste: `∨.∧` of 512×512 took 3.0 ms untiled, 5.4 ms tiled; an
//! int `+.×` is a nested reduction, not this nest, because its sum must not stop on a partial sum that overflows);
//! the row loop is a parallel map (so its rows are independent); its body is `let`s,
//! the start loop and the k loop, and stores nothing else; `m` and `d` do not depend on the row; the bodies are `let`s
//! (with loads of any block but C) and the one store, whose value reads C only at the element it stores; the start
//! loads nothing. Devices do not get the pass: a GPU's work-item wants one element, not a tile of 128.

use std::collections::{HashMap, HashSet};

use super::index_simplify::mentions;
use crate::loops::ir::{for_each_load, variables_defined_in, Block, Expr, Program, ScalarType, Stmt, Var};
use crate::loops::rewrite::{expr_loads_any_block, expr_loads_block, fresh_variable, variables_of};
use crate::loops::rewrite::{fresh_names_of_defined_variables, rename_defined_variables, rename_variables};
use crate::loops::rewrite::{replace_statements_outside_parallel, rewrite_expr};
use crate::tail::ast::Op;

/// Rows of a tile: with [`TILE_COLUMNS`] 16, AVX-512 holds the 128 accumulators in 16 of its 32 vector registers.
pub const TILE_ROWS: i64 = 8;

/// Columns of a tile: two `<8 x double>` or four `<4 x double>` vectors per row.
pub const TILE_COLUMNS: i64 = 16;

/// The bytes of B (its rows of one block of k) that the tiles of rows read, one after the other, before the next
/// block: small enough to stay in a core's L2 cache (1–2 MiB on current x86 cores) beside the rows of A and C. For
/// matmul 512 (fused multiply-adds), blocks of 128 rows (512 KiB) took 3.5 ms in C on an Intel Sapphire Rapids core
/// against 6.9 ms for one block of all 512 rows.
pub const K_BLOCK_BYTES: i64 = 512 * 1024;

/// The fewest rows of B in a block of k: shorter walks would spend their time loading and storing accumulators.
pub const SHORTEST_K_BLOCK: i64 = 32;

/// The most rows of B in a block of k.
pub const LONGEST_K_BLOCK: i64 = 512;

/// Computes the rows of every eligible accumulation nest in tiles (see the module documentation).
pub fn tile_row_accumulations(mut program: Program) -> Program {
    let mut next_id = program.largest_id();
    replace_statements_outside_parallel(&mut program.body, &mut |statements, position| {
        let nest = RowAccumulation::of(&statements[position])?;
        Some(nest.tiled(&mut next_id))
    });
    program
}

/// `parfor row < rows { row_values; for start_index < columns { store C[offset + start_index] = start };
/// for k < depth { k_values; for column < columns { column_values; store C[offset + column] = value } } }`.
struct RowAccumulation<'a> {
    row: &'a Var,
    rows: &'a Expr,
    row_values: &'a [Stmt],
    block: Block,
    offset: Expr,
    columns: &'a Expr,
    start_index: &'a Var,
    /// `offset + start_index`, where the start loop stores.
    start_at: &'a Expr,
    start: &'a Expr,
    k: &'a Var,
    depth: &'a Expr,
    k_values: &'a [Stmt],
    column: &'a Var,
    column_values: &'a [Stmt],
    /// `offset + column`, where the accumulation stores.
    stored_at: &'a Expr,
    /// The stored value, which reads C only at `stored_at`.
    value: &'a Expr,
}

impl<'a> RowAccumulation<'a> {
    fn of(statement: &'a Stmt) -> Option<RowAccumulation<'a>> {
        let Stmt::ParallelFor {
            index: row,
            count: rows,
            body,
        } = statement
        else {
            return None;
        };
        let [row_values @ .., start_loop, k_loop] = body.as_slice() else {
            return None;
        };
        let Stmt::For {
            index: start_index,
            count: columns,
            body: start_body,
        } = start_loop
        else {
            return None;
        };
        let [Stmt::Store {
            block,
            index: start_at,
            value: start,
        }] = start_body.as_slice()
        else {
            return None;
        };
        let Stmt::For {
            index: k,
            count: depth,
            body: k_body,
        } = k_loop
        else {
            return None;
        };
        let [k_values @ .., Stmt::For {
            index: column,
            count: inner_columns,
            body: column_body,
        }] = k_body.as_slice()
        else {
            return None;
        };
        let [column_values @ .., Stmt::Store {
            block: stored,
            index: stored_at,
            value,
        }] = column_body.as_slice()
        else {
            return None;
        };
        let offset = offset_before(start_at, start_index)?;
        if stored != block || inner_columns != columns || offset_before(stored_at, column)? != offset {
            return None;
        }
        let nest = RowAccumulation {
            row,
            rows,
            row_values,
            block: *block,
            offset,
            columns,
            start_index,
            start_at,
            start,
            k,
            depth,
            k_values,
            column,
            column_values,
            stored_at,
            value,
        };
        nest.is_tileable(body).then_some(nest)
    }

    /// The conditions of the module documentation, beyond the shape [`RowAccumulation::of`] matched.
    fn is_tileable(&self, row_body: &[Stmt]) -> bool {
        let mut row_defined = variables_defined_in(row_body);
        row_defined.insert(self.row.id);
        let invariant = |expr: &Expr| {
            let mut read = HashSet::new();
            variables_of(expr, &mut read);
            read.is_disjoint(&row_defined)
        };
        let all_lets = |statements: &[Stmt]| statements.iter().all(|s| matches!(s, Stmt::Let { .. }));
        self.block.element == ScalarType::Double
            && invariant(self.columns)
            && invariant(self.depth)
            && all_lets(self.row_values)
            && all_lets(self.k_values)
            && all_lets(self.column_values)
            && !expr_loads_any_block(self.start)
            && self.lets_never_load_the_block(self.row_values)
            && self.lets_never_load_the_block(self.k_values)
            && self.lets_never_load_the_block(self.column_values)
            && !expr_loads_block(&self.offset, self.block.id)
            && !loads_block_elsewhere(self.value, self.block, self.stored_at)
            && expr_loads_block(self.value, self.block.id)
    }

    fn lets_never_load_the_block(&self, statements: &[Stmt]) -> bool {
        statements.iter().all(|statement| match statement {
            Stmt::Let { value, .. } => !expr_loads_block(value, self.block.id),
            _ => false,
        })
    }

    /// The statements that replace the row loop (see the module documentation): the starts and the last columns of
    /// the tiled rows, the tiles block by block of k, then the rows of the last, partial tile.
    fn tiled(&self, next_id: &mut u32) -> Vec<Stmt> {
        let total = fresh_variable(next_id, ScalarType::Int, "rows");
        let tiles = fresh_variable(next_id, ScalarType::Int, "tiles");
        let k_block_length = fresh_variable(next_id, ScalarType::Int, "k_block_length");
        let k_blocks = fresh_variable(next_id, ScalarType::Int, "k_blocks");
        let k_block = fresh_variable(next_id, ScalarType::Int, "k_block");
        let done = fresh_variable(next_id, ScalarType::Int, "tiled_rows");
        let rest = fresh_variable(next_id, ScalarType::Int, "rest");
        let edges_tile = fresh_variable(next_id, ScalarType::Int, "edge_tile");
        let mut edges_of_the_tiles = vec![Stmt::ParallelFor {
            index: edges_tile.clone(),
            count: Expr::var(&tiles),
            body: vec![
                self.starts_of_the_tile_rows(&edges_tile, next_id),
                self.last_columns_of_the_tile_rows(&edges_tile, next_id),
            ],
        }];
        rename_defined_variables(&mut edges_of_the_tiles, next_id);
        let tile = fresh_variable(next_id, ScalarType::Int, "tile");
        let block = KBlock {
            block: &k_block,
            length: &k_block_length,
        };
        let tiles_of_one_block = Stmt::ParallelFor {
            index: tile.clone(),
            count: Expr::var(&tiles),
            body: self.tile_of_columns(&tile, &block, next_id),
        };
        let mut last_rows = vec![Stmt::ParallelFor {
            index: rest.clone(),
            count: Expr::sub_int(Expr::var(&total), Expr::var(&done)),
            body: self.row_at(
                Expr::add_int(Expr::var(&done), Expr::var(&rest)),
                &Expr::Int(0),
                next_id,
            ),
        }];
        rename_defined_variables(&mut last_rows, next_id);
        let mut statements = vec![
            Stmt::Let {
                var: total.clone(),
                value: Expr::max(self.rows.clone(), Expr::Int(0)),
            },
            Stmt::Let {
                var: tiles.clone(),
                value: floor_quotient(Expr::var(&total), Expr::Int(TILE_ROWS)),
            },
        ];
        statements.extend(edges_of_the_tiles);
        let block_length = k_block_length_for(self.columns);
        statements.extend([
            Stmt::Let {
                var: k_block_length.clone(),
                value: block_length.clone(),
            },
            Stmt::Let {
                var: k_blocks.clone(),
                value: number_of_k_blocks(self.depth, &k_block_length, &block_length),
            },
            Stmt::For {
                index: k_block,
                count: Expr::var(&k_blocks),
                body: vec![tiles_of_one_block],
            },
            Stmt::Let {
                var: done,
                value: Expr::mul_int(Expr::var(&tiles), Expr::Int(TILE_ROWS)),
            },
        ]);
        statements.extend(last_rows);
        statements
    }

    /// The rows of tile `tile` (their row values, renamed per row), then the loop over its whole tiles of columns,
    /// each walking the k of one block.
    fn tile_of_columns(&self, tile: &Var, block: &KBlock, next_id: &mut u32) -> Vec<Stmt> {
        let mut statements = Vec::new();
        let mut row_renamings = Vec::new();
        for r in 0..TILE_ROWS {
            let mut row = vec![Stmt::Let {
                var: self.row.clone(),
                value: Expr::add_int(Expr::mul_int(Expr::var(tile), Expr::Int(TILE_ROWS)), Expr::Int(r)),
            }];
            row.extend(self.row_values.iter().cloned());
            let renaming = fresh_names_of_defined_variables(&row, next_id);
            rename_variables(&mut row, &renaming);
            statements.extend(row);
            row_renamings.push(renaming);
        }
        let column_tile = fresh_variable(next_id, ScalarType::Int, "column_tile");
        statements.push(Stmt::For {
            index: column_tile.clone(),
            count: self.column_tiles(),
            body: self.accumulators_of_one_tile(&column_tile, &row_renamings, block, next_id),
        });
        statements
    }

    /// The number of whole tiles of columns.
    fn column_tiles(&self) -> Expr {
        floor_quotient(Expr::max(self.columns.clone(), Expr::Int(0)), Expr::Int(TILE_COLUMNS))
    }

    /// The columns that whole tiles of columns cover: `m / 16 · 16`.
    fn tiled_columns(&self) -> Expr {
        Expr::mul_int(self.column_tiles(), Expr::Int(TILE_COLUMNS))
    }

    /// The body of the loop over tiles of columns: the columns, the accumulators (loaded from C, where the starts or
    /// the blocks of k before left them), the walk along the k of the block, the stores.
    fn accumulators_of_one_tile(
        &self,
        column_tile: &Var,
        row_renamings: &[HashMap<u32, Var>],
        block: &KBlock,
        next_id: &mut u32,
    ) -> Vec<Stmt> {
        let mut statements = Vec::new();
        let columns: Vec<Var> = (0..TILE_COLUMNS)
            .map(|w| {
                let column = fresh_variable(next_id, ScalarType::Int, "j");
                statements.push(Stmt::Let {
                    var: column.clone(),
                    value: Expr::add_int(
                        Expr::mul_int(Expr::var(column_tile), Expr::Int(TILE_COLUMNS)),
                        Expr::Int(w),
                    ),
                });
                column
            })
            .collect();
        let k_in_block = fresh_variable(next_id, ScalarType::Int, &self.k.hint);
        let k = fresh_variable(next_id, ScalarType::Int, &self.k.hint);
        let first_k = Expr::mul_int(Expr::var(block.block), Expr::var(block.length));
        let mut walk = vec![Stmt::Let {
            var: k.clone(),
            value: Expr::add_int(first_k.clone(), Expr::var(&k_in_block)),
        }];
        let mut stores = Vec::new();
        for renaming in row_renamings {
            let mut renaming = renaming.clone();
            renaming.insert(self.k.id, k.clone());
            let mut k_values = self.k_values.to_vec();
            renaming.extend(fresh_names_of_defined_variables(&k_values, next_id));
            rename_variables(&mut k_values, &renaming);
            walk.extend(k_values);
            for column in &columns {
                let accumulator = fresh_variable(next_id, self.block.element, "acc");
                let mut column_renaming = renaming.clone();
                column_renaming.insert(self.column.id, column.clone());
                let mut start = vec![Stmt::Mutable {
                    var: accumulator.clone(),
                    value: Expr::load(self.block, self.stored_at.clone()),
                }];
                rename_variables(&mut start, &column_renaming);
                statements.extend(start);
                let mut step = self.column_values.to_vec();
                step.push(Stmt::Assign {
                    var: accumulator.clone(),
                    value: self.value_with_accumulator(&accumulator),
                });
                let mut step_renaming = column_renaming.clone();
                step_renaming.extend(fresh_names_of_defined_variables(&step, next_id));
                step_renaming.remove(&accumulator.id);
                rename_variables(&mut step, &step_renaming);
                walk.extend(step);
                let mut store = vec![Stmt::Store {
                    block: self.block,
                    index: self.stored_at.clone(),
                    value: Expr::var(&accumulator),
                }];
                rename_variables(&mut store, &column_renaming);
                stores.extend(store);
            }
        }
        statements.push(Stmt::For {
            index: k_in_block,
            count: Expr::min(
                Expr::var(block.length),
                Expr::sub_int(Expr::max(self.depth.clone(), Expr::Int(0)), first_k),
            ),
            body: walk,
        });
        statements.extend(stores);
        statements
    }

    /// The stored value with its loads of C (at the element it stores) replaced by the accumulator.
    fn value_with_accumulator(&self, accumulator: &Var) -> Expr {
        let mut value = self.value.clone();
        rewrite_expr(&mut value, &mut |node| {
            if matches!(node, Expr::Load { block, index } if *block == self.block && **index == *self.stored_at) {
                *node = Expr::var(accumulator);
            }
        });
        value
    }

    /// `for r < TILE_ROWS { the row TILE_ROWS·tile + r over the columns after the last whole tile of columns }`.
    fn last_columns_of_the_tile_rows(&self, tile: &Var, next_id: &mut u32) -> Stmt {
        let tiled_columns = self.tiled_columns();
        self.for_each_row_of_the_tile(tile, next_id, |nest, row, next_id| {
            nest.row_at(row, &tiled_columns, next_id)
        })
    }

    /// `for r < TILE_ROWS { the start stores of the row TILE_ROWS·tile + r over its whole tiles of columns }`: the
    /// first block of k loads its accumulators from there.
    fn starts_of_the_tile_rows(&self, tile: &Var, next_id: &mut u32) -> Stmt {
        let tiled_columns = self.tiled_columns();
        self.for_each_row_of_the_tile(tile, next_id, |nest, row, _| {
            let mut statements = vec![Stmt::Let {
                var: nest.row.clone(),
                value: row,
            }];
            statements.extend(nest.row_values.iter().cloned());
            statements.push(Stmt::For {
                index: nest.start_index.clone(),
                count: tiled_columns.clone(),
                body: vec![Stmt::Store {
                    block: nest.block,
                    index: nest.start_at.clone(),
                    value: nest.start.clone(),
                }],
            });
            statements
        })
    }

    /// `for r < TILE_ROWS { body(TILE_ROWS·tile + r) }`, its variables renamed.
    fn for_each_row_of_the_tile(
        &self,
        tile: &Var,
        next_id: &mut u32,
        body: impl FnOnce(&Self, Expr, &mut u32) -> Vec<Stmt>,
    ) -> Stmt {
        let r = fresh_variable(next_id, ScalarType::Int, "r");
        let row = Expr::add_int(Expr::mul_int(Expr::var(tile), Expr::Int(TILE_ROWS)), Expr::var(&r));
        let mut rows = vec![Stmt::For {
            index: r,
            count: Expr::Int(TILE_ROWS),
            body: body(self, row, next_id),
        }];
        rename_defined_variables(&mut rows, next_id);
        rows.remove(0)
    }

    /// The row loop's body for the row `row`, over the columns from `first_column` on (`let row = …` first; the
    /// variables keep their names, for the caller to rename).
    fn row_at(&self, row: Expr, first_column: &Expr, next_id: &mut u32) -> Vec<Stmt> {
        let mut statements = vec![Stmt::Let {
            var: self.row.clone(),
            value: row,
        }];
        statements.extend(self.row_values.iter().cloned());
        let start_store = Stmt::Store {
            block: self.block,
            index: self.start_at.clone(),
            value: self.start.clone(),
        };
        statements.push(columns_from(
            self.start_index,
            self.columns,
            first_column,
            vec![start_store],
            next_id,
        ));
        let mut column_body = self.column_values.to_vec();
        column_body.push(Stmt::Store {
            block: self.block,
            index: self.stored_at.clone(),
            value: self.value.clone(),
        });
        let mut k_body = self.k_values.to_vec();
        k_body.push(columns_from(
            self.column,
            self.columns,
            first_column,
            column_body,
            next_id,
        ));
        statements.push(Stmt::For {
            index: self.k.clone(),
            count: self.depth.clone(),
            body: k_body,
        });
        statements
    }
}

/// The block of k that a loop over tiles walks: `k` runs from `block × length` over at most `length` values.
struct KBlock<'a> {
    block: &'a Var,
    length: &'a Var,
}

/// The length of a block of k for rows of `columns` doubles: the rows of B that one block reads take about
/// [`K_BLOCK_BYTES`], between [`SHORTEST_K_BLOCK`] and [`LONGEST_K_BLOCK`] rows (a constant when `columns` is).
fn k_block_length_for(columns: &Expr) -> Expr {
    if let Some(columns) = columns.as_int() {
        return Expr::Int((K_BLOCK_BYTES / (columns.max(1) * 8)).clamp(SHORTEST_K_BLOCK, LONGEST_K_BLOCK));
    }
    let row_bytes = Expr::mul_int(Expr::max(columns.clone(), Expr::Int(1)), Expr::Int(8));
    let fitting = Expr::div_int(Expr::Int(K_BLOCK_BYTES), row_bytes);
    Expr::max(
        Expr::min(fitting, Expr::Int(LONGEST_K_BLOCK)),
        Expr::Int(SHORTEST_K_BLOCK),
    )
}

/// `⌈max(depth, 0) / length⌉`, the number of blocks of k, where `length` (at least 1) is the value of
/// `length_var`; a constant when the depth and the length are.
fn number_of_k_blocks(depth: &Expr, length_var: &Var, length: &Expr) -> Expr {
    if let (Some(depth), Some(length)) = (depth.as_int(), length.as_int()) {
        return Expr::Int((depth.max(0) + length - 1) / length);
    }
    Expr::div_int(
        Expr::add_int(
            Expr::max(depth.clone(), Expr::Int(0)),
            Expr::sub_int(Expr::var(length_var), Expr::Int(1)),
        ),
        Expr::var(length_var),
    )
}

/// `for j < columns { body }` restricted to `first ≤ j`: a fresh index runs over `columns - first` and the body
/// defines `j` from it (with `first` the constant 0, the loop as it was).
fn columns_from(column: &Var, columns: &Expr, first: &Expr, body: Vec<Stmt>, next_id: &mut u32) -> Stmt {
    if first.as_int() == Some(0) {
        return Stmt::For {
            index: column.clone(),
            count: columns.clone(),
            body,
        };
    }
    let index = fresh_variable(next_id, ScalarType::Int, &format!("{}_rest", column.hint));
    let mut statements = vec![Stmt::Let {
        var: column.clone(),
        value: Expr::add_int(first.clone(), Expr::var(&index)),
    }];
    statements.extend(body);
    Stmt::For {
        index,
        count: Expr::sub_int(columns.clone(), first.clone()),
        body: statements,
    }
}

/// `offset` when `index` is `offset + j` (or `j + offset`) and `offset` does not read `j`.
fn offset_before(index: &Expr, j: &Var) -> Option<Expr> {
    let Expr::Prim(Op::AddW, arguments) = index else {
        return None;
    };
    let is_j = |expr: &Expr| matches!(expr, Expr::Var(var) if var == j);
    let offset = match arguments.as_slice() {
        [offset, last] if is_j(last) => offset,
        [first, offset] if is_j(first) => offset,
        _ => return None,
    };
    (!mentions(offset, j)).then(|| offset.clone())
}

/// `a / divisor` (floor division by a positive constant), folded when `a` is a constant: the parallel-map proof
/// reads a constant number of tiles as the constant it is.
fn floor_quotient(a: Expr, divisor: Expr) -> Expr {
    match (a.as_int(), divisor.as_int()) {
        (Some(a), Some(divisor)) if divisor > 0 => Expr::Int(a.div_euclid(divisor)),
        _ => Expr::div_int(a, divisor),
    }
}

/// Whether `expr` loads `block` at an index other than `allowed`.
fn loads_block_elsewhere(expr: &Expr, block: Block, allowed: &Expr) -> bool {
    let mut elsewhere = false;
    for_each_load(expr, &mut |loaded, index| {
        elsewhere |= loaded == block && index != allowed
    });
    elsewhere
}

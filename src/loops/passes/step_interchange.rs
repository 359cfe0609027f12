//! Element-wise steps run strip by strip: a `⍣` loop whose every step is one element-wise parallel map over its
//! state arrays is turned inside out, so that each strip of elements takes all the steps while it sits in the cache
//! (on the CPU), or each work-item takes its few elements through all the steps (in a kernel).
//!
//! Lowering and double buffering leave such a loop (mandelbrot's `(step⍣K) zr zi n`) as
//!
//! ```text
//! for it < K {
//!   checks                                  (invariant: `let`s, views and `if … { error }` of sizes)
//!   parfor i < n {
//!     … zr[i] … zi[i] … cr[i] …             (the state's blocks read at i only, other blocks anywhere)
//!     store zr'[i] = …; store zi'[i] = …    (each next block once, at i)
//!   }
//!   swap zr, zr'; swap zi, zi'
//! }
//! ```
//!
//! Every step reads and writes all the state: 64 bytes per element and step for mandelbrot's 10 MB of state, far
//! beyond the L2 cache, so the loop runs at the speed of memory. Element i of step s+1 reads only element i of step
//! s, so the steps of different elements are independent, and the loop becomes
//!
//! ```text
//! if (0 < K) {
//!   checks
//!   parfor b < n / W {                       (strips of W elements, each in the cache for all the steps)
//!     for it < K { for l < W { let i = b·W + l; …; store zr[i] = …; store zi[i] = … } }
//!   }
//!   parfor r < n - n / W · W { for it < K { let i = n / W · W + r; … } }     (the last, partial strip)
//! }
//! ```
//!
//! updating the state in place (the new values are stored after the body's last read, so each element reads its
//! own previous values) and never touching the next blocks, whose allocations go when nothing else uses them. The
//! innermost loop over a strip is what the vectoriser sees, as before. mandelbrot at 512×512, 100 steps, one thread:
//! 35.7 ms before, 22.0 ms after (the C baseline, which stops each point once it escapes, 20.0 ms); strips of 64 to
//! 1024 elements all gave 21–23 ms, so the loop is bound by arithmetic now, not memory.
//!
//! On an OpenCL device a strip is a work-item's share, [`DEVICE_STRIPS`]: one kernel launch replaces K, and the strips
//! are interleaved (`let i = l·S + b` over S = n / W strips), so that neighbouring work-items touch neighbouring
//! elements.
//!
//! What stays the same: every element goes through the same operations in the same order, so the results are the
//! same bit for bit. The checks run once instead of K times (they are invariant: the same outcome every time, and the
//! first time came before any step). When the body can raise an APL error for several elements at different steps,
//! which of them is reported may change, as it already may between the iterations of any parallel map.
//!
//! The next blocks must be as large as the state's blocks for the in-place update; they are, because the state's
//! blocks are read at every i < n on the first step (the pass asks for a read of each that no branch or select
//! guards), and the next blocks written at every i < n.

use crate::loops::ir::{blocks_stored_in, for_each_load, for_each_statement, statement_expressions, Block, Expr};
use crate::loops::ir::{Program, ScalarType};
use crate::loops::ir::{Stmt, Var};
use crate::loops::rewrite::replace_statements_outside_parallel;
use crate::loops::rewrite::variables_of;
use crate::loops::rewrite::{expr_loads_any_block, expr_loads_block, fresh_variable, mentions_block};
use crate::loops::rewrite::{rename_defined_variables, result_mentions_block};
use std::collections::HashSet;

/// How a loop's elements are cut into strips: `length` elements per strip, either consecutive (strip b holds
/// elements b·length to b·length + length - 1) or interleaved (strip b holds b, b + S, b + 2S, ..., S the number of
/// strips). Both take every element through the same operations in the same order; only which element shares a
/// strip with which differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StripLayout {
    pub length: i64,
    pub interleaved: bool,
}

/// Strips on the CPU: consecutive, so that a strip is contiguous in memory and the loop over it vectorises; with
/// mandelbrot's five arrays of doubles a strip is 10 KB, well inside a core's L1 data cache, and long enough that
/// the loop over steps around it costs nothing.
pub const CPU_STRIPS: StripLayout = StripLayout {
    length: 256,
    interleaved: false,
};

/// Runs the element-wise steps of `⍣` loops strip by strip (the CPU form).
pub fn interchange_element_wise_steps(program: Program) -> Program {
    interchange_with_strips(program, CPU_STRIPS)
}

/// Strips on an OpenCL device, one per work-item: 8 elements, interleaved. On a GPU the strips must be
/// interleaved: neighbouring work-items then load neighbouring elements, which the memory system coalesces into
/// one transaction per warp. With 8 consecutive elements per work-item the warp's loads were 64 bytes apart, and
/// mandelbrot 2048 with K = 100 took 51.7 ms in this kernel on an NVIDIA H200; interleaved, 5.6 ms, below the
/// 7.8 ms of K launches of a work-item per element (bench/results-gpu.md, runs 2 and 5).
///
/// The choice costs PoCL (the CPU device), which vectorises the loop over a work-item's strip: consecutive elements
/// are one vector load, interleaved ones a gather, and mandelbrot 1024's kernel takes about 800 ms instead of 475
/// (2-core Intel). A GPU is what the OpenCL backend is for; the native backend is the one for CPUs. Eight elements
/// rather than one, because one element per work-item is slower still on PoCL (210 ms against 139 ms for
/// mandelbrot 512: it vectorises across work-items only when the body has no loop), while on the GPU eight
/// interleaved elements per work-item already beat a launch per step of a work-item per element.
pub const DEVICE_STRIPS: StripLayout = StripLayout {
    length: 8,
    interleaved: true,
};

/// Runs the element-wise steps of `⍣` loops in short strips, one per work-item (the OpenCL form).
pub fn interchange_element_wise_steps_on_device(program: Program) -> Program {
    interchange_with_strips(program, DEVICE_STRIPS)
}

fn interchange_with_strips(mut program: Program, strips: StripLayout) -> Program {
    let mut next_id = program.largest_id();
    let mut next_blocks = Vec::new();
    interchange_in_list(&mut program.body, strips, &mut next_id, &mut next_blocks);
    for block in next_blocks {
        if !result_mentions_block(&program.result, block.id) {
            drop_if_only_allocated_and_freed(&mut program.body, block);
        }
    }
    program
}

/// Interchanges every eligible loop of the list (and of the lists nested in it, outside parallel constructs), and
/// collects the next blocks those loops no longer write.
fn interchange_in_list(
    statements: &mut Vec<Stmt>,
    strips: StripLayout,
    next_id: &mut u32,
    next_blocks: &mut Vec<Block>,
) {
    replace_statements_outside_parallel(statements, &mut |statements, position| {
        let steps = ElementWiseSteps::of(&statements[position])?;
        next_blocks.extend(steps.pairs.iter().map(|(_, next)| *next));
        Some(steps.interchanged(strips, next_id))
    });
}

/// Removes the `alloc` and `free` of a block that no other statement mentions any more (a next block of an
/// interchanged loop: the state is updated in place now).
fn drop_if_only_allocated_and_freed(statements: &mut Vec<Stmt>, block: Block) {
    let mut used = false;
    for_each_statement(statements, &mut |statement| {
        let allocation_or_free =
            matches!(statement, Stmt::Alloc { block: b, .. } | Stmt::Free { block: b } if *b == block);
        let own_mention = statement.nested_lists().is_empty() && mentions_block(statement, block.id);
        let expression_mention = statement_expressions(statement)
            .iter()
            .any(|expr| expr_loads_block(expr, block.id));
        used |= !allocation_or_free && (own_mention || expression_mention);
    });
    if !used {
        remove_allocation_and_free(statements, block);
    }
}

fn remove_allocation_and_free(statements: &mut Vec<Stmt>, block: Block) {
    statements.retain(
        |statement| !matches!(statement, Stmt::Alloc { block: b, .. } | Stmt::Free { block: b } if *b == block),
    );
    for statement in statements.iter_mut() {
        for list in statement.nested_lists_mut() {
            remove_allocation_and_free(list, block);
        }
    }
}

/// A sequential loop whose body is invariant checks, one element-wise parallel map and the swaps of the state's
/// blocks with the blocks the map writes.
struct ElementWiseSteps<'a> {
    step: &'a Var,
    steps: &'a Expr,
    checks: &'a [Stmt],
    element: &'a Var,
    elements: &'a Expr,
    map_body: &'a [Stmt],
    /// `(state, next)`: the map reads `state` at its index and stores `next` there; the step ends with their swap.
    pairs: Vec<(Block, Block)>,
}

impl<'a> ElementWiseSteps<'a> {
    fn of(statement: &'a Stmt) -> Option<ElementWiseSteps<'a>> {
        let Stmt::For {
            index: step,
            count: steps,
            body,
        } = statement
        else {
            return None;
        };
        let map_position = body.iter().position(|s| matches!(s, Stmt::ParallelFor { .. }))?;
        let Stmt::ParallelFor {
            index: element,
            count: elements,
            body: map_body,
        } = &body[map_position]
        else {
            return None;
        };
        if steps.as_int().is_some_and(|steps| steps <= 0) {
            return None;
        }
        let checks = &body[..map_position];
        let swaps = &body[map_position + 1..];
        if swaps.is_empty() || !checks.iter().all(|check| is_invariant_check(check, step)) {
            return None;
        }
        if mentions_variable(elements, step) || expr_loads_any_block(elements) {
            return None;
        }
        let pairs = swapped_pairs(swaps, map_body)?;
        let steps = ElementWiseSteps {
            step,
            steps,
            checks,
            element,
            elements,
            map_body,
            pairs,
        };
        steps.map_is_element_wise().then_some(steps)
    }

    fn is_state(&self, block: &Block) -> bool {
        self.pairs.iter().any(|(state, _)| state == block)
    }

    fn is_next(&self, block: &Block) -> bool {
        self.pairs.iter().any(|(_, next)| next == block)
    }

    /// Whether the map stores each next block once, at the top of its body and at its index; loads the state only at
    /// its index, each state block at least once where nothing guards the load; never loads a next block; and has no
    /// other effect on blocks (no allocation, free or swap).
    fn map_is_element_wise(&self) -> bool {
        let at_element = Expr::var(self.element);
        let mut top_level_stores = Vec::new();
        for statement in self.map_body {
            if let Stmt::Store { block, index, .. } = statement {
                if !self.is_next(block) || *index != at_element || top_level_stores.contains(block) {
                    return false;
                }
                top_level_stores.push(*block);
            }
        }
        if top_level_stores.len() != self.pairs.len() {
            return false;
        }
        let mut well_formed = true;
        for statement in self.map_body {
            for list in statement.nested_lists() {
                for_each_statement(list, &mut |nested| {
                    if matches!(nested, Stmt::Store { .. }) {
                        well_formed = false;
                    }
                });
            }
        }
        for_each_statement(self.map_body, &mut |statement| {
            if matches!(statement, Stmt::Alloc { .. } | Stmt::Free { .. } | Stmt::Swap { .. }) {
                well_formed = false;
            }
            for expr in statement_expressions(statement) {
                for_each_load(expr, &mut |block, index| {
                    if self.is_next(&block) || (self.is_state(&block) && *index != at_element) {
                        well_formed = false;
                    }
                });
            }
        });
        well_formed
            && self.pairs.iter().all(|(state, _)| {
                self.map_body.iter().any(|statement| match statement {
                    Stmt::Let { value, .. } | Stmt::Store { value, .. } => loads_unguarded(value, *state, &at_element),
                    _ => false,
                })
            })
    }

    /// The loop turned inside out (see the module documentation): the statements that replace it.
    fn interchanged(&self, layout: StripLayout, next_id: &mut u32) -> Vec<Stmt> {
        let total = fresh_variable(next_id, ScalarType::Int, "elements");
        let mut then = self.checks.to_vec();
        then.push(Stmt::Let {
            var: total.clone(),
            value: Expr::max(self.elements.clone(), Expr::Int(0)),
        });
        then.extend(self.strips_and_last_strip(&total, layout, next_id));
        // A constant number of steps is known to be positive here (a loop of no steps is left as it was).
        match self.steps.as_int() {
            Some(_) => then,
            None => vec![Stmt::If {
                condition: Expr::lt(Expr::Int(0), self.steps.clone()),
                then,
                otherwise: Vec::new(),
            }],
        }
    }

    /// The parallel map over whole strips, then the one over the elements of the last, partial strip (fewer than
    /// `strip_length` of them, so its work is mostly below the threshold of running on more than one thread).
    fn strips_and_last_strip(&self, total: &Var, layout: StripLayout, next_id: &mut u32) -> Vec<Stmt> {
        let strip_length = layout.length;
        let strips = fresh_variable(next_id, ScalarType::Int, "strips");
        let strip = fresh_variable(next_id, ScalarType::Int, "strip");
        let lane = fresh_variable(next_id, ScalarType::Int, "lane");
        let done = fresh_variable(next_id, ScalarType::Int, "done");
        let rest = fresh_variable(next_id, ScalarType::Int, "rest");
        let element_in_strip = Stmt::Let {
            var: self.element.clone(),
            value: match layout.interleaved {
                false => Expr::add_int(
                    Expr::mul_int(Expr::var(&strip), Expr::Int(strip_length)),
                    Expr::var(&lane),
                ),
                true => Expr::add_int(Expr::mul_int(Expr::var(&lane), Expr::var(&strips)), Expr::var(&strip)),
            },
        };
        let mut lane_body = vec![element_in_strip];
        lane_body.extend(self.in_place_body(next_id));
        let lanes = Stmt::For {
            index: lane,
            count: Expr::Int(strip_length),
            body: lane_body,
        };
        let element_of_rest = Stmt::Let {
            var: self.element.clone(),
            value: Expr::add_int(Expr::var(&done), Expr::var(&rest)),
        };
        let mut last_strip = vec![Stmt::ParallelFor {
            index: rest,
            count: Expr::sub_int(Expr::var(total), Expr::var(&done)),
            body: vec![self.all_steps_of_one_element(vec![element_of_rest], next_id)],
        }];
        // The last strip is a second copy of the body: its variables need names of their own.
        rename_defined_variables(&mut last_strip, next_id);
        let mut statements = vec![
            Stmt::Let {
                var: strips.clone(),
                value: Expr::div_int(Expr::var(total), Expr::Int(strip_length)),
            },
            Stmt::ParallelFor {
                index: strip,
                count: Expr::var(&strips),
                body: vec![Stmt::For {
                    index: self.step.clone(),
                    count: self.steps.clone(),
                    body: vec![lanes],
                }],
            },
            Stmt::Let {
                var: done,
                value: Expr::mul_int(Expr::var(&strips), Expr::Int(strip_length)),
            },
        ];
        statements.extend(last_strip);
        statements
    }

    /// `for it < K { prelude; body }`: one element through every step.
    fn all_steps_of_one_element(&self, prelude: Vec<Stmt>, next_id: &mut u32) -> Stmt {
        let mut body = prelude;
        body.extend(self.in_place_body(next_id));
        Stmt::For {
            index: self.step.clone(),
            count: self.steps.clone(),
            body,
        }
    }

    /// The map's body updating the state in place: each `store next[i] = e` becomes `let v = e`, and the stores of
    /// the `v`s to the state blocks follow the body's last statement (so every load of the state reads the
    /// element's value before this step).
    fn in_place_body(&self, next_id: &mut u32) -> Vec<Stmt> {
        let mut body = Vec::new();
        let mut stores = Vec::new();
        for statement in self.map_body {
            let Stmt::Store { block, index, value } = statement else {
                body.push(statement.clone());
                continue;
            };
            let (state, _) = self
                .pairs
                .iter()
                .find(|(_, next)| next == block)
                .expect("the map stores next blocks");
            let var = Var {
                ty: block.element,
                ..fresh_variable(next_id, ScalarType::Int, "next")
            };
            body.push(Stmt::Let {
                var: var.clone(),
                value: value.clone(),
            });
            stores.push(Stmt::Store {
                block: *state,
                index: index.clone(),
                value: Expr::var(&var),
            });
        }
        body.extend(stores);
        body
    }
}

/// Whether a statement before the map is an invariant check: a `let` of a value that loads nothing, a view, or an
/// `if` on such a value whose branches hold only checks and errors, none of them reading the step's index. Such
/// statements have the same outcome at every step.
fn is_invariant_check(statement: &Stmt, step: &Var) -> bool {
    let invariant = |expr: &Expr| !expr_loads_any_block(expr) && !mentions_variable(expr, step);
    match statement {
        Stmt::Let { value, .. } => invariant(value),
        Stmt::View { shape, .. } => shape.iter().all(invariant),
        Stmt::Error { .. } => true,
        Stmt::If {
            condition,
            then,
            otherwise,
        } => {
            invariant(condition)
                && then
                    .iter()
                    .chain(otherwise)
                    .all(|nested| is_invariant_check(nested, step))
        }
        _ => false,
    }
}

/// The `(state, next)` pairs of the swaps that end a step, when every statement there is a swap of a block the map
/// stores (next) with one it does not (the state), no block is in two swaps, and the map stores no other block.
fn swapped_pairs(swaps: &[Stmt], map_body: &[Stmt]) -> Option<Vec<(Block, Block)>> {
    let stored = blocks_stored_in(map_body);
    let mut pairs: Vec<(Block, Block)> = Vec::new();
    for swap in swaps {
        let Stmt::Swap { first, second } = swap else {
            return None;
        };
        let pair = match (stored.contains(first), stored.contains(second)) {
            (false, true) => (*first, *second),
            (true, false) => (*second, *first),
            _ => return None,
        };
        if pairs
            .iter()
            .any(|(a, b)| [a, b].iter().any(|block| **block == pair.0 || **block == pair.1))
        {
            return None;
        }
        pairs.push(pair);
    }
    (stored.len() == pairs.len()).then_some(pairs)
}

fn mentions_variable(expr: &Expr, var: &Var) -> bool {
    let mut read = HashSet::new();
    variables_of(expr, &mut read);
    read.contains(&var.id)
}

/// Whether evaluating `expr` always loads `block[index]`: a load outside the branches of every select.
fn loads_unguarded(expr: &Expr, block: Block, index: &Expr) -> bool {
    match expr {
        Expr::Load {
            block: loaded,
            index: at,
        } => (*loaded == block && **at == *index) || loads_unguarded(at, block, index),
        Expr::Prim(_, args) => args.iter().any(|arg| loads_unguarded(arg, block, index)),
        Expr::Select(condition, _, _) => loads_unguarded(condition, block, index),
        Expr::At(_, inner) | Expr::Threshold { value: inner, .. } => loads_unguarded(inner, block, index),
        _ => false,
    }
}

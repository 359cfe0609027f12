//! In-place updates (FUNMEM's reuse of a dying block, ../shared/design/funmem-and-tuning.md): lowering implements a
//! functional update such as `g[i;j]←1` by copying the whole array into a fresh block and storing into the copy:
//!
//! ```text
//! alloc mem4 : bool[36]
//! for i5 < 36 {
//!   store mem4[i5] = mem2[i5]
//! }
//! free mem2
//! store mem4[8] = tt
//! ```
//!
//! When the source block dies at the copy (nothing mentions it between the copy and its `free`), the copy is the only
//! reader of the old value, so the new array may take over the old block: the `alloc`, the copy loop and the `free`
//! go, and the later statements use `mem2` where they used `mem4`.
//!
//! Why this is sound: blocks are the only way the loop IR reaches memory, and two distinct blocks never share
//! elements (each is a fresh allocation; views and LMADs only re-address one block, and a `view` of the source
//! mentions it). `swap` is the one statement that makes a block name denote another buffer, and it mentions both
//! blocks. So "no statement mentions the source between the copy and its free" proves that no alias of the old
//! value is read after the copy, and the copy (same element type, identity index, as many elements as the new block
//! holds) leaves the new block equal to the old one on every element a correct program reads.

use crate::loops::ir::{Block, Expr, Program, ResultValue, Stmt};
use std::collections::HashSet;

use crate::loops::rewrite::{expr_loads_block, mentions_block, variables_of};
use crate::loops::rewrite::{nested_lists_mut, rename_block, rename_block_in_result};

/// The pass: every copy whose source dies at it becomes a reuse of the source block.
pub fn reuse_dying_blocks(mut program: Program) -> Program {
    reuse_in_list(&mut program.body, &mut program.result);
    program
}

fn reuse_in_list(statements: &mut Vec<Stmt>, result: &mut ResultValue) {
    for statement in statements.iter_mut() {
        for list in nested_lists_mut(statement) {
            reuse_in_list(list, result);
        }
    }
    let mut position = 0;
    while position < statements.len() {
        match dying_copy_at(statements, position) {
            Some(DyingCopy { source, target, free }) => {
                // Remove from the back so that the earlier positions stay valid.
                statements.remove(free);
                statements.remove(position + 1);
                statements.remove(position);
                rename_block(&mut statements[position..], target, source);
                rename_block_in_result(result, target, source);
            }
            None => position += 1,
        }
    }
}

/// A copy of `source` into a fresh `target` whose source dies at it; `free` is the position of `free source`.
struct DyingCopy {
    source: Block,
    target: Block,
    free: usize,
}

/// Whether `statements[position]` starts `alloc target : t[n]; for i < n { store target[i] = source[i] }` and the
/// statements after the copy do not mention `source` before its `free`.
fn dying_copy_at(statements: &[Stmt], position: usize) -> Option<DyingCopy> {
    let Stmt::Alloc {
        block: target, size, ..
    } = statements.get(position)?
    else {
        return None;
    };
    let source = whole_copy_source(statements.get(position + 1)?, *target, size)?;
    let free = (position + 2..statements.len())
        .find(|&later| mentions_block(&statements[later], source.id))
        .filter(|&later| statements[later] == Stmt::Free { block: source })?;
    Some(DyingCopy {
        source,
        target: *target,
        free,
    })
}

/// The source of `for i < size { store target[i] = source[i] }`, a copy of a whole block of the same element type.
fn whole_copy_source(statement: &Stmt, target: Block, size: &Expr) -> Option<Block> {
    let copy = identity_copy(statement)?;
    (copy.count == size && copy.target == target).then_some(copy.source)
}

/// `for i < count { store target[i] = source[i] }` between two blocks of one element type.
struct IdentityCopy<'a> {
    target: Block,
    source: Block,
    count: &'a Expr,
}

fn identity_copy(statement: &Stmt) -> Option<IdentityCopy<'_>> {
    let Stmt::For { index, count, body } = statement else {
        return None;
    };
    let [Stmt::Store {
        block,
        index: Expr::Var(stored_at),
        value: Expr::Load {
            block: source,
            index: loaded_at,
        },
    }] = body.as_slice()
    else {
        return None;
    };
    let identity = stored_at == index && matches!(&**loaded_at, Expr::Var(loaded) if loaded == index);
    (*source != *block && source.element == block.element && identity).then_some(IdentityCopy {
        target: *block,
        source: *source,
        count,
    })
}

/// Runs a pass's rewrite of a list on every list nested in the statements (inner lists first).
fn for_each_nested_list(statements: &mut [Stmt], rewrite: fn(&mut Vec<Stmt>)) {
    for statement in statements.iter_mut() {
        for list in nested_lists_mut(statement) {
            rewrite(list);
        }
    }
}

// ---- Updates of a loop's state ----
//
// A `⍣` step that updates its state array (`r[i;]←v` on the state, as the prelude's loops over cells do) copies the
// state S into a fresh block T, stores into T, and, since the state keeps its shape, copies T into the loop's second
// buffer B, which the end of the iteration swaps with S (`double_buffer.rs` explains the buffers):
//
//     for it < n {
//       ...
//       alloc T : int[n]
//       for i < n { store T[i] = S[i] }        (nothing below mentions S until the swap)
//       ... stores into T ...
//       for i < m { store B[i] = T[i] }
//       free T
//       swap S, B
//     }
//
// Two whole copies per iteration make such a loop quadratic in the state's size. When nothing between the first
// copy and the swap mentions S, the old state is read only by that copy, so the step may store into S itself: the
// statements in between use S for T, and the allocation, both copies, the free and the swap go. B is then unused; its
// allocation and free around the loop go too, when nothing else mentions it.

/// The pass: every loop step that copies its state array to update it updates the state in place.
pub fn update_loop_states_in_place(mut program: Program) -> Program {
    update_states_in_list(&mut program.body);
    program
}

fn update_states_in_list(statements: &mut Vec<Stmt>) {
    for_each_nested_list(statements, update_states_in_list);
    let mut position = 0;
    while position < statements.len() {
        loop {
            let (before, rest) = statements.split_at_mut(position);
            let (the_loop, after) = rest.split_first_mut().expect("position is inside the list");
            let body = match the_loop {
                Stmt::For { body, .. } | Stmt::While { body, .. } => body,
                _ => break,
            };
            let outside_only_allocates_and_frees = |buffer: Block| {
                before.iter().chain(after.iter()).all(|statement| {
                    !mentions_block(statement, buffer.id)
                        || matches!(statement, Stmt::Alloc { block, .. } | Stmt::Free { block } if *block == buffer)
                })
            };
            let Some(update) = state_update_in(body).filter(|update| outside_only_allocates_and_frees(update.buffer))
            else {
                break;
            };
            let buffer = update.buffer;
            update.apply(body);
            let unused = |statement: &Stmt| matches!(statement, Stmt::Alloc { block, .. } | Stmt::Free { block } if *block == buffer);
            position -= statements[..position]
                .iter()
                .filter(|statement| unused(statement))
                .count();
            statements.retain(|statement| !unused(statement));
        }
        position += 1;
    }
}

/// An update of a loop's state block through a copy, found in the loop's body (positions in the body).
struct StateUpdate {
    state: Block,
    copy: Block,
    buffer: Block,
    alloc: usize,
    fill: usize,
    free: usize,
    swap: usize,
}

impl StateUpdate {
    fn apply(self, body: &mut Vec<Stmt>) {
        rename_block(&mut body[self.alloc + 2..self.fill], self.copy, self.state);
        for position in [self.swap, self.free, self.fill, self.alloc + 1, self.alloc] {
            body.remove(position);
        }
    }
}

/// The first update of a state block through a copy in a loop body, as the comment above describes it.
fn state_update_in(body: &[Stmt]) -> Option<StateUpdate> {
    (0..body.len()).find_map(|alloc| state_update_at(body, alloc))
}

fn state_update_at(body: &[Stmt], alloc: usize) -> Option<StateUpdate> {
    let Stmt::Alloc { block: copy, size, .. } = body.get(alloc)? else {
        return None;
    };
    let state = whole_copy_source(body.get(alloc + 1)?, *copy, size)?;
    let swap = (alloc + 2..body.len()).find(|&later| mentions_block(&body[later], state.id))?;
    let Stmt::Swap { first, second: buffer } = &body[swap] else {
        return None;
    };
    let fill = (alloc + 2..swap).find(|&later| {
        identity_copy(&body[later]).is_some_and(|fill| fill.source == *copy && fill.target == *buffer)
    })?;
    // After the fill, the copy is only freed: a store into it there would not reach the buffer.
    let free = (fill + 1..swap).find(|&later| mentions_block(&body[later], copy.id))?;
    let copy_dies = body[free] == Stmt::Free { block: *copy }
        && !body[free + 1..swap]
            .iter()
            .any(|statement| mentions_block(statement, copy.id));
    // The buffer holds the state only from the fill to the swap: nothing else in the loop may read or write it.
    let buffer_private = body
        .iter()
        .enumerate()
        .all(|(position, statement)| position == fill || position == swap || !mentions_block(statement, buffer.id));
    (*first == state && copy_dies && buffer_private).then_some(StateUpdate {
        state,
        copy: *copy,
        buffer: *buffer,
        alloc,
        fill,
        free,
        swap,
    })
}

// ---- States refilled from their second buffer ----
//
// A loop whose step hands its state array to an inner loop (a tradfn's `:For` in a `:For`, a `⍣` in a `⍣`) starts
// each iteration by filling the state's second buffer B from the state S, lets the inner loop update B, and swaps
// (after `hoist.rs` has moved B's allocation before the loop):
//
//     alloc B : int[n]
//     for it < m {
//       for i < n { store B[i] = S[i] }        (nothing below mentions S until the swap)
//       ... B updated ...
//       swap S, B
//     }
//     free B
//
// The copy makes each iteration cost the whole state. Nothing reads S between the fill and the swap, and nothing else
// in the loop mentions B, so the step may update S itself: the fill and the swap go, and the statements in between
// use S for B. B and S have one size: a block allocated outside the loop that the loop swaps with S in every
// iteration is S's second buffer (`double_buffer.rs` allocates it with S's size), and the fill covers all of it.
// B is then unused; its allocation and free stay (one idle buffer).

/// The pass: every loop step that refills its state's second buffer to update it updates the state in place.
pub fn update_refilled_states_in_place(mut program: Program) -> Program {
    update_refilled_states_in_list(&mut program.body);
    program
}

fn update_refilled_states_in_list(statements: &mut [Stmt]) {
    for statement in statements.iter_mut() {
        for list in nested_lists_mut(statement) {
            update_refilled_states_in_list(list);
        }
    }
    for position in 0..statements.len() {
        let (before, rest) = statements.split_at_mut(position);
        let (the_loop, after) = rest.split_first_mut().expect("position is inside the list");
        let body = match the_loop {
            Stmt::For { body, .. } | Stmt::While { body, .. } => body,
            _ => continue,
        };
        // The buffer is allocated before the loop with the size the fill covers, and only freed after it.
        let second_buffer = |buffer: Block, filled: &Expr| {
            let allocated_as_filled = before.iter().any(
                |statement| matches!(statement, Stmt::Alloc { block, size, .. } if *block == buffer && size == filled),
            );
            let only_freed_after = after
                .iter()
                .all(|statement| !mentions_block(statement, buffer.id) || *statement == Stmt::Free { block: buffer });
            allocated_as_filled && only_freed_after
        };
        while let Some(refill) = refilled_state_in(body, &second_buffer) {
            rename_block(&mut body[refill.fill + 1..refill.swap], refill.buffer, refill.state);
            body.remove(refill.swap);
            body.remove(refill.fill);
        }
    }
}

/// A refill of a state's second buffer in a loop body (positions in the body).
struct Refill {
    state: Block,
    buffer: Block,
    fill: usize,
    swap: usize,
}

/// The first refill in a loop body, as the comment above describes it, whose buffer `second_buffer` accepts.
fn refilled_state_in(body: &[Stmt], second_buffer: &dyn Fn(Block, &Expr) -> bool) -> Option<Refill> {
    (0..body.len()).find_map(|fill| {
        let copy = identity_copy(&body[fill])?;
        let (state, buffer) = (copy.source, copy.target);
        let swap = (fill + 1..body.len()).find(|&later| mentions_block(&body[later], state.id))?;
        let swaps_the_two = body[swap]
            == Stmt::Swap {
                first: state,
                second: buffer,
            };
        // Only the fill, the statements in between and the swap mention the buffer.
        let buffer_private = body
            .iter()
            .enumerate()
            .all(|(position, statement)| (fill..=swap).contains(&position) || !mentions_block(statement, buffer.id));
        (swaps_the_two && buffer_private && second_buffer(buffer, copy.count)).then_some(Refill {
            state,
            buffer,
            fill,
            swap,
        })
    })
}

// ---- States updated in one branch of a conditional ----
//
// A conditional whose branches both yield the state array, one updated (`:If V[J]>V[J+1] ⋄ V[J]←... ⋄ :EndIf` in a
// loop, a dfn's guard), joins them in a fresh block J: lowering runs each branch on a copy of the state S and swaps
// the copy into J (`loop_state.rs`'s `conditional_state`), and J replaces S at the end:
//
//     alloc J : t[0]
//     ... (reads of S)
//     if c {
//       alloc B1 : t[n]; for i < n { store B1[i] = S[i] }
//       ... stores into B1 ...
//       swap J, B1; free B1
//     }
//     if notb(c) {
//       alloc B2 : t[n]; for i < n { store B2[i] = S[i] }
//       swap J, B2; free B2
//     }
//     swap S, J; free J
//
// Each branch copies the whole state, so a loop over such a step is quadratic. Exactly one of the two branches runs:
// their conditions are negations of each other, and nothing between them changes the condition's value. The branch
// that runs reads S, as it was when J was allocated, only up to its first store into its copy, and nothing reads S
// after the branches; so the branch may store into S itself. Each branch's statements between its copy and its swap
// use S for its copy, and the allocations, copies, swaps and frees of the copies and of J go.
//
// A chain of conditions (`:If … :ElseIf … :Else`) nests: the branch for "not the first condition" holds the next
// conditional, whose own join J2 is filled the same way and then swapped into J (`swap J, J2; free J2`). Such a
// branch counts as one that fills J, and the whole nest is rewritten at once: every branch that runs stores into S.

/// The pass: every state updated through a conditional's two branches is updated in place.
pub fn update_joined_states_in_place(mut program: Program) -> Program {
    update_joined_states_in_list(&mut program.body);
    program
}

fn update_joined_states_in_list(statements: &mut Vec<Stmt>) {
    for_each_nested_list(statements, update_joined_states_in_list);
    while let Some(join) = (0..statements.len()).find_map(|alloc| joined_state_at(statements, alloc)) {
        join.apply(statements);
    }
}

/// A join block filled by a conditional's two branches from copies of `state` (positions in the list): allocated
/// at `alloc`, swapped into its target at `swap` and freed at `swap + 1`. At the top the target is the state
/// itself; the join of an `:ElseIf`'s conditional, which sits in the `:Else` branch of the one before it, is swapped
/// into that conditional's join instead.
struct JoinedState {
    state: Block,
    alloc: usize,
    swap: usize,
    branches: [JoinBranch; 2],
}

/// One branch of the conditional: the `if` at `position`, whose `then` list (or `otherwise` list) fills the join.
struct JoinBranch {
    position: usize,
    in_then: bool,
    fill: BranchFill,
}

/// How a branch fills the join.
enum BranchFill {
    /// It copies the state into `copy` at `alloc` and `alloc + 1`, and swaps the copy into the join at `swap`,
    /// freeing it at `swap + 1`.
    Copy { copy: Block, alloc: usize, swap: usize },
    /// A nested conditional fills its own join from copies of the state, which this branch swaps into this join.
    Nested(Box<JoinedState>),
}

impl JoinedState {
    fn apply(self, statements: &mut Vec<Stmt>) {
        for branch in self.branches {
            let Stmt::If { then, otherwise, .. } = &mut statements[branch.position] else {
                unreachable!("a join's branch is an if");
            };
            let list = if branch.in_then { then } else { otherwise };
            match branch.fill {
                BranchFill::Copy { copy, alloc, swap } => {
                    rename_block(&mut list[alloc + 2..swap], copy, self.state);
                    for position in [swap + 1, swap, alloc + 1, alloc] {
                        list.remove(position);
                    }
                }
                BranchFill::Nested(inner) => inner.apply(list),
            }
        }
        // `free J` follows the swap of J into its target.
        for position in [self.swap + 1, self.swap, self.alloc] {
            statements.remove(position);
        }
    }
}

/// A join at `alloc` that the list swaps into the state it copies (`swap S, J; free J`).
fn joined_state_at(statements: &[Stmt], alloc: usize) -> Option<JoinedState> {
    let Stmt::Alloc { block: join, .. } = statements.get(alloc)? else {
        return None;
    };
    let swap = (alloc + 1..statements.len())
        .find(|&later| matches!(&statements[later], Stmt::Swap { first, second } if second == join && first != join))?;
    let Stmt::Swap { first: state, .. } = statements[swap] else {
        return None;
    };
    join_between(statements, alloc, swap, state)
}

/// The join allocated at `alloc` and swapped into its target at `swap` (then freed), when its two branches fill it
/// from copies of `state` as the comment above describes.
fn join_between(statements: &[Stmt], alloc: usize, swap: usize, state: Block) -> Option<JoinedState> {
    let Stmt::Alloc { block: join, .. } = statements.get(alloc)? else {
        return None;
    };
    if statements.get(swap + 1) != Some(&Stmt::Free { block: *join }) {
        return None;
    }
    let mut branches = Vec::new();
    for (position, statement) in statements.iter().enumerate().take(swap).skip(alloc + 1) {
        if mentions_block(statement, join.id) {
            branches.push(join_branch(statement, position, *join, state)?);
        } else if mentions_block_at_run_time(statement, state.id) && !reads_only(statement) {
            return None;
        }
    }
    let [first, second]: [JoinBranch; 2] = branches.try_into().ok()?;
    // The statements that read S outside the branches come before the first branch to run.
    let reads_after_first = (first.position + 1..swap)
        .any(|position| position != second.position && mentions_block_at_run_time(&statements[position], state.id));
    (!reads_after_first && exactly_one_runs(statements, &first, &second, state)).then_some(JoinedState {
        state,
        alloc,
        swap,
        branches: [first, second],
    })
}

/// The branch in `statement` (an `if` whose condition does not read the join) that fills the join from a copy of
/// the state, reading the state only up to its first store into the copy, or from a nested join.
fn join_branch(statement: &Stmt, position: usize, join: Block, state: Block) -> Option<JoinBranch> {
    let Stmt::If {
        condition,
        then,
        otherwise,
    } = statement
    else {
        return None;
    };
    if expr_loads_block(condition, join.id) {
        return None;
    }
    let mentions_join = |list: &[Stmt]| list.iter().any(|s| mentions_block(s, join.id));
    let (list, other, in_then) = match (mentions_join(then), mentions_join(otherwise)) {
        (true, false) => (then, otherwise, true),
        (false, true) => (otherwise, then, false),
        _ => return None,
    };
    if other.iter().any(|s| mentions_block(s, state.id)) {
        return None;
    }
    let swap = list
        .iter()
        .position(|s| matches!(s, Stmt::Swap { first, .. } if *first == join))?;
    let Stmt::Swap { second: filled, .. } = list[swap] else {
        return None;
    };
    let alloc = list
        .iter()
        .position(|s| matches!(s, Stmt::Alloc { block, .. } if *block == filled))?;
    let Stmt::Alloc { size, .. } = &list[alloc] else {
        return None;
    };
    let filled_freed_at_swap = list.get(swap + 1) == Some(&Stmt::Free { block: filled });
    let join_only_at_swap = list
        .iter()
        .enumerate()
        .all(|(at, s)| at == swap || !mentions_block(s, join.id));
    let filled_only_between = list
        .iter()
        .enumerate()
        .all(|(at, s)| (alloc..=swap + 1).contains(&at) || !mentions_block(s, filled.id));
    if !(alloc < swap && filled_freed_at_swap && join_only_at_swap && filled_only_between) {
        return None;
    }
    let fill = if whole_copy_source(list.get(alloc + 1)?, filled, size) == Some(state) {
        // The state is read before the first statement that touches the copy after filling it, or by that
        // statement when it is a single store (whose index and value are read before it stores).
        let first_touch = (alloc + 2..=swap).find(|&at| mentions_block(&list[at], filled.id))?;
        let state_read_early = list.iter().enumerate().skip(alloc + 2).all(|(at, s)| {
            at < first_touch
                || (at == first_touch && matches!(s, Stmt::Store { block, .. } if *block == filled))
                || !mentions_block_at_run_time(s, state.id)
        });
        if !state_read_early {
            return None;
        }
        BranchFill::Copy {
            copy: filled,
            alloc,
            swap,
        }
    } else {
        // A nested join, which checks its own reads of the state; nothing after it reads the state.
        let inner = join_between(list, alloc, swap, state)?;
        if list[swap + 2..].iter().any(|s| mentions_block_at_run_time(s, state.id)) {
            return None;
        }
        BranchFill::Nested(Box::new(inner))
    };
    Some(JoinBranch {
        position,
        in_then,
        fill,
    })
}

/// Whether exactly one of the two branches runs: their conditions are negations of each other, and the condition
/// has one value at both: none of its variables is assigned in between (or by the first branch), and none of the
/// blocks it loads is touched there, the state excepted when the first branch only copies it.
fn exactly_one_runs(statements: &[Stmt], first: &JoinBranch, second: &JoinBranch, state: Block) -> bool {
    let condition_of = |branch: &JoinBranch| match &statements[branch.position] {
        Stmt::If { condition, .. } if branch.in_then => Some(condition.clone()),
        Stmt::If { condition, .. } => Some(Expr::not_bool(condition.clone())),
        _ => None,
    };
    let (Some(first_condition), Some(second_condition)) = (condition_of(first), condition_of(second)) else {
        return false;
    };
    if Expr::not_bool(first_condition.clone()) != second_condition
        && first_condition != Expr::not_bool(second_condition)
    {
        return false;
    }
    let mut variables = HashSet::new();
    variables_of(&first_condition, &mut variables);
    let mut loaded = HashSet::new();
    crate::loops::ir::for_each_load(&first_condition, &mut |block, _| {
        loaded.insert(block.id);
    });
    let in_between = &statements[first.position..second.position];
    let assigns_a_variable = in_between.iter().any(|statement| {
        let mut assigns = false;
        crate::loops::ir::for_each_statement(std::slice::from_ref(statement), &mut |s| {
            assigns |= matches!(s, Stmt::Assign { var, .. } if variables.contains(&var.id));
        });
        assigns
    });
    let first_only_copies = first_branch_only_copies(&statements[first.position], first);
    let touches_a_loaded_block = loaded.iter().any(|&id| {
        if id == state.id {
            !first_only_copies
        } else {
            in_between[1..].iter().any(|s| mentions_block(s, id))
                || statement_lists_mention(&statements[first.position], id)
        }
    });
    !assigns_a_variable && !touches_a_loaded_block
}

/// Whether the branch's copy is never touched between its fill and its swap (the branch leaves the state as it is;
/// a nested join is taken to change it).
fn first_branch_only_copies(statement: &Stmt, branch: &JoinBranch) -> bool {
    let Stmt::If { then, otherwise, .. } = statement else {
        return false;
    };
    let list = if branch.in_then { then } else { otherwise };
    match &branch.fill {
        BranchFill::Copy { copy, alloc, swap } => !list[alloc + 2..*swap].iter().any(|s| mentions_block(s, copy.id)),
        BranchFill::Nested(_) => false,
    }
}

/// Whether the statement lists of an `if` (not its condition) mention the block.
fn statement_lists_mention(statement: &Stmt, id: u32) -> bool {
    statement
        .nested_lists()
        .into_iter()
        .any(|list| list.iter().any(|s| mentions_block(s, id)))
}

/// Whether a statement mentions the block other than in a top-level `view` (a decoration, read by nothing).
fn mentions_block_at_run_time(statement: &Stmt, id: u32) -> bool {
    !matches!(statement, Stmt::View { .. }) && mentions_block(statement, id)
}

/// Whether a statement only computes a scalar (which may load from blocks) or decorates.
fn reads_only(statement: &Stmt) -> bool {
    matches!(
        statement,
        Stmt::Let { .. } | Stmt::Mutable { .. } | Stmt::Assign { .. } | Stmt::View { .. }
    )
}

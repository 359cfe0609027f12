//! Loops and conditionals over a state: `power` (⍣ with a count), `powerUntil` (⍣ with a predicate, and the loops
//! that tail-recursive dfns become) and `condScl` (a guard that returns its argument or a function of it). The state
//! is a scalar, an array, or a tuple of them (a strand such as `(zr zi n)`, nested tuples included).
//!
//! - Scalars are mutable variables, assigned the next values after the whole next state has been computed.
//! - Arrays live in blocks, one per array of the state, with their shape in variables. When the body gives an array
//!   the shape it had (the same shape expressions), its next value goes to a second block allocated once before the
//!   loop and the two are swapped after each iteration (double buffering); otherwise each iteration allocates the
//!   next array in a new block with a new shape. Every next array is computed before any block is swapped, so a
//!   component may read any other component of the state it replaces.
//!
//! A state of scalars only needs no block: its loop keeps everything in variables.

use super::lower::{Function, LowerResult, Lowered, Lowerer};
use super::pull::{Arr, Materialised, Pull};
use crate::loops::error::LowerError;
use crate::loops::ir::{Block, Expr, Layout, ScalarType, Stmt, Var};

/// The structure of a loop state: a scalar, an array, or a tuple of states.
#[derive(Clone, Debug, PartialEq)]
enum StateShape {
    Scalar,
    Array,
    Tuple(Vec<StateShape>),
}

impl StateShape {
    fn has_array(&self) -> bool {
        match self {
            StateShape::Scalar => false,
            StateShape::Array => true,
            StateShape::Tuple(components) => components.iter().any(StateShape::has_array),
        }
    }
}

/// One scalar or array of a state, in the order of the state's leaves.
enum Leaf {
    Scalar(Expr),
    Array(Arr),
}

/// An array of a state in a loop: its block and shape variables now, and what the body computes next.
struct ArrayOfState {
    element: ScalarType,
    /// The shape of the initial array.
    initial_shape: Vec<Expr>,
    /// The variables that hold the current shape (`let`s when the body keeps it, mutables otherwise).
    shape_vars: Vec<Var>,
    current: Materialised,
}

/// How often a power loop runs.
enum Repeat {
    Times(Expr),
    Until(Function),
}

/// A state rebuilt from its leaves, in order.
fn rebuild_state(shape: &StateShape, leaves: &mut dyn Iterator<Item = Lowered>) -> Lowered {
    match shape {
        StateShape::Scalar | StateShape::Array => leaves.next().expect("one leaf per scalar or array"),
        StateShape::Tuple(components) => Lowered::Tuple(components.iter().map(|c| rebuild_state(c, leaves)).collect()),
    }
}

impl Lowerer {
    /// `power(f, n, x)`: n applications of f.
    pub(super) fn power(&mut self, function: Function, count: Expr, value: Lowered) -> LowerResult<Lowered> {
        let count = self.bind(count, "times");
        let (template, leaves) = self.flatten_state(value)?;
        if template.has_array() {
            return self.repeat_state(function, Repeat::Times(count), template, leaves);
        }
        let current = self.state_variables(leaves);
        self.for_loop(count, "it", |lowerer, _| {
            let argument = scalar_state(&template, &mut current.iter().map(Expr::var));
            let next = lowerer.apply(&function, vec![argument])?;
            let next = lowerer.next_scalars(&template, next)?;
            lowerer.assign_each(&current, next);
            Ok(())
        })?;
        Ok(scalar_state(&template, &mut current.iter().map(Expr::var)))
    }

    /// A mutable variable for each scalar of a state without arrays.
    fn state_variables(&mut self, leaves: Vec<Leaf>) -> Vec<Var> {
        scalar_leaves(leaves)
            .into_iter()
            .map(|value| self.mutable(value, "x"))
            .collect()
    }

    /// `powerUntil(f, p, x)`: `y ← f x` until `p(y, x)`, then y.
    pub(super) fn power_until(
        &mut self,
        function: Function,
        predicate: Function,
        initial: Lowered,
    ) -> LowerResult<Lowered> {
        let (template, leaves) = self.flatten_state(initial)?;
        if template.has_array() {
            return self.repeat_state(function, Repeat::Until(predicate), template, leaves);
        }
        let current = self.state_variables(leaves);
        let as_state = |values: &mut dyn Iterator<Item = Expr>| scalar_state(&template, values);
        let done = self.mutable(Expr::Bool(false), "done");
        let (body, ()) = self.capture(|lowerer| {
            let argument = as_state(&mut current.iter().map(Expr::var));
            let next = lowerer.apply(&function, vec![argument.clone()])?;
            let next = lowerer.next_scalars(&template, next)?;
            let next_value = as_state(&mut next.iter().cloned());
            let stop = lowerer.apply(&predicate, vec![next_value, argument])?;
            let stop = lowerer.as_scalar(stop)?;
            let stop = lowerer.bind(stop, "stop");
            lowerer.assign_each(&current, next);
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
        Ok(as_state(&mut current.iter().map(Expr::var)))
    }

    /// `condScl(f, b, x)`: f x when b, otherwise x.
    pub(super) fn conditional(&mut self, function: Function, condition: Expr, value: Lowered) -> LowerResult<Lowered> {
        let (template, leaves) = self.flatten_state(value)?;
        if template.has_array() {
            return self.conditional_state(function, condition, template, leaves);
        }
        let values: Vec<Expr> = scalar_leaves(leaves).into_iter().map(|v| self.bind(v, "x")).collect();
        if let (StateShape::Scalar, [value]) = (&template, values.as_slice()) {
            let ty = value.ty();
            let result = self.choose(
                condition,
                ty,
                |lowerer| lowerer.apply_scalar(&function, std::slice::from_ref(value)),
                |_| Ok(value.clone()),
            )?;
            return Ok(Lowered::Scalar(result));
        }
        let results: Vec<Var> = values.iter().map(|v| self.mutable(v.clone(), "r")).collect();
        let (then, ()) = self.capture(|lowerer| {
            let argument = scalar_state(&template, &mut values.iter().cloned());
            let applied = lowerer.apply(&function, vec![argument])?;
            let outputs = scalar_leaves(lowerer.flatten_like(&template, applied)?);
            lowerer.assign_each(&results, outputs);
            Ok(())
        })?;
        self.emit_if(condition, then, vec![]);
        Ok(rebuild_state(
            &template,
            &mut results.iter().map(|var| Lowered::Scalar(Expr::var(var))),
        ))
    }

    /// The leaves of a state (a scalar, an array of rank ≥ 1, or a tuple of states), in order, and its structure.
    fn flatten_state(&mut self, value: Lowered) -> LowerResult<(StateShape, Vec<Leaf>)> {
        match value {
            Lowered::Scalar(expr) => Ok((StateShape::Scalar, vec![Leaf::Scalar(expr)])),
            Lowered::Array(arr) if arr.rank() == 0 => {
                let expr = self.as_scalar(Lowered::Array(arr))?;
                Ok((StateShape::Scalar, vec![Leaf::Scalar(expr)]))
            }
            Lowered::Array(arr) => Ok((StateShape::Array, vec![Leaf::Array(arr)])),
            Lowered::Tuple(components) => {
                let mut shapes = Vec::new();
                let mut leaves = Vec::new();
                for component in components {
                    let (shape, mut more) = self.flatten_state(component)?;
                    shapes.push(shape);
                    leaves.append(&mut more);
                }
                Ok((StateShape::Tuple(shapes), leaves))
            }
            Lowered::Function(_) => Err(LowerError::unsupported("functions as the state of a loop")),
        }
    }

    /// The leaves of a body's result, read as the leaves of a state of structure `template`. An array component the
    /// body gives as a scalar is a rank-0 array (it then has another shape than the state's array).
    fn flatten_like(&mut self, template: &StateShape, value: Lowered) -> LowerResult<Vec<Leaf>> {
        match (template, value) {
            (StateShape::Array, Lowered::Scalar(expr)) => Ok(vec![Leaf::Array(Arr::Pull(Pull::scalar(expr)))]),
            (StateShape::Array, Lowered::Array(arr)) => Ok(vec![Leaf::Array(self.indexable(arr)?)]),
            (StateShape::Tuple(shapes), Lowered::Tuple(components)) if shapes.len() == components.len() => {
                let mut leaves = Vec::new();
                for (shape, component) in shapes.iter().zip(components) {
                    leaves.append(&mut self.flatten_like(shape, component)?);
                }
                Ok(leaves)
            }
            (StateShape::Scalar, value) => {
                let (shape, leaves) = self.flatten_state(value)?;
                match shape {
                    StateShape::Scalar => Ok(leaves),
                    _ => Err(LowerError::ill_typed("a loop body changes the shape of its state")),
                }
            }
            _ => Err(LowerError::ill_typed("a loop body changes the shape of its state")),
        }
    }

    /// The scalars of a body's result for a state of scalars, each bound to a fresh variable (so that assigning the
    /// state variables one after the other cannot clobber a value still to be read).
    fn next_scalars(&mut self, template: &StateShape, next: Lowered) -> LowerResult<Vec<Expr>> {
        let leaves = self.flatten_like(template, next)?;
        Ok(scalar_leaves(leaves)
            .into_iter()
            .map(|value| self.bind_fresh(value, "next"))
            .collect())
    }

    /// `let name = value` with a fresh variable, even for a variable or a constant.
    fn bind_fresh(&mut self, value: Expr, hint: &str) -> Expr {
        let var = self.fresh_var(value.ty(), hint);
        self.emit(Stmt::Let {
            var: var.clone(),
            value,
        });
        Expr::Var(var)
    }

    /// `vars[k] := values[k]` for each k, in order.
    fn assign_each(&mut self, vars: &[Var], values: Vec<Expr>) {
        for (var, value) in vars.iter().zip(values) {
            self.emit(Stmt::Assign {
                var: var.clone(),
                value,
            });
        }
    }

    /// A new block holding `result` row-major, and its shape bound to fresh variables (fresh even for an extent that
    /// is already a variable, so that assigning the shape variables of the array it replaces cannot clobber it).
    fn materialise_with_fresh_shape(&mut self, result: &Arr) -> LowerResult<(Block, Vec<Expr>)> {
        let new_shape: Vec<Expr> = result
            .shape()
            .into_iter()
            .map(|extent| self.bind_fresh(extent, "n"))
            .collect();
        let size = self.size_of(&new_shape);
        let next = self.fresh_block(result.element());
        self.emit(Stmt::Alloc {
            site: self.site,
            block: next,
            size: size.clone(),
        });
        self.fill_block(result, next, &size)?;
        Ok((next, new_shape))
    }

    /// Each array of a state copied into a block of its own (shape variables made but not yet defined), each scalar
    /// in a mutable variable; returns them and the state as the body sees it.
    fn state_in_blocks(
        &mut self,
        template: &StateShape,
        leaves: Vec<Leaf>,
        scalar_hint: &str,
    ) -> LowerResult<(Vec<ArrayOfState>, Vec<Var>, Lowered)> {
        let mut arrays = Vec::new();
        let mut scalars = Vec::new();
        let mut current = Vec::new();
        for leaf in leaves {
            match leaf {
                Leaf::Scalar(value) => {
                    let var = self.mutable(value, scalar_hint);
                    current.push(Lowered::Scalar(Expr::var(&var)));
                    scalars.push(var);
                }
                Leaf::Array(arr) => {
                    let initial = self.materialise(&arr)?;
                    let shape_vars: Vec<Var> = initial
                        .shape
                        .iter()
                        .map(|_| self.fresh_var(ScalarType::Int, "s"))
                        .collect();
                    let shape: Vec<Expr> = shape_vars.iter().map(Expr::var).collect();
                    let array = ArrayOfState {
                        element: arr.element(),
                        initial_shape: initial.shape,
                        shape_vars,
                        current: Materialised {
                            block: initial.block,
                            layout: Layout::row_major(&shape),
                            shape,
                        },
                    };
                    current.push(Lowered::Array(Arr::Mat(array.current.clone())));
                    arrays.push(array);
                }
            }
        }
        let state = rebuild_state(template, &mut current.into_iter());
        Ok((arrays, scalars, state))
    }

    /// The state after a step: the arrays in their blocks with these shapes, and the scalars.
    fn state_of(
        template: &StateShape,
        arrays: impl Iterator<Item = (Block, Vec<Expr>)>,
        scalars: impl Iterator<Item = Expr>,
        order: &[bool],
    ) -> Lowered {
        let mut arrays = arrays.map(|(block, shape)| {
            Lowered::Array(Arr::Mat(Materialised {
                block,
                layout: Layout::row_major(&shape),
                shape,
            }))
        });
        let mut scalars = scalars.map(Lowered::Scalar);
        let mut leaves = order.iter().map(|is_array| {
            if *is_array {
                arrays.next().expect("one block per array")
            } else {
                scalars.next().expect("one value per scalar")
            }
        });
        rebuild_state(template, &mut leaves)
    }

    /// The step applied to a state with arrays: the next arrays, and the next scalars bound to fresh variables (so
    /// that they are computed before any block of the state is replaced).
    fn next_state(
        &mut self,
        function: &Function,
        state: &Lowered,
        template: &StateShape,
    ) -> LowerResult<(Vec<Arr>, Vec<Expr>)> {
        let result = self.apply(function, vec![state.clone()])?;
        let mut next_arrays = Vec::new();
        let mut next_scalars = Vec::new();
        for leaf in self.flatten_like(template, result)? {
            match leaf {
                Leaf::Array(arr) => next_arrays.push(arr),
                Leaf::Scalar(value) => next_scalars.push(self.bind_fresh(value, "next")),
            }
        }
        Ok((next_arrays, next_scalars))
    }

    /// `power` and `powerUntil` on a state with arrays (see the module documentation).
    fn repeat_state(
        &mut self,
        function: Function,
        repeat: Repeat,
        template: StateShape,
        leaves: Vec<Leaf>,
    ) -> LowerResult<Lowered> {
        let order: Vec<bool> = leaves.iter().map(|leaf| matches!(leaf, Leaf::Array(_))).collect();
        let (arrays, scalars, state) = self.state_in_blocks(&template, leaves, "x")?;
        let (body, (next_arrays, next_scalars)) =
            self.capture(|lowerer| lowerer.next_state(&function, &state, &template))?;
        let keeps_shape = arrays_keeping_their_shape(&arrays, &next_arrays);
        for (array, &fixed) in arrays.iter().zip(&keeps_shape) {
            for (var, extent) in array.shape_vars.iter().zip(&array.initial_shape) {
                let (var, value) = (var.clone(), extent.clone());
                self.emit(if fixed {
                    Stmt::Let { var, value }
                } else {
                    Stmt::Mutable { var, value }
                });
            }
        }
        let done = match repeat {
            Repeat::Until(_) => Some(self.mutable(Expr::Bool(false), "done")),
            Repeat::Times(_) => None,
        };
        // An array that keeps its shape: one block for its next value, allocated once (double buffering).
        let mut hoisted = Vec::new();
        for (array, &fixed) in arrays.iter().zip(&keeps_shape) {
            hoisted.push(if fixed {
                let size = self.size_of(&array.current.shape);
                let next = self.fresh_block(array.element);
                self.emit(Stmt::Alloc {
                    site: self.site,
                    block: next,
                    size: size.clone(),
                });
                Some((next, size))
            } else {
                None
            });
        }
        let (fill, ()) = self.capture(|lowerer| {
            lowerer.fill_kept_shapes_together(&arrays, &next_arrays, &hoisted)?;
            let mut filled = Vec::new();
            for ((array, next), hoisted) in arrays.iter().zip(&next_arrays).zip(&hoisted) {
                filled.push(match hoisted {
                    Some((block, _)) => (*block, array.current.shape.clone()),
                    None => lowerer.materialise_with_fresh_shape(next)?,
                });
            }
            if let (Repeat::Until(predicate), Some(done)) = (&repeat, &done) {
                let new_state = Self::state_of(&template, filled.iter().cloned(), next_scalars.iter().cloned(), &order);
                let stop = lowerer.apply(predicate, vec![new_state, state.clone()])?;
                let stop = lowerer.as_scalar(stop)?;
                let stop = lowerer.bind(stop, "stop");
                lowerer.emit(Stmt::Assign {
                    var: done.clone(),
                    value: stop,
                });
            }
            for ((array, (block, new_shape)), hoisted) in arrays.iter().zip(filled).zip(&hoisted) {
                lowerer.emit(Stmt::Swap {
                    first: array.current.block,
                    second: block,
                });
                if hoisted.is_none() {
                    lowerer.assign_each(&array.shape_vars, new_shape);
                }
            }
            lowerer.assign_each(&scalars, next_scalars.clone());
            Ok(())
        })?;
        let mut loop_body = body;
        loop_body.extend(fill);
        match (repeat, done) {
            (Repeat::Times(count), _) => {
                let index = self.fresh_var(ScalarType::Int, "it");
                self.emit(Stmt::For {
                    index,
                    count,
                    body: loop_body,
                });
            }
            (Repeat::Until(_), Some(done)) => self.emit(Stmt::While {
                condition: Expr::not_bool(Expr::var(&done)),
                body: loop_body,
            }),
            (Repeat::Until(_), None) => unreachable!("done is set for powerUntil"),
        }
        Ok(state)
    }

    /// Fills the next blocks of the arrays that keep their shape, those of one shape in one loop: the components of
    /// a step are usually computed from the same elements of the state (Mandelbrot's real and imaginary parts and
    /// count all read `4≥(zr×zr)+zi×zi`), which one loop computes once per element.
    fn fill_kept_shapes_together(
        &mut self,
        arrays: &[ArrayOfState],
        next_arrays: &[Arr],
        hoisted: &[Option<(Block, Expr)>],
    ) -> LowerResult<()> {
        /// Next arrays of one first shape, with the size of their blocks.
        struct Group<'a> {
            first_shape: &'a [Expr],
            size: &'a Expr,
            fills: Vec<(&'a Arr, Block)>,
        }
        let mut groups: Vec<Group> = Vec::new();
        for ((array, next), hoisted) in arrays.iter().zip(next_arrays).zip(hoisted) {
            let Some((block, size)) = hoisted else {
                continue;
            };
            // Arrays that keep their shape keep their first one: equal first shapes are equal shapes.
            match groups.iter_mut().find(|group| group.first_shape == array.initial_shape) {
                Some(group) => group.fills.push((next, *block)),
                None => groups.push(Group {
                    first_shape: &array.initial_shape,
                    size,
                    fills: vec![(next, *block)],
                }),
            }
        }
        for group in &groups {
            self.fill_blocks(&group.fills, group.size)?;
        }
        Ok(())
    }

    /// `condScl` on a state with arrays: each array copied into a block of its own (with mutable shape variables),
    /// which the branch taken when b replaces by a new block holding that component of f x (whose shape may differ:
    /// a guard's result need not have its argument's shape).
    fn conditional_state(
        &mut self,
        function: Function,
        condition: Expr,
        template: StateShape,
        leaves: Vec<Leaf>,
    ) -> LowerResult<Lowered> {
        let (arrays, scalars, state) = self.state_in_blocks(&template, leaves, "r")?;
        for array in &arrays {
            for (var, extent) in array.shape_vars.iter().zip(&array.initial_shape) {
                self.emit(Stmt::Mutable {
                    var: var.clone(),
                    value: extent.clone(),
                });
            }
        }
        let (then, ()) = self.capture(|lowerer| {
            let (next_arrays, next_scalars) = lowerer.next_state(&function, &state, &template)?;
            let mut filled = Vec::new();
            for (array, next) in arrays.iter().zip(&next_arrays) {
                if next.rank() != array.current.shape.len() {
                    return Err(LowerError::ill_typed(
                        "condScl's function changes the rank of its argument",
                    ));
                }
                filled.push(lowerer.materialise_with_fresh_shape(next)?);
            }
            for (array, (block, new_shape)) in arrays.iter().zip(filled) {
                lowerer.emit(Stmt::Swap {
                    first: array.current.block,
                    second: block,
                });
                lowerer.assign_each(&array.shape_vars, new_shape);
            }
            lowerer.assign_each(&scalars, next_scalars);
            Ok(())
        })?;
        self.emit_if(condition, then, vec![]);
        Ok(state)
    }
}

/// Which arrays of a state the step gives the shape they have. First those whose next shape is their own shape
/// variables; then those whose next shape is the shape of such an array (`zi`'s next value in Mandelbrot's step has
/// the shape of `inside`, which is `zr`'s) when both began with the same shape expressions: a shape that never
/// changes is its first one.
fn arrays_keeping_their_shape(arrays: &[ArrayOfState], next_arrays: &[Arr]) -> Vec<bool> {
    let mut keeps: Vec<bool> = arrays
        .iter()
        .zip(next_arrays)
        .map(|(array, next)| next.shape() == array.current.shape)
        .collect();
    let kept_first_shapes: Vec<(&Var, &Expr)> = arrays
        .iter()
        .zip(&keeps)
        .filter(|(_, keeps)| **keeps)
        .flat_map(|(array, _)| array.shape_vars.iter().zip(&array.initial_shape))
        .collect();
    for ((array, next), keeps) in arrays.iter().zip(next_arrays).zip(keeps.iter_mut()) {
        let next_shape: Vec<Expr> = next
            .shape()
            .iter()
            .map(|extent| {
                kept_first_shapes.iter().fold(extent.clone(), |extent, (var, first)| {
                    crate::loops::rewrite::substitute_variable(&extent, var.id, first)
                })
            })
            .collect();
        *keeps |= next_shape == array.initial_shape;
    }
    keeps
}

/// A state without arrays rebuilt from its scalars, in order.
fn scalar_state(template: &StateShape, values: &mut dyn Iterator<Item = Expr>) -> Lowered {
    rebuild_state(template, &mut values.map(Lowered::Scalar))
}

/// The values of leaves that are all scalars (a state without arrays).
fn scalar_leaves(leaves: Vec<Leaf>) -> Vec<Expr> {
    leaves
        .into_iter()
        .map(|leaf| match leaf {
            Leaf::Scalar(value) => value,
            Leaf::Array(_) => unreachable!("a state without arrays has only scalar leaves"),
        })
        .collect()
}

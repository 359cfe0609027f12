//! Compile-time values and the environment that binds names to them.
//!
//! Elaboration is compilation by inlining: an APL array becomes a TAIL expression tagged with its static base type,
//! rank and whatever else is statically known (extents, constant values); an APL function or operator stays a
//! compile-time object that is applied, at each use, to the tagged expressions of its arguments.

use super::ir::{Base, Expr, Type};
use crate::source::Span;
use crate::syntax::ast::{Dfn, Primitive};
use crate::tail::value::Scalar as TailScalar;
use std::rc::Rc;

/// One scalar value known at compile time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    Double(f64),
    Complex(f64, f64),
    Char(char),
}

impl Scalar {
    pub fn base(self) -> Base {
        match self {
            Scalar::Bool(_) => Base::Bool,
            Scalar::Int(_) => Base::Int,
            Scalar::Double(_) => Base::Double,
            Scalar::Complex(..) => Base::Complex,
            Scalar::Char(_) => Base::Char,
        }
    }

    pub fn as_int(self) -> Option<i64> {
        match self {
            Scalar::Bool(value) => Some(value as i64),
            Scalar::Int(value) => Some(value),
            Scalar::Double(value) if value == value.trunc() && value.abs() < 9.0e15 => Some(value as i64),
            _ => None,
        }
    }

    pub fn as_double(self) -> Option<f64> {
        match self {
            Scalar::Bool(value) => Some(value as i64 as f64),
            Scalar::Int(value) => Some(value as f64),
            Scalar::Double(value) => Some(value),
            _ => None,
        }
    }

    /// The scalar converted up the promotion lattice to `base` (never down).
    pub fn promote(self, base: Base) -> Scalar {
        match (self, base) {
            (Scalar::Bool(value), Base::Int) => Scalar::Int(value as i64),
            (Scalar::Bool(value), Base::Double) => Scalar::Double(value as i64 as f64),
            (Scalar::Int(value), Base::Double) => Scalar::Double(value as f64),
            (Scalar::Bool(value), Base::Complex) => Scalar::Complex(value as i64 as f64, 0.0),
            (Scalar::Int(value), Base::Complex) => Scalar::Complex(value as f64, 0.0),
            (Scalar::Double(value), Base::Complex) => Scalar::Complex(value, 0.0),
            (other, _) => other,
        }
    }

    /// Whether the scalar is not a NaN or infinite number (those have no literal).
    pub fn is_finite(self) -> bool {
        match self {
            Scalar::Double(value) => value.is_finite(),
            Scalar::Complex(re, im) => re.is_finite() && im.is_finite(),
            _ => true,
        }
    }

    /// The TAIL literal for this scalar.
    pub fn literal(self) -> Expr {
        match self {
            Scalar::Bool(value) => Expr::Bool(value),
            Scalar::Int(value) => Expr::Int(value),
            Scalar::Double(value) => Expr::Double(value),
            Scalar::Complex(re, im) => Expr::Complex(re, im),
            Scalar::Char(value) => Expr::Char(value),
        }
    }
}

impl From<Scalar> for TailScalar {
    fn from(scalar: Scalar) -> TailScalar {
        match scalar {
            Scalar::Bool(x) => TailScalar::Bool(x),
            Scalar::Int(x) => TailScalar::Int(x),
            Scalar::Double(x) => TailScalar::Double(x),
            Scalar::Complex(re, im) => TailScalar::Complex(re, im),
            Scalar::Char(x) => TailScalar::Char(x),
        }
    }
}

impl From<TailScalar> for Scalar {
    fn from(scalar: TailScalar) -> Scalar {
        match scalar {
            TailScalar::Bool(x) => Scalar::Bool(x),
            TailScalar::Int(x) => Scalar::Int(x),
            TailScalar::Double(x) => Scalar::Double(x),
            TailScalar::Complex(re, im) => Scalar::Complex(re, im),
            TailScalar::Char(x) => Scalar::Char(x),
        }
    }
}

/// An APL array as a tagged TAIL expression.
#[derive(Clone, Debug)]
pub struct Arr {
    pub expr: Expr,
    pub base: Base,
    pub rank: usize,
    /// One entry per axis: the extent where it is statically known.
    pub extents: Vec<Option<i64>>,
    /// The ravel, where the whole value is known at compile time (all extents are then known).
    pub constant: Option<Rc<Vec<Scalar>>>,
}

impl Arr {
    /// An array about which only the type is known.
    pub fn dynamic(expr: Expr, base: Base, rank: usize) -> Arr {
        Arr {
            expr,
            base,
            rank,
            extents: vec![None; rank],
            constant: None,
        }
    }

    pub fn with_extents(mut self, extents: Vec<Option<i64>>) -> Arr {
        debug_assert_eq!(extents.len(), self.rank);
        self.extents = extents;
        self
    }

    pub fn scalar_constant(value: Scalar) -> Arr {
        Arr {
            expr: value.literal(),
            base: value.base(),
            rank: 0,
            extents: Vec::new(),
            constant: Some(Rc::new(vec![value])),
        }
    }

    /// A constant vector, as a TAIL vector literal.
    pub fn vector_constant(values: Vec<Scalar>, base: Base) -> Arr {
        let values: Vec<Scalar> = values.into_iter().map(|value| value.promote(base)).collect();
        Arr {
            expr: Expr::Vector(values.iter().map(|value| value.literal()).collect(), base),
            base,
            rank: 1,
            extents: vec![Some(values.len() as i64)],
            constant: Some(Rc::new(values)),
        }
    }

    pub fn tail_type(&self) -> Type {
        Type::Array {
            base: self.base,
            rank: self.rank,
        }
    }

    /// The static shape, where every extent is known.
    pub fn static_shape(&self) -> Option<Vec<i64>> {
        self.extents.iter().copied().collect()
    }

    /// The single value of a constant scalar or one-element array.
    pub fn constant_scalar(&self) -> Option<Scalar> {
        match &self.constant {
            Some(values) if values.len() == 1 => Some(values[0]),
            _ => None,
        }
    }

    /// The values of a constant scalar or vector as integers (axis numbers, `○` selectors, tuple indices).
    pub fn constant_ints(&self) -> Option<Vec<i64>> {
        if self.rank > 1 {
            return None;
        }
        self.constant.as_ref()?.iter().map(|value| value.as_int()).collect()
    }

    /// The number of elements, where statically known.
    pub fn static_size(&self) -> Option<i64> {
        self.extents
            .iter()
            .try_fold(1i64, |product, extent| extent.map(|e| product * e))
    }
}

/// A compile-time value: what an APL name or expression denotes during elaboration.
#[derive(Clone, Debug)]
pub enum Val {
    Array(Arr),
    /// A mixed strand (`a (b c) 4`), kept apart as a tuple; indexed with constants.
    Tuple(Vec<Val>),
    /// A nested array of rank 0 (`⊂x`) or of rank 2 or more (`¯1 0 1∘.⊖¯1 0 1∘.⌽⊂x`), its items known one by one
    /// at compile time, in row-major order. A nested vector is always a `Tuple`; `Elaborator::nested` keeps it so.
    Nested {
        shape: Vec<usize>,
        items: Vec<Val>,
    },
    Function(Rc<Fun>),
    Operator(Rc<Opr>),
}

/// A dfn together with the environment it was written in, and the operands it was given if it is an operator.
#[derive(Clone, Debug)]
pub struct Closure {
    pub dfn: Rc<Dfn>,
    pub env: Env,
    /// `⍺⍺` and (for a dyadic operator) `⍵⍵`.
    pub operands: Option<(Val, Option<Val>)>,
    /// The operator value itself, for `∇∇`.
    pub operator: Option<Rc<Opr>>,
    /// A dfn of the prelude: its run-time errors point at the user's call, not into the prelude's text.
    pub from_prelude: bool,
}

/// A function known at compile time.
#[derive(Clone, Debug)]
pub enum Fun {
    Primitive(Primitive, Span),
    /// A system function such as `⎕INT32AND` or `⎕ReadFile` (the name in upper case).
    System(String, Span),
    Dfn(Closure, Span),
    /// A traditional function (`tradfns.rs`): called in the caller's environment (dynamic scope).
    Tradfn(Rc<crate::syntax::ast::Tradfn>, Span),
    /// A primitive operator applied to its operands (`+/`, `f¨`, `∘.×`, `2∘×`, `f⍣3`).
    Derived {
        operator: Primitive,
        left: Val,
        right: Option<Val>,
        span: Span,
    },
    /// `(f g h)`: `(f ⍵) g (h ⍵)`; the left tine may be an array.
    Fork(Val, Rc<Fun>, Rc<Fun>),
    /// `(g h)`: `g (h ⍵)`.
    Atop(Rc<Fun>, Rc<Fun>),
    /// `f ⎕BENCH n`: `f⍣n` that reports how long the n applications took (the thesis compiler's timing helper).
    Bench {
        function: Rc<Fun>,
        count: Val,
        span: Span,
    },
    /// A primitive function with an axis, `f[k]`, whose meaning depends on its arguments' ranks (`⌽[2]` reverses
    /// the last axis of a matrix), so it is decided when applied (`indexing.rs`).
    WithAxis {
        primitive: Primitive,
        axis: i64,
        /// `,[k]` with a k between integers (laminate): a new axis before `axis`, which is ⌈k.
        laminate: bool,
        span: Span,
    },
    /// `f/[k]`, `A/[k]`, `f\[k]` or `A\[k]` with k > 1 ([`Opr::AlongAxis`]): `along_last` (`f/`, ...) along axis k
    /// of the argument, moved last by a transpose (`Elaborator::apply_along_axis`).
    AlongAxis {
        along_last: Rc<Fun>,
        axis: i64,
        span: Span,
    },
}

impl Fun {
    pub fn span(&self) -> Span {
        match self {
            Fun::Primitive(_, span)
            | Fun::System(_, span)
            | Fun::Dfn(_, span)
            | Fun::Tradfn(_, span)
            | Fun::Derived { span, .. }
            | Fun::Bench { span, .. }
            | Fun::AlongAxis { span, .. }
            | Fun::WithAxis { span, .. } => *span,
            Fun::Fork(_, middle, right) => middle.span().join(right.span()),
            Fun::Atop(left, right) => left.span().join(right.span()),
        }
    }
}

/// An operator known at compile time.
#[derive(Clone, Debug)]
pub enum Opr {
    Primitive(Primitive, Span),
    /// A dfn that mentions `⍺⍺` (and `⍵⍵` if `dyadic`).
    Dfn {
        closure: Box<Closure>,
        dyadic: bool,
        span: Span,
    },
    /// `/[k]` or `\[k]` (also `⌿[k]`, `⍀[k]`) with k > 1: the operator along axis k, which depends on the
    /// argument's rank (`+/[2]` on a matrix is `+/`), so it is decided when the derived function is applied
    /// ([`Fun::AlongAxis`]).
    AlongAxis {
        primitive: Primitive,
        axis: i64,
        span: Span,
    },
}

/// A persistent environment: a linked list of bindings, so that closures can keep the environment they were
/// defined in while later statements extend it.
#[derive(Clone, Debug, Default)]
pub struct Env {
    head: Option<Rc<Binding>>,
}

#[derive(Debug)]
struct Binding {
    name: String,
    /// `None`: the name is localised without a value (a tradfn's local before its first assignment), hiding any
    /// outer binding of the name.
    value: Option<Val>,
    next: Option<Rc<Binding>>,
}

impl Env {
    pub fn bind(&self, name: &str, value: Val) -> Env {
        self.push(name, Some(value))
    }

    /// The newest binding of `name`, if it has one: `Some(None)` when it is localised without a value.
    pub fn find(&self, name: &str) -> Option<Option<&Val>> {
        let mut current = self.head.as_deref();
        while let Some(binding) = current {
            if binding.name == name {
                return Some(binding.value.as_ref());
            }
            current = binding.next.as_deref();
        }
        None
    }

    /// The name without a value, whatever outer binding it has: a tradfn's header names at the start of a call.
    pub fn bind_unset(&self, name: &str) -> Env {
        self.push(name, None)
    }

    fn push(&self, name: &str, value: Option<Val>) -> Env {
        Env {
            head: Some(Rc::new(Binding {
                name: name.to_string(),
                value,
                next: self.head.clone(),
            })),
        }
    }

    pub fn lookup(&self, name: &str) -> Option<&Val> {
        let mut current = self.head.as_deref();
        while let Some(binding) = current {
            if binding.name == name {
                return binding.value.as_ref();
            }
            current = binding.next.as_deref();
        }
        None
    }

    /// Whether this environment is inside a dfn call (a closure made here is a nested dfn's, lexically scoped).
    pub fn within_dfn(&self) -> bool {
        let mut current = self.head.as_deref();
        while let Some(binding) = current {
            if binding.name == "∇" {
                return true;
            }
            current = binding.next.as_deref();
        }
        false
    }

    /// This environment without the dfn calls it is inside: what was bound below the outermost call's `∇` and its
    /// arguments (the environment of the top level, or of the traditional functions running there, when that call
    /// began).
    pub fn outside_dfns(&self) -> Env {
        let mut outside = self.head.clone();
        let mut current = self.head.as_ref();
        while let Some(binding) = current {
            if binding.name == "∇" {
                let mut below = binding.next.as_ref();
                while let Some(argument) = below.filter(|b| matches!(b.name.as_str(), "⍵" | "⍺" | "⍺⍺" | "⍵⍵"))
                {
                    below = argument.next.as_ref();
                }
                outside = below.cloned();
            }
            current = binding.next.as_ref();
        }
        Env { head: outside }
    }

    /// Whether `name` is a local of the innermost dfn call: bound since that call's `∇` (which every call binds
    /// after its arguments), or bound at all outside dfns. Dyalog's `x f← v` and `x[i]← v` change the `x` of an
    /// enclosing scope when the dfn has no `x` of its own (`Elaborator::update_name` then logs the change for the
    /// call to carry out).
    pub fn is_local_to_innermost_dfn(&self, name: &str) -> bool {
        let mut current = self.head.as_deref();
        while let Some(binding) = current {
            if binding.name == name {
                return true;
            }
            if binding.name == "∇" {
                return false;
            }
            current = binding.next.as_deref();
        }
        true
    }
}

impl Env {
    /// The names bound in this environment since `older`, which it extends (newest first, each once). Control
    /// structures and tradfn calls find what a block of statements assigned this way. When `self` does not extend
    /// `older`, every name of `self` is listed.
    pub fn names_bound_since(&self, older: &Env) -> Vec<String> {
        let stop = older.head.as_ref().map(Rc::as_ptr);
        let mut names: Vec<String> = Vec::new();
        let mut current = self.head.as_ref();
        while let Some(binding) = current {
            if Some(Rc::as_ptr(binding)) == stop {
                break;
            }
            if !names.contains(&binding.name) {
                names.push(binding.name.clone());
            }
            current = binding.next.as_ref();
        }
        names
    }

    /// Whether `name` has the very same binding (not merely an equal value) in both environments, or none in both.
    pub fn same_binding(&self, other: &Env, name: &str) -> bool {
        self.binding_of(name) == other.binding_of(name)
    }

    fn binding_of(&self, name: &str) -> Option<*const Binding> {
        let mut current = self.head.as_ref();
        while let Some(binding) = current {
            if binding.name == name {
                return Some(Rc::as_ptr(binding));
            }
            current = binding.next.as_ref();
        }
        None
    }

    /// The bindings in force (the newest of each name), oldest first: the environment without its shadowed
    /// bindings, for rebuilding a compact copy.
    pub fn current_bindings(&self) -> Vec<(String, Val)> {
        let mut seen = std::collections::HashSet::new();
        let mut bindings = Vec::new();
        let mut current = self.head.as_deref();
        while let Some(binding) = current {
            if seen.insert(binding.name.as_str()) {
                if let Some(value) = &binding.value {
                    bindings.push((binding.name.clone(), value.clone()));
                }
            }
            current = binding.next.as_deref();
        }
        bindings.reverse();
        bindings
    }

    /// Visits every array reachable from this environment: shadowed bindings, and the environments and operands of
    /// the functions and operators bound here, each binding once (`visited` holds the bindings already seen).
    pub fn visit_reachable_arrays(&self, visited: &mut std::collections::HashSet<usize>, visit: &mut dyn FnMut(&Arr)) {
        let mut current = self.head.as_deref();
        while let Some(binding) = current {
            if !visited.insert(binding as *const Binding as usize) {
                return;
            }
            if let Some(value) = &binding.value {
                visit_value_arrays(value, visited, visit);
            }
            current = binding.next.as_deref();
        }
    }
}

fn visit_value_arrays(value: &Val, visited: &mut std::collections::HashSet<usize>, visit: &mut dyn FnMut(&Arr)) {
    match value {
        Val::Array(array) => visit(array),
        Val::Tuple(components) | Val::Nested { items: components, .. } => components
            .iter()
            .for_each(|component| visit_value_arrays(component, visited, visit)),
        Val::Function(function) => visit_function_arrays(function, visited, visit),
        Val::Operator(operator) => match &**operator {
            Opr::Primitive(..) | Opr::AlongAxis { .. } => {}
            Opr::Dfn { closure, .. } => visit_closure_arrays(closure, visited, visit),
        },
    }
}

fn visit_function_arrays(function: &Fun, visited: &mut std::collections::HashSet<usize>, visit: &mut dyn FnMut(&Arr)) {
    match function {
        // A tradfn keeps no environment: it runs in its caller's.
        Fun::Primitive(..) | Fun::System(..) | Fun::Tradfn(..) => {}
        Fun::Dfn(closure, _) => visit_closure_arrays(closure, visited, visit),
        Fun::Derived { left, right, .. } => {
            visit_value_arrays(left, visited, visit);
            if let Some(right) = right {
                visit_value_arrays(right, visited, visit);
            }
        }
        Fun::Fork(left, middle, right) => {
            visit_value_arrays(left, visited, visit);
            visit_function_arrays(middle, visited, visit);
            visit_function_arrays(right, visited, visit);
        }
        Fun::Atop(left, right) => {
            visit_function_arrays(left, visited, visit);
            visit_function_arrays(right, visited, visit);
        }
        Fun::Bench { function, count, .. } => {
            visit_function_arrays(function, visited, visit);
            visit_value_arrays(count, visited, visit);
        }
        Fun::AlongAxis { along_last, .. } => visit_function_arrays(along_last, visited, visit),
        Fun::WithAxis { .. } => {}
    }
}

fn visit_closure_arrays(
    closure: &Closure,
    visited: &mut std::collections::HashSet<usize>,
    visit: &mut dyn FnMut(&Arr),
) {
    closure.env.visit_reachable_arrays(visited, visit);
    if let Some((left, right)) = &closure.operands {
        visit_value_arrays(left, visited, visit);
        if let Some(right) = right {
            visit_value_arrays(right, visited, visit);
        }
    }
}

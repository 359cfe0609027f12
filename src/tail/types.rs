//! Unification of TAIL types: base types, shapes (naturals with `+`, up to AC and constant folding) and types, plus
//! the subtyping relation of digest §2.2 used as conditional unification.
//!
//! Subtyping rules: (3.1) reflexivity, (3.2) transitivity, (3.3) `<κ>ρ ⊆ [κ]1`, (3.4) `SV(κ,ρ) ⊆ <κ>1`,
//! (3.5) `S(κ,ρ) ⊆ [κ]0`; transitivity gives `SV(κ,ρ) ⊆ [κ]1`. Functions are contravariant in the argument and
//! covariant in the result; tuples are covariant. [`SubtypeRules::WithoutSingletonVectorToVector`] is the
//! strengthened relation ⊆s of the store semantics, without (3.4), for mutated arrays.
//!
//! "Conditional" unification: `actual ⊆ expected` inspects the two types as far as they are known. When either side
//! is still a type variable, it falls back to equality (the variable gets the other side).

use super::ast::{BaseType, Shape, Type, TypeScheme};
use std::collections::{BTreeSet, HashMap};

/// Which subtyping relation to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubtypeRules {
    /// All of rules 3.1–3.5.
    Full,
    /// ⊆s: without rule 3.4, for arrays that may be mutated (a mutated shape vector breaks its singleton type).
    WithoutSingletonVectorToVector,
}

/// Why two types could not be made equal (or related): the innermost pair that clashed.
#[derive(Clone, Debug, PartialEq)]
pub enum UnifyError {
    Types { expected: Type, found: Type },
    Shapes { left: Shape, right: Shape },
    Occurs { variable: u32, ty: Type },
}

/// A substitution being built by unification, with a supply of fresh variables.
#[derive(Clone, Debug, Default)]
pub struct Unifier {
    base: HashMap<u32, BaseType>,
    shapes: HashMap<u32, Shape>,
    types: HashMap<u32, Type>,
    next_variable: u32,
    /// Shape equations that cannot be solved yet (`'n1+'n2 = 3`), retried after every binding.
    deferred: Vec<(Shape, Shape)>,
}

impl Unifier {
    pub fn new() -> Unifier {
        Unifier::default()
    }

    pub fn fresh_id(&mut self) -> u32 {
        self.next_variable += 1;
        self.next_variable
    }

    pub fn fresh_base(&mut self) -> BaseType {
        BaseType::Var(self.fresh_id())
    }

    pub fn fresh_shape(&mut self) -> Shape {
        Shape::variable(self.fresh_id())
    }

    pub fn fresh_type(&mut self) -> Type {
        Type::Var(self.fresh_id())
    }

    // ---- Resolution ----

    pub fn resolve_base(&self, base: BaseType) -> BaseType {
        match base {
            BaseType::Var(id) => match self.base.get(&id) {
                Some(bound) => self.resolve_base(*bound),
                None => base,
            },
            concrete => concrete,
        }
    }

    pub fn resolve_shape(&self, shape: &Shape) -> Shape {
        let mut result = Shape::constant(shape.constant);
        for (variable, count) in &shape.variables {
            let replacement = match self.shapes.get(variable) {
                Some(bound) => self.resolve_shape(bound),
                None => Shape::variable(*variable),
            };
            for _ in 0..*count {
                result = result.plus(&replacement);
            }
        }
        result
    }

    /// The type with every bound variable replaced, all the way down.
    pub fn resolve(&self, ty: &Type) -> Type {
        match ty {
            Type::Array(b, s) => Type::Array(self.resolve_base(*b), self.resolve_shape(s)),
            Type::Vector(b, s) => Type::Vector(self.resolve_base(*b), self.resolve_shape(s)),
            Type::Singleton(b, s) => Type::Singleton(self.resolve_base(*b), self.resolve_shape(s)),
            Type::SingletonVector(b, s) => Type::SingletonVector(self.resolve_base(*b), self.resolve_shape(s)),
            Type::Function(a, r) => Type::function(self.resolve(a), self.resolve(r)),
            Type::Tuple(components) => Type::Tuple(components.iter().map(|c| self.resolve(c)).collect()),
            Type::Var(id) => match self.types.get(id) {
                Some(bound) => self.resolve(bound),
                None => ty.clone(),
            },
        }
    }

    /// The outermost constructor with type variables followed (components are not resolved).
    fn head(&self, ty: &Type) -> Type {
        match ty {
            Type::Var(id) => match self.types.get(id) {
                Some(bound) => self.head(bound),
                None => ty.clone(),
            },
            other => other.clone(),
        }
    }

    // ---- Base types and shapes ----

    pub fn unify_base(&mut self, expected: BaseType, found: BaseType) -> Result<(), UnifyError> {
        match (self.resolve_base(expected), self.resolve_base(found)) {
            (a, b) if a == b => Ok(()),
            (BaseType::Var(id), other) | (other, BaseType::Var(id)) => {
                self.base.insert(id, other);
                Ok(())
            }
            (a, b) => Err(UnifyError::Types {
                expected: Type::scalar(a),
                found: Type::scalar(b),
            }),
        }
    }

    pub fn unify_shape(&mut self, left: &Shape, right: &Shape) -> Result<(), UnifyError> {
        let (left, right) = cancel(&self.resolve_shape(left), &self.resolve_shape(right));
        if left == right {
            return Ok(());
        }
        let clash = || UnifyError::Shapes {
            left: left.clone(),
            right: right.clone(),
        };
        // A lone variable takes the other side (after cancelling, it cannot occur there).
        if let Some(variable) = left.as_variable() {
            return self.bind_shape(variable, right.clone());
        }
        if let Some(variable) = right.as_variable() {
            return self.bind_shape(variable, left.clone());
        }
        // Both sides are sums of naturals; with one side constant, the variables of the other are bounded.
        for (constant_side, other) in [(&left, &right), (&right, &left)] {
            if let Some(value) = constant_side.as_constant() {
                if other.constant > value {
                    return Err(clash());
                }
                let remaining = value - other.constant;
                if remaining == 0 {
                    let variables: Vec<u32> = other.variables.keys().copied().collect();
                    for variable in variables {
                        self.bind_shape(variable, Shape::constant(0))?;
                    }
                    return Ok(());
                }
                if other.variables.len() == 1 {
                    let (variable, count) = other
                        .variables
                        .iter()
                        .next()
                        .map(|(v, c)| (*v, *c as u64))
                        .expect("one");
                    if remaining.checked_rem(count) != Some(0) {
                        return Err(clash());
                    }
                    return self.bind_shape(variable, Shape::constant(remaining / count));
                }
            }
        }
        self.deferred.push((left, right));
        Ok(())
    }

    fn bind_shape(&mut self, variable: u32, shape: Shape) -> Result<(), UnifyError> {
        self.shapes.insert(variable, shape);
        // Retry the deferred equations: the binding may have made them solvable (or contradictory).
        let deferred = std::mem::take(&mut self.deferred);
        for (left, right) in deferred {
            self.unify_shape(&left, &right)?;
        }
        Ok(())
    }

    // ---- Types ----

    fn occurs(&self, variable: u32, ty: &Type) -> bool {
        match self.head(ty) {
            Type::Var(id) => id == variable,
            Type::Function(a, r) => self.occurs(variable, &a) || self.occurs(variable, &r),
            Type::Tuple(components) => components.iter().any(|c| self.occurs(variable, c)),
            _ => false,
        }
    }

    fn bind_type(&mut self, variable: u32, ty: Type) -> Result<(), UnifyError> {
        if self.occurs(variable, &ty) {
            return Err(UnifyError::Occurs {
                variable,
                ty: self.resolve(&ty),
            });
        }
        self.types.insert(variable, ty);
        Ok(())
    }

    /// Makes two types equal.
    pub fn unify(&mut self, expected: &Type, found: &Type) -> Result<(), UnifyError> {
        let (expected, found) = (self.head(expected), self.head(found));
        let mismatch = |unifier: &Unifier| UnifyError::Types {
            expected: unifier.resolve(&expected),
            found: unifier.resolve(&found),
        };
        match (&expected, &found) {
            (Type::Var(a), Type::Var(b)) if a == b => Ok(()),
            (Type::Var(id), other) | (other, Type::Var(id)) => self.bind_type(*id, other.clone()),
            (Type::Array(b1, s1), Type::Array(b2, s2))
            | (Type::Vector(b1, s1), Type::Vector(b2, s2))
            | (Type::Singleton(b1, s1), Type::Singleton(b2, s2))
            | (Type::SingletonVector(b1, s1), Type::SingletonVector(b2, s2)) => {
                self.unify_base(*b1, *b2).map_err(|_| mismatch(self))?;
                self.unify_shape(s1, s2).map_err(|_| mismatch(self))
            }
            (Type::Function(a1, r1), Type::Function(a2, r2)) => {
                self.unify(a1, a2)?;
                self.unify(r1, r2)
            }
            (Type::Tuple(c1), Type::Tuple(c2)) if c1.len() == c2.len() => {
                for (a, b) in c1.iter().zip(c2) {
                    self.unify(a, b)?;
                }
                Ok(())
            }
            _ => Err(mismatch(self)),
        }
    }

    /// Makes `found ⊆ expected` hold (conditional unification; see the module documentation).
    pub fn subtype(&mut self, found: &Type, expected: &Type, rules: SubtypeRules) -> Result<(), UnifyError> {
        let (found, expected) = (self.head(found), self.head(expected));
        let mismatch = |unifier: &Unifier| UnifyError::Types {
            expected: unifier.resolve(&expected),
            found: unifier.resolve(&found),
        };
        let related = |unifier: &mut Unifier, b1: BaseType, b2: BaseType, rank: &Shape, wanted: u64| {
            unifier.unify_base(b2, b1).map_err(|_| mismatch(unifier))?;
            unifier
                .unify_shape(rank, &Shape::constant(wanted))
                .map_err(|_| mismatch(unifier))
        };
        match (&found, &expected) {
            (Type::Var(_), _) | (_, Type::Var(_)) => self.unify(&expected, &found),
            // (3.3): a vector of any length is an array of rank 1.
            (Type::Vector(b1, _), Type::Array(b2, rank)) => related(self, *b1, *b2, rank, 1),
            // (3.4) and (3.4)+(3.3): a one-element vector of known value is a vector of length 1 / array of rank 1.
            (Type::SingletonVector(b1, _), Type::Vector(b2, length)) if rules == SubtypeRules::Full => {
                related(self, *b1, *b2, length, 1)
            }
            (Type::SingletonVector(b1, _), Type::Array(b2, rank)) => related(self, *b1, *b2, rank, 1),
            // (3.5): a scalar of known value is a scalar.
            (Type::Singleton(b1, _), Type::Array(b2, rank)) => related(self, *b1, *b2, rank, 0),
            (Type::Function(a1, r1), Type::Function(a2, r2)) => {
                self.subtype(a2, a1, rules)?;
                self.subtype(r1, r2, rules)
            }
            (Type::Tuple(c1), Type::Tuple(c2)) if c1.len() == c2.len() => {
                for (a, b) in c1.iter().zip(c2) {
                    self.subtype(a, b, rules)?;
                }
                Ok(())
            }
            _ => self.unify(&expected, &found),
        }
    }

    // ---- Schemes ----

    /// A copy of the scheme's body with fresh variables for the quantified ones.
    pub fn instantiate(&mut self, scheme: &TypeScheme) -> Type {
        let mut renaming = Renaming::default();
        for id in &scheme.base_variables {
            renaming.base.insert(*id, self.fresh_base());
        }
        for id in &scheme.shape_variables {
            renaming.shapes.insert(*id, self.fresh_shape());
        }
        for id in &scheme.type_variables {
            renaming.types.insert(*id, self.fresh_type());
        }
        renaming.apply(&scheme.body)
    }

    /// Quantifies the variables of `ty` that are not free in the environment (`environment_variables`).
    pub fn generalize(&self, ty: &Type, environment_variables: &Variables) -> TypeScheme {
        let ty = self.resolve(ty);
        let mut variables = Variables::default();
        variables.collect(&ty);
        TypeScheme {
            base_variables: variables
                .base
                .difference(&environment_variables.base)
                .copied()
                .collect(),
            shape_variables: variables
                .shapes
                .difference(&environment_variables.shapes)
                .copied()
                .collect(),
            type_variables: variables
                .types
                .difference(&environment_variables.types)
                .copied()
                .collect(),
            body: ty,
        }
    }

    /// The free variables of a type after resolution.
    pub fn free_variables(&self, ty: &Type) -> Variables {
        let mut variables = Variables::default();
        variables.collect(&self.resolve(ty));
        variables
    }
}

/// Removes what both shapes have in common (the smaller constant, shared variables).
fn cancel(left: &Shape, right: &Shape) -> (Shape, Shape) {
    let mut left = left.clone();
    let mut right = right.clone();
    let common = left.constant.min(right.constant);
    left.constant -= common;
    right.constant -= common;
    let shared: Vec<u32> = left
        .variables
        .keys()
        .filter(|v| right.variables.contains_key(v))
        .copied()
        .collect();
    for variable in shared {
        let common = left.variables[&variable].min(right.variables[&variable]);
        for side in [&mut left, &mut right] {
            let count = side.variables.get_mut(&variable).expect("shared");
            *count -= common;
            if *count == 0 {
                side.variables.remove(&variable);
            }
        }
    }
    (left, right)
}

/// Sets of variables by kind.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Variables {
    pub base: BTreeSet<u32>,
    pub shapes: BTreeSet<u32>,
    pub types: BTreeSet<u32>,
}

impl Variables {
    pub fn collect(&mut self, ty: &Type) {
        let base = |variables: &mut Variables, b: &BaseType, s: &Shape| {
            if let BaseType::Var(id) = b {
                variables.base.insert(*id);
            }
            variables.shapes.extend(s.variables.keys().copied());
        };
        match ty {
            Type::Array(b, s) | Type::Vector(b, s) | Type::Singleton(b, s) | Type::SingletonVector(b, s) => {
                base(self, b, s)
            }
            Type::Function(a, r) => {
                self.collect(a);
                self.collect(r);
            }
            Type::Tuple(components) => components.iter().for_each(|c| self.collect(c)),
            Type::Var(id) => {
                self.types.insert(*id);
            }
        }
    }

    pub fn extend(&mut self, other: &Variables) {
        self.base.extend(&other.base);
        self.shapes.extend(&other.shapes);
        self.types.extend(&other.types);
    }
}

/// A renaming of variables (for instantiation).
#[derive(Default)]
struct Renaming {
    base: HashMap<u32, BaseType>,
    shapes: HashMap<u32, Shape>,
    types: HashMap<u32, Type>,
}

impl Renaming {
    fn base(&self, b: BaseType) -> BaseType {
        match b {
            BaseType::Var(id) => self.base.get(&id).copied().unwrap_or(b),
            other => other,
        }
    }

    fn shape(&self, shape: &Shape) -> Shape {
        let mut result = Shape::constant(shape.constant);
        for (variable, count) in &shape.variables {
            let replacement = self
                .shapes
                .get(variable)
                .cloned()
                .unwrap_or_else(|| Shape::variable(*variable));
            for _ in 0..*count {
                result = result.plus(&replacement);
            }
        }
        result
    }

    fn apply(&self, ty: &Type) -> Type {
        match ty {
            Type::Array(b, s) => Type::Array(self.base(*b), self.shape(s)),
            Type::Vector(b, s) => Type::Vector(self.base(*b), self.shape(s)),
            Type::Singleton(b, s) => Type::Singleton(self.base(*b), self.shape(s)),
            Type::SingletonVector(b, s) => Type::SingletonVector(self.base(*b), self.shape(s)),
            Type::Function(a, r) => Type::function(self.apply(a), self.apply(r)),
            Type::Tuple(components) => Type::Tuple(components.iter().map(|c| self.apply(c)).collect()),
            Type::Var(id) => self.types.get(id).cloned().unwrap_or_else(|| ty.clone()),
        }
    }
}

/// Whether `found ⊆ expected` holds for closed types (no unification; used by tests and checks).
pub fn is_subtype(found: &Type, expected: &Type, rules: SubtypeRules) -> bool {
    let mut unifier = Unifier::new();
    unifier.subtype(found, expected, rules).is_ok()
        && unifier.resolve(found) == *found
        && unifier.resolve(expected) == *expected
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tail::parser::parse_type;

    fn ty(text: &str) -> Type {
        parse_type(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn sub(found: &str, expected: &str) -> bool {
        is_subtype(&ty(found), &ty(expected), SubtypeRules::Full)
    }

    fn strict_sub(found: &str, expected: &str) -> bool {
        is_subtype(&ty(found), &ty(expected), SubtypeRules::WithoutSingletonVectorToVector)
    }

    #[test]
    fn subtyping_rules_of_the_thesis() {
        // (3.1) reflexivity
        assert!(sub("[int]2", "[int]2"));
        assert!(sub("<double>3", "<double>3"));
        // (3.3) a vector is an array of rank 1
        assert!(sub("<int>3", "[int]1"));
        assert!(!sub("<int>3", "[int]2"));
        assert!(!sub("[int]1", "<int>3"));
        // (3.4) a singleton vector is a vector of length 1
        assert!(sub("SV(int,7)", "<int>1"));
        assert!(!sub("SV(int,7)", "<int>2"));
        // (3.5) a singleton is a scalar
        assert!(sub("S(int,4)", "[int]0"));
        assert!(sub("S(bool,1)", "bool"));
        assert!(!sub("[int]0", "S(int,4)"));
        assert!(!sub("S(int,4)", "S(int,5)"));
        // (3.2) transitivity: SV ⊆ <> ⊆ []1
        assert!(sub("SV(int,7)", "[int]1"));
        // base types must agree
        assert!(!sub("<int>3", "[double]1"));
    }

    #[test]
    fn function_subtyping_is_contravariant_in_the_argument() {
        assert!(sub("[int]0 -> S(int,1)", "S(int,3) -> [int]0"));
        assert!(!sub("S(int,3) -> [int]0", "[int]0 -> [int]0"));
        assert!(sub("(S(int,1),<int>2)", "([int]0,[int]1)"));
    }

    #[test]
    fn the_strict_relation_drops_rule_3_4_only() {
        assert!(!strict_sub("SV(int,7)", "<int>1"));
        assert!(strict_sub("SV(int,7)", "[int]1"));
        assert!(strict_sub("<int>3", "[int]1"));
        assert!(strict_sub("S(int,4)", "[int]0"));
    }

    #[test]
    fn shape_unification_cancels_and_solves() {
        let mut unifier = Unifier::new();
        let a = unifier.fresh_shape();
        let b = unifier.fresh_shape();
        // a + 2 = b + 5 gives a = b + 3.
        unifier.unify_shape(&a.plus_constant(2), &b.plus_constant(5)).unwrap();
        assert_eq!(unifier.resolve_shape(&a), b.plus_constant(3));
        // a + b cannot be solved until one is known; then the other follows.
        let c = unifier.fresh_shape();
        let d = unifier.fresh_shape();
        unifier.unify_shape(&c.plus(&d), &Shape::constant(7)).unwrap();
        unifier.unify_shape(&c, &Shape::constant(3)).unwrap();
        assert_eq!(unifier.resolve_shape(&d), Shape::constant(4));
        // Contradictions: 2 + e = 1 has no natural solution.
        let e = unifier.fresh_shape();
        assert!(unifier.unify_shape(&e.plus_constant(2), &Shape::constant(1)).is_err());
        // e + f = 0 forces both to 0.
        let f = unifier.fresh_shape();
        unifier.unify_shape(&e.plus(&f), &Shape::constant(0)).unwrap();
        assert_eq!(unifier.resolve_shape(&f), Shape::constant(0));
    }

    #[test]
    fn equal_shapes_up_to_ac() {
        let x = Shape::variable(1);
        let y = Shape::variable(2);
        assert_eq!(x.plus(&y).plus_constant(1), y.plus_constant(1).plus(&x));
        assert_eq!(Shape::constant(1).plus(&Shape::constant(2)), Shape::constant(3));
    }

    #[test]
    fn occurs_check() {
        let mut unifier = Unifier::new();
        let t = unifier.fresh_type();
        let f = Type::function(t.clone(), Type::scalar(BaseType::Int));
        assert!(matches!(unifier.unify(&t, &f), Err(UnifyError::Occurs { .. })));
    }
}

//! Type inference for TAIL (digest §2.4): unification with conditional unification for subtyping, and
//! let-polymorphism. [`infer_program`] fills in every missing annotation (let types, lambda parameter types, the
//! element type of vector literals) with the resolved inferred type; [`super::check::check_program`] runs the same
//! algorithm in checking mode, where every annotation must be present.
//!
//! Literal typing: a natural number literal n is `S(int,n)` (rule 3.15), `tt`/`ff` are `S(bool,1)`/`S(bool,0)`
//! (3.13–3.14), other literals are scalars; a vector literal `[e1,...,en]` is `<κ>n`, or `SV(κ,v)` when it has one
//! element of type `S(κ,v)` (3.19). Subsumption (3.21) is applied at operator arguments, let annotations and lambda
//! bodies, where an expected type is known.

use super::ast::{BaseType, Expr, ExprKind, Program, Type, TypeScheme};
use super::error::TypeError;
use super::printer::{print_shape, print_type};
use super::types::{SubtypeRules, Unifier, UnifyError, Variables};
use crate::source::Span;

/// Whether annotations may be missing (and are then filled in) or must be present.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Infer,
    Check,
}

/// Infers the program's type and writes every inferred annotation into the program.
pub fn infer_program(program: &mut Program) -> Result<Type, TypeError> {
    let mut inference = Inference::new(Mode::Infer);
    let ty = inference.infer_whole(program)?;
    let slots: Vec<Type> = inference.slots.iter().map(|t| inference.unifier.resolve(t)).collect();
    let mut next = 0;
    for function in &mut program.functions {
        fill_annotations(&mut function.body, &slots, &mut next);
    }
    fill_annotations(&mut program.body, &slots, &mut next);
    Ok(inference.unifier.resolve(&ty))
}

/// The type of a program whose every let and lambda is annotated (annotations are verified, not changed).
pub fn type_of_annotated(program: &Program) -> Result<Type, TypeError> {
    let mut inference = Inference::new(Mode::Check);
    let ty = inference.infer_whole(program)?;
    Ok(inference.unifier.resolve(&ty))
}

/// Writes the slot types back in the order the inference visited the annotated nodes (pre-order).
fn fill_annotations(expr: &mut Expr, slots: &[Type], next: &mut usize) {
    let take = |next: &mut usize| {
        let ty = slots[*next].clone();
        *next += 1;
        ty
    };
    match &mut expr.kind {
        ExprKind::Let { .. } => {
            // Iterate along a chain of lets (generated programs have thousands).
            let mut current = expr;
            while matches!(current.kind, ExprKind::Let { .. }) {
                let ExprKind::Let { ty, value, body, .. } = &mut current.kind else {
                    unreachable!("checked")
                };
                let slot = take(next);
                if ty.is_none() {
                    *ty = Some(slot);
                }
                fill_annotations(value, slots, next);
                current = body;
            }
            fill_annotations(current, slots, next);
        }
        ExprKind::Lambda { ty, body, .. } => {
            let slot = take(next);
            if ty.is_none() {
                *ty = Some(slot);
            }
            fill_annotations(body, slots, next);
        }
        ExprKind::Vector { elements, element_type } => {
            let slot = take(next);
            if element_type.is_none() {
                if let Type::Array(base, _) = slot {
                    *element_type = Some(base);
                }
            }
            elements.iter_mut().for_each(|e| fill_annotations(e, slots, next));
        }
        ExprKind::Op { args, .. } | ExprKind::Call { args, .. } => {
            args.iter_mut().for_each(|e| fill_annotations(e, slots, next))
        }
        ExprKind::Tuple(components) => components.iter_mut().for_each(|e| fill_annotations(e, slots, next)),
        ExprKind::Project { tuple, .. } => fill_annotations(tuple, slots, next),
        ExprKind::Int(_)
        | ExprKind::Double(_)
        | ExprKind::Bool(_)
        | ExprKind::Char(_)
        | ExprKind::Complex(..)
        | ExprKind::Var(_)
        | ExprKind::OpRef(_) => {}
    }
}

struct Inference {
    mode: Mode,
    unifier: Unifier,
    /// Variables in scope, innermost last.
    environment: Vec<(String, TypeScheme)>,
    /// The inferred type of every annotated node, in pre-order (vector literals: `[κ]0` of their element type).
    slots: Vec<Type>,
    /// The program's functions: name, parameter types, result type.
    functions: Vec<(String, Vec<Type>, Type)>,
}

impl Inference {
    fn new(mode: Mode) -> Inference {
        Inference {
            mode,
            unifier: Unifier::new(),
            environment: Vec::new(),
            slots: Vec::new(),
            functions: Vec::new(),
        }
    }

    /// The functions (each body must have its declared result type; it sees only its parameters), then the body.
    fn infer_whole(&mut self, program: &Program) -> Result<Type, TypeError> {
        self.functions = program
            .functions
            .iter()
            .map(|function| {
                let parameters = function.parameters.iter().map(|(_, ty)| ty.clone()).collect();
                (function.name.clone(), parameters, function.result.clone())
            })
            .collect();
        for (position, function) in program.functions.iter().enumerate() {
            if program.functions[..position]
                .iter()
                .any(|other| other.name == function.name)
            {
                return Err(TypeError::IllFormed {
                    message: format!("the function {} is defined twice", function.name),
                    span: function.body.span,
                });
            }
            let scope = std::mem::take(&mut self.environment);
            for (name, ty) in &function.parameters {
                self.environment
                    .push((name.clone(), TypeScheme::monomorphic(ty.clone())));
            }
            let body_type = self.infer(&function.body, Some(&function.result));
            self.environment = scope;
            let body_type = body_type?;
            self.require_subtype(&body_type, &function.result, function.body.span)?;
        }
        self.infer(&program.body, None)
    }

    fn reserve_slot(&mut self) -> usize {
        self.slots.push(Type::Tuple(vec![]));
        self.slots.len() - 1
    }

    fn type_error(&self, error: UnifyError, span: Span) -> TypeError {
        match error {
            UnifyError::Types { expected, found } => TypeError::Mismatch {
                expected: print_type(&self.unifier.resolve(&expected)),
                found: print_type(&self.unifier.resolve(&found)),
                span,
            },
            UnifyError::Shapes { left, right } => TypeError::ShapeMismatch {
                left: print_shape(&self.unifier.resolve_shape(&left)),
                right: print_shape(&self.unifier.resolve_shape(&right)),
                span,
            },
            UnifyError::Occurs { variable, ty } => TypeError::InfiniteType {
                variable: format!("'t{variable}"),
                ty: print_type(&ty),
                span,
            },
        }
    }

    /// `found ⊆ expected`, reporting the whole types (resolved) when it fails.
    fn require_subtype(&mut self, found: &Type, expected: &Type, span: Span) -> Result<(), TypeError> {
        let before_found = self.unifier.resolve(found);
        let before_expected = self.unifier.resolve(expected);
        self.unifier
            .subtype(found, expected, SubtypeRules::Full)
            .map_err(|error| match error {
                UnifyError::Types { .. } | UnifyError::Shapes { .. } => TypeError::Mismatch {
                    expected: print_type(&before_expected),
                    found: print_type(&before_found),
                    span,
                },
                occurs => self.type_error(occurs, span),
            })
    }

    /// An annotation's variables are local to it: they become fresh inference variables.
    fn annotation(&mut self, ty: &Type) -> Type {
        let mut variables = Variables::default();
        variables.collect(ty);
        let scheme = TypeScheme {
            base_variables: variables.base.into_iter().collect(),
            shape_variables: variables.shapes.into_iter().collect(),
            type_variables: variables.types.into_iter().collect(),
            body: ty.clone(),
        };
        self.unifier.instantiate(&scheme)
    }

    fn environment_variables(&self) -> Variables {
        let mut variables = Variables::default();
        for (_, scheme) in &self.environment {
            let mut free = self.unifier.free_variables(&scheme.body);
            for id in &scheme.base_variables {
                free.base.remove(id);
            }
            for id in &scheme.shape_variables {
                free.shapes.remove(id);
            }
            for id in &scheme.type_variables {
                free.types.remove(id);
            }
            variables.extend(&free);
        }
        variables
    }

    /// Infers the type of `expr`. `expected` (when known) guides unannotated lambda parameters.
    fn infer(&mut self, expr: &Expr, expected: Option<&Type>) -> Result<Type, TypeError> {
        let span = expr.span;
        match &expr.kind {
            ExprKind::Int(n) if *n >= 0 => Ok(Type::Singleton(BaseType::Int, super::ast::Shape::constant(*n as u64))),
            ExprKind::Int(_) => Ok(Type::scalar(BaseType::Int)),
            ExprKind::Bool(b) => Ok(Type::Singleton(BaseType::Bool, super::ast::Shape::constant(*b as u64))),
            ExprKind::Double(_) => Ok(Type::scalar(BaseType::Double)),
            ExprKind::Char(_) => Ok(Type::scalar(BaseType::Char)),
            ExprKind::Complex(..) => Ok(Type::scalar(BaseType::Complex)),
            ExprKind::Var(name) => {
                let scheme = self
                    .environment
                    .iter()
                    .rev()
                    .find(|(bound, _)| bound == name)
                    .map(|(_, scheme)| scheme.clone())
                    .ok_or_else(|| TypeError::UnboundVariable {
                        name: name.clone(),
                        span,
                    })?;
                Ok(self.unifier.instantiate(&scheme))
            }
            ExprKind::Vector { elements, element_type } => self.infer_vector(elements, *element_type, span),
            ExprKind::OpRef(op) => Ok(self.unifier.instantiate(op.scheme())),
            ExprKind::Op { op, args } => {
                if args.len() != op.arity() {
                    return Err(TypeError::Arity {
                        op: op.name().to_string(),
                        expected: op.arity(),
                        found: args.len(),
                        span,
                    });
                }
                let mut ty = self.unifier.instantiate(op.scheme());
                for arg in args {
                    let Type::Function(parameter, result) = ty else {
                        unreachable!("arity counted the arrows")
                    };
                    let parameter = self.unifier.resolve(&parameter);
                    let found = self.infer(arg, Some(&parameter))?;
                    self.require_subtype(&found, &parameter, arg.span)?;
                    ty = *result;
                }
                Ok(ty)
            }
            ExprKind::Let { .. } => {
                // Iterate along a chain of lets (generated programs have thousands).
                let scope = self.environment.len();
                let mut current = expr;
                while let ExprKind::Let { name, ty, value, body } = &current.kind {
                    self.infer_binding(name, ty.as_ref(), value, current.span)?;
                    current = body;
                }
                let result = self.infer(current, expected);
                self.environment.truncate(scope);
                result
            }
            ExprKind::Lambda { parameter, ty, body } => {
                let slot = self.reserve_slot();
                let expected = expected.map(|e| self.unifier.resolve(e));
                let (expected_parameter, expected_result) = match &expected {
                    Some(Type::Function(a, r)) => (Some((**a).clone()), Some((**r).clone())),
                    _ => (None, None),
                };
                let parameter_type = match (ty, expected_parameter) {
                    (Some(ty), expected_parameter) => {
                        let annotated = self.annotation(ty);
                        // An annotated parameter whose expected type is still unknown (the `'t` of `power`,
                        // `powerUntil` or `condScl`) decides that type: `condScl(fn x:[int]1 => [2,3,5], b, [])` is a
                        // `[int]1`, whatever the lengths of the branches.
                        if let Some(expected_parameter) = expected_parameter {
                            if let Type::Var(_) = self.unifier.resolve(&expected_parameter) {
                                self.require_subtype(&annotated.without_known_values(), &expected_parameter, span)?;
                            }
                        }
                        annotated
                    }
                    (None, _) if self.mode == Mode::Check => {
                        return Err(TypeError::MissingAnnotation {
                            name: parameter.clone(),
                            span,
                        });
                    }
                    (None, Some(expected)) => expected,
                    (None, None) => self.unifier.fresh_type(),
                };
                self.slots[slot] = parameter_type.clone();
                self.environment
                    .push((parameter.clone(), TypeScheme::monomorphic(parameter_type.clone())));
                let body_type = self.infer(body, expected_result.as_ref());
                self.environment.pop();
                let mut body_type = body_type?;
                // Subsumption on the body: a lambda expected to return `[κ]0` may return `S(κ,n)`.
                if let Some(expected_result) = expected_result {
                    // A result type still unknown is the `'t` of `power`, `powerUntil` or `condScl`, which is also
                    // the type of the loop state: bind it to the body's type without known values, so that
                    // `power(fn y => 5, 2, 0)` types with `'t = [int]0` rather than `S(int,5)` (which `0` is not).
                    if let Type::Var(_) = self.unifier.resolve(&expected_result) {
                        let widened = self.unifier.resolve(&body_type).without_known_values();
                        self.require_subtype(&widened, &expected_result, body.span)?;
                    }
                    self.require_subtype(&body_type, &expected_result, body.span)?;
                    body_type = expected_result;
                }
                Ok(Type::function(parameter_type, body_type))
            }
            ExprKind::Tuple(components) => {
                let expected_components = match expected.map(|e| self.unifier.resolve(e)) {
                    Some(Type::Tuple(types)) if types.len() == components.len() => Some(types),
                    _ => None,
                };
                let mut types = Vec::with_capacity(components.len());
                for (position, component) in components.iter().enumerate() {
                    let expected = expected_components.as_ref().map(|types| &types[position]);
                    types.push(self.infer(component, expected)?);
                }
                Ok(Type::Tuple(types))
            }
            ExprKind::Call { function, args } => {
                let Some((_, parameters, result)) =
                    self.functions.iter().find(|(name, _, _)| name == function).cloned()
                else {
                    return Err(TypeError::UnboundVariable {
                        name: function.clone(),
                        span,
                    });
                };
                if parameters.len() != args.len() {
                    return Err(TypeError::Arity {
                        op: function.clone(),
                        expected: parameters.len(),
                        found: args.len(),
                        span,
                    });
                }
                for (arg, parameter) in args.iter().zip(&parameters) {
                    let found = self.infer(arg, Some(parameter))?;
                    self.require_subtype(&found, parameter, arg.span)?;
                }
                Ok(result)
            }
            ExprKind::Project { index, tuple } => {
                let tuple_type = self.infer(tuple, None)?;
                match self.unifier.resolve(&tuple_type) {
                    Type::Tuple(types) if *index >= 1 && *index <= types.len() => Ok(types[index - 1].clone()),
                    other => Err(TypeError::IllFormed {
                        message: format!("projection #{index} of a value of type {}", print_type(&other)),
                        span,
                    }),
                }
            }
        }
    }

    /// `let name:ty = value in ...`: infers the value, checks it against the annotation, and binds the name
    /// (generalised) in the environment.
    fn infer_binding(&mut self, name: &str, ty: Option<&Type>, value: &Expr, span: Span) -> Result<(), TypeError> {
        let slot = self.reserve_slot();
        let annotation = match ty {
            Some(ty) => Some(self.annotation(ty)),
            None if self.mode == Mode::Check => {
                return Err(TypeError::MissingAnnotation {
                    name: name.to_string(),
                    span,
                });
            }
            None => None,
        };
        let found = self.infer(value, annotation.as_ref())?;
        let bound = match annotation {
            Some(annotation) => {
                self.require_subtype(&found, &annotation, value.span)?;
                annotation
            }
            None => found,
        };
        self.slots[slot] = bound.clone();
        // Most bound types are closed; only a type with variables needs the (costly) environment scan.
        let scheme = if self.unifier.free_variables(&bound) == Variables::default() {
            TypeScheme::monomorphic(self.unifier.resolve(&bound))
        } else {
            self.unifier.generalize(&bound, &self.environment_variables())
        };
        self.environment.push((name.to_string(), scheme));
        Ok(())
    }

    fn infer_vector(
        &mut self,
        elements: &[Expr],
        element_type: Option<BaseType>,
        span: Span,
    ) -> Result<Type, TypeError> {
        let slot = self.reserve_slot();
        let base = match element_type {
            Some(base) => base,
            None if elements.is_empty() && self.mode == Mode::Check => {
                return Err(TypeError::MissingAnnotation {
                    name: "[]".to_string(),
                    span,
                });
            }
            None => self.unifier.fresh_base(),
        };
        let mut element_types = Vec::with_capacity(elements.len());
        for element in elements {
            let found = self.infer(element, None)?;
            self.require_subtype(&found, &Type::scalar(base), element.span)?;
            element_types.push(self.unifier.resolve(&found));
        }
        self.slots[slot] = Type::scalar(base);
        if let [Type::Singleton(single_base, value)] = element_types.as_slice() {
            return Ok(Type::SingletonVector(*single_base, value.clone()));
        }
        Ok(Type::Vector(base, super::ast::Shape::constant(elements.len() as u64)))
    }
}

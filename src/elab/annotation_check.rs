//! Annotations as types: every `⍝:` annotation is parsed before elaboration, and every annotated dfn is checked
//! once, generically, against its annotation (grammar.md §5).
//!
//! The generic check elaborates the dfn on placeholder arguments built from the annotation: each argument's base
//! type and rank are the annotated ones, and its lengths are the annotation's shape variables, which are *rigid*
//! (they stand for any natural number, so the elaborator does not know them). A base-type variable `κ` is rigid too:
//! elaboration is monomorphic, so the body is elaborated once for every base type κ may stand for, and each instance
//! must succeed and give the annotated result. The result's rank and base type are what elaboration found; its
//! lengths are proved from the elaborated term by [`super::symbolic_shapes`], or reported as not provable. The code
//! built for the check is thrown away; calls elaborate the body again at their own argument types, and are checked
//! against the annotation (annotations.rs). The check runs where the dfn value is made (its literal is elaborated, or
//! a statement annotation is attached to it), in the environment it closes over.

use super::annotations::{parse_annotation, AnnotatedBase, AnnotatedType, ShapeTerm};
use super::env::{Arr, Closure, Scalar, Val};
use super::error::{ElabError, ElabResult};
use super::ir::{Base, Expr};
use super::operators::value_expr;
use super::symbolic_shapes::{Extent, LinearTerm, ShapeAnalysis, Symbolic};
use super::Elaborator;
use crate::source::Span;
use crate::syntax::ast;
use aplc_runtime::display::PrintSettings;
use std::collections::BTreeMap;

/// Every base type a base-type variable stands for.
const EVERY_BASE: [Base; 5] = [Base::Bool, Base::Int, Base::Double, Base::Complex, Base::Char];

/// Ranks above this are checked at calls only (a placeholder has one shape variable per axis).
const MAX_CHECKED_RANK: i64 = 64;

/// The elaboration state a sandboxed call may change, saved to be put back.
struct SavedElaborationState {
    frames: Vec<Vec<super::Entry>>,
    env: super::env::Env,
    globals: super::env::Env,
    print: PrintSettings,
    call_depth: usize,
    inline_budget: usize,
    pending_annotation: Option<(String, String, Span)>,
    active_dfns: Vec<super::dfns::CalleeKey>,
    loops: Vec<Option<super::dfns::LoopMode>>,
    functions: usize,
    recursive: Vec<super::dfns::RecursiveBuild>,
}

/// A malformed annotation is a SYNTAX ERROR at the annotation, whether or not its dfn is ever used.
fn malformed(annotation: &ast::Comment, message: String) -> ElabError {
    ElabError::syntax(annotation.span, format!("malformed type annotation: {message}"))
        .with_hint("grammar.md §5 gives the annotation grammar, e.g. `⍝: <int>(ρ+1) → <int>ρ`")
}

/// Parse a dfn's annotation (`⍝: type` after its `{`).
pub fn parse_dfn_annotation(annotation: &ast::Comment) -> ElabResult<AnnotatedType> {
    let text = annotation.annotation_text().unwrap_or_default();
    parse_annotation(text).map_err(|message| malformed(annotation, message))
}

/// Parse a statement's annotation (`⍝: name : type` above it): the name and the type.
pub fn parse_statement_annotation(annotation: &ast::Comment) -> ElabResult<(String, AnnotatedType)> {
    let text = annotation.annotation_text().unwrap_or_default();
    let Some((name, type_text)) = text.split_once(':') else {
        return Err(malformed(
            annotation,
            "an annotation above a statement is `⍝: name : type`".to_string(),
        ));
    };
    let annotated = parse_annotation(type_text).map_err(|message| malformed(annotation, message))?;
    Ok((name.trim().to_string(), annotated))
}

/// Parse every annotation in these statements and in every dfn inside them, at any depth.
pub fn parse_every_annotation(statements: &[ast::Statement]) -> ElabResult<()> {
    for statement in statements {
        if let Some(annotation) = &statement.annotation {
            parse_statement_annotation(annotation)?;
        }
        let mut nested = NestedDfnAnnotations { first_error: None };
        ast::walk_statements(std::slice::from_ref(statement), &mut nested);
        if let Some(error) = nested.first_error {
            return Err(error);
        }
    }
    Ok(())
}

/// Parses the annotations of the dfns a walk meets (and, through [`parse_every_annotation`], of theirs).
struct NestedDfnAnnotations {
    first_error: Option<ElabError>,
}

impl ast::BodyVisitor for NestedDfnAnnotations {
    fn item(&mut self, item: &ast::Item) {
        let ast::Item::Dfn(dfn) = item else { return };
        if self.first_error.is_some() {
            return;
        }
        let parsed = match &dfn.annotation {
            Some(annotation) => parse_dfn_annotation(annotation).map(|_| ()),
            None => Ok(()),
        };
        if let Err(error) = parsed.and_then(|()| parse_every_annotation(&dfn.body)) {
            self.first_error = Some(error);
        }
    }
}

/// Where a dfn body mentions `⍺` (not looking into nested dfns), and whether it gives `⍺` a default (`⍺←v`).
#[derive(Default)]
struct AlphaUses {
    first_use: Option<Span>,
    has_default: bool,
}

impl AlphaUses {
    fn of_body(body: &[ast::Statement]) -> AlphaUses {
        let mut uses = AlphaUses::default();
        ast::walk_statements(body, &mut uses);
        uses
    }
}

impl ast::BodyVisitor for AlphaUses {
    fn item(&mut self, item: &ast::Item) {
        if let ast::Item::Special(ast::SpecialName::Alpha, span) = item {
            self.first_use.get_or_insert(*span);
        }
    }

    fn assignment(&mut self, assignment: &ast::Assignment) {
        if matches!(assignment.target, ast::AssignTarget::Alpha(_)) {
            self.has_default = true;
        }
    }
}

/// `a → b → c` as `[a, b, c]`.
pub fn function_parts(annotated: AnnotatedType) -> Vec<AnnotatedType> {
    let mut parts = Vec::new();
    let mut current = annotated;
    while let AnnotatedType::Function(argument, result) = current {
        parts.push(*argument);
        current = *result;
    }
    parts.push(current);
    parts
}

/// The base-type variables of the annotation, in order of first use.
fn base_variables(parts: &[AnnotatedType]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for part in parts {
        if let Some(AnnotatedBase::Variable(name)) = part_base(part) {
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
    }
    names
}

fn part_base(part: &AnnotatedType) -> Option<&AnnotatedBase> {
    match part {
        AnnotatedType::Array(base, _)
        | AnnotatedType::Vector(base, _)
        | AnnotatedType::Singleton(base, _)
        | AnnotatedType::SingletonVector(base, _) => Some(base),
        AnnotatedType::Function(..) => None,
    }
}

/// Every assignment of base types to the variables (5ⁿ of them).
fn base_instances(variables: &[String]) -> Vec<BTreeMap<String, Base>> {
    let mut instances = vec![BTreeMap::new()];
    for variable in variables {
        instances = instances
            .into_iter()
            .flat_map(|instance| {
                EVERY_BASE.iter().map(move |base| {
                    let mut extended = instance.clone();
                    extended.insert(variable.clone(), *base);
                    extended
                })
            })
            .collect();
    }
    instances
}

/// `κ = char` (or `κ = char, α = int`), for messages.
fn describe_instance(instance: &BTreeMap<String, Base>) -> String {
    instance
        .iter()
        .map(|(name, base)| format!("{name} = {}", base.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why the generic check does not apply to an annotation (it is then checked at calls only), if it does not.
fn reason_to_skip(parts: &[AnnotatedType]) -> Option<&'static str> {
    for part in parts {
        match part {
            AnnotatedType::Function(..) => return Some("a function argument"),
            AnnotatedType::Array(_, rank) if !rank.variables.is_empty() => return Some("a rank variable"),
            AnnotatedType::Array(_, rank) if rank.constant > MAX_CHECKED_RANK => return Some("a very large rank"),
            _ => {}
        }
    }
    None
}

fn shape_term_is_constant(term: &ShapeTerm) -> Option<i64> {
    term.variables.is_empty().then_some(term.constant)
}

/// The span of the statement that gives a dfn's result (its last statement), for the second label.
fn result_statement_span(dfn: &ast::Dfn) -> Span {
    dfn.body.last().map_or(dfn.span, |statement| statement.span)
}

/// One generic check: the dfn, its annotation's span and parts, and the base types of one instance.
struct GenericCheck<'a> {
    closure: &'a Closure,
    annotation_span: Span,
    parts: &'a [AnnotatedType],
    instance: BTreeMap<String, Base>,
}

impl GenericCheck<'_> {
    fn base(&self, annotated: &AnnotatedBase) -> Base {
        match annotated {
            AnnotatedBase::Known(base) => *base,
            AnnotatedBase::Variable(name) => self.instance.get(name).copied().unwrap_or(Base::Int),
        }
    }

    fn error(&self, message: String, body_span: Span) -> ElabError {
        ElabError::Type {
            message,
            span: self.annotation_span,
            use_span: None,
            body_span: Some(body_span),
            hint: None,
        }
    }

    /// "κ stands for any base type, but for κ = char " before a message about one instance, when there are variables.
    fn instance_prefix(&self) -> String {
        if self.instance.is_empty() {
            String::new()
        } else {
            let names: Vec<&str> = self.instance.keys().map(String::as_str).collect();
            let stands = if names.len() == 1 { "stands" } else { "stand" };
            format!(
                "{} {stands} for any base type, but for {} ",
                names.join(" and "),
                describe_instance(&self.instance)
            )
        }
    }
}

impl Elaborator {
    /// Check an annotated dfn generically when its value is made (a dfn literal, or a statement annotation on an
    /// assignment), once per annotation; operators are checked at their uses only.
    pub fn check_annotated_dfn_once(&mut self, closure: &Closure, annotation: &ast::Comment) -> ElabResult<()> {
        if closure.operands.is_some() || !self.annotations_checked.insert(annotation.span) {
            return Ok(());
        }
        self.check_dfn_generically(closure, annotation)
    }

    fn check_dfn_generically(&mut self, closure: &Closure, annotation: &ast::Comment) -> ElabResult<()> {
        let annotation_span = annotation.span;
        let parts = function_parts(parse_dfn_annotation(annotation)?);
        let dfn = closure.dfn.clone();
        let argument_count = parts.len() - 1;
        if argument_count == 0 || argument_count > 2 {
            return Err(ElabError::type_error(
                annotation_span,
                format!(
                    "a dfn's annotation gives one or two argument types and a result type (`⍵ → result` or `⍺ → ⍵ → \
                     result`); this one gives {argument_count} argument(s)"
                ),
            ));
        }
        self.check_valence(&dfn, argument_count, annotation_span)?;
        if reason_to_skip(&parts).is_some() {
            return Ok(());
        }
        for instance in base_instances(&base_variables(&parts)) {
            let check = GenericCheck {
                closure,
                annotation_span,
                parts: &parts,
                instance,
            };
            self.check_one_instance(&check)?;
        }
        Ok(())
    }

    /// The annotation's number of arguments must be what the body uses: `⍺` for two, only `⍵` for one.
    fn check_valence(&self, dfn: &ast::Dfn, argument_count: usize, annotation_span: Span) -> ElabResult<()> {
        let alpha = AlphaUses::of_body(&dfn.body);
        let error = |message: &str, body_span: Span| ElabError::Type {
            message: message.to_string(),
            span: annotation_span,
            use_span: None,
            body_span: Some(body_span),
            hint: Some("a monadic dfn's type is `⍵ → result`, a dyadic one's `⍺ → ⍵ → result`".to_string()),
        };
        match (argument_count, alpha.first_use) {
            (2, None) => Err(error(
                "the annotation gives two arguments (⍺ and ⍵), but the dfn uses only ⍵",
                dfn.span,
            )),
            (1, Some(use_span)) if !alpha.has_default => Err(error(
                "the annotation gives one argument (⍵), but the dfn uses ⍺",
                use_span,
            )),
            _ => Ok(()),
        }
    }

    fn check_one_instance(&mut self, check: &GenericCheck<'_>) -> ElabResult<()> {
        let mut analysis = ShapeAnalysis::default();
        let arguments = &check.parts[..check.parts.len() - 1];
        let mut placeholders = Vec::new();
        for (position, part) in arguments.iter().enumerate() {
            let role = if position + 1 == arguments.len() { "⍵" } else { "⍺" };
            let (array, symbolic) = self.placeholder_argument(check, part, role);
            if let Expr::Var(name) = &array.expr {
                analysis.bind(name, symbolic);
            }
            placeholders.push(Val::Array(array));
        }
        let right = placeholders.pop().unwrap_or(Val::Tuple(Vec::new()));
        let left = placeholders.pop();
        let saved = self.enter_sandbox();
        let outcome = self.call_dfn_unchecked(check.closure, left, right, check.closure.dfn.span);
        let frame = self.frames.pop().unwrap_or_default();
        self.leave_sandbox(saved);
        let result = match outcome {
            Ok(result) => result,
            // A construct aplc compiles only for known values (recursion unfolded on constants): the dfn is checked
            // at its calls alone.
            Err(ElabError::Nonce { .. }) => return Ok(()),
            Err(error) => return Err(self.body_failure(check, error)),
        };
        let symbolic = analysis.evaluate(&super::wrap_entries(frame, value_expr(&result)));
        self.compare_result(check, result, &symbolic)
    }

    /// An error the body gives on the annotated argument types: the annotation promises what the body cannot do.
    fn body_failure(&self, check: &GenericCheck<'_>, error: ElabError) -> ElabError {
        let message = if check.instance.is_empty() {
            format!("the body fails on the annotated argument types: {error}")
        } else {
            let prefix = check.instance_prefix();
            format!("{prefix}the body fails: {error}")
        };
        check.error(message, error.span())
    }

    /// An argument of the annotated type whose lengths are the annotation's (rigid) shape variables.
    fn placeholder_argument(&mut self, check: &GenericCheck<'_>, part: &AnnotatedType, role: &str) -> (Arr, Symbolic) {
        let name = self.fresh_name("a");
        let variable = Expr::Var(name);
        match part {
            AnnotatedType::Array(base, rank) => {
                let rank = shape_term_is_constant(rank)
                    .and_then(|r| usize::try_from(r).ok())
                    .unwrap_or(0);
                // Each axis is a length of its own: `(⍴⍵)[1]`, `(⍴⍵)[2]`, ...
                let extents = (1..=rank)
                    .map(|axis| Extent::Term(LinearTerm::variable(&format!("(⍴{role})[{axis}]"))))
                    .collect();
                let array = Arr::dynamic(variable, check.base(base), rank);
                (array, Symbolic::array(extents))
            }
            AnnotatedType::Vector(base, length) => {
                let array =
                    Arr::dynamic(variable, check.base(base), 1).with_extents(vec![shape_term_is_constant(length)]);
                let extent = Extent::Term(LinearTerm::from_annotation(length));
                (array, Symbolic::array(vec![extent]))
            }
            AnnotatedType::Singleton(base, value) => {
                let base = check.base(base);
                let symbolic = Symbolic::scalar_with_value(Extent::Term(LinearTerm::from_annotation(value)));
                match shape_term_is_constant(value) {
                    Some(constant) if base == Base::Int => (Arr::scalar_constant(Scalar::Int(constant)), symbolic),
                    _ => (Arr::dynamic(variable, base, 0), symbolic),
                }
            }
            AnnotatedType::SingletonVector(base, value) => {
                let array = Arr::dynamic(variable, check.base(base), 1).with_extents(vec![Some(1)]);
                let symbolic = Symbolic::Array {
                    extents: vec![Extent::Term(LinearTerm::constant(1))],
                    values: Some(vec![Extent::Term(LinearTerm::from_annotation(value))]),
                };
                (array, symbolic)
            }
            AnnotatedType::Function(..) => (Arr::dynamic(variable, Base::Int, 0), Symbolic::array(Vec::new())),
        }
    }

    /// A fresh scope for a call whose code is thrown away, with the state it may change saved.
    fn enter_sandbox(&mut self) -> SavedElaborationState {
        SavedElaborationState {
            frames: std::mem::replace(&mut self.frames, vec![Vec::new()]),
            env: self.env.clone(),
            globals: self.globals.clone(),
            print: self.print,
            call_depth: self.call_depth,
            inline_budget: std::mem::replace(&mut self.inline_budget, super::INLINE_BUDGET),
            pending_annotation: self.pending_annotation.take(),
            active_dfns: std::mem::take(&mut self.active_dfns),
            loops: std::mem::take(&mut self.loops),
            functions: self.functions.len(),
            recursive: std::mem::take(&mut self.recursive),
        }
    }

    fn leave_sandbox(&mut self, saved: SavedElaborationState) {
        self.frames = saved.frames;
        self.env = saved.env;
        self.globals = saved.globals;
        self.print = saved.print;
        self.call_depth = saved.call_depth;
        self.inline_budget = saved.inline_budget;
        self.pending_annotation = saved.pending_annotation;
        self.active_dfns = saved.active_dfns;
        self.loops = saved.loops;
        self.functions.truncate(saved.functions);
        self.recursive = saved.recursive;
    }

    /// The result must have the annotated rank and base type, and its lengths must be proved equal to the
    /// annotation's.
    fn compare_result(&self, check: &GenericCheck<'_>, result: Val, symbolic: &Symbolic) -> ElabResult<()> {
        let body_span = result_statement_span(&check.closure.dfn);
        let prefix = check.instance_prefix();
        let array = match result {
            Val::Array(array) => array,
            Val::Tuple(_) | Val::Nested { .. } => {
                return Err(check.error(
                    format!("{prefix}the result is a strand (tuple) by the body, the annotation says an array"),
                    body_span,
                ))
            }
            Val::Function(_) | Val::Operator(_) => {
                return Err(check.error(
                    format!("{prefix}the result is a function by the body, the annotation says an array"),
                    body_span,
                ))
            }
        };
        let Some(annotated) = check.parts.last() else {
            return Ok(());
        };
        // Only the base type depends on the instance of κ; a rank or length is the same whatever κ stands for.
        let mismatch = |message: String| check.error(message, body_span);
        let expected_rank = match annotated {
            AnnotatedType::Array(_, rank) => shape_term_is_constant(rank).unwrap_or(0),
            AnnotatedType::Vector(..) | AnnotatedType::SingletonVector(..) => 1,
            AnnotatedType::Singleton(..) | AnnotatedType::Function(..) => 0,
        };
        if array.rank as i64 != expected_rank {
            return Err(mismatch(format!(
                "the result's rank is {} by the body, the annotation says {expected_rank}",
                array.rank
            )));
        }
        if let Some(base) = part_base(annotated) {
            let expected = check.base(base);
            let promotes = array.base.is_numeric() && expected.is_numeric() && array.base < expected;
            if array.base != expected && !promotes {
                return Err(mismatch(format!(
                    "{prefix}the result is {} by the body, the annotation says {}",
                    array.base.name(),
                    expected.name()
                )));
            }
        }
        let body_extent = |axis: usize| match array.extents.get(axis) {
            Some(Some(known)) => Extent::Term(LinearTerm::constant(*known)),
            _ => symbolic
                .extents()
                .and_then(|extents| extents.get(axis).cloned())
                .unwrap_or_else(|| Extent::Unknown("is not followed by the analysis".to_string())),
        };
        let body_value = || match array.constant_scalar().and_then(|scalar| scalar.as_int()) {
            Some(known) => Extent::Term(LinearTerm::constant(known)),
            None => symbolic
                .single_value()
                .cloned()
                .unwrap_or_else(|| Extent::Unknown("depends on the data".to_string())),
        };
        match annotated {
            AnnotatedType::Vector(_, length) => prove_equal(&body_extent(0), length, "length").map_err(mismatch),
            AnnotatedType::Singleton(_, value) => prove_equal(&body_value(), value, "value").map_err(mismatch),
            AnnotatedType::SingletonVector(_, value) => {
                prove_equal(&body_extent(0), &ShapeTerm::constant(1), "length").map_err(&mismatch)?;
                prove_equal(&body_value(), value, "value").map_err(mismatch)
            }
            AnnotatedType::Array(..) | AnnotatedType::Function(..) => Ok(()),
        }
    }
}

/// Whether the body's extent is the annotation's term for every value of the shape variables; the message if not.
fn prove_equal(body: &Extent, annotated: &ShapeTerm, what: &str) -> Result<(), String> {
    let expected = LinearTerm::from_annotation(annotated);
    match body {
        Extent::Term(term) if *term == expected => Ok(()),
        Extent::Term(term) => Err(format!(
            "the result's {what} is {term} by the body, the annotation says {expected}"
        )),
        Extent::Unknown(reason) => Err(format!(
            "the annotation says the result's {what} is {expected}, which is not provable: by the body it {reason}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_base_variable_gets_every_base_type() {
        let parts = function_parts(parse_annotation("<κ>ρ → <α>ρ → <κ>ρ").unwrap());
        let variables = base_variables(&parts);
        assert_eq!(variables, vec!["κ".to_string(), "α".to_string()]);
        let instances = base_instances(&variables);
        assert_eq!(instances.len(), 25);
        assert!(instances.iter().any(|i| i["κ"] == Base::Char && i["α"] == Base::Bool));
        assert_eq!(base_instances(&[]).len(), 1);
    }

    #[test]
    fn rank_variables_and_function_arguments_skip_the_generic_check() {
        let with_rank_variable = function_parts(parse_annotation("[int]r → [int]r").unwrap());
        assert_eq!(reason_to_skip(&with_rank_variable), Some("a rank variable"));
        let plain = function_parts(parse_annotation("[int]2 → <int>ρ").unwrap());
        assert_eq!(reason_to_skip(&plain), None);
    }

    #[test]
    fn a_length_is_proved_only_when_the_terms_are_equal() {
        let rho = ShapeTerm {
            constant: 0,
            variables: vec!["ρ".to_string()],
        };
        assert!(prove_equal(&Extent::Term(LinearTerm::variable("ρ")), &rho, "length").is_ok());
        let shorter = LinearTerm::variable("ρ").add(&LinearTerm::constant(-1)).unwrap();
        let message = prove_equal(&Extent::Term(shorter), &rho, "length").unwrap_err();
        assert_eq!(message, "the result's length is ρ-1 by the body, the annotation says ρ");
        let unknown = Extent::Unknown("is max(ρ-1,0)".to_string());
        assert_eq!(
            prove_equal(&unknown, &rho, "length").unwrap_err(),
            "the annotation says the result's length is ρ, which is not provable: by the body it is max(ρ-1,0)"
        );
    }
}

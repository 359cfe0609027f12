//! The functions of a TAIL program (recursive APL dfns) and their calls, in the loop IR. A scalar parameter is a
//! variable; an array parameter a block the caller owns, read row-major from position 0, with a variable per extent.
//! A scalar result is an expression; an array result a block the function allocates (a copy when the body would
//! return a parameter's block), which the call hands to the caller: the caller frees it like a block it allocated.

use super::lower::{insert_frees, Env, LowerResult, Lowered, Lowerer};
use super::pull::{Arr, Materialised};
use crate::loops::error::LowerError;
use crate::loops::ir::{self, Argument, ArrayRef, Expr, Layout, ResultValue, ScalarType, Slot, Stmt};
use crate::tail::ast::{self as tail};
use std::collections::HashSet;

/// A parameter's or a result's kind: a scalar, or an array of an element type and rank.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Kind {
    Scalar(ScalarType),
    Array(ScalarType, usize),
}

/// A function's parameter kinds and result kind.
pub(super) type Signature = (Vec<Kind>, Kind);

fn kind_of(ty: &tail::Type, what: &str) -> LowerResult<Kind> {
    let unsupported = || LowerError::Unsupported {
        what: format!("{what} of type {}", crate::tail::printer::print_type(ty)),
    };
    let (base, rank) = match ty {
        tail::Type::Array(base, rank) => (*base, rank.as_constant().ok_or_else(unsupported)?),
        tail::Type::Singleton(base, _) => (*base, 0),
        tail::Type::Vector(base, _) | tail::Type::SingletonVector(base, _) => (*base, 1),
        _ => return Err(unsupported()),
    };
    let element = ScalarType::from_base(base).ok_or_else(unsupported)?;
    Ok(match rank {
        0 => Kind::Scalar(element),
        rank => Kind::Array(element, rank as usize),
    })
}

impl Lowerer {
    /// The program's functions.
    pub(super) fn lower_functions(&mut self, program: &tail::Program) -> LowerResult<Vec<ir::Function>> {
        for function in &program.functions {
            let parameters = function
                .parameters
                .iter()
                .map(|(name, ty)| kind_of(ty, &format!("the parameter {name} of {}", function.name)))
                .collect::<LowerResult<Vec<_>>>()?;
            let result = kind_of(&function.result, &format!("the result of {}", function.name))?;
            self.function_signatures
                .insert(function.name.clone(), (parameters, result));
        }
        program
            .functions
            .iter()
            .map(|function| self.lower_function(function))
            .collect()
    }

    fn lower_function(&mut self, function: &tail::Function) -> LowerResult<ir::Function> {
        let (kinds, result_kind) = self.function_signatures[&function.name].clone();
        let mut env = Env::default();
        let mut parameters = Vec::new();
        for ((name, _), kind) in function.parameters.iter().zip(kinds) {
            let (slot, value) = self.fresh_slot(kind, "p");
            env = env.bind(name, value);
            parameters.push(slot);
        }
        let parameter_blocks: HashSet<u32> = parameters
            .iter()
            .filter_map(|slot| slot.block())
            .map(|b| b.id)
            .collect();
        let (mut body, result) = self.capture(|lowerer| {
            let value = lowerer.lower(&function.body, &env)?;
            match result_kind {
                Kind::Scalar(_) => {
                    let value = lowerer.as_scalar(value)?;
                    Ok(ResultValue::Scalar(lowerer.bind(value, "r")))
                }
                Kind::Array(..) => {
                    let Lowered::Array(arr) = value else {
                        return Err(LowerError::ill_typed("a function's array result"));
                    };
                    let mut array = lowerer.array_ref(&arr)?;
                    if parameter_blocks.contains(&array.block.id) {
                        let copy = lowerer.materialise(&Arr::Mat(materialised(&array)))?;
                        array = ArrayRef {
                            block: copy.block,
                            shape: copy.shape,
                        };
                    }
                    Ok(ResultValue::Array(array))
                }
            }
        })?;
        let keep: HashSet<u32> = match &result {
            ResultValue::Array(array) => [array.block.id].into_iter().collect(),
            _ => HashSet::new(),
        };
        insert_frees(&mut body, &keep);
        self.finish_statements(&mut body);
        Ok(ir::Function {
            name: function.name.clone(),
            parameters,
            body,
            result,
        })
    }

    /// A fresh slot of a kind, and its value.
    fn fresh_slot(&mut self, kind: Kind, hint: &str) -> (Slot, Lowered) {
        match kind {
            Kind::Scalar(ty) => {
                let var = self.fresh_var(ty, hint);
                (Slot::Scalar(var.clone()), Lowered::Scalar(Expr::Var(var)))
            }
            Kind::Array(element, rank) => {
                let block = self.fresh_block(element);
                let shape: Vec<ir::Var> = (0..rank).map(|_| self.fresh_var(ScalarType::Int, "n")).collect();
                let array = ArrayRef {
                    block,
                    shape: shape.iter().map(Expr::var).collect(),
                };
                (
                    Slot::Array { block, shape },
                    Lowered::Array(Arr::Mat(materialised(&array))),
                )
            }
        }
    }

    /// `call f(args)`: each argument evaluated in order (an array materialised row-major), then the call.
    pub(super) fn lower_call(&mut self, function: &str, args: &[tail::Expr], env: &Env) -> LowerResult<Lowered> {
        let (kinds, result_kind) = self
            .function_signatures
            .get(function)
            .cloned()
            .ok_or_else(|| LowerError::ill_typed("a call of a function the program does not define"))?;
        let mut arguments = Vec::with_capacity(args.len());
        for (arg, kind) in args.iter().zip(kinds) {
            let value = self.lower(arg, env)?;
            // Bound now, so that an argument that fails does so before the calls of later arguments.
            arguments.push(match kind {
                Kind::Scalar(_) => {
                    let value = self.as_scalar(value)?;
                    Argument::Scalar(self.bind(value, "arg"))
                }
                Kind::Array(..) => {
                    let Lowered::Array(arr) = value else {
                        return Err(LowerError::ill_typed("an array argument"));
                    };
                    Argument::Array(self.array_ref(&arr)?)
                }
            });
        }
        let (result, value) = self.fresh_slot(result_kind, "call");
        self.emit(Stmt::Call {
            result,
            function: function.to_string(),
            args: arguments,
            site: self.site,
        });
        Ok(value)
    }
}

/// A row-major block from position 0 as a materialised array.
fn materialised(array: &ArrayRef) -> Materialised {
    Materialised {
        block: array.block,
        shape: array.shape.clone(),
        layout: Layout::row_major(&array.shape),
    }
}

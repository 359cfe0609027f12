//! Hybrid pull arrays (digest §4.2): an array during lowering is its element type, its shape (one IR expression per
//! axis: the rank is static) and an index function, either flat (`F`: takes a row-major position) or shaped (`N`: takes
//! one index per axis). Each operation keeps the form that makes it cheap: transpositions and first-axis operations
//! want the shaped form, reshape and ravel the flat one; converting costs div/mod (`F` from `N`) or multiply-adds.
//!
//! A materialised array is a block plus a [`Layout`] (offset and strides: an LMAD over IR expressions). Transposition,
//! drop, reversal and indexing along an axis change only the layout, never the data, exactly as the memory IR's LMAD
//! operations will. Vector literals stay [`Arr::Literal`] (their elements known) until used as data, so shape and axis
//! arguments cost nothing.

use super::lower::{LowerResult, Lowerer};
use crate::loops::error::LowerError;
use crate::loops::ir::{Block, Expr, Layout, ScalarType, Stmt};
use crate::source::Span;
use std::rc::Rc;

/// Reads the element at a row-major position.
pub type FlatFn = Rc<dyn Fn(&mut Lowerer, Expr) -> LowerResult<Expr>>;
/// Reads the element at a multi-index (one expression per axis).
pub type ShapedFn = Rc<dyn Fn(&mut Lowerer, &[Expr]) -> LowerResult<Expr>>;

#[derive(Clone)]
pub enum Index {
    Flat(FlatFn),
    Shaped(ShapedFn),
}

/// A pull array: elements computed on demand.
#[derive(Clone)]
pub struct Pull {
    pub element: ScalarType,
    pub shape: Vec<Expr>,
    pub index: Index,
    /// Cheap enough to recompute on every use (iota, broadcast scalars): never materialised by the use-count rule.
    pub cheap: bool,
}

impl Pull {
    pub fn flat(
        element: ScalarType,
        shape: Vec<Expr>,
        f: impl Fn(&mut Lowerer, Expr) -> LowerResult<Expr> + 'static,
    ) -> Pull {
        Pull {
            element,
            shape,
            index: Index::Flat(Rc::new(f)),
            cheap: false,
        }
    }

    pub fn shaped(
        element: ScalarType,
        shape: Vec<Expr>,
        f: impl Fn(&mut Lowerer, &[Expr]) -> LowerResult<Expr> + 'static,
    ) -> Pull {
        Pull {
            element,
            shape,
            index: Index::Shaped(Rc::new(f)),
            cheap: false,
        }
    }

    /// The same array, whose index function lowers at `site`: the checks it emits (an index out of range, say) report
    /// the APL text that built the array, not the one that reads it.
    pub fn at_site(self, site: Span) -> Pull {
        let index = match self.index {
            Index::Flat(f) => Index::Flat(Rc::new(move |lowerer: &mut Lowerer, position: Expr| {
                let enclosing = lowerer.site.replace(site);
                let element = f(lowerer, position);
                lowerer.site = enclosing;
                element
            })),
            Index::Shaped(f) => Index::Shaped(Rc::new(move |lowerer: &mut Lowerer, indices: &[Expr]| {
                let enclosing = lowerer.site.replace(site);
                let element = f(lowerer, indices);
                lowerer.site = enclosing;
                element
            })),
        };
        Pull { index, ..self }
    }

    /// A rank-0 array holding a (trivial) scalar expression.
    pub fn scalar(value: Expr) -> Pull {
        let element = value.ty();
        let mut pull = Pull::shaped(element, vec![], move |_, _| Ok(value.clone()));
        pull.cheap = true;
        pull
    }
}

/// An array in a memory block.
#[derive(Clone, Debug, PartialEq)]
pub struct Materialised {
    pub block: Block,
    pub shape: Vec<Expr>,
    pub layout: Layout,
}

/// An array during lowering.
#[derive(Clone)]
pub enum Arr {
    Pull(Pull),
    Mat(Materialised),
    /// A vector literal whose elements are trivial expressions (constants or variables).
    Literal {
        element: ScalarType,
        elements: Vec<Expr>,
    },
}

impl Arr {
    pub fn element(&self) -> ScalarType {
        match self {
            Arr::Pull(pull) => pull.element,
            Arr::Mat(mat) => mat.block.element,
            Arr::Literal { element, .. } => *element,
        }
    }

    pub fn shape(&self) -> Vec<Expr> {
        match self {
            Arr::Pull(pull) => pull.shape.clone(),
            Arr::Mat(mat) => mat.shape.clone(),
            Arr::Literal { elements, .. } => vec![Expr::Int(elements.len() as i64)],
        }
    }

    pub fn rank(&self) -> usize {
        match self {
            Arr::Pull(pull) => pull.shape.len(),
            Arr::Mat(mat) => mat.shape.len(),
            Arr::Literal { .. } => 1,
        }
    }

    /// Whether flat reads are the cheap ones (flat pull arrays and row-major blocks).
    pub fn prefers_flat(&self) -> bool {
        match self {
            Arr::Pull(pull) => matches!(pull.index, Index::Flat(_)),
            Arr::Mat(mat) => mat.layout.is_row_major(&mat.shape),
            Arr::Literal { .. } => true,
        }
    }
}

impl Lowerer {
    /// The number of elements of a shape, bound to a variable.
    pub fn size_of(&mut self, shape: &[Expr]) -> Expr {
        let size = Expr::product(shape);
        self.bind(size, "n")
    }

    /// A literal becomes a block (the only conversion that emits statements, so it happens where the op is lowered,
    /// never inside an index function).
    pub fn indexable(&mut self, arr: Arr) -> LowerResult<Arr> {
        match arr {
            Arr::Literal { element, elements } => {
                let block = self.fresh_block(element);
                let length = Expr::Int(elements.len() as i64);
                self.emit(Stmt::Alloc {
                    site: self.site,
                    block,
                    size: length.clone(),
                });
                for (k, value) in elements.into_iter().enumerate() {
                    self.emit(Stmt::Store {
                        block,
                        index: Expr::Int(k as i64),
                        value,
                    });
                }
                Ok(Arr::Mat(Materialised {
                    block,
                    layout: Layout::row_major(std::slice::from_ref(&length)),
                    shape: vec![length],
                }))
            }
            other => Ok(other),
        }
    }

    /// The element at a row-major position.
    pub fn read_flat(&mut self, arr: &Arr, position: Expr) -> LowerResult<Expr> {
        match arr {
            Arr::Pull(Pull {
                index: Index::Flat(f), ..
            }) => f(self, position),
            Arr::Pull(Pull {
                index: Index::Shaped(f),
                shape,
                ..
            }) => {
                let index = self.to_multi_index(shape, position);
                f(self, &index)
            }
            Arr::Mat(mat) if mat.layout.is_row_major(&mat.shape) => Ok(Expr::load(
                mat.block,
                Expr::add_int(mat.layout.offset.clone(), position),
            )),
            Arr::Mat(mat) => {
                let index = self.to_multi_index(&mat.shape, position);
                Ok(Expr::load(mat.block, mat.layout.position(&index)))
            }
            Arr::Literal { .. } => Err(LowerError::ill_typed(
                "internal: a literal read before it was made indexable",
            )),
        }
    }

    /// The element at a multi-index.
    pub fn read_shaped(&mut self, arr: &Arr, index: &[Expr]) -> LowerResult<Expr> {
        match arr {
            Arr::Pull(Pull {
                index: Index::Shaped(f),
                ..
            }) => f(self, index),
            Arr::Pull(Pull {
                index: Index::Flat(f),
                shape,
                ..
            }) => {
                let position = self.from_multi_index(shape, index);
                f(self, position)
            }
            Arr::Mat(mat) => Ok(Expr::load(mat.block, mat.layout.position(index))),
            Arr::Literal { .. } => Err(LowerError::ill_typed(
                "internal: a literal read before it was made indexable",
            )),
        }
    }

    /// Row-major position of a multi-index (multiply-adds).
    pub fn from_multi_index(&mut self, shape: &[Expr], index: &[Expr]) -> Expr {
        let position = shape.iter().zip(index).fold(Expr::Int(0), |sum, (extent, i)| {
            Expr::add_int(Expr::mul_int(sum, extent.clone()), i.clone())
        });
        self.bind(position, "q")
    }

    /// Multi-index of a row-major position (a div and a mod per axis).
    ///
    /// A stable position converted again in a statement list where its first conversion is still in scope gets the
    /// same variables back, so two flat reads of one element of a memoised rank-2 array (`fusion.rs`) are one read.
    pub fn to_multi_index(&mut self, shape: &[Expr], position: Expr) -> Vec<Expr> {
        self.forget_closed_multi_indices();
        if let Some(entry) = self
            .multi_indices
            .iter()
            .find(|entry| entry.shape == shape && entry.position == position)
        {
            return entry.index.clone();
        }
        let index = self.compute_multi_index(shape, position.clone());
        if self.is_stable(&position) && shape.iter().all(|extent| self.is_stable(extent)) {
            self.multi_indices.push(super::lower::MultiIndexEntry {
                shape: shape.to_vec(),
                position,
                scope: self.current_scope(),
                index: index.clone(),
            });
        }
        index
    }

    fn compute_multi_index(&mut self, shape: &[Expr], position: Expr) -> Vec<Expr> {
        let mut rest = self.bind(position, "q");
        let mut index = vec![Expr::Int(0); shape.len()];
        for axis in (0..shape.len()).rev() {
            if axis == 0 {
                index[0] = rest.clone();
                break;
            }
            let extent = shape[axis].clone();
            index[axis] = self.bind(Expr::modulo(rest.clone(), extent.clone()), "j");
            rest = self.bind(Expr::div_int(rest, extent), "q");
        }
        index
    }

    /// `arr` as a partial consumer (take, drop, first, an index, compress, a shorter reshape) or nothing at all may
    /// read it: APL computes every element of an array before such a function sees it, so an element that fails stops
    /// the program even when it is not used (`x←÷(⍳9)-5 ⋄ x[1]` is a DOMAIN ERROR). A pull array whose elements may raise an APL error is therefore
    /// materialised first, which evaluates each of them; one that cannot fail stays a pull array and fuses.
    ///
    /// Inside a loop over the elements of another array the materialisation would happen once per element, so
    /// there the array is left as it is: such a nested partial read of a failing array is the one place where
    /// compiled code may still compute less than the interpreter (README, known limits).
    pub fn with_every_element_evaluated(&mut self, arr: Arr) -> LowerResult<Arr> {
        if self.element_loops > 0 || !matches!(arr, Arr::Pull(_)) || !self.elements_may_fail(&arr)? {
            return Ok(arr);
        }
        Ok(Arr::Mat(self.materialise(&arr)?))
    }

    /// Whether reading an element of `arr` may raise an APL error: one element is lowered into a scratch statement
    /// list (thrown away, with the names it took), which is looked at for `error` statements and for operations
    /// with an error case.
    fn elements_may_fail(&mut self, arr: &Arr) -> LowerResult<bool> {
        let probe = self.probe_state();
        // One index per axis: a flat position would be split into indices by divisions by the extents, which look
        // like operations that may fail although they are lowering's own.
        let indices: Vec<Expr> = (0..arr.rank())
            .map(|_| Expr::var(&self.fresh_var(ScalarType::Int, "probe")))
            .collect();
        let captured = self.capture(|lowerer| lowerer.read_shaped(arr, &indices));
        self.restore_probe_state(probe);
        let (mut statements, mut value) = captured?;
        // Int arithmetic that the ranges of the indices prove cannot overflow cannot fail.
        let mut ranges = crate::loops::passes::overflow_checks::IntRanges::default();
        for (index, extent) in indices.iter().zip(arr.shape()) {
            if let Expr::Var(var) = index {
                ranges.assume_index_below(var, &extent);
            }
        }
        ranges.rewrite_statements(&mut statements);
        ranges.rewrite_expr(&mut value);
        let mut may_fail = !crate::loops::rewrite::raises_no_apl_error(&value);
        crate::loops::ir::for_each_statement(&statements, &mut |statement| {
            may_fail |= matches!(statement, Stmt::Error { .. })
                || crate::loops::ir::statement_expressions(statement)
                    .into_iter()
                    .any(|expr| !crate::loops::rewrite::raises_no_apl_error(expr));
        });
        Ok(may_fail)
    }

    /// Materialises an array into a fresh row-major block: one flat loop for flat arrays, nested loops with a
    /// running counter for shaped ones (no div/mod either way).
    pub fn materialise(&mut self, arr: &Arr) -> LowerResult<Materialised> {
        let arr = self.indexable(arr.clone())?;
        let shape = arr.shape();
        let size = self.size_of(&shape);
        let block = self.fresh_block(arr.element());
        self.emit(Stmt::Alloc {
            site: self.site,
            block,
            size: size.clone(),
        });
        self.fill_block(&arr, block, &size)?;
        Ok(Materialised {
            block,
            layout: Layout::row_major(&shape),
            shape,
        })
    }

    /// Writes the elements of an array row-major into a block from position 0.
    pub fn fill_block(&mut self, arr: &Arr, block: Block, size: &Expr) -> LowerResult<()> {
        self.fill_blocks(&[(arr, block)], size)
    }

    /// Fills blocks with arrays of one shape in one loop (nest), each element of each array stored at its row-major
    /// position: arrays computed from the same elements of shared arrays (memoised reads, `fusion.rs`) compute those
    /// once per position.
    pub fn fill_blocks(&mut self, fills: &[(&Arr, Block)], size: &Expr) -> LowerResult<()> {
        let Some((first, _)) = fills.first() else {
            return Ok(());
        };
        let shape = first.shape();
        if fills.iter().all(|(arr, _)| arr.prefers_flat()) || shape.len() <= 1 {
            self.for_loop(size.clone(), "i", |lowerer, i| {
                for (arr, block) in fills {
                    let value = lowerer.read_flat(arr, i.clone())?;
                    lowerer.emit(Stmt::Store {
                        block: *block,
                        index: i.clone(),
                        value,
                    });
                }
                Ok(())
            })
        } else {
            self.nested_loops(&shape, &mut |lowerer, index, position| {
                for (arr, block) in fills {
                    let value = lowerer.read_shaped(arr, index)?;
                    lowerer.emit(Stmt::Store {
                        block: *block,
                        index: position.clone(),
                        value,
                    });
                }
                Ok(())
            })
        }
    }
}

//! Searching, sorting and number-base operations, as plain loops: indexOf and member (a hash table of the searched
//! vector for ints, characters and booleans; a binary search in it sorted for doubles, tolerant; a scan of it per
//! element for short constant lengths and complex numbers), where (count, allocate, fill), gradeUp/gradeDown (a stable merge sort: O(n log n)), decode and encode.

use super::lower::{LowerResult, Lowered, Lowerer};
use super::pull::{Arr, Materialised, Pull};
use crate::loops::error::LowerError;
use crate::loops::ir::{for_each_statement, Block, Expr, Layout, ScalarType, Stmt};
use crate::loops::rewrite::mentions_block;
use crate::runtime::error::AplErrorKind;
use crate::tail::ast::Op;
use crate::tail::scalar_ops::COMPARISON_TOLERANCE;

/// The length of the runs a sort sorts by insertion before it merges them.
const INSERTION_RUN: i64 = 32;

/// A vector's keys sorted, and their 0-based positions in the vector, in two blocks of `length` elements.
#[derive(Clone)]
pub(super) struct SortedKeys {
    keys: Block,
    positions: Block,
    length: Expr,
}

/// A hash table of a vector for ⍳ and ∊: `size` slots (a power of two), each empty (position [`EMPTY_SLOT`]) or
/// holding a key and the 0-based position of its first occurrence in the vector of `length` elements.
#[derive(Clone)]
pub(super) struct HashTable {
    keys: Block,
    positions: Block,
    size: Expr,
    length: Expr,
    element: ScalarType,
}

/// The position of an empty slot of a [`HashTable`].
const EMPTY_SLOT: i64 = -1;

/// Multiplier of the hash (2^64 divided by the golden ratio, odd): nearby keys land far apart.
const HASH_MULTIPLIER: i64 = 0x9E37_79B9_7F4A_7C15_u64 as i64;

impl HashTable {
    /// The first slot to probe for `x`: its multiplicative hash, with the high half of the product added to the low
    /// half (the low bits of a product depend only on the low bits of the key, and keys such as multiples of 1024
    /// share those), modulo the table's size.
    fn home_slot(&self, x: Expr) -> Expr {
        let key = match self.element {
            ScalarType::Char => Expr::Prim(Op::C2I, vec![x]),
            ScalarType::Bool => Expr::Prim(Op::B2I, vec![x]),
            _ => x,
        };
        let product = Expr::mul_int(key, Expr::Int(HASH_MULTIPLIER));
        let high = Expr::div_int(product.clone(), Expr::Int(1 << 32));
        let mixed = Expr::add_int(product, high);
        Expr::Prim(Op::ResI, vec![self.size.clone(), mixed])
    }

    /// The slot after `slot`, the first after the last.
    fn next_slot(&self, slot: Expr) -> Expr {
        let next = Expr::add_int(slot, Expr::Int(1));
        Expr::select(Expr::lt(next.clone(), self.size.clone()), next, Expr::Int(0))
    }
}

/// Whether ⍳ and ∊ search a vector by a look-up ([`Lowerer::lookup`]: a hash table or a sort) rather than a scan:
/// not complex numbers (they have neither), and not a vector of a short constant length, which a scan searches
/// faster.
fn is_searched_by_look_up(within: &Arr) -> bool {
    let short = matches!(within.shape()[0].as_int(), Some(length) if length <= 16);
    within.element() != ScalarType::Complex && !short
}

/// Whether ⍳ and ∊ search a vector (long, or of a length known only when running) in a hash table rather than by
/// sorting it: elements whose equality is exact (doubles compare tolerantly: equal ones may hash apart).
fn is_searched_by_hashing(within: &Arr) -> bool {
    matches!(within.element(), ScalarType::Int | ScalarType::Char | ScalarType::Bool)
}

/// What ⍳, ∊ and ⍋ build of a vector to search or sort it, kept for a later search of the same vector.
#[derive(Clone)]
pub(super) enum SearchStructure {
    Sorted { descending: bool, sorted: SortedKeys },
    Hashed(HashTable),
}

impl SearchStructure {
    fn hashed(&self) -> bool {
        matches!(self, SearchStructure::Hashed(_))
    }

    fn sorted(&self, descending: bool) -> bool {
        matches!(self, SearchStructure::Sorted { descending: d, .. } if *d == descending)
    }

    /// The blocks it fills: written after it is made, it no longer describes the vector.
    fn blocks(&self) -> [u32; 2] {
        match self {
            SearchStructure::Sorted { sorted, .. } => [sorted.keys.id, sorted.positions.id],
            SearchStructure::Hashed(table) => [table.keys.id, table.positions.id],
        }
    }
}

/// A search structure of a block of keys made in the statement list `scope`, `statement_count` statements into it:
/// while that list is being built and nothing after those statements writes the block, the same structure serves
/// again.
pub(super) struct SearchStructureEntry {
    keys: u32,
    scope: u64,
    statement_count: usize,
    structure: SearchStructure,
}

/// Whether a statement may change the contents of a block: a store into it, a swap or an allocation of it, or a
/// statement that fills blocks (a call, a file read, ⍕, a view), conservatively whenever it names the block.
fn may_write_block(statement: &Stmt, id: u32) -> bool {
    let mut writes = false;
    for_each_statement(std::slice::from_ref(statement), &mut |s| {
        writes |= match s {
            Stmt::Store { block, .. } | Stmt::Alloc { block, .. } => block.id == id,
            Stmt::Swap { first, second } => first.id == id || second.id == id,
            Stmt::Call { .. } | Stmt::ReadFile { .. } | Stmt::Format { .. } | Stmt::View { .. } => {
                mentions_block(s, id)
            }
            _ => false,
        };
    });
    writes
}

/// Equality of two elements of a type.
fn equal(ty: ScalarType, a: Expr, b: Expr) -> Expr {
    let op = match ty {
        ScalarType::Int => Op::EqI,
        ScalarType::Double => Op::EqD,
        ScalarType::Bool => Op::EqB,
        ScalarType::Char => Op::EqC,
        ScalarType::Complex => Op::EqX,
    };
    Expr::Prim(op, vec![a, b])
}

/// `a < b` on elements of a type (booleans as ints), exactly.
fn less(ty: ScalarType, a: Expr, b: Expr) -> Expr {
    match ty {
        ScalarType::Int => Expr::Prim(Op::LtI, vec![a, b]),
        // Exact order, as the interpreter's grade (ltd is tolerant): a - b < 0 holds only for a < b, since a
        // tolerant comparison with 0 is exact.
        ScalarType::Double => Expr::Prim(Op::LtD, vec![Expr::Prim(Op::SubD, vec![a, b]), Expr::Double(0.0)]),
        ScalarType::Char => Expr::Prim(Op::LtC, vec![a, b]),
        // Complex numbers have no order: `grade` stops with a DOMAIN ERROR before it compares any.
        ScalarType::Complex => Expr::Bool(false),
        ScalarType::Bool => Expr::Prim(
            Op::LtI,
            vec![Expr::Prim(Op::B2I, vec![a]), Expr::Prim(Op::B2I, vec![b])],
        ),
    }
}

impl Lowerer {
    pub(super) fn lower_search(&mut self, op: Op, next: &mut dyn FnMut() -> Lowered) -> LowerResult<Lowered> {
        match op {
            Op::IndexOf => {
                let within = self.as_array(next())?;
                let arr = self.as_array(next())?;
                self.index_of(within, arr).map(Lowered::Array)
            }
            Op::Member => {
                let arr = self.as_array(next())?;
                let within = self.as_array(next())?;
                self.member(arr, within).map(Lowered::Array)
            }
            Op::Where => {
                let mask = self.as_array(next())?;
                self.where_true(mask).map(Lowered::Array)
            }
            Op::GradeUp | Op::GradeDown => {
                let arr = self.as_array(next())?;
                self.grade(arr, op == Op::GradeDown).map(Lowered::Array)
            }
            Op::Decode => {
                let radix = self.as_array(next())?;
                let digits = self.as_array(next())?;
                self.decode(radix, digits).map(Lowered::Scalar)
            }
            Op::Encode => {
                let radix = self.as_array(next())?;
                let value = self.as_int(next())?;
                self.encode(radix, value).map(Lowered::Array)
            }
            other => Err(LowerError::unsupported(other.name())),
        }
    }

    /// The searched vector as a row-major block (it is read once per element of the other argument).
    fn searched(&mut self, arr: Arr) -> LowerResult<Arr> {
        let arr = self.indexable(arr)?;
        if arr.rank() != 1 {
            return Err(LowerError::ill_typed("the searched argument must be a vector"));
        }
        // Row-major, so that a read is one load expression with no statements (grade reads inside a while condition).
        Ok(match arr {
            Arr::Mat(mat) if mat.layout.is_row_major(&mat.shape) => Arr::Mat(mat),
            other => Arr::Mat(self.materialise(&other)?),
        })
    }

    /// Dyadic ⍳: by a look-up ([`Lowerer::lookup`]), or by a scan of the searched vector.
    fn index_of(&mut self, within: Arr, arr: Arr) -> LowerResult<Arr> {
        let within = self.searched(within)?;
        if !is_searched_by_look_up(&within) {
            return self.index_of_by_scan(within, arr);
        }
        self.lookup(within, arr, ScalarType::Int, |length, found, position| {
            let absent = Expr::add_int(length.clone(), Expr::Int(1));
            Expr::select(found, Expr::add_int(position, Expr::Int(1)), absent)
        })
    }

    /// `A∊V`: by a look-up in V ([`Lowerer::lookup`]), or by a scan of V.
    fn member(&mut self, arr: Arr, within: Arr) -> LowerResult<Arr> {
        let within = self.searched(within)?;
        if !is_searched_by_look_up(&within) {
            return self.member_by_scan(arr, within);
        }
        self.lookup(within, arr, ScalarType::Bool, |_, found, _| found)
    }

    /// Each element of `arr` looked up in `within`: in a hash table of it (exact elements) or by a binary search in
    /// it sorted ([`Lowerer::sorted_search`]; doubles, whose tolerant equality has no hash), either made once.
    /// `answer` makes the result of type `ty` from `within`'s length, whether the element was found, and its first
    /// position (0-based; to be read only when found).
    fn lookup(
        &mut self,
        within: Arr,
        arr: Arr,
        ty: ScalarType,
        answer: fn(&Expr, Expr, Expr) -> Expr,
    ) -> LowerResult<Arr> {
        let structure = if is_searched_by_hashing(&within) {
            SearchStructure::Hashed(self.hash_table(&within)?)
        } else {
            SearchStructure::Sorted {
                descending: false,
                sorted: self.sort_keys(&within, false)?,
            }
        };
        let element = within.element();
        let arr = self.indexable(arr)?;
        let shape = arr.shape();
        Ok(Arr::Pull(Pull::shaped(ty, shape, move |lowerer, index| {
            let x = lowerer.read_shaped(&arr, index)?;
            let x = lowerer.bind(x, "x");
            let (length, found, position) = match &structure {
                SearchStructure::Hashed(table) => {
                    let slot = lowerer.probe(table, x)?;
                    let position = lowerer.bind(Expr::load(table.positions, slot), "position");
                    let found = Expr::not_bool(Expr::eq(position.clone(), Expr::Int(EMPTY_SLOT)));
                    (&table.length, found, position)
                }
                SearchStructure::Sorted { sorted, .. } => {
                    let (found, position) = lowerer.sorted_search(sorted, element, x)?;
                    (&sorted.length, found, position)
                }
            };
            Ok(answer(length, found, position))
        })))
    }

    /// The slot of the table where `x` is, or the empty slot where its probe ends (linear probing from its hash).
    fn probe(&mut self, table: &HashTable, x: Expr) -> LowerResult<Expr> {
        let start = self.bind(table.home_slot(x.clone()), "slot");
        let slot = self.mutable(start, "slot");
        let occupied_by_another = Expr::select(
            Expr::eq(Expr::load(table.positions, Expr::var(&slot)), Expr::Int(EMPTY_SLOT)),
            Expr::Bool(false),
            Expr::not_bool(equal(table.element, Expr::load(table.keys, Expr::var(&slot)), x)),
        );
        self.emit(Stmt::While {
            condition: occupied_by_another,
            body: vec![Stmt::Assign {
                var: slot.clone(),
                value: table.next_slot(Expr::var(&slot)),
            }],
        });
        Ok(self.bind(Expr::var(&slot), "slot"))
    }

    /// A hash table of a vector of ints, characters or booleans (exact equality), or the same table made earlier
    /// ([`Lowerer::earlier_search_structure`]) when the vector is a block unchanged since.
    fn hash_table(&mut self, within: &Arr) -> LowerResult<HashTable> {
        let keys_block = match within {
            Arr::Mat(mat) => Some(mat.block.id),
            _ => None,
        };
        let earlier = keys_block.and_then(|block| self.earlier_search_structure(block, &|kind| kind.hashed()));
        if let Some(SearchStructure::Hashed(table)) = earlier {
            return Ok(table);
        }
        let table = self.hash_table_anew(within)?;
        if let Some(block) = keys_block {
            self.remember_search_structure(block, SearchStructure::Hashed(table.clone()));
        }
        Ok(table)
    }

    /// An open-addressing table of at least twice as many slots as the vector has elements (a power of two), each
    /// element inserted in order unless an equal one is there already, so that a slot keeps an element's first
    /// position. Sequential: the insertions race for slots.
    fn hash_table_anew(&mut self, within: &Arr) -> LowerResult<HashTable> {
        let element = within.element();
        let length = self.bind(within.shape()[0].clone(), "n");
        let size = self.mutable(Expr::Int(1), "slots");
        self.emit(Stmt::While {
            condition: Expr::lt(Expr::var(&size), Expr::mul_int(length.clone(), Expr::Int(2))),
            body: vec![Stmt::Assign {
                var: size.clone(),
                value: Expr::mul_int(Expr::var(&size), Expr::Int(2)),
            }],
        });
        let size = self.bind(Expr::var(&size), "slots");
        let table = HashTable {
            keys: self.allocate(element, &size),
            positions: self.allocate(ScalarType::Int, &size),
            size: size.clone(),
            length: length.clone(),
            element,
        };
        self.for_loop(size, "h", |lowerer, h| {
            lowerer.emit(Stmt::Store {
                block: table.positions,
                index: h,
                value: Expr::Int(EMPTY_SLOT),
            });
            Ok(())
        })?;
        self.for_loop(length, "i", |lowerer, i| {
            let key = lowerer.read_flat(within, i.clone())?;
            let key = lowerer.bind(key, "key");
            let slot = lowerer.probe(&table, key.clone())?;
            let (insert, ()) = lowerer.capture(|lowerer| {
                lowerer.store_key_and_position((table.keys, table.positions), slot.clone(), key, i);
                Ok(())
            })?;
            lowerer.emit(Stmt::If {
                condition: Expr::eq(Expr::load(table.positions, slot), Expr::Int(EMPTY_SLOT)),
                then: insert,
                otherwise: vec![],
            });
            Ok(())
        })?;
        Ok(table)
    }

    /// Whether `x` is among sorted keys, and if so its first position in the unsorted vector (0-based). Exact keys:
    /// a binary search for the first key not below x; the sort is stable, so that key, if it is x, is x's first
    /// occurrence. Doubles: their equality is tolerant, and the keys tolerantly equal to x lie together in the sorted
    /// keys, within 2⎕CT×|x| of x; each distinct key there is tested, and the smallest position of those equal kept.
    fn sorted_search(&mut self, sorted: &SortedKeys, element: ScalarType, x: Expr) -> LowerResult<(Expr, Expr)> {
        if element == ScalarType::Double {
            return self.tolerant_sorted_search(sorted, x);
        }
        let at = self.partition_point(sorted, &|key| less(element, key, x.clone()));
        // The select keeps the load from running past the end when x is above every key.
        let found = Expr::select(
            Expr::lt(at.clone(), sorted.length.clone()),
            equal(element, Expr::load(sorted.keys, at.clone()), x),
            Expr::Bool(false),
        );
        let found = self.bind(found, "found");
        Ok((found, Expr::load(sorted.positions, at)))
    }

    fn tolerant_sorted_search(&mut self, sorted: &SortedKeys, x: Expr) -> LowerResult<(Expr, Expr)> {
        let element = ScalarType::Double;
        let margin = Expr::Prim(
            Op::MulD,
            vec![
                Expr::Prim(Op::AbsD, vec![x.clone()]),
                Expr::Double(2.0 * COMPARISON_TOLERANCE),
            ],
        );
        let margin = self.bind(margin, "margin");
        let low = self.bind(Expr::Prim(Op::SubD, vec![x.clone(), margin.clone()]), "low");
        let high = self.bind(Expr::Prim(Op::AddD, vec![x.clone(), margin]), "high");
        let first = self.partition_point(sorted, &|key| less(element, key, low.clone()));
        let next = self.mutable(first, "j");
        let best = self.mutable(sorted.length.clone(), "best");
        let (body, ()) = self.capture(|lowerer| {
            let key = lowerer.bind(Expr::load(sorted.keys, Expr::var(&next)), "key");
            let position = Expr::load(sorted.positions, Expr::var(&next));
            let smaller = Expr::min(Expr::var(&best), position);
            lowerer.emit(Stmt::Assign {
                var: best.clone(),
                value: Expr::select(equal(element, key.clone(), x.clone()), smaller, Expr::var(&best)),
            });
            // On to the first key above this one: the keys equal to it have larger positions (a stable sort).
            let after = lowerer.partition_point(sorted, &|other| Expr::not_bool(less(element, key.clone(), other)));
            lowerer.emit(Stmt::Assign {
                var: next.clone(),
                value: after,
            });
            Ok(())
        })?;
        self.emit(Stmt::While {
            condition: Expr::select(
                Expr::lt(Expr::var(&next), sorted.length.clone()),
                Expr::not_bool(less(element, high, Expr::load(sorted.keys, Expr::var(&next)))),
                Expr::Bool(false),
            ),
            body,
        });
        let best = self.bind(Expr::var(&best), "best");
        let found = self.bind(Expr::lt(best.clone(), sorted.length.clone()), "found");
        Ok((found, best))
    }

    /// The first place among the sorted keys where `below` is false (a binary search): `below` must hold for a
    /// prefix of the keys and for nothing after it.
    fn partition_point(&mut self, sorted: &SortedKeys, below: &dyn Fn(Expr) -> Expr) -> Expr {
        let low = self.mutable(Expr::Int(0), "lo");
        let high = self.mutable(sorted.length.clone(), "hi");
        let middle = self.fresh_var(ScalarType::Int, "mid");
        let is_below = self.fresh_var(ScalarType::Bool, "below");
        let middle_value = Expr::div_int(Expr::add_int(Expr::var(&low), Expr::var(&high)), Expr::Int(2));
        self.emit(Stmt::While {
            condition: Expr::lt(Expr::var(&low), Expr::var(&high)),
            body: vec![
                Stmt::Let {
                    var: middle.clone(),
                    value: middle_value,
                },
                Stmt::Let {
                    var: is_below.clone(),
                    value: below(Expr::load(sorted.keys, Expr::var(&middle))),
                },
                Stmt::Assign {
                    var: low.clone(),
                    value: Expr::select(
                        Expr::var(&is_below),
                        Expr::add_int(Expr::var(&middle), Expr::Int(1)),
                        Expr::var(&low),
                    ),
                },
                Stmt::Assign {
                    var: high.clone(),
                    value: Expr::select(Expr::var(&is_below), Expr::var(&high), Expr::var(&middle)),
                },
            ],
        });
        self.bind(Expr::var(&low), "at")
    }

    /// Dyadic ⍳ by a scan of the searched vector per element: the 1-based position of the first occurrence, or 1 + the
    /// length (scanning from the back, so the last match found is the first occurrence).
    fn index_of_by_scan(&mut self, within: Arr, arr: Arr) -> LowerResult<Arr> {
        let within = self.searched(within)?;
        let arr = self.indexable(arr)?;
        let length = within.shape()[0].clone();
        let element = within.element();
        let shape = arr.shape();
        Ok(Arr::Pull(Pull::shaped(
            ScalarType::Int,
            shape,
            move |lowerer, index| {
                let x = lowerer.read_shaped(&arr, index)?;
                let x = lowerer.bind(x, "x");
                let found = lowerer.mutable(Expr::add_int(length.clone(), Expr::Int(1)), "pos");
                lowerer.for_loop(length.clone(), "k", |lowerer, k| {
                    let j = lowerer.bind(Expr::sub_int(Expr::sub_int(length.clone(), Expr::Int(1)), k), "j");
                    let y = lowerer.read_flat(&within, j.clone())?;
                    let value = Expr::select(
                        equal(element, y, x.clone()),
                        Expr::add_int(j, Expr::Int(1)),
                        Expr::var(&found),
                    );
                    lowerer.emit(Stmt::Assign {
                        var: found.clone(),
                        value,
                    });
                    Ok(())
                })?;
                Ok(Expr::var(&found))
            },
        )))
    }

    /// `A∊V` by a scan of V per element.
    fn member_by_scan(&mut self, arr: Arr, within: Arr) -> LowerResult<Arr> {
        let within = self.searched(within)?;
        let arr = self.indexable(arr)?;
        let length = within.shape()[0].clone();
        let element = within.element();
        let shape = arr.shape();
        Ok(Arr::Pull(Pull::shaped(
            ScalarType::Bool,
            shape,
            move |lowerer, index| {
                let x = lowerer.read_shaped(&arr, index)?;
                let x = lowerer.bind(x, "x");
                let found = lowerer.mutable(Expr::Bool(false), "found");
                lowerer.for_loop(length.clone(), "k", |lowerer, k| {
                    let y = lowerer.read_flat(&within, k)?;
                    let value = Expr::or(Expr::var(&found), equal(element, y, x.clone()));
                    lowerer.emit(Stmt::Assign {
                        var: found.clone(),
                        value,
                    });
                    Ok(())
                })?;
                Ok(Expr::var(&found))
            },
        )))
    }

    /// `⍸B`: count, allocate, fill.
    fn where_true(&mut self, mask: Arr) -> LowerResult<Arr> {
        let mask = self.searched(mask)?;
        let length = mask.shape()[0].clone();
        let count = self.mutable(Expr::Int(0), "count");
        self.for_loop(length.clone(), "k", |lowerer, k| {
            let b = lowerer.read_flat(&mask, k)?;
            lowerer.emit(Stmt::Assign {
                var: count.clone(),
                value: Expr::add_int(Expr::var(&count), Expr::Prim(Op::B2I, vec![b])),
            });
            Ok(())
        })?;
        let size = self.bind(Expr::var(&count), "n");
        let block = self.fresh_block(ScalarType::Int);
        self.emit(Stmt::Alloc {
            site: self.site,
            block,
            size: size.clone(),
        });
        let write = self.mutable(Expr::Int(0), "w");
        self.for_loop(length, "k", |lowerer, k| {
            let b = lowerer.read_flat(&mask, k.clone())?;
            let then = vec![
                Stmt::Store {
                    block,
                    index: Expr::var(&write),
                    value: Expr::add_int(k, Expr::Int(1)),
                },
                Stmt::Assign {
                    var: write.clone(),
                    value: Expr::add_int(Expr::var(&write), Expr::Int(1)),
                },
            ];
            lowerer.emit_if(b, then, vec![]);
            Ok(())
        })?;
        let shape = vec![size];
        Ok(Arr::Mat(Materialised {
            block,
            layout: Layout::row_major(&shape),
            shape,
        }))
    }

    /// ⍋ / ⍒: the 1-based positions of a stable sort of the keys ([`Lowerer::sort_keys`]).
    fn grade(&mut self, arr: Arr, descending: bool) -> LowerResult<Arr> {
        let keys = self.searched(arr)?;
        if keys.element() == ScalarType::Complex {
            self.fail_if(Expr::Bool(true), AplErrorKind::Domain, "grade of complex numbers");
        }
        let sorted = self.sort_keys(&keys, descending)?;
        // A new block, so that the sort stays as it is for a search of the same vector.
        let grade = self.allocate(ScalarType::Int, &sorted.length);
        self.for_loop(sorted.length.clone(), "i", |lowerer, i| {
            lowerer.emit(Stmt::Store {
                block: grade,
                index: i.clone(),
                value: Expr::add_int(Expr::load(sorted.positions, i), Expr::Int(1)),
            });
            Ok(())
        })?;
        let shape = vec![sorted.length];
        Ok(Arr::Mat(Materialised {
            block: grade,
            layout: Layout::row_major(&shape),
            shape,
        }))
    }

    /// A stable sort of a row-major vector's keys ([`Lowerer::sort_keys_anew`]), or the same sort made earlier
    /// ([`Lowerer::earlier_sort`]) when the keys are a block sorted before and unchanged since.
    fn sort_keys(&mut self, keys: &Arr, descending: bool) -> LowerResult<SortedKeys> {
        let keys_block = match keys {
            Arr::Mat(mat) => Some(mat.block.id),
            _ => None,
        };
        let earlier =
            keys_block.and_then(|block| self.earlier_search_structure(block, &|kind| kind.sorted(descending)));
        if let Some(SearchStructure::Sorted { sorted, .. }) = earlier {
            return Ok(sorted);
        }
        let sorted = self.sort_keys_anew(keys, descending)?;
        if let Some(block) = keys_block {
            let structure = SearchStructure::Sorted {
                descending,
                sorted: sorted.clone(),
            };
            self.remember_search_structure(block, structure);
        }
        Ok(sorted)
    }

    fn remember_search_structure(&mut self, keys: u32, structure: SearchStructure) {
        self.search_structures.push(SearchStructureEntry {
            keys,
            scope: self.current_scope(),
            statement_count: self.current_statements().len(),
            structure,
        });
    }

    /// A search structure of the block `keys` of the kind `wanted`, made earlier in the statement list being built,
    /// if nothing written since could have changed the block or the structure.
    fn earlier_search_structure(
        &self,
        keys: u32,
        wanted: &dyn Fn(&SearchStructure) -> bool,
    ) -> Option<SearchStructure> {
        let scope = self.current_scope();
        let entry = self
            .search_structures
            .iter()
            .rev()
            .find(|entry| entry.keys == keys && entry.scope == scope && wanted(&entry.structure))?;
        let since = self.current_statements().get(entry.statement_count..)?;
        let unchanged = !since.iter().any(|statement| {
            std::iter::once(keys)
                .chain(entry.structure.blocks())
                .any(|block| may_write_block(statement, block))
        });
        unchanged.then(|| entry.structure.clone())
    }

    /// A stable sort in O(n log n): the keys are copied with their 0-based positions into a pair of blocks; runs of
    /// [`INSERTION_RUN`] are sorted by insertion, then merged bottom-up, from these blocks into a second pair and back
    /// (two merges per round, so the result ends in the first pair; a merge whose runs cover the whole vector is a
    /// copy). A merge takes the right run's key only when it sorts strictly before the left one's, which keeps equal
    /// keys in their original order.
    fn sort_keys_anew(&mut self, keys: &Arr, descending: bool) -> LowerResult<SortedKeys> {
        let element = keys.element();
        let length = self.bind(keys.shape()[0].clone(), "n");
        let sorted = SortedKeys {
            keys: self.allocate(element, &length),
            positions: self.allocate(ScalarType::Int, &length),
            length: length.clone(),
        };
        let spare = SortedKeys {
            keys: self.allocate(element, &length),
            positions: self.allocate(ScalarType::Int, &length),
            length: length.clone(),
        };
        self.for_loop(length.clone(), "i", |lowerer, i| {
            let key = lowerer.read_flat(keys, i.clone())?;
            lowerer.store_key_and_position((sorted.keys, sorted.positions), i.clone(), key, i);
            Ok(())
        })?;
        let before = move |a: Expr, b: Expr| {
            if descending {
                less(element, b, a)
            } else {
                less(element, a, b)
            }
        };
        self.insertion_sort_runs(&sorted, &before)?;
        let width = self.mutable(Expr::Int(INSERTION_RUN), "width");
        let (round, ()) = self.capture(|lowerer| {
            lowerer.merge_runs(&sorted, &spare, Expr::var(&width), &before)?;
            lowerer.merge_runs(&spare, &sorted, Expr::mul_int(Expr::var(&width), Expr::Int(2)), &before)?;
            lowerer.emit(Stmt::Assign {
                var: width.clone(),
                value: Expr::mul_int(Expr::var(&width), Expr::Int(4)),
            });
            Ok(())
        })?;
        self.emit(Stmt::While {
            condition: Expr::lt(Expr::var(&width), length),
            body: round,
        });
        Ok(sorted)
    }

    /// Stores a key and its 0-based position in the vector at `index` of a pair of blocks (a sort's or a table's).
    fn store_key_and_position(&mut self, (keys, positions): (Block, Block), index: Expr, key: Expr, position: Expr) {
        self.emit(Stmt::Store {
            block: keys,
            index: index.clone(),
            value: key,
        });
        self.emit(Stmt::Store {
            block: positions,
            index,
            value: position,
        });
    }

    fn allocate(&mut self, element: ScalarType, length: &Expr) -> Block {
        let block = self.fresh_block(element);
        self.emit(Stmt::Alloc {
            site: self.site,
            block,
            size: length.clone(),
        });
        block
    }

    /// Sorts each run of [`INSERTION_RUN`] pairs in place by insertion: a pair moves left past the pairs whose key
    /// its own sorts strictly before.
    fn insertion_sort_runs(&mut self, pairs: &SortedKeys, before: &dyn Fn(Expr, Expr) -> Expr) -> LowerResult<()> {
        let length = pairs.length.clone();
        let runs = Expr::div_int(
            Expr::add_int(length.clone(), Expr::Int(INSERTION_RUN - 1)),
            Expr::Int(INSERTION_RUN),
        );
        self.for_loop(runs, "r", |lowerer, r| {
            let start = lowerer.bind(Expr::mul_int(r, Expr::Int(INSERTION_RUN)), "start");
            let end = lowerer.bind(
                Expr::min(Expr::add_int(start.clone(), Expr::Int(INSERTION_RUN)), length),
                "end",
            );
            let count = Expr::sub_int(Expr::sub_int(end, start.clone()), Expr::Int(1));
            lowerer.for_loop(count, "t", |lowerer, t| {
                let i = lowerer.bind(Expr::add_int(Expr::add_int(start.clone(), t), Expr::Int(1)), "i");
                let key = lowerer.bind(Expr::load(pairs.keys, i.clone()), "key");
                let position = lowerer.bind(Expr::load(pairs.positions, i.clone()), "pos");
                let hole = lowerer.mutable(i, "h");
                let previous = Expr::sub_int(Expr::var(&hole), Expr::Int(1));
                // The select keeps the load of position h-1 from running when h is the run's start.
                let condition = Expr::select(
                    Expr::lt(start.clone(), Expr::var(&hole)),
                    before(key.clone(), Expr::load(pairs.keys, previous.clone())),
                    Expr::Bool(false),
                );
                let mut body = Vec::new();
                for block in [pairs.keys, pairs.positions] {
                    body.push(Stmt::Store {
                        block,
                        index: Expr::var(&hole),
                        value: Expr::load(block, previous.clone()),
                    });
                }
                body.push(Stmt::Assign {
                    var: hole.clone(),
                    value: previous.clone(),
                });
                lowerer.emit(Stmt::While { condition, body });
                for (block, value) in [(pairs.keys, key), (pairs.positions, position)] {
                    lowerer.emit(Stmt::Store {
                        block,
                        index: Expr::var(&hole),
                        value,
                    });
                }
                Ok(())
            })
        })
    }

    /// One merge pass: each two adjacent sorted runs of `width` pairs of `from` merged into one run of `into`.
    fn merge_runs(
        &mut self,
        from: &SortedKeys,
        into: &SortedKeys,
        width: Expr,
        before: &dyn Fn(Expr, Expr) -> Expr,
    ) -> LowerResult<()> {
        let length = from.length.clone();
        let width = self.bind(width, "w");
        let double = self.bind(Expr::mul_int(width.clone(), Expr::Int(2)), "w2");
        let pairs_of_runs = Expr::div_int(
            Expr::sub_int(Expr::add_int(length.clone(), double.clone()), Expr::Int(1)),
            double.clone(),
        );
        self.for_loop(pairs_of_runs, "p", |lowerer, p| {
            let low = lowerer.bind(Expr::mul_int(p, double.clone()), "lo");
            let middle = lowerer.bind(
                Expr::min(Expr::add_int(low.clone(), width.clone()), length.clone()),
                "mid",
            );
            let high = lowerer.bind(
                Expr::min(Expr::add_int(low.clone(), double.clone()), length.clone()),
                "hi",
            );
            let left = lowerer.mutable(low.clone(), "l");
            let right = lowerer.mutable(middle.clone(), "r");
            lowerer.for_loop(Expr::sub_int(high.clone(), low.clone()), "k", |lowerer, k| {
                let left_key = Expr::load(from.keys, Expr::var(&left));
                let right_key = Expr::load(from.keys, Expr::var(&right));
                // The right run's pair comes first only when the left run is used up or its key sorts strictly
                // before; each load runs only while its run has pairs left.
                let take_right = Expr::select(
                    Expr::lt(Expr::var(&right), high.clone()),
                    Expr::select(
                        Expr::lt(Expr::var(&left), middle.clone()),
                        before(right_key, left_key),
                        Expr::Bool(true),
                    ),
                    Expr::Bool(false),
                );
                let take_right = lowerer.bind(take_right, "take");
                let source = lowerer.bind(
                    Expr::select(take_right.clone(), Expr::var(&right), Expr::var(&left)),
                    "src",
                );
                let target = Expr::add_int(low.clone(), k);
                for (from_block, into_block) in [(from.keys, into.keys), (from.positions, into.positions)] {
                    lowerer.emit(Stmt::Store {
                        block: into_block,
                        index: target.clone(),
                        value: Expr::load(from_block, source.clone()),
                    });
                }
                let one_if = |condition: Expr| Expr::select(condition, Expr::Int(1), Expr::Int(0));
                lowerer.emit(Stmt::Assign {
                    var: right.clone(),
                    value: Expr::add_int(Expr::var(&right), one_if(take_right.clone())),
                });
                lowerer.emit(Stmt::Assign {
                    var: left.clone(),
                    value: Expr::add_int(Expr::var(&left), one_if(Expr::not_bool(take_right))),
                });
                Ok(())
            })
        })
    }

    /// `R⊥D`: Horner's rule; a one-element argument is extended to the other's length, an empty one gives 0.
    fn decode(&mut self, radix: Arr, digits: Arr) -> LowerResult<Expr> {
        let radix = self.searched(radix)?;
        let digits = self.searched(digits)?;
        let radix_length = radix.shape()[0].clone();
        let digit_length = digits.shape()[0].clone();
        let length = self.bind(Expr::max(radix_length.clone(), digit_length.clone()), "n");
        let fits = |extent: &Expr| {
            Expr::or(
                Expr::eq(extent.clone(), Expr::Int(1)),
                Expr::eq(extent.clone(), length.clone()),
            )
        };
        let either_empty = Expr::or(
            Expr::eq(radix_length.clone(), Expr::Int(0)),
            Expr::eq(digit_length.clone(), Expr::Int(0)),
        );
        let wrong = Expr::select(
            either_empty.clone(),
            Expr::Bool(false),
            Expr::not_bool(Expr::Prim(Op::AndB, vec![fits(&radix_length), fits(&digit_length)])),
        );
        self.fail_if(wrong, AplErrorKind::Length, "decode of different lengths");
        let value = self.mutable(Expr::Int(0), "value");
        let count = Expr::select(either_empty, Expr::Int(0), length.clone());
        let count = self.bind(count, "m");
        self.for_loop(count, "k", |lowerer, k| {
            let at = |extent: &Expr| Expr::select(Expr::eq(extent.clone(), Expr::Int(1)), Expr::Int(0), k.clone());
            let r = lowerer.read_flat(&radix, at(&radix_length))?;
            let d = lowerer.read_flat(&digits, at(&digit_length))?;
            lowerer.emit(Stmt::Assign {
                var: value.clone(),
                // APL arithmetic on the program's values: an overflow is a DOMAIN ERROR.
                value: Expr::Prim(Op::AddI, vec![Expr::Prim(Op::MulI, vec![Expr::var(&value), r]), d]),
            });
            Ok(())
        })?;
        Ok(Expr::Var(value))
    }

    /// `R⊤x`: the digits of x, last one first; a 0 radix takes all that remains.
    fn encode(&mut self, radix: Arr, value: Expr) -> LowerResult<Arr> {
        let radix = self.searched(radix)?;
        let length = radix.shape()[0].clone();
        let block = self.fresh_block(ScalarType::Int);
        self.emit(Stmt::Alloc {
            site: self.site,
            block,
            size: length.clone(),
        });
        let rest = self.mutable(value, "rest");
        self.for_loop(length.clone(), "k", |lowerer, k| {
            let j = lowerer.bind(Expr::sub_int(Expr::sub_int(length.clone(), Expr::Int(1)), k), "j");
            let r = lowerer.read_flat(&radix, j.clone())?;
            let r = lowerer.bind(r, "r");
            let whole = vec![
                Stmt::Store {
                    block,
                    index: j.clone(),
                    value: Expr::var(&rest),
                },
                Stmt::Assign {
                    var: rest.clone(),
                    value: Expr::Int(0),
                },
            ];
            let (digit_statements, ()) = lowerer.capture(|lowerer| {
                let digit = lowerer.bind(Expr::modulo(Expr::var(&rest), r.clone()), "digit");
                lowerer.emit(Stmt::Store {
                    block,
                    index: j.clone(),
                    value: digit.clone(),
                });
                // ⌊rest÷r, which is (rest - digit) ÷ r exactly without a difference that could overflow.
                let quotient = Expr::Prim(Op::DivI, vec![Expr::var(&rest), r.clone()]);
                lowerer.emit(Stmt::Assign {
                    var: rest.clone(),
                    value: quotient,
                });
                Ok(())
            })?;
            lowerer.emit_if(Expr::eq(r, Expr::Int(0)), whole, digit_statements);
            Ok(())
        })?;
        let shape = vec![length];
        Ok(Arr::Mat(Materialised {
            block,
            layout: Layout::row_major(&shape),
            shape,
        }))
    }
}

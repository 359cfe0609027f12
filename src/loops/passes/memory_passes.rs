//! The memory passes: loop-IR-to-loop-IR rewrites of where arrays live, run after lowering (the driver's
//! `loop_program`, so every backend gets them). [`memory_pipeline`] lists them in order; each keeps the program's
//! meaning, output and errors included, and keeps it well formed for [`crate::loops::check::check_program`] (the tests run the
//! checker after every pass, and compare runs before and after).
//!
//! Order: the second version for small run-time sizes first (every later pass then works on both versions alike),
//! then recomputing cheap blocks (fewer blocks for the others to consider), then in-place updates (which
//! remove copies, and with them allocations that hoisting would otherwise have to move), then hoisting, then the
//! splitting of product ranges (whose map of row reductions is left sequential for the next pass), and last the
//! recognition of parallel maps, which must see where the other passes left each block. Index-space splitting comes
//! last: it copies loop bodies, so every pass before it works on one copy, and its pieces of a parallel map are
//! parallel maps already. Interchanging element-wise steps and register tiling come after the recognition of parallel
//! maps, whose proof they rely on (a step's map is parallel; the rows of a tile are independent), and before
//! splitting, which then sees the strips' loops. Narrow storage of small ints is last of all: it must see every store
//! into a block, wherever the other passes put it, and none of them has to know about narrow blocks.

use crate::loops::ir::Program;

/// One loop-IR pass.
#[derive(Clone, Copy)]
pub struct MemoryPass {
    /// A short verb phrase in kebab case, used in test failures.
    pub name: &'static str,
    pub description: &'static str,
    pub run: fn(Program) -> Program,
}

pub fn memory_pipeline() -> Vec<MemoryPass> {
    vec![
        MemoryPass {
            name: SIZE_VERSIONING,
            description: "run the rest of the program in a second version for a run-time size below 2^31, where the \
                          overflow checks that the bound decides go",
            run: super::size_versions::version_on_small_sizes,
        },
        MemoryPass {
            name: "recompute-cheap-blocks",
            description: "replace the loads of a block filled by a cheap, safe formula of the index by the formula",
            run: super::rematerialise::recompute_cheap_blocks,
        },
        MemoryPass {
            name: "reuse-dying-blocks",
            description: "update in place: a copy whose source dies at it takes over the source block",
            run: super::in_place::reuse_dying_blocks,
        },
        MemoryPass {
            name: "update-loop-states-in-place",
            description: "update a loop's state array in its own block where the step copies it, stores into the \
                          copy and swaps the copy in",
            run: super::in_place::update_loop_states_in_place,
        },
        MemoryPass {
            name: "update-joined-states-in-place",
            description: "update an array in its own block where a conditional's two branches each copy it, one \
                          updates its copy, and the copy of the branch taken replaces it",
            run: super::in_place::update_joined_states_in_place,
        },
        MemoryPass {
            name: "hoist-allocations",
            description: "allocate before a loop the blocks of invariant size that every iteration allocates and frees",
            run: super::hoist::hoist_allocations,
        },
        MemoryPass {
            name: "update-refilled-states-in-place",
            description: "update a loop's state array in its own block where each iteration refills the state's \
                          second buffer from it, updates the buffer (an inner loop) and swaps it in",
            run: super::in_place::update_refilled_states_in_place,
        },
        MemoryPass {
            name: "split-product-ranges",
            description: "make a reduction or a loop over R×Y elements that reads its index modulo Y a loop over R \
                          of reductions or loops over Y (a reshaped vector's cycle), without a division per element",
            run: super::product_ranges::split_product_ranges,
        },
        MemoryPass {
            name: "parallelise-maps",
            description: "make every loop whose iterations are independent a parallel map (after the passes that \
                          decide which blocks iterations share)",
            run: super::parallelise::parallelise_maps,
        },
        MemoryPass {
            name: STEP_INTERCHANGE,
            description: "run a loop whose steps are one element-wise parallel map of its state strip by strip, \
                          each strip taking every step while it is in the cache",
            run: super::step_interchange::interchange_element_wise_steps,
        },
        MemoryPass {
            name: REGISTER_TILING,
            description: "compute the rows of a matrix product's accumulation nest eight at a time, in tiles of \
                          8×16 accumulators kept in registers along the reduced axis, one cache-sized block of it \
                          after the other",
            run: super::register_tiles::tile_row_accumulations,
        },
        MemoryPass {
            name: INDEX_SPLITTING,
            description: "cut the index range of a loop whose body selects on comparisons of its index with invariant \
                          bounds (rotations, shifts, catenations) into pieces where each comparison is known",
            run: super::index_split::split_index_spaces,
        },
        MemoryPass {
            name: "store-small-ints-narrow",
            description: "store an int block whose stored values provably fit 8, 16 or 32 bits in that width",
            run: super::narrow_storage::store_small_ints_narrow,
        },
    ]
}

/// Runs every memory pass in order.
pub fn optimise_memory(program: Program) -> Program {
    memory_pipeline()
        .iter()
        .fold(program, |program, pass| (pass.run)(program))
}

/// The name of the pass that versions a program on the size of its run-time ints, which devices leave out.
pub const SIZE_VERSIONING: &str = "version-on-small-sizes";

/// The name of the pass that the memory IR for devices leaves out ([`optimise_memory_for_devices`]).
pub const INDEX_SPLITTING: &str = "split-index-spaces";

/// The name of the pass that computes rows of accumulations in register tiles, which devices leave out.
pub const REGISTER_TILING: &str = "tile-row-accumulations";

/// The name of the pass that runs element-wise steps strip by strip, which devices run with shorter strips.
pub const STEP_INTERCHANGE: &str = "interchange-element-wise-steps";

/// The memory passes for the OpenCL backend: all but index-space splitting and register tiling, and element-wise
/// steps in strips of a work-item's share. Index-space splitting's pieces serve a CPU's vector units (an interior
/// without selects); a GPU predicates a kernel's selects at no cost, and each piece would be a kernel launch of its
/// own, mostly too small to be worth one (the edge rows of a stencil). A register tile gives a CPU core 128
/// accumulators; a GPU wants a work-item per element, and a tile would leave most of its work-items idle. A strip of cache-sized length serves a CPU's cache; a kernel needs
/// strips short enough to give every work-item one.
pub fn optimise_memory_for_devices(program: Program) -> Program {
    memory_pipeline()
        .iter()
        .filter(|pass| ![INDEX_SPLITTING, REGISTER_TILING, SIZE_VERSIONING].contains(&pass.name))
        .map(|pass| match pass.name {
            STEP_INTERCHANGE => super::step_interchange::interchange_element_wise_steps_on_device,
            _ => pass.run,
        })
        .fold(program, |program, run| run(program))
}

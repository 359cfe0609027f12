//! Issue #15's vectorisation check: the optimised LLVM IR of the benchmark programs (bench/programs, sizes read at
//! run time, compiled for the CPU x86-64-v4) has vector loops in their parallel bodies, so a change that stops a
//! kernel from vectorising fails here, not only in a benchmark. Counts are of outlined parallel bodies
//! (`aplc_parallel_*`) with a loop that LLVM vectorised (`vector.body`) doing arithmetic on vectors of the kernel's
//! element type. The CPU is named so that the cost model, and with it the count, does not depend on the machine the
//! tests run on (the code is only generated, never run): the AVX-512 level of the machine bench/results.md is from, and
//! for the stencils AVX2 (x86-64-v3) too. Before index-space splitting (src/loops/passes/index_split.rs) hotspot's
//! stencil step vectorised only with AVX-512's masked loads; its pieces without selects vectorise with AVX2.

use std::path::Path;

use aplc::codegen::llvm::llvm_ir_text;
use aplc::codegen::llvm::target::CodegenOptions;
use aplc::driver::{loop_program, read_source};

/// (benchmark, CPU, element type of its arithmetic, fewest vectorised parallel bodies). The minimums are the counts of
/// today's compiler; the kernels they cover are named in the comments.
const EXPECTED: &[(&str, &str, &str, usize)] = &[
    // The fused clamp-and-divide reduction.
    ("signal", "x86-64-v4", "double", 1),
    // The option prices, fused into their sum.
    ("blackscholes", "x86-64-v4", "double", 1),
    // A generation: the neighbour counts, in bytes (src/codegen/llvm/translate/narrow.rs), and the rule, fused into
    // one loop nest whose pieces of rows (the first, the middle ones, the last; each with its pieces of columns, and
    // the nest as it was) are outlined one by one.
    ("life", "x86-64-v4", "i8", 5),
    ("life", "x86-64-v3", "i8", 5),
    // The stencil step (each piece of rows, outlined, with its column pieces) and the final sum.
    ("hotspot", "x86-64-v4", "double", 6),
    ("hotspot", "x86-64-v3", "double", 5),
    // The escape-time step (the three arrays of the state computed in one loop), the final count and the grid set-up.
    ("mandelbrot", "x86-64-v4", "double", 4),
    // The register tile with the i-k-j loop of its last columns, and the final sum.
    ("matmul", "x86-64-v4", "double", 2),
    // +/⍳N.
    ("sum", "x86-64-v4", "i64", 1),
    // The count of voters with at least 5 yes answers compares the stored bytes as bytes.
    ("votes", "x86-64-v4", "i8", 1),
];

/// The bodies of the outlined parallel functions of an LLVM module.
fn parallel_bodies(ir: &str) -> Vec<&str> {
    let mut bodies = Vec::new();
    let mut rest = ir;
    while let Some(start) = rest.find("define internal void @aplc_parallel_") {
        let end = rest[start..]
            .find("\n}\n")
            .map_or(rest.len(), |length| start + length + 3);
        bodies.push(&rest[start..end]);
        rest = &rest[end..];
    }
    bodies
}

/// Whether a function has a vectorised loop that computes on vectors of `element` (an arithmetic, comparison or
/// select instruction whose operands are `<N x element>`).
fn has_vector_loop_of(body: &str, element: &str) -> bool {
    let vector_type = format!(" x {element}>");
    let operations = [
        "= fadd ",
        "= fsub ",
        "= fmul ",
        "= fdiv ",
        "= add ",
        "= sub ",
        "= mul ",
        "= fcmp ",
        "= icmp ",
        "= select ",
        "= and ",
        "= or ",
        "= xor ",
        "= sitofp ",
        "= zext ",
    ];
    body.contains("vector.body:")
        && body
            .lines()
            .any(|line| line.contains(&vector_type) && operations.iter().any(|operation| line.contains(operation)))
}

#[test]
fn benchmark_kernels_vectorise() {
    for (name, cpu, element, fewest) in EXPECTED {
        let ir = benchmark_ir(name, cpu);
        let bodies = parallel_bodies(&ir);
        let vectorised = bodies.iter().filter(|body| has_vector_loop_of(body, element)).count();
        assert!(
            vectorised >= *fewest,
            "{name} on {cpu}: {vectorised} of {} parallel bodies vectorise on {element}, expected at least {fewest}",
            bodies.len()
        );
    }
}

#[test]
fn the_reductions_over_narrow_counts_read_vectors_of_bytes() {
    // votes' yes counts are stored one byte a voter (src/loops/passes/narrow_storage.rs): each of the three
    // reductions over them (Σc², the count of c≥5, the largest c) loads vectors of bytes in its vectorised loop, an
    // eighth of the memory traffic of 64-bit counts.
    let ir = benchmark_ir("votes", "x86-64-v4");
    let byte_loops = parallel_bodies(&ir)
        .iter()
        .filter(|body| {
            body.contains("vector.body:")
                && body
                    .lines()
                    .any(|line| line.contains("= load <") && line.contains(" x i8>"))
        })
        .count();
    assert!(
        byte_loops >= 3,
        "{byte_loops} vectorised parallel bodies of votes load vectors of bytes"
    );
}

/// The optimised LLVM IR of a benchmark program for a CPU.
fn benchmark_ir(name: &str, cpu: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("bench/programs/{name}/{name}.apl"));
    let file = read_source(&path).unwrap_or_else(|message| panic!("{message}"));
    let program = loop_program(&file).unwrap_or_else(|error| panic!("{name}: {error:?}"));
    let options = CodegenOptions {
        target_cpu: Some(cpu.to_string()),
        ..CodegenOptions::default()
    };
    llvm_ir_text(&program, &options, true).unwrap_or_else(|error| panic!("{name}: {error:?}"))
}

#[test]
fn the_register_tile_of_matmul_multiplies_whole_vectors_of_its_rows() {
    // The tile's walk along k (src/loops/passes/register_tiles.rs): its 8 rows of 16 accumulators are 16 vectors of
    // 8 doubles (znver4's 512-bit vectors) or 32 of 4 (AVX2, and x86-64-v4, which prefers 256-bit vectors), each
    // multiplied by a broadcast element of A. A gather of A's column instead (one vector of all 128 accumulators,
    // which the SLP vectoriser made while a deferred check or-ed the 128 results together) ran the tile at half the
    // speed.
    let cpus = [
        ("znver4", "<8 x double>", 16),
        ("x86-64-v4", "<4 x double>", 32),
        ("x86-64-v3", "<4 x double>", 32),
    ];
    for (cpu, vector, fewest) in cpus {
        let ir = benchmark_ir("matmul", cpu);
        let tile = parallel_bodies(&ir)
            .into_iter()
            .find(|body| body.starts_with("define internal void @aplc_parallel_tile"))
            .unwrap_or_else(|| panic!("matmul on {cpu} has no register tile:\n{ir}"));
        // Each product may fuse with the step that adds it (`contract`, src/codegen/llvm/emit.rs): one FMA.
        let products = tile
            .lines()
            .filter(|line| line.contains("= fmul contract ") && line.contains(vector))
            .count();
        assert!(products >= fewest, "{cpu}: {products} products of {vector}:\n{tile}");
        let steps = tile
            .lines()
            .filter(|line| line.contains("= fadd contract ") && line.contains(vector))
            .count();
        assert!(steps >= fewest, "{cpu}: {steps} contractible sums of {vector}:\n{tile}");
        assert!(!tile.contains("masked.gather"), "{cpu}:\n{tile}");
    }
}

#[test]
fn a_body_without_vector_arithmetic_is_not_counted() {
    // The checker itself: a scalar loop, or vectors of another element type, do not count.
    let scalar = "define internal void @aplc_parallel_i1(ptr %c) {\nloop:\n  %x = fadd double %a, %b\n}\n";
    let other_type =
        "define internal void @aplc_parallel_i2(ptr %c) {\nvector.body:\n  %x = fadd <4 x float> %a, %b\n}\n";
    let vector = "define internal void @aplc_parallel_i3(ptr %c) {\nvector.body:\n  %x = fadd <4 x double> %a, %b\n}\n";
    let module = format!("{scalar}{other_type}{vector}");
    let bodies = parallel_bodies(&module);
    assert_eq!(bodies.len(), 3);
    let counted: Vec<bool> = bodies.iter().map(|body| has_vector_loop_of(body, "double")).collect();
    assert_eq!(counted, vec![false, false, true]);
}

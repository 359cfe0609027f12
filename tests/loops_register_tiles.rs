//! Register tiles (src/loops/passes/register_tiles.rs): a row-parallel accumulation nest in i-k-j order (a matrix
//! product after the interchange) computes its rows eight at a time, with 8 × 16 accumulators along k, block of k by
//! block of k. Every rewrite is checked by the loop-IR checker and must print, on the loop-IR interpreter, exactly
//! what the input printed (⎕PP 17: the same folds in the same order); the shapes cover whole tiles, last rows, last
//! columns, no tile at all, no k and several blocks of k. The nests that must stay (booleans, another element of C
//! read, a row-dependent width, a sequential row loop, no accumulation) stay. APL matrix products of such shapes fold
//! every element in order: on the loop-IR interpreter bit for bit the fold with each product rounded, in native code
//! the fold with each product fused into its step where the CPU has FMA instructions (`emit::allow_contraction`);
//! the TAIL interpreter's right folds agree with them to 1e-12.

mod loops_common;

use aplc::driver::{run_source_capturing, Backend};
use aplc::loops::passes::register_tiles::{
    tile_row_accumulations, LONGEST_K_BLOCK, SHORTEST_K_BLOCK, TILE_COLUMNS, TILE_ROWS,
};
use aplc::source::SourceFile;

fn apply(text: &str) -> String {
    loops_common::apply_pass(tile_row_accumulations, text)
}

fn unchanged(text: &str) {
    assert_eq!(apply(text), text);
}

/// `C ← A +.× B` for A `rows × depth` and B `depth × columns` of doubles (1/(n+1) and 1/(n+3) in ravel order), in
/// the form the interchange and the recognition of parallel maps leave it, then C printed with 17 digits.
/// `column_body` is the body of the innermost loop.
fn product_with(rows: i64, depth: i64, columns: i64, column_body: &str) -> String {
    format!(
        "alloc mem1 : double[{a}]\nfor i2 < {a} {{\n  store mem1[i2] = divd(1.0, i2d((i2 + 1)))\n}}\n\
         alloc mem3 : double[{b}]\nfor i4 < {b} {{\n  store mem3[i4] = divd(1.0, i2d((i4 + 3)))\n}}\n\
         alloc mem5 : double[{c}]\nparfor i6 < {rows} {{\n  let s7 : int = (i6 * {columns})\n  \
         for j8 < {columns} {{\n    store mem5[(s7 + j8)] = -0.0\n  }}\n  for k9 < {depth} {{\n    \
         for j10 < {columns} {{\n{column_body}    }}\n  }}\n}}\nprint(17) mem5 : double[{c}]\nfree mem1\nfree mem3\n\
         free mem5\nresult 0\n",
        a = rows * depth,
        b = depth * columns,
        c = rows * columns,
    )
}

fn product(rows: i64, depth: i64, columns: i64) -> String {
    product_with(
        rows,
        depth,
        columns,
        &format!(
            "      let x11 : double = mem1[((i6 * {depth}) + k9)]\n      \
             let y12 : double = mem3[((k9 * {columns}) + j10)]\n      let z13 : double = muld(x11, y12)\n      \
             store mem5[(s7 + j10)] = addd(z13, mem5[(s7 + j10)])\n"
        ),
    )
}

#[test]
fn a_product_is_computed_in_tiles_of_rows_and_columns_with_the_last_rows_and_columns_as_before() {
    // 2 tiles of rows and 1 row after them; 2 tiles of columns and 3 columns after them.
    let printed = apply(&product(2 * TILE_ROWS + 1, 5, 2 * TILE_COLUMNS + 3));
    let accumulators = (TILE_ROWS * TILE_COLUMNS) as usize;
    assert_eq!(printed.matches("var acc").count(), accumulators, "{printed}");
    assert_eq!(printed.matches(":= addd(").count(), accumulators, "{printed}");
    // Constant sizes: 17 rows make 2 tiles, 35 columns 2 tiles of columns and 3 columns after them.
    assert!(printed.contains("parfor tile"), "{printed}");
    assert!(
        printed.contains("for column_tile") && printed.contains("< 2 {"),
        "{printed}"
    );
    assert!(
        printed.contains(&format!(" < {TILE_ROWS} {{")) && printed.contains("< 3 {"),
        "{printed}"
    );
    assert!(printed.contains("parfor rest"), "{printed}");
    // The tile's accumulators start from C (where the starts, or the blocks of k before, left them) and its stores
    // come after its walk along k: one load and one store per accumulator, and no access of C inside the walk.
    let tile = &printed[printed.find("for column_tile").unwrap()..printed.find("let tiled_rows").unwrap()];
    assert_eq!(tile.matches("store mem5").count(), accumulators, "{tile}");
    assert_eq!(
        tile.matches("mem5[").count(),
        2 * accumulators,
        "the tile loads and stores C once per accumulator: {tile}"
    );
    let walk = &tile[tile.find("for k").unwrap()..tile.find("store mem5").unwrap()];
    assert!(!walk.contains("mem5["), "{walk}");
}

#[test]
fn every_shape_around_the_tile_prints_what_it_printed_before() {
    // apply() compares the printed 17-digit results of the interpreter before and after.
    for rows in [0, 1, TILE_ROWS - 1, TILE_ROWS, TILE_ROWS + 1, 3 * TILE_ROWS + 5] {
        for columns in [
            0,
            1,
            TILE_COLUMNS - 1,
            TILE_COLUMNS,
            TILE_COLUMNS + 1,
            2 * TILE_COLUMNS + 9,
        ] {
            for depth in [0, 1, 4] {
                let printed = apply(&product(rows, depth, columns));
                assert!(printed.contains("parfor tile"), "{printed}");
            }
        }
    }
}

#[test]
fn long_rows_walk_k_in_blocks_that_fit_the_cache() {
    // Rows of 2053 doubles (16 KiB): blocks of SHORTEST_K_BLOCK (32) rows of B; depth 70 makes three blocks, the
    // last of 6. apply() checks that the interpreter prints the same 17 digits before and after.
    let printed = apply(&product(TILE_ROWS + 1, 70, 128 * TILE_COLUMNS + 5));
    assert_eq!(block_length(&printed), SHORTEST_K_BLOCK.to_string(), "{printed}");
    assert!(printed.contains("for k_block"), "{printed}");
    // Rows of 35 doubles: one block of LONGEST_K_BLOCK rows covers any depth up to it.
    let printed = apply(&product(TILE_ROWS, 5, 2 * TILE_COLUMNS + 3));
    assert_eq!(block_length(&printed), LONGEST_K_BLOCK.to_string(), "{printed}");
}

/// The value of the printed `let k_block_length… : int = …`.
fn block_length(printed: &str) -> &str {
    let line = printed
        .lines()
        .find(|line| line.starts_with("let k_block_length"))
        .expect("a block length");
    line.rsplit(" = ").next().expect("a value")
}

#[test]
fn booleans_keep_their_row_vectors() {
    let program = product(9, 3, 17)
        .replace("alloc mem5 : double", "alloc mem5 : bool")
        .replace("print(17) mem5 : double", "print(17) mem5 : bool")
        .replace("= -0.0", "= ff")
        .replace("addd(z13, mem5[(s7 + j10)])", "orb(ltd(0.5, z13), mem5[(s7 + j10)])");
    unchanged(&program);
}

#[test]
fn a_body_that_reads_the_result_outside_its_stored_value_stays() {
    // A `let` that loads the element: only the stored value's loads of C become the accumulator.
    unchanged(&product_with(
        9,
        3,
        17,
        "      let x11 : double = mem1[((i6 * 3) + k9)]\n      let y12 : double = mem5[(s7 + j10)]\n      \
         store mem5[(s7 + j10)] = addd(muld(x11, y12), mem5[(s7 + j10)])\n",
    ));
}

#[test]
fn a_store_that_does_not_accumulate_stays() {
    unchanged(&product_with(
        9,
        3,
        17,
        "      let x11 : double = mem1[((i6 * 3) + k9)]\n      store mem5[(s7 + j10)] = x11\n",
    ));
}

#[test]
fn a_sequential_row_loop_stays() {
    let body = "      let x11 : double = mem1[((i6 * 3) + k9)]\n      \
                store mem5[(s7 + j10)] = addd(x11, mem5[(s7 + j10)])\n";
    unchanged(&product_with(9, 3, 17, body).replace("parfor i6", "for i6"));
}

#[test]
fn a_start_that_loads_stays() {
    let program = product(9, 3, 17).replace("store mem5[(s7 + j8)] = -0.0", "store mem5[(s7 + j8)] = mem1[j8]");
    unchanged(&program);
}

fn apl_product(rows: i64, depth: i64, columns: i64) -> String {
    format!(
        "⎕PP←17\nA←{rows} {depth}⍴÷⍳{a}\nB←{depth} {columns}⍴÷2+⍳{b}\nC←A+.×B\n⎕←C\n⎕←+/+/C\n",
        a = (rows * depth).max(1),
        b = (depth * columns).max(1),
    )
}

fn printed_by(text: &str, backend: Backend) -> String {
    let report = run_source_capturing(&SourceFile::new("product.apl", text.to_string()), backend);
    assert_eq!(report.error.map(|error| error.apl_name), None, "on\n{text}");
    report.stdout
}

/// The numbers of a printed result (APL's 17 digits read back exactly).
fn numbers(printed: &str) -> Vec<f64> {
    printed
        .split_whitespace()
        .map(|number| number.replace('¯', "-").parse::<f64>().expect("a number"))
        .collect()
}

/// The elements of `apl_product`'s C in row-major order, each the fold along k in order (k = 0, 1, …, from -0.0,
/// the start of a double sum), computed here: with `fused`, each step one fused multiply-add (one rounding), as
/// native code on a CPU with FMA instructions computes the steps of a sum that add a product; otherwise the product
/// rounded, then the sum.
fn products_in_order(rows: i64, depth: i64, columns: i64, fused: bool) -> Vec<f64> {
    let a = |i: i64, k: i64| 1.0 / (i * depth + k + 1) as f64;
    let b = |k: i64, j: i64| 1.0 / (k * columns + j + 3) as f64;
    let mut elements = Vec::new();
    for i in 0..rows {
        for j in 0..columns {
            let mut sum = -0.0f64;
            for k in 0..depth {
                sum = match fused {
                    true => a(i, k).mul_add(b(k, j), sum),
                    false => a(i, k) * b(k, j) + sum,
                };
            }
            elements.push(sum);
        }
    }
    elements
}

/// Whether this machine's CPU has fused multiply-add instructions, which native code (compiled for the host) uses.
fn host_has_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("fma");
    #[cfg(not(target_arch = "x86_64"))]
    return cfg!(target_arch = "aarch64");
}

fn bits(numbers: &[f64]) -> Vec<u64> {
    numbers.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn native_products_of_tiled_shapes_fold_every_element_in_order() {
    let shapes = [
        (TILE_ROWS, 7, TILE_COLUMNS),
        (2 * TILE_ROWS + 3, 40, 3 * TILE_COLUMNS + 5),
        (TILE_ROWS + 1, 2, TILE_COLUMNS - 1),
        (3, 9, 2 * TILE_COLUMNS),
        // Rows of 2053 doubles make blocks of k of SHORTEST_K_BLOCK (32) rows: 70 is three blocks, the last short.
        (TILE_ROWS + 1, 70, 128 * TILE_COLUMNS + 5),
    ];
    for (rows, depth, columns) in shapes {
        let text = apl_product(rows, depth, columns);
        let file = SourceFile::new("product.apl", text.clone());
        let printed_ir = aplc::loops::print_program(&aplc::driver::loop_program(&file).expect("the program compiles"));
        assert!(printed_ir.contains("parfor tile"), "{printed_ir}");
        let on_loop_ir = printed_by(&text, Backend::Mem);
        let path = std::env::temp_dir().join(format!(
            "aplc-register-tiles-{}-{rows}-{columns}.apl",
            std::process::id()
        ));
        std::fs::write(&path, &text).expect("the case is written");
        let native = loops_common::run_aplc_child(&path, "jit");
        std::fs::remove_file(&path).ok();
        assert!(native.status.success(), "on\n{text}");
        // The product's elements (the last number is a `+/`, which native code may reassociate): the loop-IR
        // interpreter rounds each product; native code fuses it into the step where the CPU can.
        let elements = |printed: &str| {
            let mut numbers = numbers(printed);
            numbers.pop();
            numbers
        };
        let native = String::from_utf8_lossy(&native.stdout).to_string();
        assert_eq!(
            bits(&elements(&on_loop_ir)),
            bits(&products_in_order(rows, depth, columns, false)),
            "the loop-IR interpreter on\n{text}"
        );
        assert_eq!(
            bits(&elements(&native)),
            bits(&products_in_order(rows, depth, columns, host_has_fma())),
            "native code on\n{text}"
        );
        // The TAIL interpreter folds from the right (APL's definition); the sums of the same positive terms in
        // either order agree to far better than 1e-12.
        let on_tail = numbers(&printed_by(&text, Backend::Interp));
        let on_loop_ir = numbers(&on_loop_ir);
        assert_eq!(on_tail.len(), on_loop_ir.len(), "on\n{text}");
        let far_apart = on_tail
            .iter()
            .zip(&on_loop_ir)
            .position(|(tail, loop_ir)| (tail - loop_ir).abs() > 1e-12 * tail.abs());
        assert_eq!(far_apart, None, "the TAIL interpreter's elements on\n{text}");
    }
}

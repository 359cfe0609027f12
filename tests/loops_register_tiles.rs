//! Register tiles (src/loops/passes/register_tiles.rs): a row-parallel accumulation nest in i-k-j order (a matrix
//! product after the interchange) computes its rows eight at a time, with 8 × 16 accumulators along k. Every rewrite
//! is checked by the loop-IR checker and must print, on the loop-IR interpreter, exactly what the input printed
//! (⎕PP 17: the same folds in the same order); the shapes cover whole tiles, last rows, last columns, no tile at all
//! and no k. The nests that must stay (booleans, another element of C read, a row-dependent width, a sequential row
//! loop, no accumulation) stay. APL matrix products of such shapes print the same digits on the loop-IR interpreter
//! and in native code, and agree with the TAIL interpreter to 12 digits.

mod loops_common;

use aplc::driver::{run_source_capturing, Backend};
use aplc::loops::passes::register_tiles::{tile_row_accumulations, TILE_COLUMNS, TILE_ROWS};
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
    // The tile's stores come after its walk along k: one per accumulator, and no load of C inside the tile's walk.
    let tile = &printed[printed.find("for column_tile").unwrap()..printed.find("for r").unwrap()];
    assert_eq!(tile.matches("store mem5").count(), accumulators, "{tile}");
    assert_eq!(
        tile.matches("mem5[").count(),
        accumulators,
        "the tile only stores C: {tile}"
    );
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

/// The numbers of a printed result, rounded to 12 significant digits.
fn to_twelve_digits(printed: &str) -> Vec<String> {
    printed
        .split_whitespace()
        .map(|number| format!("{:.11e}", number.replace('¯', "-").parse::<f64>().expect("a number")))
        .collect()
}

#[test]
fn native_products_of_tiled_shapes_print_the_digits_of_the_loop_ir_interpreter() {
    let shapes = [
        (TILE_ROWS, 7, TILE_COLUMNS),
        (2 * TILE_ROWS + 3, 40, 3 * TILE_COLUMNS + 5),
        (TILE_ROWS + 1, 2, TILE_COLUMNS - 1),
        (3, 9, 2 * TILE_COLUMNS),
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
        // The product's elements: the same digits (the last line is a `+/`, which native code may reassociate).
        let lines = |printed: &str| printed.lines().map(str::to_string).collect::<Vec<_>>();
        let native = String::from_utf8_lossy(&native.stdout).to_string();
        let (loop_lines, native_lines) = (lines(&on_loop_ir), lines(&native));
        assert_eq!(loop_lines.len(), native_lines.len(), "on\n{text}");
        assert_eq!(
            loop_lines[..loop_lines.len() - 1],
            native_lines[..native_lines.len() - 1],
            "on\n{text}"
        );
        assert_eq!(
            to_twelve_digits(&on_loop_ir),
            to_twelve_digits(&printed_by(&text, Backend::Interp)),
            "on\n{text}"
        );
    }
}

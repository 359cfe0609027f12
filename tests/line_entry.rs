//! A REPL line's native entry, `aplc_line(inputs, outputs)`, driven directly: a TAIL program that reads inputs with
//! `inputD`/`inputI` is lowered (its input blocks recorded), compiled by the JIT and run in this process with data
//! of ours; the output words hold its results (scalars by value, arrays as data pointer and extents).

use aplc::codegen::llvm::line::compile_line;
use aplc::codegen::llvm::target::CodegenOptions;
use aplc::codegen::llvm::translate::line::OutputSlot;
use aplc::loops::ir::ScalarType;
use aplc::lower::input::lower_line_program;
use aplc::source::SourceFile;
use inkwell::context::Context;

fn typed_program(text: &str) -> aplc::tail::Program {
    let mut program = aplc::tail::parse_program(&SourceFile::new("line.tail", text)).expect("the TAIL parses");
    aplc::tail::infer::infer_program(&mut program).expect("the TAIL is well typed");
    program
}

#[test]
fn a_line_reads_its_inputs_and_returns_a_scalar_and_an_array() {
    // Input 0: the 2×3 matrix 1.5 2.5 3.5 / 4.5 5.5 6.5 (as its ravel); input 1: the int vector 10 20 30.
    let program = typed_program(
        "let m = reshape([2,3], inputD(0, 6)) in \
         let v = inputI(1, 3) in \
         let total = reduce(addd, 0.0, rav(m)) in \
         let w = zipWith(addi, v, v) in \
         (total, w)",
    );
    let line = lower_line_program(&program).expect("the line lowers");
    let recorded: Vec<(usize, ScalarType)> = line
        .inputs
        .iter()
        .map(|input| (input.index, input.block.element))
        .collect();
    assert_eq!(recorded, [(0, ScalarType::Double), (1, ScalarType::Int)]);

    let context = Context::create();
    let compiled = compile_line(&context, &line, &CodegenOptions::default()).expect("the line compiles");
    assert_eq!(
        compiled.outputs,
        [
            OutputSlot::Scalar(ScalarType::Double),
            OutputSlot::Array {
                element: ScalarType::Int,
                rank: 1
            }
        ]
    );
    assert_eq!(compiled.output_word_count(), 3);

    let matrix = [1.5f64, 2.5, 3.5, 4.5, 5.5, 6.5];
    let vector = [10i64, 20, 30];
    let inputs = [matrix.as_ptr() as *const u8, vector.as_ptr() as *const u8];
    // SAFETY: input 0 holds 6 doubles and input 1 holds 3 ints, as the program's inputD(0, 6) and inputI(1, 3) say.
    let words = unsafe { compiled.run(&inputs) };
    // 1.5+2.5+...+6.5 = 24; 2×(10 20 30) = 20 40 60.
    assert_eq!(f64::from_bits(words[0]), 24.0);
    assert_eq!(words[2], 3);
    // SAFETY: the entry wrote the pointer to the 3 ints of w, which stay allocated.
    let doubled = unsafe { std::slice::from_raw_parts(words[1] as usize as *const i64, 3) };
    assert_eq!(doubled, [20, 40, 60]);
    // The inputs are the caller's and are left as they were.
    assert_eq!(vector, [10, 20, 30]);
}

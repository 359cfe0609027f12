//! The optimised LLVM IR of Sobol's bit matrix `1=2|⌊x÷y`: the int-range check of a floor that is only compared is
//! deferred, so the loop vectorises; a floor used as an int value keeps its check per element.

use aplc::codegen::llvm::llvm_ir_text;
use aplc::codegen::llvm::target::CodegenOptions;
use aplc::source::SourceFile;

/// The optimised LLVM IR of an APL program through the whole pipeline (the TAIL optimiser included, as `aplc build`).
fn optimised_ir_of_apl(text: &str) -> String {
    let file = SourceFile::new("program.apl", text.to_string());
    let program = aplc::driver::loop_program(&file).expect("the program lowers");
    llvm_ir_text(&program, &CodegenOptions::default(), true).expect("the program compiles")
}

#[test]
fn a_compared_floor_vectorises() {
    // Sobol's bit matrix: bit k of i is 2|⌊i÷2*k. Summed by rows (each row's fold is a loop of its own in a parallel
    // map); the sum of the ravel, one flat parallel reduction whose positions are divided by 26, is not vectorised
    // by LLVM's cost model (64-bit division by a constant) once its chunks start at a run-time position.
    let ir = optimised_ir_of_apl("I←⍳1000\nbits←1=2|⌊I∘.÷2*¯1+⍳26\n⎕←+/+/bits");
    assert!(ir.contains("@llvm.floor.v"), "the floor is not vectorised:\n{ir}");
    // The check is still there: the program can still stop with the floor's DOMAIN ERROR.
    assert!(
        ir.contains("floor: value out of the int range"),
        "the int-range check is gone:\n{ir}"
    );
}

#[test]
fn a_floor_used_as_an_int_value_still_checks_at_once() {
    // ⌊x added to an int may become an index elsewhere: its check stays a branch per element (no vector floor).
    let ir = optimised_ir_of_apl("I←⍳1000\n⎕←+/(⌊I÷3)+I");
    assert!(
        !ir.contains("@llvm.floor.v"),
        "a floor used as an int was vectorised with a deferred check:\n{ir}"
    );
}

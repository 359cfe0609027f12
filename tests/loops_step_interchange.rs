//! The interchange of element-wise steps (src/loops/passes/step_interchange.rs): a `⍣` loop whose step is one
//! element-wise parallel map becomes a parallel map over strips of elements, each strip taking every step. The
//! expected loop IR is written by hand; every rewrite is checked by the loop-IR checker and must print what the input
//! printed. The loops that must stay as they are (a neighbour read, a conditional store, a check that depends on the
//! step...) stay; and APL programs of sizes around the strip length and step counts from 0 up print on the loop-IR
//! interpreter and the JIT what the TAIL interpreter prints.

mod loops_common;

use aplc::driver::{run_source_capturing, Backend};
use aplc::loops::ir::Program;
use aplc::loops::passes::step_interchange::{
    interchange_element_wise_steps, interchange_element_wise_steps_on_device, StripLayout, CPU_STRIPS, DEVICE_STRIPS,
};
use aplc::loops::print_program;
use aplc::source::SourceFile;

/// Parses, checks, runs the pass, checks again, and compares the two runs; returns the printed result.
fn apply(pass: fn(Program) -> Program, text: &str) -> String {
    loops_common::apply_pass(pass, text)
}

fn unchanged(text: &str) {
    assert_eq!(apply(interchange_element_wise_steps, text), text);
    assert_eq!(apply(interchange_element_wise_steps_on_device, text), text);
}

/// mem1 = 0 1 2 3 4 (invariant), the state mem3 = 1 1 1 1 1 and its next block mem4.
const SETUP: &str = "alloc mem1 : double[5]\nfor i2 < 5 {\n  store mem1[i2] = i2d(i2)\n}\nalloc mem3 : double[5]\n\
                     for i5 < 5 {\n  store mem3[i5] = 1.0\n}\nalloc mem4 : double[5]\n";

/// Three steps of `state ← state×0.5 + mem1`, with `map_body` as the step's map and `before` ahead of it.
fn three_steps(before: &str, map_body: &str) -> String {
    format!(
        "{SETUP}for it6 < 3 {{\n{before}  parfor i7 < 5 {{\n{map_body}  }}\n  swap mem3, mem4\n}}\n\
         print(10) mem3 : double[5]\nfree mem1\nfree mem3\nfree mem4\nresult 0\n"
    )
}

const ELEMENT_WISE: &str = "    let x8 : double = mem3[i7]\n    let y9 : double = mem1[i7]\n    \
                            store mem4[i7] = addd(muld(x8, 0.5), y9)\n";

const TAIL: &str = "print(10) mem3 : double[5]\nfree mem1\nfree mem3\nresult 0\n";

/// The three steps of [`three_steps`] with [`ELEMENT_WISE`] after the interchange with strips of `layout`
/// (5 elements: no whole strip when the length is over 5, and every element in the last strip's map).
fn in_strips_of(layout: StripLayout) -> String {
    let w = layout.length;
    let element = match layout.interleaved {
        false => format!("((strip12 * {w}) + lane13)"),
        true => "((lane13 * strips11) + strip12)".to_string(),
    };
    format!(
        "{SETUP}let elements10 : int = 5\nlet strips11 : int = (elements10 / {w})\n\
         parfor strip12 < strips11 {{\n  for it6 < 3 {{\n    for lane13 < {w} {{\n      \
         let i7 : int = {element}\n      let x8 : double = mem3[i7]\n      \
         let y9 : double = mem1[i7]\n      let next16 : double = addd(muld(x8, 0.5), y9)\n      \
         store mem3[i7] = next16\n    }}\n  }}\n}}\nlet done14 : int = (strips11 * {w})\n\
         parfor rest18 < (elements10 - done14) {{\n  for it19 < 3 {{\n    let i20 : int = (done14 + rest18)\n    \
         let x21 : double = mem3[i20]\n    let y22 : double = mem1[i20]\n    \
         let next23 : double = addd(muld(x21, 0.5), y22)\n    store mem3[i20] = next23\n  }}\n}}\n{TAIL}"
    )
    .replace("alloc mem4 : double[5]\n", "")
}

#[test]
fn on_the_cpu_each_strip_takes_every_step_and_the_last_strip_follows() {
    // Consecutive strips, whose loop over a strip reads contiguous elements (vectorised).
    let expected = in_strips_of(StripLayout {
        length: CPU_STRIPS.length,
        interleaved: false,
    });
    assert_eq!(
        apply(interchange_element_wise_steps, &three_steps("", ELEMENT_WISE)),
        expected
    );
}

#[test]
fn on_a_device_a_work_item_takes_a_short_interleaved_strip_through_every_step() {
    // Interleaved, so that neighbouring work-items (strips) touch neighbouring elements.
    let expected = in_strips_of(StripLayout {
        length: DEVICE_STRIPS.length,
        interleaved: true,
    });
    assert_eq!(
        apply(interchange_element_wise_steps_on_device, &three_steps("", ELEMENT_WISE)),
        expected
    );
    // 13 elements: one whole strip of 8 and a last strip of 5; 37: four strips (elements 0, 4, 8, ..., 28 in the
    // first) and a last strip of 5. `apply` checks that the rewritten loop prints what the loop printed.
    for elements in [13, 37] {
        let program = three_steps("", ELEMENT_WISE)
            .replace("[5]", &format!("[{elements}]"))
            .replace("< 5", &format!("< {elements}"));
        let printed = apply(interchange_element_wise_steps_on_device, &program);
        assert!(printed.contains("let strips11 : int = (elements10 / 8)"), "{printed}");
        assert!(
            printed.contains("let i7 : int = ((lane13 * strips11) + strip12)"),
            "{printed}"
        );
        assert!(
            printed.contains(&format!("let elements10 : int = {elements}")),
            "{printed}"
        );
    }
}

#[test]
fn invariant_checks_run_once_before_the_steps_and_a_step_count_unknown_until_run_time_is_tested() {
    // The check (an error when 5 < 0, never) moves ahead of the strips, inside a test that there are steps at all.
    let program = three_steps("  if (5 < 0) {\n    error DOMAIN ERROR \"never\"\n  }\n", ELEMENT_WISE)
        .replace("for it6 < 3", "let k20 : int = argInt(1, 3)\nfor it6 < k20");
    let printed = apply(interchange_element_wise_steps_on_device, &program);
    assert!(
        printed.contains("if (0 < k20) {\n  if (5 < 0) {\n    error DOMAIN ERROR \"never\"\n  }\n  let elements"),
        "{printed}"
    );
    assert!(!printed.contains("swap"), "{printed}");
}

#[test]
fn a_step_that_reads_another_element_of_the_state_stays() {
    // Element i of the next state reads element 4-i of the state too: updated in place, the elements past the
    // middle would read their mirror's new value.
    unchanged(&three_steps(
        "",
        "    let x8 : double = mem3[i7]\n    let y9 : double = mem3[(4 - i7)]\n    \
         store mem4[i7] = addd(muld(x8, 0.5), y9)\n",
    ));
}

#[test]
fn a_step_that_reads_its_next_block_or_stores_it_conditionally_stays() {
    unchanged(&three_steps(
        "",
        "    let x8 : double = mem3[i7]\n    store mem4[i7] = addd(muld(x8, 0.5), 1.0)\n    \
         let y9 : double = mem4[i7]\n",
    ));
    unchanged(&three_steps(
        "",
        "    let x8 : double = mem3[i7]\n    if (i7 < 2) {\n      store mem4[i7] = x8\n    } else {\n      \
         store mem4[i7] = addd(x8, 1.0)\n    }\n",
    ));
}

#[test]
fn a_state_read_only_in_a_branch_of_a_select_stays() {
    // Nothing shows that the state's block holds every element the next block does (the size of the in-place
    // update), when the state is read only for some elements.
    unchanged(&three_steps(
        "",
        "    let y9 : double = mem1[i7]\n    store mem4[i7] = ((i7 < 2) ? mem3[i7] : y9)\n",
    ));
}

#[test]
fn a_check_that_depends_on_the_step_or_other_work_in_the_loop_stays() {
    unchanged(&three_steps(
        "  if (it6 == 7) {\n    error DOMAIN ERROR \"never\"\n  }\n",
        ELEMENT_WISE,
    ));
    unchanged(&three_steps("  print(10) it6\n", ELEMENT_WISE));
    // A loop of no steps at all.
    unchanged(&three_steps("", ELEMENT_WISE).replace("for it6 < 3", "for it6 < 0"));
}

#[test]
fn a_swap_of_a_block_the_step_does_not_write_stays() {
    let program =
        three_steps("", ELEMENT_WISE).replace("  swap mem3, mem4\n", "  swap mem3, mem4\n  swap mem1, mem21\n");
    let program = program.replace(
        "alloc mem4 : double[5]\n",
        "alloc mem4 : double[5]\nalloc mem21 : double[5]\n",
    );
    let program = program.replace("free mem4\n", "free mem4\nfree mem21\n");
    unchanged(&program);
}

/// A ⍣ over a double state with a mask and an int count (mandelbrot's shape) and an invariant vector, of run-time
/// length and step count.
fn element_wise_program(length: i64, steps: i64) -> String {
    format!(
        "⎕PP←12\nn←{length} ⎕ArgInt 1\nK←{steps} ⎕ArgInt 2\nc←(⍳n)÷n+1\n\
         step←{{(z m)←⍵ ⋄ inside←z≤1 ⋄ ((inside×c+z×z)+(1-inside)×z) (m+inside)}}\n\
         (z m)←(step⍣K) (n⍴0.0) (n⍴0)\n⎕←+/z\n⎕←+/m\n⎕←(5⌊n)↑m\n"
    )
}

fn run_in_process(text: &str, backend: Backend) -> (String, Option<String>) {
    let report = run_source_capturing(&SourceFile::new("steps.apl", text.to_string()), backend);
    (report.stdout, report.error.map(|error| error.apl_name))
}

#[test]
fn programs_around_the_strip_length_print_what_the_tail_interpreter_prints() {
    let strip = CPU_STRIPS.length;
    let lengths = [0, 1, strip - 1, strip, strip + 1, 2 * strip + 7];
    for length in lengths {
        for steps in [0, 1, 2, 7] {
            let text = element_wise_program(length, steps);
            let expected = run_in_process(&text, Backend::Interp);
            assert_eq!(expected.1, None, "{text}");
            assert_eq!(run_in_process(&text, Backend::Mem), expected, "on\n{text}");
        }
    }
}

#[test]
fn native_code_of_the_strips_prints_what_the_tail_interpreter_prints() {
    let strip = CPU_STRIPS.length;
    for (length, steps) in [(strip + 1, 3), (3 * strip + 100, 7), (5, 2)] {
        let text = element_wise_program(length, steps);
        let path = std::env::temp_dir().join(format!("aplc-step-interchange-{}-{length}.apl", std::process::id()));
        std::fs::write(&path, &text).expect("the case is written");
        let (expected, error) = run_in_process(&text, Backend::Interp);
        assert_eq!(error, None);
        let output = loops_common::run_aplc_child(&path, "jit");
        std::fs::remove_file(&path).ok();
        assert!(output.status.success(), "on\n{text}");
        assert_eq!(String::from_utf8_lossy(&output.stdout), expected, "on\n{text}");
    }
}

#[test]
fn the_loop_ir_of_such_a_program_has_no_sequential_loop_left() {
    let file = SourceFile::new("steps.apl", element_wise_program(1000, 10));
    for program in [
        aplc::driver::loop_program(&file),
        aplc::driver::device_loop_program(&file),
    ] {
        let program = program.expect("the program compiles");
        let printed = print_program(&program);
        let counts = aplc::loops::structure::structure_counts(&program);
        assert_eq!(counts.sequential_loops, 0, "{printed}");
        assert!(!printed.contains("swap"), "{printed}");
    }
}

#[test]
fn the_checker_proves_interleaved_strips_disjoint_and_rejects_overlapping_ones() {
    // n1 strips of 4 interleaved elements each: strip s stores s, s + n1, s + 2·n1, s + 3·n1, a residue class of
    // its own.
    let strips = "let n1 : int = argInt(1, 30)\nalloc mem2 : int[(n1 * 4)]\nparfor s3 < n1 {\n  \
                  for l4 < 4 {\n    store mem2[((l4 * n1) + s3)] = l4\n  }\n}\nfree mem2\nresult 0\n";
    let program = aplc::loops::parser::parse_program(strips).expect("the program parses");
    aplc::loops::check::check_program(&program).expect("interleaved strips are proved disjoint");
    // One strip more than the stride: strip n1 stores where strip 0 stores for the next lane.
    for overlapping in [
        strips.replace("parfor s3 < n1", "parfor s3 < (n1 + 1)"),
        strips.replace("((l4 * n1) + s3)", "((l4 * n1) + (s3 * 2))"),
        strips.replace("((l4 * n1) + s3)", "((l4 * (n1 - 1)) + s3)"),
    ] {
        let program = aplc::loops::parser::parse_program(&overlapping).expect("the program parses");
        let error = aplc::loops::check::check_program(&program).expect_err("overlapping strips are rejected");
        assert!(error.to_string().contains("may store to the same position"), "{error}");
    }
}

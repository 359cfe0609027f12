//! Property: on generated TAIL programs, every optimiser pass alone and the whole pipeline (with the checker after
//! every pass) give the same outcome as the original program: the same printed lines and result display, or the
//! same APL error kind after the same printed lines.
//!
//! The generator builds well-typed programs over int vectors and scalars from a list of random numbers. It favours
//! what the passes look at: foldable literals and V-ops, chains of `each` and `zipWith` (fusion), lambdas with
//! invariant `let`s (floating), dead `let`s, `print` (effects), and operations that can fail: `divi` by zero,
//! `iota` of a negative number, `zipWith` and `cat` of vectors of different lengths.

use aplc::pass::{run_pipeline, tail_pipeline, Verify};
use aplc::source::SourceFile;
use aplc::tail::infer::infer_program;
use aplc::tail::interp::{display_lines, eval_program, MemoryHost};
use aplc::tail::{parse_program, print_program, Program};
use proptest::prelude::*;

/// Reads choices from the random numbers (zero when they run out, so every list decodes to a program).
struct Choices {
    numbers: Vec<u32>,
    position: usize,
}

impl Choices {
    fn pick(&mut self, bound: u32) -> u32 {
        let value = self.numbers.get(self.position).copied().unwrap_or(0);
        self.position += 1;
        value % bound
    }

    fn int(&mut self, low: i64, high: i64) -> String {
        let value = low + self.pick((high - low + 1) as u32) as i64;
        if value < 0 {
            format!("~{}", -value)
        } else {
            value.to_string()
        }
    }
}

struct Generator {
    choices: Choices,
    vectors: Vec<String>,
    scalars: Vec<String>,
}

const BINARY: [&str; 5] = ["addi", "subi", "muli", "maxi", "divi"];

impl Generator {
    fn binary(&mut self) -> &'static str {
        BINARY[self.choices.pick(BINARY.len() as u32) as usize]
    }

    fn vector(&mut self) -> String {
        if self.vectors.is_empty() {
            return "[1,2,3]".to_string();
        }
        let index = self.choices.pick(self.vectors.len() as u32) as usize;
        self.vectors[index].clone()
    }

    fn scalar(&mut self) -> String {
        if self.scalars.is_empty() || self.choices.pick(3) == 0 {
            return self.choices.int(-3, 5);
        }
        let index = self.choices.pick(self.scalars.len() as u32) as usize;
        self.scalars[index].clone()
    }

    /// `fn x:[int]0 => op(x, k)` (the parameter is always `x`, so nested lambdas shadow each other).
    fn element_function(&mut self) -> String {
        let op = self.binary();
        let operand = self.scalar();
        if self.choices.pick(2) == 0 {
            format!("fn x:[int]0 => {op}(x,{operand})")
        } else {
            format!("fn x:[int]0 => {op}({operand},x)")
        }
    }

    fn vector_expression(&mut self) -> String {
        match self.choices.pick(21) {
            0 => {
                let length = self.choices.pick(5);
                if length == 0 {
                    "[]:int".to_string()
                } else {
                    let elements: Vec<String> = (0..length).map(|_| self.choices.int(-2, 9)).collect();
                    format!("[{}]", elements.join(","))
                }
            }
            1 => format!("iota({})", self.choices.int(-1, 5)),
            2 if self.choices.pick(2) == 0 => format!("iotaV({})", self.choices.int(0, 4)),
            // A vector of scalar variables and literals.
            2 => format!("[{},{},{}]", self.scalar(), self.scalar(), self.scalar()),
            3 => {
                let (f, v) = (self.element_function(), self.vector());
                format!("each({f},{v})")
            }
            4 => {
                let (f, g, v) = (self.element_function(), self.element_function(), self.vector());
                format!("each({f},each({g},{v}))")
            }
            5 => {
                let (op, a, b) = (self.binary(), self.vector(), self.vector());
                format!("zipWith({op},{a},{b})")
            }
            6 => {
                let (f, a, b) = (self.element_function(), self.vector(), self.vector());
                let op = self.binary();
                format!("zipWith({op},each({f},{a}),{b})")
            }
            7 => format!("reverse(reverse({}))", self.vector()),
            8 => format!("transp(transp({}))", self.vector()),
            9 => {
                let (k, v) = (self.choices.int(-2, 4), self.vector());
                ["rotate", "drop", "take"][self.choices.pick(3) as usize].to_string() + &format!("({k},{v})")
            }
            10 => format!("cat({},{})", self.vector(), self.vector()),
            11 => format!("reshape([{}],{})", self.choices.int(0, 6), self.vector()),
            12 => format!("reshape(shape({}),{})", self.vector(), self.vector()),
            13 => format!("print(10,{})", self.vector()),
            14 => format!("snoc({},{})", self.vector(), self.scalar()),
            15 => {
                // A loop-invariant let inside a lambda (an index may be out of range).
                let (w, v, op) = (self.vector(), self.vector(), self.binary());
                if self.choices.pick(2) == 0 {
                    format!("each(fn x:[int]0 => let c = reduce(addi,0,{w}) in {op}(x,c),{v})")
                } else {
                    let position = self.choices.int(0, 4);
                    format!("each(fn x:[int]0 => let c = index(1,{position},{w}) in {op}(x,c),{v})")
                }
            }
            16 => {
                let (f, k, v) = (self.element_function(), self.choices.int(-1, 3), self.vector());
                format!("power(fn y:[int]1 => each({f},y),{k},{v})")
            }
            17 => format!("transp2([1],mem({}))", self.vector()),
            18 => {
                // Effects inside element functions, next to a function that may fail.
                let (f, v) = (self.element_function(), self.vector());
                if self.choices.pick(2) == 0 {
                    format!("each(fn x:[int]0 => print(10,x),each({f},{v}))")
                } else {
                    format!("each({f},each(fn x:[int]0 => print(10,x),{v}))")
                }
            }
            19 => {
                // Matrices: transpositions, shapes and reductions along the last axis.
                let (a, b, v) = (self.choices.int(0, 3), self.choices.int(0, 3), self.vector());
                let matrix = format!("reshape([{a},{b}],{v})");
                match self.choices.pick(5) {
                    0 => format!("reduce(addi,0,transp(transp2([2,1],{matrix})))"),
                    1 => format!("rav(transp({matrix}))"),
                    2 => format!("catV(shape(transp({matrix})),[1])"),
                    3 => format!("reduce(maxi,0,transp2([1,2],reverse(reverse({matrix}))))"),
                    _ => format!("reduce(addi,0,reshape([{b},{a}],transp({matrix})))"),
                }
            }
            _ => format!("catV(consV(0,iotaV({})),[1])", self.choices.int(0, 3)),
        }
    }

    fn scalar_expression(&mut self) -> String {
        match self.choices.pick(12) {
            0 => self.choices.int(-3, 9),
            1 => format!("reduce(addi,0,{})", self.vector()),
            2 => {
                let (op, a, b) = (self.binary(), self.scalar(), self.scalar());
                format!("{op}({a},{b})")
            }
            3 => format!("first({})", self.vector()),
            4 => format!("tally({})", self.vector()),
            5 => format!("negi({})", self.scalar()),
            6 => format!("b2i(lti({},{}))", self.scalar(), self.scalar()),
            7 => format!("print(10,{})", self.scalar()),
            8 => {
                // A lambda whose result folds to a literal: the loop state must keep a type without the value.
                let (a, b, k, s) = (
                    self.choices.int(0, 3),
                    self.choices.int(0, 3),
                    self.choices.int(0, 2),
                    self.scalar(),
                );
                format!("power(fn y:[int]0 => addi({a},{b}),{k},{s})")
            }
            9 => format!("firstV(shapeV(iotaV({})))", self.choices.int(0, 4)),
            10 => format!("index(1,{},{})", self.choices.int(0, 4), self.vector()),
            _ => format!("reduce(maxi,~100,each(fn x:[int]0 => muli(x,2),{}))", self.vector()),
        }
    }

    fn program(mut self) -> String {
        let mut text = String::new();
        let lets = 1 + self.choices.pick(8);
        for index in 0..lets {
            let name = format!("v{index}");
            if self.choices.pick(2) == 0 {
                text += &format!("let {name} = {} in\n", self.vector_expression());
                self.vectors.push(name);
            } else {
                text += &format!("let {name} = {} in\n", self.scalar_expression());
                self.scalars.push(name);
            }
        }
        let result = match self.choices.pick(3) {
            0 => self.vector(),
            1 => self.scalar(),
            _ => format!("({},{})", self.vector(), self.scalar()),
        };
        text + &result
    }
}

fn generate(numbers: Vec<u32>) -> String {
    Generator {
        choices: Choices { numbers, position: 0 },
        vectors: Vec::new(),
        scalars: Vec::new(),
    }
    .program()
}

fn outcome(program: &Program) -> Vec<String> {
    let mut host = MemoryHost::default();
    let result = eval_program(program, &mut host);
    let mut lines = host.printed_lines;
    match result {
        Ok(value) => lines.extend(display_lines(&value)),
        Err(error) => lines.push(format!("error: {}", error.kind.apl_name())),
    }
    lines
}

fn check_program_text(text: &str) -> Result<(), TestCaseError> {
    let mut program = parse_program(&SourceFile::new("generated", text)).expect("generated programs parse");
    infer_program(&mut program).unwrap_or_else(|e| panic!("generated program is ill-typed: {e}\n{text}"));
    let expected = outcome(&program);
    let pipeline = tail_pipeline();
    for pass in &pipeline {
        let optimised = run_pipeline(program.clone(), std::slice::from_ref(pass), Verify::On)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        prop_assert_eq!(
            outcome(&optimised),
            expected.clone(),
            "pass {}:\n{}\n=>\n{}",
            pass.name,
            text,
            print_program(&optimised)
        );
    }
    let optimised = run_pipeline(program.clone(), &pipeline, Verify::On).unwrap_or_else(|e| panic!("{e}\n{text}"));
    prop_assert_eq!(
        outcome(&optimised),
        expected,
        "pipeline:\n{}\n=>\n{}",
        text,
        print_program(&optimised)
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn passes_preserve_the_outcome_of_generated_programs(numbers in prop::collection::vec(any::<u32>(), 0..80)) {
        check_program_text(&generate(numbers))?;
    }
}

#[test]
fn the_generator_produces_failing_printing_and_succeeding_programs() {
    // A sanity check of the generator itself: over a fixed range of inputs, some programs fail, some print, most
    // succeed, and every pass rewrites some of them, so the property above exercises errors, effects and rewrites.
    let pipeline = tail_pipeline();
    let mut changed = vec![0usize; pipeline.len()];
    let (mut failing, mut printing, mut total) = (0, 0, 0);
    for seed in 0..300u32 {
        let numbers: Vec<u32> = (0..60)
            .map(|i| seed.wrapping_mul(2_654_435_761).wrapping_add(i * 40_503) >> 7)
            .collect();
        let text = generate(numbers);
        let mut program = parse_program(&SourceFile::new("generated", text.clone())).expect("parses");
        infer_program(&mut program).unwrap_or_else(|e| panic!("ill-typed: {e}\n{text}"));
        let lines = outcome(&program);
        for (position, pass) in pipeline.iter().enumerate() {
            let rewritten = (pass.run)(program.clone());
            changed[position] += (print_program(&rewritten) != print_program(&program)) as usize;
        }
        total += 1;
        failing += lines.last().is_some_and(|l| l.starts_with("error:")) as usize;
        printing += text.contains("print(") as usize;
    }
    assert!(
        failing > total / 20,
        "only {failing} of {total} generated programs fail"
    );
    assert!(
        printing > total / 20,
        "only {printing} of {total} generated programs print"
    );
    assert!(failing < total * 3 / 4, "{failing} of {total} generated programs fail");
    // Every pass has work to do on a good share of the programs, so the property is not vacuous.
    for (pass, count) in pipeline.iter().zip(&changed) {
        assert!(
            *count > total / 20,
            "{} changes only {count} of {total} programs",
            pass.name
        );
    }
}

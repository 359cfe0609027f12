//! Elaboration tests: resolution of tricky sequences, the TAIL produced, and errors.

use super::*;
use crate::syntax::parse_program;

fn elaborate_text(text: &str) -> Result<Expr, String> {
    let file = SourceFile::new("test.apl", text);
    let program = parse_program(&file).map_err(|e| format!("{e:?}"))?;
    elaborate_to_ir(&program, &file).map_err(|e| e.errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "))
}

#[test]
fn debug_dump() {
    for text in [
        "-/1 2 3 4",
        "+/⍳0",
        "(+/÷≢)1 2 3 4",
        "{⍵=0:1 ⋄ ⍵×∇ ⍵-1} 5",
        "diff←{1↓⍵-¯1⌽⍵}\nsignal←{¯50⌈50⌊50×(diff 0,⍵)÷0.01+⍵}\n+/ signal ⍳100",
        "x←2 3⍴⍳6\nx+.×⍉x",
        "f←{⍵+1}\nf⍣5⊢0",
    ] {
        match elaborate_text(text) {
            Ok(expr) => println!("{text}\n=>\n{expr}\n"),
            Err(e) => println!("{text}\n=> ERROR {e}\n"),
        }
    }
}

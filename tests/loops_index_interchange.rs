//! The two loop-IR rewrites that run after lowering: residues and floor quotients of affine index arithmetic dropped
//! by the ranges of loop indices (src/loops/passes/index_simplify.rs), and the i-k-j interchange of rows of reductions
//! (src/loops/passes/interchange.rs). Each test checks the structure of the lowered IR and that the loop interpreter still
//! prints what the TAIL interpreter prints, with expected values worked out by hand.

mod loops_common;

use aplc::loops::ir::{self, Expr, Stmt};
use aplc::tail::ast::Op;
use loops_common::{loop_ir, run_loops, run_tail, typed_program, Outcome};

/// matmul.apl's program at size m (the TAIL the elaborator and optimiser make of `+/,A+.×B`).
fn matmul(m: usize) -> String {
    format!(
        "let v1:<int>{m} = iotaV({m}) in \
         let v3:[int]1 = each(fn x2:[int]0 => muli(2,x2),v1) in \
         let v8:[double]2 = zipWith(fn o3:[int]0 => fn o4:[int]0 => muld(0.1,i2d(resi(7,addi(o3,o4)))),\
           transp(reshape([{m},{m}],v1)),reshape([{m},{m}],v3)) in \
         let v10:[int]1 = each(fn x9:[int]0 => muli(3,x9),v1) in \
         let v15:[double]2 = zipWith(fn o7:[int]0 => fn o8:[int]0 => muld(0.01,i2d(resi(11,addi(o7,o8)))),\
           transp(reshape([{m},{m}],v10)),reshape([{m},{m}],v1)) in \
         let _e1:[double]0 = print(10,reduce(addd,0.0,rav(reduce(addd,0.0,zipWith(muld,\
           transp2([2,1,3],reshape([{m},{m},{m}],v8)),transp2([1,3,2],reshape([{m},{m},{m}],v15))))))) in 0"
    )
}

/// sobol.apl's program for the first n points with 4 bits (direction numbers m = 1 3 5 15), as the front end makes it.
fn sobol(n: usize) -> String {
    format!(
        "let v1:<int>{n} = iotaV({n}) in \
         let v4:[double]1 = each(fn o1:[int]0 => powd(2.0,i2d(addi(~1,o1))),iotaV(4)) in \
         let v10:[bool]2 = each(fn o3:[double]0 => eqi(1,resi(2,floor(o3))),zipWith(fn x5:[int]0 => fn y6:[double]0 => \
           divd(i2d(x5),y6),transp(reshape([4,{n}],v1)),reshape([{n},4],v4))) in \
         let v15:[bool]2 = zipWith(eqi,transp(reshape([4,4],iotaV(4))),reshape([4,4],iotaV(4))) in \
         let v20:[int]2 = zipWith(subi,transp(reshape([4,4],iotaV(4))),reshape([4,4],iotaV(4))) in \
         let v31:[bool]2 = zipWith(fn o7:[int]0 => fn o8:[bool]0 => andb(gtei(o7,0),o8),v20,\
           each(fn o6:[double]0 => eqi(1,resi(2,floor(o6))),zipWith(fn x23:[int]0 => fn y24:[double]0 => \
           divd(i2d(x23),y24),transp(reshape([4,4],[1,3,5,15])),each(fn o4:[int]0 => powd(2.0,i2d(maxi(0,o4))),v20)))) in \
         let v34:[double]1 = each(fn o9:[int]0 => powd(2.0,i2d(negi(o9))),iotaV(4)) in \
         let v48:[double]1 = reduce(addd,0.0,zipWith(fn x42:[bool]0 => fn y43:[double]0 => muld(i2d(b2i(x42)),y43),\
           reduce(xorb,ff,zipWith(andb,transp2([2,1,3],reshape([4,{n},4],v10)),transp2([1,3,2],reshape([{n},4,4],v15)))),\
           reshape([{n},4],v34))) in \
         let v62:[double]1 = reduce(addd,0.0,zipWith(fn x56:[bool]0 => fn y57:[double]0 => muld(i2d(b2i(x56)),y57),\
           reduce(xorb,ff,zipWith(andb,transp2([2,1,3],reshape([4,{n},4],v10)),transp2([1,3,2],reshape([{n},4,4],v31)))),\
           reshape([{n},4],v34))) in \
         let _e1:[double]0 = print(10,muld(4.0,divd(i2d(reduce(addi,0,zipWith(fn o12:[double]0 => fn o13:[double]0 => \
           b2i(gted(1.0,addd(o12,o13))),zipWith(muld,v48,v48),zipWith(muld,v62,v62)))),{n}.0))) in 0"
    )
}

fn visit_expressions(expr: &Expr, visit: &mut dyn FnMut(&Expr)) {
    visit(expr);
    match expr {
        Expr::Prim(_, arguments) => arguments.iter().for_each(|argument| visit_expressions(argument, visit)),
        Expr::Load { index, .. } => visit_expressions(index, visit),
        Expr::Select(condition, then, otherwise) => {
            for part in [condition, then, otherwise] {
                visit_expressions(part, visit);
            }
        }
        Expr::At(_, inner) => visit_expressions(inner, visit),
        _ => {}
    }
}

/// The index expressions of every load in the program.
fn load_indices(program: &ir::Program) -> Vec<Expr> {
    let mut indices = Vec::new();
    ir::for_each_statement(&program.body, &mut |statement| {
        let expressions: Vec<&Expr> = match statement {
            Stmt::Let { value, .. } | Stmt::Mutable { value, .. } | Stmt::Assign { value, .. } => vec![value],
            Stmt::Store { index, value, .. } => vec![index, value],
            _ => vec![],
        };
        for expr in expressions {
            visit_expressions(expr, &mut |inner| {
                if let Expr::Load { index, .. } = inner {
                    indices.push((**index).clone());
                }
            });
        }
    });
    indices
}

fn contains_op(expr: &Expr, wanted: Op) -> bool {
    let mut found = false;
    visit_expressions(expr, &mut |inner| {
        found |= matches!(inner, Expr::Prim(op, _) if *op == wanted)
    });
    found
}

/// Stores `out[i] = f(..., out[i])`: the accumulations in place that the interchange makes of a row of reductions.
fn in_place_accumulations(program: &ir::Program) -> usize {
    let mut count = 0;
    ir::for_each_statement(&program.body, &mut |statement| {
        if let Stmt::Store { block, index, value } = statement {
            let mut reads_itself = false;
            visit_expressions(value, &mut |inner| {
                reads_itself |=
                    matches!(inner, Expr::Load { block: read, index: at } if read == block && **at == *index);
            });
            count += usize::from(reads_itself);
        }
    });
    count
}

/// The depth of the deepest loop nest.
fn loop_depth(statements: &[Stmt]) -> usize {
    statements
        .iter()
        .map(|statement| match statement {
            Stmt::For { body, .. } | Stmt::While { body, .. } => 1 + loop_depth(body),
            Stmt::If { then, otherwise, .. } => loop_depth(then).max(loop_depth(otherwise)),
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

fn both_outcomes(text: &str) -> (Outcome, Outcome) {
    let (lowered, _) = loop_ir(text);
    (run_tail(&typed_program(text)), run_loops(&lowered))
}

#[test]
fn matmul_reads_its_operands_without_residues() {
    for m in [5, 6, 7] {
        let (program, printed) = loop_ir(&matmul(m));
        for index in load_indices(&program) {
            assert!(
                !contains_op(&index, Op::ResI),
                "a residue is left in a load index (m={m}):\n{printed}"
            );
            assert!(
                !contains_op(&index, Op::DivI),
                "a quotient is left in a load index (m={m}):\n{printed}"
            );
        }
    }
}

#[test]
fn matmul_accumulates_rows_in_place_in_i_k_j_order() {
    let (program, printed) = loop_ir(&matmul(6));
    assert_eq!(in_place_accumulations(&program), 1, "{printed}");
    // The product's nest is rows × k × columns: three loops deep.
    assert_eq!(loop_depth(&program.body), 3, "{printed}");
}

#[test]
fn matmul_prints_the_hand_computed_sum() {
    // M=2 (matmul.apl's header): A = 0.1×(3 5)(4 6), B = 0.01×(4 5)(7 8); the sum of A+.×B is the column sums of A
    // (0.7 1.1) times the row sums of B (0.09 0.15) = 0.228.
    let (tail, loops) = both_outcomes(&matmul(2));
    assert_eq!(tail.printed, vec!["0.228".to_string()]);
    assert_eq!(loops, tail);
    for m in [1, 3, 7, 12] {
        let (tail, loops) = both_outcomes(&matmul(m));
        assert_eq!(loops, tail, "m={m}");
    }
}

#[test]
fn sobol_bit_matrix_products_are_interchanged_and_agree() {
    let (program, printed) = loop_ir(&sobol(8));
    // Both ≠.∧ products accumulate rows in place; the row sums of the points (reading contiguously) do not.
    assert_eq!(in_place_accumulations(&program), 2, "{printed}");
    for index in load_indices(&program) {
        assert!(
            !contains_op(&index, Op::ResI),
            "a residue is left in a load index:\n{printed}"
        );
    }
    // sobol.apl's header: the first 8 points have 7 inside the quarter circle (4×7÷8 = 3.5), the first 4 all.
    for (n, expected) in [(8, "3.5"), (4, "4")] {
        let (tail, loops) = both_outcomes(&sobol(n));
        assert_eq!(tail.printed, vec![expected.to_string()], "n={n}");
        assert_eq!(loops, tail, "n={n}");
    }
}

#[test]
fn row_reductions_that_read_contiguously_keep_their_order() {
    // +/ over the rows of a 4×5 matrix reads each row contiguously: no interchange, no residue left.
    let text = "let m:[int]2 = reshape([4,5], iotaV(20)) in \
                let s:[int]1 = reduce(addi, 0, each(fn x:[int]0 => muli(x, x), m)) in reduce(maxi, 0, s)";
    let (program, printed) = loop_ir(text);
    assert_eq!(in_place_accumulations(&program), 0, "{printed}");
    // Row 4 is 16..20: 256+289+324+361+400 = 1630, the largest row sum of squares.
    let (tail, loops) = both_outcomes(text);
    assert_eq!(tail.ended, Ok(vec!["1630".to_string()]));
    assert_eq!(loops, tail);
}

#[test]
fn reductions_whose_body_may_fail_otherwise_are_not_interchanged() {
    // The same column-reading product with ÷ stays k-innermost: divd can fail with a DOMAIN ERROR of its own
    // (x÷0), so it is not among the operations whose order the interchange changes. (The elements here are 1..9.)
    let text = "let a:[double]2 = reshape([3,3], each(fn x:[int]0 => i2d(x), iotaV(9))) in \
                reduce(addd, 0.0, rav(reduce(addd, 0.0, zipWith(divd, transp2([2,1,3], reshape([3,3,3], a)), \
                transp2([1,3,2], reshape([3,3,3], a))))))";
    let (program, printed) = loop_ir(text);
    assert_eq!(in_place_accumulations(&program), 0, "{printed}");
    let (tail, loops) = both_outcomes(text);
    assert_eq!(loops, tail);
}

#[test]
fn residues_that_can_leave_their_range_are_kept() {
    // 2⌽⍳5 reads element (i+2) mod 5: the index runs over 2..6, so the wrap stays. Lowering writes a rotation's
    // wrap as a compare and select (`r < 5 ? r : r - 5`) rather than a residue; either form must survive.
    // (2⌽⍳5)+.×⍳5 = 3 4 5 1 2 +.× 1 2 3 4 5 = 3+8+15+4+10 = 40.
    let text = "let v:[int]1 = vrotate(2, iotaV(5)) in reduce(addi, 0, zipWith(muli, v, iotaV(5)))";
    let (_, printed) = loop_ir(text);
    assert!(
        printed.contains("% 5)") || printed.contains(" - 5)"),
        "the rotation's wrap was dropped:\n{printed}"
    );
    let (tail, loops) = both_outcomes(text);
    assert_eq!(tail.ended, Ok(vec!["40".to_string()]));
    assert_eq!(loops, tail);
}

/// The sizes of the allocations of one element type whose size is a constant.
fn allocation_sizes(program: &ir::Program, element: ir::ScalarType) -> Vec<i64> {
    let mut sizes = Vec::new();
    ir::for_each_statement(&program.body, &mut |statement| {
        if let Stmt::Alloc { block, size, .. } = statement {
            if block.element == element {
                sizes.extend(size.as_int());
            }
        }
    });
    sizes
}

#[test]
fn sobol_products_are_fused_with_their_row_sums_into_one_row_buffers() {
    // n=8 points, 4 bits: the bit matrix is 8×4 (32 booleans); each product row (4 booleans) is summed right after it
    // is computed, so each product needs a buffer of one row instead of 8×4.
    let (program, printed) = loop_ir(&sobol(8));
    let mut bool_sizes = allocation_sizes(&program, ir::ScalarType::Bool);
    bool_sizes.sort_unstable();
    // The one-row buffers of the two products, the two 4×4 direction matrices, the 8×4 bit matrix.
    assert_eq!(bool_sizes, vec![4, 4, 16, 16, 32], "{printed}");
}

#[test]
fn a_product_read_whole_is_not_contracted() {
    // +/,A+.×B reads the product as one vector of m×m elements, not row by row: it stays m×m.
    let (program, printed) = loop_ir(&matmul(6));
    assert!(
        allocation_sizes(&program, ir::ScalarType::Double).contains(&36),
        "{printed}"
    );
}

/// matmul.apl with its size read at run time (`M←m ⎕ArgInt 1`: m when the program gets no argument, as here), the
/// TAIL the front end makes of it: every shape is symbolic, so the residues of the cyclic reads and the zero-size
/// guards are dropped only by the symbolic bounds (`(i × n + k) % (n × n)` with `i, k < n`).
fn matmul_of_run_time_size(m: usize) -> String {
    format!(
        "let v2:[int]1 = iota(argInt(1,{m})) in \
         let v5:<int>1 = shape(v2) in \
         let v4:[int]1 = each(fn x3:[int]0 => muli(2,x3),v2) in \
         let v6:<int>1 = shape(v4) in \
         let v11:[double]2 = zipWith(fn o3:[int]0 => fn o4:[int]0 => muld(0.1,i2d(resi(7,addi(o3,o4)))),\
           transp(reshape(catV(v6,v5),v2)),reshape(catV(v5,v6),v4)) in \
         let v21:<int>2 = shape(v11) in \
         let v13:[int]1 = each(fn x12:[int]0 => muli(3,x12),v2) in \
         let v14:<int>1 = shape(v13) in \
         let v15:<int>1 = shape(v2) in \
         let v20:[double]2 = zipWith(fn o7:[int]0 => fn o8:[int]0 => muld(0.01,i2d(resi(11,addi(o7,o8)))),\
           transp(reshape(catV(v15,v14),v13)),reshape(catV(v14,v15),v2)) in \
         let v22:<int>2 = shape(v20) in \
         let _e1:[double]0 = print(10,reduce(addd,0.0,rav(reduce(addd,0.0,zipWith(muld,\
           transp2([2,1,3],reshape(catV(dropV(1,v22),v21),v11)),\
           transp2([1,3,2],reshape(catV(dropLastV(1,v21),v22),v20))))))) in 0"
    )
}

#[test]
fn a_matmul_of_run_time_size_reads_without_residues_and_is_interchanged() {
    let (program, printed) = loop_ir(&matmul_of_run_time_size(4));
    for index in load_indices(&program) {
        assert!(
            !contains_op(&index, Op::ResI),
            "a residue is left in a load index:\n{printed}"
        );
        assert!(
            !contains_op(&index, Op::DivI),
            "a quotient is left in a load index:\n{printed}"
        );
    }
    // The guard of a cyclic read against an empty source (`(n × n == 0) ? 0.0 : A[...]`) is gone from the loops.
    assert!(!printed.contains("? 0.0 : mem"), "{printed}");
    assert_eq!(in_place_accumulations(&program), 1, "{printed}");
    // M=2: 0.228 as in matmul_prints_the_hand_computed_sum; other sizes agree with the TAIL interpreter.
    let (tail, loops) = both_outcomes(&matmul_of_run_time_size(2));
    assert_eq!(tail.printed, vec!["0.228".to_string()]);
    assert_eq!(loops, tail);
    for m in [0, 1, 3, 7] {
        let (tail, loops) = both_outcomes(&matmul_of_run_time_size(m));
        assert_eq!(loops, tail, "m={m}");
    }
}

#[test]
fn symbolic_residues_that_can_leave_their_range_are_kept() {
    // +/,(M,M)⍴⍳M+1 with M=3: the 9 elements cycle through 1 2 3 4, so the sum is 1+2+3+4+1+2+3+4+1 = 21. The read
    // is at k mod (M+1) with k < M×M, which does leave 0..M: the residue, and the test of M+1 against 0, stay.
    let text = "let v1:[int]0 = argInt(1,3) in \
                let _e1:[int]0 = print(10,reduce(addi,0,rav(reshape([v1,v1],iota(addi(v1,1)))))) in 0";
    let (program, printed) = loop_ir(text);
    assert!(
        load_indices(&program).iter().any(|index| contains_op(index, Op::ResI)) || printed.contains(" % n"),
        "the wrap was dropped:\n{printed}"
    );
    assert!(
        printed.contains("== 0) ?"),
        "the guard of an empty source was dropped:\n{printed}"
    );
    let (tail, loops) = both_outcomes(text);
    assert_eq!(tail.printed, vec!["21".to_string()]);
    assert_eq!(loops, tail);
}

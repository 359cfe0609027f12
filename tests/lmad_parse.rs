//! Reading printed terms, LMADs and array annotations back: hand-written examples, errors, and print-parse round
//! trips of random symbolic values.

use aplc::mem::{parse_array_annotation, parse_lmad, parse_term, Dim, Lmad, LmadParseError, Term};
use proptest::prelude::*;

fn var(name: &str) -> Term {
    Term::variable(name)
}

#[test]
fn terms_parse_with_the_usual_precedence() {
    assert_eq!(parse_term("2*n + 1"), Ok(var("n").scale(2) + Term::one()));
    assert_eq!(parse_term("m*n - m"), Ok(var("m") * var("n") - var("m")));
    assert_eq!(parse_term("-n"), Ok(-var("n")));
    assert_eq!(parse_term("1 - 3*n"), Ok(Term::one() - var("n").scale(3)));
    assert_eq!(parse_term("(n - 1)*m"), Ok(var("n") * var("m") - var("m")));
    assert_eq!(parse_term("  n*n*k  "), Ok(var("n") * var("n") * var("k")));
    assert_eq!(parse_term("--4"), Ok(Term::constant(4)));
    assert_eq!(parse_term("block_size2"), Ok(var("block_size2")));
}

#[test]
fn lmads_parse_with_bare_or_parenthesised_offsets() {
    assert_eq!(
        parse_lmad("0+{(n:m),(m:1)}"),
        Ok(Lmad::row_major(&[var("n"), var("m")]))
    );
    assert_eq!(
        parse_lmad("(n + 1)+{(m:1)}"),
        Ok(Lmad::new(var("n") + Term::one(), vec![Dim::new(var("m"), 1)]))
    );
    assert_eq!(
        parse_lmad("i*m + j+{(n - k:-m)}"),
        Ok(Lmad::new(
            var("i") * var("m") + var("j"),
            vec![Dim::new(var("n") - var("k"), -var("m"))]
        ))
    );
    assert_eq!(parse_lmad("-3+{}"), Ok(Lmad::new(-3, vec![])));
    assert_eq!(
        parse_lmad(" 14 + { ( 4 : 1 ) } "),
        Ok(Lmad::new(14, vec![Dim::new(4, 1)]))
    );
}

#[test]
fn array_annotations_parse_into_shape_memory_and_lmad() {
    let annotation = parse_array_annotation("[n][m]@mem3 -> 0+{(n:m),(m:1)}").unwrap();
    assert_eq!(annotation.shape, vec![var("n"), var("m")]);
    assert_eq!(annotation.memory_name, "mem3");
    assert_eq!(annotation.lmad, Lmad::row_major(&[var("n"), var("m")]));
    let scalar = parse_array_annotation("@xs_mem -> 7+{}").unwrap();
    assert!(scalar.shape.is_empty());
    assert_eq!(scalar.lmad, Lmad::new(7, vec![]));
}

#[test]
fn malformed_text_is_an_error_with_a_position() {
    let error = |text: &str, position: usize, expected: &'static str| LmadParseError {
        text: text.to_string(),
        position,
        expected,
    };
    assert_eq!(parse_term("2*"), Err(error("2*", 2, "an integer, a name, `-` or `(`")));
    assert_eq!(parse_term("n m"), Err(error("n m", 2, "the end of the text")));
    assert_eq!(parse_term("(n"), Err(error("(n", 2, "`)`")));
    assert_eq!(parse_lmad("0{(n:1)}"), Err(error("0{(n:1)}", 1, "`+{`")));
    assert_eq!(parse_lmad("0+{(n 1)}"), Err(error("0+{(n 1)}", 6, "`:`")));
    assert_eq!(parse_lmad("0+{(n:1)"), Err(error("0+{(n:1)", 8, "`,` or `}`")));
    assert_eq!(
        parse_term("99999999999999999999"),
        Err(error("99999999999999999999", 0, "an integer that fits in 64 bits"))
    );
    // Coefficient overflow is an error at the operator, not a panic.
    let big = "9223372036854775807";
    let overflowing_sum = format!("{big}*n + n");
    assert_eq!(
        parse_term(&overflowing_sum),
        Err(error(&overflowing_sum, 22, "a term whose coefficients fit in 64 bits"))
    );
    let overflowing_product = format!("{big}*2");
    assert_eq!(
        parse_term(&overflowing_product),
        Err(error(
            &overflowing_product,
            19,
            "a term whose coefficients fit in 64 bits"
        ))
    );
    assert_eq!(parse_term(&format!("-{big}")).unwrap().as_constant(), Some(-i64::MAX));
    assert_eq!(parse_array_annotation("[n]mem"), Err(error("[n]mem", 3, "`[` or `@`")));
    assert_eq!(
        parse_array_annotation("[n]@ -> 0+{}"),
        Err(error("[n]@ -> 0+{}", 5, "a memory block name"))
    );
}

/// Random polynomials of degree up to 3 over four variables, with coefficients of either sign.
fn term() -> impl Strategy<Value = Term> {
    let monomial = (
        -20i64..=20,
        prop::collection::vec(prop::sample::select(vec!["n", "m", "k", "i"]), 0..=3),
    )
        .prop_map(|(coefficient, names)| {
            names
                .iter()
                .fold(Term::constant(coefficient), |product, name| product * var(name))
        });
    prop::collection::vec(monomial, 0..=4).prop_map(|monomials| monomials.into_iter().fold(Term::zero(), |a, b| a + b))
}

fn lmad() -> impl Strategy<Value = Lmad> {
    (term(), prop::collection::vec((term(), term()), 0..=3)).prop_map(|(offset, dims)| {
        Lmad::new(
            offset,
            dims.into_iter().map(|(size, stride)| Dim { size, stride }).collect(),
        )
    })
}

proptest! {
    #[test]
    fn printed_terms_parse_back(term in term()) {
        prop_assert_eq!(parse_term(&term.to_string()), Ok(term));
    }

    #[test]
    fn printed_lmads_parse_back(lmad in lmad()) {
        prop_assert_eq!(parse_lmad(&lmad.to_string()), Ok(lmad));
    }

    #[test]
    fn printed_annotations_parse_back(lmad in lmad(), name_suffix in 0u32..100) {
        let shape = lmad.shape();
        let memory_name = format!("mem{name_suffix}");
        let annotation = parse_array_annotation(&lmad.format_array_annotation(&memory_name, &shape)).unwrap();
        prop_assert_eq!(annotation.shape, shape);
        prop_assert_eq!(annotation.memory_name, memory_name);
        prop_assert_eq!(annotation.lmad, lmad);
    }
}

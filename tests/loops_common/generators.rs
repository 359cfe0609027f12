//! Generators of small random TAIL programs over int arrays of rank 1 and 2: every structural operation the lowering
//! supports, with random counts so that LENGTH/INDEX/DOMAIN errors and empty arrays occur. Shared by the loop-stage
//! differential test (tests/loops_random.rs) and the cross-backend agreement test (tests/native_agreement.rs).

use proptest::prelude::*;

/// A TAIL int array expression and its rank (1 or 2).
pub type Generated = (String, usize);

pub fn leaf() -> impl Strategy<Value = Generated> {
    prop_oneof![
        (0i64..6).prop_map(|k| (format!("iota({k})"), 1)),
        prop::collection::vec(-3i64..9, 1..5).prop_map(|v| {
            let items: Vec<String> = v.iter().map(|x| x.to_string().replace('-', "~")).collect();
            (format!("[{}]", items.join(",")), 1)
        }),
        (0i64..4, 0i64..4, 0i64..7).prop_map(|(a, b, k)| (format!("reshape([{a},{b}], iota({k}))"), 2)),
    ]
}

pub fn int(range: std::ops::Range<i64>) -> impl Strategy<Value = String> {
    range.prop_map(|k| k.to_string().replace('-', "~"))
}

pub fn expression() -> impl Strategy<Value = Generated> {
    leaf().prop_recursive(4, 24, 2, |inner| {
        let same_rank_pair = (inner.clone(), inner.clone()).prop_filter("same rank", |((_, r1), (_, r2))| r1 == r2);
        prop_oneof![
            (inner.clone(), int(-2..4), int(-2..3))
                .prop_map(|((e, r), c, d)| { (format!("each(fn x => addi(muli(x, {c}), {d}), {e})"), r) }),
            same_rank_pair
                .clone()
                .prop_map(|((a, r), (b, _))| (format!("zipWith(subi, {a}, {b})"), r)),
            same_rank_pair
                .clone()
                .prop_map(|((a, r), (b, _))| (format!("cat({a}, {b})"), r)),
            same_rank_pair.prop_map(|((a, r), (b, _))| (format!("catFirst({a}, {b})"), r)),
            (inner.clone(), int(-6..7)).prop_map(|((e, r), k)| (format!("rotate({k}, {e})"), r)),
            (inner.clone(), int(-6..7)).prop_map(|((e, r), k)| (format!("vrotate({k}, {e})"), r)),
            (inner.clone(), int(-5..6)).prop_map(|((e, r), k)| (format!("drop({k}, {e})"), r)),
            (inner.clone(), int(-5..6)).prop_map(|((e, r), k)| (format!("take({k}, {e})"), r)),
            inner.clone().prop_map(|(e, r)| (format!("reverse({e})"), r)),
            inner.clone().prop_map(|(e, r)| (format!("vreverse({e})"), r)),
            inner.clone().prop_map(|(e, r)| (format!("transp({e})"), r)),
            inner.clone().prop_map(|(e, r)| (format!("mem({e})"), r)),
            inner.clone().prop_map(|(e, r)| (format!("scan(addi, 0, {e})"), r)),
            inner.clone().prop_map(|(e, r)| (format!("scan(subi, 0, {e})"), r)),
            inner.clone().prop_map(|(e, _)| (format!("rav({e})"), 1)),
            (inner.clone(), 0i64..4, 0i64..4).prop_map(|((e, _), a, b)| (format!("reshape([{a},{b}], {e})"), 2)),
            (inner.clone(), 0i64..7).prop_map(|((e, _), a)| (format!("reshape([{a}], {e})"), 1)),
            inner
                .clone()
                .prop_map(|(e, r)| (format!("let v = {e} in zipWith(addi, v, rotate(1, v))"), r)),
            inner
                .clone()
                .prop_map(|(e, r)| (format!("let v = {e} in cat(v, vreverse(v))"), r)),
            inner.clone().prop_map(|(e, r)| if r == 2 {
                (format!("reduce(subi, 0, {e})"), 1)
            } else {
                (format!("cons(reduce(maxi, ~100, {e}), {e})"), 1)
            }),
            (inner.clone(), 0i64..4).prop_map(|((e, r), k)| if r == 2 {
                (format!("index(1, {k}, {e})"), 1)
            } else {
                (format!("snoc({e}, first({e}))"), 1)
            }),
            (inner.clone(), 0i64..4).prop_map(|((e, r), k)| if r == 2 {
                (format!("index(2, {k}, transp2([2,1], {e}))"), 1)
            } else {
                (format!("takeV(2, {e})"), 1)
            }),
            (inner.clone(), inner.clone()).prop_map(|((mask, rm), (e, r))| if rm == 1 {
                (format!("compress(each(fn x => lti(x, 3), {mask}), {e})"), r)
            } else {
                (format!("replicate([2], {e})"), r)
            }),
            (inner.clone(), inner.clone()).prop_map(|((counts, rc), (e, r))| if rc == 1 {
                (format!("replicate(each(fn x => subi(x, 2), {counts}), {e})"), r)
            } else {
                (format!("expand([tt,ff], {e})"), r)
            }),
            (inner.clone(), 0i64..4).prop_map(|((e, r), k)| {
                (
                    format!("power(fn x => rotate(1, each(fn y => addi(y, 1), x)), {k}, {e})"),
                    r,
                )
            }),
            (inner.clone(), 0i64..3)
                .prop_map(|((e, r), k)| (format!("power(fn x => cat(x, take(1, x)), {k}, {e})"), r)),
            inner
                .clone()
                .prop_map(|(e, r)| (format!("each(fn x => b2i(lti(x, 2)), {e})"), r)),
            inner
                .clone()
                .prop_map(|(e, r)| (format!("each(fn x => floor(muld(i2d(x), 1.5)), {e})"), r)),
            inner.clone().prop_map(|(e, _)| (format!("gradeUp(rav({e}))"), 1)),
            inner.clone().prop_map(|(e, _)| (format!("gradeDown(rav({e}))"), 1)),
            inner
                .clone()
                .prop_map(|(e, _)| (format!("where(each(fn x => lti(x, 2), rav({e})))"), 1)),
            (inner.clone(), inner.clone()).prop_map(|((a, _), (b, r))| (format!("indexOf(rav({a}), {b})"), r)),
            (inner.clone(), inner.clone())
                .prop_map(|((a, r), (b, _))| (format!("each(fn b => b2i(b), member({a}, rav({b})))"), r)),
            (inner.clone(), 1i64..4)
                .prop_map(|((e, _), k)| (format!("encode([{k},{k},{k}], reduce(addi, 0, rav({e})))"), 1)),
            inner.clone().prop_map(|(e, r)| {
                (
                    format!("each(fn x => first(compress(each(fn y => eqi(y, x), [1,2,3]), [7,8,9])), {e})"),
                    r,
                )
            }),
            inner
                .clone()
                .prop_map(|(e, r)| (format!("each(fn x => reduce(maxi, ~5, take(x, [4,~2,6])), {e})"), r)),
            (inner, 0i64..3).prop_map(|((e, r), k)| {
                (
                    format!(
                        "each(fn x => #1(power(fn s:([int]0,[int]0) => (addi(#1(s), #2(s)), x), {k}, (x, 1))), {e})"
                    ),
                    r,
                )
            }),
        ]
    })
}

pub fn program() -> impl Strategy<Value = String> {
    prop_oneof![
        expression().prop_map(|(e, _)| e),
        expression().prop_map(|(e, _)| format!("reduce(addi, 0, rav({e}))")),
        (expression(), expression()).prop_map(|((a, _), (b, _))| format!("let p = print(10, {a}) in tally({b})")),
    ]
}

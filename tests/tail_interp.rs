//! The semantics of every TAIL operator in the reference interpreter, with APL's edge cases (digest §2.5–2.6).
//! Each program is type-checked first, then evaluated; results are compared in Dyalog's display (⎕PP 10), rows of
//! a matrix separated by " / ". Expected values are worked out by hand from APL's definitions.

use aplc::source::SourceFile;
use aplc::tail::infer::infer_program;
use aplc::tail::interp::{display_lines, eval_program, MemoryHost};
use aplc::tail::parse_program;
use aplc::tail::value::{ArrayData, Value};

/// Parses, infers and evaluates; the display lines joined by " / ", or the APL error name.
fn run(text: &str) -> Result<String, String> {
    let mut program = parse_program(&SourceFile::new("test.tail", text)).unwrap_or_else(|e| panic!("{text}: {e}"));
    infer_program(&mut program).unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut host = MemoryHost::default();
    host.files.insert("ints.txt".into(), "1 2 ¯3\n 40 ".into());
    host.files.insert("doubles.txt".into(), "1.5 -2e1".into());
    host.now = 1234;
    match eval_program(&program, &mut host) {
        Ok(value) => {
            let mut lines = host.printed_lines;
            lines.extend(display_lines(&value));
            Ok(lines.join(" / "))
        }
        Err(error) => Err(error.kind.apl_name().to_string()),
    }
}

fn value(text: &str) -> String {
    run(text).unwrap_or_else(|e| panic!("{text}: unexpected {e}"))
}

fn error(text: &str) -> String {
    match run(text) {
        Ok(v) => panic!("{text}: expected an error, got {v}"),
        Err(e) => e,
    }
}

fn raw(text: &str) -> Value {
    let mut program = parse_program(&SourceFile::new("test.tail", text)).expect("parses");
    infer_program(&mut program).expect("types");
    eval_program(&program, &mut MemoryHost::default()).expect("evaluates")
}

#[test]
fn integer_arithmetic() {
    assert_eq!(
        value("[addi(2,3),subi(2,5),muli(~4,3),mini(2,~1),maxi(2,~1)]"),
        "5 ¯3 ¯12 ¯1 2"
    );
    // Integer division rounds down; residue takes the sign of the left argument (APL's x|y).
    assert_eq!(
        value("[divi(7,2),divi(~7,2),divi(7,~2),resi(3,~7),resi(~3,7),resi(0,5),resi(3,9)]"),
        "3 ¯4 ¯4 2 ¯2 5 0"
    );
    assert_eq!(error("divi(7,0)"), "DOMAIN ERROR");
    assert_eq!(
        value("[powi(2,10),negi(5),absi(~5),signi(~9),signi(0)]"),
        "1024 ¯5 5 ¯1 0"
    );
    assert_eq!(error("powi(2,~1)"), "DOMAIN ERROR");
    // The bitwise ops work in 32 bits (⎕INT32...): 1 shifted left 31 is the sign bit, ¯1 shifted right 28 is 15.
    assert_eq!(
        value("[andi(12,10),ori(12,10),xori(12,10),shli(1,4),shri(256,4),shari(~16,2),noti(0)]"),
        "8 14 6 16 16 ¯4 ¯1"
    );
    assert_eq!(
        value("[shli(1,31),shri(~1,28),shli(1,32),shari(~1,40),andi(4294967295,7)]"),
        "¯2147483648 15 0 ¯1 7"
    );
    assert_eq!(
        value("[binomi(2,5),binomi(6,5),binomi(0,0),facti(5),facti(0)]"),
        "10 0 1 120 1"
    );
    assert_eq!(error("facti(~1)"), "DOMAIN ERROR");
}

#[test]
fn int_arithmetic_never_wraps_but_the_compilers_own_wrapping_ops_do() {
    // 2^62 = 4611686018427387904; 2^63 - 1 = 9223372036854775807 is the largest int.
    let overflows = [
        "addi(9223372036854775807,1)",
        "subi(~4611686018427387904,4611686018427387905)",
        "muli(4611686018427387904,2)",
        "negi(subi(~9223372036854775807,1))",
        "absi(subi(~9223372036854775807,1))",
        "divi(subi(~9223372036854775807,1),~1)",
        "powi(2,63)",
        "decode([2],reshape([64],[1]))",
        "reduce(addi,0,[4611686018427387904,4611686018427387904])",
        "reduce(muli,1,iota(21))",
        "scan(addi,0,[9223372036854775807,1,~1])",
        "encode([~1],subi(~9223372036854775807,1))",
    ];
    for text in overflows {
        assert_eq!(error(text), "DOMAIN ERROR", "{text}");
    }
    // The results at the edges of the int range, less a nearby constant: the display shows integers beyond 32 bits
    // as doubles of 10 digits (as Dyalog holds them), and the differences show that the ints are exact.
    assert_eq!(
        value(
            "[subi(addi(9223372036854775806,1),9223372036854775800),addi(muli(~4611686018427387904,2),9223372036854775800),\
             subi(powi(2,62),4611686018427387900),subi(decode([2],reshape([63],[1])),9223372036854775800)]"
        ),
        "7 ¯8 4 7"
    );
    // An int sum is exact: partial sums may leave the int range, the sum may not.
    assert_eq!(
        value("reduce(addi,0,[4611686018427387904,4611686018427387904,~4611686018427387904,~4611686018427387904,7])"),
        "7"
    );
    assert_eq!(
        value(
            "[addi(addw(9223372036854775807,1),9223372036854775800),mulw(4611686018427387904,4),\
             addi(negw(subi(~9223372036854775807,1)),9223372036854775800)]"
        ),
        "¯8 0 ¯8"
    );
    // ⊤ divides without forming a difference that could overflow: the digits of the most negative int.
    assert_eq!(
        value("[addi(index(1,1,encode([0,10],subi(~9223372036854775807,1))),922337203685477500),index(1,2,encode([0,10],subi(~9223372036854775807,1)))]"),
        "¯81 2"
    );
}

#[test]
fn double_arithmetic_follows_apl_division_and_domains() {
    assert_eq!(
        value("[addd(1.5,2.0),subd(1.0,2.5),muld(1.5,4.0),mind(1.0,~2.0),maxd(1.0,~2.0)]"),
        "3.5 ¯1.5 6 ¯2 1"
    );
    // 0÷0 is 1 in APL; any other division by zero is a DOMAIN ERROR.
    assert_eq!(value("divd(0.0,0.0)"), "1");
    assert_eq!(value("divd(1.0,4.0)"), "0.25");
    assert_eq!(error("divd(1.0,0.0)"), "DOMAIN ERROR");
    assert_eq!(
        value("[resd(2.5,7.0),resd(0.0,3.5),resd(~2.0,5.0),resd(0.1,0.3)]"),
        "2 3.5 ¯1 0"
    );
    assert_eq!(
        value("[powd(2.0,0.5),expd(0.0),ln(1.0),logd(2.0,8.0),sqrt(16.0)]"),
        "1.414213562 1 0 3 4"
    );
    assert_eq!(error("ln(~1.0)"), "DOMAIN ERROR");
    assert_eq!(error("ln(0.0)"), "DOMAIN ERROR");
    assert_eq!(error("sqrt(~4.0)"), "DOMAIN ERROR");
    assert_eq!(error("powd(~8.0,0.5)"), "DOMAIN ERROR");
    assert_eq!(error("asin(2.0)"), "DOMAIN ERROR");
    assert_eq!(value("[negd(1.5),absd(~1.5),signd(~0.1)]"), "¯1.5 1.5 ¯1");
    assert_eq!(value("[floor(~1.5),ceil(~1.5),floor(2.0)]"), "¯2 ¯1 2");
    // Comparison tolerance (⎕CT 1E¯14): 0.1+0.2 = 0.3, ⌊0.3÷0.1 is 3 although 0.3÷0.1 is 2.9999999999999996.
    assert_eq!(
        value("[eqd(addd(0.1,0.2),0.3),ltd(addd(0.1,0.2),0.3),gted(0.3,addd(0.1,0.2)),eqd(1.0,1.000001)]"),
        "1 0 1 0"
    );
    assert_eq!(
        value("[floor(divd(0.3,0.1)),ceil(addd(1.0,1.0E~15)),floor(2.5),ceil(~0.5)]"),
        "3 1 2 0"
    );
    assert_eq!(error("floor(1.0E300)"), "DOMAIN ERROR");
    // Γ(x+1): 5! = 120 and (-1/2)! = √π.
    assert_eq!(value("[factd(5.0),factd(~0.5),binomd(2.0,5.0)]"), "120 1.772453851 10");
    assert_eq!(error("factd(~1.0)"), "DOMAIN ERROR");
    assert_eq!(
        value("[sin(0.0),cos(0.0),tan(0.0),atan(1.0),sinh(0.0),cosh(0.0),tanh(0.0)]"),
        "0 1 0 0.7853981634 0 1 0"
    );
    assert_eq!(
        value("[asin(1.0),acos(1.0),asinh(0.0),acosh(1.0),atanh(0.0),pi()]"),
        "1.570796327 0 0 0 0 3.141592654"
    );
    assert_eq!(value("[i2d(3),muld(i2d(b2i(tt)),2.5)]"), "3 2.5");
}

#[test]
fn comparisons_booleans_chars_and_complex_numbers() {
    assert_eq!(
        value("[lti(1,2),ltei(2,2),gti(1,2),gtei(1,2),eqi(3,3),neqi(3,3)]"),
        "1 1 0 0 1 0"
    );
    assert_eq!(
        value("[ltd(1.0,2.0),lted(2.0,2.0),gtd(1.0,2.0),gted(2.0,1.0),eqd(0.5,0.5),neqd(0.5,0.5)]"),
        "1 1 0 1 1 0"
    );
    assert_eq!(
        value("[ltc('a','b'),ltec('b','b'),gtc('a','b'),gtec('a','b'),eqc('x','x'),neqc('x','y')]"),
        "1 1 0 0 1 1"
    );
    assert_eq!(
        value("[andb(tt,ff),orb(tt,ff),xorb(tt,tt),nandb(tt,tt),norb(ff,ff),eqb(ff,ff),notb(tt)]"),
        "0 1 0 0 1 1 0"
    );
    assert_eq!(value("[c2i('a'),c2i(i2c(9042))]"), "97 9042");
    assert_eq!(value("[i2b(0),i2b(1)]"), "0 1");
    assert_eq!(error("i2b(2)"), "DOMAIN ERROR");
    assert_eq!(value("[d2i(3.0),d2i(~2.0),d2i(divd(0.3,0.1))]"), "3 ¯2 3");
    assert_eq!(error("d2i(2.5)"), "DOMAIN ERROR");
    assert_eq!(value("[i2c(72),'i','\\'']"), "Hi'");
    assert_eq!(error("i2c(~1)"), "DOMAIN ERROR");
    // (1+2i)(3+4i) = -5+10i; |3+4i| = 5.
    assert_eq!(
        value("[rex(mulx(1.0j2.0,3.0j4.0)),imx(mulx(1.0j2.0,3.0j4.0)),magnx(3.0j4.0)]"),
        "¯5 10 5"
    );
    assert_eq!(
        value("[rex(divx(~5.0j10.0,3.0j4.0)),imx(divx(~5.0j10.0,3.0j4.0))]"),
        "1 2"
    );
    assert_eq!(
        value("[rex(addx(d2x(1.5),mkx(1.0,2.0))),imx(subx(conjx(1.0j2.0),negx(0.0j1.0)))]"),
        "2.5 ¯1"
    );
    assert_eq!(value("[eqx(1.0j2.0,1.0j2.0),neqx(1.0j2.0,1.0j2.0)]"), "1 0");
    assert_eq!(value("rex(expx(0.0j0.0))"), "1");
}

#[test]
fn iota_shape_reshape_ravel_and_tally() {
    assert_eq!(value("iota(5)"), "1 2 3 4 5");
    assert_eq!(value("iota(0)"), "");
    assert_eq!(error("iota(~1)"), "DOMAIN ERROR");
    // Results too big to allocate are WS FULL (as native code reports them), not crashes.
    assert_eq!(error("iota(9223372036854775807)"), "WS FULL");
    assert_eq!(error("reshape([4294967296,4294967296],[1])"), "WS FULL");
    assert_eq!(error("take(~9223372036854775807,[1])"), "WS FULL");
    assert_eq!(error("replicate([9223372036854775807],[1])"), "WS FULL");
    assert_eq!(value("shape(reshape([2,3],iota(6)))"), "2 3");
    // Cyclic reuse of the source; an empty source gives fill elements.
    assert_eq!(value("reshape([2,3],[1,2])"), "1 2 1 / 2 1 2");
    assert_eq!(value("reshape([3],zilde())"), "0 0 0");
    assert_eq!(value("reshape([2],[]:double)"), "0 0");
    assert_eq!(error("reshape([~1],[1])"), "DOMAIN ERROR");
    assert_eq!(value("rav(reshape([2,2],[1,2,3,4]))"), "1 2 3 4");
    assert_eq!(value("[tally(reshape([4,2],[1])),tally(7),tally(zilde())]"), "4 1 0");
    assert_eq!(value("zilde()"), "");
    assert_eq!(value("nowi()"), "1234");
}

#[test]
fn take_and_drop_work_on_the_first_axis_with_fill() {
    assert_eq!(value("take(2,[1,2,3])"), "1 2");
    assert_eq!(value("take(5,[1,2,3])"), "1 2 3 0 0");
    // Negative overtake pads on the left.
    assert_eq!(value("take(~5,[1,2,3])"), "0 0 1 2 3");
    assert_eq!(value("take(~2,[1,2,3])"), "2 3");
    assert_eq!(value("take(3,[1.5])"), "1.5 0 0");
    assert_eq!(value("take(1,reshape([3,2],iota(6)))"), "1 2");
    assert_eq!(value("shape(take(1,reshape([3,2],iota(6))))"), "1 2");
    assert_eq!(value("take(~4,reshape([2,2],iota(4)))"), "0 0 / 0 0 / 1 2 / 3 4");
    match raw("take(3,['a'])") {
        Value::Array(array) => assert_eq!(array.data, ArrayData::Char(vec!['a', ' ', ' '])),
        other => panic!("{other:?}"),
    }
    assert_eq!(value("drop(2,[1,2,3])"), "3");
    assert_eq!(value("drop(~2,[1,2,3])"), "1");
    assert_eq!(value("shape(drop(5,[1,2,3]))"), "0");
    assert_eq!(value("drop(1,reshape([3,2],iota(6)))"), "3 4 / 5 6");
    assert_eq!(value("drop(~1,reshape([3,2],iota(6)))"), "1 2 / 3 4");
}

#[test]
fn rotate_and_reverse() {
    assert_eq!(value("rotate(1,[1,2,3,4])"), "2 3 4 1");
    assert_eq!(value("rotate(~1,[1,2,3,4])"), "4 1 2 3");
    // The count is taken modulo the axis length.
    assert_eq!(value("rotate(5,[1,2,3,4])"), "2 3 4 1");
    assert_eq!(value("rotate(~5,[1,2,3,4])"), "4 1 2 3");
    assert_eq!(value("shape(rotate(3,zilde()))"), "0");
    // rotate works on the last axis, vrotate on the first.
    assert_eq!(value("rotate(1,reshape([2,3],iota(6)))"), "2 3 1 / 5 6 4");
    assert_eq!(value("vrotate(1,reshape([3,2],iota(6)))"), "3 4 / 5 6 / 1 2");
    assert_eq!(value("vrotate(~1,reshape([3,2],iota(6)))"), "5 6 / 1 2 / 3 4");
    assert_eq!(value("rotateV(~1,[1,2,3])"), "3 1 2");
    assert_eq!(value("vrotateV(1,[1,2,3])"), "2 3 1");
    assert_eq!(value("reverse([1,2,3])"), "3 2 1");
    assert_eq!(value("reverse(reshape([2,3],iota(6)))"), "3 2 1 / 6 5 4");
    assert_eq!(value("vreverse(reshape([2,3],iota(6)))"), "4 5 6 / 1 2 3");
    assert_eq!(value("vreverseV([1,2])"), "2 1");
    assert_eq!(value("reverse(7)"), "7");
}

#[test]
fn transpose_follows_apls_axis_convention() {
    assert_eq!(value("transp(reshape([2,3],iota(6)))"), "1 4 / 2 5 / 3 6");
    // 2 3 1⍉A with ⍴A = 2 3 4: source axis i becomes result axis X[i], so the shape is 4 2 3 and
    // R[a;b;c] = A[b;c;a]: the first row of R is A[1;1;1] A[1;2;1] A[1;3;1] = 1 5 9.
    assert_eq!(value("shape(transp2([2,3,1],reshape([2,3,4],iota(24))))"), "4 2 3");
    assert_eq!(
        value("take(6,rav(transp2([2,3,1],reshape([2,3,4],iota(24)))))"),
        "1 5 9 13 17 21"
    );
    assert_eq!(value("transp2([2,1],reshape([2,3],iota(6)))"), "1 4 / 2 5 / 3 6");
    assert_eq!(error("transp2([1,1],reshape([2,3],iota(6)))"), "DOMAIN ERROR");
    assert_eq!(error("transp2([1,3],reshape([2,3],iota(6)))"), "DOMAIN ERROR");
}

#[test]
fn transpose_with_a_wrong_number_of_axes_is_a_length_error() {
    // The type system fixes the length of the axis vector to the rank; the interpreter still checks it.
    let mut program = parse_program(&SourceFile::new("t", "transp2([1,2,3],reshape([2,3],iota(6)))")).unwrap();
    assert!(infer_program(&mut program).is_err());
    let error = eval_program(&program, &mut MemoryHost::default()).unwrap_err();
    assert_eq!(error.kind.apl_name(), "LENGTH ERROR");
}

#[test]
fn first_catenate_cons_and_snoc() {
    assert_eq!(value("first(reshape([2,2],[5,6,7,8]))"), "5");
    assert_eq!(value("first(zilde())"), "0");
    assert_eq!(value("first(7)"), "7");
    assert_eq!(value("firstV([4])"), "4");
    assert_eq!(value("cat([1,2],[3])"), "1 2 3");
    assert_eq!(
        value("cat(reshape([2,2],iota(4)),reshape([2,1],[9,8]))"),
        "1 2 9 / 3 4 8"
    );
    assert_eq!(error("cat(reshape([2,2],iota(4)),reshape([3,1],[9]))"), "LENGTH ERROR");
    assert_eq!(
        value("catFirst(reshape([1,2],[1,2]),reshape([2,2],[3,4,5,6]))"),
        "1 2 / 3 4 / 5 6"
    );
    assert_eq!(error("catFirst(reshape([1,3],[1]),reshape([2,2],[3]))"), "LENGTH ERROR");
    assert_eq!(value("cons(0,[1,2])"), "0 1 2");
    assert_eq!(value("snoc([1,2],3)"), "1 2 3");
    assert_eq!(value("cons([7,8],reshape([2,2],iota(4)))"), "7 1 2 / 8 3 4");
    assert_eq!(value("snoc(reshape([2,2],iota(4)),[7,8])"), "1 2 7 / 3 4 8");
    assert_eq!(value("catV([1],[2,3])"), "1 2 3");
    assert_eq!(value("consV(0,[1])"), "0 1");
    assert_eq!(value("snocV([1],2)"), "1 2");
}

#[test]
fn each_zip_with_reduce_and_scan() {
    assert_eq!(value("each(fn x => muli(x,x),[1,2,3])"), "1 4 9");
    assert_eq!(value("each(i2d,reshape([2,2],iota(4)))"), "1 2 / 3 4");
    assert_eq!(value("eachV(negi,[1,2])"), "¯1 ¯2");
    assert_eq!(value("zipWith(addi,[1,2],[10,20])"), "11 22");
    assert_eq!(error("zipWith(addi,[1,2],[1,2,3])"), "LENGTH ERROR");
    // The element type of an empty result comes from applying the function to fill elements.
    match raw("each(i2d,zilde())") {
        Value::Array(array) => assert_eq!(array.data, ArrayData::Double(vec![])),
        other => panic!("{other:?}"),
    }
    // Right fold: 1-(2-(3-4)) = ¯2, 8÷(4÷2) = 4.
    assert_eq!(value("reduce(subi,0,[1,2,3,4])"), "¯2");
    assert_eq!(value("reduce(divd,1.0,[8.0,4.0,2.0])"), "4");
    assert_eq!(value("reduce(addi,0,reshape([2,3],iota(6)))"), "6 15");
    assert_eq!(value("reduce(addi,0,zilde())"), "0");
    assert_eq!(value("reduce(muli,1,zilde())"), "1");
    assert_eq!(value("reduce(maxi,~99,reshape([2,0],zilde()))"), "¯99 ¯99");
    assert_eq!(value("reduce(fn a => fn b => subi(a,b),0,[1,2,3])"), "2");
    // Inclusive scan along the last axis, with APL's meaning for non-associative functions: -\1 2 3 is 1 ¯1 2.
    assert_eq!(value("scan(addi,0,[1,2,3,4])"), "1 3 6 10");
    assert_eq!(value("scan(subi,0,[1,2,3])"), "1 ¯1 2");
    assert_eq!(value("scan(fn a => fn b => subi(a,b),0,[1,2,3])"), "1 ¯1 2");
    assert_eq!(value("scan(addi,0,reshape([2,2],[1,2,3,4]))"), "1 3 / 3 7");
    assert_eq!(value("shape(scan(addi,0,zilde()))"), "0");
}

#[test]
fn compress_replicate_and_expand() {
    assert_eq!(value("compress([tt,ff,tt],[1,2,3])"), "1 3");
    assert_eq!(error("compress([tt,ff],[1,2,3])"), "LENGTH ERROR");
    assert_eq!(value("compress([ff,tt],reshape([2,2],iota(4)))"), "2 / 4");
    assert_eq!(value("compress([tt],[1,2])"), "1 2");
    assert_eq!(value("replicate([1,0,2],[4,5,6])"), "4 6 6");
    // A negative count gives fill elements.
    assert_eq!(value("replicate([~2,1],[4,5])"), "0 0 5");
    assert_eq!(error("replicate([1,2],[1,2,3])"), "LENGTH ERROR");
    assert_eq!(value("replicate([2],[1,2])"), "1 1 2 2");
    assert_eq!(value("expand([tt,ff,tt],[1,2])"), "1 0 2");
    assert_eq!(error("expand([tt,ff,tt],[1,2,3])"), "LENGTH ERROR");
}

#[test]
fn index_and_update_check_every_axis() {
    let matrix = "reshape([2,3],iota(6))";
    assert_eq!(value(&format!("index(1,2,{matrix})")), "4 5 6");
    assert_eq!(value(&format!("index(2,3,{matrix})")), "3 6");
    assert_eq!(error(&format!("index(2,4,{matrix})")), "INDEX ERROR");
    assert_eq!(error(&format!("index(1,0,{matrix})")), "INDEX ERROR");
    assert_eq!(error(&format!("index(3,1,{matrix})")), "RANK ERROR");
    assert_eq!(value("update(reshape([2,2],iota(4)),[2,1],9)"), "1 2 / 9 4");
    assert_eq!(error("update(reshape([2,2],iota(4)),[3,1],9)"), "INDEX ERROR");
    // [1;3] of a 2×2 matrix is flat position 2, inside the data: only a per-axis check catches it.
    assert_eq!(error("update(reshape([2,2],iota(4)),[1,3],9)"), "INDEX ERROR");
    assert_eq!(value("update([1.5,2.5],[1],0.5)"), "0.5 2.5");
}

#[test]
fn power_conditional_and_iteration_until_a_predicate() {
    assert_eq!(value("power(fn x => muli(2,x),10,1)"), "1024");
    assert_eq!(value("power(fn x => muli(2,x),0,1)"), "1");
    assert_eq!(value("power(fn x => muli(2,x),~3,1)"), "1");
    assert_eq!(value("power(fn v => rotate(1,v),1,[1,2,3])"), "2 3 1");
    // 0 → 3 → 6 → 9 → 12, and 12 > 10 stops.
    assert_eq!(
        value("powerUntil(fn x:[int]0 => addi(x,3),fn y:[int]0 => fn x:[int]0 => gti(y,10),0)"),
        "12"
    );
    assert_eq!(value("condScl(negi,tt,5)"), "¯5");
    assert_eq!(value("condScl(negi,ff,5)"), "5");
    // Tuples can be iterated: (a, b) ← (b, a+b).
    assert_eq!(
        value("#1(power(fn p:([int]0,[int]0) => (#2(p),addi(#1(p),#2(p))),10,(0,1)))"),
        "55"
    );
}

#[test]
fn search_sort_and_radix_ops() {
    assert_eq!(value("indexOf([10,20,30],[20,40])"), "2 4");
    assert_eq!(
        value("indexOf(['a','b'],reshape([2,2],['b','a','c','b']))"),
        "2 1 / 3 2"
    );
    assert_eq!(value("member([1,5],[1,2,3])"), "1 0");
    // First occurrences win; doubles match within the comparison tolerance.
    assert_eq!(value("indexOf([5,7,5],[5,7,9])"), "1 2 4");
    assert_eq!(value("indexOf([0.1,0.3],[addd(0.1,0.2)])"), "2");
    assert_eq!(value("member(['a','z'],['x','y','z'])"), "0 1");
    assert_eq!(value("member([ff],[tt])"), "0");
    assert_eq!(value("where([ff,tt,tt])"), "2 3");
    assert_eq!(value("gradeUp([3,1,2,1])"), "2 4 3 1");
    assert_eq!(value("gradeDown([3,1,2,1])"), "1 3 2 4");
    assert_eq!(value("gradeUp([2.5,~1.0])"), "2 1");
    assert_eq!(value("gradeUp(['b','a'])"), "2 1");
    // Rows (3 1) (1 2) (1 1) sort as row 3, row 2, row 1; descending keeps equal rows in order.
    assert_eq!(value("gradeUp(reshape([3,2],[3,1,1,2,1,1]))"), "3 2 1");
    assert_eq!(value("gradeDown(reshape([3,2],[3,1,1,2,1,1]))"), "1 2 3");
    assert_eq!(value("gradeDown(reshape([3,1],[2,5,2]))"), "2 1 3");
    assert_eq!(
        value("[decode([2,2,2],[1,0,1]),decode([24,60,60],[1,2,3]),decode([10],[1,2,3])]"),
        "5 3723 123"
    );
    assert_eq!(error("decode([2,2],[1,2,3])"), "LENGTH ERROR");
    assert_eq!(value("encode([2,2,2],5)"), "1 0 1");
    assert_eq!(value("encode([24,60,60],3723)"), "1 2 3");
    assert_eq!(value("encode([0,10],123)"), "12 3");
    assert_eq!(value("encode([10],~1)"), "9");
}

#[test]
fn roll_stays_in_range() {
    let rolls = value("each(fn x => roll(6),iota(100))");
    // A hundred numbers fold over several lines at ⎕PW 80 (which `run` joins with " / ").
    for roll in rolls.split_whitespace().filter(|word| *word != "/") {
        let roll: i64 = roll.parse().unwrap();
        assert!((1..=6).contains(&roll), "roll gave {roll}");
    }
    assert_eq!(error("roll(0)"), "DOMAIN ERROR");
}

#[test]
fn print_format_and_files_go_through_the_host() {
    assert_eq!(value("addi(print(10,3),1)"), "3 / 4");
    assert_eq!(
        value("print(10,reshape([2,2],[1,20,300,4]))"),
        "  1 20 / 300  4 /   1 20 / 300  4"
    );
    assert_eq!(value("format(10,~12)"), "¯12");
    assert_eq!(value("tally(format(10,[1,2,3]))"), "5");
    assert_eq!(value("format(10,1.5)"), "1.5");
    // The first argument is ⎕PP: ÷3 with ⎕PP 5 is 0.33333, ○1 with ⎕PP 15 is 3.14159265358979.
    assert_eq!(value("format(5,divd(1.0,3.0))"), "0.33333");
    assert_eq!(value("print(15,pi())"), "3.14159265358979 / 3.141592654");
    assert_eq!(
        value("print(3,reshape([2,2],[1.0,0.5,divd(1.0,7.0),2.0]))"),
        "1     0.5 / 0.143 2 / 1            0.5 / 0.1428571429 2"
    );
    assert_eq!(value("formatMatrix(2,reshape([1,2],[0.126,2.0]))"), "0.13 2");
    assert_eq!(error("format(0,1)"), "DOMAIN ERROR");
    assert_eq!(error("print(18,1)"), "DOMAIN ERROR");
    assert_eq!(value("formatMatrix(10,reshape([2,2],[1,20,3,4]))"), "1 20 / 3  4");
    assert_eq!(error("format(10,reshape([2,2],[1]))"), "RANK ERROR");
    assert_eq!(value("readIntVecFile(['i','n','t','s','.','t','x','t'])"), "1 2 ¯3 40");
    assert_eq!(
        value("readDoubleVecFile(['d','o','u','b','l','e','s','.','t','x','t'])"),
        "1.5 ¯20"
    );
    assert_eq!(value("tally(readFile(['i','n','t','s','.','t','x','t']))"), "11");
    assert_eq!(error("readFile(['n','o'])"), "FILE I/O ERROR");
    assert_eq!(value("mem([1,2])"), "1 2");
}

#[test]
fn static_vector_ops() {
    assert_eq!(value("iotaV(3)"), "1 2 3");
    assert_eq!(value("shapeV([1,2,3])"), "3");
    assert_eq!(value("firstV(shapeV([1,2,3]))"), "3");
    assert_eq!(value("takeV(2,[1,2,3])"), "1 2");
    assert_eq!(value("dropV(1,[1,2,3])"), "2 3");
    assert_eq!(value("takeLastV(2,[1,2,3])"), "2 3");
    assert_eq!(value("dropLastV(1,[1,2,3])"), "1 2");
    assert_eq!(value("b2iV(tt)"), "1");
}

#[test]
fn long_let_chains_parse_infer_print_and_run_without_deep_recursion() {
    // Front ends emit one let per intermediate value; 20000 of them must not overflow a test thread's stack.
    let count = 20_000;
    let mut text = String::from("let v0 = 0 in\n");
    for i in 1..count {
        text.push_str(&format!("let v{i} = addi(v{},1) in\n", i - 1));
    }
    text.push_str(&format!("v{}", count - 1));
    let mut program = parse_program(&SourceFile::new("long.tail", text)).unwrap();
    infer_program(&mut program).unwrap();
    assert!(aplc::tail::print_program(&program).starts_with("let v0:S(int,0) = 0 in\nlet v1:[int]0 = addi(v0,1) in"));
    assert_eq!(
        display_lines(&eval_program(&program, &mut MemoryHost::default()).unwrap()),
        vec!["19999"]
    );
}

#[test]
fn bench_is_power_that_reports_its_iterations_to_the_host() {
    let text = "print(10, bench(fn x:[int]0 => muli(x, 2), 10, 1))";
    let mut program = parse_program(&SourceFile::new("bench.tail", text)).unwrap();
    infer_program(&mut program).unwrap();
    let mut host = MemoryHost::default();
    eval_program(&program, &mut host).unwrap();
    assert_eq!(host.printed_lines, ["1024"]);
    assert_eq!(host.bench_reports, [10]);
    // A negative count runs no iteration, like power, and reports 0.
    let mut program = parse_program(&SourceFile::new(
        "bench.tail",
        "bench(fn x:[int]0 => muli(x, 2), ~3, 5)",
    ))
    .unwrap();
    infer_program(&mut program).unwrap();
    let mut host = MemoryHost::default();
    let result = eval_program(&program, &mut host).unwrap();
    assert_eq!(display_lines(&result), ["5"]);
    assert_eq!(host.bench_reports, [0]);
}

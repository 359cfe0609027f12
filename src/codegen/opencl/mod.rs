//! The OpenCL half of code generation: OpenCL C kernels written from the parallel constructs of the loop IR.
//!
//! The host program stays native code (the LLVM backend); each outermost `parfor` or `reduce` that a kernel can
//! express becomes a launch of one kernel (see `codegen/llvm/translate/opencl.rs` for the host side: the launch, and
//! the calls that keep each block's host and device copies coherent, so that data stays on the device between
//! kernels and crosses only where host code reads or writes it).
//!
//! This module owns the kernels themselves ([`kernel`]): one work-item per iteration of a `parfor` (or per element of
//! a perfect nest, which the host side flattens); for a `reduce`, one work-group per chunk of `REDUCTION_CHUNK`
//! elements, whose work-items fold the chunk's 256 lanes and combine them as a tree into a partial result that the
//! host folds in chunk order: the chunked order that defines a reduction in the loop IR, with the chunk's elements
//! reassociated as native code's vector lanes also do (a floating-point `+/` gives the same digits on every OpenCL
//! device and work-group size). A scan longer than one chunk is two `parfor`s over its chunks (`crate::lower`'s
//! `scan.rs`): two kernels of one work-item per chunk of 4,096 elements, each folding or scanning its chunk in order,
//! with the chunks' exclusive prefix on the host between them (one value per chunk crosses each way). A kernel whose
//! index arithmetic fits in 32 bits for counts and parameters up to 2^27 also has a version in `int`s, which it
//! chooses when they are that small ([`narrow`]). [`devices`] lists the machine's OpenCL devices.
//!
//! What a kernel cannot express stays on the host, where the CPU backend runs it (in parallel on the cores):
//! allocation inside the body, complex numbers, calls, and the scalar operators without an OpenCL C translation
//! here ([`kernel::Unsupported`] says which). `aplc dump --stage opencl` shows every kernel and, for each construct
//! left on the host, why.

pub mod devices;
pub mod kernel;
pub mod narrow;

/// What the OpenCL code generation needs besides the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenClOptions {
    /// A construct whose work (from `crate::loops::parameters`) is a compile-time constant below this many
    /// element-operations stays on the host: launching a kernel (and moving its data) costs more than it saves.
    /// `--opencl-min-work`; 0 sends every construct a kernel can express to the device (the corpus tests do).
    pub min_work: i64,
}

impl Default for OpenClOptions {
    fn default() -> Self {
        OpenClOptions {
            min_work: crate::loops::parameters::DEFAULT_PARALLEL_THRESHOLD,
        }
    }
}

/// The text that starts every generated OpenCL C program: doubles, and no contraction of `a*b+c` into a fused
/// multiply-add (which OpenCL C allows by default and the other backends never do: results would differ in the last
/// bit). Then the helpers the kernels share.
pub const PROGRAM_PRELUDE: &str = r#"#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

/* APL's floor division of ints (the divisor is neither 0 nor -1 here), and APL's residue x|y on ints: y when x = 0,
   otherwise y mod x with the sign of x. On longs, and on ints for a kernel's 32-bit version (a GPU divides ints in
   a fraction of the time of longs). */
#define APLC_INTEGER_DIVISIONS(T, SUFFIX) \
static inline T aplc_floor_div##SUFFIX(T x, T y) { \
    T q = x / y; \
    T r = x % y; \
    return (r != 0 && ((r ^ y) < 0)) ? q - 1 : q; \
} \
static inline T aplc_residue##SUFFIX(T x, T y) { \
    if (x == 0) return y; \
    if (x == -1) return 0; \
    T r = y % x; \
    return (r != 0 && ((r ^ x) < 0)) ? r + x : r; \
}
APLC_INTEGER_DIVISIONS(long, )
APLC_INTEGER_DIVISIONS(int, _32)

/* x = y within the comparison tolerance relative to the larger magnitude. */
static inline int aplc_tolerantly_equal(double x, double y) {
    double distance = fabs(x - y);
    /* An infinite distance is not within the tolerance of an infinite magnitude (IEEE float mode): inf equals only inf. */
    return x == y || (distance <= APLC_COMPARISON_TOLERANCE * fmax(fabs(x), fabs(y)) && distance < INFINITY);
}

/* APL's tolerant floor: the nearest integer when x is tolerantly equal to it, the floor otherwise. */
static inline double aplc_tolerant_floor(double x) {
    double nearest = round(x);
    return aplc_tolerantly_equal(x, nearest) ? nearest : floor(x);
}

/* APL's x|y on doubles: y when x = 0, 0 when y/x is tolerantly an integer, otherwise y - x*floor(y/x). */
static inline double aplc_double_residue(double x, double y) {
    if (x == 0.0) return y;
    double q = y / x;
    return aplc_tolerantly_equal(q, round(q)) ? 0.0 : y - x * floor(q);
}

/* The first error a work-item meets is kept; the host reports it after the kernel. */
#define APLC_FAIL(code) do { atomic_cmpxchg(aplc_error, 0, (code)); return; } while (0)
/* In a kernel with barriers no work-item may leave early: it skips to the label after what failed instead. */
#define APLC_FAIL_TO(code, label) do { atomic_cmpxchg(aplc_error, 0, (code)); goto label; } while (0)

"#;

/// The whole OpenCL C program of a set of kernels: the prelude, then each kernel's text.
pub fn program_source(kernels: &[kernel::Kernel]) -> String {
    let mut source = format!(
        "#define APLC_COMPARISON_TOLERANCE {:?}\n{PROGRAM_PRELUDE}",
        crate::tail::scalar_ops::COMPARISON_TOLERANCE
    );
    for kernel in kernels {
        source.push('\n');
        source.push_str(&kernel.source);
    }
    source
}

//! One OpenCL C kernel from the body of a parallel construct of the loop IR.
//!
//! The kernel runs `body` once per work-item, with the work-item's global id as the construct's index:
//!
//! ```text
//! __kernel void aplc_k_i12(long aplc_n, long v_n3, double v_s4, __global double* mem5, __global int* aplc_error) {
//!     long v_i12 = get_global_id(0);
//!     if (v_i12 >= aplc_n) return;
//!     ...body...
//! }
//! ```
//!
//! Scalars the body reads from outside are parameters (ints as `long`, doubles as `double`; bools and chars are
//! passed as `long` and narrowed on entry, so that the host passes every scalar as 8 bytes); blocks are `__global`
//! pointers to their element type (bools one byte, chars 32-bit code points). Every check of the loop IR's scalar
//! operators is kept, with the message the other backends give: a failing work-item stores the check's code in the
//! error word (`APLC_FAIL`) and stops, and the host raises that APL error after the kernel ([`Kernel::errors`]).
//!
//! Expressions become C expressions where they cannot fail; an operation with a check gets a temporary and an `if`
//! before its use, and a `select` whose arms need statements becomes an `if`/`else`, so that only the chosen arm is
//! evaluated (as the loop IR says: the other arm may index outside its block). A double sum, difference or product
//! of literals and converted ints is finite and unchecked.
//!
//! When the body's index arithmetic can be done in 32-bit `int`s for small enough counts and parameters
//! (`narrow.rs`), the body is written twice, the `int` version first, and the launch says which to run (the
//! parameter `long aplc_narrow` after the scalars: whether the count and the parameters the `int` version reads,
//! here `v_n3`, are at most 2^27 in magnitude; [`Kernel::narrow_parameters`]):
//!
//! ```text
//!     if (aplc_narrow) {
//!         int v_i12 = (int)get_global_id(0);
//!         int v_n3_32 = (int)v_n3;
//!         ...body, its index arithmetic in ints...
//!     } else {
//!         ...body...
//!     }
//! ```

use std::fmt::Write as _;

use super::narrow::NarrowInts;
use crate::loops::ir::{Block, Expr, Reduction, ScalarType, Stmt, Storage, Var, REDUCTION_CHUNK};
use crate::runtime::error::AplErrorKind;
use crate::runtime::float_mode::FloatMode;
use crate::source::Span;
use crate::tail::ast::Op;
use crate::tail::scalar_ops::{INTEGER_OVERFLOW, NOT_A_FINITE_REAL_NUMBER};

/// Why a construct cannot become a kernel (it then runs on the host).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

/// An APL error a kernel can raise: the host raises it when the kernel's error word holds `code`.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelError {
    pub code: i32,
    pub kind: AplErrorKind,
    pub message: String,
    pub site: Option<Span>,
}

/// A written kernel and what its launch passes.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    pub name: String,
    /// The `__kernel` function.
    pub source: String,
    /// The scalar parameters after the work-item count, in order.
    pub scalars: Vec<Var>,
    /// The block parameters, in order, each with whether the kernel stores into it.
    pub blocks: Vec<(Block, bool)>,
    pub errors: Vec<KernelError>,
    /// When the kernel has a 32-bit version (`narrow.rs`): the int scalars it reads as `int`s. The launch passes
    /// `aplc_narrow`, after the scalars: whether the count and each of these is at most `NARROW_UNIT` in magnitude.
    pub narrow_parameters: Option<Vec<Var>>,
}

/// The parameter through which the launch chooses a kernel's 32-bit version.
const NARROW_PARAMETER: &str = "long aplc_narrow";

/// What a kernel is made of: its name, the index variable (the work-item id, below the count passed as `aplc_n`),
/// the statements of one work-item, and the scalars and blocks they read from outside.
pub struct KernelBody<'a> {
    pub name: &'a str,
    pub index: &'a Var,
    pub body: &'a [Stmt],
    pub scalars: &'a [Var],
    pub blocks: &'a [Block],
    /// The APL text of the construct (a reduction's), where the errors of checks with no site of their own point.
    pub site: Option<Span>,
}

/// Writes the kernel, or says why it cannot be one.
pub fn write_kernel(parts: &KernelBody, float_mode: FloatMode) -> Result<Kernel, Unsupported> {
    let mut writer = KernelWriter::new(1, float_mode, None);
    writer.site = parts.site;
    let (mut parameters, prologue) = scalar_parameters(parts.scalars)?;
    let blocks = block_parameters(parts.blocks, parts.body, &mut parameters)?;
    parameters.push("__global int* aplc_error".to_string());
    let index = variable_name(parts.index);
    let narrow = write_narrow_version(&mut writer, parts.scalars, parts.index, 2, |writer| {
        writer.statements(parts.body)
    })?;
    if narrow.is_some() {
        writer.depth = 2;
    }
    writer.statements(parts.body)?;
    let body = match &narrow {
        None => writer.text,
        Some(narrow) => format!(
            "    if (aplc_narrow) {{\n        int {index} = (int)get_global_id(0);\n{}{}    }} else {{\n{}    }}\n",
            narrow.copies_at(2),
            narrow.text,
            writer.text
        ),
    };
    if narrow.is_some() {
        parameters.insert(parts.scalars.len() + 1, NARROW_PARAMETER.to_string());
    }
    let source = format!(
        "__kernel void {}({}) {{\n{prologue}    long {index} = get_global_id(0);\n    if ({index} >= aplc_n) return;\n{body}}}\n",
        parts.name,
        parameters.join(", "),
    );
    Ok(Kernel {
        name: parts.name.to_string(),
        source,
        scalars: parts.scalars.to_vec(),
        blocks,
        errors: writer.errors,
        narrow_parameters: narrow.map(|narrow| narrow.parameters),
    })
}

/// The 32-bit version of a kernel's body (`narrow.rs`): the parameters it reads as `int`s (the launch tests them),
/// the declarations of their `int` copies, and its text.
struct NarrowVersion {
    parameters: Vec<Var>,
    copies: Vec<String>,
    text: String,
}

impl NarrowVersion {
    /// The declarations of the parameters' copies, one line each, `depth` levels in.
    fn copies_at(&self, depth: usize) -> String {
        let indent = "    ".repeat(depth);
        self.copies.iter().map(|copy| format!("{indent}{copy}\n")).collect()
    }
}

/// Writes the 32-bit version of a body with `write` (at `depth`, with `index` below the item count), or `None` when
/// no value in it became an `int`. The writer's checks and their codes are shared with the other version.
fn write_narrow_version(
    writer: &mut KernelWriter,
    scalars: &[Var],
    index: &Var,
    depth: usize,
    write: impl FnOnce(&mut KernelWriter) -> Result<(), Unsupported>,
) -> Result<Option<NarrowVersion>, Unsupported> {
    let (enclosing_depth, enclosing_label) = (writer.depth, writer.failure_label.clone());
    writer.depth = depth;
    writer.failure_label = enclosing_label.as_ref().map(|label| format!("{label}_32"));
    writer.narrow = Some(NarrowInts::new(scalars, Some(index), variable_name));
    let written = write(writer);
    let narrow = writer.narrow.take().expect("set above");
    let text = std::mem::take(&mut writer.text);
    writer.depth = enclosing_depth;
    writer.failure_label = enclosing_label;
    written?;
    if !narrow.narrowed_anything() {
        return Ok(None);
    }
    Ok(Some(NarrowVersion {
        parameters: narrow.read_parameters(),
        copies: narrow.parameter_copies(),
        text,
    }))
}

/// How a reduction kernel folds the elements of a chunk: `part := op(part, x)` from the neutral element, or the exact
/// int sum in two parts (the sum of the elements' highs `x >> 32` and their wrapped sum), as the CPU backend folds
/// a chunk (`codegen/llvm/translate/parallel.rs`, `FoldingKind`).
pub enum ChunkFold<'a> {
    Operator { op: Op, neutral: &'a Expr },
    ExactIntSum,
}

/// What a reduction kernel is made of: the element index and the statements and element of one element, the
/// element count (passed as `aplc_n`), the fold, and the blocks that receive one partial result per chunk (two for
/// the exact int sum).
pub struct ReductionBody<'a> {
    pub name: &'a str,
    pub index: &'a Var,
    pub body: &'a [Stmt],
    pub element: &'a Expr,
    pub fold: ChunkFold<'a>,
    pub partials: &'a [Block],
    pub scalars: &'a [Var],
    pub blocks: &'a [Block],
    /// The APL text of the reduction: where the errors of its fold (a sum that is not finite) point.
    pub site: Option<Span>,
}

/// The lanes of a chunk's fold in a reduction kernel: element `k` of a chunk is folded into lane `k mod
/// REDUCTION_LANES`, each lane left to right, and the lanes are combined pairwise in order, as a balanced tree
/// (lanes 0 and 1, 2 and 3, ..., then those pairs 0-1 and 2-3, ...). A power of two; the kernel's local buffer holds
/// one value per lane.
pub const REDUCTION_LANES: i64 = 256;

/// Whether a reduction kernel spreads a chunk over its lanes: every fold but a double product, whose magnitude
/// compounds, so that lanes of like elements can overflow where the ordered fold does not (`×/8192⍴(128⍴2),128⍴0.5`
/// is 1, but lanes 0 to 127 hold only 2s, and their subtree reaches 2*2048). A product's chunk is folded in order by
/// one work-item, as native code folds it (`codegen/llvm/translate.rs`).
fn folds_in_lanes(fold: &ChunkFold) -> bool {
    !matches!(fold, ChunkFold::Operator { op: Op::MulD, .. })
}

/// A reduction kernel: one work-group per chunk of `REDUCTION_CHUNK` elements (looping over chunks when there are
/// fewer groups). The group's work-items fold the chunk's [`REDUCTION_LANES`] lanes (one lane each in a group of 256
/// work-items; several each in a smaller group) into local memory, then combine the lanes pairwise as a tree,
/// doubling the width at each step, and the first work-item stores the chunk's partial result, which the host folds
/// in chunk order. A chunk's fold is thus 16 + 8 operations deep instead of 4096, so that a GPU has work for all its
/// work-items even when the chunks are fewer than they are.
///
/// The lanes reassociate a chunk's elements, the licence native code also takes when it folds a sum's chunk in
/// vector lanes (see the loop IR's module documentation); a double product's chunk is folded in order
/// ([`folds_in_lanes`]). The order is fixed by the lanes alone, never by the work-group
/// size or the device, so a floating-point `+/` prints the same digits on every OpenCL device and group size; a
/// reduction nested in a kernel folds its chunks in the same order (`fold_chunk_in_lanes`).
/// A failed check jumps past its element (or the combination) instead of returning, since every work-item must
/// reach the group's barriers. The lane, slot and position-in-chunk counters are `int`s (they are below
/// `REDUCTION_CHUNK`): a GPU does 64-bit integer arithmetic in two or more instructions.
pub fn write_reduction_kernel(parts: &ReductionBody, float_mode: FloatMode) -> Result<Kernel, Unsupported> {
    let mut writer = KernelWriter::new(4, float_mode, Some("aplc_element_done".to_string()));
    writer.site = parts.site;
    let element_type = match parts.fold {
        ChunkFold::ExactIntSum => ScalarType::Int,
        ChunkFold::Operator { neutral, .. } => neutral.ty(),
    };
    let c_element = register_type(element_type)?;
    let (mut parameters, prologue) = scalar_parameters(parts.scalars)?;
    let blocks = block_parameters(parts.blocks, parts.body, &mut parameters)?;
    for partial in parts.partials {
        parameters.push(format!(
            "__global {}* {}",
            memory_type(partial.element)?,
            partial.name()
        ));
    }
    parameters.push("__global int* aplc_error".to_string());
    let folding = GroupFolding::new(parts, element_type, c_element, &mut writer)?;
    // One element, folded into its lane's partial result: in 32 bits where that is worth it.
    let index = variable_name(parts.index);
    let write_element = |writer: &mut KernelWriter, c_index: &str| -> Result<(), Unsupported> {
        writer.line(&format!("{c_index} {index} = ({c_index})(aplc_first + aplc_k);"));
        writer.statements(parts.body)?;
        let element = writer.expression(parts.element)?;
        let x = writer.temporary(element_type, &element)?;
        folding.fold_element(writer, &x)
    };
    let narrow = write_narrow_version(&mut writer, parts.scalars, parts.index, 5, |writer| {
        write_element(writer, "int")
    })?;
    // The loop over a lane's elements: at depth 3, or 4 inside the choice of version.
    let loop_depth = if narrow.is_some() { 4 } else { 3 };
    writer.depth = loop_depth + 1;
    write_element(&mut writer, "long")?;
    // A product folds its chunk in order in lane 0 (the other lanes keep the neutral 1.0, which the tree multiplies
    // in exactly): see `folds_in_lanes`.
    let (first_k, step) = if folds_in_lanes(&parts.fold) {
        ("aplc_lane".to_string(), REDUCTION_LANES.to_string())
    } else {
        ("(aplc_lane == 0 ? 0 : aplc_length)".to_string(), "1".to_string())
    };
    let element_loop = |text: &str, label: &str| {
        let indent = "    ".repeat(loop_depth);
        format!(
            "for (int aplc_k = {first_k}; aplc_k < aplc_length; aplc_k += {step}) {{\n{text}{indent}    {label}: ;\n{indent}}}"
        )
    };
    let wide_loop = element_loop(&writer.text, "aplc_element_done");
    writer.text.clear();
    let (narrow_test, elements) = match &narrow {
        None => (String::new(), wide_loop),
        Some(narrow) => (
            narrow.copies_at(1),
            format!(
                "if (aplc_narrow) {{\n                {}\n            }} else {{\n                {wide_loop}\n            }}",
                element_loop(&narrow.text, "aplc_element_done_32")
            ),
        ),
    };
    // One step of the tree: a slot combined with its neighbour `aplc_width` above it.
    writer.depth = 4;
    writer.failure_label = Some("aplc_combine_done".to_string());
    folding.combine_slots(&mut writer)?;
    let combine_text = std::mem::take(&mut writer.text);
    if narrow.is_some() {
        parameters.insert(parts.scalars.len() + 1, NARROW_PARAMETER.to_string());
    }
    let source = format!(
        "__kernel void {name}({parameters}) {{
{local_slots}{prologue}{narrow_test}    int aplc_group = (int)get_local_size(0);
    int aplc_lid = (int)get_local_id(0);
    long aplc_chunks = (aplc_n + {chunk}L - 1) / {chunk}L;
    for (long aplc_chunk = get_group_id(0); aplc_chunk < aplc_chunks; aplc_chunk += get_num_groups(0)) {{
        long aplc_first = aplc_chunk * {chunk}L;
        int aplc_length = (int)min({chunk}L, aplc_n - aplc_first);
        for (int aplc_lane = aplc_lid; aplc_lane < {lanes}; aplc_lane += aplc_group) {{
            {declarations}
            {elements}
            {own_slot}
        }}
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int aplc_width = 1; aplc_width < {lanes}; aplc_width *= 2) {{
            for (int aplc_slot = 2 * aplc_width * aplc_lid; aplc_slot < {lanes}; aplc_slot += 2 * aplc_width * aplc_group) {{
{combine_text}                aplc_combine_done: ;
            }}
            barrier(CLK_LOCAL_MEM_FENCE);
        }}
        if (aplc_lid == 0) {{ {stores} }}
        barrier(CLK_LOCAL_MEM_FENCE);
    }}
}}
",
        name = parts.name,
        parameters = parameters.join(", "),
        chunk = REDUCTION_CHUNK,
        lanes = REDUCTION_LANES,
        local_slots = folding.local_slots,
        declarations = folding.declarations,
        own_slot = folding.own_slot,
        stores = folding.stores,
    );
    Ok(Kernel {
        name: parts.name.to_string(),
        source,
        scalars: parts.scalars.to_vec(),
        blocks: blocks
            .into_iter()
            .chain(parts.partials.iter().map(|partial| (*partial, true)))
            .collect(),
        errors: writer.errors,
        narrow_parameters: narrow.map(|narrow| narrow.parameters),
    })
}

/// One chunk of a reduction nested in a kernel: its operator and type, the C text of its neutral element, the name
/// of the chunk's result, the element index, the C expressions of the chunk's first element and length, and the
/// statements and element of one element.
#[derive(Clone, Copy)]
struct FoldOfChunk<'a> {
    op: Op,
    ty: ScalarType,
    neutral: &'a str,
    part: &'a str,
    index_name: &'a str,
    first: &'a str,
    length: &'a str,
    body: &'a [Stmt],
    element: &'a Expr,
}

/// The C text of a reduction kernel's folds: a lane's running partial result(s), the group's local slots, and the
/// stores of the chunk's result into the partial blocks.
struct GroupFolding<'a> {
    fold: &'a ChunkFold<'a>,
    element_type: ScalarType,
    /// `__local` arrays of one slot per lane.
    local_slots: String,
    /// A lane's running partial(s), from the neutral element.
    declarations: String,
    /// The lane's partial(s) into its slot(s).
    own_slot: String,
    /// Slot 0, the chunk's result once the tree is combined, into the partial blocks at the chunk's position.
    stores: String,
}

impl<'a> GroupFolding<'a> {
    fn new(
        parts: &'a ReductionBody<'a>,
        element_type: ScalarType,
        c_element: &str,
        writer: &mut KernelWriter,
    ) -> Result<GroupFolding<'a>, Unsupported> {
        match &parts.fold {
            // The exact int sum: the sum of the elements' high halves and the wrapped sum of the elements, two plain
            // sums that any order of additions leaves exact (see `FoldingKind::ExactIntSum`).
            ChunkFold::ExactIntSum => {
                let [high, sum] = parts.partials else {
                    return Err(Unsupported("an exact sum without its two partial blocks".to_string()));
                };
                Ok(GroupFolding {
                    fold: &parts.fold,
                    element_type,
                    local_slots: format!(
                        "    __local long aplc_highs[{REDUCTION_LANES}];\n    __local long aplc_sums[{REDUCTION_LANES}];\n"
                    ),
                    declarations: "long aplc_high = 0; long aplc_sum = 0;".to_string(),
                    own_slot: "aplc_highs[aplc_lane] = aplc_high; aplc_sums[aplc_lane] = aplc_sum;".to_string(),
                    stores: format!(
                        "{}[aplc_chunk] = aplc_highs[0]; {}[aplc_chunk] = aplc_sums[0];",
                        high.name(),
                        sum.name()
                    ),
                })
            }
            ChunkFold::Operator { neutral, .. } => {
                let [partial] = parts.partials else {
                    return Err(Unsupported("a reduction without its partial block".to_string()));
                };
                let stored = match partial.element {
                    ScalarType::Bool => "(uchar)aplc_parts[0]".to_string(),
                    _ => "aplc_parts[0]".to_string(),
                };
                let neutral = writer.expression(neutral)?;
                Ok(GroupFolding {
                    fold: &parts.fold,
                    element_type,
                    local_slots: format!("    __local {c_element} aplc_parts[{REDUCTION_LANES}];\n"),
                    declarations: format!("{c_element} aplc_part = {neutral};"),
                    own_slot: "aplc_parts[aplc_lane] = aplc_part;".to_string(),
                    stores: format!("{}[aplc_chunk] = {stored};", partial.name()),
                })
            }
        }
    }

    /// The lane's partial result(s) after one more element `x`.
    fn fold_element(&self, writer: &mut KernelWriter, x: &str) -> Result<(), Unsupported> {
        match self.fold {
            ChunkFold::ExactIntSum => {
                writer.line(&format!("aplc_high = (long)((ulong)aplc_high + (ulong)({x} >> 32));"));
                writer.line(&format!("aplc_sum = (long)((ulong)aplc_sum + (ulong){x});"));
            }
            ChunkFold::Operator { op, .. } => {
                let arguments = [
                    ("aplc_part".to_string(), self.element_type),
                    (x.to_string(), self.element_type),
                ];
                let folded = writer.apply(*op, &arguments)?;
                writer.line(&format!("aplc_part = {folded};"));
            }
        }
        Ok(())
    }

    /// `slot[s] = op(slot[s], slot[s + width])` for each local array.
    fn combine_slots(&self, writer: &mut KernelWriter) -> Result<(), Unsupported> {
        match self.fold {
            ChunkFold::ExactIntSum => {
                for slots in ["aplc_highs", "aplc_sums"] {
                    writer.line(&format!(
                        "{slots}[aplc_slot] = (long)((ulong){slots}[aplc_slot] + (ulong){slots}[aplc_slot + aplc_width]);"
                    ));
                }
            }
            ChunkFold::Operator { op, .. } => {
                let left = writer.temporary(self.element_type, "aplc_parts[aplc_slot]")?;
                let right = writer.temporary(self.element_type, "aplc_parts[aplc_slot + aplc_width]")?;
                let arguments = [(left, self.element_type), (right, self.element_type)];
                let combined = writer.apply(*op, &arguments)?;
                writer.line(&format!("aplc_parts[aplc_slot] = {combined};"));
            }
        }
        Ok(())
    }
}

/// The kernel parameters of the scalars (after `long aplc_n`), and the prologue that narrows bools and chars.
fn scalar_parameters(scalars: &[Var]) -> Result<(Vec<String>, String), Unsupported> {
    let mut parameters = vec!["long aplc_n".to_string()];
    let mut prologue = String::new();
    for var in scalars {
        let name = variable_name(var);
        match var.ty {
            ScalarType::Int => parameters.push(format!("long {name}")),
            ScalarType::Double => parameters.push(format!("double {name}")),
            ScalarType::Bool | ScalarType::Char => {
                parameters.push(format!("long {name}_passed"));
                let c_type = register_type(var.ty)?;
                let _ = writeln!(prologue, "    {c_type} {name} = ({c_type}){name}_passed;");
            }
            ScalarType::Complex => return Err(unsupported("a complex scalar")),
        }
    }
    Ok((parameters, prologue))
}

/// The kernel parameters of the blocks (`const` unless `body` stores into them), appended to `parameters`; returns
/// each block with whether the kernel stores into it.
fn block_parameters(
    blocks: &[Block],
    body: &[Stmt],
    parameters: &mut Vec<String>,
) -> Result<Vec<(Block, bool)>, Unsupported> {
    let stored = crate::loops::ir::blocks_stored_in(body);
    let mut written = Vec::new();
    for block in blocks {
        let writes = stored.contains(block);
        let qualifier = if writes { "" } else { "const " };
        parameters.push(format!(
            "__global {qualifier}{}* {}",
            block_memory_type(block)?,
            block.name()
        ));
        written.push((*block, writes));
    }
    Ok(written)
}

/// Whether every statement and operator of `body` has a kernel translation (without writing one): the host side
/// decides with this which constructs become kernels before it translates anything.
pub fn check_kernel_body(body: &[Stmt], element: Option<&Expr>) -> Result<(), Unsupported> {
    let mut writer = KernelWriter::new(1, FloatMode::default(), None);
    writer.statements(body)?;
    if let Some(element) = element {
        writer.expression(element)?;
    }
    Ok(())
}

fn unsupported(what: &str) -> Unsupported {
    Unsupported(format!("{what} has no OpenCL translation"))
}

/// `v_<hint><id>`: a name no OpenCL C keyword or vector type (`int4`, `double2`) can take.
fn variable_name(var: &Var) -> String {
    let name = var.name();
    if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        format!("v_{name}")
    } else {
        format!("v_{}", var.id)
    }
}

/// The C type of a value in a register.
fn register_type(ty: ScalarType) -> Result<&'static str, Unsupported> {
    match ty {
        ScalarType::Int => Ok("long"),
        ScalarType::Double => Ok("double"),
        ScalarType::Bool => Ok("int"),
        ScalarType::Char => Ok("uint"),
        ScalarType::Complex => Err(unsupported("a complex number")),
    }
}

/// The C type of an element in memory (the run-time library's layout: bools are bytes).
fn memory_type(ty: ScalarType) -> Result<&'static str, Unsupported> {
    match ty {
        ScalarType::Bool => Ok("uchar"),
        other => register_type(other),
    }
}

/// The C type of an element of a block in memory: [`memory_type`], or the narrow int of a narrow block
/// (`passes/narrow_storage.rs`).
fn block_memory_type(block: &Block) -> Result<&'static str, Unsupported> {
    match block.storage {
        Storage::Natural => memory_type(block.element),
        Storage::Int8 => Ok("char"),
        Storage::Int16 => Ok("short"),
        Storage::Int32 => Ok("int"),
    }
}

fn int_literal(value: i64) -> String {
    if value == i64::MIN {
        "(-9223372036854775807L - 1)".to_string()
    } else {
        format!("{value}L")
    }
}

fn double_literal(value: f64) -> String {
    if value.is_nan() {
        "NAN".to_string()
    } else if value.is_infinite() {
        if value > 0.0 { "INFINITY" } else { "(-INFINITY)" }.to_string()
    } else {
        // `{:?}` prints the shortest text that reads back as the same double, always with a `.` or an exponent.
        format!("{value:?}")
    }
}

struct KernelWriter {
    text: String,
    depth: usize,
    next_temporary: u32,
    errors: Vec<KernelError>,
    /// The site of the operation being written (`Expr::At`): where its checks' errors point.
    site: Option<Span>,
    float_mode: FloatMode,
    /// In a kernel with barriers: where a failed check jumps (a work-item may not return early).
    failure_label: Option<String>,
    /// While the 32-bit version of a body is written: what it knows of its int values (`narrow.rs`).
    narrow: Option<NarrowInts>,
}

impl KernelWriter {
    /// A writer whose lines start `depth` levels in; `failure_label`: see [`KernelWriter::failure_label`].
    fn new(depth: usize, float_mode: FloatMode, failure_label: Option<String>) -> KernelWriter {
        KernelWriter {
            text: String::new(),
            depth,
            next_temporary: 0,
            errors: Vec::new(),
            site: None,
            float_mode,
            failure_label,
            narrow: None,
        }
    }

    fn line(&mut self, line: &str) {
        for _ in 0..self.depth {
            self.text.push_str("    ");
        }
        self.text.push_str(line);
        self.text.push('\n');
    }

    fn temporary(&mut self, ty: ScalarType, value: &str) -> Result<String, Unsupported> {
        Ok(self.named(register_type(ty)?, value))
    }

    /// A temporary of the C type `c_type`.
    fn named(&mut self, c_type: &str, value: &str) -> String {
        let name = format!("t{}", self.next_temporary);
        self.next_temporary += 1;
        self.line(&format!("{c_type} {name} = {value};"));
        name
    }

    /// `if (failed) APLC_FAIL(code);` for an APL error of this kind and message at the current site.
    fn check(&mut self, failed: &str, kind: AplErrorKind, message: String) {
        let site = self.site;
        let code = match self
            .errors
            .iter()
            .find(|error| error.kind == kind && error.message == message && error.site == site)
        {
            Some(error) => error.code,
            None => {
                let code = self.errors.len() as i32 + 1;
                self.errors.push(KernelError {
                    code,
                    kind,
                    message,
                    site,
                });
                code
            }
        };
        match &self.failure_label {
            Some(label) => {
                let line = format!("if ({failed}) APLC_FAIL_TO({code}, {label});");
                self.line(&line)
            }
            None => self.line(&format!("if ({failed}) APLC_FAIL({code});")),
        }
    }

    fn domain_check(&mut self, failed: &str, op: Op, message: &str) {
        self.check(failed, AplErrorKind::Domain, format!("{}: {message}", op.name()));
    }

    fn statements(&mut self, statements: &[Stmt]) -> Result<(), Unsupported> {
        statements.iter().try_for_each(|statement| self.statement(statement))
    }

    fn nested(&mut self, statements: &[Stmt]) -> Result<(), Unsupported> {
        self.depth += 1;
        let result = self.statements(statements);
        self.depth -= 1;
        result
    }

    fn statement(&mut self, statement: &Stmt) -> Result<(), Unsupported> {
        match statement {
            Stmt::Let { var, value } | Stmt::Mutable { var, value } => {
                // A mutable may be assigned values of any size later: it stays 64-bit.
                let narrow = match statement {
                    Stmt::Let { .. } => self.narrow_definition(var, value)?,
                    _ => None,
                };
                match narrow {
                    Some(value) => self.line(&format!("int {} = {value};", variable_name(var))),
                    None => {
                        let value = self.expression(value)?;
                        self.line(&format!("{} {} = {value};", register_type(var.ty)?, variable_name(var)));
                    }
                }
            }
            Stmt::Assign { var, value } => {
                let value = self.expression(value)?;
                self.line(&format!("{} = {value};", variable_name(var)));
            }
            Stmt::For { index, count, body } | Stmt::ParallelFor { index, count, body } => {
                // In the 32-bit version, an index below a count that fits in an int is an int (of the count's bound).
                let (c_type, count) = match self.narrow_definition(index, count)? {
                    Some(count) => ("int", count),
                    None => ("long", self.expression(count)?),
                };
                let count = self.named(c_type, &count);
                let index = variable_name(index);
                self.line(&format!("for ({c_type} {index} = 0; {index} < {count}; {index}++) {{"));
                self.nested(body)?;
                self.line("}");
            }
            Stmt::While { condition, body } => {
                self.line("while (1) {");
                self.depth += 1;
                let condition = self.expression(condition)?;
                self.line(&format!("if (!({condition})) break;"));
                self.statements(body)?;
                self.depth -= 1;
                self.line("}");
            }
            Stmt::If {
                condition,
                then,
                otherwise,
            } => {
                let condition = self.expression(condition)?;
                self.line(&format!("if ({condition}) {{"));
                self.nested(then)?;
                if !otherwise.is_empty() {
                    self.line("} else {");
                    self.nested(otherwise)?;
                }
                self.line("}");
            }
            Stmt::Store { block, index, value } => {
                let index = self.expression(index)?;
                let value = self.expression(value)?;
                let value = match (block.element, block.storage) {
                    (ScalarType::Bool, _) => format!("(uchar)({value})"),
                    // The value fits the narrow int (the narrowing pass proved it): the conversion keeps it.
                    (_, Storage::Int8 | Storage::Int16 | Storage::Int32) => {
                        format!("({})({value})", block_memory_type(block)?)
                    }
                    _ => value,
                };
                self.line(&format!("{}[{index}] = {value};", block.name()));
            }
            Stmt::Error { kind, message, site } => {
                let enclosing = std::mem::replace(&mut self.site, *site);
                self.check("1", *kind, message.clone());
                self.site = enclosing;
            }
            Stmt::ParallelReduce {
                result,
                reduction,
                index,
                count,
                body,
                element,
                site,
            } => {
                let site = site.or(self.site);
                let enclosing = std::mem::replace(&mut self.site, site);
                let written = self.nested_reduction(result, reduction, index, count, body, element);
                self.site = enclosing;
                written?;
            }
            Stmt::View { name, .. } => {
                // The array's name, as far as it is plain ASCII (APL names may hold ∆ and ⍙).
                let ascii: String = name
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                self.line(&format!("/* view {ascii} */"))
            }
            Stmt::Alloc { .. } | Stmt::Free { .. } | Stmt::Swap { .. } => {
                return Err(Unsupported("a block allocated inside the construct".to_string()))
            }
            Stmt::Call { .. } => return Err(Unsupported("a call of a function".to_string())),
            Stmt::PrintArray { .. }
            | Stmt::PrintScalar { .. }
            | Stmt::ReadClock { .. }
            | Stmt::ReadFile { .. }
            | Stmt::ReportBench { .. }
            | Stmt::Format { .. } => return Err(Unsupported("a run-time library call".to_string())),
        }
        Ok(())
    }

    /// A reduction inside a kernel runs sequentially, in the chunked order that defines it (module documentation of
    /// the loop IR): each chunk folded from the neutral element, the chunks folded in order. `+/` on ints is the exact
    /// sum: a 128-bit accumulator (two words) that no order of additions can change, DOMAIN ERROR when the sum does
    /// not fit in 64 bits.
    fn nested_reduction(
        &mut self,
        result: &Var,
        reduction: &Reduction,
        index: &Var,
        count: &Expr,
        body: &[Stmt],
        element: &Expr,
    ) -> Result<(), Unsupported> {
        let count = self.expression(count)?;
        let count = self.temporary(ScalarType::Int, &count)?;
        let result_name = variable_name(result);
        let index_name = variable_name(index);
        if reduction.op == Op::AddI {
            let neutral = self.expression(&reduction.neutral)?;
            let (high, low) = (format!("{result_name}_high"), format!("{result_name}_low"));
            self.line(&format!("long {high} = ({neutral}) < 0 ? -1 : 0;"));
            self.line(&format!("ulong {low} = (ulong)({neutral});"));
            self.line(&format!(
                "for (long {index_name} = 0; {index_name} < {count}; {index_name}++) {{"
            ));
            self.depth += 1;
            self.statements(body)?;
            let x = self.expression(element)?;
            let x = self.temporary(ScalarType::Int, &x)?;
            self.line(&format!("{low} += (ulong){x};"));
            self.line(&format!("{high} += ({x} < 0 ? -1 : 0) + ({low} < (ulong){x} ? 1 : 0);"));
            self.depth -= 1;
            self.line("}");
            self.domain_check(&format!("{high} != ((long){low} >> 63)"), Op::AddI, INTEGER_OVERFLOW);
            self.line(&format!("long {result_name} = (long){low};"));
            return Ok(());
        }
        let ty = reduction.neutral.ty();
        let c_type = register_type(ty)?;
        let neutral = self.expression(&reduction.neutral)?;
        let (chunk, part) = (format!("{result_name}_chunk"), format!("{result_name}_part"));
        self.line(&format!("{c_type} {result_name} = {neutral};"));
        self.line(&format!(
            "for (long {chunk} = 0; {chunk} * {REDUCTION_CHUNK}L < {count}; {chunk}++) {{"
        ));
        self.depth += 1;
        let first = format!("{chunk} * {REDUCTION_CHUNK}L");
        let length = format!("min({REDUCTION_CHUNK}L, {count} - {first})");
        let fold = FoldOfChunk {
            op: reduction.op,
            ty,
            neutral: &neutral,
            part: &part,
            index_name: &index_name,
            first: &first,
            length: &length,
            body,
            element,
        };
        // As a reduction kernel folds a chunk (`folds_in_lanes`): a double sum in lanes, a product in order.
        if reduction.op == Op::AddD {
            self.fold_chunk_in_lanes(&fold)?;
        } else {
            self.fold_chunk_in_order(&fold)?;
        }
        let folded = self.apply(reduction.op, &[(result_name.clone(), ty), (part.clone(), ty)])?;
        self.line(&format!("{result_name} = {folded};"));
        self.depth -= 1;
        self.line("}");
        Ok(())
    }

    /// `T part` := the chunk's elements folded left to right: the order of the lanes of a reduction kernel does not
    /// matter for an exact operator (max, min, and, or, ...), and a double product is folded in order there too.
    fn fold_chunk_in_order(&mut self, fold: &FoldOfChunk) -> Result<(), Unsupported> {
        let FoldOfChunk { part, index_name, .. } = *fold;
        self.line(&format!("{} {part} = {};", register_type(fold.ty)?, fold.neutral));
        self.line(&format!(
            "for (long {index_name} = {first}; {index_name} < {first} + {length}; {index_name}++) {{",
            first = fold.first,
            length = fold.length
        ));
        self.depth += 1;
        self.fold_element_into(fold, part)?;
        self.depth -= 1;
        self.line("}");
        Ok(())
    }

    /// `T part` := the chunk folded exactly as a reduction kernel's work-group folds it (`write_reduction_kernel`):
    /// element k into lane k mod [`REDUCTION_LANES`], the lanes combined pairwise in order, so that a double sum of
    /// a row gives the same bits whether a work-item folds the row (a loop's outer version) or a kernel
    /// does (its inner version). The work-item folds the lanes in order and keeps the finished subtrees of the tree on
    /// a stack, as a binary counter does (lane l completes one subtree per trailing 1 bit of l; at most 9 are
    /// pending). A chunk shorter than the lanes leaves the last ones at the neutral element, which the tree combines
    /// exactly: so the lanes stop at the chunk's end, and the pending subtrees are combined from the right.
    fn fold_chunk_in_lanes(&mut self, fold: &FoldOfChunk) -> Result<(), Unsupported> {
        let FoldOfChunk { part, index_name, .. } = *fold;
        let c_type = register_type(fold.ty)?;
        let (stack, depth, lane, value, carry) = (
            format!("{part}_stack"),
            format!("{part}_depth"),
            format!("{part}_lane"),
            format!("{part}_value"),
            format!("{part}_carry"),
        );
        let length = self.temporary(ScalarType::Int, fold.length)?;
        self.line(&format!(
            "{c_type} {stack}[{}]; int {depth} = 0;",
            REDUCTION_LANES.ilog2() + 1
        ));
        self.line(&format!(
            "for (long {lane} = 0; {lane} < min({length}, {REDUCTION_LANES}L); {lane}++) {{"
        ));
        self.depth += 1;
        self.line(&format!("{c_type} {value} = {};", fold.neutral));
        self.line(&format!(
            "for (long {index_name} = {first} + {lane}; {index_name} < {first} + {length}; {index_name} += {REDUCTION_LANES}L) {{",
            first = fold.first
        ));
        self.depth += 1;
        self.fold_element_into(fold, &value)?;
        self.depth -= 1;
        self.line("}");
        self.line(&format!("for (long {carry} = {lane}; {carry} & 1; {carry} >>= 1) {{"));
        self.depth += 1;
        self.combine_with_pending(fold, &stack, &depth, &value)?;
        self.depth -= 1;
        self.line("}");
        self.line(&format!("{stack}[{depth}++] = {value};"));
        self.depth -= 1;
        self.line("}");
        self.line(&format!("{c_type} {part} = {stack}[--{depth}];"));
        self.line(&format!("while ({depth} > 0) {{"));
        self.depth += 1;
        self.combine_with_pending(fold, &stack, &depth, part)?;
        self.depth -= 1;
        self.line("}");
        Ok(())
    }

    /// `value = op(stack[--depth], value)`: the subtree on top of the stack is the left operand.
    fn combine_with_pending(
        &mut self,
        fold: &FoldOfChunk,
        stack: &str,
        depth: &str,
        value: &str,
    ) -> Result<(), Unsupported> {
        let earlier = self.temporary(fold.ty, &format!("{stack}[--{depth}]"))?;
        let combined = self.apply(fold.op, &[(earlier, fold.ty), (value.to_string(), fold.ty)])?;
        self.line(&format!("{value} = {combined};"));
        Ok(())
    }

    /// Inside a loop over the element index: the body, then `accumulator = op(accumulator, element)`.
    fn fold_element_into(&mut self, fold: &FoldOfChunk, accumulator: &str) -> Result<(), Unsupported> {
        self.statements(fold.body)?;
        let x = self.expression(fold.element)?;
        let folded = self.apply(fold.op, &[(accumulator.to_string(), fold.ty), (x, fold.ty)])?;
        self.line(&format!("{accumulator} = {folded};"));
        Ok(())
    }

    /// A C expression for `expr`, after the statements (temporaries, checks) it needs. In the 32-bit version of a
    /// body, an int operation that fits is an `int` expression. A literal or a variable alone stays as it is (a
    /// parameter a `long`): the operation around it decides (an `int` operation reads the parameter's `int` copy,
    /// which the version's test then covers).
    fn expression(&mut self, expr: &Expr) -> Result<String, Unsupported> {
        if !matches!(expr, Expr::Int(_) | Expr::Var(_)) && self.narrow_magnitude(expr).is_some() {
            return self.narrow_int_text(expr);
        }
        Ok(match expr {
            Expr::Int(value) => int_literal(*value),
            Expr::Double(value) => double_literal(*value),
            Expr::Bool(value) => if *value { "1" } else { "0" }.to_string(),
            Expr::Char(value) => format!("{}U", u32::from(*value)),
            Expr::Var(var) => {
                register_type(var.ty)?;
                variable_name(var)
            }
            Expr::Load { block, index } => {
                let index = self.expression(index)?;
                match (block.element, block.storage) {
                    (ScalarType::Bool, _) => format!("(int){}[{index}]", block.name()),
                    (_, Storage::Int8 | Storage::Int16 | Storage::Int32) => format!("(long){}[{index}]", block.name()),
                    (ScalarType::Complex, _) => return Err(unsupported("a complex number")),
                    _ => format!("{}[{index}]", block.name()),
                }
            }
            Expr::Select(condition, then, otherwise) => self.select(condition, then, otherwise)?,
            // Versions are chosen on the host, around the constructs that become kernels.
            Expr::Threshold { .. } => return Err(unsupported("a choice between versions")),
            Expr::At(site, inner) => {
                let enclosing = self.site.replace(*site);
                let value = self.expression(inner);
                self.site = enclosing;
                value?
            }
            Expr::Prim(op @ (Op::AddD | Op::SubD | Op::MulD), arguments) if self.finite_magnitude(expr).is_some() => {
                // Finite operands of bounded magnitude: a finite result, nothing to check.
                let sign = match op {
                    Op::AddD => "+",
                    Op::SubD => "-",
                    _ => "*",
                };
                let (x, y) = (self.expression(&arguments[0])?, self.expression(&arguments[1])?);
                format!("(({x}) {sign} ({y}))")
            }
            Expr::Prim(op, arguments) => {
                // A comparison of ints that fit compares `int`s, literals included.
                let narrow_comparison = matches!(op, Op::LtI | Op::LteI | Op::GtI | Op::GteI | Op::EqI | Op::NeqI)
                    && arguments
                        .iter()
                        .all(|argument| self.narrow_magnitude(argument).is_some());
                let mut values = Vec::new();
                for argument in arguments {
                    let value = match narrow_comparison {
                        true => self.narrow_int_text(argument)?,
                        false => self.expression(argument)?,
                    };
                    values.push((value, argument.ty()));
                }
                self.apply(*op, &values)?
            }
        })
    }

    /// A bound on the magnitude of the double `expr` when it is provably finite: literals, ints converted to doubles
    /// (at most 2^63, or their 32-bit bound), and sums, differences, products, negations, magnitudes, minima and
    /// maxima of those while the bound stays far from overflow. The sum of a literal and a converted index (signal's
    /// `0.01+⍵`) needs no check that it is finite.
    fn finite_magnitude(&self, expr: &Expr) -> Option<f64> {
        /// Far below the largest double: a sum or product of two values within it is finite.
        const LIMIT: f64 = 1e300;
        let bound = match expr {
            Expr::Double(value) => value.abs(),
            Expr::At(_, inner) => self.finite_magnitude(inner)?,
            Expr::Prim(Op::I2D, arguments) => match self.narrow_magnitude(&arguments[0]) {
                Some(magnitude) => magnitude.largest() as f64,
                None => 9.3e18,
            },
            Expr::Prim(Op::NegD | Op::AbsD, arguments) => self.finite_magnitude(&arguments[0])?,
            Expr::Prim(op @ (Op::AddD | Op::SubD | Op::MulD | Op::MinD | Op::MaxD), arguments) => {
                let (x, y) = (
                    self.finite_magnitude(&arguments[0])?,
                    self.finite_magnitude(&arguments[1])?,
                );
                match op {
                    Op::AddD | Op::SubD => x + y,
                    Op::MulD => x * y,
                    _ => x.max(y),
                }
            }
            _ => return None,
        };
        (bound <= LIMIT).then_some(bound)
    }

    /// In the 32-bit version of a body, when `value` fits in an int: its `int` text, with `var` declared as an
    /// `int` of `value`'s bound (`var` is `value`, or an index below it); otherwise `None`.
    fn narrow_definition(&mut self, var: &Var, value: &Expr) -> Result<Option<String>, Unsupported> {
        let Some(magnitude) = self.narrow_magnitude(value) else {
            return Ok(None);
        };
        let text = self.narrow_int_text(value)?;
        if let Some(narrow) = self.narrow.as_mut() {
            narrow.declare(var, magnitude);
        }
        Ok(Some(text))
    }

    /// In the 32-bit version of a body: a bound of the int `expr` that fits in 32 bits, if there is one.
    fn narrow_magnitude(&self, expr: &Expr) -> Option<super::narrow::Magnitude> {
        let narrow = self.narrow.as_ref()?;
        if expr.ty() != ScalarType::Int {
            return None;
        }
        narrow.magnitude(expr)
    }

    /// The `int` text of an int expression whose [`KernelWriter::narrow_magnitude`] fits: plain C arithmetic, which
    /// cannot overflow (so no check either), on the `int`s it is made of.
    fn narrow_int_text(&mut self, expr: &Expr) -> Result<String, Unsupported> {
        let narrow = |writer: &mut KernelWriter, expr: &Expr| writer.narrow_int_text(expr);
        Ok(match expr {
            Expr::Int(value) => format!("({value})"),
            Expr::Var(var) => {
                let parameter = self.narrow.as_mut().and_then(|narrow| narrow.parameter_text(var));
                parameter.unwrap_or_else(|| variable_name(var))
            }
            Expr::At(site, inner) => {
                let enclosing = self.site.replace(*site);
                let value = narrow(self, inner);
                self.site = enclosing;
                value?
            }
            Expr::Select(condition, then, otherwise) => {
                let condition = self.expression(condition)?;
                format!(
                    "(({condition}) ? {} : {})",
                    narrow(self, then)?,
                    narrow(self, otherwise)?
                )
            }
            Expr::Prim(op, arguments) => {
                if let Some(narrow) = self.narrow.as_mut() {
                    narrow.note_narrowed();
                }
                match (op, arguments.as_slice()) {
                    (Op::B2I | Op::B2IV, [x]) => format!("(int)({})", self.expression(x)?),
                    (Op::NegW | Op::NegI, [x]) => format!("(-{})", narrow(self, x)?),
                    (Op::AbsI, [x]) => {
                        let x = narrow(self, x)?;
                        format!("({x} < 0 ? -{x} : {x})")
                    }
                    // The same check of a zero divisor as the 64-bit version; the other (the most negative int
                    // divided by ¯1) cannot fail on values within the bound.
                    (Op::DivI, [x, y]) => {
                        let (x, y) = (narrow(self, x)?, narrow(self, y)?);
                        let (x, y) = (self.named("int", &x), self.named("int", &y));
                        self.check(
                            &format!("{y} == 0"),
                            AplErrorKind::Domain,
                            "divi: division by zero".to_string(),
                        );
                        format!("({y} == -1 ? -{x} : aplc_floor_div_32({x}, {y}))")
                    }
                    (Op::ResI, [x, y]) => format!("aplc_residue_32({}, {})", narrow(self, x)?, narrow(self, y)?),
                    (_, [x, y]) => {
                        let (x, y) = (narrow(self, x)?, narrow(self, y)?);
                        match op {
                            Op::AddW | Op::AddI => format!("({x} + {y})"),
                            Op::SubW | Op::SubI => format!("({x} - {y})"),
                            Op::MulW | Op::MulI => format!("({x} * {y})"),
                            Op::MinI => format!("min({x}, {y})"),
                            Op::MaxI => format!("max({x}, {y})"),
                            _ => return Err(Unsupported(format!("{} on 32-bit ints", op.name()))),
                        }
                    }
                    _ => return Err(Unsupported(format!("{} on 32-bit ints", op.name()))),
                }
            }
            _ => return Err(Unsupported("a 32-bit int of this form".to_string())),
        })
    }

    /// `condition ? then : otherwise`, evaluating only the chosen arm.
    fn select(&mut self, condition: &Expr, then: &Expr, otherwise: &Expr) -> Result<String, Unsupported> {
        let condition = self.expression(condition)?;
        let (then_text, then_value) = self.written_apart(then)?;
        let (otherwise_text, otherwise_value) = self.written_apart(otherwise)?;
        if then_text.is_empty() && otherwise_text.is_empty() {
            return Ok(format!("(({condition}) ? {then_value} : {otherwise_value})"));
        }
        let result = format!("t{}", self.next_temporary);
        self.next_temporary += 1;
        self.line(&format!("{} {result};", register_type(then.ty())?));
        self.line(&format!("if ({condition}) {{"));
        self.text.push_str(&then_text);
        self.line(&format!("    {result} = {then_value};"));
        self.line("} else {");
        self.text.push_str(&otherwise_text);
        self.line(&format!("    {result} = {otherwise_value};"));
        self.line("}");
        Ok(result)
    }

    /// The statements and the value of `expr`, written one level deeper and kept apart from the text so far.
    fn written_apart(&mut self, expr: &Expr) -> Result<(String, String), Unsupported> {
        let before = std::mem::take(&mut self.text);
        self.depth += 1;
        let value = self.expression(expr);
        self.depth -= 1;
        let written = std::mem::replace(&mut self.text, before);
        Ok((written, value?))
    }

    /// A scalar operator applied to C values (with their loop-IR types), with the checks the operator has.
    fn apply(&mut self, op: Op, values: &[(String, ScalarType)]) -> Result<String, Unsupported> {
        let value =
            |position: usize| -> String { values.get(position).map(|(text, _)| text.clone()).unwrap_or_default() };
        let (x, y) = (value(0), value(1));
        let finite_checks = self.float_mode.checks_finite_results();
        Ok(match (op, values.len()) {
            // ---- Index arithmetic: wrapping, so computed on unsigned words (signed overflow is undefined in C). ----
            (Op::AddW, 2) => format!("(long)((ulong)({x}) + (ulong)({y}))"),
            (Op::SubW, 2) => format!("(long)((ulong)({x}) - (ulong)({y}))"),
            (Op::MulW, 2) => format!("(long)((ulong)({x}) * (ulong)({y}))"),
            (Op::NegW, 1) => format!("(long)(0UL - (ulong)({x}))"),
            // ---- APL's int arithmetic: DOMAIN ERROR when the exact result does not fit. ----
            (Op::AddI | Op::SubI, 2) => {
                let (x, y) = (
                    self.temporary(ScalarType::Int, &x)?,
                    self.temporary(ScalarType::Int, &y)?,
                );
                let sign = if op == Op::AddI { "+" } else { "-" };
                let result = self.temporary(ScalarType::Int, &format!("(long)((ulong){x} {sign} (ulong){y})"))?;
                let overflow = if op == Op::AddI {
                    format!("((({x}) ^ {result}) & (({y}) ^ {result})) < 0")
                } else {
                    format!("((({x}) ^ ({y})) & (({x}) ^ {result})) < 0")
                };
                self.domain_check(&overflow, op, INTEGER_OVERFLOW);
                result
            }
            (Op::MulI, 2) => {
                let (x, y) = (
                    self.temporary(ScalarType::Int, &x)?,
                    self.temporary(ScalarType::Int, &y)?,
                );
                let result = self.temporary(ScalarType::Int, &format!("(long)((ulong){x} * (ulong){y})"))?;
                self.domain_check(&format!("mul_hi({x}, {y}) != ({result} >> 63)"), op, INTEGER_OVERFLOW);
                result
            }
            (Op::NegI | Op::AbsI, 1) => {
                let x = self.temporary(ScalarType::Int, &x)?;
                self.domain_check(&format!("{x} == {}", int_literal(i64::MIN)), op, INTEGER_OVERFLOW);
                if op == Op::NegI {
                    format!("(-{x})")
                } else {
                    format!("({x} < 0 ? -{x} : {x})")
                }
            }
            (Op::SignI, 1) => format!("(long)(({x}) > 0) - (long)(({x}) < 0)"),
            (Op::MinI, 2) => format!("min((long)({x}), (long)({y}))"),
            (Op::MaxI, 2) => format!("max((long)({x}), (long)({y}))"),
            (Op::DivI, 2) => {
                let (x, y) = (
                    self.temporary(ScalarType::Int, &x)?,
                    self.temporary(ScalarType::Int, &y)?,
                );
                self.check(
                    &format!("{y} == 0"),
                    AplErrorKind::Domain,
                    "divi: division by zero".to_string(),
                );
                self.domain_check(
                    &format!("{y} == -1 && {x} == {}", int_literal(i64::MIN)),
                    op,
                    INTEGER_OVERFLOW,
                );
                format!("({y} == -1 ? -{x} : aplc_floor_div({x}, {y}))")
            }
            (Op::ResI, 2) => format!("aplc_residue({x}, {y})"),
            (Op::LtI | Op::LtC, 2) => format!("(int)(({x}) < ({y}))"),
            (Op::LteI | Op::LteC, 2) => format!("(int)(({x}) <= ({y}))"),
            (Op::GtI | Op::GtC, 2) => format!("(int)(({x}) > ({y}))"),
            (Op::GteI | Op::GteC, 2) => format!("(int)(({x}) >= ({y}))"),
            (Op::EqI | Op::EqB | Op::EqC, 2) => format!("(int)(({x}) == ({y}))"),
            (Op::NeqI | Op::NeqC, 2) => format!("(int)(({x}) != ({y}))"),
            // ---- Booleans (0 or 1 in an int). ----
            // ---- ⎕INT32AND and its kin: on the low 32 bits, the result sign-extended (as on the host). ----
            (Op::AndI, 2) => format!("(long)((int)({x}) & (int)({y}))"),
            (Op::OrI, 2) => format!("(long)((int)({x}) | (int)({y}))"),
            (Op::XorI, 2) => format!("(long)((int)({x}) ^ (int)({y}))"),
            (Op::NotI, 1) => format!("(long)(~(int)({x}))"),
            (Op::PopCount, 1) => format!("(long)popcount((uint)({x}))"),
            (Op::NotB, 1) => format!("(1 - ({x}))"),
            (Op::AndB, 2) => format!("(({x}) & ({y}))"),
            (Op::OrB, 2) => format!("(({x}) | ({y}))"),
            (Op::XorB, 2) => format!("(({x}) ^ ({y}))"),
            (Op::NandB, 2) => format!("(1 - (({x}) & ({y})))"),
            (Op::NorB, 2) => format!("(1 - (({x}) | ({y})))"),
            // ---- Conversions. ----
            (Op::I2D, 1) => format!("(double)({x})"),
            (Op::B2I | Op::B2IV | Op::C2I, 1) => format!("(long)({x})"),
            (Op::I2B, 1) => {
                let x = self.temporary(ScalarType::Int, &x)?;
                self.check(
                    &format!("(ulong){x} > 1UL"),
                    AplErrorKind::Domain,
                    "i2b: a boolean must be 0 or 1".to_string(),
                );
                format!("(int)({x} == 1)")
            }
            (Op::Floor | Op::Ceil, 1) => {
                let rounded = if op == Op::Floor {
                    format!("aplc_tolerant_floor({x})")
                } else {
                    format!("(-aplc_tolerant_floor(-({x})))")
                };
                let rounded = self.temporary(ScalarType::Double, &rounded)?;
                self.check(
                    &format!("!({rounded} >= -9223372036854775808.0 && {rounded} < 9223372036854775808.0)"),
                    AplErrorKind::Domain,
                    format!("{}: value out of the int range", op.name()),
                );
                format!("(long){rounded}")
            }
            (Op::D2I, 1) => {
                // A double where APL needs an integer: tolerantly whole, and in the int range.
                let x = self.temporary(ScalarType::Double, &x)?;
                let nearest = self.temporary(ScalarType::Double, &format!("round({x})"))?;
                self.check(
                    &format!("!aplc_tolerantly_equal({x}, {nearest})"),
                    AplErrorKind::Domain,
                    "d2i: not an integer".to_string(),
                );
                self.check(
                    &format!("!({nearest} >= -9223372036854775808.0 && {nearest} < 9223372036854775808.0)"),
                    AplErrorKind::Domain,
                    "d2i: value out of the int range".to_string(),
                );
                format!("(long){nearest}")
            }
            // ---- Doubles: tolerant comparisons, and results that must be finite real numbers. ----
            (Op::EqD, 2) => format!("aplc_tolerantly_equal({x}, {y})"),
            (Op::NeqD, 2) => format!("(1 - aplc_tolerantly_equal({x}, {y}))"),
            (Op::LtD | Op::GtD | Op::LteD | Op::GteD, 2) => {
                let (x, y) = (
                    self.temporary(ScalarType::Double, &x)?,
                    self.temporary(ScalarType::Double, &y)?,
                );
                match op {
                    Op::LtD => format!("(int)({x} < {y} && !aplc_tolerantly_equal({x}, {y}))"),
                    Op::GtD => format!("(int)({x} > {y} && !aplc_tolerantly_equal({x}, {y}))"),
                    Op::LteD => format!("(int)({x} < {y} || aplc_tolerantly_equal({x}, {y}))"),
                    _ => format!("(int)({x} > {y} || aplc_tolerantly_equal({x}, {y}))"),
                }
            }
            (Op::MinD, 2) => format!("fmin({x}, {y})"),
            (Op::MaxD, 2) => format!("fmax({x}, {y})"),
            (Op::NegD, 1) => format!("(-({x}))"),
            (Op::AbsD, 1) => format!("fabs({x})"),
            (Op::SignD, 1) => {
                let x = self.temporary(ScalarType::Double, &x)?;
                format!("({x} > 0.0 ? 1.0 : ({x} < 0.0 ? -1.0 : 0.0))")
            }
            (Op::AddD | Op::SubD | Op::MulD, 2) => {
                let sign = match op {
                    Op::AddD => "+",
                    Op::SubD => "-",
                    _ => "*",
                };
                self.finite_result(op, format!("({x}) {sign} ({y})"), finite_checks)?
            }
            (Op::DivD, 2) => {
                let (x, y) = (
                    self.temporary(ScalarType::Double, &x)?,
                    self.temporary(ScalarType::Double, &y)?,
                );
                if finite_checks {
                    self.check(
                        &format!("{y} == 0.0 && {x} != 0.0"),
                        AplErrorKind::Domain,
                        "divd: division by zero".to_string(),
                    );
                    self.finite_result(op, format!("({y} == 0.0 ? 1.0 : {x} / {y})"), true)?
                } else {
                    format!("(({y} == 0.0 && {x} == 0.0) ? 1.0 : {x} / {y})")
                }
            }
            (Op::ResD, 2) => self.finite_result(op, format!("aplc_double_residue({x}, {y})"), finite_checks)?,
            (Op::PowD, 2) => self.finite_result(op, format!("pow({x}, {y})"), finite_checks)?,
            (Op::ExpD, 1) => self.finite_result(op, format!("exp({x})"), finite_checks)?,
            (Op::Sqrt, 1) => self.finite_result(op, format!("sqrt({x})"), finite_checks)?,
            (Op::Sin, 1) => self.finite_result(op, format!("sin({x})"), finite_checks)?,
            (Op::Cos, 1) => self.finite_result(op, format!("cos({x})"), finite_checks)?,
            (Op::Ln, 1) => {
                let x = self.temporary(ScalarType::Double, &x)?;
                if finite_checks {
                    self.check(
                        &format!("{x} <= 0.0"),
                        AplErrorKind::Domain,
                        "ln: logarithm of zero or a negative number".to_string(),
                    );
                }
                self.finite_result(op, format!("log({x})"), finite_checks)?
            }
            _ => {
                return Err(Unsupported(format!(
                    "the operator {} has no OpenCL translation",
                    op.name()
                )))
            }
        })
    }

    /// A double result checked to be a finite real number (in Dyalog's float mode), as a temporary.
    fn finite_result(&mut self, op: Op, value: String, check: bool) -> Result<String, Unsupported> {
        let result = self.temporary(ScalarType::Double, &value)?;
        if check {
            self.domain_check(&format!("!isfinite({result})"), op, NOT_A_FINITE_REAL_NUMBER);
        }
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loops::parser::parse_program;

    /// The index and body of the first `parfor` of a loop program, with the blocks and scalars its kernel takes.
    fn first_parallel_map(text: &str) -> (Var, Vec<Stmt>, Vec<Block>) {
        let program = parse_program(text).expect("the loop program parses");
        let (index, body) = program
            .body
            .iter()
            .find_map(|statement| match statement {
                Stmt::ParallelFor { index, body, .. } => Some((index.clone(), body.clone())),
                _ => None,
            })
            .expect("a parfor");
        let mut blocks = Vec::new();
        crate::loops::ir::for_each_statement(&body, &mut |statement| {
            let mut variables = Vec::new();
            for expr in crate::loops::ir::statement_expressions(statement) {
                crate::loops::ir::collect_reads(expr, &mut variables, &mut blocks);
            }
            if let Stmt::Store { block, .. } = statement {
                if !blocks.contains(block) {
                    blocks.push(*block);
                }
            }
        });
        (index, body, blocks)
    }

    fn kernel_of(text: &str) -> Result<Kernel, Unsupported> {
        let (index, body, blocks) = first_parallel_map(text);
        write_kernel(
            &KernelBody {
                name: "k",
                index: &index,
                body: &body,
                scalars: &[],
                blocks: &blocks,
                site: None,
            },
            FloatMode::Dyalog,
        )
    }

    const GUARDED_DIVISION: &str = "alloc mem2 : double[10]\nalloc mem3 : double[10]\nparfor i4 < 10 {\n  \
        let x5 : double = ((i4 < 5) ? at(10, 12, divd(1.0, mem2[i4])) : 0.0)\n  \
        store mem3[i4] = at(20, 22, divd(x5, mem2[i4]))\n}\nresult 0\n";

    #[test]
    fn a_select_whose_arm_has_checks_evaluates_only_the_chosen_arm() {
        let kernel = kernel_of(GUARDED_DIVISION).expect("a kernel");
        let source = &kernel.source;
        // The division of the first arm and its checks sit inside `if (...) {` ... `} else {`.
        let branch = source
            .find("if ((int)((v_i4) < (5L))) {")
            .unwrap_or_else(|| panic!("the select is no if:\n{source}"));
        let otherwise = source[branch..].find("} else {").expect("with an else") + branch;
        let first_check = source.find("APLC_FAIL(").expect("a check");
        assert!(branch < first_check && first_check < otherwise, "{source}");
    }

    #[test]
    fn each_check_has_its_own_code_with_its_message_and_site() {
        let kernel = kernel_of(GUARDED_DIVISION).expect("a kernel");
        let described: Vec<(i32, String, Option<Span>)> = kernel
            .errors
            .iter()
            .map(|error| (error.code, error.message.clone(), error.site))
            .collect();
        let finite = format!("divd: {NOT_A_FINITE_REAL_NUMBER}");
        assert_eq!(
            described,
            vec![
                (1, "divd: division by zero".to_string(), Some(Span::new(10, 12))),
                (2, finite.clone(), Some(Span::new(10, 12))),
                (3, "divd: division by zero".to_string(), Some(Span::new(20, 22))),
                (4, finite, Some(Span::new(20, 22))),
            ]
        );
        assert!(kernel.errors.iter().all(|error| error.kind == AplErrorKind::Domain));
    }

    #[test]
    fn a_sum_of_a_literal_and_a_converted_index_is_not_checked_but_a_sum_of_loads_is() {
        let text = "alloc mem2 : double[10]\nparfor i4 < 10 {\n  \
                    store mem2[i4] = addd(0.01, i2d(addw(i4, 1)))\n}\nresult 0\n";
        let source = kernel_of(text).expect("a kernel").source;
        assert!(!source.contains("isfinite"), "{source}");
        let loads = text.replace("addd(0.01, i2d(addw(i4, 1)))", "addd(0.01, mem2[i4])");
        let source = kernel_of(&loads).expect("a kernel").source;
        assert!(source.contains("isfinite"), "{source}");
    }

    #[test]
    fn index_arithmetic_has_a_32_bit_version_for_counts_that_fit() {
        let text = "alloc mem2 : int[10]\nparfor i4 < 10 {\n  let j5 : int = addw(i4, 3)\n  \
                    store mem2[i4] = mulw(j5, j5)\n}\nresult 0\n";
        let source = kernel_of(text).expect("a kernel").source;
        // j5 is an int in the version chosen for counts up to NARROW_UNIT; its square may not fit, so it is a long.
        assert!(source.contains("if (aplc_narrow) {"), "{source}");
        assert!(source.contains("k(long aplc_n, long aplc_narrow, "), "{source}");
        assert!(source.contains("int v_j5 = (v_i4 + (3));"), "{source}");
        assert!(
            source.contains("mem2[v_i4] = (long)((ulong)(v_j5) * (ulong)(v_j5));"),
            "{source}"
        );
        assert!(
            source.contains("long v_j5 = (long)((ulong)(v_i4) + (ulong)(3L));"),
            "{source}"
        );
        // Nothing to narrow: one version.
        let loads = text.replace("addw(i4, 3)", "mem2[i4]");
        let kernel = kernel_of(&loads).expect("a kernel");
        assert!(!kernel.source.contains("aplc_narrow"), "{}", kernel.source);
        assert_eq!(kernel.narrow_parameters, None);
    }

    #[test]
    fn a_32_bit_division_checks_its_divisor_with_the_same_code_and_site_as_the_64_bit_one() {
        let text = "alloc mem2 : int[10]\nparfor i4 < 10 {\n  store mem2[i4] = addw(at(10, 12, divi(i4, 3)), 1)\n}\n\
                    result 0\n";
        let kernel = kernel_of(text).expect("a kernel");
        assert!(kernel.source.contains("aplc_floor_div_32("), "{}", kernel.source);
        let described: Vec<(i32, String, Option<Span>)> = kernel
            .errors
            .iter()
            .map(|error| (error.code, error.message.clone(), error.site))
            .collect();
        let site = Some(Span::new(10, 12));
        assert_eq!(
            described,
            vec![
                (1, "divi: division by zero".to_string(), site),
                (2, format!("divi: {INTEGER_OVERFLOW}"), site),
            ]
        );
    }

    #[test]
    fn blocks_the_kernel_only_reads_are_const_and_the_stored_one_is_written() {
        let kernel = kernel_of(GUARDED_DIVISION).expect("a kernel");
        assert!(
            kernel.source.contains("__global const double* mem2"),
            "{}",
            kernel.source
        );
        assert!(kernel.source.contains("__global double* mem3"), "{}", kernel.source);
        let written: Vec<(u32, bool)> = kernel
            .blocks
            .iter()
            .map(|(block, writes)| (block.id, *writes))
            .collect();
        assert_eq!(written, vec![(2, false), (3, true)]);
    }

    #[test]
    fn booleans_are_bytes_in_memory_and_ints_in_registers() {
        let text = "alloc mem2 : bool[8]\nparfor i3 < 8 {\n  store mem2[i3] = notb(mem2[i3])\n}\nresult 0\n";
        let kernel = kernel_of(text).expect("a kernel");
        assert!(kernel.source.contains("__global uchar* mem2"), "{}", kernel.source);
        assert!(
            kernel.source.contains("mem2[v_i3] = (uchar)((1 - ((int)mem2[v_i3])))"),
            "{}",
            kernel.source
        );
    }

    #[test]
    fn a_body_that_allocates_is_left_on_the_host_with_the_reason() {
        let text = "alloc mem2 : int[4]\nparfor i3 < 4 {\n  alloc mem4 : int[2]\n  store mem4[0] = i3\n  \
                    store mem2[i3] = mem4[0]\n  free mem4\n}\nresult 0\n";
        let Err(Unsupported(reason)) = kernel_of(text) else {
            panic!("a body with an allocation became a kernel");
        };
        assert!(reason.contains("allocated inside"), "{reason}");
    }

    #[test]
    fn a_reduction_kernel_with_barriers_never_returns_early() {
        let (index, body, blocks) = first_parallel_map(GUARDED_DIVISION);
        let partial = Block::new(90, ScalarType::Double);
        let element = Expr::Var(Var {
            id: 5,
            ty: ScalarType::Double,
            hint: "x".into(),
        });
        let neutral = Expr::Double(-0.0);
        let kernel = write_reduction_kernel(
            &ReductionBody {
                name: "r",
                index: &index,
                body: &body[..1],
                element: &element,
                fold: ChunkFold::Operator {
                    op: Op::AddD,
                    neutral: &neutral,
                },
                partials: &[partial],
                scalars: &[],
                blocks: &blocks[..1],
                site: Some(Span::new(30, 32)),
            },
            FloatMode::Dyalog,
        )
        .expect("a reduction kernel");
        let source = &kernel.source;
        // Every work-item reaches the barriers after the lanes, after each step of the tree and after the chunk's
        // store: checks jump to a label instead of returning.
        assert_eq!(source.matches("barrier(CLK_LOCAL_MEM_FENCE)").count(), 3, "{source}");
        assert!(!source.contains("APLC_FAIL(") && !source.contains("return"), "{source}");
        assert!(source.contains("APLC_FAIL_TO(1, aplc_element_done)"), "{source}");
        // The fold's own check (a sum that is not finite) jumps past the fold, in a lane and in the tree alike, and
        // points at the reduction.
        assert!(source.contains("aplc_element_done);"), "{source}");
        assert!(source.contains("aplc_combine_done);"), "{source}");
        // The lanes are a constant of the kernel, never the work-group's size: the order of the fold is fixed.
        assert!(source.contains(&format!("aplc_k += {REDUCTION_LANES})")), "{source}");
        assert!(source.contains(&format!("aplc_parts[{REDUCTION_LANES}]")), "{source}");
        let fold_error = kernel.errors.last().expect("the fold's check");
        assert_eq!(fold_error.message, format!("addd: {NOT_A_FINITE_REAL_NUMBER}"));
        assert_eq!(fold_error.site, Some(Span::new(30, 32)));
        assert_eq!(kernel.blocks.last(), Some(&(partial, true)));
    }

    #[test]
    fn a_double_product_folds_each_chunk_in_order_and_a_sum_in_lanes() {
        let (index, body, blocks) = first_parallel_map(GUARDED_DIVISION);
        let element = Expr::Var(Var {
            id: 5,
            ty: ScalarType::Double,
            hint: "x".into(),
        });
        let source_of = |op: Op, neutral: &Expr| {
            let reduction = ReductionBody {
                name: "r",
                index: &index,
                body: &body[..1],
                element: &element,
                fold: ChunkFold::Operator { op, neutral },
                partials: &[Block::new(90, ScalarType::Double)],
                scalars: &[],
                blocks: &blocks[..1],
                site: None,
            };
            write_reduction_kernel(&reduction, FloatMode::Dyalog)
                .expect("a reduction kernel")
                .source
        };
        let in_order = "for (int aplc_k = (aplc_lane == 0 ? 0 : aplc_length); aplc_k < aplc_length; aplc_k += 1)";
        let product = source_of(Op::MulD, &Expr::Double(1.0));
        assert!(product.contains(in_order), "{product}");
        let sum = source_of(Op::AddD, &Expr::Double(-0.0));
        assert!(!sum.contains(in_order), "{sum}");
        assert!(sum.contains(&format!("aplc_k += {REDUCTION_LANES})")), "{sum}");
    }
}

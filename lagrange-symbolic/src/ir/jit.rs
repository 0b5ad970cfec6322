//! The machine-code backend of the walk: a [`Program`] compiled when it is loaded, by
//! Cranelift (the Bytecode Alliance's code generator, pure Rust: nothing else is needed on
//! the machine that runs it), for models read at run time.
//!
//! It is one more [`Emitter`] driven by [`emit`], so it makes the walk's spelling
//! decisions and computes what the interpreter ([`Program::evaluate`]) and the derive's
//! code compute, bit for bit: sums and products in the walk's order, IEEE operations that
//! round as Rust's do, `sqrt` as the instruction, one rounding for each fused
//! multiply-add (the FMA instruction where the processor has it, the C library's `fma`
//! where it does not), and the other functions (`sin`, `cos`, `exp`, `ln`, `powi`,
//! `powf`) called in Rust's own `f64` methods, so in the same library; the sine and cosine
//! of one value in one call of `sin_cos`, the library's `sincos`, as LLVM makes of the
//! derive's code (which, like this, relies on `sincos` giving the library's `sin` and `cos`
//! to the bit: the interpreter calls those two, and the tests compare; on glibc, also
//! 2·10⁷ random arguments and bit patterns). (Which NaN an
//! operation returns, IEEE 754 leaves open: a NaN comes out wherever the interpreter's
//! does, its sign and payload possibly not, as the processor's instructions pick among
//! NaN operands in their own order.)
//!
//! The inputs may lie in several slices, where the caller keeps them ([`Compiled::with_pieces`]):
//! the code reads each where it is, nothing is copied into one buffer first.
//!
//! Bounded: a program is compiled in functions of at most [`CHUNK`] instructions, run one
//! after the other; a temporary one function writes and a later one reads passes through
//! a buffer of the call. Compile time and memory therefore grow with the program's
//! length, not with the square of a register allocator's view of it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::sync::Mutex;

use cranelift_codegen::cursor::{Cursor, FuncCursor};
use cranelift_codegen::ir::{
    AbiParam, Block, Function, InstBuilder, MemFlagsData, SigRef, Signature, StackSlot,
    StackSlotData, StackSlotKind, UserFuncName, Value, types,
};
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Module, default_libcall_names};

use super::emit::{self, Emitter, IrError, Variable};
use super::{Instr, Intrinsic, Program, Slot};

/// The most instructions of a program one compiled function holds. Cranelift's register
/// allocator and optimizer cost more than linear time in a function's length; this
/// bounds each function, and so the whole compile, to linear time in the program's
/// (about 11 µs an instruction). Longer functions ran no faster: the G1's residual
/// derivatives (21,191 instructions) in functions of 4,096 and 16,384 instructions took 2
/// and 4 times as long to compile and ran within 1 % (`benches/loaded.rs`).
pub const CHUNK: usize = 1024;

/// A compiled function: `(the inputs' pieces, outputs, spilled temporaries)`.
type Function3 = unsafe extern "C" fn(*const *const f64, *mut f64, *mut f64);

/// The most pieces a program's inputs may be compiled to lie in ([`Compiled::with_pieces`]).
pub const MAX_PIECES: usize = 8;

/// Why a program was not compiled.
#[derive(Debug, Clone, PartialEq)]
pub enum JitError {
    /// The program is invalid (see [`Program::validate`]).
    Program(IrError),
    /// Cranelift does not support this processor or platform.
    Host(String),
    /// Cranelift refused the code (a bug here, or a program beyond its limits).
    Compile(String),
}

impl fmt::Display for JitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JitError::Program(e) => write!(f, "the program is invalid: {e}"),
            JitError::Host(e) => write!(f, "this processor is not supported: {e}"),
            JitError::Compile(e) => write!(f, "the code generator failed: {e}"),
        }
    }
}

impl std::error::Error for JitError {}

/// Whether compiled code may use the processor's FMA instructions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fma {
    /// Where the processor has them (the default).
    Detect,
    /// Never: every fused multiply-add is a call of the C library's `fma`, as on a
    /// processor without them.
    Library,
}

/// A program compiled to machine code: [`Compiled::evaluate`] computes what
/// [`Program::evaluate`] computes, with the same bits.
pub struct Compiled {
    /// The compiled functions, run in order.
    functions: Vec<Function3>,
    /// How many values the code reads of each piece of the inputs (the first
    /// `piece_count`; zero after them).
    pieces: [usize; MAX_PIECES],
    piece_count: usize,
    inputs: usize,
    outputs: usize,
    /// The number of temporaries passed from one function to a later one.
    spilled: usize,
    /// The code's owner: the functions' memory is freed when this is dropped. In a
    /// `Mutex` only to be shareable between threads (the module is not `Sync`); it is
    /// never used after compiling.
    module: Mutex<Option<JITModule>>,
}

impl fmt::Debug for Compiled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Compiled")
            .field("functions", &self.functions.len())
            .field("inputs", &self.inputs)
            .field("pieces", &&self.pieces[..self.piece_count])
            .field("outputs", &self.outputs)
            .field("spilled", &self.spilled)
            .finish()
    }
}

impl Drop for Compiled {
    fn drop(&mut self) {
        let module = self.module.get_mut().map(Option::take);
        if let Ok(Some(module)) = module {
            // SAFETY: the functions' pointers are only reachable through `self`, which is
            // being dropped, so no code of the module runs again.
            unsafe { module.free_memory() };
        }
    }
}

impl Compiled {
    /// Compiles `program` for this processor, its inputs in one slice.
    pub fn new(program: &Program) -> Result<Compiled, JitError> {
        Compiled::with_fma(program, Fma::Detect)
    }

    /// Compiles `program`, using the FMA instructions or not as `fma` says.
    pub fn with_fma(program: &Program, fma: Fma) -> Result<Compiled, JitError> {
        Compiled::compile(program, &[program.inputs], fma)
    }

    /// Compiles `program` for this processor with its inputs in consecutive slices of
    /// the lengths `pieces` (at most [`MAX_PIECES`] of them, the last ones possibly
    /// longer than the program reads), run by [`evaluate_pieces`](Self::evaluate_pieces):
    /// input `i` is value `i` of the pieces laid end to end.
    pub fn with_pieces(program: &Program, pieces: &[usize]) -> Result<Compiled, JitError> {
        Compiled::compile(program, pieces, Fma::Detect)
    }

    fn compile(program: &Program, pieces: &[usize], fma: Fma) -> Result<Compiled, JitError> {
        // Checked first, at the cost of a walk: an invalid program would otherwise reach
        // the compiler, which sizes its tables by the counts the program claims.
        program
            .validate(program.inputs, program.outputs)
            .map_err(JitError::Program)?;
        let pieces = read_pieces(pieces, program.inputs)?;
        let compile = |e: &dyn fmt::Display| JitError::Compile(e.to_string());
        // Offsets are 32-bit: no program the engine writes comes near.
        let largest = program.inputs.max(program.outputs).max(program.temporaries);
        if largest > (i32::MAX / 8) as usize {
            return Err(JitError::Compile(format!(
                "{largest} values are more than one function's offsets reach"
            )));
        }
        let mut builder = JITBuilder::with_isa(isa(fma)?, default_libcall_names());
        builder.symbol("fma", fma_in_rust as *const u8);
        let mut jit = Jit::new(JITModule::new(builder), program, &pieces);
        let built = (|| {
            jit.start();
            emit::emit(program, &mut jit).map_err(JitError::Program)?;
            if let Some(failure) = jit.failure.take() {
                return Err(failure);
            }
            jit.finish()?;
            jit.module.finalize_definitions().map_err(|e| compile(&e))
        })();
        let Jit {
            module,
            ids,
            spill_slots,
            ..
        } = jit;
        if let Err(error) = built {
            // A module is not freed when it is dropped (Cranelift keeps its code valid for
            // any pointer handed out): the functions defined before the failure would
            // stay allocated.
            // SAFETY: no pointer to the module's code was taken, so none of it runs.
            unsafe { module.free_memory() };
            return Err(error);
        }
        let functions = ids
            .iter()
            .map(|&id| {
                let code = module.get_finalized_function(id);
                // SAFETY: the function was compiled with `Function3`'s signature (`Jit::start`).
                unsafe { std::mem::transmute::<*const u8, Function3>(code) }
            })
            .collect();
        let piece_count = pieces.len();
        let mut lengths = [0; MAX_PIECES];
        lengths[..piece_count].copy_from_slice(&pieces);
        Ok(Compiled {
            functions,
            pieces: lengths,
            piece_count,
            inputs: program.inputs,
            outputs: program.outputs,
            spilled: spill_slots,
            module: Mutex::new(Some(module)),
        })
    }

    /// Runs the program: `out[i]` receives output `i`, as [`Program::evaluate`] writes it.
    ///
    /// Panics if `inputs` or `out` are shorter than the program's counts.
    pub fn evaluate(&self, inputs: &[f64], out: &mut [f64]) {
        super::assert_room(self.inputs, self.outputs, inputs, out);
        // The flat inputs cut into the pieces the code was compiled for.
        let mut pieces = [&[][..]; MAX_PIECES];
        let mut rest = inputs;
        for (piece, &length) in pieces.iter_mut().zip(&self.pieces[..self.piece_count]) {
            let (head, tail) = rest.split_at(length.min(rest.len()));
            (*piece, rest) = (head, tail);
        }
        let ran = self.evaluate_pieces(&pieces[..self.piece_count], out);
        assert!(ran, "the inputs cut into the pieces compiled for are read");
    }

    /// [`evaluate`](Self::evaluate) with the inputs in the pieces the program was
    /// compiled for ([`with_pieces`](Self::with_pieces)), read where they lie, if they are
    /// as [`reads`](Self::reads) says: whether it ran (where it did not, nothing is read or
    /// written).
    ///
    /// Panics if `out` is shorter than the program's outputs.
    #[inline]
    #[must_use = "where it did not run, `out` holds what it held before"]
    pub fn evaluate_pieces(&self, pieces: &[&[f64]], out: &mut [f64]) -> bool {
        assert!(
            out.len() >= self.outputs,
            "a program of {} outputs evaluated into {}",
            self.outputs,
            out.len()
        );
        if !self.reads(pieces) {
            return false;
        }
        let mut table = [std::ptr::null::<f64>(); MAX_PIECES];
        for (pointer, piece) in table.iter_mut().zip(pieces) {
            *pointer = piece.as_ptr();
        }
        thread_local! {
            /// Spilled temporaries, kept between calls: each is written before it is read.
            static SPILLED: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
        }
        let mut run = |spilled: *mut f64| {
            for function in &self.functions {
                // SAFETY: the code reads the first `self.pieces[k]` values of piece `k`,
                // writes `self.outputs` of `out` (both checked above) and reads and writes
                // the first `self.spilled` values of `spilled` (its length checked by the
                // caller), as it was compiled to; the module that owns the code lives as
                // long as `self`.
                unsafe { function(table.as_ptr(), out.as_mut_ptr(), spilled) };
            }
        };
        if self.spilled == 0 {
            // One function, or none passing a temporary to another: nothing is spilled.
            run(std::ptr::null_mut());
            return true;
        }
        SPILLED.with_borrow_mut(|spilled| {
            if spilled.len() < self.spilled {
                spilled.resize(self.spilled, 0.0);
            }
            run(spilled.as_mut_ptr())
        });
        true
    }

    /// Whether `pieces` hold the inputs where the code reads them, as laid end to end:
    /// at least as many pieces as it was compiled for, each of the length compiled for,
    /// the last one read at least as long. (A longer piece before it would move the
    /// inputs after it, which the code would not see.)
    #[inline]
    pub fn reads(&self, pieces: &[&[f64]]) -> bool {
        let Some(last) = self.piece_count.checked_sub(1) else {
            return true;
        };
        pieces.len() > last
            && (0..last).all(|k| pieces[k].len() == self.pieces[k])
            && pieces[last].len() >= self.pieces[last]
    }

    /// The number of compiled functions the program became.
    pub fn functions(&self) -> usize {
        self.functions.len()
    }
}

/// How many values the code reads of each of the `pieces` (their lengths) for a program
/// of `inputs` inputs: the pieces up to the last one it reads, that one cut to what it
/// reads. An error where the pieces are too many or too short for the inputs.
fn read_pieces(pieces: &[usize], inputs: usize) -> Result<Vec<usize>, JitError> {
    if pieces.len() > MAX_PIECES {
        return Err(JitError::Compile(format!(
            "inputs in {} pieces, more than {MAX_PIECES}",
            pieces.len()
        )));
    }
    let mut read = Vec::new();
    let mut left = inputs;
    for &length in pieces {
        if left == 0 {
            break;
        }
        read.push(length.min(left));
        left -= length.min(left);
    }
    if left > 0 {
        return Err(JitError::Compile(format!(
            "a program of {inputs} inputs given pieces of {pieces:?}"
        )));
    }
    Ok(read)
}

/// The target: this processor, optimizing for speed; `fma` as [`Fma`] says.
fn isa(fma: Fma) -> Result<OwnedTargetIsa, JitError> {
    let mut flags = settings::builder();
    for (name, value) in [
        ("opt_level", "speed"),
        (
            "enable_verifier",
            if cfg!(debug_assertions) {
                "true"
            } else {
                "false"
            },
        ),
        // The JIT places code anywhere in memory: no short-range calls or relocations.
        ("use_colocated_libcalls", "false"),
        ("is_pic", "false"),
    ] {
        flags
            .set(name, value)
            .map_err(|e| JitError::Compile(format!("{name}: {e}")))?;
    }
    let mut host = cranelift_native::builder().map_err(|e| JitError::Host(e.to_string()))?;
    if fma == Fma::Library && cfg!(target_arch = "x86_64") {
        host.set("has_fma", "false")
            .map_err(|e| JitError::Host(format!("has_fma: {e}")))?;
    }
    host.finish(settings::Flags::new(flags))
        .map_err(|e| JitError::Host(e.to_string()))
}

/// `a * b + c` rounded once: what compiled code calls for `fma` where the processor has
/// no FMA instruction (Rust's `mul_add`, which calls the C library's `fma` there).
extern "C" fn fma_in_rust(a: f64, b: f64, c: f64) -> f64 {
    a.mul_add(b, c)
}

/// The functions compiled code calls, each Rust's own `f64` method.
extern "C" fn sin(x: f64) -> f64 {
    x.sin()
}
extern "C" fn cos(x: f64) -> f64 {
    x.cos()
}
/// `sin x` and `cos x` into `out[0]` and `out[1]`.
extern "C" fn sin_cos(x: f64, out: *mut f64) {
    let (sin, cos) = x.sin_cos();
    // SAFETY: compiled code passes its two-value stack slot (`Jit::start`).
    unsafe {
        out.write(sin);
        out.add(1).write(cos);
    }
}
extern "C" fn exp(x: f64) -> f64 {
    x.exp()
}
extern "C" fn ln(x: f64) -> f64 {
    x.ln()
}
extern "C" fn powi(x: f64, n: i32) -> f64 {
    x.powi(n)
}
extern "C" fn powf(x: f64, e: f64) -> f64 {
    x.powf(e)
}

/// The value of a temporary or output in the function being compiled, and whether this
/// function wrote it (so that a later function may need it stored).
#[derive(Clone, Copy)]
struct Held {
    value: Value,
    written: bool,
}

/// The emitter: builds one Cranelift function at a time, [`CHUNK`] instructions each.
struct Jit<'p> {
    module: JITModule,
    program: &'p Program,
    function: Function,
    block: Block,
    /// The current function's parameters: the inputs' pieces, outputs, spilled
    /// temporaries.
    pointers: [Value; 3],
    /// Each input's piece and place in it.
    inputs: Vec<(usize, usize)>,
    /// The pieces' addresses the current function has loaded.
    bases: [Option<Value>; MAX_PIECES],
    /// Call signatures in the current function: `f64 → f64`, `(f64, i32) → f64`,
    /// `(f64, f64) → f64`, `(f64, pointer) → ()`.
    signatures: [SigRef; 4],
    /// The current function's two values on the stack that `sin_cos` writes.
    pair: StackSlot,
    /// For each instruction that is the sine or the cosine of a value whose other one the
    /// program also takes, that value's number ([`sine_cosine_pairs`]).
    pairs: Vec<Option<usize>>,
    /// The sines and cosines the current function has of the values so numbered.
    sines_cosines: HashMap<usize, [Value; 2]>,
    /// The functions compiled so far.
    ids: Vec<FuncId>,
    /// The index of the instruction being compiled, and of the current function's first.
    index: usize,
    first: usize,
    /// What the current function holds of each temporary and output. (Inputs are loaded
    /// at each use: a load folds into the instruction that reads it, and a value held
    /// across the function would only be spilled.)
    temps: Vec<Option<Held>>,
    outs: Vec<Option<Held>>,
    /// The temporaries and outputs the current function holds, to forget at its end.
    held: Vec<Variable>,
    /// Whether any instruction writes output `i` (its value then is in memory already when
    /// the walk hands over the outputs).
    written: Vec<bool>,
    /// The last instruction reading each temporary.
    last_read: Vec<usize>,
    /// Each temporary's place in the spill buffer, for those that have one.
    spill: Vec<Option<u32>>,
    spill_slots: usize,
    /// The first error of compiling a function the walk had not finished.
    failure: Option<JitError>,
}

impl<'p> Jit<'p> {
    fn new(module: JITModule, program: &'p Program, pieces: &[usize]) -> Jit<'p> {
        // Indices out of range are the walk's to report; here they are skipped.
        let mut last_read = vec![0; program.temporaries.min(program.instructions.len())];
        for (index, instr) in program.instructions.iter().enumerate() {
            for slot in instr.slots().1 {
                if let Slot::Temp(t) = slot
                    && let Some(last) = last_read.get_mut(t)
                {
                    *last = index;
                }
            }
        }
        let temporaries = last_read.len();
        let pairs = sine_cosine_pairs(program);
        let inputs = pieces
            .iter()
            .enumerate()
            .flat_map(|(k, &length)| (0..length).map(move |i| (k, i)))
            .collect();
        Jit {
            module,
            program,
            function: Function::new(),
            block: Block::from_u32(0),
            pointers: [Value::from_u32(0); 3],
            inputs,
            bases: [None; MAX_PIECES],
            signatures: [SigRef::from_u32(0); 4],
            pair: StackSlot::from_u32(0),
            pairs,
            sines_cosines: HashMap::new(),
            ids: Vec::new(),
            index: 0,
            first: 0,
            temps: vec![None; temporaries],
            outs: vec![None; program.outputs],
            held: Vec::new(),
            written: vec![false; program.outputs],
            last_read,
            spill: vec![None; temporaries],
            spill_slots: 0,
            failure: None,
        }
    }

    /// A cursor at the end of the current function's one block.
    fn cursor(&mut self) -> FuncCursor<'_> {
        FuncCursor::new(&mut self.function).at_bottom(self.block)
    }

    /// Begins a function.
    fn start(&mut self) {
        let pointer = self.module.target_config().pointer_type();
        let mut signature = self.module.make_signature();
        signature.params = vec![AbiParam::new(pointer); 3];
        self.function = Function::with_name_signature(UserFuncName::default(), signature);
        self.block = self.function.dfg.make_block();
        self.function.layout.append_block(self.block);
        for k in 0..3 {
            self.pointers[k] = self.function.dfg.append_block_param(self.block, pointer);
        }
        let call = |params: &[types::Type], returns: &[types::Type], module: &JITModule| {
            let mut s: Signature = module.make_signature();
            s.params = params.iter().map(|&t| AbiParam::new(t)).collect();
            s.returns = returns.iter().map(|&t| AbiParam::new(t)).collect();
            s
        };
        let f64_ = [types::F64];
        let shapes = [
            call(&[types::F64], &f64_, &self.module),
            call(&[types::F64, types::I32], &f64_, &self.module),
            call(&[types::F64, types::F64], &f64_, &self.module),
            call(&[types::F64, pointer], &[], &self.module),
        ];
        for (k, shape) in shapes.into_iter().enumerate() {
            self.signatures[k] = self.function.import_signature(shape);
        }
        self.pair = self.function.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            16,
            3,
        ));
        self.sines_cosines.clear();
        self.bases = [None; MAX_PIECES];
        self.first = self.index;
    }

    /// Ends the current function: stores the temporaries a later function reads, returns,
    /// and compiles it.
    fn finish(&mut self) -> Result<(), JitError> {
        let spill = self.pointers[2];
        for variable in std::mem::take(&mut self.held) {
            match variable {
                Variable::Temp(t) => {
                    let Some(held) = self.temps[t].take() else {
                        continue;
                    };
                    if !held.written || self.last_read[t] < self.index {
                        continue;
                    }
                    let slot = match self.spill[t] {
                        Some(slot) => slot,
                        None => {
                            let slot = self.spill_slots as u32;
                            self.spill_slots += 1;
                            self.spill[t] = Some(slot);
                            slot
                        }
                    };
                    self.cursor().ins().store(
                        MemFlagsData::trusted(),
                        held.value,
                        spill,
                        offset(slot as usize),
                    );
                }
                Variable::Out(i) => self.outs[i] = None,
            }
        }
        self.cursor().ins().return_(&[]);
        let compile = |e: &dyn fmt::Display| JitError::Compile(e.to_string());
        let signature = self.function.signature.clone();
        let id = self
            .module
            .declare_anonymous_function(&signature)
            .map_err(|e| compile(&e))?;
        let mut context = self.module.make_context();
        context.func = std::mem::replace(&mut self.function, Function::new());
        context.func.name = UserFuncName::user(0, id.as_u32());
        self.module
            .define_function(id, &mut context)
            .map_err(|e| compile(&format!("{e:?}")))?;
        self.ids.push(id);
        Ok(())
    }

    /// `f(args)` through a pointer to a Rust function of signature `signature`.
    fn call(&mut self, signature: usize, function: *const u8, args: &[Value]) -> Value {
        let call = self.call_indirect(signature, function, args);
        self.function.dfg.first_result(call)
    }

    /// The call instruction of [`call`](Self::call).
    fn call_indirect(
        &mut self,
        signature: usize,
        function: *const u8,
        args: &[Value],
    ) -> cranelift_codegen::ir::Inst {
        let pointer = self.module.target_config().pointer_type();
        let signature = self.signatures[signature];
        let mut cursor = self.cursor();
        let callee = cursor.ins().iconst(pointer, function as i64);
        cursor.ins().call_indirect(signature, callee, args)
    }

    /// `[sin x, cos x]` of the value numbered `pair`: from one call of `sin_cos` in this
    /// function, made at the first of the two.
    fn sine_cosine(&mut self, pair: usize, x: Value) -> [Value; 2] {
        if let Some(&both) = self.sines_cosines.get(&pair) {
            return both;
        }
        let pointer = self.module.target_config().pointer_type();
        let slot = self.pair;
        let address = self.cursor().ins().stack_addr(pointer, slot, 0);
        self.call_indirect(3, sin_cos as *const u8, &[x, address]);
        let both = [0, 8].map(|offset| {
            self.cursor()
                .ins()
                .load(types::F64, MemFlagsData::trusted(), address, offset)
        });
        self.sines_cosines.insert(pair, both);
        both
    }

    /// Loads value `index` of the buffer at parameter `pointer`.
    fn load(&mut self, pointer: usize, index: usize) -> Value {
        let base = self.pointers[pointer];
        self.cursor()
            .ins()
            .load(types::F64, MemFlagsData::trusted(), base, offset(index))
    }
}

/// For each instruction of `program`, a number of the value it takes the sine or cosine
/// of, where the program takes both of that value (a slot between two writes of it); `None`
/// for every other instruction.
fn sine_cosine_pairs(program: &Program) -> Vec<Option<usize>> {
    // Each slot's writes so far: a slot with a count is one value until it is written again.
    let mut writes: HashMap<Slot, usize> = HashMap::new();
    let mut taken: HashMap<(Slot, usize), [bool; 2]> = HashMap::new();
    let mut values = Vec::with_capacity(program.instructions.len());
    for instr in &program.instructions {
        let mut value = None;
        if let Instr::Call(_, f @ (Intrinsic::Sin | Intrinsic::Cos), x) = instr {
            let key = (*x, writes.get(x).copied().unwrap_or(0));
            taken.entry(key).or_default()[usize::from(*f == Intrinsic::Cos)] = true;
            value = Some(key);
        }
        values.push(value);
        *writes.entry(instr.slots().0).or_default() += 1;
    }
    let mut numbers: HashMap<(Slot, usize), usize> = HashMap::new();
    values
        .into_iter()
        .map(|value| {
            let key = value.filter(|key| taken[key] == [true, true])?;
            let next = numbers.len();
            Some(*numbers.entry(key).or_insert(next))
        })
        .collect()
}

/// The byte offset of value `index` (in range: [`Compiled::with_fma`] checks the counts).
fn offset(index: usize) -> i32 {
    (index * 8) as i32
}

impl Emitter for Jit<'_> {
    type Value = Value;

    fn input(&mut self, index: usize) -> Value {
        let (piece, at) = self.inputs[index];
        let base = match self.bases[piece] {
            Some(base) => base,
            None => {
                let pointer = self.module.target_config().pointer_type();
                let table = self.pointers[0];
                // Once in each function, where first used (the function is one block).
                let flags = MemFlagsData::trusted();
                let base = self
                    .cursor()
                    .ins()
                    .load(pointer, flags, table, offset(piece));
                self.bases[piece] = Some(base);
                base
            }
        };
        self.cursor()
            .ins()
            .load(types::F64, MemFlagsData::trusted(), base, offset(at))
    }

    fn literal(&mut self, value: f64) -> Value {
        self.cursor().ins().f64const(value)
    }

    fn variable(&mut self, variable: Variable) -> Value {
        let (held, pointer, index) = match variable {
            Variable::Temp(t) => (self.temps[t], 2, self.spill[t].map(|s| s as usize)),
            Variable::Out(i) => (self.outs[i], 1, Some(i)),
        };
        if let Some(held) = held {
            return held.value;
        }
        if self.index == self.program.instructions.len() {
            // The walk hands over the outputs: a written one is in memory already, and
            // `output` ignores the value given for it.
            return self.literal(0.0);
        }
        // Written by an earlier function (the walk checks it was written): in memory.
        let index = index.expect("a temporary a later function reads is spilled");
        let value = self.load(pointer, index);
        let held = Some(Held {
            value,
            written: false,
        });
        match variable {
            Variable::Temp(t) => self.temps[t] = held,
            Variable::Out(i) => self.outs[i] = held,
        }
        self.held.push(variable);
        value
    }

    fn group(&mut self, x: Value) -> Value {
        x
    }

    fn negate(&mut self, x: Value) -> Value {
        self.cursor().ins().fneg(x)
    }

    fn add(&mut self, a: Value, b: Value) -> Value {
        self.cursor().ins().fadd(a, b)
    }

    fn mul(&mut self, a: Value, b: Value) -> Value {
        self.cursor().ins().fmul(a, b)
    }

    fn mul_add(&mut self, a: Value, b: Value, c: Value) -> Value {
        self.cursor().ins().fma(a, b, c)
    }

    fn div(&mut self, a: Value, b: Value) -> Value {
        self.cursor().ins().fdiv(a, b)
    }

    fn call(&mut self, f: Intrinsic, x: Value) -> Value {
        if let Some(pair) = self.pairs.get(self.index).copied().flatten() {
            let [sin, cos] = self.sine_cosine(pair, x);
            return if f == Intrinsic::Sin { sin } else { cos };
        }
        let function: extern "C" fn(f64) -> f64 = match f {
            Intrinsic::Sqrt => return self.cursor().ins().sqrt(x),
            Intrinsic::Sin => sin,
            Intrinsic::Cos => cos,
            Intrinsic::Exp => exp,
            Intrinsic::Log => ln,
        };
        Jit::call(self, 0, function as *const u8, &[x])
    }

    fn powi(&mut self, x: Value, n: i32) -> Value {
        let n = self.cursor().ins().iconst(types::I32, i64::from(n));
        Jit::call(self, 1, powi as *const u8, &[x, n])
    }

    fn powf(&mut self, x: Value, e: Value) -> Value {
        Jit::call(self, 2, powf as *const u8, &[x, e])
    }

    fn assign(&mut self, variable: Variable, value: Value, _first: bool) {
        let held = Some(Held {
            value,
            written: true,
        });
        match variable {
            Variable::Temp(t) => self.temps[t] = held,
            Variable::Out(i) => {
                let out = self.pointers[1];
                self.cursor()
                    .ins()
                    .store(MemFlagsData::trusted(), value, out, offset(i));
                self.written[i] = true;
                self.outs[i] = held;
            }
        }
        self.held.push(variable);
        self.index += 1;
        if self.index - self.first >= CHUNK && self.index < self.program.instructions.len() {
            // The walk cannot be told; `Compiled::with_fma` reports it after the walk.
            if let Err(e) = self.finish() {
                self.failure.get_or_insert(e);
            }
            self.start();
        }
    }

    fn output(&mut self, index: usize, value: Value) {
        if !self.written[index] {
            let out = self.pointers[1];
            self.cursor()
                .ins()
                .store(MemFlagsData::trusted(), value, out, offset(index));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::emit::spelling_cases;

    /// The values' bits, every NaN as one: IEEE 754 leaves which NaN an operation returns
    /// open (a multiply-add of a negated NaN may keep either sign), and the backends'
    /// promise is a NaN wherever the others give one, the same bits everywhere else.
    fn bits(v: &[f64]) -> Vec<u64> {
        v.iter()
            .map(|x| if x.is_nan() { f64::NAN } else { *x }.to_bits())
            .collect()
    }

    /// `program` at `inputs` three ways: interpreted, compiled with the FMA instructions
    /// (where the processor has them) and compiled without; all must have the same bits.
    fn agree(program: &Program, inputs: &[f64]) {
        let mut reference = vec![f64::NAN; program.outputs];
        program.evaluate(inputs, &mut reference);
        for fma in [Fma::Detect, Fma::Library] {
            let compiled = Compiled::with_fma(program, fma).expect("compiled");
            let mut out = vec![f64::NAN; program.outputs];
            compiled.evaluate(inputs, &mut out);
            assert_eq!(bits(&out), bits(&reference), "{fma:?} at {inputs:?}");
        }
    }

    #[test]
    fn every_spelling_rule_has_the_interpreters_bits() {
        let program = spelling_cases();
        for (x, y) in [(0.7, 1.3), (2.0, 0.25), (1e-3, 7.5)] {
            agree(&program, &[x, y]);
        }
    }

    /// Inputs at the edges of the number line: infinities, NaNs (of both signs, and with a
    /// payload), zeros of both signs, the least subnormal, the greatest finite number.
    #[test]
    fn edge_inputs_have_the_interpreters_bits() {
        let program = spelling_cases();
        let edges = [
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
            f64::from_bits(0x7ff0_0000_dead_beef),
            0.0,
            -0.0,
            5e-324,
            f64::MAX,
            -1.5,
        ];
        for &x in &edges {
            for &y in &edges {
                agree(&program, &[x, y]);
            }
        }
    }

    /// A product's rounding shows: `a·b + c` with one rounding differs from two roundings
    /// here, so a compiled `fma` that rounded twice would fail.
    #[test]
    fn a_fused_multiply_add_rounds_once_with_and_without_the_instruction() {
        let program = Program {
            inputs: 3,
            outputs: 1,
            temporaries: 0,
            constants: vec![],
            instructions: vec![Instr::MulAdd(
                Slot::Out(0),
                [Slot::Input(0), Slot::Input(1), Slot::Input(2)],
            )],
        };
        let (a, b) = (1.0 + f64::EPSILON, 1.0 - f64::EPSILON);
        let c = -1.0;
        assert_ne!(
            a.mul_add(b, c),
            a * b + c,
            "the case tells the roundings apart"
        );
        agree(&program, &[a, b, c]);
        for fma in [Fma::Detect, Fma::Library] {
            let mut out = [0.0];
            Compiled::with_fma(&program, fma)
                .expect("compiled")
                .evaluate(&[a, b, c], &mut out);
            assert_eq!(out[0], -f64::EPSILON * f64::EPSILON, "{fma:?}");
        }
    }

    /// A program of several functions: temporaries written in one and read many
    /// functions later, outputs written twice and read back, every kind of instruction.
    #[test]
    fn a_program_longer_than_one_function_has_the_interpreters_bits() {
        let length = 3 * CHUNK + 123;
        let temporaries = 600;
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut written = vec![false; temporaries];
        let mut instructions = Vec::new();
        for i in 0..length {
            // A written temporary, or an input.
            let read = |next: &mut dyn FnMut(usize) -> usize| {
                let t = next(temporaries);
                if written[t] {
                    Slot::Temp(t)
                } else {
                    Slot::Input(next(3))
                }
            };
            let (a, b, c) = (read(&mut next), read(&mut next), read(&mut next));
            let dst = if i % 97 == 0 {
                Slot::Out(next(8))
            } else {
                Slot::Temp(next(temporaries))
            };
            instructions.push(match i % 7 {
                0 => Instr::Add(dst, vec![a, b, Slot::Const(0)]),
                1 => Instr::Mul(dst, vec![a, Slot::Const(1)]),
                2 => Instr::MulAdd(dst, [a, b, c]),
                3 => Instr::NegMulAdd(dst, [a, Slot::Const(1), c]),
                4 => Instr::Call(dst, Intrinsic::Sin, a),
                5 => Instr::Powi(dst, b, -3),
                _ => Instr::Call(dst, Intrinsic::Cos, b),
            });
            if let Slot::Temp(t) = dst {
                written[t] = true;
            }
            if i % 101 == 0 {
                instructions.push(Instr::Add(Slot::Out(8), vec![Slot::Out(8), a]));
            }
        }
        instructions.insert(0, Instr::Copy(Slot::Out(8), Slot::Input(0)));
        let program = Program {
            inputs: 3,
            outputs: 9,
            temporaries,
            constants: vec![0.25, -0.5],
            instructions,
        };
        let compiled = Compiled::new(&program).expect("compiled");
        assert!(
            compiled.functions() >= 4,
            "{} functions",
            compiled.functions()
        );
        assert!(
            compiled.spilled > 0,
            "no temporary passed between functions"
        );
        agree(&program, &[0.3, -1.1, 2.7]);
    }

    /// The sine and cosine of one value come from one call, and only of one value: not of
    /// a slot written between them, nor of a slot a sine overwrites.
    #[test]
    fn a_sine_and_cosine_of_one_value_have_the_interpreters_bits() {
        use Intrinsic::{Cos, Sin};
        use Slot::{Input, Out, Temp};
        let instructions = vec![
            Instr::Call(Out(0), Sin, Input(0)),
            Instr::Mul(Temp(0), vec![Input(0), Input(1)]),
            Instr::Call(Out(1), Cos, Input(0)),
            Instr::Call(Out(2), Cos, Temp(0)),
            Instr::Call(Out(3), Sin, Temp(0)),
            // Its sine again, then the slot written: the cosine after is of another value.
            Instr::Call(Out(4), Sin, Temp(0)),
            Instr::Add(Temp(0), vec![Temp(0), Input(1)]),
            Instr::Call(Out(5), Cos, Temp(0)),
            // A sine written over its argument: the cosine is of the sine.
            Instr::Copy(Temp(1), Input(1)),
            Instr::Call(Temp(1), Sin, Temp(1)),
            Instr::Call(Out(6), Cos, Temp(1)),
            Instr::Copy(Out(7), Temp(1)),
        ];
        let program = Program {
            inputs: 2,
            outputs: 8,
            temporaries: 2,
            constants: vec![],
            instructions,
        };
        let pairs = sine_cosine_pairs(&program);
        let expected = [Some(0), None, Some(0), Some(1), Some(1), Some(1)];
        assert_eq!(pairs[..6], expected);
        assert_eq!(pairs[6..], [None; 6]);
        for inputs in [
            [0.3, -1.1],
            [-0.0, 5e-324],
            [1e300, -3.0],
            [f64::INFINITY, 2.0],
            [f64::NAN, 1.0],
            [std::f64::consts::PI, 1e-20],
        ] {
            agree(&program, &inputs);
        }
    }

    /// Inputs in pieces are read where they lie, as the interpreter reads them laid end to
    /// end; pieces too many, too few or too short are refused before any code runs.
    #[test]
    fn inputs_in_pieces_have_the_interpreters_bits() {
        use Slot::{Input, Out, Temp};
        let program = Program {
            inputs: 6,
            outputs: 3,
            temporaries: 1,
            constants: vec![],
            instructions: vec![
                Instr::MulAdd(Out(0), [Input(1), Input(2), Input(0)]),
                Instr::Call(Temp(0), Intrinsic::Sin, Input(3)),
                Instr::Mul(Out(1), vec![Temp(0), Input(4), Input(0)]),
                Instr::Powi(Out(2), Input(5), -2),
            ],
        };
        let flat: Vec<f64> = (0..program.inputs).map(|i| 0.3 * i as f64 - 1.1).collect();
        let mut reference = vec![f64::NAN; program.outputs];
        program.evaluate(&flat, &mut reference);
        // The first piece one value, the second two, the rest in the third and beyond
        // what the program reads.
        let mut third = flat[3..].to_vec();
        third.extend([f64::NAN; 4]);
        let pieces = [&flat[..1], &flat[1..3], &third[..]];
        let compiled = Compiled::with_pieces(&program, &[1, 2, third.len()]).expect("compiled");
        assert!(compiled.reads(&pieces));
        let mut out = vec![f64::NAN; program.outputs];
        assert!(compiled.evaluate_pieces(&pieces, &mut out));
        assert_eq!(bits(&out), bits(&reference));
        // The same code given the inputs flat.
        let mut out = vec![f64::NAN; program.outputs];
        compiled.evaluate(&flat, &mut out);
        assert_eq!(bits(&out), bits(&reference));
        // A piece shorter than compiled for, or one missing, is not read.
        assert!(!compiled.reads(&[&flat[..1], &flat[1..2], &third[..]]));
        assert!(!compiled.reads(&pieces[..2]));
        // A longer piece before the last would move the inputs after it.
        assert!(!compiled.reads(&[&flat[..2], &flat[2..3], &third[..]]));
        let mut out = vec![f64::NAN; program.outputs];
        assert!(!compiled.evaluate_pieces(&pieces[..2], &mut out));
        assert!(out.iter().all(|x| x.is_nan()), "nothing written");
        // Pieces that cannot hold the inputs, or more than the code takes.
        assert!(Compiled::with_pieces(&program, &[1, 2]).is_err());
        assert!(Compiled::with_pieces(&program, &[1; MAX_PIECES + 1]).is_err());
    }

    /// The compiled code reads and writes memory unchecked: too few inputs or outputs are
    /// refused before it runs.
    #[test]
    #[should_panic(expected = "evaluated with 1 and")]
    fn too_few_inputs_are_refused_before_the_code_runs() {
        let program = spelling_cases();
        let mut out = vec![0.0; program.outputs];
        Compiled::new(&program)
            .expect("compiled")
            .evaluate(&[0.5], &mut out);
    }

    #[test]
    #[should_panic(expected = "outputs evaluated with 2 and 3")]
    fn too_few_outputs_are_refused_before_the_code_runs() {
        let program = spelling_cases();
        Compiled::new(&program)
            .expect("compiled")
            .evaluate(&[0.5, 1.5], &mut [0.0; 3]);
    }

    #[test]
    fn an_invalid_program_is_an_error() {
        let mut program = spelling_cases();
        program
            .instructions
            .push(Instr::Copy(Slot::Out(0), Slot::Temp(99)));
        assert!(matches!(
            Compiled::new(&program),
            Err(JitError::Program(IrError::Slot { .. }))
        ));
    }

    #[test]
    fn compiled_programs_are_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<Compiled>();
        let program = spelling_cases();
        let compiled = Compiled::new(&program).expect("compiled");
        let mut reference = vec![0.0; program.outputs];
        program.evaluate(&[0.5, 1.5], &mut reference);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    let mut out = vec![0.0; program.outputs];
                    compiled.evaluate(&[0.5, 1.5], &mut out);
                    assert_eq!(bits(&out), bits(&reference));
                });
            }
        });
    }
}

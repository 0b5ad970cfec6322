//! The memory a refused compile costs, measured in a process of its own (the unit tests
//! run beside one another, and their allocations would blur the figures): a program that
//! is invalid is refused before the compiler sizes anything by the counts it claims, and
//! nothing of a refused compile stays allocated.
#![cfg(all(feature = "jit", target_os = "linux"))]

use lagrange_symbolic::ir::jit::{CHUNK, Compiled, JitError};
use lagrange_symbolic::ir::{Instr, Intrinsic, Program, Slot};

/// A line of `/proc/self/status` in kB: `VmRSS` the resident set now, `VmHWM` its peak.
fn status_kb(field: &str) -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| rest.trim_start_matches(':').split_whitespace().next())
        .and_then(|kb| kb.parse().ok())
        .unwrap_or_else(|| panic!("{field} in /proc/self/status"))
}

#[test]
fn a_refused_program_costs_no_memory_that_its_claims_size() {
    // One instruction, reading a temporary never written, in a program claiming 268
    // million outputs: the compiler's tables for them were 2 GB before it was refused.
    let claims = Program {
        inputs: 0,
        outputs: (i32::MAX / 8) as usize,
        temporaries: 0,
        constants: vec![],
        instructions: vec![Instr::Copy(Slot::Out(0), Slot::Temp(5))],
    };
    let peak = status_kb("VmHWM");
    assert!(matches!(Compiled::new(&claims), Err(JitError::Program(_))));
    let grown = status_kb("VmHWM").saturating_sub(peak);
    assert!(grown < 256 * 1024, "the refusal's peak grew by {grown} kB");

    // Eight functions' worth of valid instructions, then one that reads a temporary
    // never written: the functions compiled before the refusal stayed allocated, about
    // 110 kB each time, when the refusal came from the compile itself.
    let mut instructions: Vec<Instr> = (0..8 * CHUNK)
        .map(|_| Instr::Call(Slot::Out(0), Intrinsic::Sin, Slot::Input(0)))
        .collect();
    instructions.push(Instr::Copy(Slot::Out(0), Slot::Temp(0)));
    let late = Program {
        inputs: 1,
        outputs: 1,
        temporaries: 1,
        constants: vec![],
        instructions,
    };
    assert!(Compiled::new(&late).is_err());
    let resident = status_kb("VmRSS");
    for _ in 0..100 {
        assert!(Compiled::new(&late).is_err());
    }
    let grown = status_kb("VmRSS").saturating_sub(resident);
    assert!(grown < 4 * 1024, "100 refusals kept {grown} kB");
}

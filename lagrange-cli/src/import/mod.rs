//! `lagrange import`: a robot described in URDF as a model file
//! ([`import_urdf`]: the engine's translation, written as TOML with `g = 9.81` and the
//! initial configuration), with what it did not use on standard error.

use std::path::PathBuf;

use lagrange_loaded::file::import_urdf;
use lagrange_symbolic::source::{self, urdf};
use lagrange_symbolic::syntax::print::escape_text;

use super::Failure;

/// Arguments of `lagrange import`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The URDF file.
    urdf: PathBuf,
    /// Fold each link attached by a `fixed` joint into its parent (one body with the
    /// combined mass, centre of mass and inertia; its children re-attached to the parent),
    /// so the model has one body per moving part.
    #[arg(long)]
    fixed_joint_merge: bool,
    /// Drive every movable joint by an input `tau_<joint>`, the torque or force on its
    /// coordinate (0 in `[values]`; a signal in `[inputs]` or a controller sets it).
    #[arg(long)]
    actuated: bool,
}

/// Runs `lagrange import`: the model file on standard output, notes on standard error.
pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    let shown = escape_text(&args.urdf.display().to_string());
    let text = source::read_file(&args.urdf).map_err(Failure)?;
    let options = urdf::Options {
        merge_fixed: args.fixed_joint_merge,
        actuated: args.actuated,
    };
    let imported = import_urdf(&text, options).map_err(|e| Failure(format!("{shown}: {e}")))?;
    if !imported.ignored.is_empty() {
        eprintln!(
            "note: ignored (not dynamics): {}",
            imported
                .ignored
                .iter()
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let text = imported.text;
    out!("# Imported from {shown} by `lagrange import`.\n{text}");
    Ok(())
}

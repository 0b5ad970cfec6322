//! Where an expansion's derivation comes from: the engine, through the user-wide cache;
//! or, when the engine is off (the `engine` feature disabled, or `LAGRANGE_OFFLINE=1`),
//! the crate's checked-in `.lagrange/` folder that `lagrange prepare` writes.

use std::path::{Path, PathBuf};

use lagrange_symbolic::equations::Derived;
use lagrange_symbolic::model::{Item, Model, ModelError};
use lagrange_symbolic::store;
use proc_macro2::TokenStream;
use quote::quote;

/// The folder of stored derivations, relative to the crate's manifest.
const OFFLINE_DIR: &str = ".lagrange";

/// The model's derivation, and tokens that make cargo re-expand when what it was taken
/// from changes (the environment switches below, and in an offline build the entry).
pub fn derive(model: &Model) -> Result<(Derived, TokenStream), Vec<ModelError>> {
    let crate_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let offline_dir = crate_dir.join(OFFLINE_DIR);
    let switches = quote! {
        let _ = ::core::option_env!("LAGRANGE_OFFLINE");
        let _ = ::core::option_env!("LAGRANGE_PREPARE");
        let _ = ::core::option_env!("LAGRANGE_PREPARE_CRATE");
        let _ = ::core::option_env!("LAGRANGE_PREPARE_RUN");
    };
    if let Some(reason) = offline_reason() {
        // The model checks need no engine: report their errors with spans first.
        model.check()?;
        let derived = store::read(&offline_dir, model).map_err(|e| {
            error(format!(
                "{e}\n{reason}, so `{}` expands from `{OFFLINE_DIR}/`: run `lagrange prepare` in `{}` with the engine available, and check in `{OFFLINE_DIR}/`",
                model.name,
                crate_dir.display()
            ))
        })?;
        let entry = store::entry_path(&offline_dir, model).display().to_string();
        let tracking = quote!(const _: () = { #switches let _ = ::core::include_bytes!(#entry); };);
        return Ok((derived, tracking));
    }
    engine(model, &crate_dir, &switches)
}

/// Why the engine is not used, if it is not.
fn offline_reason() -> Option<&'static str> {
    if !cfg!(feature = "engine") {
        Some("the engine feature of lagrange is off")
    } else if std::env::var("LAGRANGE_OFFLINE").is_ok_and(|v| v == "1" || v == "true") {
        Some("LAGRANGE_OFFLINE is set")
    } else {
        None
    }
}

/// Derives through the cache; under `lagrange prepare` (`LAGRANGE_PREPARE` names a
/// staging folder, `LAGRANGE_PREPARE_CRATE` the crate being prepared) also stages the
/// entry, for the prepared crate's models only (not those of its dependencies).
#[cfg(feature = "engine")]
fn engine(
    model: &Model,
    crate_dir: &Path,
    switches: &TokenStream,
) -> Result<(Derived, TokenStream), Vec<ModelError>> {
    let derived = store::derive_cached(model, store::cache_dir().as_deref())?;
    let staging = std::env::var_os("LAGRANGE_PREPARE").filter(|d| !d.is_empty());
    let prepared = std::env::var_os("LAGRANGE_PREPARE_CRATE").map(PathBuf::from);
    if let (Some(dir), Some(prepared)) = (staging, prepared)
        && same_folder(crate_dir, &prepared)
    {
        let dir = PathBuf::from(dir);
        store::write(&dir, model, &derived).map_err(|e| {
            error(format!(
                "lagrange prepare: cannot write `{}`: {e}",
                store::entry_path(&dir, model).display()
            ))
        })?;
    }
    Ok((derived, quote!(const _: () = { #switches };)))
}

#[cfg(feature = "engine")]
fn same_folder(a: &Path, b: &Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
}

#[cfg(not(feature = "engine"))]
fn engine(_: &Model, _: &Path, _: &TokenStream) -> Result<(Derived, TokenStream), Vec<ModelError>> {
    unreachable!("without the engine every expansion is offline")
}

fn error(message: String) -> Vec<ModelError> {
    vec![ModelError {
        item: Item::Model,
        message,
    }]
}

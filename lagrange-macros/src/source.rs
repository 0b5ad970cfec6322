//! Where an expansion's derivation comes from: the engine, through the user-wide cache;
//! or, when the engine is off (the `engine` feature disabled, or `LAGRANGE_OFFLINE=1`),
//! the crate's checked-in offline folder that `lagrange prepare` writes. The folder's
//! name, the environment variables and the entry format belong to
//! [`lagrange_symbolic::store`].

use std::path::{Path, PathBuf};

use lagrange_symbolic::equations::Derived;
use lagrange_symbolic::model::{Item, Model, ModelError};
use lagrange_symbolic::store;
use proc_macro2::TokenStream;
use quote::quote;

/// The model's derivation, and tokens that make cargo re-expand when what it was taken
/// from changes (the environment switches of [`store::EXPANSION_ENV`], and in an offline
/// build the entry).
pub(crate) fn derive(model: &Model) -> Result<(Derived, TokenStream), Vec<ModelError>> {
    let crate_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let offline_dir = store::offline_dir(&crate_dir);
    let variables = store::EXPANSION_ENV;
    let switches = quote! { #(let _ = ::core::option_env!(#variables);)* };
    if let Some(reason) = offline_reason() {
        // The model checks need no engine: report their errors with spans first.
        model.check()?;
        let fix = || {
            format!(
                "{reason}, so `{}` expands from `{}/`: run `lagrange prepare` in `{}` with the engine available, and check in `{}/`",
                model.name,
                store::OFFLINE_DIR,
                crate_dir.display(),
                store::OFFLINE_DIR,
            )
        };
        let derived =
            store::read(&offline_dir, model).map_err(|e| error(format!("{e}\n{}", fix())))?;
        let entry = store::entry_path(&offline_dir, model)
            .map_err(|e| error(e.to_string()))?
            .display()
            .to_string();
        let tracking = quote!(const _: () = { #switches let _ = ::core::include_bytes!(#entry); };);
        return Ok((derived, tracking));
    }
    engine(model, &crate_dir, &switches)
}

/// Why the engine is not used, if it is not.
fn offline_reason() -> Option<String> {
    if !cfg!(feature = "engine") {
        Some("the engine feature of lagrange is off".into())
    } else if store::offline_requested() {
        Some(format!("{} is set", store::ENV_OFFLINE))
    } else {
        None
    }
}

/// Derives through the cache (a stale or damaged entry there is derived again and
/// overwritten); under `lagrange prepare` (see [`store::prepare_staging`]) also stages
/// the entry, for the prepared crate's models only (not those of its dependencies).
#[cfg(feature = "engine")]
fn engine(
    model: &Model,
    crate_dir: &Path,
    switches: &TokenStream,
) -> Result<(Derived, TokenStream), Vec<ModelError>> {
    let derived = store::derive_cached(model, store::cache_dir().as_deref())?;
    if let Some((staging, prepared)) = store::prepare_staging()
        && same_folder(crate_dir, &prepared)
    {
        store::write(&staging, model, &derived)
            .map_err(|e| error(format!("lagrange prepare: {e}")))?;
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

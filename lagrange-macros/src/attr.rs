//! Reading `#[lagrangian(...)]` and the struct's fields into a model, keeping the span of
//! every item so that errors point at what is wrong.

use std::collections::HashMap;

use lagrange_symbolic::model::{Item, Model};
use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Ident, LitStr, Type};

/// The model and where each of its items is written.
pub struct Parsed {
    /// Problems found while reading (the model is then partial, but still worth checking).
    pub errors: Option<syn::Error>,
    /// The model read from the attributes and fields.
    pub model: Model,
    /// The span of each item, for errors.
    pub spans: HashMap<Item, Span>,
    /// The struct's field names, in order (they are the parameters).
    pub fields: Vec<Ident>,
}

impl Parsed {
    /// The span to report an error about `item` at.
    pub fn span(&self, item: Item) -> Span {
        self.spans
            .get(&item)
            .or_else(|| self.spans.get(&Item::Model))
            .copied()
            .unwrap_or_else(Span::call_site)
    }
}

/// Reads the derive input; every problem found is collected in [`Parsed::errors`].
pub fn parse(input: &DeriveInput) -> Parsed {
    let mut errors: Vec<syn::Error> = Vec::new();
    let mut model = Model {
        name: input.ident.to_string(),
        ..Model::default()
    };
    let mut spans = HashMap::new();
    spans.insert(Item::Model, input.ident.span());
    let mut fields = Vec::new();

    match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(named) => {
                for field in &named.named {
                    let Some(ident) = &field.ident else { continue };
                    if !is_f64(&field.ty) {
                        errors.push(syn::Error::new(
                            field.ty.span(),
                            format!(
                                "field `{ident}` must be `f64`: every field of a Lagrangian struct is a parameter"
                            ),
                        ));
                    }
                    spans.insert(Item::Parameter(model.parameters.len()), ident.span());
                    model.parameters.push(ident.to_string());
                    fields.push(ident.clone());
                }
            }
            Fields::Unit => {}
            Fields::Unnamed(_) => errors.push(syn::Error::new(
                input.ident.span(),
                "#[derive(Lagrangian)] needs named `f64` fields (the parameters), or none",
            )),
        },
        _ => errors.push(syn::Error::new(
            input.ident.span(),
            "#[derive(Lagrangian)] applies to structs only",
        )),
    }

    let mut found = false;
    for attribute in input
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("lagrangian"))
    {
        found = true;
        spans.insert(Item::Model, attribute.path().span());
        let result = attribute.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(Ident::to_string)
                .unwrap_or_default();
            let mut string = |item: Item, slot: &mut Option<String>| -> syn::Result<()> {
                let lit: LitStr = meta.value()?.parse()?;
                if slot.is_some() {
                    return Err(syn::Error::new(lit.span(), format!("`{key}` is given twice")));
                }
                spans.insert(item, lit.span());
                *slot = Some(lit.value());
                Ok(())
            };
            match key.as_str() {
                "kinetic" => string(Item::Kinetic, &mut model.kinetic),
                "potential" => string(Item::Potential, &mut model.potential),
                "lagrangian" => string(Item::Lagrangian, &mut model.lagrangian),
                "dissipation" => string(Item::Dissipation, &mut model.dissipation),
                "coordinates" => {
                    spans.insert(Item::Coordinates, meta.path.span());
                    meta.parse_nested_meta(|q| {
                        let ident = q.path.require_ident()?;
                        spans.insert(Item::Coordinate(model.coordinates.len()), ident.span());
                        model.coordinates.push(ident.to_string());
                        Ok(())
                    })
                }
                "constraint" => {
                    let lit: LitStr = meta.value()?.parse()?;
                    spans.insert(Item::Constraint(model.constraints.len()), lit.span());
                    model.constraints.push(lit.value());
                    Ok(())
                }
                "ignore" => meta.parse_nested_meta(|chi| {
                    let ident = chi.path.require_ident()?;
                    spans.insert(Item::Ignore(model.ignore.len()), ident.span());
                    model.ignore.push(ident.to_string());
                    Ok(())
                }),
                "force" => meta.parse_nested_meta(|force| {
                    let q = force.path.require_ident()?.to_string();
                    let lit: LitStr = force.value()?.parse()?;
                    spans.insert(Item::Force(model.forces.len()), lit.span());
                    model.forces.push((q, lit.value()));
                    Ok(())
                }),
                _ => Err(meta.error(format!(
                    "unknown key `{key}`: expected coordinates(...), kinetic, potential, lagrangian, force(q = \"...\"), dissipation, constraint or ignore(...)"
                ))),
            }
        });
        if let Err(e) = result {
            errors.push(e);
        }
    }
    if !found {
        errors.push(syn::Error::new(
            input.ident.span(),
            "missing #[lagrangian(coordinates(...), kinetic = \"...\", potential = \"...\")]",
        ));
    }
    if model.coordinates.is_empty() {
        spans.remove(&Item::Coordinates);
    }

    Parsed {
        errors: combine(errors),
        model,
        spans,
        fields,
    }
}

/// All errors as one (syn reports each at its own span), or `None`.
pub fn combine(errors: impl IntoIterator<Item = syn::Error>) -> Option<syn::Error> {
    errors.into_iter().reduce(|mut all, e| {
        all.combine(e);
        all
    })
}

fn is_f64(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none() && p.path.is_ident("f64"))
}

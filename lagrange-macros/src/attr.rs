//! Reading `#[lagrangian(...)]` and the struct's fields into a model, keeping the span of
//! every item so that errors point at what is wrong.

use std::collections::HashMap;

use lagrange_symbolic::equations::info::Omitted;
use lagrange_symbolic::model::{Axis, Body, Draw, Item, Joint, Model, Particle, Rotation};

use crate::file::{Kind, ModelSource, Request};

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Ident, LitStr, Type};

/// The model and where each of its items is written.
pub(crate) struct Parsed {
    /// Problems found while reading (the model is then partial, but still worth checking).
    pub errors: Option<syn::Error>,
    /// The model read from the attributes and fields.
    pub model: Model,
    /// The span of each item, for errors.
    pub spans: HashMap<Item, Span>,
    /// The struct's field names, in order (they are the parameters).
    pub fields: Vec<Ident>,
    /// The file the model was read from (`model = "…"` or `urdf = "…"`), if it was.
    pub file: Option<ModelSource>,
    /// Whether the attribute names a file that could not give the model: the model's own
    /// checks would then only add noise ("no coordinates", …) to the real error.
    pub file_failed: bool,
    /// The groups of functions `omit(...)` leaves out of the generated code.
    pub omitted: Omitted,
}

impl Parsed {
    /// The span to report an error about `item` at.
    pub(crate) fn span(&self, item: Item) -> Span {
        self.spans
            .get(&item)
            .or_else(|| self.spans.get(&Item::Model))
            .copied()
            .unwrap_or_else(Span::call_site)
    }
}

/// Reads the derive input; every problem found is collected in [`Parsed::errors`].
pub(crate) fn parse(input: &DeriveInput) -> Parsed {
    let mut errors: Vec<syn::Error> = Vec::new();
    let mut model = Model {
        name: input.ident.to_string(),
        ..Model::default()
    };
    let mut spans = HashMap::new();
    spans.insert(Item::Model, input.ident.span());
    spans.insert(Item::Name, input.ident.span());
    let fields = parameters(input, &mut model, &mut spans, &mut errors);
    let Attributes {
        request,
        omitted,
        written_keys,
    } = attributes(input, &mut model, &mut spans, &mut errors);
    if model.coordinates.is_empty() {
        spans.remove(&Item::Coordinates);
    }
    let mut file = None;
    let file_failed = request.is_some();
    if let Some(request) = request {
        match from_file(&request, &written_keys, &fields) {
            Ok((source, read)) => {
                model = Model {
                    name: model.name,
                    ..read
                };
                spans.clear();
                spans.insert(Item::Model, request.path.span());
                file = Some(source);
            }
            Err(e) => errors.push(e),
        }
    }

    Parsed {
        errors: combine(errors),
        model,
        spans,
        fields,
        file_failed: file_failed && file.is_none(),
        file,
        omitted,
    }
}

/// Reads the struct's fields as the model's parameters, each with its span, and returns
/// their names in order; a field that is not `f64`, or a struct without named fields, is
/// an error.
fn parameters(
    input: &DeriveInput,
    model: &mut Model,
    spans: &mut HashMap<Item, Span>,
    errors: &mut Vec<syn::Error>,
) -> Vec<Ident> {
    let mut fields = Vec::new();
    match &input.data {
        Data::Struct(data) => match &data.fields {
            syn::Fields::Named(named) => {
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
            syn::Fields::Unit => {}
            syn::Fields::Unnamed(_) => errors.push(syn::Error::new(
                input.ident.span(),
                "#[derive(Lagrangian)] needs named `f64` fields (the parameters), or none",
            )),
        },
        _ => errors.push(syn::Error::new(
            input.ident.span(),
            "#[derive(Lagrangian)] applies to structs only",
        )),
    }
    fields
}

/// What the `#[lagrangian(...)]` attributes say besides the model they write.
struct Attributes {
    /// The file to read the model from, if a key names one.
    request: Option<Request>,
    /// The groups of functions `omit(...)` leaves out.
    omitted: Omitted,
    /// Where each key other than the file's is written, which a file's model leaves out.
    written_keys: Vec<(String, Span)>,
}

/// Reads every `#[lagrangian(...)]` attribute, key by key, into the model; a missing
/// attribute is an error.
fn attributes(
    input: &DeriveInput,
    model: &mut Model,
    spans: &mut HashMap<Item, Span>,
    errors: &mut Vec<syn::Error>,
) -> Attributes {
    let mut found = false;
    let mut request: Option<Request> = None;
    let mut omitted = Omitted::NONE;
    let mut written_keys: Vec<(String, Span)> = Vec::new();
    for attribute in input
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("lagrangian"))
    {
        found = true;
        spans.insert(Item::Model, attribute.path().span());
        let result = attribute.parse_nested_meta(|meta| {
            if meta.path.is_ident("omit") {
                if let Err(e) = omit(&meta, &mut omitted) {
                    errors.push(e);
                    skip_value(meta.input)?;
                }
                return Ok(());
            }
            match file_key(&meta, &mut request) {
                Ok(true) => return Ok(()),
                Ok(false) => {}
                Err(e) => {
                    errors.push(e);
                    skip_value(meta.input)?;
                    return Ok(());
                }
            }
            written_keys.push((key_name(&meta), meta.path.span()));
            // A bad key is reported and its value skipped, so the keys after it are still
            // read (and their absence is not reported as well).
            if let Err(e) = read_key(&meta, model, spans) {
                errors.push(e);
                skip_value(meta.input)?;
            }
            Ok(())
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
    Attributes {
        request,
        omitted,
        written_keys,
    }
}

/// Reads `omit(variational, derivatives)`: the groups of functions left out of the
/// generated code, whether the model is written or read from a file. Every name in the
/// list is read; the errors come together.
fn omit(meta: &syn::meta::ParseNestedMeta<'_>, omitted: &mut Omitted) -> syn::Result<()> {
    const GROUPS: &str = "`variational` (momentum_rate, momentum_jacobian, lagrangian_hessian) and `derivatives` (residual_jacobians and what needs them)";
    if !meta.input.peek(syn::token::Paren) {
        return Err(
            meta.error("omit lists the groups to leave out: omit(variational, derivatives)")
        );
    }
    let content;
    syn::parenthesized!(content in meta.input);
    let groups = syn::punctuated::Punctuated::<Ident, syn::Token![,]>::parse_terminated(&content)?;
    let mut errors = Vec::new();
    if groups.is_empty() {
        errors.push(meta.error(format!("omit() names no group: it takes {GROUPS}")));
    }
    for group in &groups {
        let slot = if group == "variational" {
            &mut omitted.variational
        } else if group == "derivatives" {
            &mut omitted.derivatives
        } else {
            errors.push(syn::Error::new(
                group.span(),
                format!("omit(...) takes {GROUPS}"),
            ));
            continue;
        };
        if *slot {
            errors.push(syn::Error::new(
                group.span(),
                format!("`{group}` is given twice in omit(...)"),
            ));
        }
        *slot = true;
    }
    combine(errors).map_or(Ok(()), Err)
}

/// Reads `model = "…"`, `urdf = "…"`, `fixed_joint_merge` or `actuated` into
/// `request`; `false` for any other key.
fn file_key(
    meta: &syn::meta::ParseNestedMeta<'_>,
    request: &mut Option<Request>,
) -> syn::Result<bool> {
    let key = key_name(meta);
    if key == "fixed_joint_merge" || key == "actuated" {
        let Some(request) = request else {
            return Err(meta.error(format!("`{key}` follows `urdf = \"…\"`")));
        };
        let slot = if key == "actuated" {
            &mut request.actuated
        } else {
            &mut request.merge
        };
        if slot.is_some() {
            return Err(meta.error(format!("`{key}` is given twice")));
        }
        *slot = Some(meta.path.span());
        return Ok(true);
    }
    let Some(kind) = Kind::of_key(&key) else {
        return Ok(false);
    };
    let path: LitStr = meta.value()?.parse()?;
    if request.is_some() {
        return Err(syn::Error::new(
            path.span(),
            "the model is read from one file: `model` or `urdf`, once",
        ));
    }
    *request = Some(Request {
        kind,
        path,
        merge: None,
        actuated: None,
    });
    Ok(true)
}

/// The model of the file `request` names, named after the struct; errors when other keys
/// write parts of the model too, or when the struct's fields are not the file's parameters.
fn from_file(
    request: &Request,
    written_keys: &[(String, Span)],
    fields: &[Ident],
) -> syn::Result<(ModelSource, Model)> {
    let (source, model) = ModelSource::read(request)?;
    if let Some((key, span)) = written_keys.first() {
        return Err(syn::Error::new(
            *span,
            format!(
                "`{key}`: the model is read from `{} = \"…\"`, which gives all of it",
                source.key()
            ),
        ));
    }
    let named: Vec<String> = fields.iter().map(Ident::to_string).collect();
    if named != model.parameters {
        return Err(syn::Error::new(
            request.path.span(),
            format!(
                "the struct's fields are the model's parameters, in order: the file has ({}), the struct ({})",
                model.parameters.join(", "),
                named.join(", ")
            ),
        ));
    }
    Ok((source, model))
}

/// What reads the value of one key of `#[lagrangian(...)]` into the model, with the span of
/// each item it writes.
type Reader =
    fn(&syn::meta::ParseNestedMeta<'_>, &mut Model, &mut HashMap<Item, Span>) -> syn::Result<()>;

/// A key of `#[lagrangian(...)]` that writes part of the model.
struct Key {
    /// The key as written.
    name: &'static str,
    /// The key as the error for an unknown key lists it, with the form of its value.
    shown: &'static str,
    /// Reads its value.
    read: Reader,
}

/// The keys that write the model, in the order the error for an unknown key lists them:
/// [`read_key`] finds a key's reader here and that error lists this table, so a key read is
/// a key listed.
const KEYS: &[Key] = &[
    Key {
        name: "coordinates",
        shown: "coordinates(...)",
        read: coordinates,
    },
    Key {
        name: "kinetic",
        shown: "kinetic",
        read: |meta, model, spans| string(meta, Item::Kinetic, &mut model.kinetic, spans),
    },
    Key {
        name: "potential",
        shown: "potential",
        read: |meta, model, spans| string(meta, Item::Potential, &mut model.potential, spans),
    },
    Key {
        name: "lagrangian",
        shown: "lagrangian",
        read: |meta, model, spans| string(meta, Item::Lagrangian, &mut model.lagrangian, spans),
    },
    Key {
        name: "force",
        shown: "force(q = \"...\")",
        read: force,
    },
    Key {
        name: "dissipation",
        shown: "dissipation",
        read: |meta, model, spans| string(meta, Item::Dissipation, &mut model.dissipation, spans),
    },
    Key {
        name: "gravity",
        shown: "gravity = [...]",
        read: gravity,
    },
    Key {
        name: "constraint",
        shown: "constraint",
        read: |meta, model, spans| listed(meta, Item::Constraint, &mut model.constraints, spans),
    },
    Key {
        name: "velocity_constraint",
        shown: "velocity_constraint",
        read: |meta, model, spans| {
            listed(
                meta,
                Item::VelocityConstraint,
                &mut model.velocity_constraints,
                spans,
            )
        },
    },
    Key {
        name: "particle",
        shown: "particle(...)",
        read: particle,
    },
    Key {
        name: "body",
        shown: "body(...)",
        read: body,
    },
    Key {
        name: "inputs",
        shown: "inputs(...)",
        read: |meta, model, spans| names(meta, Item::Input, &mut model.inputs, spans),
    },
    Key {
        name: "ignore",
        shown: "ignore(...)",
        read: |meta, model, spans| names(meta, Item::Ignore, &mut model.ignore, spans),
    },
    Key {
        name: "draw",
        shown: "draw(...)",
        read: draw,
    },
];

/// Reads one key of `#[lagrangian(...)]` into the model.
fn read_key(
    meta: &syn::meta::ParseNestedMeta<'_>,
    model: &mut Model,
    spans: &mut HashMap<Item, Span>,
) -> syn::Result<()> {
    let key = key_name(meta);
    match KEYS.iter().find(|k| k.name == key) {
        Some(k) => (k.read)(meta, model, spans),
        None => Err(meta.error(format!("unknown key `{key}`: expected {}", shown_keys()))),
    }
}

/// The keys of [`KEYS`] as the error for an unknown key lists them: `a, b, … or z`.
fn shown_keys() -> String {
    let mut shown = String::new();
    for (i, key) in KEYS.iter().enumerate() {
        if i + 1 == KEYS.len() && i > 0 {
            shown.push_str(" or ");
        } else if i > 0 {
            shown.push_str(", ");
        }
        shown.push_str(key.shown);
    }
    shown
}

/// The name of the key `meta` reads (empty for a path that is not one name).
fn key_name(meta: &syn::meta::ParseNestedMeta<'_>) -> String {
    meta.path
        .get_ident()
        .map(Ident::to_string)
        .unwrap_or_default()
}

/// Reads `key = "…"` into `slot`, a key given at most once, with its span at `item`.
fn string(
    meta: &syn::meta::ParseNestedMeta<'_>,
    item: Item,
    slot: &mut Option<String>,
    spans: &mut HashMap<Item, Span>,
) -> syn::Result<()> {
    let lit: LitStr = meta.value()?.parse()?;
    if slot.is_some() {
        return Err(syn::Error::new(
            lit.span(),
            format!("`{}` is given twice", key_name(meta)),
        ));
    }
    spans.insert(item, lit.span());
    *slot = Some(lit.value());
    Ok(())
}

/// Reads `key = "…"` of a key that may be repeated: the value pushed onto `list`, its span
/// at `item` of its index.
fn listed(
    meta: &syn::meta::ParseNestedMeta<'_>,
    item: fn(usize) -> Item,
    list: &mut Vec<String>,
    spans: &mut HashMap<Item, Span>,
) -> syn::Result<()> {
    let lit: LitStr = meta.value()?.parse()?;
    spans.insert(item(list.len()), lit.span());
    list.push(lit.value());
    Ok(())
}

/// Reads `key(a, b, …)`: each name pushed onto `list`, its span at `item` of its index.
fn names(
    meta: &syn::meta::ParseNestedMeta<'_>,
    item: fn(usize) -> Item,
    list: &mut Vec<String>,
    spans: &mut HashMap<Item, Span>,
) -> syn::Result<()> {
    meta.parse_nested_meta(|name| {
        let ident = name.path.require_ident()?;
        spans.insert(item(list.len()), ident.span());
        list.push(ident.to_string());
        Ok(())
    })
}

/// Reads `coordinates(q, …)`.
fn coordinates(
    meta: &syn::meta::ParseNestedMeta<'_>,
    model: &mut Model,
    spans: &mut HashMap<Item, Span>,
) -> syn::Result<()> {
    spans.insert(Item::Coordinates, meta.path.span());
    names(meta, Item::Coordinate, &mut model.coordinates, spans)
}

/// Reads `gravity = ["…", …]`, given at most once.
fn gravity(
    meta: &syn::meta::ParseNestedMeta<'_>,
    model: &mut Model,
    spans: &mut HashMap<Item, Span>,
) -> syn::Result<()> {
    let value: syn::Expr = meta.value()?.parse()?;
    if model.gravity.is_some() {
        return Err(syn::Error::new(value.span(), "`gravity` is given twice"));
    }
    spans.insert(Item::Gravity, value.span());
    model.gravity = Some(strings(&value)?);
    Ok(())
}

/// Reads `force(q = "…", …)`: the generalized force on each coordinate named.
fn force(
    meta: &syn::meta::ParseNestedMeta<'_>,
    model: &mut Model,
    spans: &mut HashMap<Item, Span>,
) -> syn::Result<()> {
    meta.parse_nested_meta(|force| {
        let q = force.path.require_ident()?;
        let lit: LitStr = force.value()?.parse()?;
        spans.insert(Item::ForceCoordinate(model.forces.len()), q.span());
        spans.insert(Item::Force(model.forces.len()), lit.span());
        let q = q.to_string();
        model.forces.push((q, lit.value()));
        Ok(())
    })
}

/// Reads `particle(name = …, mass = "…", position = […])`.
fn particle(
    meta: &syn::meta::ParseNestedMeta<'_>,
    model: &mut Model,
    spans: &mut HashMap<Item, Span>,
) -> syn::Result<()> {
    let item = Item::Particle(model.particles.len());
    spans.insert(item, meta.path.span());
    let (fields, problems) = Fields::parse(meta)?;
    if let Some(key) = fields.body_only() {
        return Err(meta.error(format!("`{key}` is for bodies, not particles")));
    }
    match (fields.name, fields.mass, fields.position) {
        (Some(name), Some(mass), Some(position)) => {
            // Kept despite repeated keys, so that no "no kinetic energy" follows.
            model.particles.push(Particle {
                name,
                mass,
                position,
            });
            problems.map_or(Ok(()), Err)
        }
        _ => Err(problems.unwrap_or_else(|| {
            meta.error("a particle needs `name = …, mass = \"…\", position = [\"…\", …]`")
        })),
    }
}

/// Reads `body(...)`, placed by a rotation and a position or by a joint.
fn body(
    meta: &syn::meta::ParseNestedMeta<'_>,
    model: &mut Model,
    spans: &mut HashMap<Item, Span>,
) -> syn::Result<()> {
    let item = Item::Body(model.bodies.len());
    spans.insert(item, meta.path.span());
    let (fields, problems) = Fields::parse(meta)?;
    match fields {
        Fields {
            name: Some(name),
            mass: Some(mass),
            inertia: Some(inertia),
            position,
            rotation,
            parent,
            joint,
            axis,
            origin,
            rpy,
            com,
            rolls,
        } if (rotation.is_some() && position.is_some()) || joint.is_some() => {
            // The model checks report a mix of the two placements.
            model.bodies.push(Body {
                name,
                mass,
                inertia,
                rotation,
                position: position.unwrap_or_default(),
                parent,
                joint,
                axis: axis.unwrap_or_default(),
                origin: origin.unwrap_or_default(),
                rpy: rpy.unwrap_or_default(),
                com: com.unwrap_or_default(),
                rolls,
            });
            problems.map_or(Ok(()), Err)
        }
        _ => Err(problems.unwrap_or_else(|| meta.error(
            "a body needs `name = …, mass = \"…\", inertia = [\"…\", …]` and either `rotation = …, position = [\"…\", \"…\", \"…\"]` or `joint = revolute(q) | prismatic(q) | fixed` (with `parent`, `axis`, `origin`, `rpy`, `com`)",
        ))),
    }
}

/// Reads `draw(point = name, at = […], link = name)`.
fn draw(
    meta: &syn::meta::ParseNestedMeta<'_>,
    model: &mut Model,
    spans: &mut HashMap<Item, Span>,
) -> syn::Result<()> {
    let item = Item::Draw(model.draw.len());
    spans.insert(item, meta.path.span());
    let mut draw = Draw::default();
    meta.parse_nested_meta(|inner| {
        let key = key_name(&inner);
        match key.as_str() {
            "point" => draw.point = inner.value()?.parse::<Ident>()?.to_string(),
            "at" => draw.at = strings(&inner.value()?.parse()?)?,
            "link" => draw.link = Some(inner.value()?.parse::<Ident>()?.to_string()),
            _ => {
                return Err(inner.error(format!(
                    "unknown key `{key}` in draw(...): expected point = name, at = [\"…\", …], link = name"
                )));
            }
        }
        Ok(())
    })?;
    if draw.point.is_empty() {
        return Err(meta.error("draw(...) needs `point = name`"));
    }
    model.draw.push(draw);
    Ok(())
}

/// Skips what is left of a key (its `= value` or `(...)`), up to the comma before the next.
fn skip_value(input: syn::parse::ParseStream<'_>) -> syn::Result<()> {
    while !input.is_empty() && !input.peek(syn::Token![,]) {
        input.parse::<proc_macro2::TokenTree>()?;
    }
    Ok(())
}

/// All errors as one (syn reports each at its own span), or `None`.
pub(crate) fn combine(errors: impl IntoIterator<Item = syn::Error>) -> Option<syn::Error> {
    errors.into_iter().reduce(|mut all, e| {
        all.combine(e);
        all
    })
}

/// The keys inside `particle(...)` and `body(...)`.
#[derive(Default)]
struct Fields {
    name: Option<String>,
    mass: Option<String>,
    position: Option<Vec<String>>,
    inertia: Option<Vec<String>>,
    rotation: Option<Rotation>,
    parent: Option<String>,
    joint: Option<Joint>,
    axis: Option<Vec<String>>,
    origin: Option<Vec<String>>,
    rpy: Option<Vec<String>>,
    com: Option<Vec<String>>,
    rolls: Option<String>,
}

impl Fields {
    /// Reads `(key = value, …)`: the fields (the first value of a repeated key), and every
    /// bad or repeated key as one error.
    fn parse(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<(Fields, Option<syn::Error>)> {
        let mut fields = Fields::default();
        let mut errors = Vec::new();
        meta.parse_nested_meta(|inner| {
            if let Err(e) = fields.read(&inner) {
                errors.push(e);
                skip_value(inner.input)?;
            }
            Ok(())
        })?;
        Ok((fields, combine(errors)))
    }

    fn read(&mut self, meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<()> {
        let key = key_name(meta);
        match key.as_str() {
            "name" => set(meta, &mut self.name, meta.value()?.parse::<Ident>()?.to_string()),
            "mass" => set(meta, &mut self.mass, meta.value()?.parse::<LitStr>()?.value()),
            "position" => set(meta, &mut self.position, strings(&meta.value()?.parse()?)?),
            "inertia" => set(meta, &mut self.inertia, strings(&meta.value()?.parse()?)?),
            "rotation" => set(meta, &mut self.rotation, rotation(&meta.value()?.parse()?)?),
            "parent" => set(meta, &mut self.parent, meta.value()?.parse::<Ident>()?.to_string()),
            "joint" => set(meta, &mut self.joint, joint(&meta.value()?.parse()?)?),
            "axis" => set(meta, &mut self.axis, strings(&meta.value()?.parse()?)?),
            "origin" => set(meta, &mut self.origin, strings(&meta.value()?.parse()?)?),
            "rpy" => set(meta, &mut self.rpy, strings(&meta.value()?.parse()?)?),
            "com" => set(meta, &mut self.com, strings(&meta.value()?.parse()?)?),
            "rolls" => set(meta, &mut self.rolls, meta.value()?.parse::<LitStr>()?.value()),
            _ => Err(meta.error(format!(
                "unknown key `{key}`: expected name, mass, position, and for a body inertia and rotation, or joint, parent, axis, origin, rpy and com, and rolls"
            ))),
        }
    }

    /// The first key given that only a body takes.
    fn body_only(&self) -> Option<&'static str> {
        [
            ("inertia", self.inertia.is_some()),
            ("rotation", self.rotation.is_some()),
            ("parent", self.parent.is_some()),
            ("joint", self.joint.is_some()),
            ("axis", self.axis.is_some()),
            ("origin", self.origin.is_some()),
            ("rpy", self.rpy.is_some()),
            ("com", self.com.is_some()),
            ("rolls", self.rolls.is_some()),
        ]
        .into_iter()
        .find_map(|(key, given)| given.then_some(key))
    }
}

/// Fills `slot` with the value of the key `meta` names; an error at the key if it is
/// already filled.
fn set<T>(
    meta: &syn::meta::ParseNestedMeta<'_>,
    slot: &mut Option<T>,
    value: T,
) -> syn::Result<()> {
    if slot.is_some() {
        let key = key_name(meta);
        return Err(syn::Error::new(
            meta.path.span(),
            format!("`{key}` is given twice"),
        ));
    }
    *slot = Some(value);
    Ok(())
}

/// `["a", "b", …]` as strings.
fn strings(e: &syn::Expr) -> syn::Result<Vec<String>> {
    let syn::Expr::Array(array) = e else {
        return Err(syn::Error::new(
            e.span(),
            "expected a list of expressions: [\"…\", \"…\"]",
        ));
    };
    array.elems.iter().map(expression).collect()
}

/// A string literal, or a bare name, as expression source.
fn expression(e: &syn::Expr) -> syn::Result<String> {
    match e {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Ok(s.value()),
        syn::Expr::Path(p) if p.path.get_ident().is_some() => {
            Ok(p.path.get_ident().map(Ident::to_string).unwrap_or_default())
        }
        other => Err(syn::Error::new(
            other.span(),
            "expected an expression in quotes, or a name",
        )),
    }
}

/// `revolute(q)`, `prismatic(q)`, `fixed`, `spherical(a, b, c)` or `free(x, y, z, a, b, c)`.
fn joint(e: &syn::Expr) -> syn::Result<Joint> {
    let expected = "expected a joint: revolute(q), prismatic(q), fixed, spherical(a, b, c) or free(x, y, z, a, b, c)";
    match e {
        syn::Expr::Path(p) if p.path.is_ident("fixed") => Ok(Joint::Fixed),
        syn::Expr::Call(call) => {
            let name = match &*call.func {
                syn::Expr::Path(p) => p.path.get_ident().map(Ident::to_string).unwrap_or_default(),
                _ => String::new(),
            };
            let names: Option<Vec<String>> = call
                .args
                .iter()
                .map(|a| match a {
                    syn::Expr::Path(p) => p.path.get_ident().map(Ident::to_string),
                    _ => None,
                })
                .collect();
            let joint = match (name.as_str(), names) {
                ("revolute", Some(q)) if q.len() == 1 => Some(Joint::Revolute(q[0].clone())),
                ("prismatic", Some(q)) if q.len() == 1 => Some(Joint::Prismatic(q[0].clone())),
                ("spherical", Some(q)) => <[String; 3]>::try_from(q).ok().map(Joint::Spherical),
                ("free", Some(q)) => <[String; 6]>::try_from(q).ok().map(Joint::Free),
                _ => None,
            };
            joint.ok_or_else(|| syn::Error::new(call.span(), expected))
        }
        other => Err(syn::Error::new(other.span(), expected)),
    }
}

/// `[9 entries]`, `euler_zxz(φ, θ, ψ)`, `about_x/about_y/about_z(angle)`, or a product
/// of the named forms with `*`.
fn rotation(e: &syn::Expr) -> syn::Result<Rotation> {
    let expected = "expected a rotation: [9 entries, row by row], euler_zxz(phi, theta, psi), about_x(angle) / about_y(angle) / about_z(angle), or a product of these with `*`";
    match e {
        syn::Expr::Binary(b) if matches!(b.op, syn::BinOp::Mul(_)) => {
            let factors = vec![rotation(&b.left)?, rotation(&b.right)?];
            Rotation::product(factors).ok_or_else(|| {
                syn::Error::new(
                    b.span(),
                    "a product of rotations takes about_x/about_y/about_z(angle) and euler_zxz(…) factors, not matrices",
                )
            })
        }
        syn::Expr::Array(_) => Ok(Rotation::Matrix(strings(e)?)),
        syn::Expr::Call(call) => {
            let name = match &*call.func {
                syn::Expr::Path(p) => p.path.get_ident().map(Ident::to_string).unwrap_or_default(),
                _ => String::new(),
            };
            let args = call
                .args
                .iter()
                .map(expression)
                .collect::<syn::Result<Vec<_>>>()?;
            let axis = |a| match args.as_slice() {
                [angle] => Ok(Rotation::About(a, angle.clone())),
                _ => Err(syn::Error::new(
                    call.span(),
                    "about_x/about_y/about_z take one angle",
                )),
            };
            match name.as_str() {
                "euler_zxz" => match args.as_slice() {
                    [phi, theta, psi] => Ok(Rotation::EulerZxz([
                        phi.clone(),
                        theta.clone(),
                        psi.clone(),
                    ])),
                    _ => Err(syn::Error::new(call.span(), "euler_zxz takes three angles")),
                },
                "about_x" => axis(Axis::X),
                "about_y" => axis(Axis::Y),
                "about_z" => axis(Axis::Z),
                _ => Err(syn::Error::new(call.func.span(), expected)),
            }
        }
        other => Err(syn::Error::new(other.span(), expected)),
    }
}

fn is_f64(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none() && p.path.is_ident("f64"))
}

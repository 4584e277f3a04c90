//! A template as the package expands it without a crossing: its variables' names, its
//! literals as expansion writes them, and each expression's rules (RFC 6570, appendix A).
//!
//! Expanding a few strings costs less in JavaScript than the crossing and the two copies of
//! the text that an `expandInput` call takes. The package expands with the plan only values it
//! reads exactly as the module does (strings, numbers, booleans and bigints, of well-formed
//! text, in expansions far from the module's limit), and sends everything else to the module,
//! which stays the one expander of lists, maps and refusals. `npm/test/plan.test.mjs` expands
//! random draws both ways.
//!
//! ```text
//! plan       := [names, part*] | null
//! names      := [name*]
//! part       := literal | [first, sep, named, ifemp, reserved, (name index, prefix)*]
//! ```
//!
//! `names` holds each name once, in the order the template first uses it, so that the package
//! reads each value once. A literal is the text expansion writes for it. `named` and `reserved`
//! are 0 or 1, and a `prefix` is 0 where the variable has none. A template that carries values
//! a partial expansion bound has no plan (`null`): the module expands it with them.

use std::fmt::Write;

use rfc6570::template::Component;
use rfc6570::{Partial, UriTemplate};

use crate::values::Variables;

/// The plan of `template` (see the module's doc), as JSON; `null` if it has bound values. The
/// JSON is written by hand: `serde_json::Value` would add more to the module than the plan
/// saves.
pub fn of(template: &UriTemplate, has_bound_values: bool) -> String {
    if has_bound_values {
        return "null".into();
    }
    let mut names: Vec<&str> = Vec::new();
    for var in template.variables() {
        if !names.contains(&var.name()) {
            names.push(var.name());
        }
    }
    let mut json = String::from("[[");
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            json.push(',');
        }
        string(&mut json, name);
    }
    json.push(']');
    for component in template.components() {
        json.push(',');
        if part(component, &names, &mut json).is_none() {
            return "null".into();
        }
    }
    json.push(']');
    json
}

/// Writes one part of the plan; `None` for a literal the module cannot say how it expands
/// (none that a parsed template holds).
fn part(component: Component<'_>, names: &[&str], json: &mut String) -> Option<()> {
    match component {
        Component::Literal(text) => {
            // Through the module's one expander: `Partial::expand_to` with the package's
            // variables and `dyn Write`, as `Template::expand_into` calls it.
            let (none, mut written) = (Variables::parse("")?, String::new());
            let literal = Partial::from(UriTemplate::parse(text).ok()?);
            literal
                .expand_to(&none, &mut written as &mut dyn Write)
                .ok()?;
            string(json, &written);
        }
        Component::Expression(expression) => {
            let op = expression.operator();
            json.push('[');
            string(json, op.prefix());
            json.push(',');
            string(json, char::from(op.separator()).encode_utf8(&mut [0; 4]));
            let (named, reserved) = (u8::from(op.is_named()), u8::from(op.allows_reserved()));
            write!(json, ",{named},").ok()?;
            string(json, op.if_empty());
            write!(json, ",{reserved}").ok()?;
            for var in expression.variables() {
                let index = names.iter().position(|&name| name == var.name())?;
                write!(json, ",{index},{}", var.prefix().unwrap_or(0)).ok()?;
            }
            json.push(']');
        }
    }
    Some(())
}

/// `text` as a JSON string.
fn string(json: &mut String, text: &str) {
    json.push_str(&serde_json::to_string(text).unwrap_or_default());
}

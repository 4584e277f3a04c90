//! The rules of names a template uses more than once: [`LintKind::RepeatedName`], a warning
//! that the occurrences must agree, and [`LintKind::RepeatedAmbiguous`], which refuses the
//! templates where the places a match chose could not decide agreement.

use super::{Part, Template, Var, push};
use crate::template::lint::{Lint, LintKind};
use crate::template::node::Operator;

/// [`LintKind::RepeatedName`]: a variable whose name an earlier one has. Names compare
/// normalized, as matching compares them (`%61` is `a`).
pub(super) fn repeated_name(t: &Template<'_>, found: &mut Vec<Lint>) {
    let all: Vec<Var> = t.parts.iter().flat_map(Part::vars).collect();
    for v in all.iter().filter(|v| v.is_repeat()) {
        let u = all[v.first as usize];
        let message = format!(
            "`{}` at byte {} repeats the name of `{}` at byte {}: a URI matches only where \
             the two agree",
            t.spec(*v),
            v.position(),
            t.spec(u),
            u.position(),
        );
        push(found, LintKind::RepeatedName, v.position(), message);
    }
}

/// [`LintKind::RepeatedAmbiguous`]: a repeated name whose agreement the places a match chose
/// cannot decide. Either, before its last occurrence in the head, a variable whose place in
/// the URI the template does not fix (so each place must be the only one possible: every
/// expression up to there is followed by a literal whose first character it neither holds
/// nor writes, or ends the head before a query tail it cannot hold the start of; an
/// expression with a repeated name holds no other name; and one whose separator its values
/// can hold, `{.who,who}`, whose occurrences are found by their length, holds whole values
/// only). Or a name with a prefix in one place and exploded in another (`{p:2}/{p*}`): a
/// prefix says its value is a string, and an explode of one item cannot say whether it was.
pub(super) fn repeated_ambiguous(t: &Template<'_>, found: &mut Vec<Lint>) {
    let all: Vec<Var> = t.parts.iter().flat_map(Part::vars).collect();
    let mut uses = vec![0u32; all.len()];
    for v in &all {
        uses[v.first as usize] += 1;
    }
    let repeated: Vec<bool> = all.iter().map(|v| uses[v.first as usize] > 1).collect();
    kind_not_fixed(t, &all, &repeated, found);
    unplaced_before_repeat(t, &repeated, found);
}

/// Part of [`repeated_ambiguous`]: a repeated name spelled two ways (`a`, `%61`), one name to
/// matching and two to expansion; or exploded with a named operator (`{;m*}`), whose map of
/// its own name reads as a list; or exploded where its items can hold their separator
/// (`{.l*}`, `{+l*}`), so that their number is not fixed; or exploded in the query tail,
/// which collects every parameter of its name, its other occurrences' too; or with a prefix
/// in one place and exploded in another, reported at the later of the first two such.
fn kind_not_fixed(t: &Template<'_>, all: &[Var], repeated: &[bool], found: &mut Vec<Lint>) {
    let exploded_repeat = |v: &&Var| v.node.explode && repeated[v.index as usize];
    let first_in_tail = t.head().iter().flat_map(Part::vars).count();
    // Items of `{.l*}` can hold `.`, and of `{+l*}` and `{#l*}` the `,` between them.
    let blurred = all
        .iter()
        .filter(exploded_repeat)
        .find(|v| v.item_holds(v.op.separator()));
    // `{;m*}` of `{"m": "1"}` writes `;m=1`, which reads as the list `["1"]`; elsewhere the
    // map's key is an item of its own.
    let named = all.iter().filter(exploded_repeat).find(|v| v.op.is_named());
    // `a` and `%61` are one name to matching and two to expansion.
    let spelled = all
        .iter()
        .find(|v| v.is_repeat() && t.spec(**v).name() != t.spec(all[v.first as usize]).name());
    let why = if let Some(v) = spelled {
        let first = all[v.first as usize];
        Some((
            v,
            format!(
                "`{}` at byte {} spells the name of `{}` at byte {} otherwise: matching reads \
                 them as one variable (names compare normalized), expansion as two; spell \
                 them alike, or give each its own name",
                t.spec(*v),
                v.position(),
                t.spec(first),
                first.position(),
            ),
        ))
    } else if let Some(v) = named {
        Some((
            v,
            format!(
                "`{}` at byte {} is a named explode of a name used again: of a map whose only \
                 key is its own name it writes what a list writes, so its occurrences cannot \
                 be compared; give it a name of its own",
                t.spec(*v),
                v.position(),
            ),
        ))
    } else if let Some(v) = blurred {
        Some((
            v,
            format!(
                "`{}` at byte {} is exploded, and its items can hold its separator, so where \
                 they end is not fixed, and its name is used again, whose occurrences must \
                 agree item by item; give it a name of its own",
                t.spec(*v),
                v.position(),
            ),
        ))
    } else if let Some(v) = all[first_in_tail..].iter().find(exploded_repeat) {
        Some((
            v,
            format!(
                "`{}` at byte {} is exploded in the query tail, where it collects every \
                 parameter of its name, and its name is used again, so a match cannot tell \
                 which parameters are whose; give it a name of its own",
                t.spec(*v),
                v.position(),
            ),
        ))
    } else {
        all.iter().filter(|v| v.is_repeat()).find_map(|v| {
            let clash = |u: &&Var| {
                u.first == v.first
                    && (u.node.prefix != 0 && v.node.explode
                        || u.node.explode && v.node.prefix != 0)
            };
            let u = all[..v.index as usize].iter().find(clash)?;
            Some((
                v,
                format!(
                    "`{}` at byte {} and `{}` at byte {} are one variable with a prefix in one \
                     place and exploded in the other: the prefix says its value is a string, \
                     and an explode of one item cannot say whether it was, so a match cannot \
                     tell what the URI gives it; drop the prefix or the explode",
                    t.spec(*u),
                    u.position(),
                    t.spec(*v),
                    v.position(),
                ),
            ))
        })
    };
    if let Some((v, message)) = why {
        push(found, LintKind::RepeatedAmbiguous, v.position(), message);
    }
}

/// Part of [`repeated_ambiguous`]: before a repeated name's last occurrence in the
/// head, an expression whose place the URI does not fix.
fn unplaced_before_repeat(t: &Template<'_>, repeated: &[bool], found: &mut Vec<Lint>) {
    let head = t.head();
    let is_repeated = |v: &Var| repeated[v.index as usize];
    let Some(last) = head.iter().rposition(|p| p.vars().any(|v| is_repeated(&v))) else {
        return;
    };
    for (i, part) in head[..=last].iter().enumerate() {
        let Part::Expression {
            op,
            vars,
            text,
            start,
        } = part
        else {
            continue;
        };
        let has_repeat = vars.iter().any(is_repeated);
        let Some(why) = unplaced(t, *op, vars, has_repeat, head.get(i + 1)) else {
            continue;
        };
        let message = format!(
            "`{text}` at byte {start} comes before a repeated name's last occurrence, and {why}, \
             so a match could place the occurrences where they disagree while another \
             placing agrees; put a literal it cannot hold after it, or give each occurrence \
             its own name"
        );
        push(found, LintKind::RepeatedAmbiguous, *start, message);
        return;
    }
}

/// Why an expression of the head, before a repeated name's last occurrence, has no place the
/// URI fixes, if it has none (see [`repeated_ambiguous`]).
fn unplaced(
    t: &Template<'_>,
    op: Operator,
    vars: &[Var],
    has_repeat: bool,
    next: Option<&Part<'_>>,
) -> Option<&'static str> {
    let holds = |b: u8| vars.iter().any(|v| v.holds_leniently(b));
    let writes = |b: u8| {
        op.prefix().as_bytes().first() == Some(&b)
            || vars.len() > 1 && b == op.separator()
            || op.is_named() && b == b'='
    };
    match next {
        Some(Part::Expression { .. }) => {
            return Some("another expression follows it with no literal between");
        }
        Some(Part::Literal { text, .. }) => {
            let b = text.as_bytes()[0];
            if b == b'%' || !b.is_ascii() || holds(b) || writes(b) {
                return Some("the literal after it starts with a character it can hold or write");
            }
        }
        None if t.tail().iter().any(|tail| match tail {
            Part::Expression { op, .. } => holds(op.prefix().as_bytes()[0]),
            Part::Literal { .. } => false,
        }) =>
        {
            return Some("it can hold the `?` or `&` that starts the query tail after it");
        }
        None => {}
    }
    if !has_repeat || vars.len() == 1 {
        return None;
    }
    if vars.iter().any(|v| v.first != vars[0].first) {
        return Some("it holds a repeated name beside another name");
    }
    let by_length = vars[0].holds_leniently(op.separator());
    if by_length && vars.iter().any(|v| v.node.prefix != 0 || v.node.explode) {
        return Some(
            "its values can hold its separator, and a prefix or exploded occurrence has no \
             length to find it by",
        );
    }
    None
}

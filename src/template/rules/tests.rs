//! Each rule on the shapes that break it and the nearby shapes that do not, with its sentence.

use super::*;
use crate::template::Parsed;

/// The kind and position of each lint of `template`.
fn found(template: &str) -> Vec<(LintKind, usize)> {
    Parsed::parse(template)
        .unwrap()
        .lints()
        .iter()
        .map(|l| (l.kind(), l.position()))
        .collect()
}

fn messages(template: &str) -> Vec<String> {
    Parsed::parse(template)
        .unwrap()
        .lints()
        .iter()
        .map(|l| l.to_string())
        .collect()
}

use LintKind::*;

#[test]
fn clean_templates_have_no_lints() {
    for t in [
        "",
        "config://app",
        "file:///{+path}",
        "file:///{+path}{?rev}",
        "file:///{+path}{#section}",
        "log://build/{job_id}{?lines}",
        "search://docs{?q,lang}",
        "x://r{/p*}",
        "{/path*}{?q}",
        "{a}/{b}",
        "{name}.txt",
        "{a}.{b}",
        "{a,b}",
        "{a:3,b}",
        "{+a}?{+b}",
        "{/a*}:{/b*}",
        "{a}{/b}",
        "{a}{?q}",
        "{+a}{?q}",
        "{+a}{#f}",
        "{a}{;b}",
        "{;a,b}",
        "{?a,b}{&c}",
        "{/a,b}",
        "x{?a}#{f}",
        "users://{id}/profile",
        "notes://{id}",
    ] {
        assert_eq!(found(t), [], "{t}");
    }
}

#[test]
fn adjacent_variables() {
    assert_eq!(found("{a}{b}"), [(AdjacentVariables, 4)]);
    assert_eq!(found("{+path}{ext}"), [(AdjacentVariables, 8)]);
    assert_eq!(found("{a}{+b}"), [(AdjacentVariables, 5)]);
    // A prefix that the first variable can hold.
    assert_eq!(found("{a}{.b}"), [(AdjacentVariables, 5)]);
    assert_eq!(found("{+a}{/b}"), [(AdjacentVariables, 6)]);
    assert_eq!(found("{/a*}{/b}"), [(AdjacentVariables, 7)]);
    // (Refused too: the `&` could belong to `{+a}`.)
    assert_eq!(
        found("{+a}{&q}"),
        [(AmbiguousQueryStart, 0), (AdjacentVariables, 6)]
    );
    // A separator the first variable can hold, inside one expression.
    assert_eq!(found("{.a,b}"), [(AdjacentVariables, 4)]);
    assert_eq!(found("{/a*,b}"), [(AdjacentVariables, 5)]);
    // The last variable of one expression and the first of the next.
    assert_eq!(found("x{a,b}{c}"), [(AdjacentVariables, 7)]);
    // Each pair once, in order.
    assert_eq!(
        found("{a}{b}{c}"),
        [(AdjacentVariables, 4), (AdjacentVariables, 7)]
    );
    assert_eq!(
        messages("{+path}{ext}"),
        [
            "`ext` at byte 8 follows `path` with no literal between them, so where one ends \
          is ambiguous; put a literal between them"
        ]
    );
    assert_eq!(
        messages("{a}{.b}"),
        [
            "`b` at byte 5 follows `a` with only the `.` that `{.b}` writes between them, \
          which `a` can hold too, so where one ends is ambiguous; put a literal between them"
        ]
    );
    assert_eq!(
        messages("{.a,b}"),
        [
            "`b` at byte 4 follows `a` in `{.a,b}` with only its separator `.` between them, \
          which `a` can hold too, so where one ends is ambiguous; split them into two \
          expressions with a literal between them"
        ]
    );
}

#[test]
fn several_crossing() {
    assert_eq!(found("{+a}/{+b}"), [(SeveralCrossing, 7)]);
    assert_eq!(found("{+a,b}"), [(SeveralCrossing, 4)]);
    assert_eq!(found("x{/p*}/{+q}"), [(SeveralCrossing, 9)]);
    // The `#` of `{#..}` ends `{/p*}`.
    assert_eq!(found("x{/p*}/y{#f}"), []);
    assert_eq!(found("{#f}/{+g}"), [(SeveralCrossing, 7)]);
    // Every later one, naming the first still open.
    assert_eq!(
        found("{+a}/{+b}/{+c}"),
        [(SeveralCrossing, 7), (SeveralCrossing, 12)]
    );
    // A `?` ends `{+a}`, but not a `{#..}`'s value.
    assert_eq!(found("{+a}?{+b}"), []);
    assert_eq!(found("{#a}?{+b}"), [(SeveralCrossing, 7)]);
    // Adjacent as well: two lints of the same variable, adjacency first.
    assert_eq!(
        found("{+a}{+b}"),
        [(AdjacentVariables, 6), (SeveralCrossing, 6)]
    );
    assert_eq!(
        messages("{+a}/{+b}"),
        [
            "`b` at byte 7 can cross `/`, and so can `a` at byte 2 before it, with nothing \
          between them that ends it, so where one ends is ambiguous; let only one of them \
          cross `/` (`{v}` and `{/v}` cannot)"
        ]
    );
}

#[test]
fn repeated_name() {
    assert_eq!(found("{x}/{x}"), [(RepeatedName, 5)]);
    assert_eq!(found("{/var:1,var}"), [(RepeatedName, 8)]);
    assert_eq!(
        found("{.who,who}"),
        [(AdjacentVariables, 6), (RepeatedName, 6)]
    );
    assert_eq!(
        found("{x}/{y}/{x}/{x}"),
        [(RepeatedName, 9), (RepeatedName, 13)]
    );
    assert_eq!(found("o/{h:2}/{h}"), [(RepeatedName, 9)]);
    // Spelled two ways, one name to matching and two to expansion: refused.
    assert_eq!(
        found("x{?a,%61}"),
        [(RepeatedName, 5), (RepeatedAmbiguous, 5)]
    );
    assert_eq!(found("{x}/{xy}"), []);
    assert_eq!(
        messages("{x}/{x}"),
        ["`x` at byte 5 repeats the name of `x` at byte 1: a URI matches only where the two agree"]
    );
}

#[test]
fn repeated_ambiguous() {
    // Before a repeated name's last occurrence, every expression must end at a literal it
    // neither holds nor writes.
    assert_eq!(
        found("{+x}/{+x}"),
        [
            (RepeatedAmbiguous, 0),
            (SeveralCrossing, 7),
            (RepeatedName, 7)
        ]
    );
    assert_eq!(
        found("{a}.{x}.{x}"),
        [(RepeatedAmbiguous, 0), (RepeatedName, 9)]
    );
    assert_eq!(
        found("{/a}/{x}/{x}"),
        [(RepeatedAmbiguous, 0), (RepeatedName, 10)]
    );
    assert_eq!(
        found("{/a}{/x}/{x}"),
        [(RepeatedAmbiguous, 0), (RepeatedName, 10)]
    );
    // A repeated name shares its expression with no other name.
    assert_eq!(
        found("{a,b,a}"),
        [(RepeatedAmbiguous, 0), (RepeatedName, 5)]
    );
    // Found by length only where each occurrence is whole.
    assert_eq!(
        found("{.v:1,v}"),
        [
            (RepeatedAmbiguous, 0),
            (PrefixNextToVariable, 6),
            (RepeatedName, 6)
        ]
    );
    assert_eq!(
        found("{.v*,v}"),
        [
            (RepeatedAmbiguous, 0),
            (RepeatedAmbiguous, 2),
            (AdjacentVariables, 5),
            (RepeatedName, 5)
        ]
    );
    // An explode whose items can hold its separator, in the query tail, or beside a prefix
    // cannot say what its value is.
    assert_eq!(
        found("x/{l}/{.l*}/"),
        [(RepeatedName, 8), (RepeatedAmbiguous, 8)]
    );
    assert_eq!(
        found("x/{l}/{+l*}/"),
        [
            (RepeatedAmbiguous, 6),
            (RepeatedName, 8),
            (RepeatedAmbiguous, 8)
        ]
    );
    assert_eq!(found("x/{l}/x{/l*}"), [(RepeatedName, 9)]);
    // A named explode of its own name's map reads as a list.
    assert_eq!(
        found("x/{l}/{;l*}/"),
        [(RepeatedName, 8), (RepeatedAmbiguous, 8)]
    );
    assert_eq!(
        found("x/{l}{?l*}"),
        [(RepeatedName, 7), (RepeatedAmbiguous, 7)]
    );
    assert_eq!(
        found("x/{p:2}/{p*}/"),
        [(RepeatedName, 9), (RepeatedAmbiguous, 9)]
    );
    // The last occurrence is placed too; what follows it, and the query tail, are not.
    assert_eq!(
        found("x/{a}/{a}{+rest}"),
        [
            (RepeatedAmbiguous, 6),
            (RepeatedName, 7),
            (AdjacentVariables, 11)
        ]
    );
    assert_eq!(
        found("x/{a}/{a}/{+rest}{+more}"),
        [
            (RepeatedName, 7),
            (AdjacentVariables, 19),
            (SeveralCrossing, 19)
        ]
    );
    assert_eq!(found("x/{q}{?q}"), [(RepeatedName, 7)]);
    assert_eq!(found("x/{+q}{?q}"), [(RepeatedName, 8)]);
    // A `{v}` can hold the `&` that starts a `{&..}` tail, as clients send it.
    assert_eq!(
        found("x/{q}{&q}"),
        [(RepeatedAmbiguous, 2), (RepeatedName, 7)]
    );
    assert_eq!(
        messages("{a}.{x}.{x}")[0],
        "`{a}` at byte 0 comes before a repeated name's last occurrence, and the literal after \
         it starts with a character it can hold or write, so a match could place the \
         occurrences where they disagree while another placing agrees; put a literal it \
         cannot hold after it, or give each occurrence its own name"
    );
}

#[test]
fn query_after_fragment() {
    assert_eq!(found("{#f}{?q}"), [(QueryAfterFragment, 4)]);
    assert_eq!(found("x#y{?q}"), [(QueryAfterFragment, 3)]);
    assert_eq!(found("x{#f}/{&q}"), [(QueryAfterFragment, 6)]);
    // Each query expression after the fragment.
    assert_eq!(
        found("#{?a}{&b}"),
        [(QueryAfterFragment, 1), (QueryAfterFragment, 5)]
    );
    assert_eq!(found("x{?q}#y"), []);
    assert_eq!(found("x{?q}{#f}"), []);
    assert_eq!(
        messages("{#f}{?q}"),
        [
            "`{?q}` at byte 4 follows the fragment that `{#f}` at byte 0 starts, and in a URI \
             everything after `#` is fragment, so the template cannot be matched; move it \
             before the fragment"
        ]
    );
    assert_eq!(
        messages("x#y{?q}"),
        [
            "`{?q}` at byte 3 follows the fragment that the `#` at byte 1 starts, and in a URI \
          everything after `#` is fragment, so the template cannot be matched; move it \
          before the fragment"
        ]
    );
}

#[test]
fn prefix_next_to_variable() {
    assert_eq!(found("{a:3}{b}"), [(PrefixNextToVariable, 6)]);
    assert_eq!(found("{a}{b:2}"), [(PrefixNextToVariable, 4)]);
    assert_eq!(found("{a:3}{.b}"), [(PrefixNextToVariable, 7)]);
    assert_eq!(found("{a:3}/{b}"), []);
    assert_eq!(found("{a:3,b}"), []);
    assert_eq!(
        messages("{a:3}{b}"),
        [
            "`b` at byte 6 follows the prefix variable `a:3` with no literal between them, so \
          where one ends is ambiguous; put a literal between them, or drop the prefix \
          modifier"
        ]
    );
}

#[test]
fn lints_come_in_template_order() {
    let t = "{#f}{?q}{x}{x}";
    assert_eq!(
        found(t),
        [
            (RepeatedAmbiguous, 0),
            (QueryAfterFragment, 4),
            (AdjacentVariables, 9),
            (AdjacentVariables, 12),
            (RepeatedName, 12)
        ]
    );
}

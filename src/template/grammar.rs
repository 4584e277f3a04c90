//! The template grammar of RFC 6570 §2, written with `nom`.
//!
//! [`parse`] validates a whole template in one pass over its bytes and emits the flat node array
//! of [`crate::template`]. It borrows the source and allocates once: the node vector, sized up
//! front from an upper bound (a header per expression, a literal before each expression and one
//! after the last, a variable per comma plus one per expression), so that no token causes an
//! allocation.
//!
//! Where the grammar and the official test suite disagree, the suite wins: RFC 6570's ABNF leaves
//! `'` (U+0027) out of `literals`, but the suite's spec examples expand `'{var}'`, so `'` is
//! accepted as a literal.

use nom::branch::alt;
use nom::bytes::complete::{take_while_m_n, take_while1};
use nom::character::complete::{char, satisfy};
use nom::combinator::recognize;
use nom::error::ParseError;
use nom::multi::{many0_count, many1_count};
use nom::{IResult, Parser};

use super::node::{Node, Operator, VarNode};
use crate::error::ErrorKind;

/// A parse failure: what went wrong and the rest of the input where it did.
#[derive(Debug)]
pub(super) struct Fail<'a> {
    at: &'a str,
    kind: ErrorKind,
}

impl<'a> ParseError<&'a str> for Fail<'a> {
    fn from_error_kind(at: &'a str, _: nom::error::ErrorKind) -> Self {
        // Recoverable errors from nom's combinators are mapped to a precise kind by the caller
        // that knows what was expected; this one is a placeholder.
        Self {
            at,
            kind: ErrorKind::InvalidLiteral,
        }
    }

    fn append(_: &'a str, _: nom::error::ErrorKind, other: Self) -> Self {
        other
    }
}

type Res<'a, T> = IResult<&'a str, T, Fail<'a>>;

fn fail<T>(at: &str, kind: ErrorKind) -> Res<'_, T> {
    Err(nom::Err::Failure(Fail { at, kind }))
}

/// Parses `src` into nodes, or returns the error kind and its byte offset.
pub(super) fn parse(
    src: &str,
    max_expressions: usize,
) -> Result<Vec<Node>, (ErrorKind, Option<usize>)> {
    let offset = |rest: &str| (src.len() - rest.len()) as u32;
    let mut nodes = Vec::with_capacity(node_bound(src));
    let mut expressions = 0usize;
    let mut rest = src;
    while let Some(first) = rest.bytes().next() {
        let start = offset(rest);
        let parsed = if first == b'{' {
            expressions += 1;
            if expressions > max_expressions {
                let kind = ErrorKind::TooManyExpressions {
                    limit: max_expressions,
                };
                return Err((kind, None));
            }
            expression(rest, src, &mut nodes)
        } else {
            literals(rest).map(|(r, _)| {
                let end = offset(r);
                nodes.push(Node::Literal { start, end });
                (r, ())
            })
        };
        rest = match parsed {
            Ok((r, ())) => r,
            Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
                return Err((e.kind, Some(offset(e.at) as usize)));
            }
            Err(nom::Err::Incomplete(_)) => unreachable!("complete parsers only"),
        };
    }
    Ok(nodes)
}

/// An upper bound on the number of nodes `src` can produce.
fn node_bound(src: &str) -> usize {
    let (mut braces, mut commas) = (0, 0);
    for b in src.bytes() {
        braces += usize::from(b == b'{');
        commas += usize::from(b == b',');
    }
    3 * braces + commas + 1
}

/// `literals` of §2.1: one or more literal characters or percent-triplets.
fn literals(input: &str) -> Res<'_, &str> {
    match recognize(many1_count(alt((
        take_while1(is_literal_char),
        pct_encoded,
    ))))
    .parse(input)
    {
        Err(nom::Err::Error(_)) => fail(input, ErrorKind::InvalidLiteral),
        other => other,
    }
}

/// `pct-encoded`: `%` and two hex digits. A `%` without them is a hard failure.
fn pct_encoded(input: &str) -> Res<'_, &str> {
    let (after, _) = char('%').parse(input)?;
    let hex = |i| -> Res<'_, char> { satisfy(|c: char| c.is_ascii_hexdigit()).parse(i) };
    match (hex, hex).parse(after) {
        Ok((rest, _)) => Ok((rest, &input[..3])),
        Err(_) => fail(input, ErrorKind::InvalidPercentEncoding),
    }
}

fn is_literal_char(c: char) -> bool {
    match c {
        '\x21' | '\x23'..='\x24' | '\x26'..='\x3B' | '\x3D' | '\x3F'..='\x5B' | '\x5D' => true,
        '\x5F' | '\x61'..='\x7A' | '\x7E' => true,
        c if c.is_ascii() => false,
        c => is_ucschar(c) || is_iprivate(c),
    }
}

fn is_ucschar(c: char) -> bool {
    let c = u32::from(c);
    matches!(c, 0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF)
        || (0x10000..=0xEFFFD).contains(&c) && (c & 0xFFFF) <= 0xFFFD
}

fn is_iprivate(c: char) -> bool {
    let c = u32::from(c);
    matches!(c, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
}

/// `expression` of §2.2: `{`, an optional operator, a variable list, `}`. Pushes the expression
/// header and its variables onto `nodes`.
fn expression<'a>(input: &'a str, src: &'a str, nodes: &mut Vec<Node>) -> Res<'a, ()> {
    let offset = |rest: &str| (src.len() - rest.len()) as u32;
    let (mut rest, _) = char('{').parse(input)?;
    let op = match rest.bytes().next().and_then(Operator::from_byte) {
        Some(op) => {
            rest = &rest[1..];
            op
        }
        None => Operator::Simple,
    };
    if rest.is_empty() {
        return fail(input, ErrorKind::UnclosedExpression);
    }
    if let Some(c @ ('=' | ',' | '!' | '@' | '|')) = rest.chars().next() {
        return fail(rest, ErrorKind::ReservedOperator(c));
    }
    let header = nodes.len();
    nodes.push(Node::Literal { start: 0, end: 0 }); // replaced below, once the count is known
    let mut vars: u16 = 0;
    loop {
        let (r, var) = varspec(rest, src)?;
        // `{x*:3}` or `{x:3*}`: the grammar allows one modifier, and saying so beats naming
        // the second one's character.
        let second_modifier = if var.explode { ':' } else { '*' };
        if (var.explode || var.prefix > 0) && r.starts_with(second_modifier) {
            return fail(r, ErrorKind::PrefixAndExplode);
        }
        nodes.push(Node::Var(var));
        // Each variable comes with a one-byte separator, so a template within the u32 offset
        // range can never overflow u16 here before the expression limit trips; stay total anyway.
        vars = vars.saturating_add(1);
        rest = r;
        match rest.chars().next() {
            Some(',') => rest = &rest[1..],
            Some('}') => {
                rest = &rest[1..];
                break;
            }
            Some('.') => return fail(rest, ErrorKind::InvalidVarName),
            Some(c) => return fail(rest, ErrorKind::UnexpectedCharacter(c)),
            None => return fail(input, ErrorKind::UnclosedExpression),
        }
    }
    nodes[header] = Node::Expression {
        op,
        vars,
        start: offset(input),
        end: offset(rest),
    };
    Ok((rest, ()))
}

/// `varspec`: a name with an optional prefix or explode modifier.
fn varspec<'a>(input: &'a str, src: &'a str) -> Res<'a, VarNode> {
    let offset = |rest: &str| (src.len() - rest.len()) as u32;
    let (rest, name) = varname(input)?;
    let (rest, prefix, explode) = match rest.bytes().next() {
        Some(b':') => {
            let (rest, prefix) = max_length(&rest[1..])?;
            (rest, prefix, false)
        }
        Some(b'*') => (&rest[1..], 0, true),
        _ => (rest, 0, false),
    };
    let name_start = offset(input);
    let var = VarNode {
        name_start,
        name_end: name_start + name.len() as u32,
        prefix,
        explode,
    };
    Ok((rest, var))
}

/// `varname`: varchars with single dots between them. Runs of ALPHA, DIGIT and `_` are taken
/// whole, so a name costs a few combinator steps, not a few per character.
fn varname(input: &str) -> Res<'_, &str> {
    let segment = |i| -> Res<'_, usize> {
        many1_count(alt((
            take_while1(|c: char| c.is_ascii_alphanumeric() || c == '_'),
            pct_encoded,
        )))
        .parse(i)
    };
    match recognize((segment, many0_count((char('.'), segment)))).parse(input) {
        Err(nom::Err::Error(_)) => fail(input, ErrorKind::InvalidVarName),
        other => other,
    }
}

/// `max-length`: 1 to 9999 without a leading zero.
fn max_length(input: &str) -> Res<'_, u16> {
    let digits: Res<'_, &str> = recognize((
        satisfy(|c| ('1'..='9').contains(&c)),
        take_while_m_n(0, 3, |c: char| c.is_ascii_digit()),
    ))
    .parse(input);
    match digits {
        Ok((rest, _)) if rest.starts_with(|c: char| c.is_ascii_digit()) => {
            fail(input, ErrorKind::InvalidPrefix)
        }
        Ok((rest, digits)) => Ok((rest, digits.parse().expect("1 to 4 digits fit u16"))),
        Err(_) => fail(input, ErrorKind::InvalidPrefix),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(src: &str) -> (ErrorKind, Option<usize>) {
        parse(src, 1024).unwrap_err()
    }

    #[test]
    fn node_vector_is_allocated_once() {
        for src in ["", "abc", "{a}", "x{a,b,c}y{/d*}z", "{a}{b}{c}", "a,b{c}"] {
            let nodes = parse(src, 1024).unwrap();
            assert!(nodes.len() <= node_bound(src), "{src}");
            assert_eq!(nodes.capacity(), node_bound(src), "{src} grew its vector");
        }
    }

    #[test]
    fn errors_point_at_the_offending_byte() {
        assert_eq!(err("a}"), (ErrorKind::InvalidLiteral, Some(1)));
        assert_eq!(err("a b"), (ErrorKind::InvalidLiteral, Some(1)));
        assert_eq!(err("%4"), (ErrorKind::InvalidPercentEncoding, Some(0)));
        assert_eq!(err("x{y"), (ErrorKind::UnclosedExpression, Some(1)));
        assert_eq!(err("x{"), (ErrorKind::UnclosedExpression, Some(1)));
        assert_eq!(err("{+"), (ErrorKind::UnclosedExpression, Some(0)));
        assert_eq!(err("{|y}"), (ErrorKind::ReservedOperator('|'), Some(1)));
        assert_eq!(err("{}"), (ErrorKind::InvalidVarName, Some(1)));
        assert_eq!(err("{x.}"), (ErrorKind::InvalidVarName, Some(2)));
        assert_eq!(err("{x:01}"), (ErrorKind::InvalidPrefix, Some(3)));
        assert_eq!(err("{x:10000}"), (ErrorKind::InvalidPrefix, Some(3)));
        assert_eq!(err("{x:2*}"), (ErrorKind::PrefixAndExplode, Some(4)));
        assert_eq!(err("{x*:3}"), (ErrorKind::PrefixAndExplode, Some(3)));
        assert_eq!(err("{x**}"), (ErrorKind::UnexpectedCharacter('*'), Some(3)));
        assert_eq!(err("{%2x}"), (ErrorKind::InvalidPercentEncoding, Some(1)));
    }

    #[test]
    fn non_ascii_literals_follow_ucschar() {
        assert!(parse("caf\u{e9}/\u{1F600}", 8).is_ok());
        assert_eq!(err("a\u{FFFE}"), (ErrorKind::InvalidLiteral, Some(1)));
        assert_eq!(err("\u{7f}"), (ErrorKind::InvalidLiteral, Some(0)));
    }
}

//! The buffers that per-request calls read their input from and write their answer to, so that
//! a call crosses the JavaScript boundary with two numbers: the input's length in, the
//! answer's length (or what it is) out. The package writes the input's UTF-8 at [`input`]'s
//! address and reads the answer at [`output`]'s.
//!
//! A match whose variables are all given as text answers them as pairs rather than JSON: the
//! names and values one after the other, and their lengths (in UTF-16 code units, as
//! JavaScript slices strings) in a header of `u32`s at [`header`]'s address:
//! `[count, route index, name length, value length, ...]`. The package slices the decoded
//! text, which costs less than `JSON.parse`. Other matches answer
//! `{"index": .., "variables": {..}}` as JSON. The other way, an expansion whose variables are
//! all strings sends them as [`pairs`], not JSON.
//!
//! The module runs on one thread, so one set of buffers serves every call, one at a time. A
//! call takes them out of their cell and puts them back: were a call ever cut short (the
//! module out of memory), the next would find none and start afresh, instead of finding them
//! still borrowed and failing forever.

use std::cell::Cell;

use rfc6570::Captures;
use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::variables::{as_text, Routed, Variables};
use crate::ErrorJson;

#[derive(Default)]
struct Buffers {
    input: Vec<u8>,
    output: Vec<u8>,
    header: Vec<u32>,
}

thread_local! {
    static BUFFERS: Cell<Option<Buffers>> = const { Cell::new(None) };
}

/// Runs `f` on the buffers, taken out of their cell for the call.
fn with<R>(f: impl FnOnce(&mut Buffers) -> R) -> R {
    let mut buffers = BUFFERS.take().unwrap_or_default();
    let result = f(&mut buffers);
    BUFFERS.set(Some(buffers));
    result
}

/// The address of an input buffer of at least `capacity` bytes, for the package to write into.
#[wasm_bindgen(js_name = "ioInput")]
pub fn input(capacity: usize) -> usize {
    with(|b| {
        if b.input.len() < capacity {
            b.input.resize(capacity, 0);
        }
        b.input.as_ptr() as usize
    })
}

/// The address of the last answer.
#[wasm_bindgen(js_name = "ioOutput")]
pub fn output() -> usize {
    with(|b| b.output.as_ptr() as usize)
}

/// The address of the last answer's header of pairs.
#[wasm_bindgen(js_name = "ioHeader")]
pub fn header() -> usize {
    with(|b| b.header.as_ptr() as usize)
}

/// Variables that are all strings, as the package sends them: `name`, NUL, the value's length
/// in UTF-16 code units (in decimal), NUL, the value; one after the other. `None` if the text
/// is not of that form. Names never hold a NUL (the package sends JSON for one that does).
pub fn pairs(mut text: &str) -> Option<Vec<(&str, &str)>> {
    let mut pairs = Vec::new();
    while !text.is_empty() {
        let (name, rest) = text.split_once('\0')?;
        let (units, rest) = rest.split_once('\0')?;
        let end = utf16_prefix(rest, units.parse().ok()?)?;
        let (value, rest) = rest.split_at(end);
        pairs.push((name, value));
        text = rest;
    }
    Some(pairs)
}

/// The byte length of the first `units` UTF-16 code units of `text`, if they end a character.
fn utf16_prefix(text: &str, units: usize) -> Option<usize> {
    if text.get(..units).is_some_and(str::is_ascii) {
        return Some(units);
    }
    let mut counted = 0;
    for (at, c) in text.char_indices() {
        if counted == units {
            return Some(at);
        }
        counted += c.len_utf16();
    }
    (counted == units).then_some(text.len())
}

/// Writes `text` into the input buffer, as the package does, and answers its length: for Rust
/// callers (the tests), which cannot write at an address without `unsafe`.
pub fn put(text: &str) -> usize {
    with(|b| {
        b.input.clear();
        b.input.extend_from_slice(text.as_bytes());
    });
    text.len()
}

/// The answer a call's `code` describes, read as the package reads it: `None` for no match,
/// `Err` with an error's JSON, or the text with the header of pairs (empty for any other
/// answer).
pub fn read(code: i32) -> Option<Result<(String, Vec<u32>), String>> {
    with(|b| {
        let text = |n: i32| {
            let n = usize::try_from(n).unwrap_or(0);
            String::from_utf8_lossy(b.output.get(..n).unwrap_or_default()).into_owned()
        };
        match code {
            -1 => None,
            c if c < -1 => Some(Err(text(-2 - c))),
            c if c & PAIRS != 0 => Some(Ok((text(c & !PAIRS), b.header.clone()))),
            c => Some(Ok((text(c), Vec::new()))),
        }
    })
}

/// Where an answer goes: its text, and the header of pairs.
pub struct Out<'a> {
    text: &'a mut Vec<u8>,
    header: &'a mut Vec<u32>,
}

/// What a call put in the output buffer.
pub enum Status {
    /// An answer of this many bytes.
    Written(usize),
    /// Pairs of this many bytes of text, with their header.
    Pairs(usize),
    /// Nothing: no match.
    None,
    /// The JSON of an error, of this many bytes.
    Refused(usize),
}

impl Status {
    /// `value`'s JSON, written to `out`.
    pub fn json(out: Out<'_>, value: &impl Serialize) -> Self {
        match serde_json::to_writer(&mut *out.text, value) {
            Ok(()) => Self::Written(out.text.len()),
            Err(e) => {
                out.text.clear();
                Self::refused(out, &ErrorJson::new("json", e.to_string()).to_json())
            }
        }
    }

    /// The match of route `index` with `captures` (given as text unless `exploded`): as pairs
    /// if every variable is text, as JSON otherwise.
    pub fn captures(
        out: Out<'_>,
        index: u32,
        captures: &Captures<'_>,
        exploded: &[String],
    ) -> Self {
        if !captures.iter().all(|c| as_text(&c, exploded)) {
            let variables = Variables { captures, exploded };
            let routed = Routed {
                index,
                template: None,
                variables,
            };
            return Self::json(out, &routed);
        }
        out.header.extend([0, index]);
        for capture in captures.iter() {
            let (name, value) = (capture.name(), capture.decoded());
            out.text.extend_from_slice(name.as_bytes());
            out.text.extend_from_slice(value.as_bytes());
            out.header.extend([utf16_len(name), utf16_len(&value)]);
            out.header[0] += 1;
        }
        Self::Pairs(out.text.len())
    }

    pub fn text(out: Out<'_>, text: &str) -> Self {
        out.text.extend_from_slice(text.as_bytes());
        Self::Written(out.text.len())
    }

    /// An error, as its JSON.
    pub fn refused(out: Out<'_>, error: &str) -> Self {
        out.text.extend_from_slice(error.as_bytes());
        Self::Refused(out.text.len())
    }

    /// As the package reads it: the length of an answer; that length with bit 30 set for
    /// pairs; -1 for none; -2 - n for an error of n bytes. Answers are shorter than 2^30
    /// bytes: URIs are at most 32 KiB, expansions 1 MiB, templates 64 KiB.
    fn code(self) -> i32 {
        let code = |n: usize| i32::try_from(n).ok().filter(|&n| n < PAIRS);
        match self {
            Self::Written(n) => code(n).unwrap_or(TOO_LONG),
            Self::Pairs(n) => code(n).map_or(TOO_LONG, |n| PAIRS | n),
            Self::None => -1,
            Self::Refused(n) => code(n).map_or(TOO_LONG, |n| -2 - n),
        }
    }
}

/// The flag of an answer given as pairs.
const PAIRS: i32 = 1 << 30;
/// An answer too long to say: cannot happen within the limits above, and reads as an error
/// of no text.
const TOO_LONG: i32 = -2;

fn utf16_len(text: &str) -> u32 {
    let len = if text.is_ascii() {
        text.len()
    } else {
        text.encode_utf16().count()
    };
    u32::try_from(len).unwrap_or(u32::MAX)
}

/// Runs `call` on the `len` bytes of input (as text) with the output buffers cleared, and
/// answers its status. Input that is not UTF-8 (the package writes UTF-8) is refused.
pub fn answer(len: usize, call: impl FnOnce(&str, Out<'_>) -> Status) -> i32 {
    with(|b| {
        let Buffers {
            input,
            output,
            header,
        } = b;
        output.clear();
        header.clear();
        let out = Out {
            text: output,
            header,
        };
        let bytes = input.get(..len).unwrap_or_default();
        let status = match std::str::from_utf8(bytes) {
            Ok(text) => call(text, out),
            Err(e) => Status::refused(out, &ErrorJson::new("not_utf8", e.to_string()).to_json()),
        };
        status.code()
    })
}

//! The buffers that per-request calls read their input from and write their answer to, so that
//! a call crosses the JavaScript boundary with two numbers: the input's length in, the
//! answer's length (or what it is) out. The package finds the buffers' addresses in
//! [`registers`], words at a fixed address that every call updates, so that it need not ask
//! for them with calls of their own: it writes the input's UTF-8 at the input's address and
//! reads the answer at the output's.
//!
//! A match whose variables are all given as text answers them as spans rather than JSON: a header
//! of `u32`s, `[count, route index, then name, start, end for each variable]`. The name is its
//! index in the template's names (`variables::Names`), which the package holds too. Where the URI
//! is ASCII, a value is the URI's `start..end`, which the package slices from the string it sent:
//! as it stands if it holds no triplet, or, with bit 30 of `start` set, to be percent-decoded
//! (by `decodeURIComponent`, which gives what `Capture::decoded` does here: every triplet of a
//! matched URI is one, and a match answers only values that decode to UTF-8). Any other value is
//! appended to the
//! output text, and its `start` has bit 31 set. Offsets count UTF-16 code units, as JavaScript
//! slices strings. Slicing a string it already holds, and decoding it with the engine's builtin,
//! cost the package far less than decoding text the module wrote, or `JSON.parse`. Other matches
//! answer `{"index": .., "variables": {..}}` as JSON. The other way, an expansion sends its
//! variables as [`crate::values`] reads them.
//!
//! The module runs on one thread, so one set of buffers serves every call, one at a time. A
//! call takes them out of their cell and puts them back, and says the input's capacity is 0
//! until it has: were a call ever cut short (the module out of memory), the package would ask
//! for an input buffer again, and the next call would find none in the cell and start afresh,
//! instead of finding them still borrowed and failing forever, or writing into a buffer that
//! is no longer there. An input longer than the buffer the call holds is refused, never read
//! short.

use std::cell::Cell;
use std::ops::Range;
use std::sync::atomic::{AtomicU32, Ordering};

use rfc6570::Captures;
use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::ErrorJson;
use crate::variables::{Names, Routed, Variables};

#[derive(Default)]
struct Buffers {
    input: Vec<u8>,
    output: Vec<u8>,
    header: Vec<u32>,
}

thread_local! {
    static BUFFERS: Cell<Option<Buffers>> = const { Cell::new(None) };
}

/// The buffers' addresses, and the input's capacity, as of the last call: see [`registers`].
static REGISTERS: [AtomicU32; 4] = [const { AtomicU32::new(0) }; 4];
/// The register of the input's capacity.
const CAPACITY: usize = 1;

/// The address of four `u32`s: the input buffer's address and capacity, the output's address
/// and the header's. Every call that may move a buffer writes them again before it returns.
#[wasm_bindgen(js_name = "ioRegisters")]
pub fn registers() -> usize {
    REGISTERS.as_ptr() as usize
}

/// Runs `f` on the buffers, taken out of their cell for the call; then says where they are.
/// Until then the input's capacity reads 0, so that a call cut short leaves the package no
/// buffer to write into.
fn with<R>(f: impl FnOnce(&mut Buffers) -> R) -> R {
    REGISTERS[CAPACITY].store(0, Ordering::Relaxed);
    let mut buffers = BUFFERS.take().unwrap_or_default();
    let result = f(&mut buffers);
    let address = |at: *const u8| u32::try_from(at as usize).unwrap_or(0);
    let capacity = u32::try_from(buffers.input.len()).unwrap_or(u32::MAX);
    let words = [
        address(buffers.input.as_ptr()),
        capacity,
        address(buffers.output.as_ptr()),
        address(buffers.header.as_ptr().cast()),
    ];
    for (register, word) in REGISTERS.iter().zip(words) {
        register.store(word, Ordering::Relaxed);
    }
    BUFFERS.set(Some(buffers));
    result
}

/// Makes the input buffer at least `capacity` bytes long, for the package to write into; its
/// address is then in the [`registers`].
#[wasm_bindgen(js_name = "ioInput")]
pub fn input(capacity: usize) {
    with(|b| {
        if b.input.len() < capacity {
            b.input.resize(capacity, 0);
        }
    });
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

/// The input's capacity as the registers say it, as the package reads it before writing: for
/// Rust callers (the tests), which cannot read at an address without `unsafe`.
pub fn capacity() -> u32 {
    REGISTERS[CAPACITY].load(Ordering::Relaxed)
}

/// The answer a call's `code` describes, as the package finds it: `None` for no match, `Err`
/// with an error's JSON, or the text with the header of spans (empty for any other answer).
pub fn read(code: i32) -> Option<Result<(String, Vec<u32>), String>> {
    with(|b| {
        let text = |n: i32| {
            let n = usize::try_from(n).unwrap_or(0);
            String::from_utf8_lossy(b.output.get(..n).unwrap_or_default()).into_owned()
        };
        match code {
            -1 => None,
            c if c < -1 => Some(Err(text(-2 - c))),
            c if c & SPANS != 0 => Some(Ok((text(c & !SPANS), b.header.clone()))),
            c => Some(Ok((text(c), Vec::new()))),
        }
    })
}

/// Where an answer goes: its text, and the header of spans.
pub struct Out<'a> {
    text: &'a mut Vec<u8>,
    header: &'a mut Vec<u32>,
}

/// What a call put in the output buffer.
pub enum Status {
    /// An answer of this many bytes.
    Written(usize),
    /// Spans, with this many bytes of text for the values not in the URI.
    Spans(usize),
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

    /// The match of route `index` with `captures`, whose names are `names`: as spans if
    /// every variable is given as text, as JSON otherwise.
    pub fn captures(out: Out<'_>, index: u32, captures: &Captures<'_>, names: &Names) -> Self {
        let Out { text, header } = out;
        match spans(text, header, index, captures, names) {
            Some(()) => Self::Spans(text.len()),
            None => {
                text.clear();
                header.clear();
                let variables = Variables { captures, names };
                let routed = Routed {
                    index,
                    template: None,
                    variables,
                };
                Self::json(Out { text, header }, &routed)
            }
        }
    }

    /// What `write` writes to the answer's text, or the error it answers instead.
    pub fn written(out: Out<'_>, write: impl FnOnce(&mut Vec<u8>) -> Result<(), String>) -> Self {
        match write(out.text) {
            Ok(()) => Self::Written(out.text.len()),
            Err(error) => {
                out.text.clear();
                Self::refused(out, &error)
            }
        }
    }

    /// An error, as its JSON.
    pub fn refused(out: Out<'_>, error: &str) -> Self {
        out.text.extend_from_slice(error.as_bytes());
        Self::Refused(out.text.len())
    }

    /// As the package reads it: the length of an answer; that length with bit 30 set for
    /// spans; -1 for none; -2 - n for an error of n bytes. Answers are shorter than 2^30
    /// bytes: URIs are at most 32 KiB, expansions 1 MiB, templates 64 KiB.
    fn code(self) -> i32 {
        let code = |n: usize| i32::try_from(n).ok().filter(|&n| n < SPANS);
        match self {
            Self::Written(n) => code(n).unwrap_or(TOO_LONG),
            Self::Spans(n) => code(n).map_or(TOO_LONG, |n| SPANS | n),
            Self::None => -1,
            Self::Refused(n) => code(n).map_or(TOO_LONG, |n| -2 - n),
        }
    }
}

/// The flag of an answer given as spans.
const SPANS: i32 = 1 << 30;
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

/// Writes the header of spans for `captures` (see the module's doc), and the values it cannot
/// point into the URI for to `text`; `None` if a variable is not text, for JSON.
fn spans(
    text: &mut Vec<u8>,
    header: &mut Vec<u32>,
    index: u32,
    captures: &Captures<'_>,
    names: &Names,
) -> Option<()> {
    let uri = captures.uri();
    let ascii = uri.is_ascii();
    let mut text_units = 0;
    header.extend([0, index]);
    for (name, as_text, capture) in names.walk(captures) {
        let (name, true) = (name?, as_text) else {
            return None;
        };
        let raw = capture.raw();
        let in_uri = ascii.then(|| within(uri, raw)).flatten();
        let Range { start, end } = match in_uri {
            Some(span) if raw.as_bytes().contains(&b'%') => (span.start | TO_DECODE)..span.end,
            Some(span) => span,
            None => {
                let value = capture.decoded();
                let start = text_units;
                text.extend_from_slice(value.as_bytes());
                text_units += utf16_len(&value);
                (start | IN_TEXT)..text_units
            }
        };
        header.extend([name, start, end]);
        header[0] += 1;
    }
    Some(())
}

/// Where `part` lies in `whole`, if it is a slice of it, with offsets that fit a span.
fn within(whole: &str, part: &str) -> Option<Range<u32>> {
    let start = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    let end = start.checked_add(part.len())?;
    (end <= whole.len()).then_some(())?;
    Some(u32::try_from(start).ok()?..u32::try_from(end).ok()?)
}

/// The bit of a span's start that says it is in the output text, not the URI.
const IN_TEXT: u32 = 1 << 31;
/// The bit of a span's start that says it is the URI's text still to be percent-decoded.
const TO_DECODE: u32 = 1 << 30;

/// Runs `call` on the `len` bytes of input (as text) with the output buffers cleared, and
/// answers its status. Input that is not UTF-8 (the package writes UTF-8), or longer than the
/// buffer holds (written before a call was cut short), is refused.
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
        let Some(bytes) = input.get(..len) else {
            let lost = format!(
                "{len} bytes of input, but the input buffer holds {}",
                input.len()
            );
            return Status::refused(out, &ErrorJson::new("input_lost", lost).to_json()).code();
        };
        let status = match std::str::from_utf8(bytes) {
            Ok(text) => call(text, out),
            Err(e) => Status::refused(out, &ErrorJson::new("not_utf8", e.to_string()).to_json()),
        };
        status.code()
    })
}

//! The buffers that per-request calls read their input from and write their answer to, so that
//! a call crosses the JavaScript boundary with two numbers: the input's length in, the
//! answer's length (or what it is) out. The package writes the input's UTF-8 at
//! [`input`]'s address and reads the answer at [`output`]'s.
//!
//! A match whose variables are all strings answers them as pairs rather than JSON: the names
//! and values one after the other as text, and their lengths (in UTF-16 code units, as
//! JavaScript slices strings) in a header of `u32`s at [`header`]'s address:
//! `[count, route index, name length, value length, ...]`. The package slices the decoded
//! text, which costs less than `JSON.parse`. Other matches answer
//! `{"index": .., "variables": {..}}` as JSON.
//!
//! The module runs on one thread, so one set of buffers serves every call, one at a time.

use std::cell::RefCell;

use rfc6570::matching::CaptureKind;
use rfc6570::Captures;
use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;

#[derive(Default)]
struct Buffers {
    input: Vec<u8>,
    output: Vec<u8>,
    header: Vec<u32>,
}

/// Where an answer goes: its text, and the header of pairs.
pub struct Out<'a> {
    text: &'a mut Vec<u8>,
    header: &'a mut Vec<u32>,
}

thread_local! {
    static BUFFERS: RefCell<Buffers> = RefCell::new(Buffers::default());
}

/// The address of an input buffer of at least `capacity` bytes, for the package to write into.
#[wasm_bindgen(js_name = "ioInput")]
pub fn input(capacity: usize) -> usize {
    BUFFERS.with_borrow_mut(|b| {
        if b.input.len() < capacity {
            b.input.resize(capacity, 0);
        }
        b.input.as_ptr() as usize
    })
}

/// The address of the last answer.
#[wasm_bindgen(js_name = "ioOutput")]
pub fn output() -> usize {
    BUFFERS.with_borrow(|b| b.output.as_ptr() as usize)
}

/// The address of the last answer's header of pairs.
#[wasm_bindgen(js_name = "ioHeader")]
pub fn header() -> usize {
    BUFFERS.with_borrow(|b| b.header.as_ptr() as usize)
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
                Self::refused(
                    out,
                    Err(crate::ErrorJson::new("json", e.to_string()).to_json()),
                )
            }
        }
    }

    /// The match of route `index` with `captures`: as pairs if every capture is a string, as
    /// JSON otherwise.
    pub fn captures(out: Out<'_>, index: u32, captures: &Captures<'_>) -> Self {
        if captures.iter().any(|c| c.kind() != CaptureKind::String) {
            let json = serde_json::json!({"index": index, "variables": captures});
            return Self::json(out, &json);
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

    /// The error of `answer` (a refusal's JSON); an answer that is not one is written as it is.
    pub fn refused(out: Out<'_>, answer: Result<String, String>) -> Self {
        match answer {
            Ok(text) => Self::text(out, &text),
            Err(json) => {
                out.text.extend_from_slice(json.as_bytes());
                Self::Refused(out.text.len())
            }
        }
    }

    /// As the package reads it: the length of an answer; that length with bit 30 set for
    /// pairs; -1 for none; -2 - n for an error of n bytes. Answers are far shorter than 2^30
    /// bytes: URIs are at most 32 KiB, templates 64 KiB.
    fn code(self) -> i32 {
        let code = |n: usize| i32::try_from(n).unwrap_or(i32::MAX).min(PAIRS - 1);
        match self {
            Self::Written(n) => code(n),
            Self::Pairs(n) => PAIRS | code(n),
            Self::None => -1,
            Self::Refused(n) => -2 - code(n),
        }
    }
}

/// The flag of an answer given as pairs.
const PAIRS: i32 = 1 << 30;

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
    BUFFERS.with_borrow_mut(|b| {
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
            Err(e) => {
                let error = crate::ErrorJson::new("not_utf8", e.to_string()).to_json();
                Status::refused(out, Err(error))
            }
        };
        status.code()
    })
}

//! The serializer against `serde_json::to_value`, and its errors.

use std::fmt::Write as _;

use super::tree::{Entry, JsonFloat, Key, Text, Value};
use super::value::dedup;

fn float_text(x: f64) -> String {
    JsonFloat(x).to_string()
}

/// Each branch of the layout, with the text `serde_json` writes for it.
#[test]
fn floats_are_laid_out_as_serde_json_writes_them() {
    let cases = [
        (0.0, "0.0"),
        (-0.0, "-0.0"),
        (1.0, "1.0"),
        (-2.5, "-2.5"),
        (1234e7, "12340000000.0"),
        (12.34, "12.34"),
        (0.001234, "0.001234"),
        (1e-5, "0.00001"),
        (1e-6, "1e-6"),
        (1.5e-7, "1.5e-7"),
        (1e15, "1000000000000000.0"),
        (1e16, "1e+16"),
        (1.234e33, "1.234e+33"),
        (f64::MAX, "1.7976931348623157e+308"),
        (f64::MIN_POSITIVE, "2.2250738585072014e-308"),
        (5e-324, "5e-324"),
        (0.1 + 0.2, "0.30000000000000004"),
        // -132.706817626953125 exactly: a tie between two shortest texts, which goes to
        // the even digit, not up.
        (-8_697_074.0 / 65_536.0, "-132.70681762695312"),
        (f64::from(0.1f32), "0.10000000149011612"),
    ];
    for (x, text) in cases {
        assert_eq!(float_text(x), text, "{x:e}");
        #[cfg(feature = "json")]
        assert_eq!(serde_json::Number::from_f64(x).unwrap().to_string(), text);
    }
}

/// Short text stays on the stack; long text moves to the heap whole, at any split.
#[test]
fn text_spills_to_the_heap_intact() {
    let long = "é".repeat(40);
    for split in [0, 2, 40, 48, 80] {
        let mut text = Text::new();
        text.write_str(&long[..split]).unwrap();
        text.write_str(&long[split..]).unwrap();
        assert_eq!(text.as_str(), long, "split at {split}");
        assert_eq!(&*text.into_boxed(), long);
    }
    assert_eq!(&*Text::of(42).unwrap(), "42");
}

fn keys(entries: &[Entry]) -> Vec<(&str, String)> {
    entries
        .iter()
        .map(|e| (e.key.as_str(), format!("{:?}", e.value)))
        .collect()
}

/// A repeated key keeps its first place and its last value, in short and long maps.
#[test]
fn repeated_keys_keep_their_place_and_last_value() {
    let entry = |k: &'static str, n: u64| Entry {
        key: Key::Static(k),
        value: Value::UInt(n),
    };
    let mut short = vec![entry("a", 1), entry("b", 2), entry("a", 3)];
    dedup(&mut short);
    assert_eq!(keys(&short), [("a", "3".into()), ("b", "2".into())]);

    let names: Vec<&'static str> = (0..20)
        .map(|i| &*Box::leak(format!("k{i}").into_boxed_str()))
        .collect();
    let mut long: Vec<Entry> = names.iter().map(|k| entry(k, 0)).collect();
    long.push(entry("k3", 9));
    dedup(&mut long);
    assert_eq!(long.len(), 20);
    assert_eq!(keys(&long)[3], ("k3", "9".into()));

    let mut distinct: Vec<Entry> = names.iter().map(|k| entry(k, 0)).collect();
    dedup(&mut distinct);
    assert_eq!(distinct.len(), 20);
}

//! Expanding from any `Serialize` value (`vars::Serialized`, `UriTemplate::expand_serialized`):
//! the URIs (and the errors) are those of expanding the value's `serde_json::to_value`, for
//! every operator, exploded or not; the RFC 6570 §3.2 examples expand as the RFC says from a
//! plain struct; and refusals say what and where.
#![cfg(feature = "json")]

use std::collections::BTreeMap;

use rfc6570::vars::{SerializeError, Serialized};
use rfc6570::{Error, ErrorKind, UriTemplate};
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

const OPERATORS: [&str; 8] = ["", "+", "#", ".", "/", ";", "?", "&"];

/// Expands `template` from `value` both ways, and checks that they agree.
fn both<T: Serialize>(template: &str, value: &T) -> Result<String, Error> {
    let t = UriTemplate::parse(template).unwrap();
    let json = serde_json::to_value(value).unwrap();
    let serialized = t.expand_serialized(value);
    assert_eq!(serialized, t.expand(&json), "{template} with {json}");
    serialized
}

#[derive(Serialize)]
struct Point {
    z: i32,
    a: i32,
    m: i32,
}

#[derive(Serialize)]
struct Id(u64);

#[derive(Serialize)]
enum Level {
    Warn,
}

#[derive(Serialize)]
#[allow(dead_code)]
enum Shape {
    Circle(f64),
    Pair(u8, u8),
    Rect { w: u32, h: u32 },
}

/// One of everything a user's struct holds.
#[derive(Serialize)]
struct Everything {
    name: String,
    empty: String,
    reserved: &'static str,
    unicode: String,
    percent: &'static str,
    count: u32,
    neg: i64,
    big: u64,
    ratio: f64,
    whole: f64,
    tiny: f64,
    huge: f64,
    small: f32,
    nan: f64,
    yes: bool,
    no: bool,
    letter: char,
    some: Option<&'static str>,
    none: Option<&'static str>,
    unit: (),
    id: Id,
    list: Vec<&'static str>,
    numbers: Vec<f64>,
    empty_list: Vec<u8>,
    one_empty: Vec<&'static str>,
    with_empty: Vec<&'static str>,
    sparse: Vec<Option<&'static str>>,
    nones: Vec<Option<u8>>,
    tuple: (u8, &'static str, bool),
    map: BTreeMap<&'static str, &'static str>,
    int_keys: BTreeMap<i32, bool>,
    char_keys: BTreeMap<char, Option<u8>>,
    empty_map: BTreeMap<String, String>,
    point: Point,
    level: Level,
    circle: Shape,
    pair: Shape,
    rect: Shape,
    nested_list: Vec<Vec<&'static str>>,
    empty_nested: Vec<Vec<u8>>,
    map_of_lists: BTreeMap<&'static str, Vec<u8>>,
    list_of_structs: Vec<Point>,
}

fn everything() -> Everything {
    Everything {
        name: "Ada Lovelace".into(),
        empty: String::new(),
        reserved: "a/b?c=d#e&f[0]",
        unicode: "café ☕".into(),
        percent: "50% %41",
        count: 42,
        neg: -7,
        big: u64::MAX,
        ratio: -37.76,
        whole: 3.0,
        tiny: 1.5e-9,
        huge: 6.02e23,
        small: 0.1,
        nan: f64::NAN,
        yes: true,
        no: false,
        letter: 'é',
        some: Some("x y"),
        none: None,
        unit: (),
        id: Id(7),
        list: vec!["red", "green", "blue"],
        numbers: vec![1.0, 2.5, -0.0],
        empty_list: vec![],
        one_empty: vec![""],
        with_empty: vec!["", "x", ""],
        sparse: vec![Some("a"), None, Some("b")],
        nones: vec![None, None],
        tuple: (1, "two", true),
        map: BTreeMap::from([("semi", ";"), ("dot", "."), ("comma", ","), ("e", "")]),
        int_keys: BTreeMap::from([(-1, true), (10, false)]),
        char_keys: BTreeMap::from([('a', Some(1)), ('/', None)]),
        empty_map: BTreeMap::new(),
        point: Point { z: 1, a: -2, m: 3 },
        level: Level::Warn,
        circle: Shape::Circle(1.5),
        pair: Shape::Pair(3, 4),
        rect: Shape::Rect { w: 2, h: 5 },
        nested_list: vec![vec!["a"], vec![]],
        empty_nested: vec![vec![]],
        map_of_lists: BTreeMap::from([("k", vec![1, 2])]),
        list_of_structs: vec![Point { z: 0, a: 0, m: 0 }],
    }
}

/// The variable names: every field, and one that is not there.
fn names() -> Vec<String> {
    let json = serde_json::to_value(everything()).unwrap();
    let mut names: Vec<String> = json.as_object().unwrap().keys().cloned().collect();
    assert_eq!(names.len(), 42, "every field is a variable");
    names.push("missing".into());
    names
}

#[test]
fn every_field_expands_as_its_json_for_every_operator() {
    let value = everything();
    let mut errors = 0;
    for op in OPERATORS {
        for explode in ["", "*"] {
            for name in names() {
                if both(&format!("x{{{op}{name}{explode}}}y"), &value).is_err() {
                    errors += 1;
                }
            }
        }
    }
    // The nested lists and maps, and only them, are refused: 6 fields (the struct and tuple
    // variants hold a list or a map) for 16 operator and explode pairs.
    assert_eq!(errors, 6 * 16);
}

#[test]
fn prefixes_and_several_variables_expand_as_json() {
    let value = everything();
    let names = names();
    for op in OPERATORS {
        for name in &names {
            for prefix in [1, 3, 100] {
                let _ = both(&format!("{{{op}{name}:{prefix}}}"), &value);
            }
        }
        // Each name with its neighbours, exploded or not, so that separators between defined,
        // empty and undefined values are compared too.
        for (i, window) in names.windows(3).enumerate() {
            let star = if i % 2 == 0 { "*" } else { "" };
            let spec = window.join(&format!("{star},"));
            let _ = both(&format!("a{{{op}{spec}{star}}}b"), &value);
        }
    }
}

#[test]
fn values_expand_to_their_json_text() {
    let value = everything();
    let expand = |t: &str| both(t, &value).unwrap();
    assert_eq!(
        expand("{count},{neg},{big},{yes},{no},{letter}"),
        "42,-7,18446744073709551615,true,false,%C3%A9"
    );
    assert_eq!(
        expand("{+ratio,whole,tiny,huge,small}"),
        "-37.76,3.0,1.5e-9,6.02e+23,0.10000000149011612"
    );
    assert_eq!(expand("{?some,none,unit,nan,id}"), "?some=x%20y&id=7");
    assert_eq!(expand("{;level,circle*}"), ";level=Warn;Circle=1.5");
    assert_eq!(expand("{/tuple*,numbers}"), "/1/two/true/1.0,2.5,-0.0");
    assert_eq!(
        expand("{?sparse,nones,empty_list,empty_map}"),
        "?sparse=a,b"
    );
    assert_eq!(expand("{&int_keys*,char_keys*}"), "&-1=true&10=false&a=1");
    // A struct's fields keep their order (z, a, m), as a BTreeMap's keys keep theirs.
    assert_eq!(expand("{?point*}"), "?z=1&a=-2&m=3");
    assert_eq!(expand("{#map}"), "#comma,,,dot,.,e,,semi,;");
}

#[derive(Serialize)]
struct One<T> {
    x: T,
}

/// A tiny deterministic generator, so that the float cases are the same on every run.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn floats_are_written_as_serde_json_writes_them() {
    let mut state = 0x9E37_79B9_7F4A_7C15;
    let mut floats: Vec<f64> = (0..20_000)
        .map(|_| f64::from_bits(next(&mut state)))
        .collect();
    // Random bits are mostly huge or tiny; add numbers of every everyday size too.
    for e in -30..30 {
        let scale = 10f64.powi(e);
        floats.extend((0..20).map(|_| (next(&mut state) % 100_000) as f64 * scale / 1000.0));
    }
    floats.extend([
        0.0,
        -0.0,
        1.0,
        0.1,
        1e15,
        1e16,
        1e-5,
        1e-6,
        f64::MAX,
        f64::MIN_POSITIVE,
    ]);
    floats.extend([5e-324, f64::EPSILON, f64::INFINITY, f64::NAN]);
    for x in floats {
        let _ = both("{+x}", &One { x });
        let _ = both("{+x}", &One { x: x as f32 });
    }
}

/// A map whose keys are floats: `serde_json` writes `f32` keys with `f32`'s digits.
struct FloatKeys<F>(Vec<F>);

impl<F: Serialize> Serialize for FloatKeys<F> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for k in &self.0 {
            map.serialize_entry(k, &1)?;
        }
        map.end()
    }
}

#[test]
fn float_and_other_keys_are_stringified_as_serde_json_does() {
    let keys = [
        0.0, -1.5, 0.1, 1e-7, 1e-6, 1e12, 1e13, 1e16, 2.5e-300, 123456.789,
    ];
    let wide = One {
        x: FloatKeys(keys.to_vec()),
    };
    assert_eq!(
        both("{+x*}", &wide).unwrap(),
        "0.0=1,-1.5=1,0.1=1,1e-7=1,1e-6=1,1000000000000.0=1,10000000000000.0=1,1e+16=1,\
         2.5e-300=1,123456.789=1"
    );
    // As `f32`, 2.5e-300 is 0.0 again: the repeated key keeps the first place and last value.
    let small = One {
        x: FloatKeys(keys.iter().map(|&k| k as f32).collect()),
    };
    assert_eq!(
        both("{+x*}", &small).unwrap(),
        "0.0=1,-1.5=1,0.1=1,1e-7=1,0.000001=1,1000000000000.0=1,1e+13=1,1e+16=1,123456.79=1"
    );

    #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
    enum Side {
        Left,
    }
    #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
    struct Name(&'static str);
    #[derive(Serialize)]
    struct MapKeys {
        bools: BTreeMap<bool, u8>,
        variants: BTreeMap<Side, u8>,
        newtypes: BTreeMap<Name, u8>,
        wide: BTreeMap<u128, u8>,
    }
    let keys = MapKeys {
        bools: BTreeMap::from([(false, 0), (true, 1)]),
        variants: BTreeMap::from([(Side::Left, 2)]),
        newtypes: BTreeMap::from([(Name("n m"), 3)]),
        wide: BTreeMap::from([(u128::MAX, 4)]),
    };
    assert_eq!(
        both("{?bools*,variants*,newtypes*,wide*}", &keys).unwrap(),
        "?false=0&true=1&Left=2&n%20m=3&340282366920938463463374607431768211455=4"
    );
}

/// Integers beyond 64 bits, which `serde_json::to_value` refuses, expand as their decimal text.
#[test]
fn wide_integers_expand_as_decimal_text() {
    let t = UriTemplate::parse("{x}").unwrap();
    assert_eq!(
        t.expand_serialized(&One { x: i128::MIN }).unwrap(),
        i128::MIN.to_string()
    );
    assert_eq!(
        t.expand_serialized(&One { x: u128::MAX }).unwrap(),
        u128::MAX.to_string()
    );
    assert_eq!(both("{x}", &One { x: -1i128 }).unwrap(), "-1");
    assert!(serde_json::to_value(One { x: u128::MAX }).is_err());
}

/// `#[serde(flatten)]` serializes a struct as a map, and a repeated key keeps its first place
/// and its last value, as in the JSON object (`preserve_order`).
#[test]
fn repeated_keys_are_merged_as_in_json() {
    #[derive(Serialize)]
    struct Inner {
        b: u8,
        a: u8,
    }
    #[derive(Serialize)]
    struct Outer {
        a: u8,
        c: u8,
        #[serde(flatten)]
        inner: Inner,
    }
    let value = Outer {
        a: 1,
        c: 2,
        inner: Inner { b: 3, a: 4 },
    };
    assert_eq!(both("{?a,b,c}", &value).unwrap(), "?a=4&b=3&c=2");
    #[derive(Serialize)]
    struct Wrapper {
        m: Outer,
    }
    assert_eq!(
        both("{?m*}", &Wrapper { m: value }).unwrap(),
        "?a=4&c=2&b=3"
    );
}

/// The top level may be a map, a struct behind `Some` or a newtype, or an enum variant with
/// content (a one-entry map, as in JSON).
#[test]
fn map_like_top_levels_define_variables() {
    let map = BTreeMap::from([("a", 1), ("b", 2)]);
    assert_eq!(both("{a}{/b}", &map).unwrap(), "1/2");
    #[derive(Serialize)]
    struct Wrap(One<u8>);
    assert_eq!(both("{x}", &Some(Wrap(One { x: 9 }))).unwrap(), "9");
    assert_eq!(both("{Circle}", &Shape::Circle(0.5)).unwrap(), "0.5");
    assert_eq!(
        both("{?Rect*}", &Shape::Rect { w: 1, h: 2 }).unwrap(),
        "?w=1&h=2"
    );
    assert_eq!(both("{Pair}", &Shape::Pair(1, 2)).unwrap(), "1,2");
    #[derive(Serialize)]
    struct Empty {}
    assert_eq!(both("a{x}b", &Empty {}).unwrap(), "ab");
}

/// The same variables, serialized once, serve any number of templates and buffers.
#[test]
fn serialized_variables_are_reusable() {
    let vars = Serialized::new(&everything()).unwrap();
    let mut buf = String::new();
    for (template, expected) in [("{count}", "42"), ("{/list*}", "/red/green/blue")] {
        buf.clear();
        let t = UriTemplate::parse(template).unwrap();
        t.expand_to(&vars, &mut buf).unwrap();
        assert_eq!(buf, expected);
        assert_eq!(t.expand(&vars.clone()).unwrap(), expected);
    }
}

// --- errors ---

fn serialize_error<T: Serialize + ?Sized>(value: &T) -> SerializeError {
    let err = Serialized::new(value).unwrap_err();
    // `expand_serialized` says the same, in the crate's error, without a position.
    let t = UriTemplate::parse("{x}").unwrap();
    let expanded = t.expand_serialized(value).unwrap_err();
    assert_eq!(
        expanded.kind(),
        &ErrorKind::Serialize {
            message: err.to_string()
        }
    );
    assert_eq!(expanded.kind().code(), "serialize");
    assert_eq!(expanded.position(), None);
    assert!(expanded.is_expansion());
    assert_eq!(
        expanded.to_string(),
        format!("cannot serialize the variables: {err} in \"{{x}}\"")
    );
    err
}

#[test]
fn a_top_level_that_is_not_a_struct_or_map_is_refused() {
    let check = |err: SerializeError, what: &str| {
        assert_eq!(
            err.to_string(),
            format!("the top level must be a struct or a map, not {what}")
        );
        assert_eq!(err.message(), err.to_string());
        assert_eq!(err.path(), "");
    };
    check(serialize_error(&5u8), "an integer");
    check(serialize_error(&u128::MAX), "an integer");
    check(serialize_error(&-1.5f64), "a float");
    check(serialize_error(&true), "a boolean");
    check(serialize_error(&'c'), "a char");
    check(serialize_error("text"), "a string");
    check(serialize_error(&vec![1, 2]), "a sequence");
    check(serialize_error(&[1, 2]), "a tuple");
    check(serialize_error(&(1, "a")), "a tuple");
    check(serialize_error(&None::<Point>), "none");
    check(serialize_error(&()), "unit");
    check(serialize_error(&Level::Warn), "a unit variant");
    check(serialize_error(&Some(Id(5))), "an integer");
}

#[test]
fn a_map_key_that_cannot_be_stringified_is_refused_with_its_place() {
    #[derive(Serialize)]
    struct Filter {
        by_range: BTreeMap<(u8, u8), bool>,
    }
    #[derive(Serialize)]
    struct Query {
        q: &'static str,
        filters: Vec<Filter>,
    }
    let query = Query {
        q: "x",
        filters: vec![
            Filter {
                by_range: BTreeMap::new(),
            },
            Filter {
                by_range: BTreeMap::from([((1, 2), true)]),
            },
        ],
    };
    let err = serialize_error(&query);
    assert_eq!(err.path(), "filters[1].by_range");
    assert_eq!(
        err.message(),
        "a map key must be a string, a number, a boolean or a char, not a tuple"
    );
    assert_eq!(
        err.to_string(),
        "at `filters[1].by_range`: a map key must be a string, a number, a boolean or a char, \
         not a tuple"
    );
    // serde_json refuses the same key.
    assert!(serde_json::to_value(&query).is_err());

    let nan = One {
        x: FloatKeys(vec![f64::NAN]),
    };
    assert_eq!(
        serialize_error(&nan).to_string(),
        "at `x`: a float map key must be finite, not NaN or infinite"
    );
    assert!(serde_json::to_value(&nan).is_err());

    let in_a_variant = BTreeMap::from([(
        "v",
        Shape2::Struct {
            m: BTreeMap::from([(None::<u8>, 1)]),
        },
    )]);
    assert_eq!(serialize_error(&in_a_variant).path(), "v.Struct.m");
}

#[derive(Serialize)]
enum Shape2 {
    Struct { m: BTreeMap<Option<u8>, u8> },
}

/// A `Serialize` that fails: its message, and where.
struct Failing;

impl Serialize for Failing {
    fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom("the lock is poisoned"))
    }
}

#[test]
fn a_failing_serialize_is_reported_with_its_place() {
    let value = One {
        x: (1, vec![Some(Failing)]),
    };
    let err = serialize_error(&value);
    assert_eq!(err.to_string(), "at `x[1][0]`: the lock is poisoned");
    assert_eq!(serialize_error(&Failing).path(), "");
}

/// A list or map inside a list or map is kept, so that expansion refuses it as it refuses the
/// JSON: `NestedComposite`, at the expression.
#[test]
fn values_nested_too_deep_are_refused_by_the_expander() {
    let value = everything();
    let cases = [
        ("a{/nested_list*}", "nested_list", 1),
        ("{?x,nested_list}", "nested_list", 0),
        ("ab{+empty_nested}", "empty_nested", 2),
        ("{?map_of_lists*}", "map_of_lists", 0),
        ("{list_of_structs}", "list_of_structs", 0),
        ("/{;count}{.pair}", "pair", 9),
        ("{#rect*}", "rect", 0),
    ];
    for (template, var, at) in cases {
        let err = both(template, &value).unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::NestedComposite { var: var.into() },
            "{template}"
        );
        assert_eq!(err.position(), Some(at), "{template}");
    }
    // A prefix on a list or map is refused first, as for JSON.
    let err = both("{list:2}", &value).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::PrefixOnComposite { var: "list".into() }
    );
}

// --- the RFC 6570 §3.2 examples, from a struct ---

#[derive(Serialize)]
struct Keys {
    semi: &'static str,
    dot: &'static str,
    comma: &'static str,
}

/// The variables of RFC 6570 §3.2, as a user would write them: numbers as numbers, the
/// associative array as a struct (whose field order is the RFC's), `undef` as `None`.
#[derive(Serialize)]
struct SpecVars {
    count: [&'static str; 3],
    dom: Vec<&'static str>,
    dub: &'static str,
    hello: String,
    half: &'static str,
    var: &'static str,
    who: &'static str,
    base: &'static str,
    path: &'static str,
    list: Vec<&'static str>,
    keys: Keys,
    v: u8,
    x: u32,
    y: u16,
    empty: &'static str,
    empty_keys: BTreeMap<String, String>,
    undef: Option<String>,
}

fn spec_vars() -> SpecVars {
    SpecVars {
        count: ["one", "two", "three"],
        dom: vec!["example", "com"],
        dub: "me/too",
        hello: "Hello World!".into(),
        half: "50%",
        var: "value",
        who: "fred",
        base: "http://example.com/home/",
        path: "/foo/bar",
        list: vec!["red", "green", "blue"],
        keys: Keys {
            semi: ";",
            dot: ".",
            comma: ",",
        },
        v: 6,
        x: 1024,
        y: 768,
        empty: "",
        empty_keys: BTreeMap::new(),
        undef: None,
    }
}

#[test]
fn the_rfc_examples_expand_from_a_struct() {
    let vars = spec_vars();
    let cases = [
        // §3.2.1
        ("{count}", "one,two,three"),
        ("{count*}", "one,two,three"),
        ("{/count}", "/one,two,three"),
        ("{/count*}", "/one/two/three"),
        ("{;count}", ";count=one,two,three"),
        ("{;count*}", ";count=one;count=two;count=three"),
        ("{?count}", "?count=one,two,three"),
        ("{?count*}", "?count=one&count=two&count=three"),
        ("{&count*}", "&count=one&count=two&count=three"),
        // §3.2.2
        ("{var}", "value"),
        ("{hello}", "Hello%20World%21"),
        ("{half}", "50%25"),
        ("O{empty}X", "OX"),
        ("O{undef}X", "OX"),
        ("{x,y}", "1024,768"),
        ("{x,hello,y}", "1024,Hello%20World%21,768"),
        ("?{x,empty}", "?1024,"),
        ("?{x,undef}", "?1024"),
        ("?{undef,y}", "?768"),
        ("{var:3}", "val"),
        ("{var:30}", "value"),
        ("{list}", "red,green,blue"),
        ("{list*}", "red,green,blue"),
        ("{keys}", "semi,%3B,dot,.,comma,%2C"),
        ("{keys*}", "semi=%3B,dot=.,comma=%2C"),
        // §3.2.3
        ("{+var}", "value"),
        ("{+hello}", "Hello%20World!"),
        ("{+half}", "50%25"),
        ("{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"),
        ("{+base}index", "http://example.com/home/index"),
        ("O{+empty}X", "OX"),
        ("O{+undef}X", "OX"),
        ("{+path}/here", "/foo/bar/here"),
        ("here?ref={+path}", "here?ref=/foo/bar"),
        ("up{+path}{var}/here", "up/foo/barvalue/here"),
        ("{+x,hello,y}", "1024,Hello%20World!,768"),
        ("{+path,x}/here", "/foo/bar,1024/here"),
        ("{+path:6}/here", "/foo/b/here"),
        ("{+list}", "red,green,blue"),
        ("{+list*}", "red,green,blue"),
        ("{+keys}", "semi,;,dot,.,comma,,"),
        ("{+keys*}", "semi=;,dot=.,comma=,"),
        // §3.2.4
        ("{#var}", "#value"),
        ("{#hello}", "#Hello%20World!"),
        ("{#half}", "#50%25"),
        ("foo{#empty}", "foo#"),
        ("foo{#undef}", "foo"),
        ("{#x,hello,y}", "#1024,Hello%20World!,768"),
        ("{#path,x}/here", "#/foo/bar,1024/here"),
        ("{#path:6}/here", "#/foo/b/here"),
        ("{#list}", "#red,green,blue"),
        ("{#list*}", "#red,green,blue"),
        ("{#keys}", "#semi,;,dot,.,comma,,"),
        ("{#keys*}", "#semi=;,dot=.,comma=,"),
        // §3.2.5
        ("{.who}", ".fred"),
        ("{.who,who}", ".fred.fred"),
        ("{.half,who}", ".50%25.fred"),
        ("www{.dom*}", "www.example.com"),
        ("X{.var}", "X.value"),
        ("X{.empty}", "X."),
        ("X{.undef}", "X"),
        ("X{.var:3}", "X.val"),
        ("X{.list}", "X.red,green,blue"),
        ("X{.list*}", "X.red.green.blue"),
        ("X{.keys}", "X.semi,%3B,dot,.,comma,%2C"),
        ("X{.keys*}", "X.semi=%3B.dot=..comma=%2C"),
        ("X{.empty_keys}", "X"),
        ("X{.empty_keys*}", "X"),
        // §3.2.6
        ("{/who}", "/fred"),
        ("{/who,who}", "/fred/fred"),
        ("{/half,who}", "/50%25/fred"),
        ("{/who,dub}", "/fred/me%2Ftoo"),
        ("{/var}", "/value"),
        ("{/var,empty}", "/value/"),
        ("{/var,undef}", "/value"),
        ("{/var,x}/here", "/value/1024/here"),
        ("{/var:1,var}", "/v/value"),
        ("{/list}", "/red,green,blue"),
        ("{/list*}", "/red/green/blue"),
        ("{/list*,path:4}", "/red/green/blue/%2Ffoo"),
        ("{/keys}", "/semi,%3B,dot,.,comma,%2C"),
        ("{/keys*}", "/semi=%3B/dot=./comma=%2C"),
        // §3.2.7
        ("{;who}", ";who=fred"),
        ("{;half}", ";half=50%25"),
        ("{;empty}", ";empty"),
        ("{;v,empty,who}", ";v=6;empty;who=fred"),
        ("{;v,bar,who}", ";v=6;who=fred"),
        ("{;x,y}", ";x=1024;y=768"),
        ("{;x,y,empty}", ";x=1024;y=768;empty"),
        ("{;x,y,undef}", ";x=1024;y=768"),
        ("{;hello:5}", ";hello=Hello"),
        ("{;list}", ";list=red,green,blue"),
        ("{;list*}", ";list=red;list=green;list=blue"),
        ("{;keys}", ";keys=semi,%3B,dot,.,comma,%2C"),
        ("{;keys*}", ";semi=%3B;dot=.;comma=%2C"),
        // §3.2.8
        ("{?who}", "?who=fred"),
        ("{?half}", "?half=50%25"),
        ("{?x,y}", "?x=1024&y=768"),
        ("{?x,y,empty}", "?x=1024&y=768&empty="),
        ("{?x,y,undef}", "?x=1024&y=768"),
        ("{?var:3}", "?var=val"),
        ("{?list}", "?list=red,green,blue"),
        ("{?list*}", "?list=red&list=green&list=blue"),
        ("{?keys}", "?keys=semi,%3B,dot,.,comma,%2C"),
        ("{?keys*}", "?semi=%3B&dot=.&comma=%2C"),
        // §3.2.9
        ("{&who}", "&who=fred"),
        ("{&half}", "&half=50%25"),
        ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
        ("{&x,y,empty}", "&x=1024&y=768&empty="),
        ("{&var:3}", "&var=val"),
        ("{&list}", "&list=red,green,blue"),
        ("{&list*}", "&list=red&list=green&list=blue"),
        ("{&keys}", "&keys=semi,%3B,dot,.,comma,%2C"),
        ("{&keys*}", "&semi=%3B&dot=.&comma=%2C"),
    ];
    for (template, expected) in cases {
        assert_eq!(both(template, &vars).unwrap(), expected, "{template}");
    }
}

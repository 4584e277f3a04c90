//! An expansion's variables as the package sends them: text with lengths, not JSON, read
//! where it lies in the input buffer. JavaScript writes it in one pass over the object, and
//! the module needs no JSON parser, which keeps it small.
//!
//! ```text
//! variables := (name NUL value)*
//! value     := item | "l" count NUL item* | "m" count NUL (text item)*
//! item      := "s" text | "u" | "n"
//! text      := length NUL characters
//! ```
//!
//! A `length` counts the characters' UTF-16 code units, as JavaScript measures strings, in
//! decimal; `count` the items of a list (`l`) or the entries of a map (`m`, an object), each a
//! key and its item. `s` is a string: numbers, booleans and bigints come as `String` writes
//! them. `u` is undefined (`null`, `undefined`), `n` a list or map inside a list or map, which
//! expansion refuses as nested (its content is not sent). Names hold no NUL: no template's
//! variable can have such a name, and the package leaves them out.

use std::collections::HashMap;

use rfc6570::vars::{VarList, VarMap, VarValue, Vars, Visit};

/// The variables read from the package's text: a name's first value is its value.
pub struct Variables<'a> {
    values: Vec<(&'a str, Value<'a>)>,
    /// Where each name is, once there are too many to compare one by one.
    index: Option<HashMap<&'a str, usize>>,
}

enum Value<'a> {
    Item(Item<'a>),
    List(List<'a>),
    Map(Map<'a>),
}

#[derive(Clone, Copy)]
enum Item<'a> {
    Text(&'a str),
    Undefined,
    Nested,
}

struct List<'a>(Vec<Item<'a>>);

struct Map<'a>(Vec<(&'a str, Item<'a>)>);

/// The list that stands for a value nested in a list or map: defined, so refused.
struct Nested;

/// Past this many variables, names are looked up in a hash map.
const COMPARED: usize = 16;

impl<'a> Variables<'a> {
    /// Reads `text`; `None` if it is not of the form above.
    pub fn parse(text: &'a str) -> Option<Self> {
        let mut reader = Reader { rest: text };
        let mut values = Vec::new();
        while !reader.rest.is_empty() {
            let name = reader.until_nul()?;
            values.push((name, reader.value()?));
        }
        let index = (values.len() > COMPARED).then(|| {
            let mut index = HashMap::with_capacity(values.len());
            for (at, (name, _)) in values.iter().enumerate() {
                index.entry(*name).or_insert(at);
            }
            index
        });
        Some(Self { values, index })
    }
}

impl Vars for Variables<'_> {
    fn get(&self, name: &str) -> VarValue<'_> {
        let at = match &self.index {
            Some(index) => index.get(name).copied(),
            None => self.values.iter().position(|(n, _)| *n == name),
        };
        at.map_or(VarValue::Undefined, |at| self.values[at].1.var_value())
    }
}

impl Value<'_> {
    fn var_value(&self) -> VarValue<'_> {
        match self {
            Self::Item(item) => item.value(),
            Self::List(list) => VarValue::List(list),
            Self::Map(map) => VarValue::Map(map),
        }
    }
}

impl<'a> Item<'a> {
    fn value(&self) -> VarValue<'a> {
        match *self {
            Self::Text(text) => VarValue::String(text),
            Self::Undefined => VarValue::Undefined,
            Self::Nested => VarValue::List(&Nested),
        }
    }
}

impl VarList for List<'_> {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn for_each_item(&self, f: &mut dyn FnMut(VarValue<'_>) -> Visit) -> Visit {
        self.0.iter().try_for_each(|item| f(item.value()))
    }
}

impl VarMap for Map<'_> {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn for_each_entry(&self, f: &mut dyn FnMut(&str, VarValue<'_>) -> Visit) -> Visit {
        self.0
            .iter()
            .try_for_each(|(key, item)| f(key, item.value()))
    }
}

impl VarList for Nested {
    fn is_empty(&self) -> bool {
        true
    }

    fn for_each_item(&self, _: &mut dyn FnMut(VarValue<'_>) -> Visit) -> Visit {
        Ok(())
    }
}

/// The text not read yet.
struct Reader<'a> {
    rest: &'a str,
}

impl<'a> Reader<'a> {
    /// The text up to the next NUL, which is read too.
    fn until_nul(&mut self) -> Option<&'a str> {
        let (before, after) = self.rest.split_once('\0')?;
        self.rest = after;
        Some(before)
    }

    /// A number and its NUL.
    fn number(&mut self) -> Option<usize> {
        self.until_nul()?.parse().ok()
    }

    /// A length, a NUL and that many UTF-16 code units of characters.
    fn text(&mut self) -> Option<&'a str> {
        let units = self.number()?;
        let end = utf16_prefix(self.rest, units)?;
        let (text, rest) = self.rest.split_at(end);
        self.rest = rest;
        Some(text)
    }

    /// The next byte, which marks what follows.
    fn mark(&mut self) -> Option<u8> {
        let mark = *self.rest.as_bytes().first()?;
        self.rest = self.rest.get(1..)?;
        Some(mark)
    }

    fn item(&mut self) -> Option<Item<'a>> {
        match self.mark()? {
            b's' => self.text().map(Item::Text),
            b'u' => Some(Item::Undefined),
            b'n' => Some(Item::Nested),
            _ => None,
        }
    }

    fn value(&mut self) -> Option<Value<'a>> {
        let list = match self.rest.as_bytes().first()? {
            b'l' => true,
            b'm' => false,
            _ => return self.item().map(Value::Item),
        };
        self.mark()?;
        // Each item takes at least a byte, so a count larger than the text fails as soon as
        // the text ends, and nothing is reserved for it up front.
        let count = self.number()?;
        if list {
            let items = (0..count).map(|_| self.item()).collect::<Option<_>>()?;
            Some(Value::List(List(items)))
        } else {
            let entries = (0..count)
                .map(|_| Some((self.text()?, self.item()?)))
                .collect::<Option<_>>()?;
            Some(Value::Map(Map(entries)))
        }
    }
}

/// The byte length of the first `units` UTF-16 code units of `text`, if they end a character.
fn utf16_prefix(text: &str, units: usize) -> Option<usize> {
    if text.get(..units).is_some_and(str::is_ascii) {
        return Some(units);
    }
    let mut counted = 0;
    for (at, c) in text.char_indices() {
        if counted >= units {
            // Past the count, the last character crossed it: it does not end one.
            return (counted == units).then_some(at);
        }
        counted += c.len_utf16();
    }
    (counted == units).then_some(text.len())
}

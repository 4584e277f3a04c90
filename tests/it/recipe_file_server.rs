//! The fuzz recipe of a file server (`tests/it/recipes/file_server.rs`), run on stable over fixed
//! inputs: the bytes of every listed spelling of the path, and 4,000 pseudo-random buffers. The same recipe
//! is the cargo-fuzz target `file_server`.

use crate::recipes::file_server;

use file_server::{FileServer, make_root, run};

/// A small deterministic generator (xorshift), so that the inputs are the same on every run.
fn buffers(count: usize) -> impl Iterator<Item = Vec<u8>> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..count).map(move |i| {
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let len = 1 + i % 64;
        (0..len).map(|_| next() as u8).collect()
    })
}

#[test]
fn the_file_server_recipe_holds_on_fixed_inputs() {
    let dir = std::env::temp_dir().join(format!("rfc6570-recipe-{}", std::process::id()));
    let server = FileServer::new(&make_root(&dir));
    // A first byte that is odd picks a listed spelling; with one variable, the next byte is
    // the spelling's index (there are fewer than 256).
    for index in 0..=u8::MAX {
        run(&server, &[1, index]);
    }
    for data in buffers(4000) {
        run(&server, &data);
    }
    // The server itself: a file is served, a traversal and a link out are not.
    assert!(server.open("file:///docs/a.md").is_ok());
    assert!(server.open("file:///docs/..%2F..%2Fx").is_err());
    #[cfg(unix)]
    assert!(server.open("file:///out/x").is_err());
    std::fs::remove_dir_all(&dir).ok();
}

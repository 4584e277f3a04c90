//! Fuzz target `file_server`: the recipe of `tests/it/recipes/file_server.rs`, the users' own
//! example of fuzzing a handler with `rfc6570::testing::fuzz`. A hostile URI for
//! `file:///{+path}` routes as labelled, and the file the handler opens is beneath the root.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/it/recipes/file_server.rs"]
mod file_server;

fn server() -> &'static file_server::FileServer {
    static SERVER: OnceLock<file_server::FileServer> = OnceLock::new();
    SERVER.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("rfc6570-fuzz-{}", std::process::id()));
        file_server::FileServer::new(&file_server::make_root(&dir))
    })
}

fuzz_target!(|data: &[u8]| file_server::run(server(), data));

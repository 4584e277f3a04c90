use rfc6570::Router;
use std::time::Instant;
fn main() {
    let data = std::fs::read_to_string("../shared/testdata/routes/github-api.tsv").unwrap();
    let mut router = Router::new();
    let mut paths = vec![];
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        let (t, p) = line.split_once('\t').unwrap();
        router.insert(t, t.to_string()).unwrap();
        paths.push(p.to_string());
    }
    for p in &paths {
        assert!(router.at(p).is_ok(), "{p}");
    }
    let n: usize = std::env::var("N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let start = Instant::now();
    for _ in 0..n {
        for p in &paths {
            std::hint::black_box(router.at(p).unwrap().value);
        }
    }
    let el = start.elapsed();
    println!(
        "{:.1} ns/lookup",
        el.as_nanos() as f64 / (n * paths.len()) as f64
    );
}

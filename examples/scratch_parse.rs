use rfc6570::UriTemplate;
fn main() {
    let text =
        std::fs::read_to_string("../shared/testdata/uritemplate-test/spec-examples.json").unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut ts = vec![];
    for g in v.as_object().unwrap().values() {
        for c in g["testcases"].as_array().unwrap() {
            ts.push(c[0].as_str().unwrap().to_string());
        }
    }
    let n: usize = std::env::var("N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let mut ok = 0;
    for _ in 0..n {
        for t in &ts {
            ok += std::hint::black_box(UriTemplate::parse(t)).is_ok() as usize;
        }
    }
    println!("{} templates, {ok}", ts.len());
}

//! scratch: time raw SQL on a kept database file (deleted before hand-off).
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let conn = duckdb::Connection::open(&args[1]).unwrap();
    for sql in std::fs::read_to_string(&args[2]).unwrap().split(";;") {
        let sql = sql.trim();
        if sql.is_empty() { continue; }
        let mut times = Vec::new();
        let mut n = 0;
        for _ in 0..6 {
            let t = Instant::now();
            let mut st = conn.prepare(sql).unwrap();
            let mut rows = st.query([]).unwrap();
            n = 0;
            while rows.next().unwrap().is_some() { n += 1; }
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        times.sort_by(|a, b| a.partial_cmp(b).unwrap());
        println!("{:>8.1} ms  {:>6} rows  {}", times[2], n, &sql.replace('\n', " ")[..sql.len().min(150)]);
    }
}

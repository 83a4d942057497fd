// TEMPORARY exploration helper; deleted before hand-off.
#[test]
fn scratch() {
    let Ok(path) = std::env::var("SCRATCH_SQL") else { return };
    let sql = std::fs::read_to_string(path).unwrap();
    let conn = duckdb::Connection::open_in_memory().unwrap();
    for stmt in sql.split(";\n").map(str::trim).filter(|s| !s.is_empty()) {
        println!("== {stmt}");
        match conn.prepare(stmt) {
            Err(e) => println!("ERR {e}"),
            Ok(mut st) => {
                let rows = st.query_map([], |r| {
                    let mut out = Vec::new();
                    let mut i = 0;
                    while let Ok(v) = r.get_ref(i) { out.push(format!("{:?}", v)); i += 1; }
                    Ok(out.join(" | "))
                });
                match rows { Err(e) => println!("ERR {e}"), Ok(rows) => for r in rows { match r { Ok(r) => println!("{r}"), Err(e) => println!("ERR {e}") } } }
            }
        }
    }
}

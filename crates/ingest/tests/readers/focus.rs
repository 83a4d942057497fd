use costscope_ingest::Format;

use crate::support::*;

#[test]
fn focus_1_0_csv_with_bom_crlf_and_null_tokens_is_staged() {
    let (conn, staged) = load("synthetic/focus_1_0.csv", None);
    assert_eq!(staged.format, Format::Focus);
    assert_eq!(staged.rows, 6);
    println!("{:?}", rows(&conn, "SELECT CAST(COLUMNS(*) AS VARCHAR) FROM staged"));
    println!("{:?}", daily_service_totals(&conn));
}

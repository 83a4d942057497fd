//! The name of an uploaded file as it is stored and shown: what the uploader's browser sent,
//! made safe to display. A hostile name cannot reorder the text around it (bidi controls),
//! hide characters (zero-width, control characters) or flood a page (length).

/// The longest upload name kept, in characters.
pub const MAX_UPLOAD_NAME_CHARS: usize = 200;
/// Characters kept from the end of a shortened name, so that its extension stays visible.
const KEPT_END_CHARS: usize = 40;
/// The name of a file sent without one.
pub const UNNAMED_UPLOAD: &str = "upload";

/// The display form of an uploaded file's name: its last path component, without control,
/// bidi-control or zero-width characters, runs of white space made one space, trimmed, and at
/// most [`MAX_UPLOAD_NAME_CHARS`] characters (the middle is cut, marked `…`, and the end with
/// the extension kept). A name with nothing left is [`UNNAMED_UPLOAD`].
pub fn display_upload_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or_default();
    let mut clean = String::with_capacity(base.len().min(4 * MAX_UPLOAD_NAME_CHARS));
    let mut pending_space = false;
    for c in base.chars() {
        if c.is_whitespace() {
            pending_space = !clean.is_empty();
            continue;
        }
        if is_hidden(c) {
            continue;
        }
        if pending_space {
            clean.push(' ');
            pending_space = false;
        }
        clean.push(c);
    }
    let chars = clean.chars().count();
    if chars > MAX_UPLOAD_NAME_CHARS {
        let head: String = clean
            .chars()
            .take(MAX_UPLOAD_NAME_CHARS - KEPT_END_CHARS - 1)
            .collect();
        let tail: String = clean.chars().skip(chars - KEPT_END_CHARS).collect();
        clean = format!("{}…{}", head.trim_end(), tail.trim_start());
    }
    if clean.is_empty() {
        UNNAMED_UPLOAD.to_owned()
    } else {
        clean
    }
}

/// Characters that change how the text around them is shown without being seen themselves.
fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            // Bidi embeddings, overrides and isolates, and the directional marks.
            '\u{202A}'..='\u{202E}'
                | '\u{2066}'..='\u{2069}'
                | '\u{200E}'
                | '\u{200F}'
                | '\u{061C}'
                // Zero-width characters and the byte order mark.
                | '\u{200B}'..='\u{200D}'
                | '\u{2060}'
                | '\u{FEFF}'
                // Line and paragraph separators.
                | '\u{2028}'
                | '\u{2029}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_are_kept() {
        assert_eq!(
            display_upload_name("costs-2024-09.csv.gz"),
            "costs-2024-09.csv.gz"
        );
        assert_eq!(display_upload_name("März Kosten.csv"), "März Kosten.csv");
    }

    #[test]
    fn bidi_and_control_characters_are_removed() {
        // "invoice\u{202E}vsc.exe" shows as "invoiceexe.csv".
        assert_eq!(
            display_upload_name("invoice\u{202E}vsc.exe"),
            "invoicevsc.exe"
        );
        assert_eq!(
            display_upload_name("a\u{0000}b\u{0007}c\u{200B}\u{2066}d\u{FEFF}.csv"),
            "abcd.csv"
        );
        assert_eq!(display_upload_name("two\r\nlines\t.csv"), "two lines .csv");
    }

    #[test]
    fn paths_are_cut_to_the_file_name() {
        assert_eq!(display_upload_name("C:\\Users\\me\\costs.csv"), "costs.csv");
        assert_eq!(display_upload_name("../../etc/passwd"), "passwd");
    }

    #[test]
    fn long_names_keep_their_start_and_extension() {
        let long = format!("{}.csv.gz", "x".repeat(10_000));
        let shown = display_upload_name(&long);
        assert_eq!(shown.chars().count(), MAX_UPLOAD_NAME_CHARS);
        assert!(
            shown.ends_with("xx.csv.gz") && shown.contains('…'),
            "{shown}"
        );
    }

    #[test]
    fn nothing_left_is_upload() {
        assert_eq!(display_upload_name(""), "upload");
        assert_eq!(display_upload_name("\u{202E}\u{0001}  "), "upload");
        assert_eq!(display_upload_name("dir/"), "upload");
    }
}

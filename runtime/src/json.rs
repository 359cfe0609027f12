//! JSON string quoting, shared by aplc's `--error-format json` diagnostics and the run-time library's error reports in
//! that format (the few fields of a diagnostic need no JSON library).

/// `text` as a JSON string literal: quotes, backslashes and control characters escaped, everything else as is.
pub fn json_string(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for character in text.chars() {
        match character {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\r' => quoted.push_str("\\r"),
            '\t' => quoted.push_str("\\t"),
            control if (control as u32) < 0x20 => quoted.push_str(&format!("\\u{:04x}", control as u32)),
            other => quoted.push(other),
        }
    }
    quoted.push('"');
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_escape_quotes_backslashes_and_control_characters() {
        assert_eq!(json_string("a\"b\\c\nd\u{1}⍳"), "\"a\\\"b\\\\c\\nd\\u0001⍳\"");
    }
}

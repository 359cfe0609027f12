//! What the syntax tests share.

/// The AST printer's S-expression form with every `(label NAME LINE)` written `(label NAME _)`: a label's line
/// number follows the layout of the text, which the APL printer does not keep, so round trips compare without it.
pub fn without_label_line_numbers(printed: &str) -> String {
    let mut result = String::new();
    let mut rest = printed;
    while let Some(index) = rest.find("(label ") {
        let after_keyword = &rest[index + "(label ".len()..];
        let name_length = after_keyword.find(' ').unwrap_or(after_keyword.len());
        result.push_str(&rest[..index + "(label ".len() + name_length]);
        result.push_str(" _");
        rest = after_keyword[name_length..]
            .trim_start_matches(' ')
            .trim_start_matches(|character: char| character.is_ascii_digit());
    }
    result.push_str(rest);
    result
}

//! The numbers in a text file, as `⎕ReadIntVecFile` and `⎕ReadDoubleVecFile` read them: whitespace-separated tokens,
//! APL's high minus `¯` or an ASCII `-` for negatives. One implementation for the interpreters (through the Rust API)
//! and for compiled programs (through `aplrt_read_array_file`), so that every backend accepts the same files.

/// The integers in `text`, or the first token that is not one (`Err(token)`).
pub fn ints_in_text(text: &str) -> Result<Vec<i64>, String> {
    numbers_in_text(text, |token| token.parse::<i64>().ok())
}

/// The numbers in `text` as doubles (integers, decimals, exponents), or the first token that is not one.
pub fn doubles_in_text(text: &str) -> Result<Vec<f64>, String> {
    numbers_in_text(text, |token| token.parse::<f64>().ok())
}

/// The message of the DOMAIN ERROR for a token that is not a number.
pub fn not_a_number_message(token: &str) -> String {
    format!("not a number in the file: {token}")
}

fn numbers_in_text<T>(text: &str, parse: impl Fn(&str) -> Option<T>) -> Result<Vec<T>, String> {
    text.split_whitespace()
        .map(|token| {
            let token = token.replace('¯', "-");
            parse(&token).ok_or(token)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_separated_by_any_whitespace_and_may_use_the_high_minus() {
        assert_eq!(ints_in_text(" 1\t¯2\n30 -4 "), Ok(vec![1, -2, 30, -4]));
        assert_eq!(doubles_in_text("1.5 ¯2e1 3"), Ok(vec![1.5, -20.0, 3.0]));
        assert_eq!(ints_in_text(""), Ok(vec![]));
    }

    #[test]
    fn the_first_token_that_is_not_a_number_is_reported() {
        assert_eq!(ints_in_text("1 2.5 x"), Err("2.5".to_string()));
        assert_eq!(doubles_in_text("1 x 2"), Err("x".to_string()));
    }
}

//! `size_hint = "10KB"`: parsed at compile time into bytes.

/// Bytes in a size hint: digits then `B`, `KB` or `MB` (binary multiples, as in `10KB` = 10240).
pub fn parse_size_hint(text: &str) -> Result<usize, String> {
    let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
    let unit = &text[digits.len()..];
    let multiplier = match unit {
        "B" => 1,
        "KB" => 1024,
        "MB" => 1024 * 1024,
        _ => {
            return Err(format!(
                "`{text}` is not a size: write digits then B, KB or MB, e.g. \"10KB\""
            ));
        }
    };
    let n: usize = digits
        .parse()
        .map_err(|_| format!("`{text}` does not start with a number, e.g. \"10KB\""))?;
    if n == 0 {
        return Err("a size hint of zero would make every answer over budget".into());
    }
    n.checked_mul(multiplier)
        .ok_or_else(|| format!("`{text}` is too large"))
}

#[cfg(test)]
mod tests {
    use super::parse_size_hint;

    #[test]
    fn parses_the_documented_forms() {
        assert_eq!(parse_size_hint("5KB"), Ok(5 * 1024));
        assert_eq!(parse_size_hint("32KB"), Ok(32 * 1024));
        assert_eq!(parse_size_hint("1MB"), Ok(1024 * 1024));
        assert_eq!(parse_size_hint("800B"), Ok(800));
    }

    #[test]
    fn rejects_everything_else() {
        for bad in [
            "", "KB", "10", "10 KB", "10kb", "1.5MB", "0KB", "-1KB", "10GB",
        ] {
            assert!(parse_size_hint(bad).is_err(), "{bad} should be rejected");
        }
    }
}

//! Keeping answers inside their size hint: measure items as JSON and cut pages by bytes.

use serde::Serialize;

/// Room left for the envelope around `data`: status, pagination with its cursor (about 250
/// bytes for the longest positions), meta. The hint is counted separately.
pub const ENVELOPE_RESERVE: usize = 700;

/// Bytes `value` takes as compact JSON.
pub fn json_len<T: Serialize + ?Sized>(value: &T) -> usize {
    serde_json::to_string(value).map_or(usize::MAX, |s| s.len())
}

/// Bytes available to a page's `data` array for a tool whose size hint is `size_hint`.
pub fn page_budget(size_hint: usize, hint: &str) -> usize {
    // A hint is sent as a JSON string: escaping can grow it, measure it as sent.
    size_hint
        .saturating_sub(ENVELOPE_RESERVE + crate::tools::support::text::json_str_len(hint) + 10)
}

/// How many of `items`, from the first, fit in `budget` bytes as a JSON array. At least one
/// when there is any: the caller makes each single item fit on its own.
pub fn fit_items<T: Serialize>(items: &[T], budget: usize) -> usize {
    let mut used = 2; // []
    for (i, item) in items.iter().enumerate() {
        let n = json_len(item) + usize::from(i > 0);
        if used + n > budget {
            return i.max(1);
        }
        used += n;
    }
    items.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_by_serialized_size() {
        let items = vec!["aaaa".to_string(); 10]; // 6 bytes each, plus commas
        assert_eq!(fit_items(&items, 2 + 6 * 3 + 2), 3);
        assert_eq!(fit_items(&items, 1000), 10);
        assert_eq!(fit_items(&items, 1), 1);
        assert_eq!(fit_items::<String>(&[], 1), 0);
        assert_eq!(json_len(&items[..3]), 2 + 6 * 3 + 2);
    }
}

//! `Page<T>`: one page of a paginated list, as a tool returns it.

use serde::Serialize;
use serde_json::Value;

/// One page of results. The items become `data`, the rest becomes `pagination` in the envelope.
///
/// A tool says where the next page starts with [`Page::with_next`] (any serializable position:
/// an offset, a keyset); the runtime turns that into an opaque `next_cursor` bound to the query.
///
/// ```
/// use mcp_tool::prelude::*;
///
/// /// Arguments of a paginated tool.
/// #[tool_args]
/// pub struct ListNotesArgs {
///     /// Notes per page.
///     #[arg(default = 20, max = 100)]
///     pub limit: u32,
///     /// `next_cursor` from the previous page; omit for the first page.
///     pub cursor: Option<Cursor>,
/// }
///
/// fn page_of_notes(all: Vec<String>, args: &ListNotesArgs) -> ToolResult<Page<String>> {
///     let offset: usize = match &args.cursor {
///         Some(cursor) => cursor.position()?,
///         None => 0,
///     };
///     Ok(Page::from_offset(all, offset, args.limit as usize))
/// }
///
/// let args = ListNotesArgs { limit: 2, cursor: None };
/// let page = page_of_notes(vec!["a".into(), "b".into(), "c".into()], &args).unwrap();
/// assert_eq!(page.items(), ["a", "b"]);
/// assert!(page.has_more());
/// ```
#[derive(Debug, Clone)]
pub struct Page<T> {
    pub(crate) items: Vec<T>,
    pub(crate) next: Option<Value>,
    pub(crate) total: Option<u64>,
    pub(crate) hint: Option<String>,
}

impl<T> Page<T> {
    /// A page with no page after it.
    pub fn new(items: Vec<T>) -> Self {
        Self {
            items,
            next: None,
            total: None,
            hint: None,
        }
    }

    /// Marks that more items follow, starting at `position`.
    pub fn with_next(mut self, position: impl Serialize) -> Self {
        self.next = Some(serde_json::to_value(position).unwrap_or(Value::Null));
        self
    }

    /// The total number of items across all pages, when the tool knows it cheaply.
    pub fn with_total(mut self, total: u64) -> Self {
        self.total = Some(total);
        self
    }

    /// A sentence for the model: what to call next, what was left out.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Cuts `limit` items starting at `offset` out of a full list, with an offset cursor.
    /// For lists a tool already holds in memory; large sources should page in their query.
    pub fn from_offset(all: Vec<T>, offset: usize, limit: usize) -> Self {
        let total = all.len();
        let end = offset.saturating_add(limit).min(total);
        let items: Vec<T> = all
            .into_iter()
            .skip(offset)
            .take(end.saturating_sub(offset))
            .collect();
        let page = Page::new(items).with_total(total as u64);
        if end < total {
            page.with_next(end)
        } else {
            page
        }
    }

    /// The items of this page.
    pub fn items(&self) -> &[T] {
        &self.items
    }

    /// Whether a next page was announced with [`with_next`](Self::with_next).
    pub fn has_more(&self) -> bool {
        self.next.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_offset_pages_through_everything_once() {
        let all: Vec<u32> = (0..25).collect();
        let mut seen = Vec::new();
        let mut offset = 0usize;
        loop {
            let page = Page::from_offset(all.clone(), offset, 10);
            seen.extend_from_slice(page.items());
            match page.next {
                Some(v) => offset = v.as_u64().unwrap() as usize,
                None => break,
            }
        }
        assert_eq!(seen, all);
        let past_end = Page::from_offset(all, 40, 10);
        assert!(past_end.items().is_empty() && !past_end.has_more());
    }
}

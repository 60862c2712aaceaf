//! Rich answers: text, images, audio, embedded resources and resource links.
//!
//! Most tools answer with data (`ToolResult<T>`) and get the envelope. A tool whose answer is
//! media or documents returns `ToolResult<Content>` instead: its blocks go to the client as
//! they are, and errors still use the envelope.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
pub use rmcp::model::{Annotations, ContentBlock, Resource, ResourceContents, Role};

/// An ordered list of content blocks, built fluently.
///
/// ```
/// use mcp_tool::content::{Content, Role};
/// let answer = Content::new()
///     .text("Here is the chart.")
///     .image_bytes(b"\x89PNG...", "image/png")
///     .for_audience(&[Role::User]);
/// assert_eq!(answer.blocks().len(), 2);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Content {
    blocks: Vec<ContentBlock>,
}

impl Content {
    /// No blocks yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// A text block.
    pub fn text(self, text: impl Into<String>) -> Self {
        self.block(ContentBlock::text(text))
    }

    /// An image from base64 data.
    pub fn image(self, base64: impl Into<String>, mime_type: impl Into<String>) -> Self {
        self.block(ContentBlock::image(base64, mime_type))
    }

    /// An image from raw bytes (encoded here).
    pub fn image_bytes(self, bytes: &[u8], mime_type: impl Into<String>) -> Self {
        self.image(STANDARD.encode(bytes), mime_type)
    }

    /// Audio from base64 data.
    pub fn audio(self, base64: impl Into<String>, mime_type: impl Into<String>) -> Self {
        self.block(ContentBlock::audio(base64, mime_type))
    }

    /// Audio from raw bytes (encoded here).
    pub fn audio_bytes(self, bytes: &[u8], mime_type: impl Into<String>) -> Self {
        self.audio(STANDARD.encode(bytes), mime_type)
    }

    /// A text document embedded whole, with its URI and MIME type.
    pub fn embedded_text(
        self,
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        text: impl Into<String>,
    ) -> Self {
        self.block(ContentBlock::resource(
            ResourceContents::TextResourceContents {
                uri: uri.into(),
                mime_type: Some(mime_type.into()),
                text: text.into(),
                meta: None,
            },
        ))
    }

    /// A binary document embedded whole (encoded here).
    pub fn embedded_blob(
        self,
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        bytes: &[u8],
    ) -> Self {
        self.block(ContentBlock::resource(
            ResourceContents::BlobResourceContents {
                uri: uri.into(),
                mime_type: Some(mime_type.into()),
                blob: STANDARD.encode(bytes),
                meta: None,
            },
        ))
    }

    /// A link to a resource the client can fetch.
    pub fn resource_link(self, resource: Resource) -> Self {
        self.block(ContentBlock::resource_link(resource))
    }

    /// Any block, for what the helpers above do not cover.
    pub fn block(mut self, block: ContentBlock) -> Self {
        self.blocks.push(block);
        self
    }

    /// Sets the annotations of the last block added.
    pub fn annotated(mut self, annotations: Annotations) -> Self {
        if let Some(last) = self.blocks.last_mut() {
            set_annotations(last, annotations);
        }
        self
    }

    /// Shorthand: the last block is meant for these roles.
    pub fn for_audience(self, audience: &[Role]) -> Self {
        let mut annotations = self.last_annotations();
        annotations.audience = Some(audience.to_vec());
        self.annotated(annotations)
    }

    /// Shorthand: the last block's importance, from 0 (optional) to 1 (required).
    pub fn with_priority(self, priority: f32) -> Self {
        let mut annotations = self.last_annotations();
        annotations.priority = Some(priority.clamp(0.0, 1.0));
        self.annotated(annotations)
    }

    fn last_annotations(&self) -> Annotations {
        self.blocks
            .last()
            .and_then(annotations_of)
            .cloned()
            .unwrap_or_default()
    }

    /// The blocks, in order.
    pub fn blocks(&self) -> &[ContentBlock] {
        &self.blocks
    }

    /// The blocks, in order, as the client will receive them.
    pub fn into_blocks(self) -> Vec<ContentBlock> {
        self.blocks
    }
}

impl From<Vec<ContentBlock>> for Content {
    fn from(blocks: Vec<ContentBlock>) -> Self {
        Self { blocks }
    }
}

fn annotations_of(block: &ContentBlock) -> Option<&Annotations> {
    match block {
        ContentBlock::Text(c) => c.annotations.as_ref(),
        ContentBlock::Image(c) => c.annotations.as_ref(),
        ContentBlock::Audio(c) => c.annotations.as_ref(),
        ContentBlock::Resource(c) => c.annotations.as_ref(),
        ContentBlock::ResourceLink(c) => c.annotations.as_ref(),
        _ => None,
    }
}

fn set_annotations(block: &mut ContentBlock, annotations: Annotations) {
    let slot = match block {
        ContentBlock::Text(c) => &mut c.annotations,
        ContentBlock::Image(c) => &mut c.annotations,
        ContentBlock::Audio(c) => &mut c.annotations,
        ContentBlock::Resource(c) => &mut c.annotations,
        ContentBlock::ResourceLink(c) => &mut c.annotations,
        _ => return,
    };
    *slot = Some(annotations);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn blocks_serialize_as_mcp_content() {
        let c = Content::new()
            .text("hi")
            .for_audience(&[Role::User])
            .with_priority(0.5)
            .image_bytes(&[1, 2, 3], "image/png")
            .embedded_text("test://doc", "text/plain", "body");
        let v = serde_json::to_value(c.blocks()).unwrap();
        assert_eq!(
            v[0],
            json!({"type": "text", "text": "hi", "annotations": {"audience": ["user"], "priority": 0.5}})
        );
        assert_eq!(
            v[1],
            json!({"type": "image", "data": "AQID", "mimeType": "image/png"})
        );
        assert_eq!(
            v[2]["resource"],
            json!({"uri": "test://doc", "mimeType": "text/plain", "text": "body"})
        );
    }
}

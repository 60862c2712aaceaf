//! The protected-resource metadata (RFC 9728): how a client that got `401` finds out where
//! to get a token. MCP clients read it at the URL the `401` names.

use super::AuthConfigError;
use super::jwt::JwtAuth;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// The well-known prefix of RFC 9728.
pub(crate) const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// The metadata URL of `resource`: the well-known prefix inserted between its host and its
/// path (RFC 9728 §3.1), so `https://h/mcp` has `https://h/.well-known/oauth-protected-resource/mcp`.
pub(crate) fn metadata_url(resource: &str) -> Result<String, AuthConfigError> {
    let url = reqwest::Url::parse(resource).map_err(|e| {
        AuthConfigError(format!(
            "the resource `{resource}` is not an absolute URL ({e}); give the URL clients \
             reach this server at, e.g. https://mcp.example.com/mcp"
        ))
    })?;
    if !matches!(url.scheme(), "https" | "http") || url.fragment().is_some() {
        return Err(AuthConfigError(format!(
            "the resource `{resource}` must be an http(s) URL without a fragment"
        )));
    }
    let origin = url.origin().ascii_serialization();
    Ok(format!("{origin}{}", metadata_path(&url)))
}

/// Where this server answers the metadata: at the path a client derives from the resource,
/// and at the bare well-known path for clients that look there.
pub(crate) fn metadata_paths(resource: &str) -> Vec<String> {
    let mut paths = vec![WELL_KNOWN.to_owned()];
    if let Ok(url) = reqwest::Url::parse(resource) {
        let path = metadata_path(&url);
        if path != WELL_KNOWN {
            paths.push(path);
        }
    }
    paths
}

fn metadata_path(url: &reqwest::Url) -> String {
    match url.path().trim_end_matches('/') {
        "" => WELL_KNOWN.to_owned(),
        path => format!("{WELL_KNOWN}{path}"),
    }
}

/// The metadata document.
pub(crate) fn document(config: &JwtAuth) -> serde_json::Value {
    let mut doc = json!({
        "resource": config.resource,
        "authorization_servers": config.authorization_servers,
        "bearer_methods_supported": ["header"],
    });
    if !config.scopes.is_empty() {
        doc["scopes_supported"] = json!(config.scopes);
    }
    if let Some(name) = &config.resource_name {
        doc["resource_name"] = json!(name);
    }
    doc
}

pub(crate) fn response(config: &JwtAuth) -> Response {
    let mut response = axum::Json(document(config)).into_response();
    // Public by definition, and read by browser-based clients from other origins.
    response.headers_mut().insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metadata_url_inserts_the_well_known_path_before_the_resource_path() {
        assert_eq!(
            metadata_url("https://h.example:8443/mcp").unwrap(),
            "https://h.example:8443/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(
            metadata_url("https://h.example/").unwrap(),
            "https://h.example/.well-known/oauth-protected-resource"
        );
        assert!(metadata_url("mcp.example.com/mcp").is_err());
        assert!(metadata_url("https://h.example/mcp#x").is_err());
    }
}

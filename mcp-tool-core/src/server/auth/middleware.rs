//! The HTTP layer that asks every request for its bearer token (RFC 6750), before the body
//! is read: a client without one costs the server a header check.

use super::jwt::Rejection;
use super::session_owners::{Principal, SessionOwners};
use super::{Check, HttpAuth, metadata};
use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

/// `router` with every route behind `auth`, plus the protected-resource metadata (public)
/// when `auth` is OAuth; `router` unchanged without `auth`. A session belongs to whoever
/// opened it ([`SessionOwners`]); one unused for twice `session_idle_timeout` is forgotten.
pub(crate) fn protect(
    router: Router,
    auth: Option<&HttpAuth>,
    session_idle_timeout: Duration,
) -> Router {
    let Some(auth) = auth else { return router };
    let guard = Guard {
        auth: auth.clone(),
        owners: Arc::new(SessionOwners::new(session_idle_timeout)),
    };
    // A layer wraps only the routes already there: the metadata routes added after it stay
    // public, as they must be for a client without a token to find the authorization server.
    let mut router = router.layer(axum::middleware::from_fn_with_state(guard, require_token));
    if let Check::Jwt(verifier) = &*auth.check {
        for path in metadata::metadata_paths(&verifier.config.resource) {
            let auth = auth.clone();
            router = router.route(
                &path,
                get(move || async move {
                    match &*auth.check {
                        Check::Jwt(v) => metadata::response(&v.config),
                        Check::Static(_) => StatusCode::NOT_FOUND.into_response(),
                    }
                }),
            );
        }
    }
    router
}

/// What [`require_token`] checks requests against.
#[derive(Clone)]
struct Guard {
    auth: HttpAuth,
    owners: Arc<SessionOwners>,
}

/// The session header of streamable HTTP.
const SESSION_ID: &str = "mcp-session-id";

async fn require_token(State(guard): State<Guard>, request: Request, next: Next) -> Response {
    let auth = &guard.auth;
    // A CORS preflight never carries credentials; what it asks about still needs a token.
    if request.method() == Method::OPTIONS {
        return next.run(request).await;
    }
    let token = match bearer(request.headers()) {
        Ok(Some(token)) => token,
        Ok(None) => return refuse(auth, Refusal::NoToken),
        Err(why) => return refuse(auth, Refusal::Malformed(why)),
    };
    let verdict = match &*auth.check {
        Check::Static(expected) if expected.matches(token) => Ok(Principal::static_token()),
        Check::Static(_) => Err(Refusal::Invalid("the token is not this server's".into())),
        Check::Jwt(verifier) => match verifier.verify(token).await {
            Ok(claims) => {
                tracing::debug!(sub = ?claims.get("sub"), "bearer token accepted");
                Ok(Principal::from_claims(&claims))
            }
            Err(Rejection::Invalid(why)) => Err(Refusal::Invalid(why)),
            Err(Rejection::InsufficientScope(missing)) => Err(Refusal::Scope(missing)),
            Err(Rejection::Unavailable(why)) => Err(Refusal::Unavailable(why)),
        },
    };
    let principal = match verdict {
        Ok(principal) => principal,
        Err(refusal) => return refuse(auth, refusal),
    };
    let session = request
        .headers()
        .get(SESSION_ID)
        .map(|id| id.to_str().unwrap_or("").to_owned());
    let deleting = request.method() == Method::DELETE;
    if let Some(id) = &session
        && !guard.owners.may_use(id, &principal)
    {
        tracing::debug!("a session id not opened by this token's principal");
        return not_this_tokens_session();
    }
    let response = next.run(request).await;
    match session {
        Some(id) if deleting && response.status().is_success() => guard.owners.closed(&id),
        Some(_) => {}
        None => {
            let opened = response.headers().get(SESSION_ID);
            if let Some(id) = opened.and_then(|id| id.to_str().ok()) {
                guard.owners.opened(id.to_owned(), principal);
            }
        }
    }
    response
}

/// `404`, as for a session that does not exist: a token holder learns nothing of others'.
fn not_this_tokens_session() -> Response {
    let body = json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {
            "code": -32600,
            "message": "no session with this id is open for this token's subject; send \
                        `initialize` without a session id to open one"
        }
    });
    (StatusCode::NOT_FOUND, axum::Json(body)).into_response()
}

/// The token of `Authorization: Bearer <token>`; `None` without that header or with another
/// scheme (no credentials to judge), `Err` for a header that cannot be read as one.
fn bearer(headers: &HeaderMap) -> Result<Option<&str>, &'static str> {
    let mut values = headers.get_all(header::AUTHORIZATION).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err("more than one Authorization header");
    }
    let value = value
        .to_str()
        .map_err(|_| "the Authorization header is not ASCII")?;
    let Some((scheme, token)) = value.split_once(' ') else {
        return Ok(None);
    };
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Ok(None);
    }
    let token = token.trim();
    if token.is_empty() {
        return Err("the bearer token is empty");
    }
    Ok(Some(token))
}

enum Refusal {
    NoToken,
    Malformed(&'static str),
    Invalid(String),
    Scope(Vec<String>),
    Unavailable(String),
}

fn refuse(auth: &HttpAuth, refusal: Refusal) -> Response {
    let (status, error, description) = match &refusal {
        Refusal::NoToken => (
            StatusCode::UNAUTHORIZED,
            None,
            "this server requires `Authorization: Bearer <token>`".to_owned(),
        ),
        Refusal::Malformed(why) => (
            StatusCode::BAD_REQUEST,
            Some("invalid_request"),
            (*why).to_owned(),
        ),
        Refusal::Invalid(why) => (StatusCode::UNAUTHORIZED, Some("invalid_token"), why.clone()),
        Refusal::Scope(missing) => (
            StatusCode::FORBIDDEN,
            Some("insufficient_scope"),
            format!("the token lacks the scope {}", missing.join(" ")),
        ),
        Refusal::Unavailable(why) => {
            tracing::warn!("{why}");
            let body = json!({"error": "temporarily_unavailable", "error_description": why});
            return (StatusCode::SERVICE_UNAVAILABLE, axum::Json(body)).into_response();
        }
    };
    tracing::debug!(%status, error, "{description}");
    let challenge = challenge(auth, error, &description);
    let mut body =
        json!({"error": error.unwrap_or("unauthorized"), "error_description": description});
    if let Check::Jwt(v) = &*auth.check {
        body["resource_metadata"] = json!(v.metadata_url);
    }
    let mut response = (status, axum::Json(body)).into_response();
    if let Ok(value) = HeaderValue::from_str(&challenge) {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, value);
    }
    response
}

/// The `WWW-Authenticate` value: `Bearer`, the metadata URL and the scopes for OAuth, and
/// the error with its description when there was a token (RFC 6750 §3).
fn challenge(auth: &HttpAuth, error: Option<&str>, description: &str) -> String {
    let mut params: Vec<String> = Vec::new();
    if let Check::Jwt(v) = &*auth.check {
        params.push(format!("resource_metadata=\"{}\"", v.metadata_url));
        if !v.config.scopes.is_empty() {
            params.push(format!("scope=\"{}\"", v.config.scopes.join(" ")));
        }
    }
    if let Some(error) = error {
        params.push(format!("error=\"{error}\""));
        // Quoted-string: no quotes or backslashes inside.
        let description = description.replace(['"', '\\'], "'");
        params.push(format!("error_description=\"{description}\""));
    }
    if params.is_empty() {
        "Bearer".to_owned()
    } else {
        format!("Bearer {}", params.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(values: &[&str]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for v in values {
            map.append(header::AUTHORIZATION, HeaderValue::from_str(v).unwrap());
        }
        map
    }

    #[test]
    fn the_bearer_token_is_read_from_one_authorization_header() {
        assert_eq!(bearer(&headers(&["Bearer abc"])), Ok(Some("abc")));
        assert_eq!(bearer(&headers(&["bearer  abc "])), Ok(Some("abc")));
        assert_eq!(bearer(&headers(&[])), Ok(None));
        assert_eq!(bearer(&headers(&["Basic dXNlcg=="])), Ok(None));
        assert!(bearer(&headers(&["Bearer "])).is_err());
        assert!(bearer(&headers(&["Bearer a", "Bearer b"])).is_err());
    }
}

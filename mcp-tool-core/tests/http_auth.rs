//! Bearer tokens over real HTTP against a served `ToolServer`: JWTs checked against a JWKS
//! served by the test (signature, issuer, audience, expiry, scopes, key rotation), a fixed
//! JWKS, and a static token. A refused request never reaches the MCP session.

#[path = "support/jwt.rs"]
mod jwt;

use jwt::{SigningKey, claims, jwks, now};
use mcp_tool::ToolServer;
use mcp_tool::auth::{HttpAuth, JwksSource, JwtAuth};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const ISSUER: &str = "https://auth.example.test";
const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"auth-test","version":"1"}}}"#;

/// Serves an empty tool server with `auth`, made for the address it is served at.
async fn serve(auth: impl FnOnce(&str) -> HttpAuth) -> (SocketAddr, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let resource = format!("http://{addr}/mcp");
    let server = ToolServer::builder()
        .name("auth-test")
        .version("0.0.0")
        .with_definitions(Vec::new())
        .http_auth(auth(&resource))
        .build()
        .unwrap();
    assert!(server.requires_http_auth());
    tokio::spawn(async move { server.serve_http_on(listener).await });
    (addr, resource)
}

/// A JWKS endpoint whose document can change, counting how often it is fetched.
struct JwksEndpoint {
    url: String,
    document: Arc<Mutex<String>>,
    fetches: Arc<AtomicUsize>,
}

impl JwksEndpoint {
    async fn start(document: String) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/jwks.json", listener.local_addr().unwrap());
        let document = Arc::new(Mutex::new(document));
        let fetches = Arc::new(AtomicUsize::new(0));
        let (doc, count) = (Arc::clone(&document), Arc::clone(&fetches));
        let app = axum::Router::new().route(
            "/jwks.json",
            axum::routing::get(move || {
                count.fetch_add(1, Ordering::SeqCst);
                let body = doc.lock().unwrap().clone();
                async move { ([("content-type", "application/json")], body) }
            }),
        );
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self {
            url,
            document,
            fetches,
        }
    }

    fn fetches(&self) -> usize {
        self.fetches.load(Ordering::SeqCst)
    }
}

struct Answer {
    status: u16,
    challenge: Option<String>,
    body: String,
}

async fn initialize(addr: SocketAddr, token: Option<&str>) -> Answer {
    let mut request = reqwest::Client::new()
        .post(format!("http://{addr}/mcp"))
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .body(INITIALIZE);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = tokio::time::timeout(Duration::from_secs(10), request.send())
        .await
        .expect("an answer within 10 s")
        .unwrap();
    let status = response.status().as_u16();
    let challenge = response
        .headers()
        .get("www-authenticate")
        .map(|v| v.to_str().unwrap().to_owned());
    let body = tokio::time::timeout(Duration::from_secs(10), response.text())
        .await
        .expect("the body within 10 s")
        .unwrap();
    Answer {
        status,
        challenge,
        body,
    }
}

impl Answer {
    #[track_caller]
    fn assert_served(&self) {
        assert_eq!(self.status, 200, "{}", self.body);
        assert!(self.body.contains("serverInfo"), "{}", self.body);
    }

    /// `401` (or `status`) with this `error` in the challenge and a description containing
    /// `why`, and nothing of the session.
    #[track_caller]
    fn assert_refused(&self, status: u16, error: Option<&str>, why: &str) {
        assert_eq!(self.status, status, "{}", self.body);
        assert!(!self.body.contains("serverInfo"), "{}", self.body);
        let challenge = self
            .challenge
            .as_deref()
            .expect("a WWW-Authenticate header");
        assert!(challenge.starts_with("Bearer"), "{challenge}");
        match error {
            Some(error) => assert!(
                challenge.contains(&format!("error=\"{error}\"")),
                "{challenge}"
            ),
            None => assert!(!challenge.contains("error="), "{challenge}"),
        }
        let body: Value = serde_json::from_str(&self.body).unwrap();
        let description = body["error_description"].as_str().unwrap();
        assert!(description.contains(why), "{description}");
    }
}

fn with_exp(mut claims: Value, exp: u64) -> Value {
    claims["exp"] = json!(exp);
    claims
}

#[tokio::test]
async fn jwts_are_checked_for_signature_issuer_audience_and_expiry() {
    let key = SigningKey::generate("key-1");
    let impostor = SigningKey::generate("key-1");
    let endpoint = JwksEndpoint::start(jwks(&[&key])).await;
    let url = endpoint.url.clone();
    let (addr, resource) = serve(move |resource| {
        HttpAuth::jwt(JwtAuth::new(
            resource,
            ISSUER,
            JwksSource::url(&url).unwrap(),
        ))
        .unwrap()
    })
    .await;
    let metadata = format!("http://{addr}/.well-known/oauth-protected-resource/mcp");

    let missing = initialize(addr, None).await;
    missing.assert_refused(401, None, "Authorization: Bearer");
    assert_eq!(
        missing.challenge.as_deref(),
        Some(format!("Bearer resource_metadata=\"{metadata}\"").as_str())
    );

    let expired = key.sign(&with_exp(claims(ISSUER, &resource), now() - 3600));
    initialize(addr, Some(&expired))
        .await
        .assert_refused(401, Some("invalid_token"), "expired");

    let elsewhere = key.sign(&claims(ISSUER, "https://other.example.test/mcp"));
    initialize(addr, Some(&elsewhere))
        .await
        .assert_refused(401, Some("invalid_token"), "`aud`");

    let forged = impostor.sign(&claims(ISSUER, &resource));
    initialize(addr, Some(&forged))
        .await
        .assert_refused(401, Some("invalid_token"), "signature");

    let foreign = key.sign(&claims("https://evil.example.test", &resource));
    initialize(addr, Some(&foreign))
        .await
        .assert_refused(401, Some("invalid_token"), "`iss`");

    let garbage = initialize(addr, Some("not-a-jwt")).await;
    garbage.assert_refused(401, Some("invalid_token"), "not a JWT");
    assert!(
        garbage
            .challenge
            .unwrap()
            .contains(&format!("resource_metadata=\"{metadata}\""))
    );

    let valid = key.sign(&claims(ISSUER, &resource));
    initialize(addr, Some(&valid)).await.assert_served();
    // Every check above used the keys of the first fetch.
    assert_eq!(endpoint.fetches(), 1);
}

#[tokio::test]
async fn the_protected_resource_metadata_is_public_where_the_401_points() {
    let key = SigningKey::generate("k");
    let (addr, resource) = serve(|resource| {
        HttpAuth::jwt(
            JwtAuth::new(
                resource,
                ISSUER,
                JwksSource::from_json(&jwks(&[&key])).unwrap(),
            )
            .required_scopes(["traces:read"])
            .resource_name("auth test"),
        )
        .unwrap()
    })
    .await;
    let challenge = initialize(addr, None).await.challenge.unwrap();
    let pointed = challenge
        .split("resource_metadata=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap()
        .to_owned();
    for url in [
        pointed,
        format!("http://{addr}/.well-known/oauth-protected-resource"),
    ] {
        let response = reqwest::get(&url).await.unwrap();
        assert_eq!(response.status().as_u16(), 200, "{url}");
        let doc: Value = serde_json::from_str(&response.text().await.unwrap()).unwrap();
        assert_eq!(
            doc,
            json!({
                "resource": resource,
                "authorization_servers": [ISSUER],
                "bearer_methods_supported": ["header"],
                "scopes_supported": ["traces:read"],
                "resource_name": "auth test",
            }),
            "{url}"
        );
    }
}

#[tokio::test]
async fn a_token_without_a_required_scope_gets_403_insufficient_scope() {
    let key = SigningKey::generate("k");
    let (addr, resource) = serve(|resource| {
        HttpAuth::jwt(
            JwtAuth::new(
                resource,
                ISSUER,
                JwksSource::from_json(&jwks(&[&key])).unwrap(),
            )
            .required_scopes(["traces:read"]),
        )
        .unwrap()
    })
    .await;
    let mut narrow = claims(ISSUER, &resource);
    narrow["scope"] = json!("profile email");
    let refused = initialize(addr, Some(&key.sign(&narrow))).await;
    refused.assert_refused(403, Some("insufficient_scope"), "traces:read");
    assert!(refused.challenge.unwrap().contains("scope=\"traces:read\""));

    let mut enough = claims(ISSUER, &resource);
    enough["scope"] = json!("profile traces:read");
    initialize(addr, Some(&key.sign(&enough)))
        .await
        .assert_served();
    let mut listed = claims(ISSUER, &resource);
    listed["scp"] = json!(["traces:read"]);
    initialize(addr, Some(&key.sign(&listed)))
        .await
        .assert_served();
}

#[tokio::test]
async fn a_rotated_key_is_fetched_when_a_token_names_it() {
    let old = SigningKey::generate("2026-01");
    let new = SigningKey::generate("2026-02");
    let endpoint = JwksEndpoint::start(jwks(&[&old])).await;
    let url = endpoint.url.clone();
    let (addr, resource) = serve(move |resource| {
        let keys = JwksSource::url(&url)
            .unwrap()
            .min_refresh_interval(Duration::ZERO);
        HttpAuth::jwt(JwtAuth::new(resource, ISSUER, keys)).unwrap()
    })
    .await;
    initialize(addr, Some(&old.sign(&claims(ISSUER, &resource))))
        .await
        .assert_served();
    initialize(addr, Some(&old.sign(&claims(ISSUER, &resource))))
        .await
        .assert_served();
    assert_eq!(endpoint.fetches(), 1, "known keys are kept");

    *endpoint.document.lock().unwrap() = jwks(&[&old, &new]);
    initialize(addr, Some(&new.sign(&claims(ISSUER, &resource))))
        .await
        .assert_served();
    assert_eq!(
        endpoint.fetches(),
        2,
        "an unknown kid fetches the keys again"
    );

    initialize(
        addr,
        Some(&new.sign_as("made-up", &claims(ISSUER, &resource))),
    )
    .await
    .assert_refused(401, Some("invalid_token"), "does not publish");
    assert_eq!(endpoint.fetches(), 3);
}

#[tokio::test]
async fn made_up_key_ids_do_not_make_the_server_fetch_again_and_again() {
    let key = SigningKey::generate("real");
    let endpoint = JwksEndpoint::start(jwks(&[&key])).await;
    let url = endpoint.url.clone();
    let (addr, resource) = serve(move |resource| {
        HttpAuth::jwt(JwtAuth::new(
            resource,
            ISSUER,
            JwksSource::url(&url).unwrap(),
        ))
        .unwrap()
    })
    .await;
    initialize(addr, Some(&key.sign(&claims(ISSUER, &resource))))
        .await
        .assert_served();
    for kid in ["made-up-a", "made-up-b", "made-up-\u{1b}[31mc"] {
        let answer = initialize(addr, Some(&key.sign_as(kid, &claims(ISSUER, &resource)))).await;
        answer.assert_refused(401, Some("invalid_token"), "does not publish");
        let challenge = answer.challenge.as_deref().unwrap_or_default();
        assert!(
            !answer.body.contains("made-up"),
            "echoes the kid: {}",
            answer.body
        );
        assert!(
            !challenge.contains("made-up"),
            "echoes the kid: {challenge}"
        );
    }
    assert_eq!(
        endpoint.fetches(),
        1,
        "within the minimum refresh interval (10 s by default)"
    );
}

#[tokio::test]
async fn unreachable_keys_are_a_503_not_a_bad_token() {
    let key = SigningKey::generate("k");
    // A port that was free a moment ago: nothing answers there.
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/jwks.json", closed.local_addr().unwrap());
    drop(closed);
    let (addr, resource) = serve(move |resource| {
        HttpAuth::jwt(JwtAuth::new(
            resource,
            ISSUER,
            JwksSource::url(&url).unwrap(),
        ))
        .unwrap()
    })
    .await;
    let answer = initialize(addr, Some(&key.sign(&claims(ISSUER, &resource)))).await;
    assert_eq!(answer.status, 503, "{}", answer.body);
    assert!(
        answer.body.contains("could not be fetched"),
        "{}",
        answer.body
    );
}

#[tokio::test]
async fn a_fixed_jwks_verifies_without_fetching() {
    let key = SigningKey::generate("fixed");
    let other = SigningKey::generate("fixed");
    let (addr, resource) = serve(|resource| {
        HttpAuth::jwt(JwtAuth::new(
            resource,
            ISSUER,
            JwksSource::from_json(&jwks(&[&key])).unwrap(),
        ))
        .unwrap()
    })
    .await;
    initialize(addr, Some(&key.sign(&claims(ISSUER, &resource))))
        .await
        .assert_served();
    initialize(addr, Some(&other.sign(&claims(ISSUER, &resource))))
        .await
        .assert_refused(401, Some("invalid_token"), "signature");
}

/// A `tools/list` POST into session `session` with `token`: the status and body.
async fn list_tools_in(addr: SocketAddr, session: &str, token: &str) -> (u16, String) {
    let response = reqwest::Client::new()
        .post(format!("http://{addr}/mcp"))
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .header("mcp-session-id", session)
        .header("mcp-protocol-version", "2025-06-18")
        .bearer_auth(token)
        .body(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

#[tokio::test]
async fn a_session_answers_only_the_subject_that_opened_it() {
    let key = SigningKey::generate("fixed");
    let (addr, resource) = serve(|resource| {
        HttpAuth::jwt(JwtAuth::new(
            resource,
            ISSUER,
            JwksSource::from_json(&jwks(&[&key])).unwrap(),
        ))
        .unwrap()
    })
    .await;
    let token_of = |sub: &str| {
        let mut claims = claims(ISSUER, &resource);
        claims["sub"] = json!(sub);
        key.sign(&claims)
    };
    let (alice, bob) = (token_of("alice"), token_of("bob"));
    let opened = reqwest::Client::new()
        .post(format!("http://{addr}/mcp"))
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .bearer_auth(&alice)
        .body(INITIALIZE)
        .send()
        .await
        .unwrap();
    assert_eq!(opened.status(), 200);
    let session = opened.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();

    let (status, body) = list_tools_in(addr, &session, &alice).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"tools\""), "{body}");
    let (status, body) = list_tools_in(addr, &session, &bob).await;
    assert_eq!(status, 404, "{body}");
    assert!(!body.contains("\"tools\""), "{body}");
    let (status, _) = list_tools_in(addr, "not-a-session", &alice).await;
    assert_eq!(status, 404);
    // Bob's refusal left the session to Alice.
    assert_eq!(list_tools_in(addr, &session, &alice).await.0, 200);
}

#[tokio::test]
async fn a_static_token_must_match_exactly() {
    const TOKEN: &str = "correct-horse-battery-staple-0123";
    let (addr, _) = serve(|_| HttpAuth::static_token(TOKEN).unwrap()).await;
    initialize(addr, Some(TOKEN)).await.assert_served();

    let wrong = initialize(addr, Some("correct-horse-battery-staple-0124")).await;
    wrong.assert_refused(401, Some("invalid_token"), "not this server's");
    assert!(!wrong.challenge.unwrap().contains("resource_metadata"));

    let missing = initialize(addr, None).await;
    missing.assert_refused(401, None, "Authorization: Bearer");
    assert_eq!(missing.challenge.as_deref(), Some("Bearer"));
}

#[test]
fn settings_that_cannot_work_are_refused_when_made() {
    let short = HttpAuth::static_token("hunter2").unwrap_err();
    assert!(short.to_string().contains("at least 16"), "{short}");
    let plain = JwksSource::url("http://auth.example.test/jwks.json").unwrap_err();
    assert!(plain.to_string().contains("https"), "{plain}");
    assert!(JwksSource::url("http://127.0.0.1:9/jwks.json").is_ok());
    let symmetric =
        JwksSource::from_json(r#"{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}"#).unwrap_err();
    assert!(
        symmetric.to_string().contains("no public signature key"),
        "{symmetric}"
    );
    let relative = HttpAuth::jwt(JwtAuth::new(
        "/mcp",
        ISSUER,
        JwksSource::url("https://auth.example.test/jwks").unwrap(),
    ))
    .unwrap_err();
    assert!(relative.to_string().contains("absolute URL"), "{relative}");
}

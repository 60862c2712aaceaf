//! Which token holder opened each HTTP session, so that another one cannot use it.
//!
//! A session id is a bearer capability of its own: anyone who learns it (a log line, a proxy)
//! and holds *any* valid token could otherwise send requests into someone else's session and
//! read its answers. So the session belongs to the principal whose token opened it (a JWT's
//! issuer and subject); a request with another principal's token, or for a session this
//! server never saw opened, gets `404`, as an unknown session does. Nothing tells the caller
//! whether the id exists.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Who a verified token speaks for: issuer and subject of a JWT (the client id when it has no
/// subject); one value for every holder of a static token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Principal(String);

impl Principal {
    /// Every holder of the shared static token.
    pub(crate) fn static_token() -> Self {
        Self(String::new())
    }

    /// From a verified JWT's claims.
    pub(crate) fn from_claims(claims: &serde_json::Map<String, serde_json::Value>) -> Self {
        let text = |name: &str| claims.get(name).and_then(|v| v.as_str()).unwrap_or("");
        let subject = ["sub", "client_id", "azp"]
            .into_iter()
            .map(text)
            .find(|s| !s.is_empty())
            .unwrap_or("");
        // A separator no issuer URL contains keeps ("a", "bc") apart from ("ab", "c").
        Self(format!("{}\u{0}{subject}", text("iss")))
    }
}

/// The sessions opened through this server and who opened them.
#[derive(Debug)]
pub(crate) struct SessionOwners {
    owners: Mutex<HashMap<String, Owner>>,
    /// An entry unused this long is dropped: its session was closed for idleness long before.
    forget_after: Duration,
}

#[derive(Debug)]
struct Owner {
    principal: Principal,
    last_used: Instant,
}

impl SessionOwners {
    /// Forgets a session unused for twice `session_idle_timeout` (the server closed it then).
    pub(crate) fn new(session_idle_timeout: Duration) -> Self {
        Self {
            owners: Mutex::new(HashMap::new()),
            forget_after: session_idle_timeout.saturating_mul(2),
        }
    }

    /// Whether `principal` may use session `id`: only the one that opened it.
    pub(crate) fn may_use(&self, id: &str, principal: &Principal) -> bool {
        let mut owners = self.owners.lock().expect("never poisoned");
        match owners.get_mut(id) {
            Some(owner) if owner.principal == *principal => {
                owner.last_used = Instant::now();
                true
            }
            _ => false,
        }
    }

    /// Records that `principal` opened session `id`, and forgets long-unused ones.
    pub(crate) fn opened(&self, id: String, principal: Principal) {
        let now = Instant::now();
        let mut owners = self.owners.lock().expect("never poisoned");
        owners.retain(|_, owner| now.duration_since(owner.last_used) < self.forget_after);
        owners.insert(
            id,
            Owner {
                principal,
                last_used: now,
            },
        );
    }

    /// Forgets session `id` (it was deleted).
    pub(crate) fn closed(&self, id: &str) {
        self.owners.lock().expect("never poisoned").remove(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn principal(claims: serde_json::Value) -> Principal {
        Principal::from_claims(claims.as_object().unwrap())
    }

    #[test]
    fn a_session_serves_only_the_issuer_and_subject_that_opened_it() {
        let owners = SessionOwners::new(Duration::from_secs(60));
        let alice = principal(json!({"iss": "https://a.test", "sub": "alice"}));
        let bob = principal(json!({"iss": "https://a.test", "sub": "bob"}));
        let other_issuer = principal(json!({"iss": "https://b.test", "sub": "alice"}));
        owners.opened("s1".into(), alice.clone());
        assert!(owners.may_use("s1", &alice));
        assert!(!owners.may_use("s1", &bob));
        assert!(!owners.may_use("s1", &other_issuer));
        assert!(!owners.may_use("s2", &alice), "a session never seen opened");
        owners.closed("s1");
        assert!(!owners.may_use("s1", &alice));
    }

    #[test]
    fn a_token_without_a_subject_is_known_by_its_client() {
        let client = principal(json!({"iss": "https://a.test", "client_id": "ci"}));
        let other = principal(json!({"iss": "https://a.test", "azp": "other"}));
        assert_ne!(client, other);
        assert_ne!(
            principal(json!({"iss": "a", "sub": "bc"})),
            principal(json!({"iss": "ab", "sub": "c"}))
        );
    }
}

//! Who a request says it is for (`Host`) and from (`Origin`), read strictly and matched
//! exactly, before anything else looks at the request.
//!
//! DNS rebinding makes a browser send a page's requests to this server under the attacker's
//! host name; the MCP spec asks servers to check `Origin` (and `Host`) against that. A lax
//! reading is a bypass: `http://localhost:1234.evil.example` is not a localhost origin, nor is
//! `http://evil.example:80@localhost:1234`, and a second `Origin` after an allowed one must
//! not slip through. So:
//!
//! - The request target is origin-form (`/mcp`): an absolute-form target
//!   (`POST http://other/mcp`, what a proxy is sent) is refused, it names a host of its own.
//! - Exactly one `Host`, and at most one `Origin`; a repeated one is refused.
//! - `Host` is `name[:port]`, `[v6][:port]` or `v4[:port]`, nothing else (no user info, no
//!   empty or non-numeric port). Its name must be allowed: the loopback names, the address
//!   the connection arrived at (so `--http 0.0.0.0:P` answers `Host: <this machine's
//!   address>:P`, and `127.0.0.2:P` answers `Host: 127.0.0.2:P`), and what
//!   [`ToolServerBuilder::allowed_hosts`](super::ToolServerBuilder::allowed_hosts) adds. Its
//!   port is compared only where an added entry names one: a reverse proxy forwards its own.
//! - `Origin` is `null` or `scheme://host[:port]` exactly (RFC 6454), matched on scheme, host
//!   and port (the scheme's default when absent) against the allowed origins.
//! - A refusal never repeats what the client sent: a fixed sentence, the bytes go to the log
//!   escaped.

use super::wire::Refusal;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

/// The address a connection was accepted on, put in each of its requests' extensions.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LocalAddr(pub SocketAddr);

/// A host as a request or a setting names it: a lowercase name or an IP literal (no
/// brackets), and the port if one was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Authority {
    host: String,
    port: Option<u16>,
}

impl Authority {
    /// Reads `name[:port]`, `[v6][:port]` or `v4[:port]`; `None` for anything else.
    pub(crate) fn parse(text: &str) -> Option<Self> {
        let (host, port) = if let Some(rest) = text.strip_prefix('[') {
            let (inside, after) = rest.split_once(']')?;
            let v6: Ipv6Addr = inside.parse().ok()?;
            (v6.to_string(), port_after(after)?)
        } else {
            let (host, port) = match text.split_once(':') {
                Some((host, port)) => (host, Some(parse_port(port)?)),
                None => (text, None),
            };
            if !is_host_name(host) {
                return None;
            }
            (host.to_ascii_lowercase(), port)
        };
        Some(Self { host, port })
    }

    fn from_ip(ip: IpAddr) -> Self {
        // A dual-stack listener reports an IPv4 client's address as `::ffff:a.b.c.d`.
        Self {
            host: ip.to_canonical().to_string(),
            port: None,
        }
    }

    /// Whether `self`, an allowed entry, admits `requested`: same host, and the same port
    /// when the entry names one.
    fn admits(&self, requested: &Authority) -> bool {
        self.host == requested.host && self.port.is_none_or(|port| requested.port == Some(port))
    }
}

/// `:port` or nothing, after an IPv6 literal's `]`.
fn port_after(after: &str) -> Option<Option<u16>> {
    match after {
        "" => Some(None),
        _ => Some(Some(parse_port(after.strip_prefix(':')?)?)),
    }
}

/// One to five digits, at most 65535.
fn parse_port(text: &str) -> Option<u16> {
    let digits = !text.is_empty() && text.len() <= 5 && text.bytes().all(|b| b.is_ascii_digit());
    digits.then(|| text.parse().ok()).flatten()
}

/// A DNS name or dotted IPv4 address: letters, digits, `-`, `.` and `_`, not empty.
fn is_host_name(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_'))
}

/// An `Origin` value, or an entry of the allowed list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Origin {
    /// `null`: a sandboxed frame, a `file:` page, a redirect across origins.
    Null,
    /// `scheme://host:port`; `port` is the scheme's default when the value has none, and
    /// `None` only in an allowed entry ending in `:*` (any port).
    Tuple {
        scheme: String,
        host: String,
        port: Option<u16>,
    },
}

impl Origin {
    /// Reads an `Origin` header: `null`, or exactly `scheme://host[:port]`.
    pub(crate) fn parse(text: &str) -> Option<Self> {
        Self::parse_with(text, false)
    }

    /// Reads an allowed entry: what [`parse`](Self::parse) reads, or `scheme://host:*`.
    pub(crate) fn parse_allowed(text: &str) -> Option<Self> {
        Self::parse_with(text, true)
    }

    fn parse_with(text: &str, wildcard: bool) -> Option<Self> {
        if text == "null" {
            return Some(Self::Null);
        }
        let (scheme, rest) = text.split_once("://")?;
        let scheme_ok = scheme
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic())
            && scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
        if !scheme_ok {
            return None;
        }
        let scheme = scheme.to_ascii_lowercase();
        let (authority, any_port) = match rest.strip_suffix(":*") {
            Some(authority) if wildcard => (authority, true),
            _ => (rest, false),
        };
        let authority = Authority::parse(authority)?;
        if any_port && authority.port.is_some() {
            return None;
        }
        let port = match authority.port {
            Some(port) => Some(port),
            None if any_port => None,
            None => Some(default_port(&scheme)?),
        };
        Some(Self::Tuple {
            scheme,
            host: authority.host,
            port,
        })
    }

    /// Whether `self`, an allowed entry, admits `sent`.
    fn admits(&self, sent: &Origin) -> bool {
        match (self, sent) {
            (Self::Null, Self::Null) => true,
            (
                Self::Tuple { scheme, host, port },
                Self::Tuple {
                    scheme: s,
                    host: h,
                    port: p,
                },
            ) => scheme == s && host == h && port.is_none_or(|port| *p == Some(port)),
            _ => false,
        }
    }
}

/// The port an origin without one has (RFC 6454 §4); schemes without one must name it.
fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" | "ws" => Some(80),
        "https" | "wss" => Some(443),
        _ => None,
    }
}

/// What the middleware admits, parsed once when the server starts.
#[derive(Debug, Clone)]
pub(crate) struct Admission {
    hosts: Vec<Authority>,
    origins: Vec<Origin>,
}

/// Hosts every server answers to, whatever its address: this machine's loopback names.
fn loopback_hosts() -> Vec<Authority> {
    vec![
        Authority {
            host: "localhost".to_owned(),
            port: None,
        },
        Authority::from_ip(IpAddr::from([127, 0, 0, 1])),
        Authority::from_ip(IpAddr::from(Ipv6Addr::LOCALHOST)),
    ]
}

impl Admission {
    /// The admission for these settings, and one sentence per entry that cannot be read
    /// (left out of it).
    pub(crate) fn read(hosts: &[String], origins: &[String]) -> (Self, Vec<String>) {
        let mut problems = Vec::new();
        let mut admission = Self {
            hosts: loopback_hosts(),
            origins: Vec::new(),
        };
        for host in hosts {
            match Authority::parse(host.trim()) {
                Some(authority) => admission.hosts.push(authority),
                None => problems.push(format!(
                    "allowed host {host:?} is not a host name or IP address with an optional \
                     port (e.g. `mcp.example.com`, `10.0.0.5:8765`, `[fd00::5]`)"
                )),
            }
        }
        for origin in origins {
            match Origin::parse_allowed(origin.trim()) {
                Some(origin) => admission.origins.push(origin),
                None => problems.push(format!(
                    "allowed origin {origin:?} is not `null` or `scheme://host[:port]` \
                     (`:*` for any port), e.g. `https://app.example.com`"
                )),
            }
        }
        (admission, problems)
    }

    /// Checks a request's target, `Host` and `Origin`; see the module docs.
    fn check(&self, request: &Request) -> Result<(), Refused> {
        let uri = request.uri();
        if uri.scheme().is_some() || uri.authority().is_some() {
            return Err(Refused::AbsoluteTarget);
        }
        let headers = request.headers();
        let host = single(headers, &header::HOST).map_err(|()| Refused::Host)?;
        let host = host.ok_or(Refused::Host)?;
        let host = Authority::parse(host).ok_or(Refused::Host)?;
        let arrived_at = request
            .extensions()
            .get::<LocalAddr>()
            .map(|local| Authority::from_ip(local.0.ip()));
        let allowed = self.hosts.iter().chain(arrived_at.as_ref());
        if !allowed.into_iter().any(|entry| entry.admits(&host)) {
            return Err(Refused::Host);
        }
        let Some(origin) = single(headers, &header::ORIGIN).map_err(|()| Refused::Origin)? else {
            // Not a browser: nothing to rebind.
            return Ok(());
        };
        let origin = Origin::parse(origin).ok_or(Refused::Origin)?;
        if !self.origins.iter().any(|entry| entry.admits(&origin)) {
            return Err(Refused::Origin);
        }
        Ok(())
    }
}

/// The one value of `name`: `Ok(None)` without it, `Err` when it is repeated or not text.
fn single<'h>(headers: &'h HeaderMap, name: &HeaderName) -> Result<Option<&'h str>, ()> {
    let mut values = headers.get_all(name).iter();
    let Some(first) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err(());
    }
    first.to_str().map(Some).map_err(|_| ())
}

#[derive(Debug, Clone, Copy)]
enum Refused {
    AbsoluteTarget,
    Host,
    Origin,
}

impl Refused {
    fn response(self) -> Response {
        let (status, message) = match self {
            Refused::AbsoluteTarget => (
                StatusCode::BAD_REQUEST,
                "the request target must be a path (origin-form), not an absolute URL",
            ),
            Refused::Host => (
                StatusCode::FORBIDDEN,
                "the Host header is missing, repeated, malformed or not one this server \
                 answers to (allowed_hosts)",
            ),
            Refused::Origin => (
                StatusCode::FORBIDDEN,
                "the Origin header is repeated, malformed or not an allowed origin \
                 (allowed_origins)",
            ),
        };
        let refusal = Refusal::invalid_request(message.to_owned());
        (
            status,
            [(header::CONTENT_TYPE, "application/json")],
            refusal.answer(),
        )
            .into_response()
    }
}

/// Axum middleware: refuses what [`Admission::check`] refuses, before auth and the body.
pub(crate) async fn admit(
    State(admission): State<Arc<Admission>>,
    request: Request,
    next: Next,
) -> Response {
    match admission.check(&request) {
        Ok(()) => next.run(request).await,
        Err(refused) => {
            tracing::warn!(
                why = ?refused,
                host = ?request.headers().get_all(header::HOST).iter().collect::<Vec<_>>(),
                origin = ?request.headers().get_all(header::ORIGIN).iter().collect::<Vec<_>>(),
                "refused an HTTP request (possible DNS rebinding)"
            );
            refused.response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(text: &str) -> Option<(String, Option<u16>)> {
        Authority::parse(text).map(|a| (a.host, a.port))
    }

    #[test]
    fn hosts_are_read_strictly() {
        assert_eq!(
            host("LocalHost:8080"),
            Some(("localhost".into(), Some(8080)))
        );
        assert_eq!(host("127.0.0.2"), Some(("127.0.0.2".into(), None)));
        assert_eq!(host("[::1]:80"), Some(("::1".into(), Some(80))));
        assert_eq!(host("[0:0::1]"), Some(("::1".into(), None)));
        for bad in [
            "",
            "evil.example:80@localhost",
            "localhost:",
            "localhost:1234.evil.example",
            "localhost:99999",
            "localhost:+80",
            "[::1",
            "[::1]x",
            "[nothex]",
            "local host",
            "localhost\u{1b}[31m",
        ] {
            assert_eq!(host(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn origins_are_read_strictly_and_compared_on_scheme_host_and_port() {
        let allowed = Origin::parse_allowed("http://localhost:*").unwrap();
        let sent = |text| Origin::parse(text).unwrap_or_else(|| panic!("{text}"));
        assert!(allowed.admits(&sent("http://localhost:5173")));
        assert!(allowed.admits(&sent("http://localhost")));
        assert!(!allowed.admits(&sent("https://localhost:5173")));
        let exact = Origin::parse_allowed("https://app.example.com").unwrap();
        assert!(exact.admits(&sent("https://app.example.com:443")));
        assert!(!exact.admits(&sent("https://app.example.com:8443")));
        for bad in [
            "http://localhost:1234.evil.example",
            "http://evil.example:80@localhost:1234",
            "http://localhost:1234/",
            "http://localhost:1234/path",
            "http://localhost:*",
            "localhost:1234",
            "chrome-extension://abc",
            "Null",
            "",
        ] {
            assert_eq!(Origin::parse(bad), None, "{bad:?}");
        }
        assert_eq!(Origin::parse_allowed("https://a.example:443:*"), None);
    }

    #[test]
    fn unreadable_settings_are_named_in_full() {
        let (admission, problems) = Admission::read(
            &["ok.example".into(), "bad host".into()],
            &["http://ok.example:*".into(), "ftp//x".into()],
        );
        assert_eq!(admission.origins.len(), 1);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("\"bad host\""), "{}", problems[0]);
        assert!(problems[1].contains("\"ftp//x\""), "{}", problems[1]);
    }
}

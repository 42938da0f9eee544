//! The local peers (`../shared/peers/up.sh`): ports, properties and the test CA.

use std::collections::HashMap;
use std::path::PathBuf;

/// What `peers.env` says about the running peers.
#[derive(Debug, Clone)]
pub struct Peers {
    vars: HashMap<String, String>,
}

impl Peers {
    /// Loads `$PEERS_STATE/peers.env` (default `/tmp/burrow-peers`).
    ///
    /// Returns `None` (with a loud skip) only when `BURROW_PEERS=none`. Panics with instructions
    /// when the peers are not up: an interop test that cannot reach its peer has failed.
    pub fn load(what: &str) -> Option<Peers> {
        if std::env::var("BURROW_PEERS").as_deref() == Ok("none") {
            crate::skip_loudly(what, "BURROW_PEERS=none");
            return None;
        }
        let state = std::env::var("PEERS_STATE").unwrap_or_else(|_| "/tmp/burrow-peers".into());
        let path = PathBuf::from(&state).join("peers.env");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{what}: the local peers are not running ({}: {e}). Start them with \
                 ../shared/peers/up.sh (script/test does), or set BURROW_PEERS=none to skip",
                path.display()
            )
        });
        let mut vars = HashMap::new();
        for line in text.lines() {
            if let Some((k, v)) = line.split_once('=') {
                let v = v.trim_matches('\'').to_string();
                vars.insert(k.to_string(), v);
            }
        }
        Some(Peers { vars })
    }

    /// The port of peer `name` as in `peers.tab` (e.g. `"TLS13"`), shifted by the port base.
    pub fn port(&self, name: &str) -> u16 {
        let key = format!("PEER_{name}");
        self.vars
            .get(&key)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("peers.env has no port for {name}"))
    }

    /// A property of a peer (`"EXPECT"`, `"STAPLE"`, `"ALPN"`, `"TLS"`, ...).
    pub fn prop(&self, name: &str, prop: &str) -> Option<&str> {
        self.vars
            .get(&format!("PEER_{name}__{prop}"))
            .map(String::as_str)
    }

    /// The URL of proxy peer `name` with its credentials, as a client option takes it; `None`
    /// for `"none"` (direct). Names as in `peers.tab`: `HTTP_PROXY` (tinyproxy), `SQUID`,
    /// `SQUID_AUTH`, `SOCKS` (as `socks5h://`, the proxy resolves), `SOCKS_AUTH` (as
    /// `socks5://`, the client resolves), `HTTPS_PROXY`, `HTTPS_PROXY_AUTH`. Panics on another
    /// name: a test that names a proxy the peers lack has a bug.
    pub fn proxy_url(&self, name: &str) -> Option<String> {
        let var = |k: &str| {
            self.var(k)
                .unwrap_or_else(|| panic!("peers.env has no {k}"))
                .to_string()
        };
        let port = self.port(if name == "none" { "HTTP_PROXY" } else { name });
        let basic = || format!("{}:{}@", var("PEERS_PROXY_USER"), var("PEERS_PROXY_PASS"));
        Some(match name {
            "none" => return None,
            "HTTP_PROXY" | "SQUID" => format!("http://127.0.0.1:{port}"),
            "SQUID_AUTH" => format!("http://{}127.0.0.1:{port}", basic()),
            "SOCKS" => format!("socks5h://127.0.0.1:{port}"),
            "SOCKS_AUTH" => format!(
                "socks5://{}:{}@127.0.0.1:{port}",
                var("PEERS_SOCKS_USER"),
                var("PEERS_SOCKS_PASS")
            ),
            // The proxy's certificate names localhost.
            "HTTPS_PROXY" => format!("https://localhost:{port}"),
            "HTTPS_PROXY_AUTH" => format!("https://{}localhost:{port}", basic()),
            other => panic!("no proxy peer named {other}"),
        })
    }

    /// Any raw variable from `peers.env` (e.g. `PEERS_PROXY_USER`).
    pub fn var(&self, key: &str) -> Option<&str> {
        self.vars.get(key).map(String::as_str)
    }

    /// The names of all peers.
    pub fn names(&self) -> Vec<String> {
        self.var("PEERS_NAMES")
            .unwrap_or("")
            .split_whitespace()
            .map(str::to_string)
            .collect()
    }

    /// Path of the test root CA (PEM).
    pub fn ca_pem_path(&self) -> PathBuf {
        PathBuf::from(self.var("PEERS_CA").expect("peers.env has PEERS_CA"))
    }

    /// The test root CA (PEM bytes).
    pub fn ca_pem(&self) -> Vec<u8> {
        std::fs::read(self.ca_pem_path()).expect("reading PEERS_CA")
    }

    /// The docroot with the files the servers serve (`/1k`, `/1m`, ...), for byte-exact checks.
    pub fn www(&self) -> PathBuf {
        PathBuf::from(self.var("PEERS_WWW").expect("peers.env has PEERS_WWW"))
    }
}

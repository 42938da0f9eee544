//! The JS `Client` options object → [`ClientConfig`]. A wrong type or value is a `TypeError`
//! naming the option, as `fetch` does for its own arguments.

use std::time::Duration;

use burrow_client::{
    ClientCert, ClientCertError, ClientConfig, Deadline, Decompress, NoProxy, Proxy, RedirectMode,
    Revocation, Setting, Trust,
};
use js_sys::{Array, Function, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::net::DEFAULT_READ_VIEW;
use crate::setup::{Chains, Config, Sessions};
use crate::webcrypto::DEFAULT_INLINE_RECORD_BYTES;

/// Everything the options object says.
pub(crate) struct Options {
    pub(crate) connect: Function,
    pub(crate) config: Config,
}

fn sessions(o: &JsValue) -> Result<Sessions, JsValue> {
    match string(o, "sessionCache")?.as_deref() {
        None | Some("isolate") => Ok(Sessions::Isolate),
        Some("client") => Ok(Sessions::Client),
        Some("off") => Ok(Sessions::Off),
        Some(other) => Err(type_error(&format!(
            "burrow: option `sessionCache` is {other:?}: use \"isolate\", \"client\" or \"off\""
        ))),
    }
}

fn chains(o: &JsValue) -> Result<Chains, JsValue> {
    match string(o, "chainCache")?.as_deref() {
        None | Some("isolate") => Ok(Chains::Isolate),
        Some("client") => Ok(Chains::Client),
        Some("off") => Ok(Chains::Off),
        Some(other) => Err(type_error(&format!(
            "burrow: option `chainCache` is {other:?}: use \"isolate\", \"client\" or \"off\""
        ))),
    }
}

fn type_error(msg: &str) -> JsValue {
    js_sys::TypeError::new(msg).into()
}

fn get(o: &JsValue, k: &str) -> JsValue {
    if o.is_object() {
        Reflect::get(o, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}

/// Neither `undefined` nor `null`.
pub(crate) fn present(v: &JsValue) -> bool {
    !v.is_undefined() && !v.is_null()
}

fn string(o: &JsValue, k: &str) -> Result<Option<String>, JsValue> {
    let v = get(o, k);
    if !present(&v) {
        return Ok(None);
    }
    v.as_string()
        .map(Some)
        .ok_or_else(|| type_error(&format!("burrow: option `{k}` must be a string")))
}

fn boolean(o: &JsValue, k: &str) -> Result<Option<bool>, JsValue> {
    let v = get(o, k);
    if !present(&v) {
        return Ok(None);
    }
    v.as_bool()
        .map(Some)
        .ok_or_else(|| type_error(&format!("burrow: option `{k}` must be a boolean")))
}

use crate::num::{js_to_u32, js_to_u64, js_to_usize};

fn number(o: &JsValue, k: &str) -> Result<Option<f64>, JsValue> {
    let v = get(o, k);
    if !present(&v) {
        return Ok(None);
    }
    match v.as_f64() {
        Some(n) if n.is_finite() && n >= 0.0 => Ok(Some(n)),
        _ => Err(type_error(&format!(
            "burrow: option `{k}` must be a non-negative number"
        ))),
    }
}

fn strings(o: &JsValue, k: &str) -> Result<Option<Vec<String>>, JsValue> {
    let v = get(o, k);
    if !present(&v) {
        return Ok(None);
    }
    if let Some(s) = v.as_string() {
        return Ok(Some(vec![s]));
    }
    let Some(arr) = v.dyn_ref::<Array>() else {
        return Err(type_error(&format!(
            "burrow: option `{k}` must be a string or an array of strings"
        )));
    };
    arr.iter()
        .map(|x| {
            x.as_string()
                .ok_or_else(|| type_error(&format!("burrow: option `{k}` must hold only strings")))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// `"system"`, `"insecure"` or `{ ca: PEM | PEM[] }`.
fn trust(v: &JsValue, k: &str) -> Result<Option<Trust>, JsValue> {
    if !present(v) {
        return Ok(None);
    }
    if let Some(s) = v.as_string() {
        return match s.as_str() {
            "system" => Ok(Some(Trust::System)),
            "insecure" => Ok(Some(Trust::InsecureAcceptAnyCertificate)),
            other => Err(type_error(&format!(
                "burrow: option `{k}` is {other:?}: use \"system\", \"insecure\" or {{ ca: PEM }}"
            ))),
        };
    }
    match strings(v, "ca")? {
        Some(pems) if !pems.is_empty() => Ok(Some(Trust::AnchorsPem(
            pems.into_iter().map(String::into_bytes).collect(),
        ))),
        _ => Err(type_error(&format!(
            "burrow: option `{k}` must be \"system\", \"insecure\" or {{ ca: PEM | PEM[] }}"
        ))),
    }
}

/// `{ certChain: PEM, key: PEM }` at option `name` (`tls.clientCert`, `proxyTls.clientCert`):
/// the chain leaf first, the key PKCS#8, SEC1 or PKCS#1. A wrong type is a `TypeError`; a
/// chain and key burrow cannot use (a key that is not the leaf's among them) a `BurrowError`
/// with the `CLIENT_CERT_*` code. Neither ever shows the key.
fn client_cert(v: &JsValue, name: &str) -> Result<Option<ClientCert>, JsValue> {
    if !present(v) {
        return Ok(None);
    }
    if !v.is_object() {
        return Err(type_error(&format!(
            "burrow: option `{name}` must be {{ certChain: PEM, key: PEM }}"
        )));
    }
    let pem = |field: &str| -> Result<String, JsValue> {
        get(v, field).as_string().ok_or_else(|| {
            type_error(&format!(
                "burrow: option `{name}.{field}` must be a PEM string"
            ))
        })
    };
    let chain = pem("certChain")?;
    // The key's PEM is dropped wiped: only burrow-client's own buffers keep it.
    let key = zeroize::Zeroizing::new(pem("key")?);
    ClientCert::from_pem(chain.as_bytes(), key.as_bytes())
        .map(Some)
        .map_err(|e| client_cert_error(e, name))
}

/// A refused client certificate as the JS side throws it (`{ code, phase, message }`, made a
/// `BurrowError` by burrow.mjs).
fn client_cert_error(e: ClientCertError, name: &str) -> JsValue {
    crate::obj(&[
        ("code", JsValue::from_str(e.code())),
        ("phase", JsValue::from_str("tls")),
        ("message", JsValue::from_str(&client_cert_message(e, name))),
    ])
    .unwrap_or_else(|e| e)
}

/// The message of a refused client certificate, naming the JS option (`name`) rather than
/// burrow-client's fields.
fn client_cert_message(e: ClientCertError, name: &str) -> String {
    let code = e.code();
    let message = match e {
        ClientCertError::NoCertificate => {
            format!("option `{name}.certChain` holds no PEM CERTIFICATE block (leaf first)")
        }
        ClientCertError::UnusableCertificate => format!(
            "the first certificate of option `{name}.certChain` has a public key burrow cannot \
             sign for (P-256, P-384, RSA, Ed25519)"
        ),
        ClientCertError::NoKey => format!(
            "option `{name}.key` must hold exactly one unencrypted PEM PRIVATE KEY, EC PRIVATE \
             KEY or RSA PRIVATE KEY block"
        ),
        ClientCertError::BadKey(c) => format!(
            "option `{name}.key` does not parse as a P-256, P-384, RSA (2048..8192 bits) or \
             Ed25519 key ({})",
            c.code()
        ),
        ClientCertError::KeyMismatch => format!(
            "option `{name}.key` is not the private key of the first certificate of \
             `{name}.certChain`"
        ),
        _ => format!("option `{name}` cannot be used"),
    };
    format!("{code}: burrow: {message}")
}

fn ms(o: &JsValue, k: &str) -> Result<Option<Option<Duration>>, JsValue> {
    // 0 turns a limit off.
    Ok(number(o, k)?.map(|n| (n > 0.0).then(|| Duration::from_millis(js_to_u64(n)))))
}

/// The JS API's name for each setting an error's message may name (its option, with the value
/// that helps where there is one); `None` for what it has no option for.
pub(crate) fn js_name(s: Setting) -> Option<&'static str> {
    Some(match s {
        Setting::Trust => "`trust`",
        Setting::Pins => "`pins`",
        Setting::ProxyTrust => "`proxyTrust`",
        Setting::Revocation => "`tls.requireStaple: false`",
        Setting::Proxy => "`proxy`",
        Setting::NoProxy => "`noProxy`",
        Setting::MaxBodyBytes => "`maxBodyBytes` (null = no limit)",
        Setting::Deadline(d) => match d {
            Deadline::Connect => "`timeouts.connectMs`",
            Deadline::Proxy => "`timeouts.proxyMs`",
            Deadline::Tls => "`timeouts.tlsMs`",
            Deadline::Headers => "`timeouts.headersMs`",
            Deadline::Idle => "`timeouts.idleMs`",
            Deadline::Total => "`timeouts.totalMs`",
        },
        Setting::Http1Only => "`http2: false`",
        Setting::Decompress => "`decompress: false`",
        Setting::RedirectManual => "`redirect: \"manual\"`",
        Setting::MaxRedirects => "`maxRedirects`",
        Setting::ClientCert => "`tls.clientCert`",
        Setting::ProxyClientCert => "`proxyTls.clientCert`",
        Setting::ProxyPins
        | Setting::AllowHttpsToHttp
        | Setting::AllowCloseWithoutCloseNotify
        | Setting::RequireExtendedMasterSecret => return None,
    })
}

/// `"follow"`, `"manual"` or `"error"` (fetch's `redirect`), else a `TypeError` naming `what`.
pub(crate) fn redirect_mode(v: &str, what: &str) -> Result<RedirectMode, JsValue> {
    match v {
        "follow" => Ok(RedirectMode::Follow),
        "manual" => Ok(RedirectMode::Manual),
        "error" => Ok(RedirectMode::Error),
        other => Err(type_error(&format!(
            "burrow: {what} is {other:?}: use \"follow\", \"manual\" or \"error\""
        ))),
    }
}

/// Parses the options object.
pub(crate) fn parse(o: &JsValue) -> Result<Options, JsValue> {
    if !o.is_object() {
        return Err(type_error(
            "burrow: new Client(options) needs an options object with `connect` (from cloudflare:sockets)",
        ));
    }
    let connect = get(o, "connect").dyn_into::<Function>().map_err(|_| {
        type_error(
            "burrow: option `connect` must be the `connect` function of cloudflare:sockets \
                 (import { connect } from \"cloudflare:sockets\")",
        )
    })?;
    // `profile`: a built-in client identity (ClientHello, HTTP/2 first flight, default
    // fields), by name.
    let mut c = match string(o, "profile")? {
        None => ClientConfig::default(),
        Some(name) => ClientConfig::impersonating(&name).ok_or_else(|| {
            type_error(&format!(
                "burrow: option `profile` is {name:?}: use one of {:?}",
                burrow_client::Profile::NAMES
            ))
        })?,
    };
    if let Some(p) = string(o, "proxy")? {
        if !p.is_empty() {
            c.proxy = Some(
                Proxy::parse(&p)
                    .map_err(|e| type_error(&format!("burrow: option `proxy`: {e}")))?,
            );
        }
    }
    if let Some(list) = strings(o, "noProxy")? {
        c.no_proxy = NoProxy::parse(&list.join(","));
    }
    if let Some(t) = trust(&get(o, "trust"), "trust")? {
        c.proxy_tls.trust = t.clone();
        c.tls.trust = t;
    }
    if let Some(t) = trust(&get(o, "proxyTrust"), "proxyTrust")? {
        c.proxy_tls.trust = t;
    }
    if let Some(pins) = strings(o, "pins")? {
        c.tls.pins = pins;
    }
    let tls = get(o, "tls");
    if let Some(alpn) = strings(&tls, "alpn")? {
        c.tls.alpn = alpn.into_iter().map(String::into_bytes).collect();
    }
    if let Some(r) = boolean(&tls, "requireStaple")? {
        c.tls.revocation = if r {
            Revocation::RequireStaple
        } else {
            Revocation::CheckStaple
        };
    }
    let offload = boolean(&tls, "offload")?.unwrap_or(true);
    let inline_record_bytes =
        number(&tls, "inlineRecordBytes")?.map_or(DEFAULT_INLINE_RECORD_BYTES, js_to_usize);
    // One identity per hop: the origin's certificate never goes to the proxy, nor the
    // proxy's to the origin.
    c.tls.client_cert = client_cert(&get(&tls, "clientCert"), "tls.clientCert")?;
    c.proxy_tls.client_cert = client_cert(
        &get(&get(o, "proxyTls"), "clientCert"),
        "proxyTls.clientCert",
    )?;
    if let Some(h2) = boolean(o, "http2")? {
        c.http1_only = !h2;
    }
    let t = get(o, "timeouts");
    let d = &mut c.deadlines;
    for (key, slot) in [
        ("connectMs", &mut d.connect),
        ("proxyMs", &mut d.proxy),
        ("tlsMs", &mut d.tls),
        ("headersMs", &mut d.headers),
        ("idleMs", &mut d.idle),
        ("totalMs", &mut d.total),
    ] {
        if let Some(v) = ms(&t, key)? {
            *slot = v;
        }
    }
    let max_body = get(o, "maxBodyBytes");
    if max_body.is_null() {
        c.max_body_bytes = None;
    } else if let Some(n) = number(o, "maxBodyBytes")? {
        c.max_body_bytes = Some(js_to_u64(n));
    }
    if let Some(dec) = boolean(o, "decompress")? {
        c.decompress = if dec {
            Decompress::Auto
        } else {
            Decompress::Passthrough
        };
    }
    if let Some(cookies) = boolean(o, "cookies")? {
        c.cookies = cookies;
    }
    if let Some(r) = string(o, "redirect")? {
        c.redirect_mode = redirect_mode(&r, "option `redirect`")?;
    }
    if let Some(n) = number(o, "maxRedirects")? {
        c.redirect.max_redirects = js_to_u32(n);
    }
    let ua = get(o, "userAgent");
    if ua.is_null() {
        c.user_agent = None;
    } else if let Some(s) = string(o, "userAgent")? {
        c.user_agent = Some(s);
    }
    // The six-heads cap and the offload to both hops: `setup`, shared with the Rust API.
    let read_view = number(o, "readViewBytes")?.map_or(DEFAULT_READ_VIEW, js_to_usize);
    Ok(Options {
        connect,
        config: Config {
            client: c,
            offload,
            inline_record_bytes,
            read_view_bytes: read_view,
            sessions: sessions(o)?,
            chains: chains(o)?,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use burrow_client::Error;

    const DEADLINES: [Deadline; 6] = [
        Deadline::Connect,
        Deadline::Proxy,
        Deadline::Tls,
        Deadline::Headers,
        Deadline::Idle,
        Deadline::Total,
    ];

    #[test]
    fn error_messages_name_js_options_never_rust_fields() {
        let untrusted = || Error::Certificate(burrow_client::CertificateError::Untrusted);
        let mut errors = vec![
            untrusted(),
            Error::ProxyTls(Box::new(untrusted())),
            Error::TrustConfig(burrow_client::CertificateError::BadTrustAnchor("pem")),
            Error::BodyTooLarge { limit: 1 },
            Error::Proxy(Proxy::parse("ftp://x").unwrap_err()),
            Error::Connect(std::io::Error::other("refused")),
        ];
        errors.extend(DEADLINES.map(Error::Timeout));
        let mut rust_names = vec!["ClientConfig", "no_proxy", "max_body_bytes", "http1_only"];
        rust_names.extend(DEADLINES.map(|d| Setting::Deadline(d).rust_name().unwrap()));
        for e in &errors {
            let shown = e.message(js_name).to_string();
            for rust in &rust_names {
                assert!(!shown.contains(rust), "{shown}");
            }
        }
        let shown = |e: Error| e.message(js_name).to_string();
        assert!(shown(untrusted()).contains("trust its CA with `trust`"));
        assert!(shown(Error::ProxyTls(Box::new(untrusted()))).contains("`proxyTrust`"));
        assert!(shown(Error::Timeout(Deadline::Idle)).ends_with("raise `timeouts.idleMs`"));
        assert!(shown(Error::BodyTooLarge { limit: 1 }).contains("raise `maxBodyBytes`"));
        for e in [
            ClientCertError::NoCertificate,
            ClientCertError::UnusableCertificate,
            ClientCertError::NoKey,
            ClientCertError::BadKey(burrow_crypto::CryptoError::InvalidPrivateKey),
            ClientCertError::KeyMismatch,
        ] {
            for name in ["tls.clientCert", "proxyTls.clientCert"] {
                let m = client_cert_message(e, name);
                assert!(m.starts_with(e.code()), "{m}");
                assert!(m.contains(&format!("`{name}")), "{m}");
                assert!(
                    !m.contains("client_cert") && !m.contains("cert_chain"),
                    "{m}"
                );
            }
        }
        let proxy = shown(Error::Proxy(Proxy::parse("ftp://x").unwrap_err()));
        assert!(
            proxy.contains("check `proxy`, or list the host in `noProxy`"),
            "{proxy}"
        );
    }
}

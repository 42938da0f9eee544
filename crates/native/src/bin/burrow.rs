//! `burrow`: a curl-like command line over burrow-client and TokioNet.
//!
//! ```text
//! burrow [-x PROXY] [--noproxy LIST] [--cacert FILE]... [--pin sha256/..]... [--insecure]
//!        [--http1.1|--http2] [-X METHOD] [-H 'Name: value']... [-d DATA|@FILE] [-o FILE]
//!        [-i] [-v] [-L|--no-location] [--max-filesize BYTES] [--cookies] URL
//! ```
//!
//! Exit codes say what failed: 0 ok, 2 usage, 3 URL/request, 5 connect, 6 proxy, 7 TLS,
//! 8 certificate, 9 timeout, 10 HTTP protocol, 11 body (too large), 12 redirect, 1 other.
//! `SSLKEYLOGFILE=path` appends the TLS secrets in the NSS key log format (Wireshark).

use std::io::Write;
use std::process::ExitCode;

use burrow_client::{Client, ClientConfig, Error, Proxy, Request, Response, Trust};
use burrow_native::TokioNet;

const USAGE: &str = "usage: burrow [-x PROXY] [--noproxy LIST] [--cacert FILE]... [--pin sha256/..]... \
[--insecure] [--http1.1|--http2] [-X METHOD] [-H 'Name: value']... [-d DATA|@FILE] [-o FILE] [-i] [-v] \
[--no-location] [--max-filesize BYTES] [--cookies] URL";

struct Args {
    config: ClientConfig,
    method: Option<String>,
    headers: Vec<(String, String)>,
    data: Option<Vec<u8>>,
    output: Option<String>,
    include: bool,
    verbose: bool,
    url: String,
}

fn usage(msg: &str) -> ExitCode {
    eprintln!("burrow: {msg}\n{USAGE}");
    ExitCode::from(2)
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut config = ClientConfig::default();
    let mut anchors = Vec::new();
    let mut insecure = false;
    let mut pins = Vec::new();
    let mut a = Args {
        config: ClientConfig::default(),
        method: None,
        headers: Vec::new(),
        data: None,
        output: None,
        include: false,
        verbose: false,
        url: String::new(),
    };
    let mut url = None;
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "-x" | "--proxy" => {
                let p = value(&arg)?;
                config.proxy = Some(Proxy::parse(&p).map_err(|e| format!("-x {p}: {e}"))?);
            }
            "--noproxy" => config.no_proxy = burrow_client::NoProxy::parse(&value(&arg)?),
            "--cacert" => {
                let f = value(&arg)?;
                anchors.push(std::fs::read(&f).map_err(|e| format!("--cacert {f}: {e}"))?);
            }
            "--pin" | "--pinnedpubkey" => pins.push(value(&arg)?),
            "-k" | "--insecure" => insecure = true,
            "--http1.1" => config.http1_only = true,
            "--http2" => config.http1_only = false,
            "-X" | "--request" => a.method = Some(value(&arg)?),
            "-H" | "--header" => {
                let h = value(&arg)?;
                let (n, v) = h
                    .split_once(':')
                    .ok_or(format!("-H {h:?}: expected 'Name: value'"))?;
                a.headers.push((n.trim().to_string(), v.trim().to_string()));
            }
            "-d" | "--data" | "--data-binary" => {
                let d = value(&arg)?;
                a.data = Some(match d.strip_prefix('@') {
                    Some(f) => std::fs::read(f).map_err(|e| format!("-d @{f}: {e}"))?,
                    None => d.into_bytes(),
                });
            }
            "-o" | "--output" => a.output = Some(value(&arg)?),
            "-i" | "--include" => a.include = true,
            "-v" | "--verbose" => a.verbose = true,
            "-L" | "--location" => config.follow_redirects = true,
            "--no-location" => config.follow_redirects = false,
            "--cookies" => config.cookies = true,
            "--max-filesize" => {
                let n = value(&arg)?;
                config.max_body_bytes = match n.as_str() {
                    "unlimited" => None,
                    n => Some(n.parse().map_err(|_| format!("--max-filesize {n}"))?),
                };
            }
            s if s.starts_with('-') && s.len() > 1 => return Err(format!("unknown option {s}")),
            _ if url.is_some() => return Err("more than one URL".into()),
            _ => url = Some(arg),
        }
    }
    let trust = if insecure {
        Trust::InsecureAcceptAnyCertificate
    } else if anchors.is_empty() {
        Trust::System
    } else {
        Trust::AnchorsPem(anchors)
    };
    config.tls.trust = trust.clone();
    config.tls.pins = pins;
    config.proxy_tls.trust = trust;
    if let Some(path) = std::env::var_os("SSLKEYLOGFILE") {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| format!("SSLKEYLOGFILE {}: {e}", path.to_string_lossy()))?;
        let file = std::rc::Rc::new(std::cell::RefCell::new(file));
        let sink = burrow_client::KeyLogSink(std::rc::Rc::new(move |line: &str| {
            // A key log write failing must not fail the request.
            let _ = writeln!(file.borrow_mut(), "{line}");
        }));
        config.tls.key_log = Some(sink.clone());
        config.proxy_tls.key_log = Some(sink);
    }
    a.config = config;
    a.url = url.ok_or("no URL")?;
    Ok(a)
}

/// Exit code by failure class.
fn exit_code(e: &Error) -> u8 {
    let code = e.code();
    match code {
        "BAD_URL" | "BAD_REQUEST" => 3,
        "CONNECT_FAILED" | "CONNECTION_LOST" => 5,
        _ if code.starts_with("PROXY_") || code.starts_with("SOCKS5_") => 6,
        _ if code.starts_with("TLS_") => 7,
        _ if code.starts_with("CERT_") || code.starts_with("OCSP_") => 8,
        _ if code.starts_with("TIMEOUT_") => 9,
        "HTTP_PROTOCOL" => 10,
        _ if code.starts_with("H2_") => 10,
        "BODY_TOO_LARGE" | "DECODE_FAILED" | "UNSUPPORTED_CONTENT_ENCODING" => 11,
        _ if code.starts_with("REDIRECT_") => 12,
        _ => 1,
    }
}

fn suite_name(s: u16) -> String {
    match s {
        0x1301 => "TLS_AES_128_GCM_SHA256".into(),
        0x1302 => "TLS_AES_256_GCM_SHA384".into(),
        0x1303 => "TLS_CHACHA20_POLY1305_SHA256".into(),
        0xc02b => "ECDHE_ECDSA_WITH_AES_128_GCM_SHA256".into(),
        0xc02c => "ECDHE_ECDSA_WITH_AES_256_GCM_SHA384".into(),
        0xc02f => "ECDHE_RSA_WITH_AES_128_GCM_SHA256".into(),
        0xc030 => "ECDHE_RSA_WITH_AES_256_GCM_SHA384".into(),
        0xcca8 => "ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256".into(),
        0xcca9 => "ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256".into(),
        other => format!("0x{other:04x}"),
    }
}

fn group_name(g: u16) -> String {
    match g {
        0x001d => "x25519".into(),
        0x0017 => "secp256r1".into(),
        0x0018 => "secp384r1".into(),
        0x11ec => "X25519MLKEM768".into(),
        other => format!("0x{other:04x}"),
    }
}

fn describe<N: burrow_client::Net>(r: &Response<N>) {
    let m = &r.meta;
    if let Some(t) = &m.proxy_tls {
        eprintln!(
            "* proxy TLS {} {}",
            if t.version == 0x0304 { "1.3" } else { "1.2" },
            suite_name(t.cipher_suite)
        );
    }
    if let Some(t) = &m.tls {
        eprintln!(
            "* TLS {} {} group {} ALPN {} resumed {}",
            if t.version == 0x0304 { "1.3" } else { "1.2" },
            suite_name(t.cipher_suite),
            group_name(t.group),
            t.alpn.as_deref().unwrap_or("-"),
            t.resumed
        );
        for (i, c) in t.peer_chain.iter().enumerate() {
            eprintln!(
                "* cert {i}: subject {} | issuer {} | not_after {} (unix)",
                c.subject_text(),
                c.issuer_text(),
                c.not_after
            );
        }
        eprintln!("* OCSP staple: {:?}", t.ocsp);
    }
    eprintln!(
        "* {} via {:?}, reused {}, redirects {}, timings ms: connect {} proxy {} tls {} ttfb {} total {}",
        m.http_version,
        m.proxied,
        m.reused,
        m.redirects,
        m.timings.connect,
        m.timings.proxy,
        m.timings.tls,
        m.timings.ttfb,
        m.timings.total
    );
}

async fn run(a: Args) -> Result<(), Error> {
    let client = Client::new(TokioNet, a.config);
    let method = a
        .method
        .unwrap_or_else(|| if a.data.is_some() { "POST" } else { "GET" }.to_string());
    let mut req = Request::new(&method, &a.url)?;
    req.headers = a.headers;
    if let Some(d) = a.data {
        req = req.body(d);
    }
    if a.verbose {
        eprintln!("> {} {}", req.method, req.url);
        for (n, v) in &req.headers {
            eprintln!("> {n}: {v}");
        }
    }
    let mut resp = client.fetch(req).await?;
    let mut head = format!("{} {}\r\n", resp.meta.http_version, resp.status);
    for (n, v) in &resp.headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    head.push_str("\r\n");
    if a.verbose {
        describe(&resp);
        for line in head.lines().filter(|l| !l.is_empty()) {
            eprintln!("< {line}");
        }
    }
    let mut out: Box<dyn Write> = match &a.output {
        Some(f) => {
            Box::new(std::fs::File::create(f).map_err(|e| Error::Io(std::io::Error::other(e)))?)
        }
        None => Box::new(std::io::stdout().lock()),
    };
    let io = |e: std::io::Error| Error::Io(e);
    if a.include {
        out.write_all(head.as_bytes()).map_err(io)?;
    }
    while let Some(piece) = resp.chunk().await? {
        out.write_all(&piece).map_err(io)?;
    }
    out.flush().map_err(io)
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(m) => return usage(&m),
    };
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("burrow: cannot start the runtime: {e}");
            return ExitCode::from(1);
        }
    };
    let local = tokio::task::LocalSet::new();
    match local.block_on(&rt, run(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("burrow: {e}");
            ExitCode::from(exit_code(&e))
        }
    }
}

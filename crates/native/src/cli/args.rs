//! The `burrow` command line: options parsed by hand (curl's spellings) into [`Options`].

use std::time::Duration;

/// `burrow --help`.
pub(crate) const HELP: &str = "\
burrow - fetch a URL over burrow's own TLS 1.3/1.2 and HTTP (curl-like)

usage: burrow [OPTIONS] URL

Options:
  -x, --proxy URL          proxy: http://, https://, socks5://, socks5h:// (user:pass@ for auth;
                           no scheme = http://)
      --proxy-cacert FILE  PEM trust anchors for an https:// proxy (repeatable; default: system roots)
      --noproxy LIST       comma-separated hosts (and .domains) that bypass the proxy; * = all
      --cacert FILE        PEM trust anchors for the server (repeatable; default: system roots)
      --pin sha256/BASE64  require this SPKI pin in the server's chain (repeatable)
  -k, --insecure           accept any server certificate (debugging only)
      --tlsv1.3            TLS 1.3 only (offer no TLS 1.2 cipher suites)
      --tls-max 1.2|1.3    highest TLS version offered (1.2: no TLS 1.3 cipher suites)
      --impersonate NAME   look like another client: curl (curl 8.21, the default),
                           curl_7_88 (Debian curl 7.88.1), chrome (Chromium 156): its
                           ClientHello, HTTP/2 first flight and default headers
                           (exactly: an OCSP staple is requested only if that client
                           asks for one; curl does not)
      --curves LIST        key exchange groups to offer, in order, colon-separated (curl's
                           spelling): X25519, P-256, P-384, P-521, X25519MLKEM768 (also
                           secp256r1, prime256v1, secp384r1, secp521r1, x25519); the
                           first one gets a key share
      --require-ems        refuse TLS 1.2 servers without extended master secret (RFC 7627;
                           by default they are accepted but their sessions never resumed)
      --http1.1            offer only HTTP/1.1 in ALPN
      --http2              offer h2 then http/1.1 in ALPN (the default)
      --http2-prior-knowledge  HTTP/2 without asking to plain http:// URLs (h2c)
  -X, --request METHOD     request method (default GET, or POST with -d)
  -H, --header 'N: v'      add a request header (repeatable, sent in order)
  -d, --data DATA          send DATA as the body (POST unless -X); @FILE sends FILE's bytes
                           exactly (no newline stripping, unlike curl)
      --data-binary DATA   same as -d
  -o, --output FILE        write the body to FILE instead of stdout
  -i, --include            print the response head before the body
  -v, --verbose            print proxy, TLS session, certificate chain, OCSP staple, timings
                           and the request/response heads to stderr
  -f, --fail               exit 22 without printing the body when the status is >= 400
  -L, --location           follow redirects (up to 20, or --max-redirs)
      --max-redirs N       redirect limit with -L
      --compressed         ask for gzip, deflate, br, zstd and decode them (the default;
                           the decoded size counts against --max-filesize; -i and -v still
                           show Content-Encoding / Content-Length as sent)
      --raw                passthrough: still ask, but hand out the coded bytes
      --allow-no-close-notify  accept a body with no length whose TLS connection ends
                           without close_notify (default: BODY_TRUNCATED, exit 56)
      --max-filesize BYTES body cap (wire and decoded bytes; default 33554432; 'none' = no cap)
      --connect-timeout S  limit for TCP connect, proxy handshake and TLS handshake each
  -m, --max-time S         limit for the whole transfer
      --cookie-jar         keep cookies for this run: Set-Cookie stored (RFC 6265bis, public
                           suffixes refused), Cookie sent on redirects (nothing saved to disk)
  -h, --help               this text

Environment:
  SSLKEYLOGFILE            append the TLS secrets (NSS key log format) to this file, so
                           Wireshark can decrypt a capture

Exit codes:
   0  success
   1  other failure (random number generator, internal)
   2  usage: bad option, unreadable or unusable --cacert file, bad --pin, unreadable
      -d @FILE, bad header
   3  URL malformed or not http(s)
   5  proxy: cannot reach it, it refused the tunnel, wants credentials, or broke its protocol
   6  cannot connect to the server
   7  TLS protocol failure or alert
   8  certificate or OCSP staple rejected (CERT_*, OCSP_*): see --cacert, --pin, --insecure
  16  HTTP protocol failure (malformed response, closed early)
  22  HTTP status >= 400 with --fail
  23  writing the body (stdout or -o FILE) failed
  28  timeout (--connect-timeout, --max-time, or the built-in header/idle limits)
  47  redirects: too many, a loop, https->http, or an unusable Location
  56  the connection was lost while receiving, or cut without TLS close_notify
  61  content decoding failed (corrupt, truncated or unsupported coding)
  63  body larger than --max-filesize
";

/// Which ALPN protocols to offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HttpVersion {
    /// `--http1.1`.
    Http11,
    /// `--http2` (and the default).
    Http2,
    /// `--http2-prior-knowledge`.
    Http2PriorKnowledge,
}

/// The request body's source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Data {
    /// Literal bytes.
    Inline(Vec<u8>),
    /// `@FILE`.
    File(String),
}

/// Everything the command line says.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Options {
    pub(crate) url: String,
    pub(crate) proxy: Option<String>,
    pub(crate) proxy_cacert: Vec<String>,
    pub(crate) noproxy: Option<String>,
    pub(crate) cacert: Vec<String>,
    pub(crate) pins: Vec<String>,
    pub(crate) insecure: bool,
    /// `--tlsv1.3`.
    pub(crate) tls13_only: bool,
    /// `--tls-max 1.2`.
    pub(crate) tls12_only: bool,
    /// `--impersonate NAME`: a built-in client profile (`Profile::by_name`).
    pub(crate) impersonate: Option<String>,
    /// `--require-ems`.
    pub(crate) require_ems: bool,
    /// `--curves`: the groups in order.
    pub(crate) curves: Option<Vec<u16>>,
    pub(crate) http: HttpVersion,
    pub(crate) method: Option<String>,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) data: Option<Data>,
    pub(crate) output: Option<String>,
    pub(crate) include: bool,
    pub(crate) verbose: bool,
    pub(crate) fail: bool,
    pub(crate) location: bool,
    pub(crate) max_redirs: Option<u32>,
    pub(crate) raw: bool,
    /// `Some(None)` = `--max-filesize none`.
    pub(crate) max_filesize: Option<Option<u64>>,
    pub(crate) connect_timeout: Option<Duration>,
    pub(crate) max_time: Option<Duration>,
    pub(crate) cookie_jar: bool,
    /// `--allow-no-close-notify`.
    pub(crate) allow_no_close_notify: bool,
}

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub(crate) enum Command {
    /// `--help`.
    Help,
    /// A fetch.
    Fetch(Box<Options>),
}

fn seconds(flag: &str, v: &str) -> Result<Duration, String> {
    let s: f64 = v
        .parse()
        .map_err(|_| format!("{flag} wants seconds (e.g. 2.5), not {v:?}"))?;
    if !s.is_finite() || s <= 0.0 || s > 1e9 {
        return Err(format!(
            "{flag} wants a positive number of seconds, not {v:?}"
        ));
    }
    Ok(Duration::from_secs_f64(s))
}

fn header(v: &str) -> Result<(String, String), String> {
    let (name, value) = v
        .split_once(':')
        .ok_or_else(|| format!("-H wants 'Name: value', not {v:?}"))?;
    let name = name.trim();
    if name.is_empty() {
        return Err(format!("-H {v:?} has an empty header name"));
    }
    // RFC 9110 §5.6.2 token characters; anything else is refused by the server or the codec.
    let tchar = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    if !name.chars().all(tchar) {
        return Err(format!(
            "-H {v:?}: the header name may only hold token characters"
        ));
    }
    let value = value.trim();
    if value.chars().any(|c| matches!(c, '\r' | '\n' | '\0')) {
        return Err(format!("-H {v:?}: the value may not hold CR, LF or NUL"));
    }
    Ok((name.to_string(), value.to_string()))
}

/// `--curves A:B:...`: group code points, in order, no duplicates.
fn curves(v: &str) -> Result<Vec<u16>, String> {
    let mut out = Vec::new();
    for name in v.split(':') {
        let g = match name.to_ascii_lowercase().as_str() {
            "x25519" => 0x001d,
            "p-256" | "secp256r1" | "prime256v1" => 0x0017,
            "p-384" | "secp384r1" => 0x0018,
            "p-521" | "secp521r1" => 0x0019,
            "x25519mlkem768" => 0x11ec,
            _ => {
                return Err(format!(
                    "--curves: unknown or unsupported group {name:?} (X25519, P-256, P-384, \
                     P-521, X25519MLKEM768)"
                ))
            }
        };
        if out.contains(&g) {
            return Err(format!("--curves lists {name:?} twice"));
        }
        out.push(g);
    }
    Ok(out)
}

/// Parses the arguments after the program name.
pub(crate) fn parse<I: IntoIterator<Item = String>>(args: I) -> Result<Command, String> {
    let mut o = Options {
        url: String::new(),
        proxy: None,
        proxy_cacert: Vec::new(),
        noproxy: None,
        cacert: Vec::new(),
        pins: Vec::new(),
        insecure: false,
        tls13_only: false,
        impersonate: None,
        tls12_only: false,
        require_ems: false,
        curves: None,
        http: HttpVersion::Http2,
        method: None,
        headers: Vec::new(),
        data: None,
        output: None,
        include: false,
        verbose: false,
        fail: false,
        location: false,
        max_redirs: None,
        raw: false,
        max_filesize: None,
        connect_timeout: None,
        max_time: None,
        cookie_jar: false,
        allow_no_close_notify: false,
    };
    let mut url = None;
    let mut args = args.into_iter();
    let mut only_positional = false;
    while let Some(arg) = args.next() {
        if only_positional || !arg.starts_with('-') || arg == "-" {
            if url.replace(arg.clone()).is_some() {
                return Err(format!("one URL only (second: {arg:?})"));
            }
            continue;
        }
        if arg == "--" {
            only_positional = true;
            continue;
        }
        // `--name=value` is accepted for long options.
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = || -> Result<String, String> {
            match inline.clone() {
                Some(v) => Ok(v),
                None => args.next().ok_or_else(|| format!("{flag} needs a value")),
            }
        };
        match flag.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "-x" | "--proxy" => o.proxy = Some(value()?),
            "--proxy-cacert" => o.proxy_cacert.push(value()?),
            "--noproxy" => o.noproxy = Some(value()?),
            "--cacert" => o.cacert.push(value()?),
            "--pin" | "--pinnedpubkey" => o.pins.push(value()?),
            "-k" | "--insecure" => o.insecure = true,
            "--tlsv1.3" => o.tls13_only = true,
            "--tlsv1.2" => {} // curl's "at least 1.2": burrow never offers less.
            "--require-ems" => o.require_ems = true,
            "--curves" => o.curves = Some(curves(&value()?)?),
            "--tls-max" => match value()?.as_str() {
                "1.2" => o.tls12_only = true,
                "1.3" => o.tls12_only = false,
                v => return Err(format!("--tls-max wants 1.2 or 1.3, not {v:?}")),
            },
            "--impersonate" => {
                let name = value()?;
                if burrow_handshake::Profile::by_name(&name).is_none() {
                    return Err(format!(
                        "--impersonate wants one of {}, not {name:?}",
                        burrow_handshake::Profile::NAMES.join(", ")
                    ));
                }
                o.impersonate = Some(name);
            }
            "--http1.1" => o.http = HttpVersion::Http11,
            "--http2" => o.http = HttpVersion::Http2,
            "--http2-prior-knowledge" => o.http = HttpVersion::Http2PriorKnowledge,
            "-X" | "--request" => o.method = Some(value()?),
            "-H" | "--header" => o.headers.push(header(&value()?)?),
            "-d" | "--data" | "--data-binary" => {
                let v = value()?;
                o.data = Some(match v.strip_prefix('@') {
                    Some(path) => Data::File(path.to_string()),
                    None => Data::Inline(v.into_bytes()),
                });
            }
            "-o" | "--output" => o.output = Some(value()?),
            "-i" | "--include" => o.include = true,
            "-v" | "--verbose" => o.verbose = true,
            "-f" | "--fail" => o.fail = true,
            "-L" | "--location" => o.location = true,
            "--max-redirs" => {
                let v = value()?;
                o.max_redirs = Some(
                    v.parse()
                        .map_err(|_| format!("--max-redirs wants a count, not {v:?}"))?,
                );
            }
            "--compressed" => o.raw = false,
            "--raw" => o.raw = true,
            "--max-filesize" => {
                let v = value()?;
                o.max_filesize =
                    Some(match v.as_str() {
                        "none" => None,
                        n => Some(n.parse().map_err(|_| {
                            format!("--max-filesize wants bytes or 'none', not {v:?}")
                        })?),
                    });
            }
            "--connect-timeout" => o.connect_timeout = Some(seconds(&flag, &value()?)?),
            "-m" | "--max-time" => o.max_time = Some(seconds(&flag, &value()?)?),
            "--cookie-jar" => o.cookie_jar = true,
            "--allow-no-close-notify" => o.allow_no_close_notify = true,
            other => return Err(format!("unknown option {other} (see --help)")),
        }
    }
    if o.tls13_only && o.tls12_only {
        return Err("--tlsv1.3 with --tls-max 1.2 leaves no TLS version".to_string());
    }
    o.url = url.ok_or("no URL given (see --help)")?;
    Ok(Command::Fetch(Box::new(o)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fetch(args: &[&str]) -> Options {
        match parse(args.iter().map(|s| s.to_string())).unwrap() {
            Command::Fetch(o) => *o,
            Command::Help => panic!("help"),
        }
    }

    fn error(args: &[&str]) -> String {
        parse(args.iter().map(|s| s.to_string())).unwrap_err()
    }

    #[test]
    fn parses_curl_spellings() {
        let o = fetch(&[
            "-x",
            "socks5h://127.0.0.1:1080",
            "-H",
            "A: b c ",
            "--header=X-Y:z",
            "-d",
            "@body.bin",
            "-X",
            "PUT",
            "--http1.1",
            "-i",
            "-v",
            "-L",
            "--max-redirs",
            "3",
            "--max-filesize",
            "none",
            "-m",
            "1.5",
            "https://a.test/",
        ]);
        assert_eq!(o.url, "https://a.test/");
        assert_eq!(o.proxy.as_deref(), Some("socks5h://127.0.0.1:1080"));
        assert_eq!(
            o.headers,
            [
                ("A".to_string(), "b c".to_string()),
                ("X-Y".to_string(), "z".to_string())
            ]
        );
        assert_eq!(o.data, Some(Data::File("body.bin".to_string())));
        assert_eq!(o.method.as_deref(), Some("PUT"));
        assert_eq!(o.http, HttpVersion::Http11);
        assert!(o.include && o.verbose && o.location);
        assert_eq!(o.max_redirs, Some(3));
        assert_eq!(o.max_filesize, Some(None));
        assert_eq!(o.max_time, Some(Duration::from_millis(1500)));
    }

    #[test]
    fn defaults() {
        let o = fetch(&["http://a.test/"]);
        assert_eq!(o.http, HttpVersion::Http2);
        assert!(!o.raw && !o.insecure && !o.location && !o.fail);
        assert_eq!(o.max_filesize, None);
        assert_eq!(o.data, None);
    }

    #[test]
    fn rejects_bad_input_with_a_reason() {
        assert!(error(&[]).contains("no URL"));
        assert!(error(&["--frobnicate", "u"]).contains("unknown option --frobnicate"));
        assert!(error(&["-H", "novalue", "u"]).contains("Name: value"));
        assert!(error(&["-H", ": v", "u"]).contains("empty header name"));
        assert!(error(&["-H", "Bad Name: v", "u"]).contains("token characters"));
        assert!(error(&["-H", "X(: v", "u"]).contains("token characters"));
        assert!(error(&["-H", "X: a\r\nInjected: 1", "u"]).contains("CR, LF"));
        assert!(error(&["u", "-o"]).contains("-o needs a value"));
        assert!(error(&["-m", "0", "u"]).contains("positive"));
        assert!(error(&["-m", "soon", "u"]).contains("seconds"));
        assert!(error(&["--max-filesize", "big", "u"]).contains("'none'"));
        assert!(error(&["a", "b"]).contains("one URL only"));
        assert!(error(&["--tls-max", "1.1", "u"]).contains("1.2 or 1.3"));
        assert!(error(&["--curves", "X448", "u"]).contains("unsupported group \"X448\""));
        assert!(error(&["--curves", "X25519:x25519", "u"]).contains("twice"));
        assert!(error(&["--curves", "", "u"]).contains("unknown"));
        assert!(error(&["--tlsv1.3", "--tls-max", "1.2", "u"]).contains("no TLS version"));
    }

    #[test]
    fn help_wins_and_documents_every_option() {
        assert_eq!(
            parse(["-v".to_string(), "--help".to_string()]).unwrap(),
            Command::Help
        );
        for flag in [
            "--proxy",
            "--proxy-cacert",
            "--noproxy",
            "--cacert",
            "--pin",
            "--insecure",
            "--tlsv1.3",
            "--tls-max",
            "--curves",
            "--require-ems",
            "--http1.1",
            "--http2",
            "--http2-prior-knowledge",
            "--request",
            "--header",
            "--data",
            "--data-binary",
            "--output",
            "--include",
            "--verbose",
            "--fail",
            "--location",
            "--max-redirs",
            "--compressed",
            "--raw",
            "--max-filesize",
            "--connect-timeout",
            "--max-time",
            "--cookie-jar",
            "--allow-no-close-notify",
            "SSLKEYLOGFILE",
        ] {
            assert!(HELP.contains(flag), "--help does not mention {flag}");
        }
        for code in crate::exit::ALL {
            assert!(
                HELP.contains(&format!("\n  {code:>2}  ")),
                "--help does not document exit code {code}"
            );
        }
    }
}

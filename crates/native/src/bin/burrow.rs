//! `burrow URL`: a curl-like command line over burrow-client and TokioNet. `burrow --help`
//! lists the options and the exit codes (one per failure class).

#[path = "../cli/args.rs"]
mod args;
#[path = "../cli/describe.rs"]
mod describe;
#[path = "../cli/exit.rs"]
mod exit;
#[path = "../cli/keylog.rs"]
mod keylog;
#[path = "../cli/setup.rs"]
mod setup;

use std::io::Write;
use std::process::ExitCode;

use burrow_client::{Client, ClientConfig, Request, Response};
use burrow_native::TokioNet;

use args::{Command, Options};

/// The way to the origin (a failed connect is the proxy's when there is one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Route {
    /// No proxy (none configured, or --noproxy).
    Direct,
    /// Through a proxy.
    Proxy,
}

/// Why the run stopped: the exit code and what to tell the user.
struct Failure {
    exit: u8,
    message: String,
}

impl Failure {
    fn new(exit: u8, message: impl Into<String>) -> Failure {
        Failure {
            exit,
            message: message.into(),
        }
    }

    /// A client error, exiting by its class, its message naming flags.
    fn client(e: &burrow_client::Error, route: Route) -> Failure {
        Failure::new(
            exit::for_error(e, route != Route::Direct),
            e.message(exit::flag).to_string(),
        )
    }
}

fn main() -> ExitCode {
    let code = match args::parse(std::env::args().skip(1)) {
        Ok(Command::Help) => {
            print!("{}", args::HELP);
            exit::OK
        }
        Ok(Command::Fetch(o)) => match run(&o) {
            Ok(()) => exit::OK,
            Err(f) => {
                for line in f.message.lines() {
                    eprintln!("burrow: {line}");
                }
                f.exit
            }
        },
        Err(m) => {
            eprintln!("burrow: {m}");
            exit::USAGE
        }
    };
    ExitCode::from(code)
}

fn run(o: &Options) -> Result<(), Failure> {
    let config = setup::config(o)?;
    let request = setup::request(o)?;
    let route = match &config.proxy {
        Some(_) if burrow_client::uses_proxy(&config, &request.url) => Route::Proxy,
        _ => Route::Direct,
    };
    burrow_native::block_on_local(transfer(o, config, request, route))
        .map_err(|e| Failure::new(exit::OTHER, format!("cannot start the runtime: {e}")))?
}

async fn transfer(
    o: &Options,
    config: ClientConfig,
    request: Request,
    route: Route,
) -> Result<(), Failure> {
    let client = Client::new(TokioNet, config);
    if o.verbose {
        // Before the fetch, so a failed run still says which way it went.
        eprintln!("* {}", proxy_line(client.config(), route));
    }
    let mut resp = client
        .fetch(request)
        .await
        .map_err(|e| Failure::client(&e, route))?;
    if o.verbose {
        for line in session_lines(&resp) {
            eprintln!("* {line}");
        }
        // The request head as it was sent (HTTP/2: the HPACK fields, pseudo-headers first).
        for line in &resp.meta.request_head {
            eprintln!("> {line}");
        }
        for line in response_head(&resp) {
            eprintln!("< {line}");
        }
    }
    if o.fail && resp.status >= 400 {
        return Err(Failure::new(
            exit::HTTP_STATUS,
            format!("the server answered {} (--fail)", resp.status),
        ));
    }
    let mut out: Box<dyn Write> = match &o.output {
        Some(path) => Box::new(
            std::fs::File::create(path)
                .map_err(|e| Failure::new(exit::WRITE, format!("cannot create -o {path}: {e}")))?,
        ),
        None => Box::new(std::io::stdout().lock()),
    };
    let write_failed =
        |e: std::io::Error| Failure::new(exit::WRITE, format!("writing the body: {e}"));
    if o.include {
        let mut head = String::new();
        for line in response_head(&resp) {
            head.push_str(&line);
            head.push_str("\r\n");
        }
        head.push_str("\r\n");
        out.write_all(head.as_bytes()).map_err(write_failed)?;
    }
    while let Some(chunk) = resp
        .next_chunk()
        .await
        .map_err(|e| Failure::client(&e, route))?
    {
        out.write_all(chunk).map_err(write_failed)?;
    }
    out.flush().map_err(write_failed)
}

fn response_head(r: &Response<TokioNet>) -> Vec<String> {
    let mut lines = vec![format!("{} {}", r.meta.http_version, r.status)];
    lines.extend(r.headers.iter().map(|(n, v)| format!("{n}: {v}")));
    lines
}

/// Which way the request goes.
fn proxy_line(config: &ClientConfig, route: Route) -> String {
    match (&config.proxy, route) {
        (Some(_), Route::Direct) => "proxy: bypassed (--noproxy)".to_string(),
        (Some(p), _) => format!("proxy: {}", setup::proxy_display(p)),
        (None, _) => "proxy: none".to_string(),
    }
}

/// TLS sessions, timings: the `* ` lines of `-v` once the response head is in.
fn session_lines(r: &Response<TokioNet>) -> Vec<String> {
    let m = &r.meta;
    let mut lines = Vec::new();
    if let Some(t) = &m.proxy_tls {
        lines.extend(describe::tls_lines("proxy TLS", t));
    }
    match &m.tls {
        Some(t) => lines.extend(describe::tls_lines("TLS", t)),
        None => lines.push("TLS: none (http)".to_string()),
    }
    let t = m.timings;
    lines.push(format!(
        "timings: connect {} ms, proxy {} ms, tls {} ms, first byte {} ms, total {} ms",
        t.connect, t.proxy, t.tls, t.ttfb, t.total
    ));
    if let Some(coding) = &m.content_encoding {
        lines.push(format!("content decoded: {coding} (--raw keeps it coded)"));
    }
    lines.push(format!(
        "connection: {}, {} redirect(s) followed, url {}",
        if m.reused { "reused" } else { "new" },
        m.redirects,
        r.url
    ));
    lines
}

//! TEST-ONLY transport: rustls over std TcpStream, trusting the peers' CA. burrow's own TLS
//! replaces this once it lands; the HTTP/1.1 codec under test does not depend on it.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;

use rustls::pki_types::{pem::PemObject, CertificateDer, ServerName};

/// Either a plain TCP stream or a rustls client stream.
pub enum Stream {
    Plain(TcpStream),
    Tls(Box<rustls::StreamOwned<rustls::ClientConnection, TcpStream>>),
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Stream::Plain(s) => s.read(buf),
            Stream::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Stream::Plain(s) => s.write(buf),
            Stream::Tls(s) => s.write(buf),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Stream::Plain(s) => s.flush(),
            Stream::Tls(s) => s.flush(),
        }
    }
}

pub fn plain(port: u16) -> Stream {
    let tcp = TcpStream::connect(("127.0.0.1", port)).expect("connect to the plain peer");
    tcp.set_nodelay(true).unwrap();
    Stream::Plain(tcp)
}

/// TLS to 127.0.0.1:`port` as `localhost`, offering ALPN http/1.1 only.
pub fn tls(port: u16, ca_pem: &[u8]) -> Stream {
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(ca_pem) {
        roots.add(cert.expect("CA PEM")).expect("add CA");
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("protocol versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    let name = ServerName::try_from("localhost").unwrap();
    let conn = rustls::ClientConnection::new(Arc::new(config), name).expect("client connection");
    let tcp = TcpStream::connect(("127.0.0.1", port)).expect("connect to the TLS peer");
    tcp.set_nodelay(true).unwrap();
    let mut s = rustls::StreamOwned::new(conn, tcp);
    s.conn.complete_io(&mut s.sock).expect("TLS handshake");
    assert_eq!(
        s.conn.alpn_protocol(),
        Some(&b"http/1.1"[..]),
        "ALPN http/1.1"
    );
    Stream::Tls(Box::new(s))
}

//! The connection's side of the record layer: the reader and writer, the bytes and events
//! queued for the caller, key ids and the key log. Handshake steps reach it only through
//! [`Output`].

use crate::event::{Event, TrafficKeyInfo};
use crate::keylog::KeyLogEntry;
use crate::step::{KeyMaterial, Output};
use crate::Error;
use burrow_record::{
    AlertDescription, AlertLevel, ContentType, RecordReader, RecordWriter, SealJob, TrafficKeys,
};
use std::collections::VecDeque;

/// Records in and out, and what waits for the caller.
pub(crate) struct Wire {
    pub(crate) reader: RecordReader,
    pub(crate) writer: RecordWriter,
    /// Records to transmit.
    pub(crate) out: Vec<u8>,
    pub(crate) events: VecDeque<Event>,
    /// Offload mode: seal jobs over `out`, in order.
    pub(crate) pending_seals: VecDeque<SealJob>,
    /// Set when the read keys change (a handshake message must not span the change).
    pub(crate) read_keys_changed: bool,
    offload: bool,
    next_key_id: u32,
    ccs_sent: bool,
    client_random: [u8; 32],
    /// `None` unless the caller asked for a key log.
    key_log: Option<Vec<KeyLogEntry>>,
}

impl Wire {
    pub(crate) fn new(
        reader: RecordReader,
        writer: RecordWriter,
        offload: bool,
        key_log: bool,
        client_random: [u8; 32],
    ) -> Self {
        Self {
            reader,
            writer,
            out: Vec::new(),
            events: VecDeque::new(),
            pending_seals: VecDeque::new(),
            read_keys_changed: false,
            offload,
            next_key_id: 0,
            ccs_sent: false,
            client_random,
            key_log: key_log.then(Vec::new),
        }
    }

    /// Writes records; in offload mode their seal jobs are queued for the caller.
    pub(crate) fn write_record(&mut self, ct: ContentType, data: &[u8]) -> Result<(), Error> {
        self.write_record_parts(ct, &[data])
    }

    /// [`write_record`](Self::write_record) of the parts' concatenation, without making it.
    pub(crate) fn write_record_parts(
        &mut self,
        ct: ContentType,
        parts: &[&[u8]],
    ) -> Result<(), Error> {
        let jobs = self.writer.write_parts(ct, parts, &mut self.out)?;
        self.pending_seals.extend(jobs);
        Ok(())
    }

    /// An alert record. Best effort: an alert that cannot be written is not sent. In offload
    /// mode a protected alert becomes a seal job like any record; after an error the caller
    /// finds it with `Connection::pending_seal`.
    pub(crate) fn write_alert(&mut self, level: AlertLevel, desc: AlertDescription) {
        let _ = self.write_record(ContentType::ALERT, &[level.0, desc.0]);
    }

    /// The key log entries gathered since the last call.
    pub(crate) fn take_key_log(&mut self) -> Vec<KeyLogEntry> {
        self.key_log
            .as_mut()
            .map(core::mem::take)
            .unwrap_or_default()
    }
}

impl Output for Wire {
    fn send_handshake(&mut self, msg: &[u8]) -> Result<(), Error> {
        self.write_record(ContentType::HANDSHAKE, msg)
    }

    fn send_change_cipher_spec(&mut self, keys: TrafficKeys) -> Result<(), Error> {
        self.write_record(ContentType::CHANGE_CIPHER_SPEC, &[1])?;
        self.writer.set_keys(Some(keys));
        Ok(())
    }

    fn send_compat_ccs(&mut self) {
        if !self.ccs_sent {
            self.ccs_sent = true;
            self.out.extend_from_slice(&[20, 3, 3, 0, 1, 1]);
        }
    }

    fn send_warning(&mut self, alert: AlertDescription) -> Result<(), Error> {
        self.write_record(ContentType::ALERT, &[AlertLevel::WARNING.0, alert.0])
    }

    fn make_keys(&mut self, m: KeyMaterial<'_>) -> Result<TrafficKeys, Error> {
        self.next_key_id = self.next_key_id.wrapping_add(1);
        let key_id = self.next_key_id;
        let keys = if m.tls12 {
            TrafficKeys::new_tls12(m.aead, m.key, m.iv, key_id)
        } else {
            TrafficKeys::new(m.aead, m.key, m.iv, key_id)
        }
        .map_err(Error::Record)?;
        if self.offload {
            self.events.push_back(Event::TrafficKey(TrafficKeyInfo {
                key_id,
                algorithm: m.aead,
                key: m.key.to_vec(),
                for_reading: m.for_reading,
            }));
        }
        Ok(keys)
    }

    fn read_with(&mut self, keys: TrafficKeys) {
        self.reader.set_keys(Some(keys));
        self.read_keys_changed = true;
    }

    fn write_with(&mut self, keys: TrafficKeys) {
        self.writer.set_keys(Some(keys));
    }

    fn set_peer_record_size_limit(&mut self, limit: u16) {
        self.writer.set_peer_record_size_limit(limit);
    }

    fn emit(&mut self, event: Event) {
        self.events.push_back(event);
    }

    fn log_secret(&mut self, label: &'static str, secret: &[u8]) {
        if let Some(log) = &mut self.key_log {
            log.push(KeyLogEntry {
                label,
                client_random: self.client_random,
                secret: secret.to_vec(),
            });
        }
    }
}

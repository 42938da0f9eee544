#![no_main]
//! burrow-record: the record reader under arbitrary bytes and chunkings, with and without keys,
//! inline and offloaded opening.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    burrow_record::fuzz::reader(data);
});

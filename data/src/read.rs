//! Reading a data file: a streaming iterator over its records, with
//! errors that say what is wrong and at which byte.

use std::fmt;
use std::io::{self, Read};

use crate::format::{Header, Record, MAGIC, RECORD_SIZE};

/// What is wrong with a data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataErrorKind {
    /// Reading failed (the text of the I/O error).
    Io(String),
    /// The file is empty.
    Empty,
    /// The file does not start with the magic of a data file.
    NotDataFile,
    /// A format version this reader does not know.
    Version(u16),
    /// A record size other than 48.
    RecordSize(u16),
    /// An unknown variant code.
    Variant(u8),
    /// The file ends inside a header or record: this many bytes of it.
    Truncated(usize),
    /// A record field that cannot be.
    BadRecord(&'static str),
    /// A record whose position is not one of its game (bad placement,
    /// missing general, …): the rules core's words.
    BadPosition(String),
}

impl fmt::Display for DataErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use DataErrorKind::*;
        match self {
            Io(e) => write!(f, "{e}"),
            Empty => write!(f, "the file is empty"),
            NotDataFile => write!(f, "not a jiang data file (no JIANGDATA header)"),
            Version(v) => write!(f, "format version {v}, this build reads version 1"),
            RecordSize(n) => write!(f, "record size {n}, expected {RECORD_SIZE}"),
            Variant(c) => write!(f, "unknown variant code {c}"),
            Truncated(n) => write!(
                f,
                "truncated: the file ends {n} bytes into a {RECORD_SIZE}-byte record"
            ),
            BadRecord(why) => write!(f, "bad record: {why}"),
            BadPosition(why) => write!(f, "bad position: {why}"),
        }
    }
}

/// A data file error and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError {
    /// Byte offset of the header or record at fault.
    pub offset: u64,
    /// What is wrong.
    pub kind: DataErrorKind,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.offset, self.kind)
    }
}

impl std::error::Error for DataError {}

/// The records of a data file, in file order, as an iterator of
/// `Result<Record, DataError>`. The first error ends the iteration.
/// Segments (a header and its records) may follow each other, as
/// concatenated files do; each record carries its segment's variant.
pub struct Reader<R: Read> {
    input: R,
    header: Option<Header>,
    offset: u64,
    done: bool,
}

impl<R: Read> Reader<R> {
    /// A reader over `input` (wrap files in a `BufReader`).
    pub fn new(input: R) -> Reader<R> {
        Reader {
            input,
            header: None,
            offset: 0,
            done: false,
        }
    }

    /// The header of the segment being read (`None` before the first).
    pub fn header(&self) -> Option<&Header> {
        self.header.as_ref()
    }

    /// Bytes read so far: the end of the last header or record returned.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Fill `buf`; how many bytes there were (less than the size only at
    /// the end of the input).
    fn fill(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        while n < buf.len() {
            match self.input.read(&mut buf[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(n)
    }

    /// The next header or record block, `None` at a clean end.
    fn next_record(&mut self) -> Result<Option<Record>, DataErrorKind> {
        loop {
            let mut b = [0u8; RECORD_SIZE];
            let n = self
                .fill(&mut b)
                .map_err(|e| DataErrorKind::Io(e.to_string()))?;
            match n {
                0 if self.header.is_none() => return Err(DataErrorKind::Empty),
                0 => return Ok(None),
                n if self.header.is_none()
                    && b[..n.min(MAGIC.len())] != MAGIC[..n.min(MAGIC.len())] =>
                {
                    return Err(DataErrorKind::NotDataFile)
                }
                n if n < RECORD_SIZE => return Err(DataErrorKind::Truncated(n)),
                _ => {}
            }
            if self.header.is_none() || Header::is_header(&b) {
                self.header = Some(Header::decode(&b)?);
                self.offset += RECORD_SIZE as u64;
                continue;
            }
            let variant = self.header.map(|h| h.variant).unwrap_or_default();
            let r = Record::decode(&b, variant)?;
            r.to_position()
                .map_err(|e| DataErrorKind::BadPosition(e.to_string()))?;
            self.offset += RECORD_SIZE as u64;
            return Ok(Some(r));
        }
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<Record, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.next_record() {
            Ok(Some(r)) => Some(Ok(r)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(kind) => {
                self.done = true;
                Some(Err(DataError {
                    offset: self.offset,
                    kind,
                }))
            }
        }
    }
}

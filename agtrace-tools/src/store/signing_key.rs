//! The key that seals agtrace's cursors, kept in the data directory: a cursor from one
//! `agtrace call` (or one `serve` process) is then accepted by the next, as a page of results
//! may well be asked for after a restart. Replicas on other machines share keys by
//! configuration instead (`--signing-keys`).

use mcp_tool::seal::SigningKeys;
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// The file, beside the index.
const FILE: &str = "signing.key";

/// The data directory's signing keys, made on first use (readable by the owner only). `None`,
/// with a warning, when the file can be neither read nor made: the server then keeps the
/// per-process default.
pub fn local_signing_keys(data_dir: &Path) -> Option<SigningKeys> {
    match read_or_make(data_dir) {
        Ok(keys) => Some(keys),
        Err(e) => {
            tracing::warn!(path = %data_dir.join(FILE).display(), error = %e,
                "no signing key in the data directory: cursors will not outlive this process");
            None
        }
    }
}

fn read_or_make(data_dir: &Path) -> io::Result<SigningKeys> {
    let path = data_dir.join(FILE);
    let mut secret = [0u8; 32];
    getrandom::fill(&mut secret).map_err(|e| io::Error::other(e.to_string()))?;
    let hex: String = secret.iter().map(|b| format!("{b:02x}")).collect();
    // `create_new`: two processes starting at once both end up reading the one that won.
    match OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path)
    {
        Ok(mut file) => {
            file.write_all(format!("local:{hex}\n").as_bytes())?;
            file.sync_all()?;
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    let text = std::fs::read_to_string(&path)?;
    SigningKeys::parse(text.trim()).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_made_once_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let first = local_signing_keys(dir.path()).unwrap();
        let token = first.seal("cursor", b"position");
        let again = local_signing_keys(dir.path()).unwrap();
        assert_eq!(again.open("cursor", &token).unwrap(), b"position");
        let mode = std::fs::metadata(dir.path().join(FILE))
            .unwrap()
            .permissions();
        assert_eq!(
            std::os::unix::fs::PermissionsExt::mode(&mode) & 0o777,
            0o600
        );
    }

    #[test]
    fn a_damaged_file_is_reported_not_used() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(FILE), "short").unwrap();
        assert!(local_signing_keys(dir.path()).is_none());
    }
}

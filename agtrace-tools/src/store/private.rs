//! The data dir and its index files are private to their owner, whatever the umask: the index
//! holds the text of private session logs (prompts, tool output, file contents).

use std::path::Path;

use crate::error::{Error, Result};

/// SQLite's companions of the index file. SQLite gives the `-wal` and `-shm` files the mode of
/// the database file, but files left by an older agtrace (or another umask) are tightened too.
const INDEX_SUFFIXES: [&str; 4] = ["", "-wal", "-shm", "-journal"];

/// Creates `dir` (mode 0700) and the empty index file (mode 0600) if missing, and tightens an
/// existing dir and index files left readable by others.
pub(super) fn prepare_data_dir(dir: &Path, index: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        // Set explicitly: create_dir_all applies the umask, which commonly leaves 0755.
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
            .map_err(|e| Error::io(dir, e))?;
        // Created here rather than by SQLite, so that it never exists with a wider mode, even
        // for a moment; SQLite takes an empty file for a new database.
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .open(index)
            .map_err(|e| Error::io(index, e))?;
        let name = index.as_os_str();
        for suffix in INDEX_SUFFIXES {
            let mut path = name.to_os_string();
            path.push(suffix);
            let path = Path::new(&path);
            let Ok(md) = std::fs::symlink_metadata(path) else {
                continue;
            };
            if md.is_file() && md.permissions().mode() & 0o077 != 0 {
                std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
                    .map_err(|e| Error::io(path, e))?;
            }
        }
    }
    #[cfg(not(unix))]
    let _ = index;
    Ok(())
}

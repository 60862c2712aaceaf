//! Private by default: the index of private logs is readable by its owner only, errors name
//! logs relative to their root, and the data dir can never be put inside a log root.

mod common;

use std::path::Path;

use agtrace_tools::config::Config;
use agtrace_tools::store::TraceStore;
use common::copy_tree;

#[cfg(unix)]
fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[cfg(unix)]
fn set_mode(p: &Path, m: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
}

/// Every file in the data dir, with its mode, after an index run.
#[cfg(unix)]
fn modes_in(dir: &Path) -> Vec<(String, u32)> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                mode(&e.path()),
            )
        })
        .collect();
    out.sort();
    out
}

#[cfg(unix)]
#[test]
fn a_new_data_dir_is_0700_and_its_index_files_0600() {
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    copy_tree(&common::samples(), &logs);
    let data = tmp.path().join("share/agtrace");
    let store = TraceStore::open(Config::for_tree(&logs, &data)).unwrap();
    store.refresh().unwrap();
    // The writer's and a reader's connections are open: the -wal and -shm files exist now.
    store.list_sessions(&Default::default(), None, 5).unwrap();
    assert_eq!(mode(&data), 0o700);
    let files = modes_in(&data);
    let names: Vec<_> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert!(names.contains(&"index.sqlite"), "{files:?}");
    assert!(names.contains(&"index.sqlite-wal"), "{files:?}");
    assert!(names.contains(&"index.sqlite-shm"), "{files:?}");
    for (name, m) in &files {
        assert_eq!(*m, 0o600, "{name} has mode {m:o}");
    }
}

#[cfg(unix)]
#[test]
fn an_existing_readable_data_dir_and_index_are_tightened() {
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    copy_tree(&common::samples(), &logs);
    let data = tmp.path().join("data");
    // What a umask of 0o022 gives a dir and files made without care.
    std::fs::create_dir_all(&data).unwrap();
    set_mode(&data, 0o755);
    {
        let store = TraceStore::open(Config::for_tree(&logs, &data)).unwrap();
        store.refresh().unwrap();
    }
    for name in ["index.sqlite", "index.sqlite-wal", "index.sqlite-shm"] {
        let p = data.join(name);
        if !p.exists() {
            std::fs::write(&p, b"").unwrap();
        }
        set_mode(&p, 0o644);
    }
    set_mode(&data, 0o755);

    let store = TraceStore::open(Config::for_tree(&logs, &data)).unwrap();
    assert_eq!(mode(&data), 0o700);
    for (name, m) in modes_in(&data) {
        assert_eq!(m, 0o600, "{name} has mode {m:o}");
    }
    // Still the same index, readable.
    assert!(store.refresh().unwrap().files_seen > 0);
}

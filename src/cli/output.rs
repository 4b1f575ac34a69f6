//! Output files written whole or not at all: each is written to a temporary file beside its
//! path and renamed over it only once complete, so a failure leaves what the path had.

use anyhow::Context;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// An output file being written: a temporary file in the directory of its path, which
/// [`write_with`] renames into place once the whole file is written. Dropped unwritten, it is
/// removed, and the path keeps what it had.
pub(super) struct Pending(tempfile::NamedTempFile);

/// Creates the pending output for `path` (`what` names it in the error).
pub(super) fn create(path: &Path, what: &str) -> anyhow::Result<Pending> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut b = tempfile::Builder::new();
    b.prefix(".tengen-").suffix(".tmp");
    // The permissions `File::create` gives (0666 less the umask), not the temporary file's 0600.
    #[cfg(unix)]
    b.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    b.tempfile_in(dir)
        .map(Pending)
        .with_context(|| format!("cannot create the {what} file {}", path.display()))
}

/// Writes through a buffer into `file` (pending for `path`), flushes it and renames it to
/// `path`.
pub(super) fn write_with(
    file: Pending,
    path: &Path,
    body: impl FnOnce(&mut BufWriter<&File>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut w = BufWriter::new(file.0.as_file());
    body(&mut w)
        .and_then(|()| w.flush().map_err(Into::into))
        .with_context(|| format!("cannot write {}", path.display()))?;
    drop(w);
    file.0
        .persist(path)
        .map(drop)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Writes `text` to `path` whole (`what` names the file in the errors).
pub(super) fn write_text(path: &Path, what: &str, text: &str) -> anyhow::Result<()> {
    let file = create(path, what)?;
    write_with(file, path, |w| {
        w.write_all(text.as_bytes()).map_err(Into::into)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_file_replaces_the_old_one_with_the_usual_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("table.tsv");
        std::fs::write(&path, "old").unwrap();
        write_text(&path, "table", "new\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let usual = dir.path().join("usual");
            File::create(&usual).unwrap();
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&path), mode(&usual));
        }
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.svg");
        std::fs::write(&path, "old").unwrap();
        let file = create(&path, "flamegraph").unwrap();
        let err = write_with(file, &path, |_| anyhow::bail!("no samples")).unwrap_err();
        assert!(format!("{err:#}").contains("out.svg"), "{err:#}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}

//! Where `tengen model` reads its game records: a directory of `*.sgf` files, or a tar archive
//! of them (`.tar`, or `.tar.xz` / `.txz`, decompressed as it is read). Records come out in
//! batches, so that a caller holds at most one batch of record texts at a time however large
//! the archive.
//!
//! Which games are held out of the fit, by game and never by position:
//! - a directory: every fifth file in name order (the 5th, 10th, ...), the rule the committed
//!   tables were fitted under;
//! - an archive: the members whose name's 64-bit FNV-1a hash is a multiple of 5, a rule that
//!   does not depend on the members' order in the archive.

use crate::sgf;
use anyhow::{bail, Context};
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Most record files one directory may hold (their names are listed and sorted first).
pub const MAX_FILES: usize = 20_000;

/// One record's bytes as read, or why they could not be read.
pub struct RawRecord {
    /// Its place in the source's order (name order in a directory, member order in an archive).
    pub ordinal: usize,
    /// The file name, or the member's path in the archive.
    pub name: String,
    /// Whether the game is held out of the fit (see the module's rule).
    pub held_out: bool,
    pub bytes: Result<Vec<u8>, String>,
}

/// How far a read has gone, for a progress bar: `done` of `total` units (files of a directory,
/// compressed bytes of an archive) of the source read now, and `records` handed on from every
/// source so far.
#[derive(Default)]
pub struct ReadProgress {
    pub done: AtomicU64,
    pub total: AtomicU64,
    pub records: AtomicU64,
}

/// The 64-bit FNV-1a hash of `bytes`: the archive's hold-out rule, and the seed of the
/// position sample.
#[must_use]
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_from(0xcbf2_9ce4_8422_2325, bytes)
}

/// [`fnv1a`] of what was hashed into `hash`, followed by `bytes`.
#[must_use]
pub fn fnv1a_from(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Whether the archive member `name` is held out of the fit.
#[must_use]
pub fn held_out_by_name(name: &str) -> bool {
    fnv1a(name.as_bytes()) % 5 == 0
}

/// Whether `path` names an archive (by its name) rather than a directory.
fn archive_kind(path: &Path) -> Option<bool> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    if name.ends_with(".tar.xz") || name.ends_with(".txz") {
        Some(true)
    } else if name.ends_with(".tar") {
        Some(false)
    } else {
        None
    }
}

/// Reads every record of `path` (a directory or an archive) and hands them to `each` in
/// batches of at most `batch`, in the source's order.
///
/// # Errors
/// An unreadable directory or archive, a directory without records or with more than
/// [`MAX_FILES`], a corrupt archive (the records before the damage have been handed on), or
/// `each`'s error. One record that cannot be read is not an error: its `bytes` say why.
pub fn read(
    path: &Path,
    batch: usize,
    progress: &ReadProgress,
    mut each: impl FnMut(Vec<RawRecord>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let batch = batch.max(1);
    match archive_kind(path) {
        Some(xz) => read_archive(path, xz, batch, progress, &mut each),
        None => read_directory(path, batch, progress, &mut each),
    }
}

fn read_directory(
    dir: &Path,
    batch: usize,
    progress: &ReadProgress,
    each: &mut dyn FnMut(Vec<RawRecord>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the directory {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "sgf"))
        .take(MAX_FILES + 1)
        .collect();
    if files.is_empty() {
        bail!("no .sgf records in {}", dir.display());
    }
    if files.len() > MAX_FILES {
        bail!(
            "more than {MAX_FILES} records in {}: pack them into a .tar.xz archive, which is read as a stream",
            dir.display()
        );
    }
    files.sort();
    progress.total.store(files.len() as u64, Ordering::Relaxed);
    progress.done.store(0, Ordering::Relaxed);
    for (start, chunk) in (0..).step_by(batch).zip(files.chunks(batch)) {
        let records = chunk
            .iter()
            .enumerate()
            .map(|(k, f)| RawRecord {
                ordinal: start + k,
                name: f.display().to_string(),
                held_out: (start + k) % 5 == 4,
                bytes: sgf::read_bounded(f, sgf::MAX_BYTES),
            })
            .collect();
        each(records)?;
        for counter in [&progress.done, &progress.records] {
            counter.fetch_add(chunk.len() as u64, Ordering::Relaxed);
        }
    }
    Ok(())
}

/// A reader that counts the bytes read through it.
struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

fn read_archive(
    path: &Path,
    xz: bool,
    batch: usize,
    progress: &ReadProgress,
    each: &mut dyn FnMut(Vec<RawRecord>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    progress.total.store(size, Ordering::Relaxed);
    progress.done.store(0, Ordering::Relaxed);
    let count = Arc::new(AtomicU64::new(0));
    let counted = Counting {
        inner: BufReader::new(file),
        count: Arc::clone(&count),
    };
    let stream: Box<dyn Read> = if xz {
        Box::new(liblzma::read::XzDecoder::new_multi_decoder(counted))
    } else {
        Box::new(counted)
    };
    let mut archive = tar::Archive::new(stream);
    let broken = |e: std::io::Error| anyhow::anyhow!("{}: a broken archive: {e}", path.display());
    let mut pending = Vec::with_capacity(batch);
    let mut ordinal = 0;
    for entry in archive.entries().map_err(broken)? {
        let mut entry = entry.map_err(broken)?;
        progress
            .done
            .store(count.load(Ordering::Relaxed), Ordering::Relaxed);
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        if !entry.header().entry_type().is_file() || !name.to_ascii_lowercase().ends_with(".sgf") {
            continue;
        }
        let bytes = if entry.size() > sgf::MAX_BYTES {
            // Skipped unread: the archive reader steps over it.
            Err(format!(
                "larger than {} MiB, more than a game record",
                sgf::MAX_BYTES >> 20
            ))
        } else {
            let mut bytes = Vec::new();
            entry.read_to_end(&mut bytes).map_err(broken)?;
            Ok(bytes)
        };
        pending.push(RawRecord {
            ordinal,
            held_out: held_out_by_name(&name),
            name,
            bytes,
        });
        ordinal += 1;
        if pending.len() == batch {
            each(std::mem::take(&mut pending))?;
            progress.records.fetch_add(batch as u64, Ordering::Relaxed);
        }
    }
    if !pending.is_empty() {
        let n = pending.len() as u64;
        each(pending)?;
        progress.records.fetch_add(n, Ordering::Relaxed);
    }
    if ordinal == 0 {
        bail!("no .sgf records in {}", path.display());
    }
    progress.done.store(size, Ordering::Relaxed);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tar archive of `(name, text)` members.
    fn tar_of(members: &[(&str, &str)]) -> Vec<u8> {
        let mut b = tar::Builder::new(Vec::new());
        for (name, text) in members {
            let mut h = tar::Header::new_gnu();
            h.set_size(text.len() as u64);
            h.set_mode(0o644);
            h.set_cksum();
            b.append_data(&mut h, name, text.as_bytes()).unwrap();
        }
        b.into_inner().unwrap()
    }

    fn read_all(path: &Path, batch: usize) -> anyhow::Result<Vec<Vec<(usize, String, bool)>>> {
        let mut batches = Vec::new();
        read(path, batch, &ReadProgress::default(), |b| {
            batches.push(
                b.into_iter()
                    .map(|r| (r.ordinal, r.name, r.bytes.is_ok()))
                    .collect(),
            );
            Ok(())
        })?;
        Ok(batches)
    }

    #[test]
    fn an_xz_archive_is_read_member_by_member_in_batches() {
        let dir = tempfile::tempdir().unwrap();
        let tar = tar_of(&[
            ("games/a.sgf", "(;SZ[9];B[ee])"),
            ("games/notes.txt", "not a record"),
            ("games/b.SGF", "(;SZ[9];B[dd])"),
            ("games/c.sgf", "(;SZ[9])"),
        ]);
        let mut xz = Vec::new();
        let mut enc = liblzma::read::XzEncoder::new(&tar[..], 6);
        enc.read_to_end(&mut xz).unwrap();
        let path = dir.path().join("r.tar.xz");
        std::fs::write(&path, &xz).unwrap();
        let batches = read_all(&path, 2).unwrap();
        assert_eq!(
            batches,
            vec![
                vec![
                    (0, "games/a.sgf".to_string(), true),
                    (1, "games/b.SGF".to_string(), true)
                ],
                vec![(2, "games/c.sgf".to_string(), true)],
            ]
        );
        // The same members uncompressed.
        let plain = dir.path().join("r.tar");
        std::fs::write(&plain, &tar).unwrap();
        assert_eq!(read_all(&plain, 2).unwrap(), batches);
        // Cut short: the members before the damage, then an error naming the archive.
        let cut = dir.path().join("cut.tar.xz");
        std::fs::write(&cut, &xz[..xz.len() / 2]).unwrap();
        let e = read_all(&cut, 1).unwrap_err().to_string();
        assert!(
            e.contains("cut.tar.xz") && e.contains("broken archive"),
            "{e}"
        );
    }

    #[test]
    fn the_hold_out_rule_is_by_name_and_about_a_fifth() {
        let held = (0..10_000)
            .filter(|k| held_out_by_name(&format!("game-{k}.sgf")))
            .count();
        assert!((1_800..2_200).contains(&held), "{held}");
        assert_eq!(held_out_by_name("x.sgf"), held_out_by_name("x.sgf"));
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}

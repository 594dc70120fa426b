//! Which symlinks ytt reads: `--allow-symlink-destination` and
//! `--dangerous-allow-all-symlink-destinations`, and the destination as Go's
//! `filepath.EvalSymlinks` finds it (every link on the way followed, directories included).

use std::path::PathBuf;

use super::{clean, lstat_message};

/// `--allow-symlink-destination PATH` and `--dangerous-allow-all-symlink-destinations`: the
/// symlinks ytt reads.
#[derive(Clone, Debug, Default)]
pub struct Symlinks {
    pub allow_all: bool,
    pub destinations: Vec<String>,
}

impl Symlinks {
    /// Whether the symlink `link` (as the command line or a directory walk names it) may be
    /// read: all may, or its destination is inside one of the allowed paths (both made absolute,
    /// neither resolved further). A link whose destination is a pipe (`-f <(cmd)`, whose
    /// `/dev/fd/N` ends at `pipe:[N]`, no file on any file system) is read too. `Err` is ytt's
    /// refusal.
    pub(super) fn check(&self, link: &str) -> Result<(), String> {
        if self.allow_all {
            return Ok(());
        }
        let dst = match eval_symlinks(link) {
            Ok(dst) => dst,
            Err(e) if is_pipe_lstat_error(&e) => return Ok(()),
            Err(e) => return Err(format!("Eval symlink: {e}")),
        };
        let cwd = std::env::current_dir().unwrap_or_default();
        let absolute = |p: &str| clean(&cwd.join(p));
        let dst_abs = absolute(&dst);
        if self
            .destinations
            .iter()
            .any(|d| dst_abs.starts_with(absolute(d)))
        {
            return Ok(());
        }
        Err(format!(
            "Expected symlink file '{link}' -> '{dst}' to be allowed, but was not (hint: symlinks are disallowed as a security feature, use '--allow-symlink-destination' flags to override)"
        ))
    }
}

/// `lstat /proc/N/fd/pipe:[N]: no such file or directory`: what resolving a pipe's
/// `/dev/fd/N` ends in on Linux, which ytt takes as a file that cannot have been a trick.
fn is_pipe_lstat_error(e: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let Some(rest) = e.strip_prefix("lstat /proc/") else {
        return false;
    };
    let Some((pid, rest)) = rest.split_once("/fd/pipe:[") else {
        return false;
    };
    let Some(inode) = rest.strip_suffix("]: no such file or directory") else {
        return false;
    };
    digits(pid) && digits(inode)
}

/// Go's most links `filepath.EvalSymlinks` follows in one path.
const MAX_LINKS: usize = 255;

/// Go's `filepath.EvalSymlinks` on Unix: the path with every symlink in it replaced by its
/// destination, component by component (a link's relative destination read from the link's
/// folder), cleaned; relative where the path and the links are. `Err` is Go's error text: the
/// `lstat` of the first component that does not exist, `not a directory` for a file used as
/// one, `EvalSymlinks: too many links` past 255 links.
pub(super) fn eval_symlinks(path: &str) -> Result<String, String> {
    let mut path = path.to_string();
    let mut vol_len = usize::from(path.starts_with('/'));
    let mut dest = path[..vol_len].to_string();
    let mut links = 0;
    let mut end = vol_len;
    while end < path.len() {
        let bytes = path.as_bytes();
        let mut start = end;
        while start < bytes.len() && bytes[start] == b'/' {
            start += 1;
        }
        end = start;
        while end < bytes.len() && bytes[end] != b'/' {
            end += 1;
        }
        let component = &path[start..end];
        if component.is_empty() {
            break;
        }
        if component == "." {
            continue;
        }
        if component == ".." {
            match dest[vol_len..].rfind('/').map(|i| i + vol_len) {
                Some(r) if &dest[r + 1..] != ".." => dest.truncate(r),
                _ => {
                    if dest.len() > vol_len {
                        dest.push('/');
                    }
                    dest.push_str("..");
                }
            }
            continue;
        }
        if !dest.is_empty() && !dest.ends_with('/') {
            dest.push('/');
        }
        dest.push_str(component);
        let meta =
            crate::stdin_at_start::lstat(dest.as_ref()).map_err(|e| lstat_message(&dest, &e))?;
        if !meta.file_type().is_symlink() {
            if !meta.is_dir() && end < path.len() {
                return Err("not a directory".into());
            }
            continue;
        }
        links += 1;
        if links > MAX_LINKS {
            return Err("EvalSymlinks: too many links".into());
        }
        let target = std::fs::read_link(&dest)
            .map_err(|e| format!("readlink {dest}: {}", super::io_text(&e)))?;
        let target = target.to_string_lossy().to_string();
        path = format!("{target}{}", &path[end..]);
        if target.starts_with('/') {
            dest = "/".into();
            vol_len = 1;
            end = 1;
        } else {
            match dest[vol_len..].rfind('/').map(|i| i + vol_len) {
                Some(r) => dest.truncate(r),
                None => dest.truncate(vol_len),
            }
            end = 0;
        }
    }
    Ok(
        clean(&PathBuf::from(if dest.is_empty() { "." } else { &dest }))
            .to_string_lossy()
            .to_string(),
    )
}

/// Whether `meta` is a file ytt reads: a regular file, a symlink (checked apart) or a named
/// pipe (`mkfifo`), which ytt allows for `-f <(cmd)` on systems where that is one.
pub(super) fn is_readable_kind(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    t.is_file() || t.is_symlink() || t.is_fifo()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("schemac-symlinks-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_chain_resolves_to_its_last_destination_through_linked_folders() {
        let dir = temp_dir("chain");
        std::fs::create_dir_all(dir.join("real")).unwrap();
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("real/v.yml"), "a: 1\n").unwrap();
        std::os::unix::fs::symlink("../real", dir.join("sub/rl")).unwrap();
        std::os::unix::fs::symlink("sub/rl/v.yml", dir.join("l1.yml")).unwrap();
        std::os::unix::fs::symlink(dir.join("l1.yml"), dir.join("l2.yml")).unwrap();
        std::os::unix::fs::symlink("real/v.yml/x", dir.join("under-file.yml")).unwrap();
        let d = dir.to_string_lossy();
        assert_eq!(
            eval_symlinks(&format!("{d}/l2.yml")).unwrap(),
            format!("{d}/real/v.yml")
        );
        assert_eq!(
            eval_symlinks(&format!("{d}/sub/rl/../l1.yml")).unwrap(),
            format!("{d}/real/v.yml")
        );
        assert_eq!(
            eval_symlinks(&format!("{d}/under-file.yml")).unwrap_err(),
            "not a directory"
        );
        assert_eq!(
            eval_symlinks(&format!("{d}/none/x.yml")).unwrap_err(),
            format!("lstat {d}/none: no such file or directory")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_pipe_is_read_as_ytt_reads_process_substitution() {
        use std::os::fd::AsRawFd;
        let mut child = std::process::Command::new("true")
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let fd = child.stdout.as_ref().unwrap().as_raw_fd();
        let link = format!("/dev/fd/{fd}");
        assert!(is_pipe_lstat_error(&eval_symlinks(&link).unwrap_err()));
        assert_eq!(Symlinks::default().check(&link), Ok(()));
        child.wait().unwrap();
        assert!(!is_pipe_lstat_error(
            "lstat /proc/1/fd/socket:[2]: no such file or directory"
        ));
        assert!(!is_pipe_lstat_error(
            "lstat /dev/fd/pipe:[2]: no such file or directory"
        ));
    }
}

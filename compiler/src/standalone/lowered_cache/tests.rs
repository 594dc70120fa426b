use super::*;

const SCHEMA: &str =
    "#@data/values-schema\n---\n#@schema/validation min_len=1\nname: x\nport: 80\n";

/// The schema `text` lowered, read from a scratch directory of its own (tests run at once).
pub(super) fn lowered(text: &str) -> Type {
    let dir = scratch("lower");
    let path = dir.join("schema.yml");
    std::fs::write(&path, text).unwrap();
    let loaded = schemac_runtime::engine::load_schema(
        &[path.to_string_lossy().to_string()],
        &crate::check::INTERPRETER,
    );
    std::fs::remove_dir_all(&dir).unwrap();
    loaded.unwrap().schema.unwrap()
}

fn scratch(what: &str) -> PathBuf {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "schemac-lowered-cache-{what}-{}-{n}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The key of these schema files in a run with no `.star` file.
fn of<'a>(files: &[(&'a str, &'a str)]) -> StoreKey<'a> {
    StoreKey {
        files: files.to_vec(),
        star_files: vec![],
    }
}

fn files() -> StoreKey<'static> {
    of(&[("schema.yml", SCHEMA)])
}

#[test]
fn a_kept_schema_is_read_back() {
    let dir = scratch("kept");
    let cache = LoweredCache::new(dir.join("lowered"), DEFAULT_BUDGET);
    let ty = lowered(SCHEMA);
    assert!(cache.load(&files()).is_none());
    cache.save(&files(), &ty, 1, &StoredRules::default(), &[]);
    let kept = cache.load(&files()).expect("kept");
    assert_eq!((kept.schema, kept.templates), (ty, 1));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn other_names_or_bytes_of_the_same_length_miss() {
    let dir = scratch("edited");
    let cache = LoweredCache::new(dir.join("lowered"), DEFAULT_BUDGET);
    cache.save(&files(), &lowered(SCHEMA), 1, &StoredRules::default(), &[]);
    let edited = SCHEMA.replace("port: 80", "port: 81");
    assert_eq!(edited.len(), SCHEMA.len());
    assert!(cache.load(&of(&[("schema.yml", &edited)])).is_none());
    assert!(cache.load(&of(&[("schemb.yml", SCHEMA)])).is_none());
    assert!(cache
        .load(&of(&[("schema.yml", SCHEMA), ("b.yml", SCHEMA)]))
        .is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damaged_entries_are_ignored_and_written_again() {
    let dir = scratch("damaged");
    let cache = LoweredCache::new(dir.join("lowered"), DEFAULT_BUDGET);
    let ty = lowered(SCHEMA);
    cache.save(&files(), &ty, 1, &StoredRules::default(), &[]);
    let path = cache.path(&key(&files()));
    let good = std::fs::read(&path).unwrap();
    let mut damaged: Vec<Vec<u8>> = (0..good.len()).map(|n| good[..n].to_vec()).collect();
    for at in 0..good.len() {
        let mut flipped = good.clone();
        flipped[at] ^= 0x10;
        damaged.push(flipped);
    }
    damaged.push([good.as_slice(), b"x"].concat());
    damaged.push(b"not an entry at all".to_vec());
    for bytes in damaged {
        std::fs::write(&path, &bytes).unwrap();
        assert!(cache.load(&files()).is_none(), "{bytes:?} was read");
        cache.save(&files(), &ty, 1, &StoredRules::default(), &[]);
        assert_eq!(std::fs::read(&path).unwrap(), good);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What is put at an entry's path and is not a regular file within the budget is no entry,
/// read without blocking or filling memory: a FIFO blocked the run, a link to `/dev/zero` read
/// until memory ran out.
#[cfg(unix)]
#[test]
fn what_is_not_a_kept_file_is_not_read() {
    let dir = scratch("not-a-file");
    let cache = LoweredCache::new(dir.join("lowered"), DEFAULT_BUDGET);
    let ty = lowered(SCHEMA);
    cache.save(&files(), &ty, 1, &StoredRules::default(), &[]);
    let path = cache.path(&key(&files()));
    let good = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let made = std::process::Command::new("mkfifo").arg(&path).status();
    if made.is_ok_and(|s| s.success()) {
        assert!(cache.load(&files()).is_none());
        std::fs::remove_file(&path).unwrap();
    }
    std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
    assert!(cache.load(&files()).is_none());
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    assert!(cache.load(&files()).is_none());
    std::fs::remove_dir(&path).unwrap();
    // An entry larger than a cache's budget is not read by that cache.
    std::fs::write(&path, &good).unwrap();
    let smaller = LoweredCache::new(dir.join("lowered"), good.len() as u64 - 1);
    assert!(smaller.load(&files()).is_none());
    assert!(cache.load(&files()).is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A large file at an entry's path under a budget raised past its size is not read whole
/// (a sparse 50 GB file aborted the run allocating its size): its header and key are read
/// first, and a file of other bytes, or of a length the header does not give, is no entry.
#[test]
fn a_large_file_of_other_bytes_is_not_read() {
    let dir = scratch("large");
    let cache = LoweredCache::new(dir.join("lowered"), u64::MAX);
    cache.save(&files(), &lowered(SCHEMA), 1, &StoredRules::default(), &[]);
    let path = cache.path(&key(&files()));
    let good = std::fs::read(&path).unwrap();
    let sparse = 1u64 << 34;
    let file = std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(&path)
        .unwrap();
    if let Err(e) = file.set_len(sparse) {
        eprintln!("skipped: this file system makes no sparse file of 16 GiB ({e})");
        return std::fs::remove_dir_all(&dir).unwrap();
    }
    assert!(cache.load(&files()).is_none());
    // The entry's own header and key, then 16 GiB the header does not give.
    std::fs::write(&path, &good).unwrap();
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(sparse).unwrap();
    assert!(cache.load(&files()).is_none());
    std::fs::write(&path, &good).unwrap();
    assert!(cache.load(&files()).is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_entry_for_another_key_is_not_read() {
    let dir = scratch("foreign");
    let cache = LoweredCache::new(dir.join("lowered"), DEFAULT_BUDGET);
    let other = of(&[("other.yml", SCHEMA)]);
    cache.save(&other, &lowered(SCHEMA), 1, &StoredRules::default(), &[]);
    std::fs::copy(cache.path(&key(&other)), cache.path(&key(&files()))).unwrap();
    assert!(cache.load(&files()).is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn writers_at_once_leave_a_whole_entry() {
    let dir = scratch("racing");
    let cache = LoweredCache::new(dir.join("lowered"), DEFAULT_BUDGET);
    let ty = lowered(SCHEMA);
    std::thread::scope(|s| {
        for _ in 0..8 {
            s.spawn(|| {
                for _ in 0..20 {
                    cache.save(&files(), &ty, 1, &StoredRules::default(), &[]);
                    if let Some(kept) = cache.load(&files()) {
                        assert_eq!(kept.schema, ty);
                    }
                }
            });
        }
    });
    assert_eq!(cache.load(&files()).unwrap().schema, ty);
    let left: Vec<_> = entries(&dir.join("lowered"));
    assert_eq!(left.len(), 1, "temporary files left: {left:?}");
    assert_eq!(cache.read_total(), Some(left[0].1), "the kept total");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The entries' files in `folder` and their sizes, but for [`TOTAL`].
fn entries(folder: &Path) -> Vec<(PathBuf, u64)> {
    let mut found: Vec<_> = std::fs::read_dir(folder)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name() != TOTAL)
        .map(|e| (e.path(), e.metadata().unwrap().len()))
        .collect();
    found.sort();
    found
}

/// Saves the entry of `name` and dates it `age` seconds back (modification times order the
/// entries).
fn save_aged(cache: &LoweredCache, name: &str, ty: &Type, age: u64) {
    cache.save(&of(&[(name, SCHEMA)]), ty, 1, &StoredRules::default(), &[]);
    let path = cache.path(&key(&of(&[(name, SCHEMA)])));
    let when = std::time::SystemTime::now() - std::time::Duration::from_secs(age);
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(when)
        .unwrap();
}

#[test]
fn the_oldest_entries_go_past_the_budget() {
    let dir = scratch("budget");
    let ty = lowered(SCHEMA);
    let names: Vec<String> = (0..10).map(|n| format!("{n}.yml")).collect();
    let size = entry(
        &key(&of(&[(&names[0], SCHEMA)])),
        &ty,
        1,
        &StoredRules::default(),
        &[],
    )
    .unwrap()
    .len() as u64;
    let cache = LoweredCache::new(dir.join("lowered"), size * 8);
    let kept = |name: &String| cache.load(&of(&[(name, SCHEMA)])).is_some();
    for (n, name) in names.iter().enumerate().take(8) {
        save_aged(&cache, name, &ty, 100 - n as u64);
    }
    assert!(names[..8].iter().all(kept), "eight fit");
    // The ninth passes the budget: the oldest go until an eighth of it is free beside it.
    save_aged(&cache, &names[8], &ty, 50);
    assert!(!kept(&names[0]) && !kept(&names[1]));
    assert!(names[2..9].iter().all(kept));
    // The tenth fits in that eighth: nothing goes.
    save_aged(&cache, &names[9], &ty, 40);
    assert!(names[2..10].iter().all(kept));
    let left = entries(&dir.join("lowered"));
    assert_eq!(left.len(), 8);
    let total: u64 = left.iter().map(|(_, len)| len).sum();
    assert_eq!(cache.read_total(), Some(total), "the kept total");
    // An entry larger than the whole budget is not kept.
    let small = LoweredCache::new(dir.join("small"), size - 1);
    small.save(&files(), &ty, 1, &StoredRules::default(), &[]);
    assert!(small.load(&files()).is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A total that is not what the folder holds (entries removed by hand, a damaged or foreign
/// file in its place) is found out when it would pass the budget: the folder is listed then,
/// and the total written again.
#[test]
fn a_wrong_total_is_mended_by_a_listing() {
    let dir = scratch("total");
    let ty = lowered(SCHEMA);
    let size = entry(
        &key(&of(&[("a.yml", SCHEMA)])),
        &ty,
        1,
        &StoredRules::default(),
        &[],
    )
    .unwrap()
    .len() as u64;
    let cache = LoweredCache::new(dir.join("lowered"), size * 8);
    save_aged(&cache, "a.yml", &ty, 10);
    let total_path = dir.join("lowered").join(TOTAL);
    for wrong in ["99999999999", "not a number", ""] {
        std::fs::write(&total_path, wrong).unwrap();
        save_aged(&cache, "b.yml", &ty, 5);
        assert!(
            cache.load(&of(&[("a.yml", SCHEMA)])).is_some(),
            "nothing to remove"
        );
        assert_eq!(cache.read_total(), Some(2 * size), "after {wrong:?}");
    }
    std::fs::remove_file(&total_path).unwrap();
    std::fs::create_dir(&total_path).unwrap();
    save_aged(&cache, "c.yml", &ty, 1);
    assert!(cache.load(&of(&[("c.yml", SCHEMA)])).is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_directory_that_cannot_be_made_is_no_error() {
    let dir = scratch("unwritable");
    let blocked = dir.join("file");
    std::fs::write(&blocked, "").unwrap();
    let cache = LoweredCache::new(blocked.join("lowered"), DEFAULT_BUDGET);
    cache.save(&files(), &lowered(SCHEMA), 1, &StoredRules::default(), &[]);
    assert!(cache.load(&files()).is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A map key is written once (the table of keys) and read back as one key that every field
/// and default entry holding it shares; a key that is no string is written in place.
#[test]
fn repeated_keys_are_read_back_as_one_shared_key() {
    let ty = lowered(
        "#@data/values-schema\n---\na:\n  port: 1\n  1: one\nb:\n  port: 2\n  #@schema/default {\"port\": 3, \"name\": \"n\"}\n  more:\n    port: 0\n    name: \"\"\n",
    );
    let bytes = encoding::encode(&ty, None).expect("kept");
    assert_eq!(
        bytes.windows(4).filter(|w| w == b"port").count(),
        1,
        "written once"
    );
    let (read, _) = encoding::decode(&bytes).expect("read back");
    assert_eq!(read, ty);
    let fields = |ty: &Type| match &ty.kind {
        schemac_runtime::schema::Kind::Map(fields) => fields.clone(),
        other => panic!("not a map: {other:?}"),
    };
    let (top, a) = (fields(&read), fields(&fields(&read)[0].ty));
    let (b, more) = (fields(&top[1].ty), fields(&fields(&top[1].ty)[1].ty));
    assert_eq!(a[1].key.as_int(), Some(1));
    let port = &*a[0].key;
    assert!(std::ptr::eq(port, &*b[0].key) && std::ptr::eq(port, &*more[0].key));
    use schemac_runtime::value::Value;
    let Value::Map(default) = &top[1].ty.default.value else {
        panic!("a map default");
    };
    let Value::Map(more_default) = &default[1].value.value else {
        panic!("a map default");
    };
    assert!(std::ptr::eq(port, &*more_default[0].key));
}

/// A schema with rule code: every translatable construct of the rule IR (a `def` called with
/// locals and `if`, a `when=` lambda with `ctx.parent`, string methods, a format string,
/// `fail()`), and its lowered schema and translations.
pub(super) fn with_rules() -> (Type, schemac_runtime::lowered::ir::Program) {
    const RULES: &str = concat!(
        "#@ def named(v):\n",
        "#@   n = len(v)\n",
        "#@   if n > 3 and v.lower().startswith(\"x\"):\n",
        "#@     return \"{} is {}\".format(v, n)\n",
        "#@   elif -n < -10 or v in [\"a\", \"b\"]:\n",
        "#@     fail(\"too long: \" + str(n))\n",
        "#@   end\n",
        "#@   return n != 0.5 and not v.endswith(\"!\")\n",
        "#@ end\n",
        "#@data/values-schema\n---\n",
        "#@schema/validation (\"named\", named)\n",
        "name: x\n",
        "#@schema/validation (\"even\", lambda p: p == 0 or p - 1 >= 10), ",
        "when=lambda _, ctx: ctx.parent[\"name\"].strip().upper() != \"X\"\n",
        "port: 80\n",
    );
    let dir = scratch("rules");
    let path = dir.join("schema.yml");
    std::fs::write(&path, RULES).unwrap();
    let compiled =
        crate::standalone::compile(&[path.to_string_lossy().to_string()], &Default::default())
            .unwrap_or_else(|e| panic!("{e}"));
    let lowering = crate::rules::lower(&compiled.schema, &compiled.sources);
    assert!(lowering.complete(), "{}", lowering.explain());
    std::fs::remove_dir_all(&dir).unwrap();
    (compiled.schema, lowering.program)
}

#[test]
fn a_schema_with_rules_is_kept_with_their_translations() {
    let (ty, program) = with_rules();
    assert_eq!(program.entries.len(), 3, "{program:?}");
    let dir = scratch("kept-rules");
    let cache = LoweredCache::new(dir.join("lowered"), DEFAULT_BUDGET);
    let rules = StoredRules {
        functions: 3,
        program: Some(std::sync::Arc::new(program)),
    };
    cache.save(&files(), &ty, 1, &rules, &[]);
    let kept = cache.load(&files()).expect("kept");
    assert_eq!(
        (kept.schema, kept.templates, kept.rules),
        (ty.clone(), 1, rules)
    );
    // Without the translations, the schema's functions cannot be kept.
    std::fs::remove_dir_all(&dir).unwrap();
    cache.save(&files(), &ty, 1, &StoredRules::default(), &[]);
    assert!(cache.load(&files()).is_none());
}

/// The `.star` files a schema loaded are kept with it (names and texts), and the names of the
/// run's `.star` files are part of the key; every truncation of such an entry is refused.
#[test]
fn the_star_files_loaded_are_kept_with_the_schema() {
    let dir = scratch("loaded");
    let cache = LoweredCache::new(dir.join("lowered"), DEFAULT_BUDGET);
    let ty = lowered(SCHEMA);
    let key_of = |star_files: Vec<&'static str>| StoreKey {
        files: vec![("schema.yml", SCHEMA)],
        star_files,
    };
    let loaded = [("a.star", "def f(v):\n  return v\nend\n"), ("b/c.star", "")];
    cache.save(
        &key_of(vec!["a.star", "b/c.star", "d.star"]),
        &ty,
        2,
        &StoredRules::default(),
        &loaded,
    );
    let kept = cache
        .load(&key_of(vec!["a.star", "b/c.star", "d.star"]))
        .expect("kept");
    let named = |l: &[(&str, &str)]| -> Vec<(String, String)> {
        l.iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect()
    };
    assert_eq!((kept.schema, kept.loaded), (ty, named(&loaded)));
    for other in [
        vec!["a.star", "b/c.star"],
        vec![],
        vec!["d.star", "a.star", "b/c.star"],
    ] {
        assert!(cache.load(&key_of(other.clone())).is_none(), "{other:?}");
    }
    let key = key(&key_of(vec!["a.star", "b/c.star", "d.star"]));
    let good = std::fs::read(cache.path(&key)).unwrap();
    // Each shorter body under a header that matches it (its length and checksum).
    for n in key.len()..good.len() - HEADER {
        let body = &good[HEADER..HEADER + n];
        let mut entry = MAGIC.to_vec();
        entry.extend_from_slice(&(n as u64).to_le_bytes());
        entry.extend_from_slice(&hash64(body, 0).to_le_bytes());
        entry.extend_from_slice(body);
        assert!(read_entry(&entry, &key).is_none(), "{n} bytes");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

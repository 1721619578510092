//! Unit tests of `config.rs`.

use super::*;

fn context(table: Value) -> Context {
    Context {
        root: PathBuf::from("/nonexistent-book-root"),
        config: serde_json::json!({"preprocessor": {"community": table}}),
        renderer: "html".into(),
        mdbook_version: "0.5.4".into(),
    }
}

#[test]
fn defaults() {
    let s =
        Settings::from_context(&context(serde_json::json!({})), Generation::V05).expect("valid");
    assert_eq!(s.on_error, OnError::Fail);
    assert_eq!(s.check_anchors, Level::Warn);
    assert_eq!(s.chapter_display_path("a/b.md"), "src/a/b.md");
    assert!(s.html);
    // Who owns what: decided by what the repository has; `unowned` off.
    assert_eq!(s.ownership, None);
    assert_eq!(s.unowned, Level::Off);
}

#[test]
fn reads_ownership_and_unowned() {
    let table = serde_json::json!({"ownership": "owners", "unowned": "error"});
    let s = Settings::from_context(&context(table), Generation::V05).expect("valid");
    assert_eq!(s.ownership, Some(OwnershipSource::Owners));
    assert_eq!(s.unowned, Level::Error);
    let table = serde_json::json!({"ownership": "codeowners", "unowned": "warn"});
    let s = Settings::from_context(&context(table), Generation::V05).expect("valid");
    assert_eq!(s.ownership, Some(OwnershipSource::CodeOwners));
    assert_eq!(s.unowned, Level::Warn);
}

/// A book root holding `files` (empty).
fn root_with(files: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary folder");
    for file in files {
        let path = dir.path().join(file);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("folders");
        std::fs::write(path, "").expect("written");
    }
    dir
}

#[test]
fn reads_our_keys_and_ignores_mdbooks() {
    let root = root_with(&["data/people.toml"]);
    let s = Settings::from_context(
        &Context {
            root: root.path().to_path_buf(),
            ..context(serde_json::json!({
                "on-error": "warn", "after": ["links"], "command": "x",
                "people": "data/people.toml", "check-anchors": "error",
                "contributing-url": "https://github.com/o/r/blob/main/CONTRIBUTING.md/"
            }))
        },
        Generation::V04,
    )
    .expect("valid");
    assert_eq!(s.on_error, OnError::Warn);
    assert_eq!(s.check_anchors, Level::Error);
    assert_eq!(
        s.people,
        [PeopleSource {
            path: PathBuf::from("data/people.toml"),
            format: PeopleFormat::Community,
            prefix: None,
            section: None,
        }]
    );
    assert_eq!(
        s.contributing_url.as_deref(),
        Some("https://github.com/o/r/blob/main/CONTRIBUTING.md")
    );
}

#[test]
fn unknown_keys_and_bad_values_are_errors_with_suggestions() {
    let errors = Settings::from_context(
        &context(serde_json::json!({"on-eror": "warn", "check-anchors": "eror"})),
        Generation::V05,
    )
    .expect_err("invalid");
    assert_eq!(errors.len(), 2);
    assert!(errors[0].message.contains("unknown key `on-eror`"));
    assert_eq!(errors[0].help, ["did you mean `on-error`?"]);
    assert!(
        errors[1]
            .message
            .contains(r#"must be one of "warn", "error", "off""#)
    );
    assert_eq!(errors[1].help, [r#"did you mean `"error"`?"#]);
}

#[test]
fn configured_data_files_must_exist_with_a_suggestion() {
    let root = root_with(&["docs/CONTRIBUTING.md", "people.toml"]);
    let errors = Settings::from_context(
        &Context {
            root: root.path().to_path_buf(),
            ..context(serde_json::json!({
                "contributing": "docs/CONTRIBUTNG.md",
                "people": "peple.toml",
                "codeowners": "nowhere/CODEOWNERS",
            }))
        },
        Generation::V05,
    )
    .expect_err("missing files");
    assert_eq!(errors.len(), 3);
    assert!(
        errors[0].message.starts_with(
            "[preprocessor.community] contributing `docs/CONTRIBUTNG.md` does not exist"
        ),
        "{}",
        errors[0].message
    );
    assert_eq!(errors[0].help, ["did you mean `docs/CONTRIBUTING.md`?"]);
    assert_eq!(errors[1].help, ["did you mean `people.toml`?"]);
    assert!(errors[2].help.is_empty());
    let folder = Settings::from_context(
        &Context {
            root: root.path().to_path_buf(),
            ..context(serde_json::json!({"contributing": "docs"}))
        },
        Generation::V05,
    )
    .expect_err("a folder");
    assert_eq!(
        folder[0].message,
        "[preprocessor.community] contributing `docs` is a folder; name the file in it"
    );
}

#[test]
fn locates_keys_in_book_toml() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = "[book]\ntitle = \"x\"\n\n[preprocessor.community]\non-eror = \"warn\"\n";
    std::fs::write(dir.path().join("book.toml"), text).expect("write");
    let book_toml = BookToml::read(dir.path()).expect("readable");
    let range = book_toml.plugin_key("on-eror", false).expect("found");
    assert_eq!(&text[range], "on-eror");
    let range = book_toml.plugin_key("on-eror", true).expect("found");
    assert_eq!(&text[range], "\"warn\"");
}

#[test]
fn check_activity_takes_a_window_or_off() {
    let read = |value: Value| {
        let table = serde_json::json!({"check-activity": value, "activity-max-commits": 500});
        Settings::from_context(&context(table), Generation::V05)
    };
    let settings = read(serde_json::json!("off")).expect("valid");
    assert_eq!(settings.check_activity, None);
    assert_eq!(settings.activity_max_commits, Some(500));
    let settings = read(serde_json::json!("2 weeks")).expect("valid");
    assert_eq!(
        settings.check_activity.map(|w| w.to_string()).as_deref(),
        Some("2 weeks")
    );
    let settings =
        read(serde_json::json!({"after": "12 months", "groups": ["maintainers", "approvers"]}))
            .expect("valid");
    assert_eq!(
        settings.check_activity.map(|w| w.to_string()).as_deref(),
        Some("12 months")
    );
    assert_eq!(
        settings.activity_groups,
        Some(vec!["maintainers".to_string(), "approvers".to_string()])
    );
    for (bad, says) in [
        (serde_json::json!({"groups": ["a"]}), "needs `after`"),
        (
            serde_json::json!({"after": "1 month", "group": ["a"]}),
            "unknown key `group`",
        ),
        (
            serde_json::json!({"after": "1 month", "groups": "a"}),
            "must be a list of group ids",
        ),
        (
            serde_json::json!({"after": "1 month", "groups": []}),
            "must be a list of group ids",
        ),
        (serde_json::json!({"after": 3}), "must be a string"),
    ] {
        let problems = read(bad.clone()).expect_err("invalid");
        assert!(problems[0].message.contains(says), "{bad}: {problems:?}");
    }
    let problems = read(serde_json::json!("2 fortnights")).expect_err("invalid");
    assert!(
        problems[0].message.contains("unknown unit `fortnights`"),
        "{problems:?}"
    );
}

/// Every key of the one list is documented in the guide's configuration
/// chapter, and read (a key of the list is never unknown).
#[test]
fn every_key_is_documented_and_known() {
    let guide = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("book/configuration.md"),
    )
    .expect("book/configuration.md");
    for (key, _) in KEYS {
        assert!(
            guide.contains(&format!("`{key}`")),
            "{key} is not in the guide"
        );
        let mut settings = Settings::read(&context(serde_json::json!({})), Generation::V05).0;
        let result = settings.apply(key, &Value::Bool(true));
        assert!(
            !matches!(result, Err(Problem::Key { .. })),
            "{key} is read as unknown"
        );
    }
}

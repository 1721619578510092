//! The bad-input suite: every way input can be wrong, each asserting the
//! exit code, the message, the reported file, line and column, and that a
//! failed run writes no partial book. Every directive case runs a second
//! time with `on-error = "warn"`: the book is written, the problem shows as
//! a note in its page and a warning on stderr, and nothing else in the
//! chapter changes. CODEOWNERS lines GitHub would reject are warnings: the
//! build goes on, without the line.

mod common;

use common::{RunResult, Shape, book_root, request, run, run_bytes};
use serde_json::{Value, json};

const PEOPLE: &str = "[people.soumith]\nname = \"Soumith Chintala\"\n\n[people.ezyang]\nname = \"Edward Yang\"\n\n[[groups]]\nid = \"core\"\ntitle = \"Core\"\nmembers = [\"soumith\", { handle = \"ezyang\", status = \"emeritus\" }]\n";
const CODEOWNERS: &str = "* @soumith\n/docs/ @soumith\n";
const CONTRIBUTING: &str = "# Contributing\n\n## Reporting Issues\n\n## Common Mistakes\n";
const GUIDE: &str = "# Guide\n\n## Setting Up\n";

/// One bad input and what must happen.
struct Case {
    name: &'static str,
    /// Files in the book root.
    files: Vec<(&'static str, Vec<u8>)>,
    /// `[preprocessor.community]`.
    settings: Value,
    /// The chapter under test (`src/chapter.md`); a second chapter
    /// `src/guide.md` is always present.
    chapter: &'static str,
    /// Expected exit code.
    code: i32,
    /// Expected in stderr.
    message: &'static str,
    /// Expected `file:line:col` in stderr.
    location: Option<&'static str>,
}

fn files(extra: &[(&'static str, &str)]) -> Vec<(&'static str, Vec<u8>)> {
    let mut all: Vec<(&'static str, Vec<u8>)> = vec![
        ("maintainers.toml", PEOPLE.as_bytes().to_vec()),
        ("CODEOWNERS", CODEOWNERS.as_bytes().to_vec()),
        ("CONTRIBUTING.md", CONTRIBUTING.as_bytes().to_vec()),
    ];
    for (path, content) in extra {
        all.retain(|(p, _)| p != path);
        all.push((path, content.as_bytes().to_vec()));
    }
    all
}

fn url() -> Value {
    json!({"contributing-url": "https://github.com/o/r/blob/main/CONTRIBUTING.md"})
}

fn case(
    name: &'static str,
    chapter: &'static str,
    message: &'static str,
    location: &'static str,
) -> Case {
    Case {
        name,
        files: files(&[]),
        settings: url(),
        chapter,
        code: 1,
        message,
        location: Some(location),
    }
}

fn data_case(
    name: &'static str,
    data: &'static str,
    message: &'static str,
    location: &'static str,
) -> Case {
    Case {
        name,
        files: files(&[("maintainers.toml", data)]),
        chapter: "{{#maintainers core}}\n",
        message,
        location: Some(location),
        ..case(name, "", "", "")
    }
}

fn directive_cases() -> Vec<Case> {
    vec![
        // repository-file
        case(
            "repository file outside the repository",
            "{{#repository-file ../../../../../../../../../../etc/hostname}}\n",
            "leaves the repository",
            "src/chapter.md:1:20",
        ),
        case(
            "repository file missing",
            "{{#repository-file ../NOPE.md}}\n",
            "cannot read the repository file `../NOPE.md`",
            "src/chapter.md:1:20",
        ),
        case(
            "repository file without a path",
            "{{#repository-file}}\n",
            "`{{#repository-file PATH}}` takes one path, relative to this chapter's file",
            "src/chapter.md:1:4",
        ),
        case(
            "repository file in running text",
            "See {{#repository-file ../CONTRIB.md}} here.\n",
            "`{{#repository-file}}` shows a whole file, and it stands in running text",
            "src/chapter.md:1:8",
        ),
        // maintainers
        case(
            "unknown group",
            "{{#maintainers cor}}\n",
            "no group `cor`",
            "src/chapter.md:1:16",
        ),
        case(
            "unknown style",
            "{{#maintainers core style=tabel}}\n",
            "unknown style `tabel`",
            "src/chapter.md:1:27",
        ),
        case(
            "unknown option",
            "{{#maintainers core sytle=table}}\n",
            "unknown option `sytle`",
            "src/chapter.md:1:21",
        ),
        case(
            "unknown status",
            "{{#maintainers core hide=emeritas}}\n",
            "no member has the status `emeritas`",
            "src/chapter.md:1:26",
        ),
        case(
            "empty filter",
            "{{#maintainers core only=}}\n",
            "`only` needs at least one status",
            "src/chapter.md:1:26",
        ),
        case(
            "extra group",
            "{{#maintainers core other}}\n",
            "unexpected argument",
            "src/chapter.md:1:21",
        ),
        case(
            "quoted group",
            "{{#maintainers \"core\"}}\n",
            "unexpected argument",
            "src/chapter.md:1:16",
        ),
        case(
            "block in prose",
            "See {{#maintainers core}} here.\n",
            "must be a paragraph of its own",
            "src/chapter.md:1:8",
        ),
        case(
            "hierarchy in prose",
            "All: {{#maintainers}}.\n",
            "must be a paragraph of its own",
            "src/chapter.md:1:9",
        ),
        case(
            "unterminated quote",
            "{{#maintainers core style=\"table}}\n",
            "unterminated quoted text",
            "src/chapter.md:1:27",
        ),
        // person
        case(
            "person without handle",
            "Ask {{#person}}.\n",
            "needs a handle",
            "src/chapter.md:1:8",
        ),
        case(
            "unknown person",
            "Ask {{#person ezyng}}.\n",
            "no person `ezyng`",
            "src/chapter.md:1:15",
        ),
        case(
            "person extra args",
            "Ask {{#person ezyang soumith}}.\n",
            "takes one handle",
            "src/chapter.md:1:22",
        ),
        case(
            "person option",
            "Ask {{#person name=ezyang}}.\n",
            "expected a handle",
            "src/chapter.md:1:15",
        ),
        case(
            "person mistyped quote",
            "Ask {{#person ez\"yang}}.\n",
            "a quote may only start an argument",
            "src/chapter.md:1:17",
        ),
        // codeowners
        case(
            "codeowners two paths",
            "{{#codeowners a b}}\n",
            "takes one path",
            "src/chapter.md:1:17",
        ),
        case(
            "codeowners option",
            "{{#codeowners style=table}}\n",
            "`{{#codeowners}}` has no option `style`",
            "src/chapter.md:1:15",
        ),
        case(
            "codeowners empty path",
            "{{#codeowners \"\"}}\n",
            "`{{#codeowners PATH}}` needs a non-empty path",
            "src/chapter.md:1:4",
        ),
        case(
            "codeowners unterminated quote",
            "{{#codeowners \"src/a.rs}}\n",
            "unterminated quoted text",
            "src/chapter.md:1:15",
        ),
        case(
            "codeowners mistyped path option",
            "{{#codeowners path=src/a.rs}}\n",
            "`{{#codeowners}}` has no option `path`",
            "src/chapter.md:1:15",
        ),
        case(
            "codeowners table in prose",
            "Owners: {{#codeowners}}.\n",
            "must be a paragraph of its own",
            "src/chapter.md:1:12",
        ),
        case(
            "coverage depth zero",
            "{{#codeowners coverage depth=0}}\n",
            "`depth` must be a whole number from 1 to 10, found `0`",
            "src/chapter.md:1:30",
        ),
        case(
            "coverage with a path",
            "{{#codeowners coverage src/}}\n",
            "`{{#codeowners coverage}}` takes no path",
            "src/chapter.md:1:24",
        ),
        case(
            "coverage mistyped option",
            "{{#codeowners coverage deep=1}}\n",
            "unknown option `deep`",
            "src/chapter.md:1:24",
        ),
        case(
            "coverage in prose",
            "Coverage: {{#codeowners coverage}}.\n",
            "must be a paragraph of its own",
            "src/chapter.md:1:14",
        ),
        // faq
        case(
            "faq without questions",
            "```faq\nJust text.\n```\n",
            "text before the first question",
            "src/chapter.md:2:1",
        ),
        case(
            "faq empty",
            "```faq\n```\n",
            "has no question",
            "src/chapter.md:1:1",
        ),
        case(
            "faq empty heading",
            "```faq\n##\nA\n```\n",
            "question heading is empty",
            "src/chapter.md:2:1",
        ),
        case(
            "faq unknown option",
            "```faq opne\n## Q\n```\n",
            "unknown FAQ option `opne`",
            "src/chapter.md:1:8",
        ),
        case(
            "faq bad id-prefix",
            "```faq id-prefix=\"a b\"\n## Q\n```\n",
            "`id-prefix` must be",
            "src/chapter.md:1:18",
        ),
        case(
            "faq nested",
            "````faq\n## Q\n```faq\n## R\n```\n````\n",
            "cannot be nested",
            "src/chapter.md:3:1",
        ),
        case(
            "faq bad directive inside",
            "```faq\n## Q\nAsk {{#person nobody}}.\n```\n",
            "no person `nobody`",
            "src/chapter.md:3:15",
        ),
        // contributing
        case(
            "contributing unknown anchor",
            "{{#contributing #reportng-issues}}\n",
            "no heading `#reportng-issues`",
            "src/chapter.md:1:17",
        ),
        case(
            "contributing anchor like no heading",
            "{{#contributing #zebra}}\n",
            "no heading `#zebra` in CONTRIBUTING.md",
            "src/chapter.md:1:17",
        ),
        case(
            "contributing unknown heading",
            "{{#contributing Comon Mistakes}}\n",
            "no heading \"Comon Mistakes\"",
            "src/chapter.md:1:17",
        ),
        case(
            "contributing empty text",
            "{{#contributing #common-mistakes \"\"}}\n",
            "quoted link text is empty",
            "src/chapter.md:1:34",
        ),
        case(
            "contributing text not last",
            "{{#contributing \"text\" #common-mistakes}}\n",
            "must come last",
            "src/chapter.md:1:17",
        ),
        case(
            "contributing extra argument",
            "{{#contributing #common-mistakes extra}}\n",
            "expected `#anchor` or a heading's text",
            "src/chapter.md:1:17",
        ),
        Case {
            settings: json!({}),
            ..case(
                "contributing without url",
                "{{#contributing}}\n",
                "`contributing-url` is not set",
                "src/chapter.md:1:4",
            )
        },
        Case {
            files: files(&[])
                .into_iter()
                .filter(|(p, _)| *p != "CONTRIBUTING.md")
                .collect(),
            ..case(
                "contributing missing file",
                "{{#contributing}}\n",
                "no CONTRIBUTING file: looked for",
                "src/chapter.md:1:4",
            )
        },
        // ref
        case(
            "ref without target",
            "{{#ref}}\n",
            "needs a target",
            "src/chapter.md:1:4",
        ),
        case(
            "ref unknown chapter",
            "{{#ref gude.md}}\n",
            "no chapter `gude.md`",
            "src/chapter.md:1:8",
        ),
        case(
            "ref unknown anchor",
            "{{#ref guide.md#seting-up}}\n",
            "no heading `#seting-up` in `guide.md`",
            "src/chapter.md:1:16",
        ),
        case(
            "ref empty anchor",
            "{{#ref guide.md#}}\n",
            "empty anchor",
            "src/chapter.md:1:16",
        ),
        case(
            "ref with spaces",
            "{{#ref guide.md Setting Up}}\n",
            "has no spaces",
            "src/chapter.md:1:8",
        ),
        case(
            "ref outside the book",
            "{{#ref ../../x.md}}\n",
            "no chapter `../../x.md`",
            "src/chapter.md:1:8",
        ),
        // data files, reported at their own line and column
        data_case(
            "toml syntax",
            "[people.a\nname = 1\n",
            "maintainers.toml is not valid TOML",
            "maintainers.toml:1:10",
        ),
        data_case(
            "unknown data key",
            "[people.a]\nnmae = \"A\"\n",
            "unknown key `nmae` in person `a`",
            "maintainers.toml:2:1",
        ),
        data_case(
            "unknown top-level key",
            "[peple.a]\nname = \"A\"\n",
            "unknown key `peple` at the top level",
            "maintainers.toml:1:2",
        ),
        data_case(
            "unknown member key",
            "[people.a]\n[[groups]]\nid = \"core\"\nmembers = [{ handle = \"a\", stauts = \"emeritus\" }]\n",
            "unknown key `stauts`",
            "maintainers.toml:4:28",
        ),
        data_case(
            "two people with one GitHub login",
            "[people.ezyang]\n[people.edward]\ngithub = \"EZYang\"\n",
            "`ezyang` and `edward` have the same GitHub login `EZYang`",
            "maintainers.toml:2:9",
        ),
        data_case(
            "unknown group key",
            "[[groups]]\nid = \"core\"\nmemebers = []\n",
            "unknown key `memebers` in group `core`",
            "maintainers.toml:3:1",
        ),
        data_case(
            "wrong type",
            "[people.a]\nname = [1]\n",
            "`name` of `a` must be a string, found an array",
            "maintainers.toml:2:8",
        ),
        data_case(
            "unknown member",
            "[[groups]]\nid = \"core\"\nmembers = [\"ghost\"]\n",
            "lists `ghost`, who is not in `people`",
            "maintainers.toml:3:12",
        ),
        data_case(
            "duplicate member",
            "[people.a]\n[[groups]]\nid = \"core\"\nmembers = [\"a\", \"a\"]\n",
            "lists `a` twice",
            "maintainers.toml:4:17",
        ),
        data_case(
            "parent cycle",
            "[[groups]]\nid = \"core\"\nparent = \"x\"\n[[groups]]\nid = \"x\"\nparent = \"core\"\n",
            "cycle",
            "maintainers.toml:3:10",
        ),
        data_case(
            "missing parent",
            "[[groups]]\nid = \"core\"\nparent = \"nope\"\n",
            "parent group `nope` does not exist",
            "maintainers.toml:3:10",
        ),
        data_case(
            "duplicate group",
            "[[groups]]\nid = \"core\"\n[[groups]]\nid = \"core\"\n",
            "duplicate group id `core`",
            "maintainers.toml:4:6",
        ),
        data_case(
            "duplicate handle",
            "[people.a]\nname = \"A\"\n[people.a]\nname = \"B\"\n",
            "not valid TOML",
            "maintainers.toml:3:9",
        ),
        data_case(
            "script url",
            "[people.a]\nurl = \"javascript:alert(1)\"\n",
            "must be an http, https or mailto URL",
            "maintainers.toml:2:7",
        ),
        data_case(
            "data avatar scheme",
            "[people.a]\navatar = \"data:image/png;base64,AAAA\"\n",
            "must be an http, https or mailto URL",
            "maintainers.toml:2:10",
        ),
        data_case(
            "group without id",
            "[[groups]]\ntitle = \"x\"\n",
            "has no `id`",
            "maintainers.toml:1:1",
        ),
        data_case(
            "handle that is not a GitHub login, without github or url",
            "[people.\"john.doe\"]\nname = \"John Doe\"\n",
            "handle `john.doe` is not a GitHub login, and `github` defaults to the handle",
            "maintainers.toml:1:9",
        ),
        data_case(
            "handle with a space",
            "[people.\"soumith chintala\"]\n",
            "handle `soumith chintala` must not contain spaces, quotes, braces, `=` or `,`",
            "maintainers.toml:1:9",
        ),
        data_case(
            "handle with a quote",
            "[people.'soumith\"']\n",
            "handle `soumith\"` must not contain spaces, quotes, braces, `=` or `,`",
            "maintainers.toml:1:9",
        ),
        data_case(
            "handle with braces",
            "[people.\"{{soumith}}\"]\n",
            "handle `{{soumith}}` must not contain spaces, quotes, braces, `=` or `,`",
            "maintainers.toml:1:9",
        ),
        data_case(
            "group id with a space",
            "[[groups]]\nid = \"core team\"\n",
            "group id `core team` must not contain spaces, quotes, braces, `=` or `,`",
            "maintainers.toml:2:6",
        ),
        data_case(
            "github not a login",
            "[people.a]\ngithub = \"https://github.com/a\"\n",
            "`github` of `a` is not a GitHub login (letters, digits and `-`)",
            "maintainers.toml:2:10",
        ),
        data_case(
            "url with a space",
            "[people.a]\nurl = \"https://example.com/a b\"\n",
            "`url` of `a` must not contain spaces, quotes, `<` or `>`",
            "maintainers.toml:2:7",
        ),
        data_case(
            "url with a quote",
            "[people.a]\nurl = 'https://example.com/\"a\"'\n",
            "`url` of `a` must not contain spaces, quotes, `<` or `>`",
            "maintainers.toml:2:7",
        ),
        data_case(
            "url with angle brackets",
            "[people.a]\nurl = \"https://example.com/<a>\"\n",
            "`url` of `a` must not contain spaces, quotes, `<` or `>`",
            "maintainers.toml:2:7",
        ),
        data_case(
            "avatar with a space",
            "[people.a]\navatar = \"https://example.com/a b.png\"\n",
            "`avatar` of `a` must not contain spaces, quotes, `<` or `>`",
            "maintainers.toml:2:10",
        ),
        Case {
            files: files(&[("people.json", "{\"people\": {\"a\": {}, \"a\": {}}}")]),
            settings: json!({"people": "people.json"}),
            ..data_case(
                "json duplicate handle",
                "",
                "duplicate key `a`",
                "people.json:1:22",
            )
        },
        Case {
            files: files(&[("people.json", "{\"people\": {\"a\": {\"name\": \"A\",}}}")]),
            settings: json!({"people": "people.json"}),
            ..data_case(
                "json syntax",
                "",
                "people.json is not valid JSON",
                "people.json:1:31",
            )
        },
        Case {
            files: {
                let mut f = files(&[]);
                f.retain(|(p, _)| *p != "maintainers.toml");
                f.push((
                    "maintainers.toml",
                    b"[people.a]\nname = \"\xff\xfe\"\n".to_vec(),
                ));
                f
            },
            ..data_case(
                "non-utf8 data",
                "",
                "maintainers.toml is not valid UTF-8",
                "maintainers.toml:2:9",
            )
        },
        Case {
            files: files(&[])
                .into_iter()
                .filter(|(p, _)| *p != "maintainers.toml")
                .collect(),
            ..data_case(
                "missing data file",
                "",
                "no people data file: looked for",
                "src/chapter.md:1:4",
            )
        },
        Case {
            files: files(&[])
                .into_iter()
                .map(|(p, c)| match p {
                    "maintainers.toml" => ("maintainer.toml", c),
                    _ => (p, c),
                })
                .collect(),
            ..data_case(
                "missing data file beside a close name",
                "",
                "help: did you mean `maintainer.toml`? Set `people = \"maintainer.toml\"`",
                "src/chapter.md:1:4",
            )
        },
        Case {
            files: {
                let mut f = files(&[]);
                f.retain(|(p, _)| *p != "maintainers.toml");
                f.push(("maintainers.toml/people.toml", PEOPLE.as_bytes().to_vec()));
                f
            },
            // Reported in the file, once; the directive is a follow-on.
            location: None,
            ..data_case(
                "data file that cannot be read (a folder)",
                "",
                "cannot read maintainers.toml",
                "",
            )
        },
        Case {
            files: {
                let mut f = files(&[]);
                f.retain(|(p, _)| *p != "CONTRIBUTING.md");
                f.push((
                    "CONTRIBUTING.md/README.md",
                    CONTRIBUTING.as_bytes().to_vec(),
                ));
                f
            },
            ..case(
                "contributing that cannot be read (a folder)",
                "{{#contributing}}\n",
                "cannot read CONTRIBUTING.md",
                "src/chapter.md:1:4",
            )
        },
        Case {
            files: files(&[])
                .into_iter()
                .filter(|(p, _)| *p != "CODEOWNERS")
                .collect(),
            ..case(
                "missing codeowners",
                "{{#codeowners}}\n",
                "no CODEOWNERS file: looked for",
                "src/chapter.md:1:4",
            )
        },
        Case {
            files: {
                let mut f = files(&[]);
                f.retain(|(p, _)| *p != "CODEOWNERS");
                f.push(("CODEOWNERS", b"* @\xff\n".to_vec()));
                f
            },
            ..case(
                "codeowners not UTF-8",
                "{{#codeowners a}}\n",
                "CODEOWNERS is not valid UTF-8",
                "src/chapter.md:1:4",
            )
        },
    ]
    .into_iter()
    .chain(hardening_cases())
    .collect()
}

/// The cases of issue 17 ("Hardening"), each a problem that used to be
/// accepted, mislocated or silently mis-rendered.
fn hardening_cases() -> Vec<Case> {
    let deep_json = format!(
        "{{\"people\": {}{}}}\n",
        "[".repeat(8_000),
        "]".repeat(8_000)
    );
    let deep_toml = format!(
        "[people.a]\nname = \"A\"\n\n[[groups]]\nid = \"core\"\nx = {}{}\n",
        "[".repeat(100),
        "]".repeat(100)
    );
    let deep_key = format!(
        "[people.a]\nname = \"A\"\n\n[[groups]]\nid = \"core\"\nx.{}b = 1\n",
        "a.".repeat(100)
    );
    vec![
        // 8: nested JSON is an error at its place, not a stack overflow.
        Case {
            files: files(&[("maintainers.json", leak(deep_json))]),
            settings: json!({"people": "maintainers.json", "contributing-url": "https://github.com/o/r/blob/main/CONTRIBUTING.md"}),
            ..case(
                "json nested too deeply",
                "{{#maintainers core}}\n",
                "maintainers.json is nested too deeply",
                "maintainers.json:1:91",
            )
        },
        data_case(
            "toml nested too deeply",
            leak(deep_toml),
            "maintainers.toml is not valid TOML",
            "maintainers.toml:6:85",
        ),
        // 20: the TOML nesting limit of keys is reported on its line (it
        // comes without a place from the parser).
        data_case(
            "toml key nested too deeply",
            leak(deep_key),
            "maintainers.toml is not valid TOML",
            "maintainers.toml:6:",
        ),
        // 21: invisible characters and normalisation in handles.
        data_case(
            "handle with an invisible character",
            "[people.\"ezy\\u200dang\"]\nurl = \"https://example.com\"\n[[groups]]\nid = \"core\"\nmembers = []\n",
            "must not contain invisible characters",
            "maintainers.toml:1:9",
        ),
        data_case(
            "handles equal once normalised",
            "[people.\"cafe\\u0301\"]\nurl = \"https://example.com/1\"\n[people.\"caf\\u00e9\"]\nurl = \"https://example.com/2\"\n[[groups]]\nid = \"core\"\nmembers = []\n",
            "but for how its characters are encoded",
            "maintainers.toml:3:9",
        ),
        // 22: contradictory or repeated options.
        case(
            "style given twice",
            "{{#maintainers core style=table style=list}}\n",
            "`style` is given twice",
            "src/chapter.md:1:33",
        ),
        case(
            "hidden and only",
            "{{#maintainers core hide=emeritus only=emeritus}}\n",
            "`emeritus` is both hidden (`hide`) and the only status shown (`only`)",
            "src/chapter.md:1:40",
        ),
        // 18: an id prefix that cannot be an id.
        case(
            "faq id-prefix with a backslash",
            "```faq id-prefix=x\\\n## Q?\nA.\n```\n",
            "`id-prefix` must be a non-empty id fragment",
            "src/chapter.md:1:18",
        ),
        // 5: an answer that leaves a block open.
        case(
            "faq answer with an unclosed fence",
            "```faq\n## Q?\n\n~~~\ncode\n\n## Q2?\nA.\n```\n",
            "this FAQ answer leaves a block open",
            "src/chapter.md:4:1",
        ),
        case(
            "faq answer with an unclosed comment",
            "```faq\n## Q?\n\n<!-- draft\n\n## Q2?\nA.\n```\n",
            "this FAQ answer leaves a block open",
            "src/chapter.md:4:1",
        ),
        // 14: a link directive in the text of a link.
        case(
            "ref inside a link",
            "[see {{#ref guide.md}}](https://example.com)\n",
            "stands in the text of another link",
            "src/chapter.md:1:9",
        ),
    ]
}

/// A `'static` copy of `text`, for the cases' file contents.
fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// A CODEOWNERS file whose second line GitHub would reject; the first,
/// `* @soumith`, is valid.
fn codeowners_case(
    name: &'static str,
    bad_line: &str,
    message: &'static str,
    location: &'static str,
) -> Case {
    Case {
        files: files(&[("CODEOWNERS", &format!("* @soumith\n{bad_line}\n"))]),
        code: 0,
        ..case(name, "{{#codeowners}}\n", message, location)
    }
}

/// A roster read from `MAINTAINERS.md` holding `markdown`; the chapter
/// shows its group `maintainers`.
fn markdown_case(
    name: &'static str,
    markdown: &'static str,
    message: &'static str,
    location: &'static str,
) -> Case {
    let mut settings = url();
    settings["people"] = json!("MAINTAINERS.md");
    Case {
        files: files(&[("MAINTAINERS.md", markdown)]),
        settings,
        code: 0,
        ..case(name, "{{#maintainers maintainers}}\n", message, location)
    }
}

/// A book at the root of a repository (a `.git` beside `book.toml`)
/// whose files are the case's files and `extra`; ownership `settings`.
fn repository_case(
    name: &'static str,
    extra: &[(&'static str, &str)],
    settings: Value,
    message: &'static str,
    location: &'static str,
) -> Case {
    let mut all = vec![(".git/HEAD", "ref: refs/heads/main\n")];
    all.extend_from_slice(extra);
    let mut merged = url();
    for (key, value) in settings.as_object().into_iter().flatten() {
        merged[key] = value.clone();
    }
    Case {
        files: files(&all),
        settings: merged,
        code: 0,
        ..case(name, "{{#codeowners}}\n", message, location)
    }
}

/// The warnings of ownership held against the repository's files, and of
/// a Kubernetes OWNERS tree.
fn ownership_cases() -> Vec<Case> {
    let owners = json!({"ownership": "owners"});
    vec![
        repository_case(
            "rule matching nothing",
            &[],
            json!({}),
            "the pattern `/docs/` matches no file in the repository",
            "CODEOWNERS:2:1",
        ),
        repository_case(
            "unowned files",
            &[
                ("CODEOWNERS", "/src/ @soumith\n/src/gen/\n"),
                ("src/main.rs", ""),
                ("src/gen/a.rs", ""),
                ("src/gen/b.rs", ""),
                ("tools/run.sh", ""),
            ],
            json!({"unowned": "warn"}),
            "6 of the repository's 7 files have no active owner",
            "CODEOWNERS:1:1",
        ),
        repository_case(
            "owners file malformed",
            &[("OWNERS", "approvers: soumith\n"), ("src/a.rs", "")],
            owners.clone(),
            "`approvers` must be a list of logins, found a string",
            "OWNERS:1:12",
        ),
        repository_case(
            "owners filters beside lists",
            &[(
                "OWNERS",
                "approvers:\n  - soumith\nfilters:\n  \".*\":\n    approvers:\n      - soumith\n",
            )],
            owners.clone(),
            "Prow ignores `filters` in an OWNERS file that has top-level lists",
            "OWNERS:3:1",
        ),
        repository_case(
            "owners filter not a regex",
            &[(
                "OWNERS",
                "filters:\n  \"(\":\n    approvers:\n      - soumith\n",
            )],
            owners,
            "this filter is not a regular expression, so Prow ignores it",
            "OWNERS:2:3",
        ),
    ]
}

/// Problems that are warnings: the build goes on.
/// A repository (`.git` in the book root) whose `CONTRIB.md` the chapter
/// shows.
fn repository_file_case(
    name: &'static str,
    contrib: &'static str,
    message: &'static str,
    location: &'static str,
) -> Case {
    Case {
        files: vec![
            (".git/HEAD", b"ref: refs/heads/main\n".to_vec()),
            ("CONTRIB.md", contrib.as_bytes().to_vec()),
            ("LICENSE", b"MIT\n".to_vec()),
        ],
        code: 0,
        ..case(
            name,
            "{{#repository-file ../CONTRIB.md}}\n",
            message,
            location,
        )
    }
}

/// Issue 39: a governance rule (TOML under `[preprocessor.community]`)
/// and a roster.
fn governance_case(
    name: &'static str,
    rules: &str,
    people: &str,
    code: i32,
    message: &'static str,
    location: &'static str,
) -> Case {
    let book_toml = format!("[book]\ntitle = \"T\"\n\n[preprocessor.community]\n{rules}");
    let config: Value = toml_edit::de::from_str(&book_toml).expect("TOML");
    let settings = config["preprocessor"]["community"].clone();
    let mut files = files(&[("maintainers.toml", people)]);
    files.push(("book.toml", book_toml.into_bytes()));
    Case {
        name,
        files,
        settings,
        chapter: "{{#governance core}}\n",
        code,
        message,
        location: Some(location),
    }
}

const GOVERNED: &str = "[people.soumith]\nname = \"Soumith Chintala\"\naffiliation = \"Meta\"\n\n[people.ezyang]\nname = \"Edward Yang\"\naffiliation = \"Meta\"\n\n[people.gchanan]\nname = \"Gregory Chanan\"\naffiliation = \"Meta\"\n\n[[groups]]\nid = \"core\"\nmembers = [\"soumith\", \"ezyang\", \"gchanan\"]\n";

fn governance_cases() -> Vec<Case> {
    vec![
        governance_case(
            "governance share that divides by zero",
            "governance.core = { max-per-organisation = \"1/0\" }\n",
            GOVERNED,
            1,
            "governance `core.max-per-organisation` divides by zero: \"1/0\"",
            "book.toml:5:45",
        ),
        governance_case(
            "governance share over the whole group",
            "governance.core = { quorum = \"150%\" }\n",
            GOVERNED,
            1,
            "governance `core.quorum` is more than the whole group: \"150%\" (a share is at most 100%)",
            "book.toml:5:30",
        ),
        governance_case(
            "governance rule with an unknown key",
            "governance.core = { max-per-company = 2 }\n",
            GOVERNED,
            1,
            "governance `core` has an unknown key `max-per-company`",
            "book.toml:5:39",
        ),
        governance_case(
            "governance rules for a group that does not exist",
            "governance.cor = { max-per-organisation = 2 }\n",
            GOVERNED,
            1,
            "governance rules for a group `cor` that is not in `maintainers.toml`; none of its rules is checked",
            "book.toml:5:12",
        ),
        governance_case(
            "governance cap broken by one member too many",
            "governance.core = { max-per-organisation = 2 }\n",
            GOVERNED,
            0,
            "group `core` has 3 members from Meta of 3 members; its charter allows at most 2",
            "book.toml:5:44",
        ),
        governance_case(
            "governance member without an affiliation",
            "governance.core = { votes = \"per-organisation\" }\n",
            &GOVERNED.replace(
                "affiliation = \"Meta\"\n\n[people.gchanan]",
                "\n[people.gchanan]",
            ),
            0,
            "Edward Yang has no affiliation: the governance rules count them as their own organisation",
            "maintainers.toml:5:9",
        ),
        governance_case(
            "governance affiliation written as a link",
            "governance.core = { votes = \"per-organisation\" }\n",
            &GOVERNED.replace(
                "affiliation = \"Meta\"\n\n[people.gchanan]",
                "affiliation = \"[Meta](https://meta.com)\"\n\n[people.gchanan]",
            ),
            0,
            "Edward Yang's affiliation is a link (its text is compared): the governance rules read it as `Meta`",
            "maintainers.toml:5:9",
        ),
        governance_case(
            "governance date that cannot be read",
            "governance.core = { term = \"1y\" }\n",
            &GOVERNED.replace(
                "\"ezyang\", ",
                "{ handle = \"ezyang\", fields = { renewed = \"2024-13-01\" } }, ",
            ),
            0,
            "Edward Yang's `renewed` date \"2024-13-01\" is not a date written YYYY-MM-DD; their term is not judged by it",
            "maintainers.toml:15:34",
        ),
        governance_case(
            "governance date in the future",
            "governance.core = { term = \"1y\" }\n",
            &GOVERNED.replace(
                "\"ezyang\", ",
                "{ handle = \"ezyang\", fields = { since = \"2999-01-01\" } }, ",
            ),
            0,
            "Edward Yang's `since` date \"2999-01-01\" is in the future (a term cannot start later); their term is not judged by it",
            "maintainers.toml:15:34",
        ),
        governance_case(
            "governance term that ended",
            "governance.core = { term = \"1y\" }\n",
            &GOVERNED.replace(
                "\"ezyang\", ",
                "{ handle = \"ezyang\", fields = { renewed = \"2000-01-01\" } }, ",
            ),
            0,
            "Edward Yang's term in group `core` ended on 2001-01-01 (renewed 2000-01-01) and was not renewed",
            "book.toml:5:28",
        ),
    ]
}

fn warning_cases() -> Vec<Case> {
    ownership_cases().into_iter().chain(governance_cases()).chain(vec![
        repository_file_case(
            "repository file links to a missing path",
            "# Contributing\n\nRead [the guide](docs/GUIDE.md).\n",
            "`docs/GUIDE.md` is not in the repository",
            "CONTRIB.md:3:18",
        ),
        repository_file_case(
            "repository file links out of the repository",
            "# Contributing\n\n[secrets](../../../../../../../../../etc/passwd)\n",
            "leaves the repository; the link is shown as text",
            "CONTRIB.md:3:11",
        ),
        repository_file_case(
            "repository file link without git-repository-url",
            "# Contributing\n\nSee the [license](LICENSE) and [again](LICENSE).\n",
            "a link to the repository's `LICENSE` needs `git-repository-url`; shown as text",
            "CONTRIB.md:3:19",
        ),
        markdown_case(
            "markdown link broken by a space",
            "# Maintainers\n\n* @soumith\n* [Ada Lovelace] (https://github.com/ada)\n",
            "`[...] (...)` is not a link: remove the space between `]` and `(`",
            "MAINTAINERS.md:4:3",
        ),
        markdown_case(
            "markdown team mention that is no org/team",
            "# Maintainers\n\n* @soumith\n\nTeam: @pytorch/core/x\n",
            "`@pytorch/core/x` is not a GitHub team (`@org/team`), so the group does not claim it",
            "MAINTAINERS.md:5:1",
        ),
        markdown_case(
            "markdown link text and URL disagree",
            "# Maintainers\n\n* @soumith\n* Andrew Mason ([amason](https://github.com/ajm188))\n",
            "the link's text names `amason` but its URL the GitHub login `ajm188`",
            "MAINTAINERS.md:4:17",
        ),
        Case {
            code: 0,
            ..case(
                "filters that leave nobody",
                "{{#maintainers core only=retired}}\n",
                "no member of group `core` is left by the filters: the list is empty",
                "src/chapter.md:1:26",
            )
        },
        codeowners_case(
            "codeowners owner without @",
            "/docs/ ezyang",
            "invalid owner `ezyang`",
            "CODEOWNERS:2:8",
        ),
        codeowners_case(
            "codeowners team with two slashes",
            "/docs/ @pytorch/core/docs",
            "invalid owner `@pytorch/core/docs`",
            "CODEOWNERS:2:8",
        ),
        codeowners_case(
            "codeowners negation",
            "!/docs/ @ezyang",
            "GitHub does not support `!` (negated) patterns in CODEOWNERS",
            "CODEOWNERS:2:1",
        ),
        codeowners_case(
            "codeowners character range",
            "/docs/[ab].md @ezyang",
            "GitHub does not support `[ ]` character ranges in CODEOWNERS",
            "CODEOWNERS:2:7",
        ),
        codeowners_case(
            "codeowners escaped hash",
            "\\#notes.md @ezyang",
            "GitHub does not support escaping `#` at the start of a pattern",
            "CODEOWNERS:2:1",
        ),
        codeowners_case(
            "codeowners lone backslash",
            "docs\\",
            "the pattern ends with a lone `\\`",
            "CODEOWNERS:2:5",
        ),
        codeowners_case(
            "codeowners empty pattern",
            "/ @ezyang",
            "the pattern `/` never matches anything",
            "CODEOWNERS:2:1",
        ),
        codeowners_case(
            "codeowners pattern too long",
            &format!("/{} @ezyang", "a/".repeat(2048)),
            "the pattern is 4097 bytes long; mdbook-community accepts at most 4096",
            "CODEOWNERS:2:1",
        ),
    ])
    .collect()
}

fn chapters(case_chapter: &str) -> Vec<(&str, &str, &str)> {
    vec![
        ("Chapter", "chapter.md", case_chapter),
        ("Guide", "guide.md", GUIDE),
    ]
}

fn run_case(case: &Case, settings: &Value) -> RunResult {
    let dir = tempfile::tempdir().expect("tempdir");
    for (path, content) in &case.files {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
        std::fs::write(full, content).expect("write");
    }
    let config = json!({"preprocessor": {"community": settings}});
    let mut result = run(&request(
        Shape::V05,
        dir.path(),
        config,
        &chapters(case.chapter),
    ));
    // As the error reference shows it.
    result.stderr = result
        .stderr
        .replace(&dir.path().display().to_string(), "/path/to/book");
    result
}

#[test]
fn every_directive_and_data_problem_is_reported_where_it_is() {
    let cases = directive_cases();
    assert!(cases.len() >= 40, "the suite has {} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let result = run_case(case, &case.settings);
        let mut problems = Vec::new();
        if result.code != case.code {
            problems.push(format!(
                "exit code {} (expected {})",
                result.code, case.code
            ));
        }
        if case.code != 0 && !result.stdout.is_empty() {
            problems.push("wrote a partial book on failure".to_string());
        }
        if !result.messages().contains(case.message) {
            problems.push(format!("no message {:?}", case.message));
        }
        if let Some(location) = case.location
            && !result.messages().contains(&format!("--> {location}"))
        {
            problems.push(format!("no location {location}"));
        }
        if result.messages().contains("panicked") {
            problems.push("panicked".into());
        }
        if !problems.is_empty() {
            failures.push(format!(
                "{}: {}\n{}",
                case.name,
                problems.join("; "),
                result.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn on_error_warn_writes_the_book_with_notes_and_changes_nothing_else() {
    let mut failures = Vec::new();
    for case in directive_cases() {
        let mut settings = case.settings.clone();
        settings["on-error"] = json!("warn");
        let result = run_case(&case, &settings);
        let mut problems = Vec::new();
        if result.code != 0 {
            problems.push(format!("exit code {}", result.code));
        }
        if !(result.messages().contains("warning:") && result.messages().contains(case.message)) {
            problems.push(format!("no warning {:?}", case.message));
        }
        if result.stderr.lines().any(|l| l.starts_with("error")) {
            problems.push("printed an error in warn mode".into());
        }
        if result.code == 0 {
            let contents = result.contents(Shape::V05);
            let page = &contents[0];
            if !page.contains("mdbook-community error:") {
                problems.push(format!("no note in the page: {page:?}"));
            }
            // The other chapter, and the text around the failed directive,
            // are unchanged.
            if contents[1] != GUIDE {
                problems.push("another chapter changed".into());
            }
            let (before, after) = around_directive(case.chapter);
            if !page.starts_with(before) || !page.ends_with(after) {
                problems.push(format!("text around the directive changed: {page:?}"));
            }
        }
        if !problems.is_empty() {
            failures.push(format!(
                "{}: {}\n{}",
                case.name,
                problems.join("; "),
                result.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn codeowners_problems_are_warnings_and_skip_only_their_line() {
    let mut failures = Vec::new();
    let cases = warning_cases().into_iter();
    for case in cases.filter(|c| c.name.starts_with("codeowners")) {
        let result = run_case(&case, &case.settings);
        // The same book with the bad line left out.
        let without = Case {
            files: files(&[("CODEOWNERS", "* @soumith\n")]),
            ..codeowners_case("", "", "", "")
        };
        let expected = run_case(&without, &without.settings);
        assert_eq!(expected.code, 0, "{}", expected.stderr);
        assert!(expected.stderr.is_empty(), "{}", expected.stderr);
        let mut problems = Vec::new();
        if result.code != case.code {
            problems.push(format!(
                "exit code {} (expected {})",
                result.code, case.code
            ));
        }
        let warning = format!("warning: {}", case.message);
        if result.messages().matches(&warning).count() != 1 {
            problems.push(format!("not one {warning:?}"));
        }
        if let Some(location) = case.location
            && !result.messages().contains(&format!("--> {location}"))
        {
            problems.push(format!("no location {location}"));
        }
        if !result
            .messages()
            .contains("= note: GitHub skips lines with invalid syntax")
            && !case.message.contains("bytes long")
        {
            problems.push("no note that GitHub skips the line".into());
        }
        if result.stderr.lines().any(|l| l.starts_with("error")) {
            problems.push("printed an error".into());
        }
        if result.messages().contains("panicked") {
            problems.push("panicked".into());
        }
        if result.code == 0 && result.contents(Shape::V05) != expected.contents(Shape::V05) {
            problems.push(format!(
                "the book is not the book without the line: {:?}",
                result.contents(Shape::V05)
            ));
        }
        if !problems.is_empty() {
            failures.push(format!(
                "{}: {}\n{}",
                case.name,
                problems.join("; "),
                result.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The text before the first directive (or fence) and after the last one.
fn around_directive(chapter: &str) -> (&str, &str) {
    let start = chapter
        .find("{{")
        .into_iter()
        .chain(chapter.find("```"))
        .min()
        .unwrap_or(0);
    let end = chapter
        .rfind("}}")
        .map(|i| i + 2)
        .into_iter()
        .chain(chapter.rfind("```").map(|i| i + 3))
        .max()
        .unwrap_or(chapter.len());
    (&chapter[..start], &chapter[end..])
}

#[test]
fn stdin_problems_are_one_line_and_exit_1() {
    let dir = tempfile::tempdir().expect("tempdir");
    let real = request(Shape::V05, dir.path(), json!({}), &[("A", "a.md", "# A\n")]);
    let truncated = &real[..real.len() / 2];
    let cases: Vec<(&str, String, &str)> = vec![
        ("empty", String::new(), "no input on stdin"),
        ("whitespace", " \n\t ".into(), "no input on stdin"),
        ("malformed", "{not json".into(), "stdin is not valid JSON"),
        ("truncated", truncated.to_string(), "stdin is not valid JSON"),
        ("object", "{}".into(), "expected a JSON array"),
        ("three elements", "[1, 2, 3]".into(), "two elements"),
        ("context not an object", r#"[1, {"items": []}]"#.into(), "context (first element)"),
        ("no book items", r#"[{"root":".","renderer":"html","mdbook_version":"0.5.4","config":{}}, {"chapters": []}]"#.into(), "neither `items`"),
        ("renderer not a string", r#"[{"root":".","renderer":1,"mdbook_version":"0.5.4"}, {"items": []}]"#.into(), "`renderer` is not a string"),
        ("binary garbage", "\u{0}\u{1}\u{2}\u{7f}".into(), "stdin is not valid JSON"),
    ];
    let mut not_utf8 = real.clone().into_bytes();
    let at = real.find("# A").expect("the chapter");
    not_utf8[at + 2] = 0xff;
    let huge = format!("[{{}}, {{\"items\": [\"{}", "x".repeat(60 << 20));
    let cases: Vec<(&str, Vec<u8>, &str)> = cases
        .into_iter()
        .map(|(name, input, message)| (name, input.into_bytes(), message))
        .chain([
            ("not UTF-8", not_utf8, "stdin is not valid JSON"),
            (
                "huge and cut off",
                huge.into_bytes(),
                "stdin is not valid JSON",
            ),
        ])
        .collect();
    for (name, input, message) in cases {
        let result = run_bytes(&input);
        assert_eq!(result.code, 1, "{name}");
        assert!(result.stdout.is_empty(), "{name}: partial output");
        assert!(
            result.messages().contains(message),
            "{name}: {}",
            result.stderr
        );
        assert_eq!(
            result.stderr.trim_end().lines().count(),
            1,
            "{name}: {}",
            result.stderr
        );
    }
}

#[test]
fn settings_problems_point_into_book_toml() {
    let cases = [
        (
            "on-eror = \"warn\"",
            json!({"on-eror": "warn"}),
            "unknown key `on-eror`",
            "book.toml:2:1",
        ),
        (
            "check-anchors = \"eror\"",
            json!({"check-anchors": "eror"}),
            "must be one of",
            "book.toml:2:17",
        ),
        (
            "contributing-url = \"ftp://x\"",
            json!({"contributing-url": "ftp://x"}),
            "must be an http or https URL",
            "book.toml:2:20",
        ),
        (
            "people = 3",
            json!({"people": 3}),
            "must be a string",
            "book.toml:2:10",
        ),
        // Issue 17 (16): checked like people URLs.
        (
            "contributing-url = \"https://github.com/o/r/blob/main/CONTRIBUTING.md\\t\"",
            json!({"contributing-url": "https://github.com/o/r/blob/main/CONTRIBUTING.md\t"}),
            "must not contain spaces",
            "book.toml:2:20",
        ),
        (
            "ownership = \"owner\"",
            json!({"ownership": "owner"}),
            "must be one of \"codeowners\", \"owners\", found \"owner\"",
            "book.toml:2:13",
        ),
        (
            "unowned = \"yes\"",
            json!({"unowned": "yes"}),
            "must be one of \"warn\", \"error\", \"off\"",
            "book.toml:2:11",
        ),
        (
            "contributing-url = \"http://\"",
            json!({"contributing-url": "http://"}),
            "must be an http or https URL with a host",
            "book.toml:2:20",
        ),
    ];
    for (line, settings, message, location) in cases {
        let dir = book_root(&[("book.toml", &format!("[preprocessor.community]\n{line}\n"))]);
        let config = json!({"preprocessor": {"community": settings}});
        let result = run(&request(
            Shape::V04,
            dir.path(),
            config,
            &[("A", "a.md", "x")],
        ));
        assert_eq!(result.code, 1, "{line}");
        assert!(result.stdout.is_empty());
        assert!(
            result.messages().contains(message),
            "{line}: {}",
            result.stderr
        );
        assert!(
            result.messages().contains(location),
            "{line}: {}",
            result.stderr
        );
    }
}

/// A data-file path set in book.toml must name a file, even when no
/// directive uses it. With `on-error = "warn"` it is a warning, and the book
/// is written unchanged.
#[test]
fn configured_data_files_that_do_not_exist_are_errors_in_book_toml() {
    let cases = [
        (
            "contributing = \"docs/CONTRIBUTNG.md\"",
            json!({"contributing": "docs/CONTRIBUTNG.md"}),
            "[preprocessor.community] contributing `docs/CONTRIBUTNG.md` does not exist (paths are relative to the book root",
            "book.toml:2:16",
            Some("did you mean `docs/CONTRIBUTING.md`?"),
        ),
        (
            "people = \"peple.toml\"",
            json!({"people": "peple.toml"}),
            "[preprocessor.community] people `peple.toml` does not exist",
            "book.toml:2:10",
            Some("did you mean `people.toml`?"),
        ),
        (
            "codeowners = \"nowhere/CODEOWNERS\"",
            json!({"codeowners": "nowhere/CODEOWNERS"}),
            "[preprocessor.community] codeowners `nowhere/CODEOWNERS` does not exist",
            "book.toml:2:14",
            None,
        ),
        (
            // A directory where the file should be.
            "people = \"data\"",
            json!({"people": "data"}),
            "[preprocessor.community] people `data` is a folder; name the file in it",
            "book.toml:2:10",
            None,
        ),
    ];
    for (line, settings, message, location, help) in cases {
        for on_error in ["fail", "warn"] {
            let dir = book_root(&[
                (
                    "book.toml",
                    &format!("[preprocessor.community]\n{line}\non-error = \"{on_error}\"\n"),
                ),
                ("docs/CONTRIBUTING.md", CONTRIBUTING),
                ("people.toml", PEOPLE),
                ("data/people.toml", PEOPLE),
            ]);
            let mut settings = settings.clone();
            settings["on-error"] = json!(on_error);
            let config = json!({"preprocessor": {"community": settings}});
            let result = run(&request(
                Shape::V05,
                dir.path(),
                config,
                &[("A", "a.md", "No directive here.\n")],
            ));
            let severity = if on_error == "warn" {
                assert_eq!(result.code, 0, "{line}: {}", result.stderr);
                assert_eq!(result.contents(Shape::V05), ["No directive here.\n"]);
                "warning"
            } else {
                assert_eq!(result.code, 1, "{line}: {}", result.stderr);
                assert!(result.stdout.is_empty(), "{line}: partial output");
                "error"
            };
            assert!(
                result
                    .messages()
                    .contains(&format!("{severity}: {message}")),
                "{line}: {}",
                result.stderr
            );
            assert!(
                result.messages().contains(&format!("--> {location}")),
                "{line}: {}",
                result.stderr
            );
            if let Some(help) = help {
                assert!(
                    result.messages().contains(&format!("= help: {help}")),
                    "{line}: {}",
                    result.stderr
                );
            }
        }
    }
}

/// With `on-error = "warn"`, a problem in book.toml is a warning: the book
/// is built with the rest of the settings, and a directive that needs a
/// configured file that is missing shows that in its page.
#[test]
fn on_error_warn_builds_despite_problems_in_book_toml() {
    let dir = book_root(&[
        (
            "book.toml",
            "[preprocessor.community]\non-error = \"warn\"\ncheck-anchor = \"off\"\npeople = \"peple.toml\"\n",
        ),
        ("people.toml", PEOPLE),
    ]);
    let config = json!({"preprocessor": {"community": {
        "on-error": "warn", "check-anchor": "off", "people": "peple.toml",
    }}});
    let chapter = "# A\n\nBy {{#person soumith}}.\n";
    let result = run(&request(
        Shape::V05,
        dir.path(),
        config,
        &[("A", "a.md", chapter)],
    ));
    assert_eq!(result.code, 0, "{}", result.stderr);
    for expected in [
        "warning: unknown key `check-anchor` in [preprocessor.community]",
        "--> book.toml:3:1",
        "= help: did you mean `check-anchors`?",
        "warning: [preprocessor.community] people `peple.toml` does not exist",
        "--> book.toml:4:10",
        // The directive that needs the file follows from that: counted,
        // not repeated (its page shows it).
        "note: mdbook-community: 1 directive that uses `peple.toml` was not expanded",
    ] {
        assert!(
            result.messages().contains(expected),
            "{expected}: {}",
            result.stderr
        );
    }
    assert!(!result.messages().contains("error:"), "{}", result.stderr);
    let page = &result.contents(Shape::V05)[0];
    assert!(page.starts_with("# A\n\nBy "), "{page}");
    assert!(page.contains("mdbook-community error"), "{page}");
    assert!(page.contains("peple.toml"), "{page}");
}

#[test]
fn unclosed_directives_warn_and_stay_as_text() {
    let chapter = "Ask {{#person ezyang\nand more.\n";
    let dir = book_root(&[("maintainers.toml", PEOPLE)]);
    let result = run(&request(
        Shape::V05,
        dir.path(),
        json!({}),
        &[("A", "a.md", chapter)],
    ));
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert!(
        result
            .messages()
            .contains("warning: `{{#person` is not closed"),
        "{}",
        result.stderr
    );
    assert!(
        result.messages().contains("src/a.md:1:5"),
        "{}",
        result.stderr
    );
    assert_eq!(result.contents(Shape::V05)[0], chapter);
}

#[test]
fn odd_but_valid_data_files_work() {
    let bom_crlf = "\u{feff}[people.a]\r\nname = \"Ada\"\r\n\r\n[[groups]]\r\nid = \"core\"\r\nmembers = [\"a\"]\r\n";
    let dir = book_root(&[
        ("maintainers.toml", bom_crlf),
        ("CODEOWNERS", "\u{feff}* @a\r\n"),
    ]);
    let result = run(&request(
        Shape::V05,
        dir.path(),
        json!({}),
        &[(
            "A",
            "a.md",
            "{{#maintainers core}}\r\n\r\n{{#codeowners x}}\r\n",
        )],
    ));
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert_eq!(
        result.contents(Shape::V05)[0],
        "- Ada ([a](https://github.com/a))\r\n\r\nAda ([a](https://github.com/a))\r\n"
    );
}

/// Markup in every free-text field: name, affiliation, title, description,
/// status and role.
const EVIL: &str = "<script>alert(1)</script> *em* [x](javascript:alert(2)) <img src=x onerror=alert(3)> | `code` {{#person a}}";
/// Markup in a handle and a group id, which may hold anything but spaces,
/// quotes, braces, `=` and `,`. (No `|`: see
/// `a_pipe_in_data_stays_in_its_table_cell`.)
const EVIL_HANDLE: &str = "<script>alert(4)</script>*hem*[h](javascript:alert(5))`hcode`<img";
const EVIL_ID: &str = "<script>alert(6)</script>*gem*[g](javascript:alert(7))|`gcode`";
/// Markup in URLs, which may hold anything but spaces, quotes, `<` and `>`.
const EVIL_URL: &str = "https://example.com/u)[u](javascript:alert(8))*uem*'\\";
const EVIL_AVATAR: &str = "https://example.com/a.png?x=1&y='onerror=alert(9)//*aem*)";
/// The name beside the avatar ends up in its `alt`.
const EVIL_ALT: &str = "<script>alert(10)</script> *nem* \" onerror=\"alert(11)\" ' x='";
/// `email` is not shown; if it ever is, it must be text too.
const EVIL_EMAIL: &str = "<script>alert(12)</script>@example.com [m](javascript:alert(13)) *mem*";

/// `markdown` as HTML, rendered as mdBook would.
fn html_of(markdown: &str) -> String {
    let mut html = String::new();
    pulldown_cmark::html::push_html(
        &mut html,
        pulldown_cmark::Parser::new_ext(markdown, pulldown_cmark::Options::all()),
    );
    html
}

fn escape_href(url: &str) -> String {
    let mut out = String::new();
    pulldown_cmark_escape::escape_href(&mut out, url).expect("escapes");
    out
}

fn escape_html(text: &str) -> String {
    let mut out = String::new();
    pulldown_cmark_escape::escape_html(&mut out, text).expect("escapes");
    out
}

/// Every `href` and `src` in `html` is http(s), mailto or a fragment.
fn assert_only_safe_urls(html: &str) {
    for attribute in ["href=\"", "src=\""] {
        for (at, _) in html.match_indices(attribute) {
            let value = &html[at + attribute.len()..];
            assert!(
                ["https://", "http://", "mailto:", "#"]
                    .iter()
                    .any(|scheme| value.starts_with(scheme)),
                "unsafe {attribute}{}... in:\n{html}",
                &value[..value.len().min(40)]
            );
        }
    }
}

#[test]
fn injection_through_every_data_field_stays_text() {
    let data = format!(
        "[people.a]\nname = {EVIL:?}\naffiliation = {EVIL:?}\nemail = {EVIL_EMAIL:?}\nurl = {EVIL_URL:?}\n\n\
         [people.{EVIL_HANDLE:?}]\nemail = {EVIL_EMAIL:?}\nurl = \"https://example.com/h\"\n\n\
         [people.gh]\nname = \"GH\"\ngithub = \"x_y-z\"\n\n\
         [people.av]\nname = {EVIL_ALT:?}\ngithub = false\navatar = {EVIL_AVATAR:?}\n\n\
         [[groups]]\nid = \"g\"\ntitle = {EVIL:?}\ndescription = {EVIL:?}\n\
         members = [{{ handle = \"a\", status = {EVIL:?}, role = {EVIL:?} }}, {EVIL_HANDLE:?}, \"gh\", \"av\"]\n\n\
         [[groups]]\nid = {EVIL_ID:?}\nmembers = [{EVIL_HANDLE:?}]\n"
    );
    let dir = book_root(&[("maintainers.toml", &data), ("CODEOWNERS", "* @a @x_y-z\n")]);
    let chapter = format!(
        "{{{{#maintainers}}}}\n\n{{{{#maintainers g style=table}}}}\n\n{{{{#maintainers g style=inline}}}}\n\n\
         {{{{#maintainers {EVIL_ID} style=table}}}}\n\n{{{{#person a}}}}\n\n{{{{#person {EVIL_HANDLE}}}}}\n\n{{{{#codeowners}}}}\n"
    );
    let result = run(&request(
        Shape::V05,
        dir.path(),
        json!({}),
        &[("A", "a.md", &chapter)],
    ));
    assert_eq!(result.code, 0, "{}", result.stderr);
    let out = &result.contents(Shape::V05)[0];
    let html = html_of(out);
    for forbidden in [
        "<script",
        "href=\"javascript",
        "<em>em",
        "<em>hem",
        "<em>gem",
        "<em>uem",
        "<em>aem",
        "<em>nem",
        "<em>mem",
        "<code>code",
        "<code>hcode",
        "<code>gcode",
        "alert(12)",
    ] {
        assert!(!html.contains(forbidden), "{forbidden} in:\n{html}");
    }
    assert_only_safe_urls(&html);
    // Free text is text, wherever it shows.
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{html}"
    );
    // The data's `{{#person a}}` is text, not expanded a second time.
    assert!(
        out.contains("{{#person a}}")
            || out.contains("\\{\\{#person a}}")
            || html.contains("{{#person a}}"),
        "{out}"
    );
    // Each link is whole, with its URL escaped: in the hierarchy, the
    // tables, the sentence, `{{#person}}` and the CODEOWNERS table.
    let expect = |needle: String, count: usize| {
        assert_eq!(html.matches(&needle).count(), count, "{needle} in:\n{html}");
    };
    expect(format!("<a href=\"{}\">a</a>", escape_href(EVIL_URL)), 5);
    // (A handle that is not a GitHub login needs a `url`; see the next test.)
    expect(
        format!(
            "<a href=\"https://example.com/h\">{}</a>",
            escape_html(EVIL_HANDLE)
        ),
        6,
    );
    expect("<a href=\"https://github.com/x_y-z\">gh</a>".into(), 4);
    // The group id is the heading's text; the avatar one whole `<img>`.
    expect(format!("<h2>{}</h2>", escape_html(EVIL_ID)), 1);
    expect(
        format!(
            "<img class=\"community-avatar\" src=\"{}\" alt=\"{}\" width=\"32\" height=\"32\" loading=\"lazy\">",
            escape_href(EVIL_AVATAR),
            escape_html(EVIL_ALT)
        ),
        1,
    );
    // The others in the avatar column are GitHub's pictures of their logins.
    let github = "<img class=\"community-avatar\" src=\"https://github.com/";
    expect("<img".into(), 1 + html.matches(github).count());
}

/// The data fields that are not free text reject what they cannot show
/// safely, at the value (or the key) at fault.
#[test]
fn hostile_values_a_field_cannot_hold_are_rejected_where_they_are() {
    let cases = [
        (
            "[people.a]\nurl = \"https://example.com/\\\"><script>alert(1)</script>\"\n",
            "`url` of `a` must not contain spaces, quotes, `<` or `>`",
            "maintainers.toml:2:7",
        ),
        (
            "[people.a]\nurl = \"javascript:alert(1)\"\n",
            "`url` of `a` must be an http, https or mailto URL",
            "maintainers.toml:2:7",
        ),
        (
            "[people.a]\navatar = \"https://example.com/a.png\\\" onerror=\\\"alert(1)\"\n",
            "`avatar` of `a` must not contain spaces, quotes, `<` or `>`",
            "maintainers.toml:2:10",
        ),
        (
            "[people.a]\navatar = \"javascript:alert(1)\"\n",
            "`avatar` of `a` must be an http, https or mailto URL",
            "maintainers.toml:2:10",
        ),
        (
            "[people.a]\ngithub = \"<script>alert(1)</script>\"\n",
            "`github` of `a` is not a GitHub login",
            "maintainers.toml:2:10",
        ),
        (
            "[people.a]\ngithub = \"../../evil\"\n",
            "`github` of `a` is not a GitHub login",
            "maintainers.toml:2:10",
        ),
        (
            "[people.\"a|[x](javascript:alert(1))\"]\nname = \"X\"\n",
            "handle `a|[x](javascript:alert(1))` is not a GitHub login, and `github` defaults to the handle",
            "maintainers.toml:1:9",
        ),
        (
            "[people.\"{{#person a}}\"]\n",
            "handle `{{#person a}}` must not contain spaces, quotes, braces",
            "maintainers.toml:1:9",
        ),
        (
            "[people.'a\"onclick=\"alert(1)']\n",
            "handle `a\"onclick=\"alert(1)` must not contain spaces, quotes, braces",
            "maintainers.toml:1:9",
        ),
        (
            "[[groups]]\nid = \"{{#maintainers}}\"\n",
            "group id `{{#maintainers}}` must not contain spaces, quotes, braces",
            "maintainers.toml:2:6",
        ),
        (
            "[[groups]]\nid = \"a\\nb\"\n",
            "group id `a␊b` must not contain spaces, quotes, braces",
            "maintainers.toml:2:6",
        ),
    ];
    for (data, message, location) in cases {
        let dir = book_root(&[("maintainers.toml", data)]);
        let result = run(&request(
            Shape::V05,
            dir.path(),
            json!({}),
            &[("A", "a.md", "{{#maintainers}}\n")],
        ));
        assert_eq!(result.code, 1, "{data}: {}", result.stderr);
        assert!(result.stdout.is_empty(), "{data}: partial output");
        assert!(
            result.messages().contains(&format!("error: {message}")),
            "{data}: {}",
            result.stderr
        );
        assert!(
            result.messages().contains(&format!("--> {location}")),
            "{data}: {}",
            result.stderr
        );
    }
}

/// A `|` in data shown in a table cell must not end the cell: GFM splits
/// table rows at every unescaped `|`, before links and inline HTML are
/// parsed, so the rest of the cell would be read as Markdown.
#[test]
fn a_pipe_in_data_stays_in_its_table_cell() {
    let data = "[people.p]\nname = \"Jane | [x](javascript:alert(1))\"\nurl = \"https://example.com/p|[y](javascript:alert(2))\"\navatar = \"https://example.com/p.png\"\n\n[people.\"h|[z](javascript:alert(3))\"]\nname = \"H\"\nurl = \"https://example.com/h|[z](javascript:alert(3))\"\n\n[[groups]]\nid = \"g\"\nmembers = [\"p\", \"h|[z](javascript:alert(3))\"]\n";
    let dir = book_root(&[("maintainers.toml", data), ("CODEOWNERS", "* @p\n")]);
    let result = run(&request(
        Shape::V05,
        dir.path(),
        json!({}),
        &[(
            "A",
            "a.md",
            "{{#maintainers g style=table}}\n\n{{#codeowners}}\n",
        )],
    ));
    assert_eq!(result.code, 0, "{}", result.stderr);
    let html = html_of(&result.contents(Shape::V05)[0]);
    assert!(!html.contains("href=\"javascript"), "{html}");
    assert_only_safe_urls(&html);
    for whole in [
        // `&#124;` is `|` to a browser, and not a cell boundary to GFM.
        format!(
            "<td><img class=\"community-avatar\" src=\"https://example.com/p.png\" alt=\"{}\"",
            escape_html("Jane | [x](javascript:alert(1))").replace('|', "&#124;")
        ),
        "<td>Jane | [x](javascript:alert(1))</td>".to_string(),
        format!(
            "<td><a href=\"{}\">p</a></td>",
            escape_href("https://example.com/p|[y](javascript:alert(2))")
        ),
        format!(
            "<td><a href=\"{}\">h|[z](javascript:alert(3))</a></td>",
            escape_href("https://example.com/h|[z](javascript:alert(3))")
        ),
    ] {
        assert!(html.contains(&whole), "no {whole} in:\n{html}");
    }
}

#[test]
fn a_50_mb_chapter_and_100_000_directives_work() {
    let dir = book_root(&[("maintainers.toml", PEOPLE)]);
    let big = "Plain text without directives, repeated to fifty megabytes.\n"
        .repeat(50 * 1024 * 1024 / 60);
    let many = "{{#person ezyang}} ".repeat(100_000);
    let result = run(&request(
        Shape::V05,
        dir.path(),
        json!({}),
        &[("Big", "big.md", &big), ("Many", "many.md", &many)],
    ));
    assert_eq!(result.code, 0, "{}", result.stderr);
    let contents = result.contents(Shape::V05);
    assert_eq!(contents[0], big);
    assert_eq!(
        contents[1]
            .matches("Edward Yang ([ezyang](https://github.com/ezyang))")
            .count(),
        100_000
    );
}

#[test]
fn extra_fields_in_both_shapes_pass_through() {
    let dir = tempfile::tempdir().expect("tempdir");
    for shape in [Shape::V04, Shape::V05] {
        let input = request(
            shape,
            dir.path(),
            json!({"output": {"future": {"x": [1, 2]}}}),
            &[("A", "a.md", "x")],
        );
        let mut value: Value = serde_json::from_str(&input).expect("JSON");
        value[0]["new_context_field"] = json!(true);
        value[1]["new_book_field"] = json!({"nested": null});
        value[1][shape.items_key()][0]["Chapter"]["new_chapter_field"] = json!([1]);
        let result = run(&value.to_string());
        assert_eq!(result.code, 0, "{}", result.stderr);
        let book: Value = serde_json::from_str(&result.stdout).expect("JSON");
        assert_eq!(book, value[1]);
    }
}

/// A name one letter away from one of ours is a warning with the name it
/// was probably meant to be; the chapter comes back as it was.
#[test]
fn a_misspelt_directive_is_a_warning_and_changes_nothing() {
    let chapter = "Ask {{#persn ezyang}} or {{#mantainers core}}.\n\n`{{#persn in code}}` {{#include other.md}}\n";
    let case = case("misspelt", chapter, "", "");
    let result = run_case(&case, &case.settings);
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert_eq!(result.contents(Shape::V05)[0], chapter);
    for expected in [
        "warning: `{{#persn}}` is not a directive of mdbook-community; left as text\n  --> src/chapter.md:1:8",
        "= help: did you mean `{{#person}}`?",
        "warning: `{{#mantainers}}` is not a directive of mdbook-community; left as text\n  --> src/chapter.md:1:29",
        "= help: did you mean `{{#maintainers}}`?",
    ] {
        assert!(
            result.messages().contains(expected),
            "{expected}\n{}",
            result.stderr
        );
    }
    assert_eq!(
        result.messages().matches("warning:").count(),
        2,
        "{}",
        result.stderr
    );
}

/// Messages of tests other than the case lists, for the reference below.
const OTHER_MESSAGES: &[&str] = &[
    "is not a regular file (a FIFO, device or socket is never read)",
    "more than the 16 MiB mdbook-community reads",
    "more like this in",
    "no input on stdin",
    "stdin is not valid JSON",
    "expected a JSON array",
    "context (first element)",
    "neither `items`",
    "unknown key `on-eror`",
    "must be one of",
    "must be an http or https URL",
    "must be a string",
    "is not closed",
    "is tested with mdBook",
    "have the same GitHub login",
    "is not a directive of mdbook-community; left as text",
    "is a folder; name the file in it",
    "does not exist (paths are relative to the book root",
    "mdbook-community error: broken link",
];

/// The guide's error reference lists every diagnostic this suite triggers.
#[test]
fn the_error_reference_lists_every_diagnostic() {
    let reference = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/book/errors.md"))
        .expect("book/errors.md");
    let cases: Vec<Case> = directive_cases()
        .into_iter()
        .chain(warning_cases())
        .collect();
    assert!(cases.len() >= 74, "the suite has {} cases", cases.len());
    let missing: Vec<&str> = cases
        .iter()
        .map(|c| c.message)
        .chain(OTHER_MESSAGES.iter().copied())
        .filter(|m| !reference.contains(m))
        .collect();
    assert!(missing.is_empty(), "not in book/errors.md: {missing:#?}");
}

/// The error reference's examples are real output: each case's stderr,
/// but for the closing `aborting due to` line, is on the page as it is (but
/// for the few whose lines are too long to show, which the page describes
/// in words).
#[test]
fn the_error_reference_shows_the_real_output() {
    let reference = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/book/errors.md"))
        .expect("book/errors.md");
    let mut shown = 0;
    let mut missing = Vec::new();
    for case in directive_cases().into_iter().chain(warning_cases()) {
        let result = run_case(&case, &case.settings);
        let output: Vec<&str> = result
            .stderr
            .lines()
            .filter(|l| !l.starts_with("error: mdbook-community: aborting"))
            .collect();
        let output = output.join("\n");
        let output = output.trim_end();
        if output.lines().any(|l| l.len() > 400) {
            continue;
        }
        shown += 1;
        if !reference.contains(output) {
            missing.push(format!("{}:\n{output}", case.name));
        }
    }
    assert!(shown >= 80, "only {shown} examples checked");
    assert!(
        missing.is_empty(),
        "book/errors.md does not show this real output (update it from \
         `cargo test --test bad_input print_examples -- --ignored --nocapture`):\n\n{}",
        missing.join("\n\n")
    );
}

/// Prints every case's output, to write the error reference from:
/// `cargo test --test bad_input print_examples -- --ignored --nocapture`.
#[test]
#[ignore = "a tool for writing book/errors.md, not a check"]
fn print_examples() {
    for case in directive_cases().into_iter().chain(warning_cases()) {
        let result = run_case(&case, &case.settings);
        println!("@@@ {}\n{}", case.name, result.stderr);
    }
}

// -- issue 17: files that hang the build, output that grows with a line ---

/// Issue 17 (9, 10): a data file that is not a regular file is refused
/// before it is opened (a FIFO would block the build forever, `/dev/zero`
/// never ends), and one over the size limit is not read.
#[test]
fn data_files_that_are_not_regular_files_or_too_big_are_refused() {
    let dir = book_root(&[
        ("CONTRIBUTING.md", CONTRIBUTING),
        ("CODEOWNERS", CODEOWNERS),
    ]);
    let fifo = dir.path().join("maintainers.toml");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.toml")).expect("symlink");
    let big = dir.path().join("big.toml");
    let file = std::fs::File::create(&big).expect("create");
    file.set_len(17 * 1024 * 1024).expect("a sparse file");
    // Issue 26 (10): every people format is read under the one limit.
    let big_json = std::fs::File::create(dir.path().join(".all-contributorsrc")).expect("create");
    big_json.set_len(17 * 1024 * 1024).expect("a sparse file");
    for (people, message) in [
        (
            Some(".all-contributorsrc"),
            ".all-contributorsrc is 17825792 bytes, more than the 16 MiB",
        ),
        (None, "maintainers.toml is not a regular file"),
        (Some("zero.toml"), "`zero.toml` is not a regular file"),
        (
            Some("big.toml"),
            "big.toml is 17825792 bytes, more than the 16 MiB",
        ),
    ] {
        let settings = match people {
            Some(path) => json!({"people": path}),
            None => json!({}),
        };
        let config = json!({"preprocessor": {"community": settings}});
        let input = request(
            Shape::V05,
            dir.path(),
            config,
            &[("A", "a.md", "{{#maintainers core}}\n")],
        );
        let mut cmd = common::bin();
        cmd.timeout(std::time::Duration::from_secs(20));
        let result = common::run_with(cmd, &input);
        assert_eq!(result.code, 1, "{people:?}: {}", result.stderr);
        assert!(
            result.messages().contains(message),
            "{people:?}: {}",
            result.stderr
        );
        assert!(
            !result.messages().contains("did you mean"),
            "{}",
            result.stderr
        );
    }
}

/// Issue 17 (2): every diagnostic quotes a window of its line, and after
/// ten of one kind in one file the rest are one line: the output is
/// bounded however long the line and however many problems it has.
#[test]
fn diagnostics_on_one_long_line_are_bounded() {
    let unclosed = "{{#person ".repeat(10_000);
    let links = "[x](#b) ".repeat(4_000);
    for (chapter, more) in [
        (
            unclosed.as_str(),
            "warning: and 9,990 more like this in src/a.md:",
        ),
        (
            links.as_str(),
            "warning: and 3,990 more like this in src/a.md:",
        ),
    ] {
        let dir = book_root(&[("maintainers.toml", PEOPLE)]);
        let result = run(&request(
            Shape::V05,
            dir.path(),
            json!({}),
            &[("A", "a.md", chapter)],
        ));
        assert_eq!(
            result.code,
            0,
            "{}",
            &result.stderr[..2000.min(result.stderr.len())]
        );
        assert!(
            result.stderr.len() < 12_000,
            "{} bytes of stderr",
            result.stderr.len()
        );
        assert!(result.messages().contains(more), "{}", result.stderr);
        assert!(result.messages().contains("1 | ..."), "{}", result.stderr);
    }
}

/// Issue 17 (6): the closest-anchor search is bounded; a 100,000-character
/// wrong anchor beside a 100,000-character heading is reported (the time
/// is checked by the benchmark, never by a test).
#[test]
fn a_huge_wrong_anchor_is_reported() {
    let heading = "a".repeat(100_000);
    let chapter = format!("# {heading}\n\n[x](#{}b)\n", "a".repeat(99_999));
    let dir = book_root(&[]);
    let result = run(&request(
        Shape::V05,
        dir.path(),
        json!({}),
        &[("A", "a.md", &chapter)],
    ));
    assert_eq!(result.code, 0);
    assert!(
        result.messages().contains("no heading"),
        "{}",
        result.stderr
    );
    assert!(result.stderr.len() < 6_000, "{} bytes", result.stderr.len());
}

/// Issue 17 (7): big people files load in one pass: many keys in a JSON
/// object, one group of many members, and a deep `parent` chain (rendered
/// without recursion). A test of the output only; the time is the
/// benchmark's.
#[test]
fn large_people_files_load_and_render() {
    let n = 20_000;
    let people: Vec<String> = (0..n)
        .map(|i| format!("\"p{i}\": {{\"url\": \"https://example.com/{i}\"}}"))
        .collect();
    let members: Vec<String> = (0..n).map(|i| format!("\"p{i}\"")).collect();
    let mut groups = vec![format!(
        "{{\"id\": \"g0\", \"members\": [{}]}}",
        members.join(", ")
    )];
    for i in 1..3_000 {
        groups.push(format!("{{\"id\": \"g{i}\", \"parent\": \"g{}\"}}", i - 1));
    }
    let json = format!(
        "{{\"people\": {{{}}}, \"groups\": [{}]}}",
        people.join(", "),
        groups.join(", ")
    );
    let dir = book_root(&[("people.json", &json)]);
    let result = run(&request(
        Shape::V05,
        dir.path(),
        json!({"preprocessor": {"community": {"people": "people.json"}}}),
        // `empty=`: the groups without members are shown too.
        &[(
            "A",
            "a.md",
            "# People\n\n{{#maintainers empty=\"None yet.\"}}\n",
        )],
    ));
    assert_eq!(result.code, 0, "{}", result.stderr);
    let out = &result.contents(Shape::V05)[0];
    assert!(out.contains("[p19999](https://example.com/19999)"));
    assert!(out.contains("###### g2999"));
    // A repeated key is still found, and reported where it is.
    let dup = format!("{{\"people\": {{{}, \"p7\": {{}}}}}}", people.join(", "));
    let dir = book_root(&[("people.json", &dup)]);
    let result = run(&request(
        Shape::V05,
        dir.path(),
        json!({"preprocessor": {"community": {"people": "people.json"}}}),
        &[("A", "a.md", "{{#person p1}}\n")],
    ));
    assert_eq!(result.code, 1);
    assert!(
        result.messages().contains("duplicate key `p7`"),
        "{}",
        result.stderr
    );
}

/// Issue 26 (7): data text in a human diagnostic cannot start a line or
/// reach the terminal as a control sequence: a quoted TOML key holding a
/// newline and a GitHub workflow command, an ESC sequence in a chapter, a
/// C1 control in a file name. Control characters show as pictures.
#[test]
fn control_characters_in_data_are_shown_not_obeyed() {
    let people =
        "[people.\"x\\n::error file=a.md::pwned\\u001b[2J\"]\n[people.\"::stop-commands::t\\r\"]\n";
    let chapter = "{{#person al\u{1b}[31mice}}\n\n[x](#\u{1b}]0;title\u{7})\n";
    let runs = [
        (
            people,
            "{{#maintainers}}\n",
            "x␊::error file=a.md::pwned␛[2J",
        ),
        (PEOPLE, chapter, "al␛[31mice"),
    ];
    for (people, chapter, shown) in runs {
        let dir = book_root(&[("maintainers.toml", people)]);
        let result = run(&request(
            Shape::V05,
            dir.path(),
            json!({}),
            &[("A", "a\u{9b}b.md", chapter)],
        ));
        assert_eq!(result.code, 1, "{}", result.stderr);
        let stderr = &result.stderr;
        for bad in ['\u{1b}', '\u{7}', '\u{9b}', '\r'] {
            assert!(!stderr.contains(bad), "{bad:?} in {stderr}");
        }
        for line in stderr.lines() {
            assert!(
                !line.starts_with("::"),
                "a workflow command: {line}\n{stderr}"
            );
        }
        assert!(stderr.contains(shown), "{stderr}");
    }
}

/// Issue 39 (4): CNCF's `.project/maintainers.yaml` with what its schema
/// and validator refuse, each a located error (a handle written with `@`,
/// which the validator strips, a located warning), never a panic; a file
/// over the one size limit is not read, and a 10 MiB one is read whole.
#[test]
fn cncf_maintainers_files_with_bad_input_are_located() {
    let team = |members: &str| {
        format!(
            "maintainers:\n  - project_id: demo\n    teams:\n      - name: project-maintainers\n        members: {members}\n"
        )
    };
    let ten_mib = format!(
        "{}maintainers: []\n",
        "#padding\n".repeat(10 * 1024 * 1024 / 9)
    );
    let cases: Vec<(&str, String, i32, &str, &str)> = vec![
        ("unknown key", "maintainers:\n  - project_id: demo\n    owner: x\n    teams: []\n".into(), 1,
            "unknown field `owner` in a maintainers entry (fields: project_id, org, teams)", ".project/maintainers.yaml:3:5"),
        ("unknown top key", "maintainer:\n  - project_id: demo\n".into(), 1,
            "unknown field `maintainer` in the file", ".project/maintainers.yaml:1:1"),
        ("tab", "maintainers:\n\t- project_id: demo\n".into(), 1,
            "is not valid YAML", ".project/maintainers.yaml:2:2"),
        ("managed", format!("{}        managed: false\n", team("[ada]")), 1,
            "unknown field `managed` in a team (fields: name, members)", ".project/maintainers.yaml:6:9"),
        ("duplicate team", format!("{}      - name: project-maintainers\n        members: [bob]\n", team("[ada]")), 1,
            "team `project-maintainers` is given twice (first on line 4)", ".project/maintainers.yaml:6:15"),
        ("duplicate handle", team("[ada, Bob, ADA]"), 1,
            "team `project-maintainers` lists `ADA` twice", ".project/maintainers.yaml:5:29"),
        ("handle with @", team("[\"@ada\"]"), 0,
            "handle `@ada` is written with `@`", ".project/maintainers.yaml:5:19"),
        ("empty handle", team("[ada, \" \"]"), 1,
            "handles[1] cannot be empty", ".project/maintainers.yaml:5:24"),
        ("not a login", team("[\"a b\"]"), 1,
            "`a b` is not a GitHub login", ".project/maintainers.yaml:5:19"),
        ("no project-maintainers", "maintainers:\n  - project_id: demo\n    teams:\n      - name: reviewers\n        members: [ada]\n".into(), 1,
            "team `project-maintainers` is required", ".project/maintainers.yaml:3:5"),
        ("empty project-maintainers", team("[]"), 1,
            "team `project-maintainers` cannot be empty", ".project/maintainers.yaml:4:15"),
        ("no project_id", "maintainers:\n  - teams:\n      - name: project-maintainers\n        members: [ada]\n".into(), 1,
            "`project_id` is required", ".project/maintainers.yaml:2:5"),
        ("empty file", String::new(), 1,
            "is empty: the schema requires a `maintainers` list", ".project/maintainers.yaml:1:1"),
        ("10 MiB", ten_mib, 1, "`maintainers` has no entries", ".project/maintainers.yaml:1165085:1"),
    ];
    let mut failures = Vec::new();
    for (name, text, code, message, location) in &cases {
        let dir = book_root(&[(".project/maintainers.yaml", text.as_str())]);
        let config =
            json!({"preprocessor": {"community": {"people": ".project/maintainers.yaml"}}});
        let result = run(&request(
            Shape::V05,
            dir.path(),
            config,
            &[("A", "a.md", "{{#maintainers project-maintainers}}\n")],
        ));
        let messages = result.messages();
        let located =
            (messages.lines()).any(|l| l.trim_start().starts_with("-->") && l.ends_with(location));
        if result.code != *code
            || !messages.contains(message)
            || !located
            || messages.contains("panicked")
        {
            failures.push(format!("{name}: exit {}\n{}", result.code, result.stderr));
        }
    }
    // Over the size limit: not read.
    let dir = book_root(&[]);
    std::fs::create_dir_all(dir.path().join(".project")).expect("mkdir");
    let big = std::fs::File::create(dir.path().join(".project/maintainers.yaml")).expect("create");
    big.set_len(17 * 1024 * 1024).expect("a sparse file");
    let config = json!({"preprocessor": {"community": {"people": ".project/maintainers.yaml"}}});
    let result = run(&request(
        Shape::V05,
        dir.path(),
        config,
        &[("A", "a.md", "{{#maintainers x}}\n")],
    ));
    if result.code != 1
        || !result
            .messages()
            .contains("maintainers.yaml is 17825792 bytes, more than the 16 MiB")
    {
        failures.push(format!("17 MiB: exit {}\n{}", result.code, result.stderr));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

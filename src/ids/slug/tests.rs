use super::*;

const V05: IdRules = IdRules::MdBook(Generation::V05);
const V04: IdRules = IdRules::MdBook(Generation::V04);

fn allocate(rules: IdRules, texts: &[&str]) -> Vec<String> {
    let mut ids = IdAllocator::new(rules);
    texts.iter().map(|t| ids.id_for(t)).collect()
}

/// (heading text as the renderer sees it, mdBook 0.5.4 id, mdBook 0.4.52
/// id): ids read from books built with both mdBooks (see the tests of
/// `crate::headings`); the texts are what those headings render to.
const MDBOOK: &[(&str, &str, &str)] = &[
    (
        "Punctuation: a, b; c! (d) [e] {f}?",
        "punctuation-a-b-c-d-e-f",
        "punctuation-a-b-c-d-e-f",
    ),
    (
        "code span and --flag",
        "code-span-and---flag",
        "code-span-and---flag",
    ),
    ("Über", "über", "Über"),
    ("中文", "中文", "中文"),
    ("Ελληνικά", "ελληνικά", "Ελληνικά"),
    ("Émoji 🎉 party", "émoji--party", "Émoji--party"),
    ("❤\u{fe0f} Love", "-love", "-love"),
    ("🎉", "", ""),
    (
        "“Smart” ‘quotes’ – dash — em… it’s",
        "smart-quotes--dash--em-its",
        "smart-quotes--dash--em-its",
    ),
    (
        "\"Smart\" 'quotes' -- dash --- em... it's",
        "smart-quotes----dash-----em-its",
        "smart-quotes----dash-----em-its",
    ),
    ("# Hash start", "-hash-start", "hash-start"),
    ("## Escaped hashes", "-escaped-hashes", "escaped-hashes"),
    ("& Ampersand start", "-ampersand-start", "ampersand-start"),
    ("<T> generic", "t-generic", "t-generic"),
    ("A & B \"q\" 's'", "a--b-q-s", "a--b-q-s"),
    (
        "Literal &amp; entity text",
        "literal-amp-entity-text",
        "literal-amp-entity-text",
    ),
    ("İstanbul", "istanbul", "İstanbul"),
    ("ÄÖÜ ß ǅ", "äöü-ß-ǆ", "ÄÖÜ-ß-ǅ"),
    ("Tab\tin\theading", "tab-in-heading", "tab-in-heading"),
    (
        "Non\u{a0}breaking space",
        "non-breaking-space",
        "non-breaking-space",
    ),
    (
        "½ and ² and ① and Ⅻ",
        "½-and-²-and-①-and-ⅻ",
        "½-and-²-and-①-and-Ⅻ",
    ),
    ("Ⓐ circled", "ⓐ-circled", "Ⓐ-circled"),
    ("Devanagari हिन्दी", "devanagari-हिनदी", "devanagari-हिनदी"),
    (
        "He\u{301}llo combining",
        "hello-combining",
        "hello-combining",
    ),
    (
        "Zero\u{200b}width joiner 👨\u{200d}👩\u{200d}👧",
        "zerowidth-joiner-",
        "zerowidth-joiner-",
    ),
    ("a < b > c", "a--b--c", "a--b--c"),
    ("Foo_bar-baz", "foo_bar-baz", "foo_bar-baz"),
];

#[test]
fn mdbook_base_ids() {
    for &(text, v05, v04) in MDBOOK {
        assert_eq!(base_id(V05, text), v05, "0.5: {text:?}");
        assert_eq!(base_id(V04, text), v04, "0.4: {text:?}");
    }
    // What the 0.5 tree sees for a heading with an image first: the text
    // after it, with its leading space (trimmed away).
    assert_eq!(base_id(V05, " Image heading"), "image-heading");
    assert_eq!(base_id(V04, " Image heading"), "image-heading");
    // A soft break inside a setext heading (0.5 only; 0.4 gives no id).
    assert_eq!(base_id(V05, "Setext\nheading"), "setext-heading");
}

#[test]
fn mdbook04_works_on_html() {
    // The inner HTML mdBook 0.4.52 captured for headings of the test book.
    let cases = [
        (
            "<code>code span</code> and <code>--flag</code>",
            "code-span-and---flag",
        ),
        ("&lt;T&gt; generic", "t-generic"),
        ("&amp; Ampersand start", "ampersand-start"),
        ("Literal &amp;amp; entity text", "literal-amp-entity-text"),
        (
            "<img src=\"img.png\" alt=\"an image\" /> Image heading",
            "image-heading",
        ),
        ("<span title=\"a>b\">Tricky</span> attr", "btricky-attr"),
        (
            "Footnote<sup class=\"footnote-reference\" id=\"fr-1-1\"><a href=\"#footnote-1\">1</a></sup>",
            "footnote1",
        ),
        ("Comment <!-- hidden --> here", "comment--here"),
    ];
    for (html, id) in cases {
        assert_eq!(mdbook04_id_from_html(html), id, "{html:?}");
    }
    // The regex `<.*?>`: a `<` without a `>` on the same line is no tag.
    let cases = [("a <b\nc> d", "a-b-c-d"), ("x <y>z", "x-z"), ("<<a>>", "")];
    for (html, id) in cases {
        assert_eq!(mdbook04_id_from_html(html), id, "{html:?}");
    }
}

#[test]
fn mdbook05_duplicates() {
    // mdBook 0.5.4: setup, setup-1, setup-1-1, setup-2; then an empty id
    // twice: "" and "-1".
    let ids = allocate(V05, &["Setup", "Setup", "Setup 1", "Setup", "🎉", ""]);
    assert_eq!(ids, ["setup", "setup-1", "setup-1-1", "setup-2", "", "-1"]);
}

#[test]
fn mdbook04_duplicates() {
    // mdBook 0.4.52: a counter per base id, so `Setup 1` collides.
    let ids = allocate(V04, &["Setup", "Setup", "Setup 1", "Setup", "🎉", ""]);
    assert_eq!(ids, ["setup", "setup-1", "setup-1", "setup-2", "", "-1"]);
}

/// Texts and ids from github-slugger 2.0.0 (npm), run on the same inputs.
#[test]
fn github_slugs() {
    let cases = [
        (
            "Punctuation: a, b; c! (d) [e] {f}?",
            "punctuation-a-b-c-d-e-f",
        ),
        ("code span and --flag", "code-span-and---flag"),
        ("Über", "über"),
        ("中文", "中文"),
        ("Ελληνικά", "ελληνικά"),
        ("Émoji 🎉 party", "émoji--party"),
        // The variation selector is a mark: github-slugger keeps it.
        ("❤\u{fe0f} Love", "\u{fe0f}-love"),
        (" Image heading", "-image-heading"),
        ("Text  after", "text--after"),
        ("Custom heading {#custom}", "custom-heading-custom"),
        ("# Hash start", "-hash-start"),
        ("A & B \"q\" 's'", "a--b-q-s"),
        ("İstanbul", "i\u{307}stanbul"),
        ("ÄÖÜ ß ǅ", "äöü-ß-ǆ"),
        ("Tab\tin\theading", "tabinheading"),
        ("Non\u{a0}breaking space", "nonbreaking-space"),
        ("½ and ² and ① and Ⅻ", "-and--and--and-ⅻ"),
        ("Ⓐ circled", "ⓐ-circled"),
        ("Devanagari हिन्दी", "devanagari-हिन्दी"),
        ("He\u{301}llo combining", "he\u{301}llo-combining"),
        (
            "Zero\u{200b}width joiner 👨\u{200d}👩\u{200d}👧",
            "zerowidth-joiner-",
        ),
        (
            "“Smart” ‘quotes’ – dash — em… it’s",
            "smart-quotes--dash--em-its",
        ),
        ("Setext\nheading", "setextheading"),
        ("a‿b", "a‿b"),
        ("x\u{3000}y", "xy"),
        ("日本語、テスト。", "日本語テスト"),
        ("١٢٣ arabic digits", "١٢٣-arabic-digits"),
        ("Ａｂｃ fullwidth", "ａｂｃ-fullwidth"),
    ];
    for (text, id) in cases {
        assert_eq!(base_id(IdRules::GitHub, text), id, "{text:?}");
    }
}

#[test]
fn github_duplicates() {
    // github-slugger 2.0.0: a generated `-1` that is taken counts on.
    let ids = allocate(
        IdRules::GitHub,
        &["Setup", "Setup", "Setup 1", "Setup", "setup-1", "", ""],
    );
    assert_eq!(
        ids,
        [
            "setup",
            "setup-1",
            "setup-1-1",
            "setup-2",
            "setup-1-2",
            "",
            "-1"
        ]
    );
    let mut ids = IdAllocator::new(IdRules::GitHub);
    assert_eq!(ids.next("foxtrot-1"), "foxtrot-1");
    assert_eq!(ids.next("foxtrot"), "foxtrot");
    assert_eq!(ids.next("foxtrot"), "foxtrot-2");
}

#[test]
fn github_character_classes() {
    // One sample per Unicode general category, kept or not as
    // github-slugger 2.0.0 does.
    let kept = [
        'a', 'Z', '7', '_', '-', ' ', 'é', 'ß', 'ǅ', 'ʰ', '中', 'ⅻ', '〇', '٣', '\u{301}',
        '\u{903}', '\u{20dd}', '\u{fe0f}', '‿', 'Ⓐ', 'ª', 'µ', '𝐀',
    ];
    for c in kept {
        assert!(github_keeps(c), "{c:?} U+{:04X}", c as u32);
    }
    let removed = [
        '!',
        '.',
        '~',
        '\t',
        '\u{7f}',
        '\u{a0}',
        '¿',
        '×',
        '²',
        '½',
        '–',
        '—',
        '“',
        '»',
        '…',
        '€',
        '→',
        '∑',
        '①',
        '♥',
        '😀',
        '🎉',
        '\u{200b}',
        '\u{200d}',
        '\u{2028}',
        '\u{3000}',
        '、',
        '。',
        '「',
        '\u{e000}',
        '\u{f0000}',
        '\u{e0041}',
        '\u{1f3fb}',
    ];
    for c in removed {
        assert!(!github_keeps(c), "{c:?} U+{:04X}", c as u32);
    }
}

#[test]
fn github_table_is_sorted_and_disjoint() {
    for pair in GITHUB_REMOVED.windows(2) {
        assert!(pair[0].0 <= pair[0].1 && pair[0].1 < pair[1].0, "{pair:?}");
    }
}

#[test]
fn escaping_matches_pulldown_cmark() {
    let text = "a < b & \"c\" > 'd'";
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, pulldown_cmark::Parser::new(text));
    assert_eq!(html, format!("<p>{}</p>\n", escape_body_text(text)));
}

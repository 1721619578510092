use proptest::prelude::*;

use super::*;

/// `did_you_mean` as it was before the index (without its cap of 500
/// candidates, which no list here reaches): the reference of which inputs
/// get a suggestion at all from a small list.
fn before_the_index<'a>(input: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let wanted = comparable(input);
    let wanted_len = wanted.chars().count();
    let mut best: Option<(f64, &'a str)> = None;
    for &candidate in candidates {
        let folded = comparable(candidate);
        let len = folded.chars().count();
        if len.max(wanted_len) > 3 * len.min(wanted_len) + 2 {
            continue;
        }
        let score = strsim::jaro_winkler(&wanted, &folded);
        let close = score >= 0.8
            || len.abs_diff(wanted_len) <= 2
                && strsim::damerau_levenshtein(&wanted, &folded) <= 2
                && candidate.chars().count() > 2;
        if close && best.is_none_or(|(s, _)| score > s) {
            best = Some((score, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// The rule of the module, by comparing `input` with every candidate.
fn brute_force(input: &str, candidates: &[&str]) -> Option<usize> {
    let wanted = comparable(input);
    let wanted_len = wanted.chars().count();
    let folded: Vec<String> = candidates.iter().map(|c| comparable(c)).collect();
    let mut typo: Option<(usize, f64, usize)> = None;
    for (i, text) in folded.iter().enumerate() {
        let edits = strsim::damerau_levenshtein(&wanted, text);
        let similarity = strsim::jaro_winkler(&wanted, text);
        let accepted = candidates[i].chars().count() > 2 || similarity >= SIMILAR;
        if edits <= MAX_EDITS && accepted {
            let key = (edits, -similarity, i);
            if typo.is_none_or(|(e, s, first)| key < (e, -s, first)) {
                typo = Some((edits, similarity, i));
            }
        }
    }
    if let Some((_, _, i)) = typo {
        return Some(i);
    }
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by(|&a, &b| folded[a].cmp(&folded[b]).then(a.cmp(&b)));
    let at = folded.iter().filter(|t| **t < wanted).count();
    let start = at
        .saturating_sub(SIMILAR_POOL / 2)
        .min(order.len().saturating_sub(SIMILAR_POOL));
    let pool = &order[start..(start + SIMILAR_POOL).min(order.len())];
    let mut similar: Option<(f64, usize)> = None;
    for &i in pool {
        let len = folded[i].chars().count();
        let similarity = strsim::jaro_winkler(&wanted, &folded[i]);
        let plausible = len.max(wanted_len) <= 3 * len.min(wanted_len) + 2;
        if plausible
            && similarity >= SIMILAR
            && similar.is_none_or(|(s, first)| (-similarity, i) < (-s, first))
        {
            similar = Some((similarity, i));
        }
    }
    similar.map(|(_, i)| i)
}

fn logins(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("user{i:05}")).collect()
}

#[test]
fn the_closest_of_20000_logins() {
    let logins = logins(20_000);
    let index = Suggestions::new(logins.iter().map(String::as_str));
    let closest = index.closest("usex00000").map(|i| logins[i].as_str());
    assert_eq!(closest, Some("user00000"));
    assert_eq!(
        index.closest("USER19998x").map(|i| logins[i].as_str()),
        Some("user19998")
    );
    // Before the index, the first 500 logins of a near length were compared.
    let all = logins.iter().map(String::as_str);
    assert_eq!(did_you_mean("usex00000", all), Some("user00000"));
}

#[test]
fn edits_between_swapped_characters() {
    let chars = |s: &str| s.chars().collect::<Vec<_>>();
    let within = |a: &str, b: &str| distance::edits_within_reach(&chars(a), &chars(b));
    // Two characters swapped and one put between them: two edits (the
    // optimal string alignment distance says three).
    assert_eq!(within("ca", "abc"), Some(2));
    assert_eq!(within("abc", "ca"), Some(2));
    assert_eq!(within("xcay", "xabcy"), Some(2));
    assert_eq!(within("abcd", "badc"), Some(2));
    assert_eq!(within("abcd", "dcba"), None);
    assert_eq!(within("", "ab"), Some(2));
    assert_eq!(within("", "abc"), None);
}

#[test]
fn fewest_edits_then_most_similar_then_first() {
    // `abcdxy` is as similar to `abcd` as `abdc`, but two edits away.
    assert_eq!(did_you_mean("abcd", ["abcdxy", "abdc"]), Some("abdc"));
    // Equal texts once folded: the first.
    assert_eq!(did_you_mean("cor", ["Core", "core"]), Some("Core"));
    // One edit each: the most similar (the same start) wins.
    assert_eq!(
        did_you_mean("maintainer", ["xaintainer", "maintainers"]),
        Some("maintainers")
    );
    // No typo: a name that starts the same way.
    assert_eq!(
        did_you_mean("install", ["installation-guide", "usage"]),
        Some("installation-guide")
    );
}

#[test]
fn small_lists_keep_what_they_suggest() {
    let keys = [
        "people",
        "check-owners",
        "check-anchors",
        "on-error",
        "codeowners",
    ];
    for (input, expected) in [
        ("peple", Some("people")),
        ("check-anchor", Some("check-anchors")),
        ("on_error", Some("on-error")),
        ("CODEOWNERS", Some("codeowners")),
        ("zzz", None),
        ("", None),
    ] {
        assert_eq!(did_you_mean(input, keys), expected, "{input}");
        assert_eq!(before_the_index(input, &keys), expected, "{input}");
    }
}

#[test]
fn a_question_asked_again_is_remembered() {
    let logins = logins(1_000);
    let index = Suggestions::new(logins.iter().map(String::as_str));
    assert_eq!(index.closest("usex00042"), Some(42));
    let once = index.scored();
    assert_eq!(index.closest("USEX00042"), Some(42));
    assert_eq!(index.scored(), once);
}

/// The proof that a question costs a bounded number of comparisons, not
/// one per candidate: 8,000 questions against 8,000 logins compare each
/// with at most 5% of them (comparing with every login: 8,000 each). A
/// page's `heading-number-N` ids are in `ids::closest`'s tests.
#[test]
fn each_question_scores_a_bounded_number_of_candidates() {
    let logins = logins(8_000);
    let index = Suggestions::new(logins.iter().map(String::as_str));
    for i in 0..8_000 {
        assert_eq!(index.closest(&format!("usex{i:05}")), Some(i));
    }
    let typos = index.scored();
    assert!(typos <= 8_000 * 400, "typos: {typos}");
    for i in 0..8_000 {
        index.closest(&format!("stranger-{i}"));
    }
    let strangers = index.scored() - typos;
    // No typo: only the input's neighbours in sorted order are compared.
    assert!(strangers <= 8_000 * SIMILAR_POOL, "strangers: {strangers}");
}

fn names() -> impl Strategy<Value = String> {
    // A small alphabet, so that typos are frequent; `ß` and `É` fold to
    // other lengths and cases; up to 14 characters, past `KEY_CHARS`.
    "[abcßÉé-]{0,14}"
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The distance without allocations is strsim's.
    #[test]
    fn distances_are_strsims(a in "[abcé]{0,12}", b in "[abcé]{0,12}") {
        let expected = strsim::damerau_levenshtein(&a, &b);
        let (a_chars, b_chars): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        let within = (expected <= MAX_EDITS).then_some(expected);
        prop_assert_eq!(distance::edits_within_reach(&a_chars, &b_chars), within);
        // The very same value, not a close one.
        let similarity = distance::jaro_winkler(&a_chars, &b_chars);
        prop_assert_eq!(similarity.to_bits(), strsim::jaro_winkler(&a, &b).to_bits());
    }

    /// The index finds what comparing with every candidate finds.
    #[test]
    fn the_index_answers_as_brute_force(
        candidates in prop::collection::vec(names(), 0..40),
        input in names(),
    ) {
        let candidates: Vec<&str> = candidates.iter().map(String::as_str).collect();
        let expected = brute_force(&input, &candidates);
        let indexed = Suggestions::build(candidates.iter().copied(), 0);
        prop_assert_eq!(indexed.closest(&input), expected);
        let linear = Suggestions::build(candidates.iter().copied(), usize::MAX);
        prop_assert_eq!(linear.closest(&input), expected);
        // A small list suggests something exactly when it did before.
        let before = before_the_index(&input, &candidates);
        prop_assert_eq!(before.is_some(), expected.is_some());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Past `SIMILAR_POOL` candidates, similar names are looked for among
    /// the input's neighbours, by both paths alike.
    #[test]
    fn large_sets_answer_as_brute_force(
        candidates in prop::collection::vec(names(), 60..160),
        input in names(),
    ) {
        let candidates: Vec<&str> = candidates.iter().map(String::as_str).collect();
        let expected = brute_force(&input, &candidates);
        prop_assert_eq!(Suggestions::new(candidates.iter().copied()).closest(&input), expected);
        let linear = Suggestions::build(candidates.iter().copied(), usize::MAX);
        prop_assert_eq!(linear.closest(&input), expected);
    }
}

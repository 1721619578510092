//! `{{#maintainers}}` and `{{#person}}`: what authors write and what
//! readers get, as snapshots of the generated Markdown and of the errors.

mod common;

use common::{errors_of, expand_one, run_in};
use insta::assert_snapshot;
use serde_json::json;

const DATA: &str = r#"
[people.apaszke]
name = "Adam Paszke"

[people.soumith]
name = "Soumith Chintala"
affiliation = "Meta"
avatar = "https://avatars.githubusercontent.com/u/1310570"

[people.colesbury]
name = "Sam Gross"

[people.ezyang]
name = "Edward Yang"

[people.dzhulgakov]
name = "Dmytro Dzhulgakov"

[people.nogh]
name = "Nobody On GitHub"
github = false

[[groups]]
id = "core"
title = "Core Maintainers"
description = "The *final* say; see [the process](governance.md#decisions)."
members = ["soumith", { handle = "ezyang", role = "lead" }, { handle = "dzhulgakov", status = "emeritus" }]

[[groups]]
id = "nn"
title = "NN APIs (torch.nn)"
parent = "core"
members = ["apaszke", { handle = "colesbury", status = "sunsetting" }, { handle = "soumith", status = "emeritus" }, "nogh"]
"#;

fn expand(chapter: &str) -> String {
    expand_one(&[("maintainers.toml", DATA)], chapter)
}

#[test]
fn list_is_the_default() {
    assert_snapshot!(expand("{{#maintainers nn}}\n"), @r"
    - Adam Paszke ([apaszke](https://github.com/apaszke))
    - (sunsetting) Sam Gross ([colesbury](https://github.com/colesbury))
    - (emeritus) Soumith Chintala ([soumith](https://github.com/soumith))
    - Nobody On GitHub
    ");
}

#[test]
fn roles_follow_the_name() {
    assert_snapshot!(expand("{{#maintainers core style=list}}\n"), @r"
    - Soumith Chintala ([soumith](https://github.com/soumith))
    - Edward Yang, lead ([ezyang](https://github.com/ezyang))
    - (emeritus) Dmytro Dzhulgakov ([dzhulgakov](https://github.com/dzhulgakov))
    ");
}

#[test]
fn table_with_affiliation_and_avatars() {
    assert_snapshot!(expand("{{#maintainers core style=table}}\n"));
}

#[test]
fn inline_in_prose() {
    assert_snapshot!(
        expand("The NN maintainers are {{#maintainers nn style=inline hide=emeritus,sunsetting}}.\n"),
        @"The NN maintainers are Adam Paszke ([apaszke](https://github.com/apaszke)) and Nobody On GitHub."
    );
}

/// `only=` lists the members who have the status; when they all have the
/// one, no `(emeritus)` before each (issue 27, 10).
#[test]
fn only_filters_by_status() {
    assert_snapshot!(expand("{{#maintainers nn only=emeritus}}\n"), @"- Soumith Chintala ([soumith](https://github.com/soumith))");
    assert_snapshot!(
        expand("{{#maintainers nn only=emeritus,sunsetting}}\n"),
        @r"
    - (sunsetting) Sam Gross ([colesbury](https://github.com/colesbury))
    - (emeritus) Soumith Chintala ([soumith](https://github.com/soumith))
    "
    );
}

#[test]
fn hierarchy_starts_below_the_enclosing_heading() {
    assert_snapshot!(expand(
        "# Persons of Interest\n\n## Maintainers\n\n{{#maintainers hide=emeritus}}\n\n## After\n"
    ));
}

#[test]
fn person_inline() {
    assert_snapshot!(
        expand("Ask {{#person ezyang}} or {{#person nogh}}.\n"),
        @"Ask Edward Yang ([ezyang](https://github.com/ezyang)) or Nobody On GitHub."
    );
}

#[test]
fn inside_list_items_and_quotes() {
    assert_snapshot!(expand("1. Core:\n\n   {{#maintainers core hide=emeritus}}\n\n> {{#maintainers nn only=sunsetting}}\n"), @r"
    1. Core:

       - Soumith Chintala ([soumith](https://github.com/soumith))
       - Edward Yang, lead ([ezyang](https://github.com/ezyang))

    > - Sam Gross ([colesbury](https://github.com/colesbury))
    ");
}

#[test]
fn crlf_chapters_stay_crlf() {
    let out = expand("# T\r\n\r\n{{#maintainers core}}\r\n");
    assert!(
        out.contains("- Soumith Chintala ([soumith](https://github.com/soumith))\r\n- Edward"),
        "{out:?}"
    );
    assert!(!out.replace("\r\n", "").contains('\n'), "{out:?}");
}

#[test]
fn data_is_text_never_markup() {
    let data = r#"
[people.evil]
name = "<script>alert(1)</script> *x* [y](javascript:z)"
affiliation = "<img src=x onerror=alert(1)>"
[[groups]]
id = "g"
title = "<b>Group</b> `code`"
description = "<script>bad()</script> [link](javascript:alert(1))"
members = [{ handle = "evil", role = "<i>r</i>", status = "**s**" }]
"#;
    let out = expand_one(
        &[("maintainers.toml", data)],
        "{{#maintainers}}\n\n{{#maintainers g style=table}}\n",
    );
    let mut html = String::new();
    pulldown_cmark::html::push_html(
        &mut html,
        pulldown_cmark::Parser::new_ext(&out, pulldown_cmark::Options::all()),
    );
    for forbidden in [
        "<script>",
        "<img src=x",
        "<b>",
        "<i>",
        "href=\"javascript",
        "<strong>s",
    ] {
        assert!(!html.contains(forbidden), "{forbidden} in {html}");
    }
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt; *x* [y](javascript:z)"),
        "{html}"
    );
}

#[test]
fn json_data_file() {
    let json = r#"{"people": {"a": {"name": "Ada"}}, "groups": [{"id": "g", "members": ["a"]}]}"#;
    let result = run_in(
        &[("people.json", json)],
        json!({"preprocessor": {"community": {"people": "people.json"}}}),
        &[("C", "c.md", "{{#maintainers g}}")],
    );
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert_eq!(
        result.contents(common::Shape::V05)[0],
        "- Ada ([a](https://github.com/a))"
    );
}

#[test]
fn books_without_people_directives_need_no_data_file() {
    assert_eq!(
        expand_one(&[], "# No data\n\n`{{#maintainers}}`\n"),
        "# No data\n\n`{{#maintainers}}`\n"
    );
}

#[test]
fn unknown_group_person_and_status() {
    assert_snapshot!(errors_of(
        &[("maintainers.toml", DATA)],
        "# T\n\n{{#maintainers cor}}\n\nAsk {{#person ezyng}}.\n\n{{#maintainers nn hide=emeritas style=tabel}}\n"
    ));
}

#[test]
fn block_output_in_running_text() {
    assert_snapshot!(errors_of(
        &[("maintainers.toml", DATA)],
        "Maintainers: {{#maintainers core}}\n"
    ));
}

#[test]
fn missing_data_file_names_the_path() {
    let err = errors_of(&[], "{{#person x}}\n");
    assert!(
        err.contains("no people data file: looked for <root>/maintainers.toml"),
        "{err}"
    );
    assert!(err.contains("src/chapter.md:1:4"), "{err}");
}

#[test]
fn data_file_errors_are_reported_once_with_their_lines() {
    let data = "[people.a]\nnmae = \"A\"\n\n[[groups]]\nid = \"g\"\nmembers = [\"a\", \"b\"]\nparent = \"nope\"\n";
    assert_snapshot!(errors_of(
        &[("maintainers.toml", data)],
        "{{#maintainers g}}\n\n{{#person a}}\n"
    ));
}

#[test]
fn description_links_are_relative_to_src_and_checked() {
    let data = "[people.a]\n[[groups]]\nid = \"g\"\ndescription = \"See [rules](guide/rules.md#voting), [bad](guide/rules.md#votin) and [here](#top).\"\nmembers = [\"a\"]\n";
    let dir = common::book_root(&[("maintainers.toml", data)]);
    let chapters = [
        ("Rules", "guide/rules.md", "# Rules\n\n## Voting\n"),
        ("People", "people/all.md", "# People\n\n{{#maintainers}}\n"),
    ];
    let result = common::run(&common::request(
        common::Shape::V05,
        dir.path(),
        json!({}),
        &chapters,
    ));
    assert_eq!(result.code, 0, "{}", result.stderr);
    let page = &result.contents(common::Shape::V05)[1];
    assert!(page.contains("[rules](../guide/rules.md#voting)"), "{page}");
    assert!(page.contains("[here](#top)"), "{page}");
    assert!(
        result.messages().contains("warning: broken link in the description of group `g` in `maintainers.toml`: no heading `#votin` in `guide/rules.md`"),
        "{}",
        result.stderr
    );
    assert!(
        result.messages().contains("did you mean `#voting`?"),
        "{}",
        result.stderr
    );
}

/// Runs `chapter` with [`DATA`] for `renderer`, returning the chapter.
fn expand_for(renderer: &str, chapter: &str) -> String {
    let dir = common::book_root(&[("maintainers.toml", DATA)]);
    let input = common::request(
        common::Shape::V05,
        dir.path(),
        json!({}),
        &[("Chapter", "chapter.md", chapter)],
    );
    let mut input: serde_json::Value = serde_json::from_str(&input).expect("JSON");
    input[0]["renderer"] = json!(renderer);
    let result = common::run(&input.to_string());
    assert_eq!(result.code, 0, "{renderer}: {}", result.stderr);
    result.contents(common::Shape::V05).remove(0)
}

/// A column is there only when a member shown has something in it.
#[test]
fn table_without_affiliations_has_no_affiliation_column() {
    let data = "[people.a]\nname = \"Ann\"\n\n[people.b]\nname = \"Bo\"\n\n[[groups]]\nid = \"g\"\nmembers = [\"a\", { handle = \"b\", role = \"lead\" }]\n";
    let out = expand_one(
        &[("maintainers.toml", data)],
        "{{#maintainers g style=table}}\n",
    );
    assert_eq!(
        out,
        "|Name|Handle|Role|\n|----|------|----|\n|Ann|[a](https://github.com/a)||\n|Bo|[b](https://github.com/b)|lead|\n"
    );
}

#[test]
fn avatars_are_raw_html_so_only_the_html_renderer_gets_them() {
    let avatar = "https://avatars.githubusercontent.com/u/1310570";
    // A group's table, and the tables of the whole hierarchy.
    for chapter in [
        "{{#maintainers core style=table}}\n",
        "{{#maintainers style=table}}\n",
    ] {
        let html = expand_for("html", chapter);
        assert!(
            html.contains(&format!(
                "<img class=\"community-avatar\" src=\"{avatar}\" alt=\"Soumith Chintala\""
            )),
            "{chapter}: {html}"
        );
        assert!(html.contains("|Avatar|Name|Handle|Role|Status|"), "{html}");
        for renderer in ["markdown", "epub", "pdf"] {
            let out = expand_for(renderer, chapter);
            assert!(
                !out.contains('<'),
                "{renderer}, {chapter}: raw HTML in {out}"
            );
            assert!(!out.contains(avatar), "{renderer}, {chapter}: {out}");
            assert!(
                out.contains("|Name|Handle|Role|Status|Affiliation|") && !out.contains("||Name|"),
                "{renderer}, {chapter}: an avatar column in {out}"
            );
            // The rest of the table is the same as for HTML.
            assert!(
                out.contains("|Soumith Chintala|[soumith](https://github.com/soumith)|||Meta|"),
                "{renderer}, {chapter}: {out}"
            );
        }
    }
}

/// Issue 27 (8): a status or a team's name where a group goes gets the
/// help that fixes it.
#[test]
fn a_status_or_a_team_for_a_group_gets_the_right_help() {
    let data = format!(
        "{DATA}\n[[groups]]\nid = \"infra\"\ntitle = \"Infra\"\ngithub-team = \"pytorch/infra-team\"\nmembers = [\"soumith\"]\n"
    );
    let files = [("maintainers.toml", data.as_str())];
    let stderr = errors_of(&files, "{{#maintainers emeritus}}\n");
    assert!(
        stderr.contains(
            "help: `emeritus` is a status, not a group: `{{#maintainers GROUP only=emeritus}}`"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("did you mean"), "{stderr}");
    let stderr = errors_of(&files, "{{#maintainers infra-team}}\n");
    assert!(
        stderr.contains("help: `infra-team` is a GitHub team; the group that claims it is `infra`: `{{#maintainers infra}}`"),
        "{stderr}"
    );
    let stderr = errors_of(&files, "{{#maintainers cor}}\n");
    assert!(stderr.contains("did you mean `core`?"), "{stderr}");
}

/// Issue 27 (11): an avatar column asked for has a header, and everyone a
/// picture: theirs, their GitHub one, or initials.
#[test]
fn an_avatar_column_falls_back_to_github_and_initials() {
    let html = expand_for(
        "html",
        "{{#maintainers nn style=table columns=avatar,name}}\n",
    );
    assert!(html.starts_with("|Avatar|Name|\n"), "{html}");
    assert!(
        html.contains("<img class=\"community-avatar\" src=\"https://github.com/apaszke.png\" alt=\"Adam Paszke\""),
        "{html}"
    );
    assert!(
        html.contains("<span class=\"community-initials\" title=\"Nobody On GitHub\">NG</span>"),
        "{html}"
    );
}

/// A group with no member (an empty OWNERS alias, say) and no description
/// is left out of `{{#maintainers}}`, its heading with it; `empty=` asks
/// for every group, with its text under the empty ones (issue 36, 2).
#[test]
fn groups_without_members_are_left_out_unless_asked_for() {
    let data = "[people.ada]\nname = \"Ada\"\n\n[[groups]]\nid = \"core\"\ntitle = \"Core\"\nmembers = [\"ada\"]\n\n[[groups]]\nid = \"empty-alias\"\ntitle = \"Empty alias\"\nmembers = []\n\n[[groups]]\nid = \"sig\"\ntitle = \"SIG\"\nmembers = []\n\n[[groups]]\nid = \"sig-leads\"\ntitle = \"SIG leads\"\nparent = \"sig\"\nmembers = [\"ada\"]\n";
    let files = [("maintainers.toml", data)];
    let out = expand_one(&files, "{{#maintainers}}\n");
    assert!(!out.contains("Empty alias"), "{out}");
    assert!(
        out.contains("## SIG\n") && out.contains("SIG leads"),
        "a parent of members stays: {out}"
    );
    let asked = expand_one(&files, "{{#maintainers empty=\"Nobody yet.\"}}\n");
    assert!(
        asked.contains("Empty alias") && asked.contains("Nobody yet."),
        "{asked}"
    );
}

//! The markup and the docs against the tables that declare charts, presets and tables once
//! (`panel::charts::CHARTS`, `scenario::presets::PRESETS`, `panel::TABLE_IDS`), so a new
//! entry cannot be forgotten in `www/index.html` or in a docs list: each missing piece fails
//! here with what to add, and what can be written from a table is (the chart figures, the
//! docs' preset lists). (The CLI's usage text, the browser fuzzer's preset list and
//! docs/embedding.md's chart list are generated from the tables, the last by `make snapshots`;
//! `crates/cli/tests/cli/snapshots.rs` prints every preset and chart.)
#![cfg(not(target_arch = "wasm32"))]

use scaling_core::i18n::{set_lang, Lang};
use scaling_core::panel::charts::{cli_choices, CHARTS};
use scaling_core::panel::TABLE_IDS;
use scaling_core::scenario::presets::PRESETS;
use scaling_core::scenario::View;

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The text of the element with `id` in `html` (up to the next tag), if there is one.
fn text_of<'a>(html: &'a str, id: &str) -> Option<&'a str> {
    let at = html.find(&format!("id=\"{id}\""))?;
    let rest = &html[at..];
    let start = rest.find('>')? + 1;
    let end = rest[start..].find('<')? + start;
    Some(&rest[start..end])
}

#[test]
fn every_chart_has_its_figure_in_the_page() {
    set_lang(Lang::En);
    let html = read("www/index.html");
    let mut missing = Vec::new();
    for spec in &CHARTS {
        let id = spec.id;
        for part in ["", "-canvas", "-readout", "-summary", "-name"] {
            if !html.contains(&format!("id=\"{id}{part}\"")) {
                missing.push(format!("#{id}{part}"));
            }
        }
        if !html.contains(&format!("data-i18n=\"chart-{id}\"")) {
            missing.push(format!("#{id}-name with data-i18n=\"chart-{id}\""));
        }
        // The markup's English name is the table's (the page writes the Chinese from it).
        if let Some(name) = text_of(&html, &format!("{id}-name")) {
            if name != (spec.name)() {
                missing.push(format!(
                    "#{id}-name reads “{name}”, the table “{}”",
                    (spec.name)()
                ));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "www/index.html lacks (or disagrees with panel::charts::CHARTS):\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_table_has_its_container_in_the_page() {
    let html = read("www/index.html");
    let missing: Vec<_> = TABLE_IDS
        .iter()
        .filter(|id| !html.contains(&format!("id=\"{id}-table\"")))
        .collect();
    assert!(
        missing.is_empty(),
        "www/index.html lacks #<id>-table for {missing:?}"
    );
}

const LIST_START: &str =
    "<!-- generated from the chart table (src/panel/charts.rs) by `make snapshots`; do not edit -->\n";
const LIST_END: &str = "<!-- end of generated list -->";

/// docs/embedding.md's list of each panel's `--chart` choices, as the chart table gives it.
fn chart_list() -> String {
    [View::Laws, View::Strong, View::Weak, View::Plan]
        .iter()
        .map(|&v| format!("- {}: `{}`\n", v.key(), cli_choices(v)))
        .collect()
}

#[test]
fn the_docs_list_every_chart() {
    // A generated block: `SNAPSHOTS=write` (make snapshots) rewrites it from the table, so a
    // new chart costs no hand edit here; otherwise it must match.
    let path = format!("{}/docs/embedding.md", env!("CARGO_MANIFEST_DIR"));
    let embedding = read("docs/embedding.md");
    let start = embedding
        .find(LIST_START)
        .expect("docs/embedding.md has the generated chart list's start marker")
        + LIST_START.len();
    let end = start
        + embedding[start..]
            .find(LIST_END)
            .expect("docs/embedding.md has the generated chart list's end marker");
    let expected = chart_list();
    if std::env::var("SNAPSHOTS").as_deref() == Ok("write") {
        let written = format!("{}{expected}{}", &embedding[..start], &embedding[end..]);
        std::fs::write(&path, written).unwrap();
        return;
    }
    assert_eq!(
        &embedding[start..end],
        expected,
        "docs/embedding.md's chart list differs from the chart table: run `make snapshots`"
    );
}

/// Writes the presets, in menu order, into cell `cell` (counted from the line's leading `|`)
/// of the `preset` key's row of `path`: the row is written from `PRESETS` as the marked parts
/// are (`ensure_generated`).
fn ensure_preset_row(path: &str, cell: usize) {
    let doc = read(path);
    let names: Vec<String> = PRESETS.iter().map(|p| format!("`{}`", p.name)).collect();
    let generated: String = doc
        .split_inclusive('\n')
        .map(|line| {
            if !line.starts_with("| `preset` |") {
                return line.to_string();
            }
            let mut cells: Vec<String> = line.split('|').map(str::to_string).collect();
            assert!(
                cells.len() > cell + 1,
                "{path}: the `preset` row has its cells"
            );
            cells[cell] = format!(" {} ", names.join(", "));
            cells.join("|")
        })
        .collect();
    assert!(
        doc.lines().any(|l| l.starts_with("| `preset` |")),
        "{path} has the `preset` key's row"
    );
    ensure_generated(path, &generated);
}

#[test]
fn the_docs_list_every_preset() {
    // The `preset` key's row names every preset, in menu order.
    ensure_preset_row("docs/url.md", 4);
    let url = read("docs/url.md");
    // The presets section has a row per preset saying which panel it opens on.
    let section = url
        .split("## Presets")
        .nth(1)
        .expect("docs/url.md has a Presets section");
    for spec in &PRESETS {
        let row = section.lines().find(|l| {
            l.starts_with('|')
                && l.split('|')
                    .nth(1)
                    .is_some_and(|c| c.contains(&format!("`{}`", spec.name)))
        });
        let Some(row) = row else {
            panic!("docs/url.md's Presets table has no row for `{}`", spec.name);
        };
        let view = row.split('|').nth(2).unwrap_or("").trim();
        assert_eq!(
            view,
            format!("`{}`", spec.view.key()),
            "docs/url.md: the panel `{}` opens on",
            spec.name
        );
    }
}

#[test]
fn the_embedding_guide_lists_every_preset() {
    // docs/embedding.md's `preset` row: every preset, in menu order.
    ensure_preset_row("docs/embedding.md", 2);
}

#[test]
fn the_docs_count_the_exercises() {
    use scaling_core::panel::exercise::EXERCISES;
    let want = EXERCISES.len().to_string();
    for path in ["README.md", "docs/url.md"] {
        let text = read(path).split_whitespace().collect::<Vec<_>>().join(" ");
        let at = text
            .find(" predict-then-reveal exercises")
            .unwrap_or_else(|| panic!("{path} counts the Learn view's exercises"));
        let count = text[..at].rsplit(' ').next().unwrap_or("");
        assert_eq!(count, want, "{path}: the Learn view's exercises");
    }
}

/// The attribute `name` of the first tag in `html` whose id is `id`.
fn attr_of(html: &str, id: &str, name: &str) -> Option<String> {
    let at = html.find(&format!("id=\"{id}\""))?;
    let start = html[..at].rfind('<')?;
    let tag = &html[start..start + html[start..].find('>')?];
    let key = format!(" {name}=\"");
    let from = tag.find(&key)? + key.len();
    Some(tag[from..from + tag[from..].find('"')?].to_string())
}

/// Each input the scenario parses has its control in the page under the key's URL name, as
/// the glue binds them by id: `<key>-input` with a translated label (`data-i18n="label-<key>"`,
/// its Chinese from the key's row) and `<key>-msg` for its message. The display keys, `pin` and `q` come
/// from the link and the toolbar, not a control; the levers (`lv`) are one checkbox each in
/// `lv-fieldset`; the measured values' kind (`mk`) is a menu that cannot be wrong, so it has
/// no message.
#[test]
fn every_input_has_its_control_in_the_page() {
    use scaling_core::scenario::{Group, Key};
    let html = read("www/index.html");
    let mut checked = 0;
    for &key in Key::ALL {
        if matches!(key.group(), Group::Display | Group::Pin | Group::Learn) {
            continue;
        }
        let name = key.name();
        if key == Key::Levers {
            assert!(html.contains("id=\"lv-fieldset\""), "the levers' fieldset");
            continue;
        }
        assert!(
            html.contains(&format!("id=\"{name}-input\"")),
            "#{name}-input"
        );
        let label = format!("label-{name}");
        assert!(
            html.contains(&format!("data-i18n=\"{label}\"")),
            "{name}: a label with data-i18n=\"{label}\""
        );
        assert!(
            scaling_core::scenario::page_zh(&label).is_some(),
            "{name}: {label} has Chinese (its row of the key table)"
        );
        if key != Key::MeasuredKind {
            assert!(html.contains(&format!("id=\"{name}-msg\"")), "#{name}-msg");
        }
        checked += 1;
    }
    assert!(checked > 50, "{checked} inputs checked");
}

/// A slider's ends are declared in `controls::SLIDERS`; the glue sets them on its
/// `<input type="range">`, and the markup writes them again for the page before its script
/// runs. Where the markup writes them they agree with the table, and every range in the page
/// is a slider of the table.
#[test]
fn every_slider_in_the_page_matches_the_slider_table() {
    use scaling_core::controls::SLIDERS;
    let html = read("www/index.html");
    let mut written = 0;
    for s in SLIDERS {
        let id = format!("{}-range", s.key.name());
        assert!(html.contains(&format!("id=\"{id}\"")), "#{id}");
        for (attr, position) in [("min", s.min_position), ("max", s.max_position)] {
            if let Some(text) = attr_of(&html, &id, attr) {
                assert_eq!(text, position.to_string(), "#{id} {attr}");
                written += 1;
            }
        }
    }
    assert!(written >= 2 * (SLIDERS.len() - 1), "{written} ends written");
    let ranges = html.matches("type=\"range\"").count();
    assert_eq!(ranges, SLIDERS.len(), "ranges in the page against SLIDERS");
}

/// `path`'s text is `generated`; if not, the file is rewritten and the test fails, so that a
/// run after a change to the key table updates the files it shows (then review and commit).
fn ensure_generated(path: &str, generated: &str) {
    if read(path) == generated {
        return;
    }
    std::fs::write(format!("{}/{path}", env!("CARGO_MANIFEST_DIR")), generated)
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    panic!(
        "{path} did not show its table (src/scenario/key.rs, src/scenario/machines.rs, \
         src/panel/charts.rs, src/scenario/presets.rs): it has been rewritten from it; review \
         the change, commit it and run the tests again"
    );
}

/// Each input is declared once, in its row of the key table; the page's controls and
/// docs/url.md's key tables are written from it, and the page's chart figures from the chart
/// table.
#[test]
fn the_page_and_the_url_docs_show_the_key_table() {
    use scaling_core::panel::inputs::{index_html, index_html_charts, url_md};
    let html = read("www/index.html");
    let html = index_html(&html).expect("www/index.html's markers");
    ensure_generated(
        "www/index.html",
        &index_html_charts(&html).expect("www/index.html's chart markers"),
    );
    let doc = read("docs/url.md");
    ensure_generated("docs/url.md", &url_md(&doc).expect("docs/url.md's markers"));
    ensure_generated("docs/keys.json", &scaling_core::panel::inputs::keys_json());
}

/// docs/machines.md's table and sources are written from the machine table
/// (`scenario::machines::MACHINES`), as `scaling machines --format md` prints them, and the
/// layout search's chapter shows the published runs per machine as `scaling layouts
/// --published` computes them.
#[test]
fn the_docs_show_the_machine_tables() {
    use scaling_core::panel::inputs::doc_tables;
    for path in ["docs/machines.md", "docs/model/14-layout-search.md"] {
        let doc = read(path);
        ensure_generated(path, &doc_tables(&doc).expect("the doc's markers"));
    }
}

/// The Learn view's table of published runs (`d-published`) is the same rows in each file's
/// language, each with the link that opens its scenario.
#[test]
fn the_learn_view_shows_the_published_runs() {
    use scaling_core::i18n::{set_lang, Lang};
    use scaling_core::panel::inputs::doc_tables;
    for (path, lang) in [
        ("www/learn/en.html", Lang::En),
        ("www/learn/zh.html", Lang::Zh),
    ] {
        set_lang(lang);
        let doc = read(path);
        assert!(
            doc.contains("<!-- tables:learn-runs"),
            "{path}: no learn-runs marker"
        );
        ensure_generated(path, &doc_tables(&doc).expect("the Learn file's markers"));
    }
    set_lang(Lang::En);
}

/// Every input with a control of its own on the page is in one section of it, once, but a
/// menu drawn inside another input's help (`mk` in `m`'s); the rest (the display keys, `q`,
/// `pin`, `lv`, `lc`) have no control in the table and markup by hand.
#[test]
fn every_control_of_the_key_table_is_in_one_section() {
    use scaling_core::scenario::{Control, Key, SECTIONS};
    let placed: Vec<Key> = SECTIONS
        .iter()
        .flat_map(|(_, keys)| keys.iter().copied())
        .collect();
    let in_help: Vec<Key> = Key::ALL.iter().filter_map(|k| k.spec().in_help).collect();
    for &key in Key::ALL {
        let n = placed.iter().filter(|&&k| k == key).count();
        let expected = usize::from(key.spec().control != Control::None && !in_help.contains(&key));
        assert_eq!(n, expected, "{} in the page's sections", key.name());
        assert!(
            !key.spec().url.is_empty(),
            "{}: its docs/url.md row",
            key.name()
        );
    }
}

/// Each key's default in `docs/url.md` (its row of the key table) is the scenario's: the
/// value as the page writes it, or a word for an empty one.
#[test]
fn the_key_table_gives_each_default_as_the_scenario_writes_it() {
    use scaling_core::scenario::{Key, Scenario};
    let s = Scenario::default();
    for &key in Key::ALL {
        let cell = key.spec().url[1];
        let text = s.get_text(key);
        if text.is_empty() {
            let words = ["empty", "none", "browser", "system", "everything"];
            assert!(
                words.iter().any(|w| cell.starts_with(w)),
                "{}: default {cell:?} for an empty value",
                key.name()
            );
        } else {
            assert!(
                cell.starts_with(&format!("`{text}`")),
                "{}: default {cell:?}, the scenario writes {text:?}",
                key.name()
            );
        }
    }
}

/// Every option of a menu in the key table is a value its key accepts and writes back as is
/// (in a scenario with a model's shape, which `lay=best` needs, and falling step times, which
/// `em=fit` needs).
#[test]
fn every_menu_option_is_a_value_its_key_takes() {
    use scaling_core::scenario::{decode, Control, Key};
    let base = decode("v=1&preset=llama31-405b-h100&st=8192:600,16384:320").scenario;
    let mut checked = 0;
    for &key in Key::ALL {
        let Control::Select(options) = key.spec().control else {
            continue;
        };
        for (value, _, _) in options {
            let mut s = base.clone();
            s.set(key, value)
                .unwrap_or_else(|e| panic!("{}={value}: {e}", key.name()));
            assert_eq!(s.get_text(key), *value, "{}", key.name());
            checked += 1;
        }
    }
    assert!(checked > 30, "{checked} options");
}

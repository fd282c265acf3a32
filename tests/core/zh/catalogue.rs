//! The page's Chinese comes from a catalogue that `scripts/zh-catalogue.mjs` extracts from the
//! sources (the WebAssembly bundle carries only English; see src/i18n.rs). These tests install
//! that catalogue natively and check that every text the page and the CLI show in Chinese —
//! tables, key figures, summaries, readouts, chart titles, legends and labels, lever names,
//! the `data-i18n` texts — reads the same through the catalogue as with the Chinese compiled in.
//! A translation the extractor cannot see would show up here as English in the catalogue run.

use crate::common;

use scaling_core::i18n::{self, force_catalogue, install_catalogue, set_lang, Lang, UI};
use scaling_core::panel::ChartId;
use scaling_core::scenario::{decode, Key, Preset};
use scaling_core::text::units::format_steps;
use std::process::Command;

/// What `node ARGS` prints, run in the repository (make bootstrap installs node).
pub(super) fn node(args: &[&str]) -> Vec<u8> {
    let out = Command::new("node")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("node runs (make bootstrap installs node)");
    assert!(
        out.status.success(),
        "node {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn catalogue() -> String {
    String::from_utf8(node(&["scripts/zh-catalogue.mjs", "--print"])).expect("UTF-8 catalogue")
}

/// Everything a reader sees for one scenario, in this thread's language: every text of every
/// panel (the shared panel checker's list) and the text elements of every chart's SVG.
pub(super) fn everything(query: &str) -> Vec<String> {
    let scenario = decode(query).scenario;
    let mut out = Vec::new();
    for panel in common::panels(&scenario) {
        out.extend(
            common::texts(&panel)
                .into_iter()
                .map(|(what, t)| format!("{what}: {t}")),
        );
        for chart in panel.charts() {
            if let Ok(svg) = common::draw_svg(&panel, chart) {
                // The SVG's text elements: titles, axis descriptions, legends, notes.
                out.extend(
                    svg.split("<text")
                        .skip(1)
                        .filter_map(|t| t.split_once('>').and_then(|(_, r)| r.split_once('<')))
                        .map(|(text, _)| text.to_string()),
                );
            }
        }
    }
    for gpus in [1.0, 1024.0, 4096.0, 16384.0] {
        out.push(format_steps(gpus));
    }
    out
}

/// Every preset's link.
pub(super) fn preset_queries() -> Vec<String> {
    Preset::ALL
        .iter()
        .map(|p| format!("v=1&preset={}", p.name()))
        .collect()
}

#[test]
fn the_catalogue_translates_everything_the_page_shows() {
    let text = catalogue();
    assert!(
        install_catalogue(&text) > 200,
        "catalogue too small:\n{text}"
    );
    set_lang(Lang::Zh);
    let mut queries = preset_queries();
    queries.push("v=1".to_string());
    queries.push("v=1&m=1:100,4:30,16:12&lv=fp8,zb,nvlink,ep,noreshard".to_string());
    queries.push("v=1&preset=seed-weak&mk=speedup&m=1:1,8:7.2,64:40".to_string());
    for q in &queries {
        force_catalogue(false);
        let compiled = everything(q);
        force_catalogue(true);
        let looked_up = everything(q);
        force_catalogue(false);
        for (a, b) in compiled.iter().zip(&looked_up) {
            assert_eq!(
                a, b,
                "{q}: the catalogue (scripts/zh-catalogue.mjs) misses a translation"
            );
        }
        assert!(
            compiled
                .iter()
                .any(|s| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))),
            "{q}: nothing Chinese rendered — is set_lang(Zh) in effect?"
        );
    }
    force_catalogue(true);
    for (key, zh) in UI {
        assert_eq!(i18n::ui_zh(key), Some(*zh), "data-i18n key {key}");
    }
    force_catalogue(false);
    // The inputs' texts, from the key table (scripts/zh-catalogue.mjs reads its rows).
    let html = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/www/index.html"))
        .expect("www/index.html");
    let mut inputs = 0;
    for key in html
        .split("data-i18n=\"")
        .skip(1)
        .filter_map(|r| r.split('"').next())
    {
        if UI.iter().any(|(k, _)| *k == key) || key.starts_with("chart-") {
            continue;
        }
        let compiled = scaling_core::scenario::page_zh(key);
        force_catalogue(true);
        assert_eq!(
            scaling_core::scenario::page_zh(key),
            compiled,
            "data-i18n key {key}"
        );
        force_catalogue(false);
        inputs += 1;
    }
    assert!(inputs > 100, "{inputs} texts of the inputs checked");
    // The charts' names (data-i18n="chart-<id>") come from the chart table.
    for chart in ChartId::ALL {
        let compiled = chart.name();
        force_catalogue(true);
        let looked_up = chart.name();
        force_catalogue(false);
        assert!(compiled
            .chars()
            .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)));
        assert_eq!(
            compiled,
            looked_up,
            "{}: name not in the catalogue",
            chart.id()
        );
    }
    set_lang(Lang::En);
}

#[test]
fn english_never_goes_through_the_catalogue() {
    install_catalogue("");
    set_lang(Lang::En);
    force_catalogue(true);
    let english = everything("v=1&preset=seed-strong");
    force_catalogue(false);
    assert_eq!(english, everything("v=1&preset=seed-strong"));
}

#[test]
fn catalogue_lines_unescape_and_a_bad_line_drops_the_catalogue() {
    let (one, four) = (i18n::key_hash("one"), i18n::key_hash("four"));
    let (low, high) = (one.min(four), one.max(four));
    let text_of = |key: u32| {
        if key == one {
            "一\\n二 \\\\ 三"
        } else {
            "四"
        }
    };
    // The first key in full, the second as its difference from the first.
    let text = format!(
        "{low:x}\t{}\n{:x}\t{}\n",
        text_of(low),
        high - low,
        text_of(high)
    );
    assert_eq!(install_catalogue(&text), 2);
    set_lang(Lang::Zh);
    force_catalogue(true);
    assert_eq!(i18n::tr("one", "?"), "一\n二 \\ 三");
    assert_eq!(i18n::tr("four", "?"), "四");
    assert_eq!(i18n::tr("missing", "?"), "missing");
    force_catalogue(false);
    // A line without hex, a difference of 0 or one past u32 drops everything: later keys
    // would be wrong.
    for bad in [
        format!("{low:x}\t一\nnot-hex\tx\n{:x}\t四\n", high - low),
        format!("{low:x}\t一\n0\t四\n"),
        format!("{low:x}\t一\nffffffff\t四\n"),
    ] {
        assert_eq!(install_catalogue(&bad), 0, "{bad}");
    }
    // FNV-1a test vectors (the extractor hashes the same way).
    assert_eq!(i18n::key_hash(""), 0x811c_9dc5);
    assert_eq!(i18n::key_hash("a"), 0xe40c_292c);
}

#[test]
fn every_data_i18n_text_of_the_page_has_its_chinese() {
    let html = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/www/index.html"))
        .expect("www/index.html");
    let missing: Vec<&str> = html
        .split("data-i18n=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|key| scaling_core::scenario::page_zh(key).is_none())
        // A chart's name is a row of the chart table (panel::charts::CHARTS).
        .filter(|key| {
            key.strip_prefix("chart-")
                .and_then(ChartId::from_id)
                .is_none()
        })
        .collect();
    assert!(
        missing.is_empty(),
        "data-i18n keys without Chinese in i18n::UI, the key table or the chart table: {missing:?}"
    );
}

#[test]
fn messages_about_bad_input_are_chinese_through_the_catalogue_too() {
    use scaling_core::scenario::{Key, Scenario};
    install_catalogue(&catalogue());
    set_lang(Lang::Zh);
    for forced in [false, true] {
        force_catalogue(forced);
        let mut s = Scenario::default();
        let e = s.set(Key::SerialFraction, "2").unwrap_err().to_string();
        assert!(e.contains("串行比例") && e.contains("超出"), "{e}");
        let e = s.set(Key::MaxProcessors, "3.5").unwrap_err().to_string();
        assert!(e.contains("不是整数"), "{e}");
        let e = s
            .set(Key::GlobalBatch, "12 apples")
            .unwrap_err()
            .to_string();
        assert!(e.contains("未知的单位后缀"), "{e}");
        let decoded = decode("v=7&preset=nope");
        let all: Vec<String> = decoded.errors.iter().map(|e| e.to_string()).collect();
        assert!(all.iter().any(|m| m.contains("链接版本")), "{all:?}");
        assert!(all.iter().any(|m| m.contains("不存在")), "{all:?}");
    }
    force_catalogue(false);
    set_lang(Lang::En);
    let e = Scenario::default()
        .set(Key::SerialFraction, "2")
        .unwrap_err()
        .to_string();
    assert!(e.contains("is outside 0 … 1"), "{e}");
}

/// Messages about a bad link name the input by its label (`label-<key>`); every URL key has
/// one in Chinese, also those without an input box (`lang`, `theme`, `view`, `embed`, `lv`).
#[test]
fn every_url_key_has_a_chinese_label() {
    let missing: Vec<&str> = Key::ALL
        .iter()
        .map(|k| k.name())
        .filter(|name| scaling_core::scenario::page_zh(&format!("label-{name}")).is_none())
        .collect();
    assert!(
        missing.is_empty(),
        "URL keys without a Chinese label in their row of the key table: {missing:?}"
    );
    set_lang(Lang::Zh);
    let message = decode("v=1&lang=zh&theme=purple").errors[0].to_string();
    assert!(message.starts_with("配色主题（theme）："), "{message}");
}

/// The preset menu and `scaling presets` describe each preset in the reader's language, and the
/// page (which looks the Chinese up in the catalogue) shows the same text as the CLI.
#[test]
fn preset_descriptions_and_sources_are_translated_through_the_catalogue() {
    install_catalogue(&catalogue());
    set_lang(Lang::Zh);
    for preset in Preset::ALL {
        let texts = |p: Preset| (p.description(), p.source());
        force_catalogue(false);
        let compiled = texts(preset);
        force_catalogue(true);
        let looked_up = texts(preset);
        force_catalogue(false);
        assert_eq!(
            compiled,
            looked_up,
            "{}: the catalogue misses a translation",
            preset.name()
        );
        let cjk = |s: &str| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        assert!(
            cjk(compiled.0),
            "{}: description {:?}",
            preset.name(),
            compiled.0
        );
        assert!(
            compiled.1.is_none_or(cjk),
            "{}: source {:?}",
            preset.name(),
            compiled.1
        );
    }
    set_lang(Lang::En);
    assert!(Preset::from_name("seed-strong")
        .unwrap()
        .description()
        .starts_with("The article's"));
}

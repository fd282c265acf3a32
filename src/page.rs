//! The page's state and its transitions, as plain structs with native tests: what happens
//! when a reader types into a box (accepted, or refused with a message while the last valid
//! value stays), picks a preset, and how often the address bar is rewritten. `crate::web`
//! only carries these decisions out in the DOM.

use crate::i18n::tr;
use crate::scenario::{decode, Decoded, Key, Preset, Scenario};

/// Minimum time between two `history.replaceState` calls (browsers throttle faster callers);
/// the last state is always written after the pause. (A drag's own frames write no address at
/// all: the whole frame after it does, `crates/web/src/offscreen.rs`.)
pub const URL_WRITE_INTERVAL_MS: f64 = 200.0;

/// What to do with the address bar after a change.
#[derive(Debug, Clone, PartialEq)]
pub enum UrlWrite {
    /// Write this query now.
    Now(String),
    /// Set a timer for `wait_ms`, then ask again (`from_timer = true`).
    Later { wait_ms: f64 },
    /// Nothing: the bar already shows it, or a timer is already set.
    Nothing,
}

/// The address-bar throttle: at most one write per [`URL_WRITE_INTERVAL_MS`], and the final
/// state always written.
#[derive(Debug, Clone, PartialEq)]
pub struct UrlThrottle {
    written: String,
    last_write_ms: f64,
    timer_pending: bool,
}

impl Default for UrlThrottle {
    fn default() -> Self {
        UrlThrottle {
            written: String::new(),
            last_write_ms: f64::NEG_INFINITY,
            timer_pending: false,
        }
    }
}

impl UrlThrottle {
    /// The scenario's query is `query` at `now_ms`; `from_timer` when the throttle's own
    /// timer fired.
    pub fn on_change(&mut self, query: &str, now_ms: f64, from_timer: bool) -> UrlWrite {
        if from_timer {
            self.timer_pending = false;
        }
        if query == self.written {
            return UrlWrite::Nothing;
        }
        let wait_ms = self.last_write_ms + URL_WRITE_INTERVAL_MS - now_ms;
        if wait_ms <= 0.0 {
            self.written = query.to_string();
            self.last_write_ms = now_ms;
            UrlWrite::Now(query.to_string())
        } else if self.timer_pending {
            UrlWrite::Nothing
        } else {
            self.timer_pending = true;
            UrlWrite::Later { wait_ms }
        }
    }
}

/// A reader's input was refused: the message to show next to it. The scenario kept its
/// last valid value, which the message names.
#[derive(Debug, Clone, PartialEq)]
pub struct Refused {
    pub key: Key,
    pub message: String,
}

/// Everything the page remembers about the reader's scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct PageState {
    pub scenario: Scenario,
    pub url: UrlThrottle,
}

impl PageState {
    pub fn new(scenario: Scenario) -> Self {
        PageState {
            scenario,
            url: UrlThrottle::default(),
        }
    }

    /// Text typed into the input of `key`: applied if valid, else refused with a message that
    /// names the input and the value still in force.
    pub fn apply_text(&mut self, key: Key, text: &str) -> Result<(), Refused> {
        self.scenario.set(key, text).map_err(|e| Refused {
            key,
            message: trf!(
                "{}; still using {}",
                "{}；仍使用 {}",
                e,
                self.scenario.get_text(key)
            ),
        })
    }

    /// The command that prints the visible panel of this scenario on the command line (the
    /// footer's hint): `scaling <panel> --query '<link>'`, the link without `view` (the command
    /// names the panel), `embed` or `show`. The query is percent-encoded (no `'`), so the quotes hold
    /// in a shell.
    /// With a pinned A: `--query '<A>' --compare '<B>'` (the CLI prints `--compare` against
    /// `--query`).
    pub fn cli_command(&self) -> String {
        let mut s = self.scenario.clone();
        s.embed = None;
        s.charts_only = false;
        s.view = s.base().view;
        let a = s.pinned.take().map(|a| a.to_query());
        let b = s.to_query();
        let (query, compare) = match &a {
            Some(a) => (a, format!(" --compare '{b}'")),
            None => (&b, String::new()),
        };
        format!(
            "scaling {} --query '{query}'{compare}",
            self.scenario.view.key()
        )
    }

    /// "Pin as A" (`true`): the scenario as it is now becomes A, which every later change is
    /// compared with; "Unpin A" (`false`) drops it.
    pub fn pin(&mut self, on: bool) {
        self.scenario.pinned = on.then(|| Box::new(self.scenario.as_pinned()));
    }

    /// The line under the toolbar while A is pinned: A's inputs that differ from the current
    /// ones, as `key=value`; empty when nothing is pinned.
    pub fn pin_status(&self) -> String {
        let Some(a) = &self.scenario.pinned else {
            return String::new();
        };
        let b = &self.scenario;
        let mut diff: Vec<String> = Vec::new();
        if a.preset != b.preset {
            diff.push(format!("preset={}", a.preset.map_or("", |p| p.name())));
        }
        for &k in Key::ALL {
            let t = a.get_text(k);
            if !k.is_display() && k != Key::Pin && t != b.get_text(k) {
                diff.push(format!("{}={t}", k.name()));
            }
        }
        let diff = if diff.is_empty() {
            tr("the same inputs", "输入相同").to_string()
        } else {
            diff.join("  ")
        };
        trf!("Comparing with A: {}", "正在与 A 对比：{}", diff)
    }

    /// The inputs a printed page names: the link's `key=value` pairs after `v=1` (the preset
    /// and the keys that differ from it), or "defaults".
    pub fn print_inputs(&self) -> String {
        match self.scenario.standalone_query().split_once('&') {
            Some((_, pairs)) => pairs.replace('&', "  "),
            None => tr("defaults", "默认值").to_string(),
        }
    }

    /// A preset chosen from the menu; anything else (the "(custom)" entry) keeps the values
    /// and forgets the preset as the link's base.
    /// A pinned A stays pinned, so presets can be compared.
    pub fn choose_preset(&mut self, name: &str) {
        if let Some(p) = Preset::from_name(name) {
            let a = self.scenario.pinned.take();
            self.scenario = p.scenario();
            self.scenario.pinned = a;
        } else {
            self.scenario.preset = None;
        }
    }
}

impl PageState {
    /// A link sent by a host page (`{type: "scaling:set", query}`): decoded with this frame's
    /// display keys (`embed`, `lang`, `theme`, and `view` unless the link names a panel) as the
    /// base, so a host that sends only model inputs keeps the panel and language its reader
    /// sees. The link's own keys win.
    pub fn host_query(&self, query: &str) -> Decoded {
        let query = query.split_once('?').map_or(query, |(_, q)| q);
        let names_panel = query
            .split('&')
            .any(|p| p.starts_with("view=") || p.starts_with("embed="));
        let mut base = Vec::new();
        for key in [Key::Embed, Key::Show, Key::Lang, Key::Theme] {
            let text = self.scenario.get_text(key);
            if !text.is_empty() {
                base.push(format!("{}={text}", key.name()));
            }
        }
        if !names_panel {
            base.push(format!("view={}", self.scenario.view.key()));
        }
        base.push(query.to_string());
        decode(&base.join("&"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_text_is_refused_and_the_last_value_stays() {
        let mut page = PageState::new(Scenario::default());
        assert_eq!(page.apply_text(Key::SerialFraction, "0.1"), Ok(()));
        let before = page.scenario.clone();
        let refused = page.apply_text(Key::SerialFraction, "abc").unwrap_err();
        assert_eq!(page.scenario, before);
        assert_eq!(refused.key, Key::SerialFraction);
        assert!(refused.message.contains("(f)"), "{}", refused.message);
        assert!(
            refused.message.ends_with("still using 0.1"),
            "{}",
            refused.message
        );
    }

    #[test]
    fn presets_replace_the_scenario_and_custom_keeps_it() {
        let mut page = PageState::new(Scenario::default());
        page.choose_preset("seed-weak");
        assert_eq!(
            page.scenario,
            Preset::from_name("seed-weak").unwrap().scenario()
        );
        let values = page.scenario.clone();
        page.choose_preset("");
        assert_eq!(page.scenario.preset, None);
        assert_eq!(page.scenario.llm, values.llm);
    }

    #[test]
    fn a_host_query_keeps_the_frames_panel_and_language_unless_it_names_them() {
        let page = PageState::new(decode("v=1&embed=strong&lang=zh&theme=dark").scenario);
        let d = page.host_query("v=1&preset=seed-weak&b=64M");
        assert!(d.errors.is_empty(), "{:?}", d.errors);
        assert_eq!(d.scenario.view, crate::scenario::View::Strong);
        assert_eq!(d.scenario.embed, Some(crate::scenario::View::Strong));
        assert_eq!(d.scenario.lang, Some(crate::i18n::Lang::Zh));
        assert_eq!(d.scenario.llm.global_batch_tokens, 64e6);
        assert_eq!(d.scenario.preset.map(|p| p.name()), Some("seed-weak"));
        let d = page.host_query("https://example.org/x?v=1&view=plan");
        assert_eq!(d.scenario.view, crate::scenario::View::Plan);
        let d = page.host_query("v=1&f=2");
        assert_eq!(d.errors.len(), 1, "a bad value is refused and named");
    }

    #[test]
    fn the_cli_command_names_the_panel_and_the_link_without_page_keys() {
        let command = |q: &str| PageState::new(decode(q).scenario).cli_command();
        assert_eq!(
            command("v=1&preset=seed-strong&view=strong"),
            "scaling strong --query 'v=1&preset=seed-strong'"
        );
        assert_eq!(command("v=1"), "scaling laws --query 'v=1'");
        assert_eq!(
            command("v=1&embed=plan&f=0.1&lang=zh"),
            "scaling plan --query 'v=1&lang=zh&f=0.1'"
        );
        // Pasted text (spaces, new lines) is written in its canonical form, one shell word.
        let c = command("v=1&m=1%20100%0A4%2030");
        assert_eq!(c, "scaling laws --query 'v=1&m=1:100,4:30'");
        // The command's query is the scenario: read back with its panel, nothing is lost.
        let page = PageState::new(decode("v=1&preset=seed-weak&view=plan&b=64M&lv=fp8").scenario);
        let c = page.cli_command();
        let query = c.split('\'').nth(1).unwrap();
        let mut back = decode(query).scenario;
        back.view = crate::scenario::View::Plan;
        assert_eq!(back, page.scenario);
    }

    #[test]
    fn pinning_keeps_the_scenario_as_a_and_unpinning_drops_it() {
        let mut page = PageState::new(decode("v=1&preset=seed-strong&lang=zh&theme=dark").scenario);
        assert_eq!(page.pin_status(), "");
        page.pin(true);
        assert_eq!(page.pin_status(), "Comparing with A: the same inputs");
        // BF16 against FP8 is one toggle after pinning.
        page.apply_text(Key::Levers, "fp8").unwrap();
        assert_eq!(page.pin_status(), "Comparing with A: lv=");
        assert_eq!(
            page.scenario.to_query(),
            "v=1&preset=seed-strong&lang=zh&theme=dark&lv=fp8&pin=v%3D1%26preset%3Dseed-strong"
        );
        assert_eq!(decode(&page.scenario.to_query()).scenario, page.scenario);
        assert_eq!(
            page.cli_command(),
            "scaling strong --query 'v=1&preset=seed-strong' --compare 'v=1&preset=seed-strong&lang=zh&theme=dark&lv=fp8'"
        );
        // Another preset keeps A; "Unpin A" drops it.
        page.choose_preset("dense-8b-h100");
        assert!(
            page.pin_status().contains("preset=seed-strong  "),
            "{}",
            page.pin_status()
        );
        page.pin(false);
        assert_eq!(page.scenario.pinned, None);
        assert_eq!(page.pin_status(), "");
        assert_eq!(
            page.cli_command(),
            "scaling strong --query 'v=1&preset=dense-8b-h100'"
        );
    }

    #[test]
    fn a_printout_names_the_links_inputs() {
        let inputs = |q: &str| PageState::new(decode(q).scenario).print_inputs();
        assert_eq!(inputs("v=1"), "defaults");
        assert_eq!(inputs("v=1&embed=weak"), "view=weak");
        assert_eq!(
            inputs("v=1&preset=seed-strong&view=plan&b=64M"),
            "preset=seed-strong  view=plan  b=64M"
        );
    }

    #[test]
    fn the_url_is_written_at_most_every_interval_and_always_last() {
        let mut url = UrlThrottle::default();
        assert_eq!(url.on_change("a", 0.0, false), UrlWrite::Now("a".into()));
        assert_eq!(url.on_change("a", 10.0, false), UrlWrite::Nothing);
        // A burst: the first change inside the interval sets one timer, later ones wait for it.
        assert_eq!(
            url.on_change("b", 50.0, false),
            UrlWrite::Later { wait_ms: 150.0 }
        );
        assert_eq!(url.on_change("c", 120.0, false), UrlWrite::Nothing);
        // The timer writes the latest state.
        assert_eq!(url.on_change("c", 200.0, true), UrlWrite::Now("c".into()));
        assert_eq!(url.on_change("c", 900.0, true), UrlWrite::Nothing);
        assert_eq!(url.on_change("d", 900.0, false), UrlWrite::Now("d".into()));
    }
}

//! The page's state and its transitions, as plain structs with native tests: what happens
//! when a reader types into a box (accepted, or refused with a message while the value from
//! before the edit stays), picks a preset, how often the address bar is rewritten, and what a
//! drag's frames leave for later ([`Drag`], [`Seen`]). The page's glue (`crates/web`) only
//! carries these decisions out in the DOM.

use crate::i18n::tr;
use crate::scenario::{decode, Decoded, Key, Preset, Scenario};

/// Minimum time between two `history.replaceState` calls (browsers throttle faster callers);
/// the last state is always written after the pause. (A drag's own frames write no address at
/// all: the whole frame after it does, [`Frame::writes_url`].)
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

/// A box's edit ends when the reader has not typed into it for this long: what it holds then
/// is the value a later refused text falls back to. Typing runs 100–300 ms a key; a reader who
/// stops to read the chart has finished that value.
pub const EDIT_PAUSE_MS: f64 = 800.0;

/// A reader's input was refused: the message to show next to it. The scenario is as it was
/// before the edit began ([`PageState::apply_text`]), which the message names.
#[derive(Debug, Clone, PartialEq)]
pub struct Refused {
    pub key: Key,
    pub message: String,
    /// The refused text undid a valid fragment typed earlier in the same edit (`1` of `150%`):
    /// the scenario changed back, and the page must redraw.
    pub restored: bool,
}

/// One box being typed into: the scenario before its first keystroke, and the last one's time.
#[derive(Debug, Clone, PartialEq)]
struct Edit {
    key: Key,
    before: Box<Scenario>,
    last_ms: f64,
}

/// Everything the page remembers about the reader's scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct PageState {
    pub scenario: Scenario,
    pub url: UrlThrottle,
    edit: Option<Edit>,
}

impl PageState {
    pub fn new(scenario: Scenario) -> Self {
        PageState {
            scenario,
            url: UrlThrottle::default(),
            edit: None,
        }
    }

    /// Text typed into the input of `key` at `now_ms`: applied if valid, else refused with a
    /// message that names the input and the value in force. A box's edit runs from its first
    /// keystroke until the reader pauses ([`EDIT_PAUSE_MS`]), presses Enter, leaves the box,
    /// moves a slider or types into another box ([`Self::end_edit`]). Each valid text applies
    /// at once (the chart follows the typing), but a refused one puts back the value from
    /// before the edit, never a fragment of the new one: `150%` typed into `f` passes through
    /// `1` (valid, 100%) and `15` (refused), and leaves `f` as it was, not at 100%.
    pub fn apply_text(&mut self, key: Key, text: &str, now_ms: f64) -> Result<(), Refused> {
        let continues = self
            .edit
            .as_ref()
            .is_some_and(|e| e.key == key && now_ms - e.last_ms < EDIT_PAUSE_MS);
        if !continues {
            self.edit = None;
        }
        let edit = self.edit.get_or_insert_with(|| Edit {
            key,
            before: Box::new(self.scenario.clone()),
            last_ms: now_ms,
        });
        edit.last_ms = now_ms;
        let previous = self.scenario.clone();
        match self.scenario.set(key, text) {
            Ok(()) => {
                // Typing `sq` after importing a config completes the shape: P follows it.
                self.scenario.follow_shape_params(&previous);
                Ok(())
            }
            Err(e) => {
                let restored = self.scenario != *edit.before;
                if restored {
                    self.scenario = (*edit.before).clone();
                }
                Err(Refused {
                    key,
                    message: trf!(
                        "{}; still using {}",
                        "{}；仍使用 {}",
                        e,
                        self.scenario.get_text(key)
                    ),
                    restored,
                })
            }
        }
    }

    /// The reader committed what the box holds (Enter, leaving it, a slider, a preset): a
    /// later refused text falls back to the scenario as it is now.
    pub fn end_edit(&mut self) {
        self.edit = None;
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
        self.end_edit();
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
                // An empty value says what it means ("lv=" would read as nothing).
                let shown = match (t.is_empty(), k) {
                    (false, _) => t,
                    (true, Key::Levers) => tr("(no levers)", "（未开启手段）").to_string(),
                    (true, _) => tr("(empty)", "（空）").to_string(),
                };
                diff.push(format!("{}={shown}", k.name()));
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
        self.end_edit();
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

/// How long the inputs must be still before the whole page is redrawn after a drag, ms: longer
/// than the gap between two events of a dragged slider, short enough to look immediate after it.
pub const IDLE_MS: f64 = 150.0;

/// What a frame draws and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Redraw {
    /// Everything of the visible panel: every chart at the size its canvas has now, every
    /// table, text and list.
    Whole,
    /// A drag's frame: only the charts, tables, texts and lists on screen, each canvas at the
    /// size the last whole frame read (so the frame reads no geometry); the rest waits for the
    /// whole frame that follows once the inputs are still.
    OnScreen,
}

/// The decisions of one frame ([`Drag::frame`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    pub redraw: Redraw,
    /// Whether the frame writes the address bar (through [`UrlThrottle`]). A drag's frames do
    /// not: a frame that calls `history.replaceState` costs noticeably more CPU, so the whole
    /// frame after the drag writes it.
    pub writes_url: bool,
    /// Set the idle timer to fire in this many ms (none is running), then tell
    /// [`Drag::timer_started`] its handle.
    pub start_idle_timer: Option<f64>,
}

impl Frame {
    /// Whether this frame draws a chart, table, text or list: a whole frame draws everything, a
    /// drag's frame what is on screen (`on_screen` is asked only then).
    pub fn draws(&self, on_screen: impl FnOnce() -> bool) -> bool {
        self.redraw == Redraw::Whole || on_screen()
    }

    /// Whether the frame keeps the last whole frame's layout search
    /// ([`crate::panel::Panel::compute_keeping_search`]): a drag's frame, whose paint must
    /// follow the pointer, shows the explorer as pending; the whole frame after the drag
    /// searches.
    pub fn defers_search(&self) -> bool {
        self.redraw == Redraw::OnScreen
    }

    /// Whether each canvas is drawn at the size the last whole frame read ([`Seen::size`])
    /// rather than at the size read now, and the plot areas of the charts left for later are
    /// kept.
    pub fn remembers_sizes(&self) -> bool {
        self.redraw == Redraw::OnScreen
    }
}

/// What the idle timer does when it fires ([`Drag::timer_fired`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum IdleTimer {
    /// A drag's frame moved the due time since the timer was set: set it again for the rest.
    Again { wait_ms: f64 },
    /// The inputs have been still for [`IDLE_MS`]: one whole frame now.
    Redraw,
}

/// Something came into view ([`Drag::came_into_view`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InView {
    /// A drag's frames left things for later: cancel the idle timer `cancel` and draw one whole
    /// frame now rather than when the inputs are still.
    RedrawNow { cancel: i32 },
    /// No idle timer runs: nothing waits.
    Nothing,
}

/// The drag policy. When the same input changes again within [`IDLE_MS`] (a dragged slider, a
/// held arrow key, fast typing in one box), the next frame draws only what is on screen and
/// writes no address ([`Redraw::OnScreen`]); one idle timer then brings a whole frame once the
/// inputs have been still for [`IDLE_MS`], or at once when something comes into view. Any
/// other change (a click, a tab, a first keystroke) and a panel shown for the first time are
/// drawn whole. One timer serves a whole drag: each frame only moves the due time, and the
/// timer, when it fires early, is set again for the rest (clearing and setting a timer every
/// frame would cost each frame that much more).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Drag {
    /// The last input and when it came, ms.
    last_input: Option<(Key, f64)>,
    /// Whether the next frame may leave what is off screen for later.
    hurried: bool,
    /// The running idle timer's handle (`setTimeout`'s id).
    idle_timer: Option<i32>,
    /// When the whole frame after the drag is due, ms.
    idle_due_ms: f64,
}

impl Drag {
    /// An input changed `key` at `now_ms`: the next frame may leave what is off screen for
    /// later if the same input changed less than [`IDLE_MS`] before.
    pub fn input(&mut self, key: Key, now_ms: f64) {
        let previous = self.last_input.replace((key, now_ms));
        self.hurried = previous.is_some_and(|(k, t)| k == key && now_ms - t < IDLE_MS);
    }

    /// A frame at `now_ms` (asked once per frame; `first_shown` when its panel was not the one
    /// the last frame showed). A frame an input hurried moves the whole frame after it to
    /// [`IDLE_MS`] from now, setting the idle timer if none runs — even when it draws whole
    /// because its panel is new.
    pub fn frame(&mut self, now_ms: f64, first_shown: bool) -> Frame {
        let hurried = std::mem::take(&mut self.hurried);
        let mut start_idle_timer = None;
        if hurried {
            self.idle_due_ms = now_ms + IDLE_MS;
            if self.idle_timer.is_none() {
                start_idle_timer = Some(IDLE_MS);
            }
        }
        let on_screen = hurried && !first_shown;
        Frame {
            redraw: if on_screen {
                Redraw::OnScreen
            } else {
                Redraw::Whole
            },
            writes_url: !on_screen,
            start_idle_timer,
        }
    }

    /// The idle timer was set: `handle` to cancel it by (`None`: it could not be set, and the
    /// next hurried frame tries again).
    pub fn timer_started(&mut self, handle: Option<i32>) {
        self.idle_timer = handle;
    }

    /// The idle timer fired at `now_ms`: the whole frame if it is due (within 1 ms), else the
    /// timer again for the rest.
    pub fn timer_fired(&mut self, now_ms: f64) -> IdleTimer {
        self.idle_timer = None;
        let wait_ms = self.idle_due_ms - now_ms;
        if wait_ms >= 1.0 {
            IdleTimer::Again { wait_ms }
        } else {
            IdleTimer::Redraw
        }
    }

    /// Something came into view: if a drag's frames left things for later (the idle timer
    /// runs), the whole frame now.
    pub fn came_into_view(&mut self) -> InView {
        match self.idle_timer.take() {
            Some(cancel) => InView::RedrawNow { cancel },
            None => InView::Nothing,
        }
    }
}

/// What the page last saw of an element, by id: whether the browser's `IntersectionObserver`
/// last put it on screen, and (a canvas) its client size when a whole frame last read it. A
/// few dozen elements: a list is smaller in the bundle than a map.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Seen(Vec<SeenElement>);

/// An element's id, whether it is on screen, and its client size as last read.
type SeenElement = (String, bool, Option<(i32, i32)>);

impl Seen {
    /// The entry of element `id`, added if new (on screen, size unknown).
    fn entry(&mut self, id: &str) -> &mut SeenElement {
        let i = match self.0.iter().position(|e| e.0 == id) {
            Some(i) => i,
            None => {
                self.0.push((id.to_string(), true, None));
                self.0.len() - 1
            }
        };
        &mut self.0[i]
    }

    /// Whether the element `id` was on screen when the browser last laid the page out
    /// (unknown: yes, so nothing is left undrawn before the observer has spoken).
    pub fn on_screen(&mut self, id: &str) -> bool {
        self.entry(id).1
    }

    /// The observer saw the element `id` enter (`true`) or leave the viewport.
    pub fn set_on_screen(&mut self, id: &str, on_screen: bool) {
        self.entry(id).1 = on_screen;
    }

    /// The size to draw the canvas `id` at without reading it: in a frame that
    /// [remembers sizes](Frame::remembers_sizes), the size last read; `None` (read it, then
    /// [`Seen::read`]) in a whole frame or for a canvas never read.
    pub fn size(&mut self, id: &str, remembered: bool) -> Option<(i32, i32)> {
        self.entry(id).2.filter(|_| remembered)
    }

    /// A frame read the canvas `id`'s client size.
    pub fn read(&mut self, id: &str, size: (i32, i32)) {
        self.entry(id).2 = Some(size);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_text_is_refused_and_the_last_value_stays() {
        let mut page = PageState::new(Scenario::default());
        assert_eq!(page.apply_text(Key::SerialFraction, "0.1", 0.0), Ok(()));
        let before = page.scenario.clone();
        // After a pause, 0.1 is the value the box had before the next edit.
        let refused = page
            .apply_text(Key::SerialFraction, "abc", EDIT_PAUSE_MS)
            .unwrap_err();
        assert_eq!(page.scenario, before);
        assert!(!refused.restored);
        assert_eq!(refused.key, Key::SerialFraction);
        assert!(refused.message.contains("(f)"), "{}", refused.message);
        assert!(
            refused.message.ends_with("still using 0.1"),
            "{}",
            refused.message
        );
    }

    /// Types `text` into the box of `key` one key at a time, 150 ms apart from `start_ms`:
    /// what each prefix left, and whether the last was refused.
    fn type_keys(page: &mut PageState, key: Key, text: &str, start_ms: f64) -> Option<Refused> {
        let mut last = None;
        for (i, (end, c)) in text.char_indices().enumerate() {
            let prefix = &text[..end + c.len_utf8()];
            last = page
                .apply_text(key, prefix, start_ms + 150.0 * i as f64)
                .err();
        }
        last
    }

    /// The ux-trial's three: a valid fragment of a refused value does not stay in force.
    #[test]
    fn a_refused_value_puts_back_what_was_there_before_the_edit_not_a_fragment() {
        let mut page = PageState::new(Scenario::default());
        let default = page.scenario.clone();
        // "150%": "1" is valid (f = 1, 100%), "15", "150" and "150%" are not.
        let refused = type_keys(&mut page, Key::SerialFraction, "150%", 0.0).unwrap();
        assert_eq!(page.scenario, default);
        assert!(
            refused.message.ends_with("still using 0.05"),
            "{}",
            refused.message
        );
        // "-0.1": "-0" and "-0." are 0, "-0.1" is refused: f stays 0.05, not 0.
        let refused = type_keys(&mut page, Key::SerialFraction, "-0.1", 5_000.0).unwrap();
        assert_eq!(page.scenario, default);
        assert!(
            refused.message.ends_with("still using 0.05"),
            "{}",
            refused.message
        );
        // "1e12" into N: "1" and "1e1" are valid, "1e12" is past N's range.
        let refused = type_keys(&mut page, Key::MaxProcessors, "1e12", 10_000.0).unwrap();
        assert_eq!(page.scenario, default);
        assert!(refused.restored);
        assert!(
            refused.message.ends_with(&format!(
                "still using {}",
                default.get_text(Key::MaxProcessors)
            )),
            "{}",
            refused.message
        );
    }

    /// What ends an edit: a pause, `end_edit` (Enter, leaving the box, a slider), another
    /// box, a preset. After each, a refused text keeps the value the edit ended with.
    #[test]
    fn an_edit_ends_at_a_pause_enter_another_box_or_a_preset() {
        let f = Key::SerialFraction;
        let mut page = PageState::new(Scenario::default());
        page.apply_text(f, "0.2", 0.0).unwrap();
        // Still typing (799 ms later): the edit began at 0.05.
        assert!(
            page.apply_text(f, "0.2x", EDIT_PAUSE_MS - 1.0)
                .unwrap_err()
                .restored
        );
        assert_eq!(page.scenario.get_text(f), "0.05");
        page.apply_text(f, "0.2", 2_000.0).unwrap();
        // A pause of 800 ms: 0.2 is kept.
        let refused = page
            .apply_text(f, "0.2x", 2_000.0 + EDIT_PAUSE_MS)
            .unwrap_err();
        assert!(!refused.restored);
        assert_eq!(page.scenario.get_text(f), "0.2");
        // Enter: 0.3 is kept at once.
        page.apply_text(f, "0.3", 5_000.0).unwrap();
        page.end_edit();
        page.apply_text(f, "0.3x", 5_001.0).unwrap_err();
        assert_eq!(page.scenario.get_text(f), "0.3");
        // Another box: the first box's value is kept.
        page.apply_text(f, "0.4", 6_000.0).unwrap();
        page.apply_text(Key::MaxProcessors, "512", 6_001.0).unwrap();
        page.apply_text(f, "0.4x", 6_002.0).unwrap_err();
        assert_eq!(page.scenario.get_text(f), "0.4");
        // A preset: a refused text falls back to the preset's value, not to the old edit's.
        page.apply_text(f, "0.5", 7_000.0).unwrap();
        page.choose_preset("seed-weak");
        let preset = page.scenario.clone();
        page.apply_text(f, "x", 7_001.0).unwrap_err();
        assert_eq!(page.scenario, preset);
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
        page.apply_text(Key::Levers, "fp8", 0.0).unwrap();
        assert_eq!(page.pin_status(), "Comparing with A: lv=(no levers)");
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

    /// The frame a whole redraw makes: everything, the address written, no timer.
    const WHOLE: Frame = Frame {
        redraw: Redraw::Whole,
        writes_url: true,
        start_idle_timer: None,
    };

    #[test]
    fn only_the_same_input_again_within_the_idle_time_hurries_the_next_frame() {
        let mut drag = Drag::default();
        // A first input (a click, a first keystroke) is drawn whole.
        drag.input(Key::SerialFraction, 0.0);
        assert_eq!(drag.frame(5.0, false), WHOLE);
        // The same input 100 ms later: on screen only, no address, the idle timer set.
        drag.input(Key::SerialFraction, 100.0);
        let hurried = Frame {
            redraw: Redraw::OnScreen,
            writes_url: false,
            start_idle_timer: Some(IDLE_MS),
        };
        assert_eq!(drag.frame(105.0, false), hurried);
        // The decision is taken by one frame: the next one, with no input between, is whole.
        assert_eq!(drag.frame(120.0, false), WHOLE);
        // Another input, however soon, is drawn whole.
        drag.input(Key::MaxProcessors, 130.0);
        assert_eq!(drag.frame(131.0, false), WHOLE);
        // The same input again after exactly IDLE_MS is a new change, drawn whole.
        drag.input(Key::MaxProcessors, 130.0 + IDLE_MS);
        assert_eq!(drag.frame(281.0, false), WHOLE);
    }

    #[test]
    fn a_panel_shown_for_the_first_time_is_drawn_whole_but_still_sets_the_timer() {
        let mut drag = Drag::default();
        drag.input(Key::SerialFraction, 0.0);
        drag.input(Key::SerialFraction, 50.0);
        assert_eq!(
            drag.frame(60.0, true),
            Frame {
                start_idle_timer: Some(IDLE_MS),
                ..WHOLE
            }
        );
    }

    #[test]
    fn a_drags_frame_draws_what_is_on_screen_at_remembered_sizes() {
        assert!(WHOLE.draws(|| panic!("a whole frame does not ask what is on screen")));
        assert!(!WHOLE.remembers_sizes());
        let hurried = Frame {
            redraw: Redraw::OnScreen,
            writes_url: false,
            start_idle_timer: None,
        };
        assert!(hurried.draws(|| true));
        assert!(!hurried.draws(|| false));
        assert!(hurried.remembers_sizes());
        // The layout search waits for the whole frame after the drag.
        assert!(hurried.defers_search());
        assert!(!WHOLE.defers_search());
    }

    #[test]
    fn one_idle_timer_serves_a_drag_and_fires_the_whole_frame_once_the_inputs_are_still() {
        let mut drag = Drag::default();
        drag.input(Key::SerialFraction, 0.0);
        drag.input(Key::SerialFraction, 50.0);
        assert_eq!(drag.frame(60.0, false).start_idle_timer, Some(IDLE_MS));
        drag.timer_started(Some(1));
        // Later frames of the drag only move the due time (to 110 + IDLE_MS = 260).
        drag.input(Key::SerialFraction, 100.0);
        let frame = drag.frame(110.0, false);
        assert_eq!(
            (frame.redraw, frame.start_idle_timer),
            (Redraw::OnScreen, None)
        );
        // The timer fires early (set at 60 for 150 ms): again for the rest.
        assert_eq!(drag.timer_fired(210.0), IdleTimer::Again { wait_ms: 50.0 });
        drag.timer_started(Some(2));
        // Within 1 ms of the due time is due: the whole frame.
        assert_eq!(drag.timer_fired(259.5), IdleTimer::Redraw);
        // The timer is gone: nothing coming into view redraws, and the next drag sets a new one.
        assert_eq!(drag.came_into_view(), InView::Nothing);
        drag.input(Key::SerialFraction, 300.0);
        drag.input(Key::SerialFraction, 310.0);
        assert_eq!(drag.frame(320.0, false).start_idle_timer, Some(IDLE_MS));
    }

    #[test]
    fn something_coming_into_view_during_a_drag_redraws_whole_at_once() {
        let mut drag = Drag::default();
        // No drag, no timer: nothing waits.
        assert_eq!(drag.came_into_view(), InView::Nothing);
        drag.input(Key::SerialFraction, 0.0);
        drag.input(Key::SerialFraction, 50.0);
        assert_eq!(drag.frame(60.0, false).start_idle_timer, Some(IDLE_MS));
        drag.timer_started(Some(7));
        assert_eq!(drag.came_into_view(), InView::RedrawNow { cancel: 7 });
        // Cancelled: once only, and the next hurried frame sets a new timer.
        assert_eq!(drag.came_into_view(), InView::Nothing);
        drag.input(Key::SerialFraction, 70.0);
        assert_eq!(drag.frame(80.0, false).start_idle_timer, Some(IDLE_MS));
    }

    #[test]
    fn a_timer_that_could_not_be_set_is_tried_again_by_the_next_hurried_frame() {
        let mut drag = Drag::default();
        drag.input(Key::SerialFraction, 0.0);
        drag.input(Key::SerialFraction, 50.0);
        assert_eq!(drag.frame(60.0, false).start_idle_timer, Some(IDLE_MS));
        drag.timer_started(None);
        drag.input(Key::SerialFraction, 70.0);
        assert_eq!(drag.frame(80.0, false).start_idle_timer, Some(IDLE_MS));
    }

    #[test]
    fn what_was_seen_unknown_is_on_screen_and_sizes_are_remembered_only_when_asked() {
        let mut seen = Seen::default();
        assert!(seen.on_screen("strong-table"));
        seen.set_on_screen("strong-table", false);
        assert!(!seen.on_screen("strong-table"));
        seen.set_on_screen("strong-table", true);
        assert!(seen.on_screen("strong-table"));
        // A canvas never read is read, even in a drag's frame.
        assert_eq!(seen.size("laws-speedup-canvas", true), None);
        seen.read("laws-speedup-canvas", (600, 400));
        assert_eq!(seen.size("laws-speedup-canvas", true), Some((600, 400)));
        // A whole frame reads it anew.
        assert_eq!(seen.size("laws-speedup-canvas", false), None);
        seen.read("laws-speedup-canvas", (580, 400));
        assert_eq!(seen.size("laws-speedup-canvas", true), Some((580, 400)));
        // Its size and whether it is on screen are kept apart, per element.
        seen.set_on_screen("laws-speedup-canvas", false);
        assert_eq!(seen.size("laws-speedup-canvas", true), Some((580, 400)));
        assert!(seen.on_screen("strong-table"));
        assert_eq!(seen.size("strong-table", true), None);
    }
}

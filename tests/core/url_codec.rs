//! The URL a reader shares: what it restores, and what happens to bad or hostile links.
#![cfg(not(target_arch = "wasm32"))] // native only; crates/web/tests/web.rs runs in the browser

use scaling_core::scenario::{decode, Key, Scenario, UrlError, MAX_QUERY_BYTES};

#[test]
fn a_whole_url_with_fragment_decodes() {
    let d = decode("https://example.org/docs/scaling/?v=1&f=0.1&n=65536#laws");
    assert!(d.errors.is_empty());
    assert_eq!(d.scenario.laws.serial_fraction, 0.1);
    assert_eq!(d.scenario.laws.max_processors, 65536);
}

#[test]
fn percent_and_units_are_read_as_typed() {
    let d = decode("v=1&f=5%25&n=4Ki&fs=1%25,10%25");
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    assert_eq!(d.scenario.laws.serial_fraction, 0.05);
    assert_eq!(d.scenario.laws.max_processors, 4096);
    assert_eq!(d.scenario.laws.compare_fractions, vec![0.01, 0.1]);
    // Written back canonically, defaults omitted.
    assert_eq!(d.scenario.to_query(), "v=1&fs=0.01,0.1");
}

#[test]
fn each_bad_key_gets_its_own_message_and_the_rest_is_kept() {
    let d = decode("v=1&f=abc&n=banana&g=9&fs=0.2");
    assert_eq!(d.errors.len(), 3);
    let text: Vec<String> = d.errors.iter().map(|e| e.to_string()).collect();
    assert!(
        text[0].contains("(f)") && text[0].contains("abc"),
        "{}",
        text[0]
    );
    assert!(
        text[1].contains("(n)") && text[1].contains("banana"),
        "{}",
        text[1]
    );
    assert!(
        text[2].contains("(g)") && text[2].contains("outside"),
        "{}",
        text[2]
    );
    assert_eq!(d.scenario.laws.compare_fractions, vec![0.2]);
    assert_eq!(
        d.scenario.laws.serial_fraction,
        Scenario::default().laws.serial_fraction
    );
}

#[test]
fn non_finite_and_negative_zero_are_handled() {
    for v in ["NaN", "nan", "inf", "-inf", "1e999", "Infinity"] {
        let d = decode(&format!("f={v}"));
        assert_eq!(d.errors.len(), 1, "{v}");
        assert_eq!(d.scenario.laws.serial_fraction, 0.05);
    }
    let d = decode("f=-0");
    assert!(d.errors.is_empty());
    assert_eq!(d.scenario.to_query(), "v=1&f=0");
}

#[test]
fn unknown_things_are_named_or_ignored() {
    let d = decode("v=7&preset=nope&colour=red");
    assert!(matches!(d.errors[0], UrlError::UnknownVersion(_)));
    assert!(matches!(d.errors[1], UrlError::UnknownPreset(_)));
    assert_eq!(d.errors.len(), 2);
    assert!(d.errors[1].to_string().contains("classroom"));
}

#[test]
fn repeated_keys_last_wins() {
    assert_eq!(decode("f=0.1&f=0.2").scenario.laws.serial_fraction, 0.2);
}

#[test]
fn huge_links_are_cut_not_slow() {
    let long = format!("v=1&m={}", "1:1,".repeat(20_000));
    let d = decode(&long);
    assert!(d
        .errors
        .iter()
        .any(|e| matches!(e, UrlError::TooLong { .. })));
    assert!(d
        .errors
        .iter()
        .any(|e| matches!(e, UrlError::Input(i) if i.key == Key::Measured)));
    assert!(MAX_QUERY_BYTES < long.len());
}

#[test]
fn markup_in_values_is_only_ever_text_in_messages() {
    let d = decode("f=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E");
    assert_eq!(d.errors.len(), 1);
    // The message quotes the input (as text, clipped); the page sets it with textContent.
    assert!(d.errors[0].to_string().contains("<img"));
    // And it is never written back into a URL.
    assert_eq!(d.scenario.to_query(), "v=1");
}

/// The layout degrees (`a`, `tp`, `pp`, `cp`: 1 … 65,536) and `vc` (1 … 64) are whole numbers
/// with their own upper bound; a value just outside either end is refused with a message that
/// states that range, not the processor counts' "1 … 2^30".
#[test]
fn out_of_range_degrees_and_chunks_state_the_range_in_force() {
    use scaling_core::i18n::{set_lang, Lang};
    let reason = |query: &str, key: Key| -> String {
        let d = decode(query);
        assert_eq!(d.errors.len(), 1, "{query}: {:?}", d.errors);
        match &d.errors[0] {
            UrlError::Input(e) if e.key == key => e.reason.clone(),
            other => panic!("{query}: {other:?}"),
        }
    };
    let cases = [
        ("a", Key::Accumulation, "65,536", "65537", "65536"),
        ("tp", Key::Tp, "65,536", "65537", "65536"),
        ("pp", Key::Pp, "65,536", "65537", "65536"),
        ("cp", Key::Cp, "65,536", "65537", "65536"),
        ("vc", Key::Chunks, "64", "65", "64"),
    ];
    for (name, key, max, above, top) in cases {
        // Both ends of the range are accepted (alone, vc=64 and the degrees at 65,536 need
        // enough GPUs and tokens, so only the parse is checked here: no range message).
        for ok in ["1", top] {
            let d = decode(&format!("v=1&{name}={ok}"));
            assert!(
                d.errors.iter().all(|e| !e.to_string().contains("outside")
                    && !e.to_string().contains("above")),
                "{name}={ok}: {:?}",
                d.errors
            );
        }
        for below in ["0", "0.5", "-1"] {
            let r = reason(&format!("v=1&{name}={below}"), key);
            assert!(
                r.contains(&format!("outside 1 … {max}")),
                "{name}={below}: {r}"
            );
            assert!(!r.contains("2^30"), "{name}={below}: {r}");
        }
        let r = reason(&format!("v=1&{name}={above}"), key);
        assert!(r.contains(&format!("above {max}")), "{name}={above}: {r}");
        // Beyond 2^30 the message still names the range in force.
        let r = reason(&format!("v=1&{name}=2e9"), key);
        assert!(r.contains(&format!("outside 1 … {max}")), "{name}=2e9: {r}");
        assert!(!r.contains("2^30"), "{name}=2e9: {r}");
        // The Chinese says the same range.
        set_lang(Lang::Zh);
        let r = reason(&format!("v=1&{name}=0"), key);
        set_lang(Lang::En);
        assert!(
            r.contains(&format!("超出 1 … {max} 的范围")),
            "{name}=0 (zh): {r}"
        );
    }
    // A fraction within the range is still refused as such.
    assert!(reason("v=1&vc=2.5", Key::Chunks).contains("not a whole number"));
    assert!(reason("v=1&tp=1.5", Key::Tp).contains("not a whole number"));
}

/// `show=charts` (an embed of the figure alone) round-trips, is dropped from the full-page
/// link, and anything else is refused naming the key, the rest of the link kept.
#[test]
fn show_charts_round_trips_and_leaves_the_full_page_link() {
    let d = decode("v=1&embed=strong&show=charts&preset=seed-strong");
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    assert!(d.scenario.charts_only);
    assert_eq!(
        d.scenario.to_query(),
        "v=1&preset=seed-strong&embed=strong&show=charts"
    );
    assert_eq!(d.scenario.standalone_query(), "v=1&preset=seed-strong");
    let bad = decode("v=1&embed=strong&show=tables&f=0.1");
    assert!(!bad.scenario.charts_only);
    assert_eq!(bad.scenario.laws.serial_fraction, 0.1);
    assert!(bad
        .errors
        .iter()
        .any(|e| matches!(e, UrlError::Input(i) if i.key == Key::Show)));
    assert!(!Scenario::default().charts_only);
}

/// The batch box takes what a launch writes, whole sequences of the shape's `sq`, and keeps
/// tokens: 2,048 sequences of 8,192 = 16,777,216 tokens, written back `16.777216M`; without
/// `sq` the count is refused naming what it needs, and the last valid batch stays.
#[test]
fn a_batch_in_sequences_needs_the_sequence_length() {
    use scaling_core::scenario::{decode, Key};
    let mut s = decode("v=1&preset=llama31-405b-h100").scenario;
    s.set(Key::GlobalBatch, "2048 sequences").unwrap();
    assert_eq!(s.llm.global_batch_tokens, 16_777_216.0);
    s.set(Key::GlobalBatch, "1024 seq").unwrap();
    assert_eq!(s.llm.global_batch_tokens, 8_388_608.0);
    assert!(s.to_query().contains("b=8.388608M"), "{}", s.to_query());
    let half = s.set(Key::GlobalBatch, "2.5 sequences").unwrap_err();
    assert!(half.to_string().contains("not a whole number"), "{half}");
    let mut seed = decode("v=1&preset=seed-strong").scenario;
    let before = seed.llm.global_batch_tokens;
    let err = seed.set(Key::GlobalBatch, "2048 sequences").unwrap_err();
    assert!(
        err.to_string()
            .contains("give the sequence length sq first"),
        "{err}"
    );
    assert_eq!(seed.llm.global_batch_tokens, before);
}

//! The Learn view's exercises (src/panel/exercise.rs): each answer is the model's, computed
//! from the exercise's scenario; the literals here are derived by hand from the formulas.

use scaling_core::i18n::{set_lang, Lang};
use scaling_core::panel::exercise::{
    exercise, key, read_guess, reveal, verdict, Judge, Unit, EXERCISES,
};

fn answer(n: u8) -> f64 {
    exercise(n).unwrap().answer().unwrap()
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    ((a - b) / b).abs() <= rel
}

#[test]
fn every_answer_is_derived_by_hand() {
    // Amdahl's ceiling 1/f at f = 5%.
    assert!(close(answer(1), 20.0, 1e-12));
    // 1/(0.05·N + 0.95) = 1/2 ⇔ N = 1.05/0.05 = 21.
    assert!(close(answer(2), 21.0, 1e-12));
    // Gustafson: 0.05 + 0.95·1,024 = 972.85.
    assert!(close(answer(3), 972.85, 1e-12));
    // Karp–Flatt at N = 8, S = 6.4: (0.15625 − 0.125)/0.875 = 0.0357142857.
    assert!(close(answer(4), 0.031_25 / 0.875, 1e-12));
    // The seed with twice its exposed column: 32M/1.1 s = 29.1M, /0.525 s = 61.0M,
    // /0.5525 s = 57.9M, /0.65625 s = 48.8M tok/s: the peak is 4,096 GPUs.
    assert_eq!(answer(5), 4096.0);
    // Megatron fit on (96, 118,758) and (4,608, 2,763): W = 115,995·4,608/47,
    // K = 2,763 − 115,995/47; at 1,152: 463,980/47 + K = 10,166.94 ms.
    let k = 2763.0 - 115_995.0 / 47.0;
    assert!(close(answer(6), 463_980.0 / 47.0 + k, 1e-9));
    assert!(close(answer(6), 10_166.94, 1e-6));
    // MLPerf: B_crit = 36M, tb = 1.208G (docs/model/08-critical-batch.md §8.5): 1.81x to quality.
    assert!(close(answer(7), 1.81, 0.005));
    // T_crit ∝ F_eff: 740T against 370T.
    assert!(close(answer(8), 2.0, 1e-12));
    // N_max = B/T_crit = 16e6/3,700 = 4,324.3… (the seed at half its batch: M = A = 1).
    assert!(close(answer(9), 16e6 / 3700.0, 1e-12));
    // docs/model/08-critical-batch.md §8.3: (2 × 1,000)/(1.25 × 1,050) = 2,000/1,312.5 = 1.5238….
    assert!(close(answer(10), 2000.0 / 1312.5, 1e-12));
    // Shi: 0.1/(0.1 + 0.9·100) = 0.1/90.1.
    assert!(close(answer(11), 0.1 / 90.1, 1e-12));
    // Isoefficiency, Amdahl-type overhead: W ∝ N − 1, 255/63.
    assert!(close(answer(12), 255.0 / 63.0, 1e-12));
    // Mixed: neither B nor T held, and PP changed (the kinds are numbered strong 0, weak 1,
    // mixed 2).
    assert_eq!(answer(13), 2.0);
    // HPC Carpentry's amdahl timings: S = 33.3/9.5, e = (9.5/33.3 − 1/8)/(7/8).
    assert!(close(answer(14), (9.5 / 33.3 - 0.125) / 0.875, 1e-12));
    assert!(close(answer(14), 0.183183, 1e-5));
}

#[test]
fn guesses_are_read_in_the_exercise_unit() {
    assert!(close(
        read_guess(Unit::Percent, "3.6").unwrap(),
        0.036,
        1e-12
    ));
    assert!(close(
        read_guess(Unit::Percent, "3.6%").unwrap(),
        0.036,
        1e-12
    ));
    assert_eq!(read_guess(Unit::Count, "3.6"), Ok(3.6));
    assert_eq!(read_guess(Unit::Times, "20x"), Ok(20.0));
    assert_eq!(read_guess(Unit::Count, "8k"), Ok(8000.0));
    set_lang(Lang::En);
    let refused = read_guess(Unit::Count, "many").unwrap_err();
    assert!(refused.starts_with("Your guess"), "{refused}");
    assert!(read_guess(Unit::Count, "-3").is_err());
    // Zero is a guess (of a serial fraction, say), not an error.
    assert_eq!(read_guess(Unit::Percent, "0"), Ok(0.0));
}

#[test]
fn guesses_may_carry_the_chinese_units_of_the_prompts() {
    for (unit, text, value) in [
        (Unit::Times, "20倍", 20.0),
        (Unit::Times, "1.6 倍", 1.6),
        (Unit::Times, "20×", 20.0),
        (Unit::Times, "20 x", 20.0),
        (Unit::Count, "64个", 64.0),
        (Unit::Count, "64 个处理器", 64.0),
        (Unit::Count, "2,048张卡", 2048.0),
        (Unit::Count, "2k 卡", 2000.0),
        (Unit::Ms, "1,300 ms", 1300.0),
    ] {
        assert_eq!(read_guess(unit, text), Ok(value), "{text}");
    }
    set_lang(Lang::Zh);
    let refused = read_guess(Unit::Times, "20 头").unwrap_err();
    assert!(refused.starts_with("你的猜测"), "{refused}");
    set_lang(Lang::En);
}

#[test]
fn the_verdict_says_how_far_the_guess_was() {
    set_lang(Lang::En);
    let near = Judge::Near {
        right: 0.05,
        close: 0.25,
    };
    assert_eq!(verdict(near, 21.0, 20.0), "Right: within 5% of the answer.");
    assert!(verdict(near, 19.0, 20.0).starts_with("Right"));
    assert_eq!(
        verdict(near, 18.0, 20.0),
        "Close: within 25%, not yet right."
    );
    assert!(verdict(near, 25.0, 20.0).starts_with("Close"));
    assert_eq!(verdict(near, 30.0, 20.0), "Off: 50% too high.");
    assert_eq!(verdict(near, 12.0, 20.0), "Off: 40% too low.");
    assert_eq!(verdict(near, 100.0, 20.0), "Off by a factor of 5.");
    assert_eq!(verdict(near, 2.0, 20.0), "Off by a factor of 10.");
    assert_eq!(verdict(near, 0.0, 20.0), "Off by far.");
    assert_eq!(verdict(Judge::Exact, 8192.0, 8192.0), "Right.");
    assert_eq!(verdict(Judge::Exact, 4096.0, 8192.0), "Not this one.");
}

/// Each exercise judges by its own tolerance (docs/learn review D-29): the naive guesses a
/// teacher expects are not "well predicted".
#[test]
fn each_exercise_has_its_own_tolerance() {
    set_lang(Lang::En);
    let judged = |n: u8, guess: &str| {
        let e = exercise(n).unwrap();
        verdict(
            e.judge,
            read_guess(e.unit, guess).unwrap(),
            e.answer().unwrap(),
        )
    };
    // q5 is a pick among the table's rows: the neighbouring row is wrong, not "close".
    assert_eq!(judged(5, "8192"), "Not this one.");
    assert_eq!(judged(5, "4096"), "Right.");
    // q6: ideal scaling from 96 GPUs, 118,758·96/1,152 = 9,896.5 ms, is 2.7% low: close only.
    assert!(
        judged(6, "9896").starts_with("Close"),
        "{}",
        judged(6, "9896")
    );
    assert!(
        judged(6, "11050").starts_with("Off"),
        "{}",
        judged(6, "11050")
    );
    assert!(judged(6, "10150").starts_with("Right"));
    // q7: "twice the GPUs, twice as fast" is off; q8: "no change" is off by a factor of 2.
    assert!(judged(7, "2").starts_with("Off"), "{}", judged(7, "2"));
    assert_eq!(judged(8, "1"), "Off by a factor of 2.");
    // q3: N itself (1,024) is 5% high: close, not right.
    assert!(judged(3, "1024").starts_with("Close"));
    // q13 reads a word.
    assert_eq!(judged(13, "Mixed"), "Right.");
    assert_eq!(judged(13, "strong scaling"), "Not this one.");
}

#[test]
fn a_reveal_prints_the_answer_the_guess_and_the_measurement() {
    set_lang(Lang::En);
    assert_eq!(
        reveal(1, "10").unwrap(),
        "Answer: 20× (your guess 10×). Off by a factor of 2."
    );
    assert_eq!(
        reveal(7, "1.8").unwrap(),
        "Answer: 1.81× (your guess 1.8×). Right: within 4% of the answer. Measured: 1.74×."
    );
    assert_eq!(
        reveal(6, "10,170 ms").unwrap(),
        "Answer: 10,167 ms (your guess 10,170 ms). Right: within 1.5% of the answer. \
         Measured: 10,212 ms."
    );
    assert_eq!(
        reveal(13, "weak").unwrap(),
        "Answer: mixed (your guess weak scaling). Not this one."
    );
    assert_eq!(
        reveal(11, "0.11").unwrap(),
        "Answer: 0.111% (your guess 0.11%). Right: within 3% of the answer."
    );
    assert!(reveal(13, "7")
        .unwrap_err()
        .contains("strong, weak or mixed"));
    // Each kind is written as a word, and read back from it, in English or Chinese.
    use scaling_core::panel::exercise::format;
    for (n, word, zh) in [
        (0.0, "strong scaling", "强"),
        (1.0, "weak scaling", "弱"),
        (2.0, "mixed", "混合"),
    ] {
        assert_eq!(format(Unit::Mode, n), word);
        assert_eq!(read_guess(Unit::Mode, word), Ok(n));
        assert_eq!(read_guess(Unit::Mode, zh), Ok(n));
    }
    assert!(reveal(15, "1").is_err());
    assert!(reveal(0, "1").is_err());
    // The answer key: the answer and the measurement, no guess.
    assert_eq!(key(7).unwrap(), "Answer: 1.81×. Measured: 1.74×.");
    assert_eq!(key(9).unwrap(), "Answer: 4,324.");
    assert!(key(15).is_err());
    assert_eq!(EXERCISES.len(), 14);
    for (i, e) in EXERCISES.iter().enumerate() {
        let decoded = scaling_core::scenario::decode(e.query);
        assert!(
            decoded.errors.is_empty(),
            "exercise {}: {:?}",
            i + 1,
            decoded.errors
        );
        assert_eq!(e.chart.view(), decoded.scenario.view, "exercise {}", i + 1);
    }
}

/// The Learn texts (www/learn/*.html) ask about the same scenarios the answers are computed
/// from: each exercise section's `data-query` is the exercise's query.
#[test]
fn the_texts_ask_about_the_scenarios_the_answers_come_from() {
    for lang in ["en", "zh"] {
        let path = format!("{}/www/learn/{lang}.html", env!("CARGO_MANIFEST_DIR"));
        let html = std::fs::read_to_string(&path).unwrap();
        for (i, e) in EXERCISES.iter().enumerate() {
            let tag = format!("id=\"q{}\" data-q=\"{}\" data-query=\"", i + 1, i + 1);
            let start = html
                .find(&tag)
                .unwrap_or_else(|| panic!("{lang}: q{}", i + 1))
                + tag.len();
            let query = &html[start..start + html[start..].find('"').unwrap()];
            assert_eq!(query.replace("&amp;", "&"), e.query, "{lang}: q{}", i + 1);
        }
    }
}

/// `q=` from a link: numbers 1 … 8, each once in the teacher's order; anything else is named
/// and the rest of the link still opens.
#[test]
fn a_teachers_link_is_read_and_a_bad_one_named() {
    set_lang(Lang::En);
    let d = scaling_core::scenario::decode("v=1&view=learn&q=3,3,1&f=0.2");
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    assert_eq!(d.scenario.quiz, vec![3, 1]);
    assert_eq!(d.scenario.to_query(), "v=1&view=learn&f=0.2&q=3,1");
    for bad in ["15", "0", "two", "1,x"] {
        let d = scaling_core::scenario::decode(&format!("v=1&view=learn&q={bad}&f=0.2"));
        assert_eq!(d.errors.len(), 1, "{bad}");
        let text = d.errors[0].to_string();
        assert!(
            text.contains("(q)") && text.contains("is not an exercise number 1 … 14"),
            "{text}"
        );
        assert!(d.scenario.quiz.is_empty());
        assert_eq!(d.scenario.laws.serial_fraction, 0.2);
    }
}

//! The Learn view's exercises (src/panel/exercise.rs): each answer is the model's, computed
//! from the exercise's scenario; the literals here are derived by hand from the formulas.

use scaling_core::i18n::{set_lang, Lang};
use scaling_core::panel::exercise::{exercise, read_guess, reveal, verdict, Unit, EXERCISES};

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
    // MODEL.md §6: the seed's throughput peaks at 8,192 GPUs (96.2M tok/s).
    assert_eq!(answer(5), 8192.0);
    // Megatron fit on (96, 112,610) and (4,608, 2,620): W = 109,990·4,608/47,
    // K = 2,620 − 109,990/47; at 1,152: 439,960/47 + K = 9,640.64 ms.
    let k = 2620.0 - 109_990.0 / 47.0;
    assert!(close(answer(6), 439_960.0 / 47.0 + k, 1e-9));
    assert!(close(answer(6), 9640.64, 1e-6));
    // MLPerf: B_crit = 36M, tb = 1.208G (docs/model.md §8.5): 1.81x to quality.
    assert!(close(answer(7), 1.81, 0.005));
    // T_crit ∝ F_eff: 800T against 400T.
    assert!(close(answer(8), 2.0, 1e-12));
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
fn the_verdict_says_how_far_the_guess_was() {
    set_lang(Lang::En);
    assert!(verdict(21.0, 20.0).starts_with("Within 10%"));
    assert!(verdict(18.0, 20.0).starts_with("Within 10%"));
    assert!(verdict(17.9, 20.0).starts_with("Within a factor of 2"));
    assert!(verdict(22.1, 20.0).starts_with("Within a factor of 2"));
    assert!(verdict(30.0, 20.0).starts_with("Within a factor of 2"));
    assert!(verdict(10.0, 20.0).starts_with("Within a factor of 2"));
    assert_eq!(verdict(100.0, 20.0), "Off by a factor of 5.");
    assert_eq!(verdict(2.0, 20.0), "Off by a factor of 10.");
}

#[test]
fn a_reveal_prints_the_answer_the_guess_and_the_measurement() {
    set_lang(Lang::En);
    assert_eq!(
        reveal(1, "10").unwrap(),
        "Answer: 20× (your guess 10×). Within a factor of 2."
    );
    assert_eq!(
        reveal(7, "1.9").unwrap(),
        "Answer: 1.81× (your guess 1.9×). Within 10%: well predicted. Measured: 1.74×."
    );
    assert!(reveal(9, "1").is_err());
    assert!(reveal(0, "1").is_err());
    assert_eq!(EXERCISES.len(), 8);
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
    for bad in ["9", "0", "two", "1,x"] {
        let d = scaling_core::scenario::decode(&format!("v=1&view=learn&q={bad}&f=0.2"));
        assert_eq!(d.errors.len(), 1, "{bad}");
        let text = d.errors[0].to_string();
        assert!(
            text.contains("(q)") && text.contains("is not an exercise number 1 … 8"),
            "{text}"
        );
        assert!(d.scenario.quiz.is_empty());
        assert_eq!(d.scenario.laws.serial_fraction, 0.2);
    }
}

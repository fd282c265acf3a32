//! The steady step time of a log: warm-up left out, median and quartiles by Hyndman & Fan's
//! definition 7, slow records counted. Golden values worked by hand.

use scaling_model::steady::{quantile, steady, SteadyError, StepRecord};

fn one(step: u64, ms: f64) -> StepRecord {
    StepRecord {
        first_step: step,
        last_step: step,
        step_ms: ms,
    }
}

#[test]
fn warm_up_is_left_out_and_the_rest_summarised_by_hand() {
    // Steps 1–2 are warm-up. Used: 10, 12, 11, 40 → sorted 10, 11, 12, 40.
    // Median: h = 3·0.5 = 1.5 → 11 + 0.5·(12 − 11) = 11.5.
    // Q1: h = 0.75 → 10 + 0.75·1 = 10.75. Q3: h = 2.25 → 12 + 0.25·28 = 19.
    // Slow: over 1.5 × 11.5 = 17.25 → the 40 ms record (index 5).
    let records = [
        one(1, 100.0),
        one(2, 50.0),
        one(3, 10.0),
        one(4, 12.0),
        one(5, 11.0),
        one(6, 40.0),
    ];
    let s = steady(&records).unwrap();
    assert_eq!(s.median_ms, 11.5);
    assert_eq!(s.quartiles_ms, (10.75, 19.0));
    assert_eq!(s.used, vec![2, 3, 4, 5]);
    assert_eq!(s.warmup, 2);
    assert_eq!(s.slow, vec![5]);
}

#[test]
fn a_window_reaching_into_warm_up_is_left_out() {
    // Megatron's first line at --log-interval 10 covers steps 1–10; the next 11–20.
    let window = |a, b, ms| StepRecord {
        first_step: a,
        last_step: b,
        step_ms: ms,
    };
    let s = steady(&[
        window(1, 10, 1000.0),
        window(11, 20, 480.0),
        window(21, 30, 490.0),
    ])
    .unwrap();
    assert_eq!(s.used, vec![1, 2]);
    assert_eq!(s.median_ms, 485.0);
    // A window starting at step 3 is steady.
    let s = steady(&[window(3, 4, 7.0)]).unwrap();
    assert_eq!((s.median_ms, s.warmup), (7.0, 0));
}

#[test]
fn no_records_or_only_warm_up_are_errors() {
    assert_eq!(steady(&[]), Err(SteadyError::NoRecords));
    assert_eq!(
        steady(&[one(1, 9.0), one(2, 4.0)]),
        Err(SteadyError::OnlyWarmup { last_step: 2 })
    );
}

#[test]
fn quantiles_interpolate_between_order_statistics() {
    let xs = [1.0, 2.0, 4.0, 8.0, 16.0];
    // h = 4q: 0 → 1; 0.25 → x1 = 2; 0.5 → x2 = 4; 0.9 → 3.6 → 8 + 0.6·8 = 12.8; 1 → 16.
    assert_eq!(quantile(&xs, 0.0), 1.0);
    assert_eq!(quantile(&xs, 0.25), 2.0);
    assert_eq!(quantile(&xs, 0.5), 4.0);
    assert!((quantile(&xs, 0.9) - 12.8).abs() < 1e-12);
    assert_eq!(quantile(&xs, 1.0), 16.0);
    assert_eq!(quantile(&[3.0], 0.5), 3.0);
}

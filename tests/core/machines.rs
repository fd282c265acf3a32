//! The machine table (`mach=`) and the GEMM precision (`prec=`): the values a machine types
//! into the hardware inputs, the link that carries them, and what is refused. Every expected
//! value is the datasheet's, copied from `../shared/data/machines-and-runs.md` §1 by hand.

use scaling_core::scenario::{decode, Key, Scenario};

fn values(query: &str) -> Scenario {
    let d = decode(query);
    assert!(d.errors.is_empty(), "{query}: {:?}", d.errors);
    d.scenario
}

/// GB200 NVL72: 2,450 TFLOPS BF16 and 4,900 FP8 ([D]), 189,471 MiB ([M]), 72 GPUs per
/// NVLink domain, 1.8 TB/s bidirectional = 900 GB/s each way, of which NCCL's collectives
/// reach 0.8 (20 of each link's 25 GB/s): `bnv` 720 GB/s; a 400 Gb/s NIC = 50 GB/s.
#[test]
fn a_machine_types_its_datasheet_values() {
    let s = values("v=1&mach=gb200");
    assert_eq!(s.llm.peak_flops_per_gpu, 2450e12);
    assert_eq!(s.llm.walls.hbm_bytes, 189_471.0 * 1_048_576.0);
    assert_eq!(s.llm.walls.nvlink_domain_gpus, 72);
    assert_eq!(s.plan.nvlink_bytes_per_s, 720e9);
    assert_eq!(s.get_text(Key::NvlinkBandwidth), "720G");
    assert_eq!(s.llm.bus_bytes_per_s, 50e9);
    assert_eq!(s.get_text(Key::Hbm), "189471Mi");
    // A100's 12 NVLink 3 links: 300 GB/s each way, 240 of it in a collective; H100's 450, 360.
    assert_eq!(values("v=1&mach=a100").plan.nvlink_bytes_per_s, 240e9);
    assert_eq!(values("v=1&mach=h100").plan.nvlink_bytes_per_s, 360e9);
    // HBM3e at 8 TB/s ([D]): the elementwise kernels' rate, which only a machine gives.
    let shaped = |q: &str| {
        values(q)
            .llm_inputs()
            .walls
            .expect("a shape")
            .hbm_bytes_per_s
    };
    assert_eq!(shaped("v=1&preset=gpt3-175b-walls&mach=gb200"), 8e12);
    assert_eq!(shaped("v=1&preset=gpt3-175b-walls&mach=h100"), 3.35e12);
    // A custom machine (the preset's own hardware) leaves the term out.
    assert_eq!(shaped("v=1&preset=gpt3-175b-walls"), 0.0);
    let fp8 = values("v=1&mach=gb200&prec=fp8");
    assert_eq!(fp8.llm.peak_flops_per_gpu, 4900e12);
    // GB300: 800 Gb/s NICs (100 GB/s) and NVFP4 at 14,700 TFLOPS.
    let gb300 = values("v=1&mach=gb300&prec=nvfp4");
    assert_eq!(gb300.llm.peak_flops_per_gpu, 14_700e12);
    assert_eq!(gb300.llm.bus_bytes_per_s, 100e9);
    // B200 in an 8-GPU DGX: NVFP4 9,000, MXFP8 at the FP8 rate.
    assert_eq!(
        values("v=1&mach=b200&prec=mxfp8").llm.peak_flops_per_gpu,
        4500e12
    );
    assert_eq!(values("v=1&mach=b200").llm.walls.nvlink_domain_gpus, 8);
}

/// AMD's platforms fix no NIC: the machine leaves `beff` as it was. Infinity Fabric's
/// collectives are charged the line rate, 7 × 76.5 GB/s (no share of RCCL's is published).
#[test]
fn a_machine_without_a_nic_keeps_beff() {
    let s = values("v=1&beff=40G&mach=mi355x");
    assert_eq!(s.llm.bus_bytes_per_s, 40e9);
    assert_eq!(s.llm.peak_flops_per_gpu, 2500e12);
    assert_eq!(s.plan.nvlink_bytes_per_s, 535.5e9);
    assert_eq!(s.llm.walls.hbm_bytes, 288e9);
}

/// The link says the machine and only what differs from it; keys after the machine override
/// it, in any order in the link, and the link reads back to the same scenario.
#[test]
fn the_link_writes_only_what_differs_from_the_machine() {
    let s = values("v=1&mach=gb200&prec=fp8");
    assert_eq!(s.to_query(), "v=1&mach=gb200&prec=fp8");
    let edited = values("v=1&beff=40G&prec=fp8&mach=gb200");
    assert_eq!(edited.llm.bus_bytes_per_s, 40e9);
    assert_eq!(edited.llm.peak_flops_per_gpu, 4900e12);
    assert_eq!(edited.to_query(), "v=1&mach=gb200&prec=fp8&beff=40G");
    assert_eq!(decode(&edited.to_query()).scenario, edited);
    // Over a preset: the preset's own hardware is replaced by the machine's.
    let p = values("v=1&preset=gpt3-175b-walls&mach=h100");
    assert_eq!(p.to_query(), "v=1&preset=gpt3-175b-walls&mach=h100");
    assert_eq!(p.llm.bus_bytes_per_s, 50e9);
    // Back to custom: the values stay as they were typed.
    let mut c = s.clone();
    c.set(Key::Machine, "custom").unwrap();
    assert_eq!(c.llm.peak_flops_per_gpu, 4900e12);
    assert_eq!(c.llm.machine, None);
    assert_eq!(decode(&c.to_query()).scenario, c);
}

/// A machine, precision or domain size the model does not know is refused naming the key;
/// the last valid value stays.
#[test]
fn unknown_machines_precisions_and_domains_are_refused() {
    let d = decode("v=1&mach=tpu-v5p&prec=fp6&nvd=2048");
    let texts: Vec<String> = d.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(texts.len(), 3, "{texts:?}");
    assert!(
        texts[0].contains("(mach)") && texts[0].contains("tpu-v5p"),
        "{}",
        texts[0]
    );
    assert!(
        texts[1].contains("(prec)") && texts[1].contains("fp6"),
        "{}",
        texts[1]
    );
    assert!(
        texts[2].contains("(nvd)") && texts[2].contains("2,048"),
        "{}",
        texts[2]
    );
    assert_eq!(d.scenario, Scenario::default());
    // A format the machine lacks: Hopper has no MX or 4-bit formats, A100 no FP8.
    let d = decode("v=1&mach=h100&prec=nvfp4");
    assert_eq!(d.errors.len(), 1);
    let text = d.errors[0].to_string();
    assert!(
        text.contains("(prec)") && text.contains("H100 SXM has no NVFP4 peak"),
        "{text}"
    );
    assert_eq!(d.scenario.llm.peak_flops_per_gpu, 989e12);
    let mut s = values("v=1&mach=b200&prec=nvfp4");
    let e = s.set(Key::Machine, "a100").unwrap_err().to_string();
    assert!(
        e.contains("A100 SXM 80GB has no NVFP4 peak (its formats: BF16)"),
        "{e}"
    );
    assert_eq!(s.llm.peak_flops_per_gpu, 9000e12);
    assert_eq!(s.llm.machine.map(|m| m.name), Some("b200"));
}

/// Any domain size from 1 to 1,024 is a domain: 72 (an NVL72 rack) and 576 among them.
#[test]
fn any_domain_size_is_taken() {
    for n in [1, 6, 72, 576, 1024] {
        let s = values(&format!("v=1&nvd={n}"));
        assert_eq!(s.llm.walls.nvlink_domain_gpus, n);
    }
    for bad in ["0", "1025", "7.5", "x"] {
        let d = decode(&format!("v=1&nvd={bad}"));
        assert_eq!(d.errors.len(), 1, "{bad}");
        assert!(d.errors[0].to_string().contains("(nvd)"), "{bad}");
    }
}

/// The `mach` menu offers custom and then every machine of the table, in order, by the
/// vendor's name; the `prec` menu every precision.
#[test]
fn the_menus_follow_the_machine_table() {
    use scaling_core::scenario::machines::{Precision, MACHINES};
    use scaling_core::scenario::Control;
    let Control::Select(options) = Key::Machine.spec().control else {
        panic!("mach is a menu");
    };
    assert_eq!(options[0].0, "");
    let menu: Vec<(&str, &str)> = options[1..].iter().map(|o| (o.0, o.1)).collect();
    let table: Vec<(&str, &str)> = MACHINES.iter().map(|m| (m.name, m.label)).collect();
    assert_eq!(menu, table);
    let Control::Select(options) = Key::Precision.spec().control else {
        panic!("prec is a menu");
    };
    let menu: Vec<&str> = options.iter().map(|o| o.0).collect();
    let all: Vec<&str> = Precision::ALL.iter().map(|p| p.name()).collect();
    assert_eq!(menu, all);
}

/// The published runs per machine (`panel::machine_runs`): a performance-summary row's step
/// is `GBS · seq / (GPUs · tokens/s/GPU)` — Llama 3.1 405B on 256 GB200 in 25.11, 1,536 ·
/// 8,192 / (256 · 813) = 12,582,912 / 208,128 = 60.4575…  s; MLPerf's is its median step.
#[test]
fn machine_runs_publish_a_step() {
    use scaling_core::panel::machine_runs::{Measured, MACHINE_RUNS};
    let gb200 = MACHINE_RUNS
        .iter()
        .find(|r| r.release == "Megatron-Bridge 25.11" && r.machine == "gb200" && r.gpus == 256)
        .unwrap();
    assert_eq!(gb200.measured, Measured::TokensPerGpuPerS(813.0));
    assert!((gb200.published_step_s() - 60.457_564_6).abs() < 1e-6);
    let mlperf = MACHINE_RUNS
        .iter()
        .find(|r| r.release == "MLPerf v5.0" && r.machine == "h100" && r.gpus == 8192)
        .unwrap();
    assert_eq!(mlperf.published_step_s(), 5.180);
}

/// Each group's first row calibrates `r∞` (the model's step of its layout is the published
/// step), the others are predicted and say how far they are from it; every row's link reads
/// back without a message, on the machine and at the precision it names.
#[test]
fn each_group_calibrates_on_its_first_row() {
    use scaling_core::panel::machine_runs::{held_rows, Role, MACHINE_RUNS};
    let rows: Vec<_> = held_rows().into_iter().map(Result::unwrap).collect();
    assert_eq!(rows.len(), MACHINE_RUNS.len());
    let mut seen = Vec::new();
    for r in &rows {
        let group = r.run.group();
        let first = !seen.contains(&group);
        seen.push(group);
        assert_eq!(r.role == Role::Calibration, first, "{:?}", r.run);
        if first {
            assert!(
                r.step_error().abs() < 1e-6,
                "{:?}: {}",
                r.run,
                r.step_error()
            );
        }
        let s = values(&r.run.query(r.r_inf).unwrap());
        assert_eq!(s.llm.machine.map(|m| m.name), Some(r.run.machine));
        assert_eq!(s.get_text(Key::Precision), r.run.precision);
        assert_eq!(s.llm.large_gemm_fraction, (r.r_inf * 1e6).round() / 1e6);
    }
    // MLPerf's GB200 sweep: one calibration, six rows of the same model at other scales;
    // NeMo 24.07 on H100 calibrates on GPT-3 5B, whose 175B rows are another model.
    let roles = |release: &str, machine: &str| -> Vec<Role> {
        rows.iter()
            .filter(|r| r.run.release == release && r.run.machine == machine)
            .map(|r| r.role)
            .collect()
    };
    let gb200 = roles("MLPerf v5.0", "gb200");
    assert_eq!(gb200[0], Role::Calibration);
    assert!(gb200[1..].iter().all(|&r| r == Role::SameModel));
    assert_eq!(gb200.len(), 7);
    let h100 = roles("NeMo 24.07", "h100");
    assert_eq!(h100[0], Role::Calibration);
    assert!(h100[1..].iter().all(|&r| r == Role::AnotherModel));
}

/// A row names the plausible changes that flip the search's fastest layout: held against the
/// search run again on the row's link with the change typed in, for a row that names `tpo 1`
/// and for one that names nothing.
#[test]
fn a_machine_row_names_the_changes_that_flip_its_fastest_layout() {
    use scaling_core::panel::layouts::search_at;
    use scaling_core::panel::machine_runs::held_rows;
    let rows: Vec<_> = held_rows().into_iter().map(Result::unwrap).collect();
    let fastest = |query: &str, gpus: u32| {
        search_at(&values(query), gpus as f64)
            .unwrap()
            .best()
            .map(|b| b.choice)
    };
    let flipped = rows.iter().find(|r| r.flips.contains(&"tpo 1")).unwrap();
    let q = flipped.run.query(flipped.r_inf).unwrap();
    assert_ne!(
        fastest(&q, flipped.run.gpus),
        fastest(&format!("{q}&tpo=1"), flipped.run.gpus),
        "{q}"
    );
    let steady = rows.iter().find(|r| r.flips.is_empty()).unwrap();
    let q = steady.run.query(steady.r_inf).unwrap();
    assert_eq!(
        fastest(&q, steady.run.gpus),
        fastest(&format!("{q}&tpo=1"), steady.run.gpus),
        "{q}"
    );
}

/// The explorer's band is the model's measured resolution: the median |step error| of the
/// published runs of the same model at another scale, to a tenth of a percent.
#[test]
fn the_explorer_band_is_the_measured_resolution() {
    use scaling_core::panel::layouts::LAYOUT_RESOLUTION;
    use scaling_core::panel::machine_runs::{held_rows, same_model_median_error};
    let rows: Vec<_> = held_rows().into_iter().map(Result::unwrap).collect();
    let measured = same_model_median_error(&rows);
    assert!(
        (measured - LAYOUT_RESOLUTION).abs() < 0.0005,
        "measured {measured}, constant {LAYOUT_RESOLUTION}"
    );
}

/// The explorer names the band: every fitting layout within the resolution of the fastest,
/// counted from the ranking itself.
#[test]
fn the_explorer_names_the_band_of_layouts_it_cannot_tell_apart() {
    use scaling_core::panel::layouts::{layouts_figures, search_at, LAYOUT_RESOLUTION};
    let s = values("v=1&preset=llama31-405b-h100&cm=physics&stack=meta");
    let search = search_at(&s, 8192.0).unwrap();
    let best = search.best().unwrap().step_ms;
    let within = search
        .layouts
        .iter()
        .filter(|l| l.fits && l.step_ms <= (1.0 + LAYOUT_RESOLUTION) * best)
        .count();
    assert!(within >= 2, "{within}");
    let figures = layouts_figures(&search);
    let (label, value) = figures
        .iter()
        .find(|(l, _)| l.starts_with("Within the model's resolution"))
        .expect("a band figure");
    assert!(label.contains("1.4%"), "{label}");
    assert!(value.starts_with(&format!("{within} layouts")), "{value}");
}

/// Korthikanti et al.'s Table 5 rows say what the paper's Table 3 says: 175B with selective
/// recomputation is TP 8 · PP 8 with three chunks a stage, 64 microbatches of one 2,048-token
/// sequence, sequence parallelism, and `P = 12·96·12,288² + 2·51,200·12,288 =
/// 173,946,175,488 + 1,258,291,200 = 175,204,466,688`.
#[test]
fn korthikanti_rows_are_the_papers_layouts() {
    use scaling_core::panel::recompute_runs::{Mode, TABLE5};
    let row = TABLE5
        .iter()
        .find(|r| r.model == "175B" && r.mode == Mode::SequenceSelective)
        .unwrap();
    let s = values(&row.query(0.5));
    for (key, want) in [
        (Key::Tp, "8"),
        (Key::Pp, "8"),
        (Key::Chunks, "3"),
        (Key::Recompute, "selective"),
        (Key::SequenceParallel, "1"),
        (Key::Microbatch, "1"),
        (Key::Layers, "96"),
        (Key::Hidden, "12288"),
        (Key::Heads, "96"),
        (Key::Machine, "a100"),
    ] {
        assert_eq!(s.get_text(key), want, "{}", key.name());
    }
    assert_eq!(s.llm.total_params, 175_204_466_688.0);
    assert_eq!(s.llm.global_batch_tokens, 64.0 * 2048.0);
    // The 1T runs plain 1F1B; every row is TP 8 on its own GPU count.
    let one_t = values(&TABLE5[7].query(0.5));
    assert_eq!(one_t.get_text(Key::Schedule), "1f1b");
    assert_eq!(
        TABLE5.iter().map(|r| r.published_s).sum::<f64>(),
        1.42 + 1.10 + 18.13 + 13.75 + 49.05 + 37.83 + 94.42 + 71.49
    );
}

/// The first row sets `r∞` (its step is the published one); the means are over the other
/// seven. Calculon's mean over those seven, by hand from its printed steps:
/// (|1.14/1.10 − 1| + |18.03/18.13 − 1| + |13.64/13.75 − 1| + |49.89/49.05 − 1| +
/// |34.47/37.83 − 1| + |90.08/94.42 − 1| + |66.04/71.49 − 1|) / 7 = 0.27803 / 7 = 0.0397.
#[test]
fn korthikanti_table_fits_its_first_row_and_predicts_the_rest() {
    use scaling_core::panel::recompute_runs::{mean_errors, recompute_rows};
    let rows = recompute_rows().unwrap();
    assert_eq!(rows.len(), 8);
    assert!(rows[0].calibration && rows[1..].iter().all(|r| !r.calibration));
    assert!(rows[0].error().abs() < 1e-6, "{}", rows[0].error());
    let r_inf = rows[0].r_inf;
    assert!(rows.iter().all(|r| r.r_inf == r_inf));
    let (model, calculon) = mean_errors(&rows);
    let by_hand = [
        (1.14, 1.10),
        (18.03, 18.13),
        (13.64, 13.75),
        (49.89, 49.05),
        (34.47, 37.83),
        (90.08, 94.42),
        (66.04, 71.49),
    ]
    .iter()
    .map(|(c, p): &(f64, f64)| (c / p - 1.0).abs())
    .sum::<f64>()
        / 7.0;
    assert!((calculon - by_hand).abs() < 1e-12, "{calculon}");
    assert!((calculon - 0.0397).abs() < 1e-4, "{calculon}");
    let model_by_rows = rows[1..]
        .iter()
        .map(|r| (r.model_s / r.run.published_s - 1.0).abs())
        .sum::<f64>()
        / 7.0;
    assert!((model - model_by_rows).abs() < 1e-12);
}

/// Software drift (`machine_runs::release_spreads`): the same dense row in two releases is
/// `max/min − 1` apart. By hand: H100 Llama 3 8B FP8 on 8 GPUs, 14,079 tokens/s/GPU in 25.09
/// and 14,451 in 25.11 (`machines-and-runs.md` note 6), the same batch, so 14,451/14,079 − 1
/// = 0.0264223…. A copy of a row at 0.8 of its rate in another release is 1/0.8 − 1 = 25%
/// from it; one in the same release, an MoE pair or another microbatch makes no set.
#[test]
fn software_drift_is_the_same_row_in_two_releases() {
    use scaling_core::panel::machine_runs::{release_spreads, Measured, MACHINE_RUNS};
    let spreads = release_spreads(&MACHINE_RUNS);
    assert!(
        spreads.iter().any(|s| (s - 0.026_422_3).abs() < 1e-6),
        "{spreads:?}"
    );
    let row = *MACHINE_RUNS
        .iter()
        .find(|r| r.release == "Megatron-Bridge 25.11" && r.machine == "h100" && r.gpus == 8)
        .unwrap();
    let Measured::TokensPerGpuPerS(rate) = row.measured else {
        panic!("a performance-summary row")
    };
    let slower = |release| scaling_core::panel::machine_runs::MachineRun {
        release,
        measured: Measured::TokensPerGpuPerS(0.8 * rate),
        ..row
    };
    let other = slower("another release");
    assert_eq!(release_spreads(&[row, other]).len(), 1);
    assert!((release_spreads(&[row, other])[0] - 0.25).abs() < 1e-12);
    assert!(release_spreads(&[row, slower(row.release)]).is_empty());
    let moe = |r: scaling_core::panel::machine_runs::MachineRun| {
        scaling_core::panel::machine_runs::MachineRun { ep: 8, ..r }
    };
    assert!(release_spreads(&[moe(row), moe(other)]).is_empty());
    let other_mbs = scaling_core::panel::machine_runs::MachineRun {
        mbs: row.mbs + 1,
        ..other
    };
    assert!(release_spreads(&[row, other_mbs]).is_empty());
}

/// The warning a physics-mode mixture of experts carries states what the published rows
/// show: counted here from the table, the rows predicted with another model's calibration,
/// split at 64 experts into the two families the warning names.
#[test]
fn the_experts_warning_states_the_published_rows() {
    use scaling_core::panel::checklist::EXPERTS_SHORTFALL;
    use scaling_core::panel::machine_runs::{held_rows, Role};
    let rows: Vec<_> = held_rows().into_iter().map(Result::unwrap).collect();
    let mut many = Vec::new();
    let mut few = Vec::new();
    let (mut many_models, mut few_models) = (Vec::new(), Vec::new());
    for r in rows.iter().filter(|r| r.role == Role::AnotherModel) {
        let experts = values(&r.run.query(r.r_inf).unwrap()).llm.walls.experts;
        let short = -r.step_error();
        if experts >= 64.0 {
            many.push(short);
            many_models.push(r.run.model);
        } else if experts > 1.0 {
            few.push(short);
            few_models.push(r.run.model);
        }
    }
    for models in [&mut many_models, &mut few_models] {
        models.sort_unstable();
        models.dedup();
    }
    assert_eq!(
        many_models,
        ["DeepSeek-V3", "Qwen3 235B-A22B", "Qwen3 30B-A3B"]
    );
    assert_eq!(few_models, ["Llama 4 Scout", "Mixtral 8x7B"]);
    many.sort_by(f64::total_cmp);
    few.sort_by(f64::total_cmp);
    let f = EXPERTS_SHORTFALL;
    assert_eq!(many.len(), f.many_rows);
    assert_eq!(many.iter().filter(|&&s| s > 0.0).count(), f.many_short);
    let median = if many.len() % 2 == 1 {
        many[many.len() / 2]
    } else {
        (many[many.len() / 2 - 1] + many[many.len() / 2]) / 2.0
    };
    let close = |a: f64, b: f64| (a - b).abs() < 0.0005;
    assert!(close(median, f.many_median), "median {median}");
    assert!(close(few[0], f.few_least), "least {}", few[0]);
    assert!(
        close(few[few.len() - 1], f.few_most),
        "most {}",
        few[few.len() - 1]
    );
}

/// Megatron-Bridge's folded MoE rows (whole experts, EP over TP·D: Qwen3 235B-A22B with EP 32
/// over TP 2 · DP 16 on H100, EP 64 over TP 2 · DP 32 on 64 GB200s) are in the search's space:
/// their own layout is the search's whole-experts choice, ranked, and named `ETP1`.
#[test]
fn the_folded_moe_rows_are_in_the_search_space() {
    use scaling_core::panel::machine_runs::held_rows;
    use scaling_core::text::layout::layout_name;
    let rows: Vec<_> = held_rows().into_iter().map(Result::unwrap).collect();
    let folded: Vec<_> = rows
        .iter()
        .filter(|r| r.run.etp == 1 && r.run.tp > 1)
        .collect();
    assert_eq!(folded.len(), 4);
    for r in folded {
        let own = &r.search.current;
        assert_eq!(own.choice.expert_tp, 1, "{}", r.run.model);
        assert!(own.choice.ep as f64 > own.dp, "{:?}", own.choice);
        assert!(
            r.search.current_rank.is_some(),
            "{} {}",
            r.run.machine,
            r.run.release
        );
        assert!(layout_name(own).contains("ETP1"), "{}", layout_name(own));
    }
}

//! Importing a reader's own run (src/scenario/import): published configs from public
//! repositories (the corpus beside the project, `../shared/fixtures/import`, with repository,
//! commit and path in its SOURCES.md; skipped where it is missing), each mapped into the
//! scenario, its parameter count held to the model card's; the project's own launch scripts
//! and recipe (tests/import-scripts); goldens by hand; and hostile or contradictory text
//! refused naming the key, the scenario unchanged.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;
use crate::common::corpus::{corpus_file, corpus_or_skip};

use scaling_core::scenario::import::{apply, detect, read, Format, ImportError, Outcome};
use scaling_core::scenario::{decode, Key, Scenario};
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A published config of the corpus (`hf/…`, `torchtitan/…`), or `None` after saying the test
/// skips for want of it.
fn config(path: &str) -> Option<String> {
    corpus_file(root(), path)
}

/// The project's own test scripts: tests/import-scripts.
fn scripts_dir() -> PathBuf {
    root().join("tests/import-scripts")
}

/// One of the project's own test scripts.
fn script(name: &str) -> String {
    let full = scripts_dir().join(name);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// The project's own Megatron-LM launch scripts, by name.
fn megatron_scripts() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(scripts_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".sh"))
        .map(|name| {
            let text = script(&name);
            (name, text)
        })
        .collect();
    out.sort();
    out
}

/// The scenario a reader starts from: a training sequence length (no config.json has one).
fn base() -> Scenario {
    let d = decode("v=1&b=16M&sq=8192&tp=8&pp=8&mbs=1");
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    d.scenario
}

/// A corpus config imported over [`base`], or `None` (skipped) without the corpus.
fn imported(path: &str) -> Option<Scenario> {
    let import = read(&config(path)?).unwrap_or_else(|e| panic!("{path}: {e}"));
    Some(apply(&base(), &import).unwrap_or_else(|e| panic!("{path}: {e}")))
}

/// Llama 3.1 70B by hand from its config.json (L 80, h 8,192, 64 heads of 128, 8 KV heads,
/// gated FFN 28,672, V 128,256): attention `2h² + 2·h·8·128` = 150,994,944 per layer, MLP
/// `3·h·28,672` = 704,643,072, times 80 = 68,451,041,280; embeddings `2·V·h` =
/// 2,101,346,304; P = 70,552,387,584 (the card's 70.6B; Hugging Face's 70,553,706,496 adds the
/// 161 RMSNorm vectors of 8,192, which the shape does not count).
#[test]
fn llama_70b_config_sets_its_shape_and_parameter_count() {
    let Some(s) = imported("hf/llama-3.1-70b.config.json") else {
        return;
    };
    for (key, value) in [
        (Key::Layers, "80"),
        (Key::Hidden, "8192"),
        (Key::Heads, "64"),
        (Key::KvHeads, "8"),
        (Key::Ffn, "28672"),
        (Key::Vocab, "128256"),
        // Kept: the config names no training sequence length or layout.
        (Key::SeqLen, "8192"),
        (Key::Tp, "8"),
    ] {
        assert_eq!(s.get_text(key), value, "{}", key.name());
    }
    assert_eq!(s.llm.total_params, 70_552_387_584.0);
    assert_eq!(s.llm.active_params, 70_552_387_584.0);
}

/// DeepSeek-V3's config.json by hand (`shape.rs`'s `latent_attention_and_leading_dense_layers`
/// derives the counts): latent attention `kvr` 512, `qr` 1,536, `rope` 64 on heads of
/// `qk_nope_head_dim` 128, three leading dense layers of 18,432: `P` 670,918,967,296 and `P_a`
/// 37,444,845,568. A Llama 3.1 8B config imported after it keeps none of that: `P` is its
/// 8,029,995,008 (32 layers of `2·4,096·128·40` + `3·4,096·14,336` = 218,103,808, and
/// `2·128,256·4,096`).
#[test]
fn latent_attention_and_dense_layers_come_from_the_config_and_go_with_the_next() {
    let Some(s) = imported("hf/deepseek-v3.config.json") else {
        return;
    };
    for (key, value) in [
        (Key::HeadDim, "128"),
        (Key::KvLoraRank, "512"),
        (Key::QLoraRank, "1536"),
        (Key::RopeDim, "64"),
        (Key::DenseLayers, "3"),
        (Key::DenseFfn, "18432"),
        (Key::Ffn, "2048"),
    ] {
        assert_eq!(s.get_text(key), value, "{}", key.name());
    }
    assert_eq!(s.llm.total_params, 670_918_967_296.0);
    assert_eq!(s.llm.active_params, 37_444_845_568.0);
    let Some(llama) = config("hf/llama-3.1-8b.config.json") else {
        return;
    };
    let next = apply(&s, &read(&llama).unwrap()).unwrap();
    for key in [
        Key::KvLoraRank,
        Key::QLoraRank,
        Key::RopeDim,
        Key::DenseLayers,
        Key::DenseFfn,
    ] {
        assert_eq!(next.get_text(key), "0", "{}", key.name());
    }
    assert_eq!(next.llm.total_params, 8_029_995_008.0);
}

/// Each published config's parameter count, from the imported shape, within 2% of its model
/// card (the corpus's SOURCES.md), or the reason it cannot be.
#[test]
fn every_config_agrees_with_its_model_card() {
    // (config, card's total parameters, why it may be off by more than 2%)
    let cards: [(&str, f64, Option<&str>); 13] = [
        ("llama-3.1-8b", 8.03e9, None),
        ("llama-3.1-70b", 70.6e9, None),
        ("llama-3.1-405b", 405.0e9, None),
        ("mixtral-8x7b-v0.1", 46.7e9, None),
        ("mixtral-8x22b-v0.1", 141.0e9, None),
        ("qwen3-8b", 8.2e9, None),
        // 64 heads of 128 in a 5,120-wide model (head_dim ≠ h/a, `hdim`).
        ("qwen3-32b", 32.8e9, None),
        ("qwen3-30b-a3b", 30.5e9, None),
        ("qwen3-235b-a22b", 235.0e9, None),
        ("gpt-oss-20b", 21.0e9, None),
        ("gpt-oss-120b", 117.0e9, None),
        // Multi-head latent attention and leading dense layers (`kvr`, `dl`); the
        // multi-token-prediction module is not in the card's 671B.
        ("deepseek-v3", 671.0e9, None),
        ("kimi-k2-instruct", 1.04e12, None),
    ];
    for (name, card, why) in cards {
        let Some(text) = config(&format!("hf/{name}.config.json")) else {
            return;
        };
        let import = read(&text).unwrap();
        assert_eq!(import.format, Format::HuggingFace);
        let s = apply(&base(), &import).unwrap();
        let off = (s.llm.total_params - card).abs() / card;
        match why {
            None => assert!(off <= 0.02, "{name}: {} vs {card}", s.llm.total_params),
            // Said in the report: the key behind the difference is approximated.
            Some(key) => assert!(
                import
                    .entries
                    .iter()
                    .any(|e| e.source == key && matches!(e.outcome, Outcome::Approximated(..))),
                "{name}: {off:.3} off and {key} not reported as approximated"
            ),
        }
    }
}

/// Mixtral 8x7B: eight experts, two a token, every expert's gated MLP 14,336 wide.
#[test]
fn an_moe_config_sets_its_experts() {
    let Some(s) = imported("hf/mixtral-8x7b-v0.1.config.json") else {
        return;
    };
    assert_eq!(s.get_text(Key::Experts), "8");
    assert_eq!(s.get_text(Key::ExpertsPerToken), "2");
    assert_eq!(s.get_text(Key::Ffn), "14336");
    // P_a by hand: L·(attention + 2·MLP) + 2·V·h with h = 4,096, 32 heads, 8 KV heads,
    // V = 32,000: 32·(41,943,040 + 2·176,160,768) = 12,616,466,432, plus 262,144,000 of
    // embeddings = 12,878,610,432 (the card's 12.9B active).
    assert_eq!(s.llm.active_params, 12_878_610_432.0);
}

/// A GPT-3 175B launch script (tests/import-scripts/gpt3_175b_flags.sh): the layout and the
/// batch in Megatron's conventions (1,536 sequences of 2,048 tokens), the GELU MLP as 4h.
#[test]
fn megatron_flags_set_the_layout_and_batch() {
    let text = script("gpt3_175b_flags.sh");
    assert_eq!(detect(&text), Some(Format::Megatron));
    let s = apply(&base(), &read(&text).unwrap()).unwrap();
    for (key, value) in [
        (Key::Tp, "8"),
        (Key::Pp, "16"),
        (Key::Layers, "96"),
        (Key::Hidden, "12288"),
        (Key::Heads, "96"),
        (Key::KvHeads, "96"),
        (Key::Ffn, "0"),
        (Key::SeqLen, "2048"),
        (Key::Microbatch, "1"),
    ] {
        assert_eq!(s.get_text(key), value, "{}", key.name());
    }
    assert_eq!(s.llm.global_batch_tokens, 1536.0 * 2048.0);
}

/// Shell variables the script sets are substituted; interleaving and recomputation in
/// Megatron's words; a variable the text does not set is reported, not guessed.
#[test]
fn megatron_variables_interleaving_and_recomputation() {
    let text = "TP=4\nPP=${PP:-8}\n\
        torchrun pretrain_gpt.py --num-layers 96 --tensor-model-parallel-size $TP \\\n\
        --pipeline-model-parallel-size ${PP} --num-layers-per-virtual-pipeline-stage 3 \\\n\
        --recompute-granularity full --recompute-method block --recompute-num-layers 2 \\\n\
        --sequence-parallel --use-distributed-optimizer --context-parallel-size $CP\n";
    let import = read(text).unwrap();
    let values = import.values();
    let has = |k: Key, v: &str| values.iter().any(|(key, value)| *key == k && value == v);
    assert!(has(Key::Tp, "4") && has(Key::Pp, "8"), "{values:?}");
    // 96 layers / (8 stages · 3 layers a virtual stage) = 4 chunks per stage.
    assert!(
        has(Key::Schedule, "interleaved") && has(Key::Chunks, "4"),
        "{values:?}"
    );
    assert!(has(Key::Recompute, "full") && has(Key::RecomputeLayers, "2"));
    assert!(has(Key::SequenceParallel, "1") && has(Key::Zero, "1"));
    let cp = import
        .entries
        .iter()
        .find(|e| e.source == "--context-parallel-size")
        .unwrap();
    assert!(matches!(cp.outcome, Outcome::Ignored(_)), "{cp:?}");
    assert_eq!(cp.line, 6);
}

/// The older spellings: `--checkpoint-activations` (Megatron-LM's 2020 GPT examples,
/// BLOOM) recomputes every layer; `--recompute-activations` (MLPerf GPT-3) is selective, and
/// wins over a granularity also given, as Megatron-LM's `arguments.py` makes it.
#[test]
fn megatron_older_recomputation_flags() {
    let values = |text: &str| read(text).unwrap().values();
    let launch = "--tensor-model-parallel-size 8 --micro-batch-size 1 ";
    let v = values(&format!("{launch}--checkpoint-activations"));
    assert!(v.contains(&(Key::Recompute, "full".into())), "{v:?}");
    assert!(!v.contains(&(Key::Recompute, "none".into())), "{v:?}");
    let v = values(&format!(
        "{launch}--checkpoint-activations --checkpoint-num-layers 1"
    ));
    assert!(v.contains(&(Key::RecomputeLayers, "0".into())), "{v:?}");
    let import = read(&format!(
        "{launch}--checkpoint-activations --checkpoint-num-layers 4"
    ))
    .unwrap();
    let groups = import
        .entries
        .iter()
        .find(|e| e.source == "--checkpoint-num-layers")
        .unwrap();
    assert!(
        matches!(groups.outcome, Outcome::Approximated(..)),
        "{groups:?}"
    );
    let v = values(&format!("{launch}--recompute-activations"));
    assert!(v.contains(&(Key::Recompute, "selective".into())), "{v:?}");
    let import = read(&format!(
        "{launch}--recompute-activations --recompute-granularity full"
    ))
    .unwrap();
    let v = import.values();
    assert!(v.contains(&(Key::Recompute, "selective".into())), "{v:?}");
    assert!(!v.contains(&(Key::Recompute, "full".into())), "{v:?}");
    let granularity = import
        .entries
        .iter()
        .find(|e| e.source == "--recompute-granularity")
        .unwrap();
    assert!(
        matches!(granularity.outcome, Outcome::Ignored(_)),
        "{granularity:?}"
    );
}

/// "Changes neither memory, traffic nor FLOPs" only for keys known to change nothing; a
/// misspelt or unknown key says it was not read and may change the model; a multimodal
/// config's vision encoder is named as left out.
#[test]
fn only_known_keys_are_said_to_have_no_effect() {
    let text = r#"{"architectures": ["X"], "text_config": {"num_hidden_layers": 2,
        "hidden_size": 64, "num_attention_heads": 4, "intermediate_size": 128,
        "vocab_size": 100, "rope_theta": 10000, "num_hiden_layers": 3,
        "interleave_moe_layer_step": 2, "eos_token_id": 2}, "vision_config": {"depth": 24}}"#;
    let import = read(text).unwrap();
    let why = |source: &str| {
        let e = import
            .entries
            .iter()
            .find(|e| e.source == source)
            .unwrap_or_else(|| panic!("{source} is not reported"));
        assert_eq!(e.kind(), "ignored", "{source}: {e:?}");
        e.describe()
    };
    for known in ["rope_theta", "eos_token_id", "architectures"] {
        assert!(
            why(known).contains("neither memory"),
            "{known}: {}",
            why(known)
        );
    }
    for unknown in ["num_hiden_layers", "interleave_moe_layer_step"] {
        let w = why(unknown);
        assert!(
            w.contains("does not know") && !w.contains("neither"),
            "{unknown}: {w}"
        );
    }
    // One edit from a key the importer reads: named.
    assert!(
        why("num_hiden_layers").contains("did you mean num_hidden_layers?"),
        "{}",
        why("num_hiden_layers")
    );
    assert!(!why("interleave_moe_layer_step").contains("did you mean"));
    // The activation decides a gated MLP: not "no effect".
    let gelu = read(
        r#"{"num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4,
        "vocab_size": 100, "hidden_act": "gelu"}"#,
    )
    .unwrap();
    let act = gelu
        .entries
        .iter()
        .find(|e| e.source == "hidden_act")
        .unwrap();
    assert!(act.describe().contains("model_type"), "{}", act.describe());
    assert!(
        why("vision_config").contains("vision"),
        "{}",
        why("vision_config")
    );
    // Falcon 7B's multi-query attention is one K/V head.
    let falcon = r#"{"model_type": "falcon", "num_hidden_layers": 32, "hidden_size": 4544,
        "num_attention_heads": 71, "multi_query": true, "vocab_size": 65024}"#;
    let v = read(falcon).unwrap().values();
    assert!(v.contains(&(Key::KvHeads, "1".into())), "{v:?}");
}

/// Bad input is refused naming the key or the line; the scenario is not touched (`apply`
/// returns a new one or nothing).
#[test]
fn bad_text_is_refused_naming_the_key() {
    let refused = |text: &str| read(text).expect_err(text);
    assert_eq!(refused("hello world"), ImportError::UnknownFormat);
    assert!(refused("hello world")
        .to_string()
        .contains("NeMo overrides"));
    assert_eq!(refused("{\"rope_theta\": 5}"), ImportError::UnknownFormat);
    assert!(matches!(
        refused("{\n\"num_hidden_layers\": 80,\n\"hidden_size\": }"),
        ImportError::Json { line: 3, .. }
    ));
    let bad = refused("{\"num_hidden_layers\": \"eighty\"}");
    assert!(
        matches!(&bad, ImportError::BadValue { source, .. } if source == "num_hidden_layers"),
        "{bad:?}"
    );
    assert!(bad.to_string().contains("num_hidden_layers"), "{bad}");
    assert!(matches!(
        refused("{\"num_hidden_layers\": -3}"),
        ImportError::BadValue { .. }
    ));
    // 64 heads cannot share 6 key/value heads.
    let c = refused("{\"num_attention_heads\": 64,\n\"num_key_value_heads\": 6}");
    assert_eq!(
        c,
        ImportError::Contradiction {
            first: "num_attention_heads".into(),
            second: "num_key_value_heads".into(),
            line: 2
        }
    );
    let c = refused("--num-layers 8 --micro-batch-size 3 --global-batch-size 100");
    assert!(
        matches!(&c, ImportError::Contradiction { first, .. } if first == "--global-batch-size")
    );
    // The scenario's own rules: a TP that does not divide the GPU rows.
    let import = read("--tensor-model-parallel-size 3").unwrap();
    assert!(matches!(
        apply(&base(), &import),
        Err(ImportError::Refused(_))
    ));
}

/// Hostile text: megabytes, deep nesting, numbers past `f64`, control characters — refused
/// quickly, never a panic.
#[test]
fn hostile_text_is_refused() {
    let huge = format!(
        "{{\"num_hidden_layers\": 80, \"x\": \"{}\"}}",
        "a".repeat(2 << 20)
    );
    assert!(matches!(read(&huge), Err(ImportError::TooLarge { .. })));
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(read(&deep).is_err());
    let deep_object = format!("{}1{}", "{\"a\":".repeat(10_000), "}".repeat(10_000));
    assert!(read(&deep_object).is_err());
    assert!(read("{\"num_hidden_layers\": 1e400}").is_err());
    assert!(read("{\"num_hidden_layers\": 1e300}").is_err());
    assert!(read("--num-layers 1e300").is_err());
    assert!(read("--num-layers \u{0}\u{7}").is_err());
    let flags = "--num-layers 8 ".repeat(50_000);
    assert!(read(&flags).is_ok());
}

/// The layout inputs export and import carry.
const LAYOUT: [Key; 11] = [
    Key::Tp,
    Key::Pp,
    Key::Cp,
    Key::Ep,
    Key::Microbatch,
    Key::Schedule,
    Key::Chunks,
    Key::Zero,
    Key::Recompute,
    Key::RecomputeLayers,
    Key::GlobalBatch,
];

fn layout_of(s: &Scenario) -> Vec<(Key, String)> {
    let interleaved = s.get_text(Key::Schedule) == "interleaved";
    let pipeline = s.llm.pp > 1;
    LAYOUT
        .iter()
        // The chunk count is the schedule's only when interleaved, the schedule only with
        // a pipeline.
        .filter(|&&k| k != Key::Chunks || (interleaved && pipeline))
        .filter(|&&k| k != Key::Schedule || pipeline)
        .map(|&k| (k, s.get_text(k)))
        .collect()
}

/// `s` with a layout that differs from an imported run's in every key an export writes:
/// one TP, PP, CP and EP rank, ZeRO-3, full recomputation.
pub(crate) fn another_layout(s: &Scenario) -> Scenario {
    s.with_values(&[
        (Key::Tp, "1".into()),
        (Key::Pp, "1".into()),
        (Key::Cp, "1".into()),
        (Key::Ep, "1".into()),
        (Key::Etp, "0".into()),
        (Key::Zero, "3".into()),
        (Key::Recompute, "full".into()),
    ])
    .unwrap()
}

/// [`layout_of`] but the batch when the export `text` moved it to one the launcher can run
/// (the export says so): the rest of the layout must come back as it was.
pub(crate) fn layout_sent(s: &Scenario, text: &str) -> Vec<(Key, String)> {
    let moved = text.contains("whole number of microbatches is written");
    layout_of(s)
        .into_iter()
        .filter(|(k, _)| !moved || *k != Key::GlobalBatch)
        .collect()
}

/// Every explorer row (the first twenty tie groups) of every preset with a shape at its
/// baseline, written as `tool`'s settings and read back over the scenario it came from, is the
/// same layout — but the rows the tool cannot run, which the export says in a comment
/// ([`inexpressible`]). Returns how many rows were checked and how many the tool cannot run.
fn rows_round_trip(tool: scaling_core::scenario::export::Tool) -> (usize, usize) {
    use scaling_core::panel::layouts::{search_at, tie_groups, use_query};
    use scaling_core::scenario::export::launch_settings;
    use scaling_core::scenario::Preset;
    let (mut checked, mut cannot) = (0, 0);
    for p in Preset::ALL {
        let s = decode(&format!("v=1&preset={}", p.name())).scenario;
        let n = s.llm.baseline_gpus;
        let Ok(search) = search_at(&s, n) else {
            continue;
        };
        for (first, _) in tie_groups(&search).into_iter().take(20) {
            let Some(query) = use_query(&s, &search.layouts[first]) else {
                continue;
            };
            let row = decode(&query).scenario;
            let text = launch_settings(&row, tool, n);
            if inexpressible(&text) {
                cannot += 1;
                continue;
            }
            let back = apply(&s, &read(&text).unwrap_or_else(|e| panic!("{text}: {e}")))
                .unwrap_or_else(|e| panic!("{}: {text}: {e}", p.name()));
            // A batch that is not a whole number of sequences goes as the nearest one (the
            // export says so): the rest of the layout must come back as it was.
            assert_eq!(
                layout_sent(&back, &text),
                layout_sent(&row, &text),
                "{}:\n{text}",
                p.name()
            );
            checked += 1;
        }
    }
    (checked, cannot)
}

/// Megatron-LM cannot run a zero-bubble schedule or interleaved stages of unequal layers.
#[test]
fn explorer_rows_round_trip_through_megatron_flags() {
    let (checked, cannot) = rows_round_trip(scaling_core::scenario::export::Tool::Megatron);
    assert!(
        checked >= 50,
        "{checked} rows, {cannot} Megatron-LM cannot run"
    );
}

/// Each of the project's Megatron-LM scripts (tests/import-scripts: arrays, backslashed
/// lines, shell variables with defaults, a batch ramp, FP8 and MoE flags), imported,
/// exported and imported again, gives the same layout.
#[test]
fn megatron_scripts_round_trip() {
    use scaling_core::scenario::export::{launch_settings, Tool};
    let scripts = megatron_scripts();
    assert!(scripts.len() >= 4, "{} scripts", scripts.len());
    for (name, text) in scripts {
        let once = apply(
            &base(),
            &read(&text).unwrap_or_else(|e| panic!("{name}: {e}")),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let flags = launch_settings(&once, Tool::Megatron, once.llm.baseline_gpus);
        // Over the same model with another layout: the flags alone bring the layout back.
        let other = another_layout(&once);
        let twice = apply(&other, &read(&flags).unwrap()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            layout_sent(&twice, &flags),
            layout_sent(&once, &flags),
            "{name}:\n{flags}"
        );
    }
}

/// Whether an export says the tool cannot run the layout (a comment naming what it lacks).
pub(crate) fn inexpressible(settings: &str) -> bool {
    [
        "no flag for it",
        "do not split evenly",
        "no such mode",
        "no setting for it",
    ]
    .iter()
    .any(|c| settings.contains(c))
}

/// torchtitan's Llama 3 70B config: FSDP, TP 8, the per-rank batch of 8 sequences of 8,192
/// as the microbatch (no pipeline), full recomputation.
#[cfg(feature = "toml")]
#[test]
fn torchtitan_config_sets_the_layout() {
    assert!(matches!(
        read("[training]\nseq_len = \"long\"\n"),
        Err(ImportError::BadValue { line: 2, .. })
    ));
    assert!(matches!(
        read("[training]\nseq_len = = 3\n"),
        Err(ImportError::Toml { line: 2, .. })
    ));
    let Some(text) = config("torchtitan/llama3_70b.toml") else {
        return;
    };
    assert_eq!(detect(&text), Some(Format::Torchtitan));
    let s = apply(&base(), &read(&text).unwrap()).unwrap();
    for (key, value) in [
        (Key::Tp, "8"),
        (Key::Pp, "1"),
        (Key::Cp, "1"),
        (Key::Zero, "3"),
        (Key::Microbatch, "8"),
        (Key::SeqLen, "8192"),
        (Key::Recompute, "full"),
        // global_batch_size absent: local × DP depends on the GPU count; b keeps its value.
        (Key::GlobalBatch, "16M"),
    ] {
        assert_eq!(s.get_text(key), value, "{}", key.name());
    }
}

/// Every explorer row of every preset with a shape, as a torchtitan config and back, is the
/// same layout — but the rows torchtitan cannot run (ZeRO-1 and 2, partial recomputation,
/// interleaved stages of unequal layers), which the export says in a comment. And each
/// torchtitan config of the corpus, imported, exported and imported again, is the same layout.
#[cfg(feature = "toml")]
#[test]
fn layouts_round_trip_through_torchtitan() {
    use scaling_core::scenario::export::{launch_settings, Tool};
    let (checked, cannot) = rows_round_trip(Tool::Torchtitan);
    assert!(
        checked >= 10,
        "{checked} rows, {cannot} torchtitan cannot run"
    );
    for name in ["llama3_8b.toml", "llama3_70b.toml", "llama3_405b.toml"] {
        let Some(once) = imported(&format!("torchtitan/{name}")) else {
            return;
        };
        let toml = launch_settings(&once, Tool::Torchtitan, once.llm.baseline_gpus);
        let other = once
            .with_values(&[
                (Key::Tp, "1".into()),
                (Key::Zero, "1".into()),
                (Key::Recompute, "none".into()),
            ])
            .unwrap();
        let twice = apply(&other, &read(&toml).unwrap()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            layout_sent(&twice, &toml),
            layout_sent(&once, &toml),
            "{name}:\n{toml}"
        );
    }
}

/// The model-shape menu: each shape sets what its `config.json` sets (read by the importer
/// from the corpus, when it is beside the project), and its parameter count agrees with the
/// card within 2% or the difference is an approximation the importer reports.
#[test]
fn every_model_shape_is_its_config() {
    use scaling_core::scenario::shapes::SHAPES;
    let configs = [
        ("Llama 3.1 8B", "llama-3.1-8b"),
        ("Qwen3 8B", "qwen3-8b"),
        ("Qwen3 32B", "qwen3-32b"),
        ("Llama 3.1 70B", "llama-3.1-70b"),
        ("Llama 3.1 405B", "llama-3.1-405b"),
        ("Qwen3 30B-A3B", "qwen3-30b-a3b"),
        ("Mixtral 8x7B", "mixtral-8x7b-v0.1"),
        ("Mixtral 8x22B", "mixtral-8x22b-v0.1"),
        ("Qwen3 235B-A22B", "qwen3-235b-a22b"),
        ("DeepSeek-V3", "deepseek-v3"),
        ("Kimi K2", "kimi-k2-instruct"),
    ];
    let corpus = corpus_or_skip(root(), "the shapes against their config.json");
    let dense = SHAPES.iter().filter(|s| s.query.contains("ne=1&")).count();
    assert!(SHAPES.len() >= 12 && dense >= 4 && SHAPES.len() - dense >= 4);
    for shape in SHAPES {
        let s = shape
            .apply(&base())
            .unwrap_or_else(|| panic!("{}", shape.name));
        assert!(s.llm.walls.has_shape(), "{}", shape.name);
        let Some((_, file)) = configs.iter().find(|(n, _)| *n == shape.name) else {
            continue;
        };
        if corpus.is_none() {
            continue;
        }
        let from_config = imported(&format!("hf/{file}.config.json")).unwrap();
        for key in scaling_core::scenario::import::SHAPE_KEYS {
            assert_eq!(s.get_text(key), from_config.get_text(key), "{}", shape.name);
        }
        assert_eq!(s.llm.total_params, from_config.llm.total_params);
    }
    // GPT-NeoX 20B by hand (no config.json in the corpus): attention 4h² = 150,994,944 and GELU MLP
    // 8h² = 301,989,888 a layer at h = 6,144, times 44 = 19,931,332,608; embeddings
    // 2 · 50,432 · 6,144 = 619,708,416; P = 20,551,041,024 (the card's 20.6B).
    let neox = scaling_core::scenario::shapes::ModelShape::by_name("GPT-NeoX 20B").unwrap();
    let s = neox.apply(&base()).unwrap();
    assert_eq!(s.llm.total_params, 20_551_041_024.0);
    assert_eq!(s.get_text(Key::SeqLen), "2048");
}

/// NeMo 2.0 overrides: a Llama 3 70B recipe's pretraining layout (the project's own
/// tests/import-scripts/nemo_recipe_llama3_70b.py: TP 4, PP 4, virtual 5, CP 2, sequence
/// parallel, 512 sequences of 8,192, one a microbatch) as a script assigns it; the recipe's
/// Python itself is refused (code, not settings); every explorer row round-trips as NeMo
/// overrides but the ones NeMo cannot run.
#[test]
fn nemo_overrides_round_trip() {
    use scaling_core::scenario::export::Tool;
    let recipe = script("nemo_recipe_llama3_70b.py");
    assert_eq!(detect(&recipe), Some(Format::Nemo));
    assert_eq!(read(&recipe), Err(ImportError::RecipeCode));
    let (checked, cannot) = rows_round_trip(Tool::Nemo);
    assert!(checked >= 15, "{checked} rows, {cannot} NeMo cannot run");
    // The recipe's own pretraining defaults, its `recipe.…` assignments, as overrides over
    // the model's config.
    let text: String = recipe
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("recipe."))
        .map(|l| format!("{l}\n"))
        .collect();
    let Some(llama) = imported("hf/llama-3.1-70b.config.json") else {
        return;
    };
    let s = apply(&llama, &read(&text).unwrap()).unwrap();
    for (key, value) in [
        (Key::Tp, "4"),
        (Key::Pp, "4"),
        (Key::Schedule, "interleaved"),
        (Key::Chunks, "5"),
        (Key::Cp, "2"),
        (Key::SequenceParallel, "1"),
        (Key::Microbatch, "1"),
    ] {
        assert_eq!(s.get_text(key), value, "{}", key.name());
    }
    assert_eq!(s.llm.global_batch_tokens, 512.0 * 8192.0);
}

/// The texts `mutated_files_never_break_the_page` mutates: the project's launch scripts, the
/// corpus's configs of every format, three training logs and NeMo overrides.
fn fuzzed_texts() -> Vec<String> {
    let mut texts: Vec<String> = ["gpt3_175b_flags.sh", "mixtral_8x7b_moe_flags.sh"]
        .iter()
        .map(|f| script(f))
        .collect();
    if let Some(dir) = corpus_or_skip(root(), "mutating the corpus's configs") {
        for f in [
            "hf/llama-3.1-70b.config.json",
            "hf/mixtral-8x7b-v0.1.config.json",
            "hf/deepseek-v3.config.json",
            "torchtitan/llama3_70b.toml",
            "nemo-yaml/launcher_gpt3_175b.yaml",
            "nemo-yaml/launcher_mixtral_8x7b.yaml",
            "other/deepspeed_gpt2-xl-japanese.ds_config.json",
            "other/gpt-neox_pythia-6.9b.yml",
        ] {
            texts.push(std::fs::read_to_string(dir.join(f)).unwrap());
        }
    }
    // Training logs: a torchtitan log, the Trainer's excerpt, and two parts read as one run.
    if let Some(dir) = crate::common::corpus::logs_or_skip(root(), "mutating the training logs") {
        let log =
            |f: &str| String::from_utf8_lossy(&std::fs::read(dir.join(f)).unwrap()).into_owned();
        texts.push(log("torchtitan/qwen3-14b_a.log"));
        texts.push(log("hf-trainer/llama-3.2-1b_ezpz.excerpt.log"));
        texts.push(format!(
            "==> golden.json <==\n{}\n==> model_config.yaml <==\n{}",
            log("megatron-golden/gpt3-moe-small.golden_values_dev_dgx_h100.json"),
            log("megatron-golden/gpt3-moe-small.model_config.yaml")
        ));
    }
    texts.push(
        "trainer.strategy.tensor_model_parallel_size=4\n\
         trainer.strategy.virtual_pipeline_model_parallel_size=5\n\
         data.seq_length=8192\ndata.global_batch_size=512\ndata.micro_batch_size=1\n"
            .to_string(),
    );
    texts
}

/// Launch scripts, published configs (when the corpus is beside the project: Hugging Face,
/// torchtitan, NeMo launcher YAML, DeepSpeed, GPT-NeoX, three training logs) and NeMo overrides,
/// mutated: bytes flipped, inserted, deleted, lines repeated, numbers swapped for
/// hostile ones (`NaN`, `1e400`, `-0`, `99999999999999999999`).
/// Reading never panics; a text that is read and applied gives a scenario whose every panel
/// the shared checker finds clean (no `NaN`, `inf` or broken number shown), as a fuzzed link
/// does (`tests/fuzz_decode.rs`).
#[test]
fn mutated_files_never_break_the_page() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    let texts = fuzzed_texts();
    const HOSTILE: [&str; 8] = [
        "NaN",
        "1e400",
        "-0",
        "99999999999999999999",
        "0",
        "-1",
        "1.5",
        "\u{202e}\u{0}",
    ];
    let mutation = (0usize..5, any::<u64>(), 0usize..HOSTILE.len(), any::<u8>());
    let strategy = (0..texts.len(), prop::collection::vec(mutation, 1..6));
    let mut runner = TestRunner::new(Config {
        cases: 300,
        failure_persistence: None,
        ..Config::default()
    });
    let (read_ok, applied) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
    runner
        .run(&strategy, |(which, mutations)| {
            let mut text = texts[which].clone().into_bytes();
            for (kind, at, hostile, byte) in mutations {
                let at = (at as usize) % (text.len() + 1);
                match kind {
                    0 if at < text.len() => text[at] ^= byte | 1,
                    1 => text.insert(at.min(text.len()), byte),
                    2 if at < text.len() => {
                        text.remove(at);
                    }
                    3 => {
                        // A digit run replaced by a hostile number.
                        let start = text[at..].iter().position(u8::is_ascii_digit);
                        if let Some(p) = start.map(|p| p + at) {
                            let end = text[p..]
                                .iter()
                                .position(|b| !b.is_ascii_digit())
                                .map_or(text.len(), |e| p + e);
                            text.splice(p..end, HOSTILE[hostile].bytes());
                        }
                    }
                    _ => {
                        let line: Vec<u8> = text[..at].to_vec();
                        text.extend_from_slice(&line[line.len().saturating_sub(200)..]);
                    }
                }
            }
            let text = String::from_utf8_lossy(&text).into_owned();
            let outcome = std::panic::catch_unwind(|| read(&text));
            prop_assert!(outcome.is_ok(), "read panicked on {text:?}");
            if let Ok(Ok(import)) = outcome {
                read_ok.set(read_ok.get() + 1);
                if let Ok(s) = apply(&base(), &import) {
                    applied.set(applied.get() + 1);
                    let problems = common::check(&scaling_core::panel::Panel::compute(
                        &s,
                        scaling_core::scenario::View::Strong,
                    ));
                    prop_assert!(problems.is_empty(), "{text:?}: {problems:#?}");
                }
            }
            Ok(())
        })
        .unwrap();
    let (read_ok, applied) = (read_ok.get(), applied.get());
    assert!(
        read_ok > 50 && applied > 30,
        "{read_ok} read, {applied} applied"
    );
}

/// What "Your run", "Copy as" and `scalingExplorer.import` ask of the runs module
/// (`scaling_core::runs::answer`), answered as the page shows it.
mod runs {
    use super::config;
    use scaling_core::i18n::{set_lang, Lang};
    use scaling_core::runs::{answer, Answer, Ask};
    use scaling_core::scenario::export::Tool;

    fn imported(text: &str, query: &str) -> Answer {
        answer(&Ask::Import {
            text: text.to_string(),
            query: query.to_string(),
        })
    }

    #[test]
    fn an_import_answers_the_new_link_and_a_line_per_key() {
        set_lang(Lang::En);
        let Some(config) = config("hf/llama-3.1-70b.config.json") else {
            return;
        };
        let Answer::Imported {
            query,
            format,
            entries,
            missing,
            completed,
            completion,
        } = imported(&config, "v=1&view=strong&tp=8&pp=4")
        else {
            panic!("refused");
        };
        assert_eq!(format, "Hugging Face config.json");
        // The page's scenario has no sequence length: the answer says so, and links the
        // menu model's.
        assert!(
            missing.starts_with("Still to type: the sequence length (sq)"),
            "{missing}"
        );
        assert_eq!(completion, "sq=8192");
        assert!(
            completed.split('&').any(|p| p == "p=70.552387584B"),
            "{completed}"
        );
        for pair in ["nl=80", "hd=8192", "kvh=8", "tp=8", "pp=4", "view=strong"] {
            assert!(query.split('&').any(|p| p == pair), "{pair} in {query}");
        }
        // "num_hidden_layers": 80 is line 17 of the published file.
        let layers = entries
            .iter()
            .find(|e| e.source == "num_hidden_layers")
            .unwrap();
        assert_eq!((layers.line, layers.outcome.as_str()), (17, "set"));
        assert_eq!(
            layers.report_line(),
            "line 17 · num_hidden_layers: sets Layers L (nl) = 80"
        );
        set_lang(Lang::Zh);
        let Answer::Imported { entries, .. } = imported(&config, "v=1") else {
            panic!("refused");
        };
        let layers = entries
            .iter()
            .find(|e| e.source == "num_hidden_layers")
            .unwrap();
        assert_eq!(
            layers.report_line(),
            "第 17 行 · num_hidden_layers：设置 层数 L（nl）= 80"
        );
        set_lang(Lang::En);
    }

    #[test]
    fn a_refusal_names_the_key_or_the_size() {
        set_lang(Lang::En);
        assert_eq!(
            imported(
                r#"{"num_attention_heads": 64, "num_key_value_heads": 6}"#,
                "v=1"
            ),
            Answer::Refused {
                error: "line 1: num_attention_heads is not a multiple of num_key_value_heads"
                    .to_string()
            }
        );
        assert_eq!(
            answer(&Ask::TooLarge { bytes: 20_971_520 }),
            Answer::Refused {
                error: "the text has 20971520 bytes; at most 16777216 are read".to_string()
            }
        );
    }

    #[test]
    fn a_layout_is_exported_at_the_explorers_gpu_count_when_it_is_on() {
        set_lang(Lang::En);
        // B = 8,388,608 tokens = 2,048 sequences of 4,096; TP·PP = 32. At N₀ = 1,024 GPUs
        // D = 32 and each replica takes 64 microbatches of one sequence; at lx = 2,048, D = 64
        // and 32.
        let base = "v=1&view=strong&b=8388608&sq=4096&mbs=1&tp=8&pp=4&n0=1024";
        let at = |query: String| match answer(&Ask::Export {
            query,
            tool: Tool::Torchtitan,
        }) {
            Answer::Exported { text } => text,
            other => panic!("{other:?}"),
        };
        let own = at(base.to_string());
        assert!(
            own.contains("local_batch_size = 64  # 64 microbatches of 1 at 1024 GPUs"),
            "{own}"
        );
        let explorer = at(format!("{base}&lx=2048"));
        assert!(
            explorer.contains("local_batch_size = 32  # 32 microbatches of 1 at 2048 GPUs"),
            "{explorer}"
        );
        let Answer::Exported { text } = answer(&Ask::Export {
            query: base.to_string(),
            tool: Tool::Megatron,
        }) else {
            panic!("refused");
        };
        assert!(
            text.starts_with("--tensor-model-parallel-size 8\n--pipeline-model-parallel-size 4\n"),
            "{text}"
        );
    }

    #[test]
    fn the_shape_menu_applies_a_shape_or_says_which_rule_it_breaks() {
        set_lang(Lang::En);
        let Answer::Shapes { shapes } = answer(&Ask::Shapes) else {
            panic!("no shapes");
        };
        assert_eq!(shapes.len(), 13);
        assert_eq!(
            (shapes[0].name.as_str(), shapes[0].label.as_str()),
            ("Llama 3.1 8B", "Llama 3.1 8B (8.03B)")
        );
        let Answer::Shaped { query, source } = answer(&Ask::Shape {
            name: "Llama 3.1 70B".to_string(),
            query: "v=1&view=strong&tp=8".to_string(),
        }) else {
            panic!("refused");
        };
        assert!(source.starts_with("meta-llama/Llama-3.1-70B config.json"));
        for pair in ["nl=80", "sq=8192", "tp=8", "p=70.552387584B"] {
            assert!(query.split('&').any(|p| p == pair), "{pair} in {query}");
        }
        assert_eq!(
            answer(&Ask::ShapeOf {
                query: query.clone()
            }),
            Answer::ShapeOf {
                name: "Llama 3.1 70B".to_string(),
                source
            }
        );
        assert_eq!(
            answer(&Ask::ShapeOf {
                query: format!("{query}&nl=40")
            }),
            Answer::ShapeOf {
                name: String::new(),
                source: String::new()
            }
        );
        assert_eq!(
            answer(&Ask::Shape {
                name: "Mixtral 8x7B".to_string(),
                query: "v=1&view=strong&ne=16&ke=2&ep=16".to_string(),
            }),
            Answer::Refused {
                error: "Mixtral 8x7B: EP degree 16 does not divide the 8 experts".to_string()
            }
        );
        assert!(matches!(
            answer(&Ask::Shape {
                name: "GPT-5".to_string(),
                query: "v=1".to_string(),
            }),
            Answer::Refused { .. }
        ));
    }
}

/// The names other tools give each input, in its row of the key table (`Spec::megatron`,
/// `nemo`, `torchtitan`, `hf`), are the names the importers read: a text of that tool with the
/// name (and what it needs beside it) sets the input, under that name.
#[test]
fn the_key_table_names_what_each_importer_reads() {
    let mut checked = 0;
    for &key in Key::ALL {
        let spec = key.spec();
        let tools: [(Format, &[&str]); 4] = [
            (Format::Megatron, spec.megatron),
            (Format::Nemo, spec.nemo),
            (Format::Torchtitan, spec.torchtitan),
            (Format::HuggingFace, spec.hf),
        ];
        for (format, names) in tools {
            for &name in names {
                let text = sample(format, name);
                let import = read(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
                assert_eq!(import.format, format, "{text}");
                let sets = import.entries.iter().any(|e| {
                    e.source.ends_with(name)
                        && match &e.outcome {
                            Outcome::Set(k, _)
                            | Outcome::Default(k, _)
                            | Outcome::Approximated(Some(k), _, _) => *k == key,
                            Outcome::LayersPerChunk(_) => key == Key::Chunks,
                            _ => false,
                        }
                });
                assert!(
                    sets,
                    "{}: {name} does not set it\n{text}\n{:#?}",
                    key.name(),
                    import.entries
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 60, "{checked} names checked");
    // And the other way: every name the importers read in the project's launch scripts and
    // the configs they were written against, where it sets an input, is in the key table
    // under its tool.
    let listed = |format: Format, source: &str| {
        Key::ALL.iter().any(|k| {
            let s = k.spec();
            let names = match format {
                Format::Megatron => s.megatron,
                Format::Nemo => s.nemo,
                Format::Torchtitan => s.torchtitan,
                Format::HuggingFace => s.hf,
                // The launcher's names are docs/import.md's, not the key table's.
                Format::NemoLauncher | Format::DeepSpeed | Format::GptNeox | Format::Logs => &[],
            };
            names.contains(&source)
        })
    };
    let mut texts = megatron_scripts();
    assert!(texts.len() >= 4, "{} scripts", texts.len());
    if let Some(corpus) = corpus_or_skip(root(), "the key table against the corpus's configs") {
        for name in corpus_configs(&corpus) {
            let text = std::fs::read_to_string(corpus.join(&name)).unwrap();
            texts.push((name, text));
        }
    }
    let mut unlisted = Vec::new();
    for (name, text) in texts {
        let import = read(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        for e in &import.entries {
            if matches!(
                e.outcome,
                Outcome::Set(..) | Outcome::Approximated(Some(_), ..)
            ) && !listed(import.format, &e.source)
            {
                unlisted.push(format!("{name}: {}", e.source));
            }
        }
    }
    assert!(
        unlisted.is_empty(),
        "set an input but are in no row of the key table:\n{}",
        unlisted.join("\n")
    );
}

/// Every Hugging Face config and torchtitan TOML of the corpus (`expected.json`'s files of
/// those formats).
fn corpus_configs(corpus: &std::path::Path) -> Vec<String> {
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(corpus.join("expected.json")).unwrap())
            .unwrap();
    let files = expected["files"].as_object().unwrap();
    let names: Vec<String> = files
        .iter()
        .filter(|(_, f)| {
            f["format"]
                .as_str()
                .is_some_and(|s| s.starts_with("hf-config-json") || s.starts_with("torchtitan"))
        })
        .map(|(name, _)| name.clone())
        .collect();
    assert!(names.len() >= 50, "{} configs", names.len());
    names
}

/// A text of `format` that gives `name` a value, with what the importer needs beside it
/// (a batch's sequence length, a schedule's pipeline, a recomputation's granularity).
fn sample(format: Format, name: &str) -> String {
    match format {
        Format::Megatron => {
            let line = match name {
                "--global-batch-size" => "--seq-length 4096 --micro-batch-size 1 --global-batch-size 64",
                "--num-layers-per-virtual-pipeline-stage" => {
                    "--num-layers 8 --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 2"
                }
                "--recompute-granularity" => "--num-layers 8 --recompute-granularity full",
                "--recompute-num-layers" => {
                    "--num-layers 8 --recompute-granularity full --recompute-method block --recompute-num-layers 2"
                }
                "--num-query-groups" => "--num-layers 8 --num-attention-heads 8 --num-query-groups 2",
                "--use-megatron-fsdp" => {
                    "--num-layers 8 --use-megatron-fsdp --data-parallel-sharding-strategy optim_grads_params"
                }
                "--sequence-parallel" | "--use-distributed-optimizer" | "--use-flash-attn" => {
                    return format!("--num-layers 8 {name}\n");
                }
                _ => return format!("--num-layers 8 {name} 2\n"),
            };
            format!("{line}\n")
        }
        Format::Nemo => match name {
            "data.global_batch_size" => "data.seq_length=4096\ndata.global_batch_size=64\n".into(),
            "trainer.strategy.virtual_pipeline_model_parallel_size" => {
                "trainer.strategy.pipeline_model_parallel_size=2\n\
                 trainer.strategy.virtual_pipeline_model_parallel_size=2\n"
                    .into()
            }
            "trainer.strategy.sequence_parallel" | "optim.config.use_distributed_optimizer" => {
                format!("trainer.strategy.tensor_model_parallel_size=2\n{name}=True\n")
            }
            "model.config.recompute_granularity" => {
                "trainer.strategy.tensor_model_parallel_size=2\nmodel.config.recompute_granularity=full\n"
                    .into()
            }
            "model.config.recompute_num_layers" => "trainer.strategy.tensor_model_parallel_size=2\n\
                 model.config.recompute_granularity=full\nmodel.config.recompute_method=block\n\
                 model.config.recompute_num_layers=2\n"
                .into(),
            _ => format!("trainer.strategy.tensor_model_parallel_size=2\n{name}=2\n"),
        },
        Format::Torchtitan => {
            let (table, key) = name.split_once('.').expect("table.key");
            let value = match key {
                "pipeline_parallel_schedule" => "\"Interleaved1F1B\"",
                "mode" => "\"full\"",
                "global_batch_size" => "64\nseq_len = 4096",
                _ => "2",
            };
            let pipeline = match key {
                "pipeline_parallel_schedule" | "pipeline_parallel_microbatch_size" => {
                    "pipeline_parallel_degree = 2\n"
                }
                "pipeline_parallel_layers_per_stage" => {
                    "pipeline_parallel_degree = 2\npipeline_parallel_schedule = \"Interleaved1F1B\"\n"
                }
                _ => "",
            };
            let head = if table == "parallelism" {
                format!("[parallelism]\n{pipeline}")
            } else {
                format!("[parallelism]\n{pipeline}\n[{table}]\n")
            };
            format!("{head}{key} = {value}\n")
        }
        Format::HuggingFace => match name {
            // The architecture decides an MLP the file does not size: BLOOM's GELU `4h`.
            "model_type" => "{\"model_type\": \"bloom\", \"hidden_size\": 64}".to_string(),
            "moe_intermediate_size"
            | "num_experts_per_tok"
            | "moe_topk"
            | "top_k_experts"
            | "experts_per_token"
            | "n_shared_experts"
            | "shared_expert_intermediate_size"
            | "first_k_dense_replace" => {
                format!("{{\"num_local_experts\": 8, \"{name}\": 2}}")
            }
            // Latent attention's sizes are read with its compressed width.
            "q_lora_rank" | "qk_rope_head_dim" | "qk_nope_head_dim" => {
                format!("{{\"kv_lora_rank\": 8, \"{name}\": 2}}")
            }
            _ => format!("{{\"{name}\": 2}}"),
        },
        Format::NemoLauncher | Format::DeepSpeed | Format::GptNeox | Format::Logs => {
            unreachable!("the key table has no launcher or DeepSpeed column")
        }
    }
}

/// `P` and `P_a` follow the shape when a reader completes it (ux-trial-2 H1): a Llama 3.1 70B
/// `config.json` has no sequence length, so after importing it the shape is incomplete and
/// `P` stays the page's 1.776G; typing `sq` = 8192 completes the shape, and `P` becomes its
/// 70,552,387,584 (attention 2·8,192·128·(64 + 8) = 150,994,944 and MLP 3·8,192·28,672 =
/// 704,643,072 a layer, × 80 = 68,451,041,280; embeddings 2·128,256·8,192 = 2,101,346,304).
/// A `P` typed afterwards is kept; changing the shape after an import moves `P` with it; a
/// TOML's `seq_len` after the config completes it too.
#[test]
fn p_follows_the_shape_a_reader_completes() {
    use scaling_core::page::PageState;
    let start = decode("v=1&view=strong").scenario;
    let (Some(config), Some(toml)) = (
        config("hf/llama-3.1-70b.config.json"),
        config("torchtitan/llama3_70b.toml"),
    ) else {
        return;
    };
    let config = read(&config).unwrap();
    let imported = apply(&start, &config).unwrap();
    assert!(!imported.llm.walls.has_shape());
    assert_eq!(imported.llm.total_params, start.llm.total_params);
    let mut page = PageState::new(imported);
    page.apply_text(Key::SeqLen, "8192", 0.0).unwrap();
    assert_eq!(page.scenario.llm.total_params, 70_552_387_584.0);
    assert_eq!(page.scenario.llm.active_params, 70_552_387_584.0);
    // The shape changed after it: P moves with it (81 layers: + 855,638,016).
    page.end_edit();
    page.apply_text(Key::Layers, "81", 10_000.0).unwrap();
    assert_eq!(page.scenario.llm.total_params, 71_408_025_600.0);
    // A P typed after the shape stays when the shape changes.
    page.end_edit();
    page.apply_text(Key::TotalParams, "72B", 20_000.0).unwrap();
    page.end_edit();
    page.apply_text(Key::Layers, "80", 30_000.0).unwrap();
    assert_eq!(page.scenario.llm.total_params, 72e9);
    // The config, then torchtitan's TOML, whose seq_len completes the shape.
    let toml = read(&toml).unwrap();
    let both = apply(&apply(&start, &config).unwrap(), &toml).unwrap();
    assert_eq!(both.llm.total_params, 70_552_387_584.0);
    // A link keeps the p it says, shape or not.
    let linked = decode("v=1&p=20B&nl=80&hd=8192&nh=64&kvh=8&ffn=28672&voc=128256&sq=8192");
    assert_eq!(linked.scenario.llm.total_params, 20e9);
}

/// What a run still lacks after an import (ux-trial-2 H1): a Llama 3.1 70B `config.json` over
/// a scenario without a sequence length lacks `sq`, and the shapes menu's Llama 3.1 70B gives
/// 8,192; the completed link's `P` is the shape's 70,552,387,584 (by hand, above). A Megatron
/// script without `--vocab-size` lacks `voc`, and no menu model is GPT-3 175B. A text that
/// sets no part of the shape, or completes it, lacks nothing.
#[test]
fn an_import_says_what_the_run_still_lacks() {
    use scaling_core::scenario::import::missing;
    let Some(text) = config("hf/llama-3.1-70b.config.json") else {
        return;
    };
    let fresh = decode("v=1&view=strong").scenario;
    let import = read(&text).unwrap();
    let s = apply(&fresh, &import).unwrap();
    let m = missing(&import, &s).expect("sq is missing");
    assert_eq!(m.keys, vec![Key::SeqLen]);
    assert_eq!(
        m.suggestion,
        Some(("Llama 3.1 70B", vec![(Key::SeqLen, "8192".to_string())]))
    );
    assert_eq!(m.assignments(), "sq=8192");
    assert!(m
        .describe()
        .starts_with("Still to type: the sequence length (sq)"));
    let done = m.completed(&s).unwrap();
    assert_eq!(done.llm.total_params, 70_552_387_584.0);
    assert_eq!(done.llm.walls.seq_len, 8192.0);
    // Over a scenario with a sequence length the config completes the shape.
    assert_eq!(missing(&import, &apply(&base(), &import).unwrap()), None);

    let script = script("gpt3_175b_flags.sh");
    let import = read(&script).unwrap();
    let s = apply(&fresh, &import).unwrap();
    let m = missing(&import, &s).expect("voc is missing");
    assert_eq!(m.keys, vec![Key::Vocab]);
    assert_eq!(m.suggestion, None);
    assert!(m.completed(&s).is_none());

    let layout_only = read("trainer.strategy.tensor_model_parallel_size=2\n").unwrap();
    assert_eq!(
        missing(&layout_only, &apply(&fresh, &layout_only).unwrap()),
        None
    );
}

/// A multimodal config names its vision encoder with its weights, by hand from its
/// `vision_config` (SigLIP so400m in MedGemma 27B: 27 layers of 1,152 with an MLP of 4,304):
/// 27 · (4·1,152² + 2·1,152·4,304) = 27 · (5,308,416 + 9,916,416) = 411,070,464; it sets
/// nothing.
#[test]
fn a_vision_encoder_is_named_with_its_weights() {
    use scaling_core::scenario::import::Outcome;
    let Some(text) = config("hf/medgemma-27b-it.gemma3.config.json") else {
        return;
    };
    let import = read(&text).unwrap();
    let encoder = import
        .entries
        .iter()
        .find(|e| e.source == "vision_config")
        .expect("vision_config is reported");
    assert_eq!(
        encoder.outcome,
        Outcome::Encoder {
            params: 411_070_464.0,
            layers: 27,
            hidden: 1152,
        }
    );
    assert!(encoder.outcome.sets_nothing());
    assert_eq!(encoder.kind(), "ignored");
    assert_eq!(
        import
            .entries
            .iter()
            .filter(|e| e.source == "vision_config")
            .count(),
        1
    );
}

/// The report names an input as its box does, without the box's parenthesised note, and a
/// batch in tokens with separators; a key the text leaves out is "not in the file". By hand
/// from the key table's labels: "Microbatch size (sequences; 0 = A fixed)" → "Microbatch size
/// (mbs)", "microbatch 大小（序列数；0 = 固定 A）" → "microbatch 大小（mbs）".
#[test]
fn the_report_names_inputs_as_their_boxes_do() {
    use scaling_core::i18n::{set_lang, Lang};
    use scaling_core::scenario::import::Entry;
    set_lang(Lang::En);
    assert_eq!(Key::Microbatch.display_name(), "Microbatch size (mbs)");
    assert_eq!(Key::GlobalBatch.display_name(), "Global batch B_global (b)");
    assert_eq!(Key::Layers.display_name(), "Layers L (nl)");
    let entry = |outcome| Entry {
        source: "--global-batch-size".into(),
        line: 26,
        outcome,
    };
    assert_eq!(
        entry(Outcome::Set(Key::GlobalBatch, "3145728".into())).describe(),
        "sets Global batch B_global (b) = 3,145,728 tokens"
    );
    assert_eq!(
        entry(Outcome::Default(Key::Cp, "1".into())).describe(),
        "not in the file; the tool's default sets Context parallel CP (cp) = 1"
    );
    set_lang(Lang::Zh);
    assert_eq!(Key::Microbatch.display_name(), "microbatch 大小（mbs）");
    assert_eq!(
        entry(Outcome::Default(Key::Cp, "1".into())).describe(),
        "未给出，按该工具默认值设置 上下文并行 CP（cp）= 1"
    );
    set_lang(Lang::En);
}

//! The machine table (`scaling machines`, `docs/machines.md`): each machine's datasheet
//! values, the inputs they set (`bnv` is NCCL's share of the scale-up line rate), and where
//! each comes from.

use super::table::{Cell, Columns, Table};
use crate::i18n::tr;
use crate::scenario::machines::{Machine, Precision, MACHINES};
use crate::scenario::{Key, Scenario};
use crate::text::units::format_si;

/// A peak as the `peak` key writes it, or "–" where the GPU has no such format.
fn peak_cell(m: &Machine, p: Precision) -> Cell {
    m.peak(p)
        .map_or_else(|| Cell::words("–"), |v| Cell::num(v, |v| format_si(v, 5)))
}

/// The value `key` takes once `mach=<m>` is set, as the link writes it.
fn set_by(m: &Machine, key: Key) -> String {
    let mut s = Scenario::default();
    match s.set(Key::Machine, m.name) {
        Ok(()) => s.get_text(key),
        Err(_) => String::new(),
    }
}

/// The machines with the values `mach=` types into each input, and their sources.
pub fn machines_table() -> Table {
    let columns = Columns::<&Machine>::new()
        .words(("mach", "mach"), |m| Cell::words(m.name))
        .words(("machine", "机型"), |m| Cell::words(m.label))
        .column(("BF16 peak", "BF16 峰值"), |m| {
            peak_cell(m, Precision::Bf16)
        })
        .column(("FP8 peak", "FP8 峰值"), |m| peak_cell(m, Precision::Fp8))
        .column(("MXFP8 peak", "MXFP8 峰值"), |m| {
            peak_cell(m, Precision::Mxfp8)
        })
        .column(("NVFP4 peak", "NVFP4 峰值"), |m| {
            peak_cell(m, Precision::Nvfp4)
        })
        .column(("hbm (bytes)", "hbm（字节）"), |m| {
            Cell::num(m.hbm_bytes, |_| set_by(m, Key::Hbm))
        })
        .column(("HBM bytes/s", "HBM 带宽（字节/秒）"), |m| {
            Cell::num(m.hbm_bytes_per_s, |v| format_si(v, 4))
        })
        .column(("nvd", "nvd"), |m| {
            Cell::num(m.domain_gpus as f64, |v| format!("{v}"))
        })
        .column(("scale-up (one way)", "节点内互联（单向）"), |m| {
            Cell::num(m.scale_up_bytes_per_s, |v| format_si(v, 4))
        })
        .column(("bnv (NCCL)", "bnv（NCCL）"), |m| {
            Cell::num(m.scale_up_bus_bytes_per_s(), |_| {
                set_by(m, Key::NvlinkBandwidth)
            })
        })
        .column(("beff (NIC)", "beff（网卡）"), |m| {
            match m.nic_bytes_per_s {
                Some(v) => Cell::num(v, |v| format_si(v, 4)),
                None => Cell::words(tr("– (kept)", "–（保持不变）")),
            }
        })
        .column(("host link (copy)", "主机链路（拷贝）"), |m| {
            Cell::num(m.host_bytes_per_s, |v| format_si(v, 4))
        });
    let rows: Vec<&Machine> = MACHINES.iter().collect();
    Table::from_columns(
        "machines",
        tr(
            "Machines: datasheet values per GPU (dense) and what mach= sets from them",
            "机型：单卡数据手册值（稠密），及 mach= 据此所设的值",
        )
        .to_string(),
        &columns,
        &rows,
    )
}

/// Each machine's sources, a Markdown list item each (`h100` and what each value is from).
pub fn machine_sources() -> String {
    MACHINES
        .iter()
        .map(|m| format!("- `{}`: {}\n", m.name, m.source))
        .collect()
}

/// The machines as JSON: every number in SI units (FLOP/s, bytes, bytes/s) and its source.
pub fn machines_json() -> serde_json::Value {
    let peak = |m: &Machine, p| m.peak(p).map_or(serde_json::Value::Null, |v| v.into());
    serde_json::Value::Array(
        MACHINES
            .iter()
            .map(|m| {
                serde_json::json!({
                    "mach": m.name,
                    "label": m.label,
                    "peak_flops": {
                        "bf16": peak(m, Precision::Bf16),
                        "fp8": peak(m, Precision::Fp8),
                        "mxfp8": peak(m, Precision::Mxfp8),
                        "nvfp4": peak(m, Precision::Nvfp4),
                    },
                    "hbm_bytes": m.hbm_bytes,
                    "hbm_bytes_per_s": m.hbm_bytes_per_s,
                    "domain_gpus": m.domain_gpus,
                    "scale_up_bytes_per_s": m.scale_up_bytes_per_s,
                    "scale_up_share": m.scale_up_share,
                    "bnv_bytes_per_s": m.scale_up_bus_bytes_per_s(),
                    "nic_bytes_per_s": m.nic_bytes_per_s,
                    "host_bytes_per_s": m.host_bytes_per_s,
                    "source": m.source,
                })
            })
            .collect(),
    )
}

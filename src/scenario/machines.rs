//! The machines people train on, as data (`mach=`), and the number format of the GEMMs
//! (`prec=`): choosing a machine types its datasheet values into the hardware inputs — peak
//! FLOP/s at the chosen precision (`peak`), GPU memory (`hbm`), GPUs per scale-up domain
//! (`nvd`), scale-up bandwidth (`bnv`, the share of it NCCL reaches) and scale-out NIC
//! bandwidth (`beff`) — the way a
//! preset types its inputs: each stays editable, and the link writes only what differs from
//! the machine.
//!
//! Every value is the datasheet's (dense, no sparsity), per GPU, from the sources each row
//! names; the tags are those of `docs/machines.md`:
//!
//! - **\[D\]** `NVIDIA/dgxc-benchmarking` at `841f5466`, `README.md`, "Peak Theoretical
//!   Throughput" (non-sparse TFLOPS per GPU) and the reference architectures (memory, NVLink,
//!   NICs);
//! - **\[M\]** the MLPerf system descriptions (`accelerator_memory_capacity`,
//!   `accelerator_interconnect`, `host_networking`): memory in MiB as the GPU reports it;
//! - **\[S\]** `stas00/ml-engineering` at `744d01e1`, `compute/accelerator/README.md` and
//!   `network/README.md`, a compilation that links the vendors' pages (AMD's values);
//! - **\[A\]** NVIDIA's A100 datasheet (`nvidia-a100-datasheet-us-nvidia-1758950-r4-web`) and
//!   DGX A100 datasheet.
//!
//! Conventions, each the one the model's inputs already use:
//! - `bnv` is the bus bandwidth NCCL reaches on the scale-up links, as the seed's default
//!   (400 GB/s on NVLink 4) reads it: the line rate of one direction (NVLink 5's "1.8 TB/s" is
//!   900 GB/s each way, \[S\]) times [`Machine::scale_up_share`] ([`NVLINK_NCCL_SHARE`] on
//!   NVLink);
//! - `beff` is the GPU's own NIC (400 Gb/s = 50 GB/s); AMD's platforms do not fix one, so
//!   choosing an AMD machine leaves `beff` as it was (the row says so);
//! - `hbm` is what the GPU reports (\[M\]'s MiB) where a system description gives it, the
//!   datasheet's GB otherwise;
//! - MXFP8 runs at the FP8 rate on the GPUs that have it (Blackwell, CDNA 4); Hopper,
//!   Ampere and CDNA 3 have no MX formats and A100 no FP8, so those are refused.
//!
//! The precision picks the peak (the denominator of MFU and the rate of `cm=physics`); the
//! bytes the collectives move stay `sw` and `gw`: an 8-bit parameter all-gather
//! (Megatron-LM's `--fp8-param-gather`) is the `fp8` lever, and no public recipe moves
//! parameters or gradients in 4 bits.

use super::Scenario;
use crate::text::units::clip;

/// The share of NVLink's line rate NCCL's collectives reach: each link's 25 GB/s a direction
/// carries about 20 GB/s of data, as the GPU's SMs write 128-byte payloads into its packets,
/// so 8 × A100's 12 links give 240 GB/s ("~230 GB/s" with other bottlenecks) and H100's
/// 450 GB/s give about 370 GB/s, "with the protocol overhead (~20%)", as the bus bandwidth of a
/// ring collective (S. Jeaugey of NCCL, github.com/NVIDIA/nccl-tests/issues/149 and /212).
/// NVLink SHARP's all-reduce (about 480 GB/s on H100) is not counted: tensor parallelism with
/// sequence parallelism runs reduce-scatters and all-gathers.
pub const NVLINK_NCCL_SHARE: f64 = 0.8;

/// A PCIe 5.0 x16 link's copy rate, one direction: the 63 GB/s of the specification at the
/// 88% that `nvbandwidth` measures on 8 × H200, each GPU on its own Gen5 x16 link (55.43 GB/s
/// host to device, 55.06 back; \[S\] `network/README.md`, "PCIe"). Hopper, B200, B300 and
/// AMD's GPUs attach at Gen5 x16 (\[S\]: no shipping accelerator attaches at Gen6).
pub const PCIE_GEN5_COPY_BYTES_PER_S: f64 = 55.4e9;

/// A PCIe 4.0 x16 link's (A100's) copy rate: 31 GB/s (\[S\]) at the same 88%.
pub const PCIE_GEN4_COPY_BYTES_PER_S: f64 = 27.3e9;

/// NVLink-C2C between a Grace CPU and a Blackwell GPU, one direction: 450 GB/s (\[S\]
/// `network/README.md`, "NVLink-C2C"), of which `nvbandwidth` measures 359 GB/s host to
/// device and 377 back on a GB300 (\[S\]): their mean, 82%. Both directions at once share Grace's LPDDR5X and reach half each (\[S\]); an
/// offloading step sends in the forward and fetches in the backward, one direction at a time.
pub const NVLINK_C2C_COPY_BYTES_PER_S: f64 = 368e9;

const GIB: f64 = 1024.0 * 1024.0 * 1024.0;
const MIB: f64 = 1024.0 * 1024.0;

/// A GEMM number format (`prec=`): which of a machine's peaks applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Precision {
    #[default]
    Bf16,
    /// FP8 with per-tensor or blockwise scaling (Hopper's, and "FP8-CS" in NVIDIA's tables).
    Fp8,
    /// OCP microscaling FP8: a shared 8-bit exponent per 32 values (Blackwell, CDNA 4).
    Mxfp8,
    /// NVIDIA's 4-bit format: an FP8 scale per 16 values (Blackwell).
    Nvfp4,
}

impl Precision {
    /// HBM bytes a cast to this precision moves for each GEMM operand (the elementwise term's
    /// `q`, docs/model/12-walls.md §12.3), by Transformer Engine's recipes: per-tensor current
    /// scaling reads the 2-byte value twice (its amax, then the cast) and writes it row-wise
    /// and column-wise, 1 byte each: 6; MXFP8 finds each 32-value block's scale as it casts,
    /// one read: 4; NVFP4, half a byte each way: 3; BF16 casts nothing.
    pub fn quantized_bytes_per_element(self) -> f64 {
        match self {
            Precision::Bf16 => 0.0,
            Precision::Fp8 => 6.0,
            Precision::Mxfp8 => 4.0,
            Precision::Nvfp4 => 3.0,
        }
    }

    /// In the menu's order.
    pub const ALL: [Precision; 4] = [
        Precision::Bf16,
        Precision::Fp8,
        Precision::Mxfp8,
        Precision::Nvfp4,
    ];

    /// The URL value.
    pub fn name(self) -> &'static str {
        match self {
            Precision::Bf16 => "bf16",
            Precision::Fp8 => "fp8",
            Precision::Mxfp8 => "mxfp8",
            Precision::Nvfp4 => "nvfp4",
        }
    }

    /// As datasheets write it.
    pub fn label(self) -> &'static str {
        match self {
            Precision::Bf16 => "BF16",
            Precision::Fp8 => "FP8",
            Precision::Mxfp8 => "MXFP8",
            Precision::Nvfp4 => "NVFP4",
        }
    }

    pub fn from_name(name: &str) -> Option<Precision> {
        let name = name.trim().to_ascii_lowercase();
        Precision::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// One machine's datasheet values, per GPU.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Machine {
    /// The URL value (`mach=gb200`).
    pub name: &'static str,
    /// As the vendor names the system.
    pub label: &'static str,
    /// Dense peak FLOP/s per precision, in [`Precision::ALL`]'s order; `None` where the GPU
    /// has no such format.
    pub peak_flops: [Option<f64>; 4],
    /// GPU memory, bytes.
    pub hbm_bytes: f64,
    /// HBM bandwidth, bytes/s.
    pub hbm_bytes_per_s: f64,
    /// GPUs in one scale-up (NVLink or Infinity Fabric) domain.
    pub domain_gpus: u32,
    /// Scale-up bandwidth per GPU, one direction, bytes/s: the datasheet's line rate.
    pub scale_up_bytes_per_s: f64,
    /// The share of [`Self::scale_up_bytes_per_s`] a collective's bus bandwidth reaches:
    /// [`NVLINK_NCCL_SHARE`] on NVLink; 1 on AMD's Infinity Fabric, for which no measurement
    /// of RCCL's share is published.
    pub scale_up_share: f64,
    /// Scale-out NIC bandwidth per GPU, bytes/s; `None` where the platform does not fix it.
    pub nic_bytes_per_s: Option<f64>,
    /// The GPU's link to host memory, one direction, bytes/s, at the share a copy reaches
    /// ([`PCIE_GEN5_COPY_BYTES_PER_S`], [`PCIE_GEN4_COPY_BYTES_PER_S`],
    /// [`NVLINK_C2C_COPY_BYTES_PER_S`]): what activation offloading (`ofl`) moves over.
    pub host_bytes_per_s: f64,
    /// Where each value comes from (`scaling machines`, `docs/machines.md`; the page shows
    /// the values, not their sources, so its first view's wasm carries none).
    #[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
    pub source: &'static str,
}

impl Machine {
    /// The peak at `precision`, if the GPU has the format.
    pub fn peak(&self, precision: Precision) -> Option<f64> {
        self.peak_flops[precision as usize]
    }

    pub fn from_name(name: &str) -> Option<&'static Machine> {
        let name = name.trim().to_ascii_lowercase();
        MACHINES.iter().find(|m| m.name == name)
    }

    /// `bnv`: the scale-up line rate times the share a collective reaches, bytes/s.
    pub fn scale_up_bus_bytes_per_s(&self) -> f64 {
        self.scale_up_bytes_per_s * self.scale_up_share
    }
}

/// The machines, by generation, NVIDIA's then AMD's.
pub const MACHINES: [Machine; 10] = [
    Machine {
        name: "a100",
        label: "A100 SXM 80GB",
        peak_flops: [Some(312e12), None, None, None],
        hbm_bytes: 80.0 * GIB,
        hbm_bytes_per_s: 2.039e12,
        domain_gpus: 8,
        scale_up_bytes_per_s: 300e9,
        scale_up_share: NVLINK_NCCL_SHARE,
        nic_bytes_per_s: Some(25e9),
        host_bytes_per_s: PCIE_GEN4_COPY_BYTES_PER_S,
        #[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
        source: "[A]: 312 TFLOPS BF16, 80 GB HBM2e at 2,039 GB/s, NVLink 600 GB/s (300 each way) through NVSwitch, 8 per HGX board; DGX A100: 8 × ConnectX-6 200 Gb/s HDR, one per GPU",
    },
    Machine {
        name: "h100",
        label: "H100 SXM",
        peak_flops: [Some(989e12), Some(1979e12), None, None],
        hbm_bytes: 81559.0 * MIB,
        hbm_bytes_per_s: 3.35e12,
        domain_gpus: 8,
        scale_up_bytes_per_s: 450e9,
        scale_up_share: NVLINK_NCCL_SHARE,
        nic_bytes_per_s: Some(50e9),
        host_bytes_per_s: PCIE_GEN5_COPY_BYTES_PER_S,
        #[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
        source: "[D]: 989 / 1,979 TFLOPS BF16 / FP8, NVLink 900 GB/s (18 links), 1 × ConnectX-7 400 Gb/s per GPU; [M] (v5.0 eos-dfw): 81,559 MiB; [S]: 3.35 TB/s",
    },
    Machine {
        name: "h200",
        label: "H200 SXM",
        peak_flops: [Some(989e12), Some(1979e12), None, None],
        hbm_bytes: 143771.0 * MIB,
        hbm_bytes_per_s: 4.8e12,
        domain_gpus: 8,
        scale_up_bytes_per_s: 450e9,
        scale_up_share: NVLINK_NCCL_SHARE,
        nic_bytes_per_s: Some(50e9),
        host_bytes_per_s: PCIE_GEN5_COPY_BYTES_PER_S,
        #[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
        source: "[S]: 989 / 1,979 TFLOPS BF16 / FP8, 141 GB at 4.8 TB/s; [M] (v5.1 nebius_h200_n128): 143,771 MiB, NVLink Gen4 900 GB/s, 8 × ConnectX-7 400 Gb/s",
    },
    Machine {
        name: "b200",
        label: "B200 (DGX)",
        peak_flops: [Some(2250e12), Some(4500e12), Some(4500e12), Some(9000e12)],
        hbm_bytes: 183359.0 * MIB,
        hbm_bytes_per_s: 7.7e12,
        domain_gpus: 8,
        scale_up_bytes_per_s: 900e9,
        scale_up_share: NVLINK_NCCL_SHARE,
        nic_bytes_per_s: Some(50e9),
        host_bytes_per_s: PCIE_GEN5_COPY_BYTES_PER_S,
        #[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
        source: "[D]: 2,250 / 4,500 / 9,000 TFLOPS BF16 / FP8 / NVFP4, 7.7 TB/s, NVLink 1.8 TB/s (18 links), 1 × 400 Gb/s IB per GPU; [M] (v5.1 hpg.dgxb200x8): 183,359 MiB",
    },
    Machine {
        name: "b300",
        label: "B300 (DGX)",
        peak_flops: [Some(2250e12), Some(4500e12), Some(4500e12), Some(13500e12)],
        hbm_bytes: 275040.0 * MIB,
        hbm_bytes_per_s: 7.7e12,
        domain_gpus: 8,
        scale_up_bytes_per_s: 900e9,
        scale_up_share: NVLINK_NCCL_SHARE,
        nic_bytes_per_s: Some(100e9),
        host_bytes_per_s: PCIE_GEN5_COPY_BYTES_PER_S,
        #[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
        source: "[D]: 2,250 / 4,500 / 13,500 TFLOPS BF16 / FP8 / NVFP4, 7.7 TB/s, NVLink 1.8 TB/s, 8 × 800 Gb/s compute links; [M] (v5.1 nebius_b300_n1): 275,040 MiB, 8 × ConnectX-8 XDR 800 Gb/s",
    },
    Machine {
        name: "gb200",
        label: "GB200 NVL72",
        peak_flops: [Some(2450e12), Some(4900e12), Some(4900e12), Some(9800e12)],
        hbm_bytes: 189471.0 * MIB,
        hbm_bytes_per_s: 8e12,
        domain_gpus: 72,
        scale_up_bytes_per_s: 900e9,
        scale_up_share: NVLINK_NCCL_SHARE,
        nic_bytes_per_s: Some(50e9),
        host_bytes_per_s: NVLINK_C2C_COPY_BYTES_PER_S,
        #[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
        source: "[D]: 2,450 / 4,900 / 9,800 TFLOPS BF16 / FP8 / NVFP4, 8 TB/s; [M] (v5.1 tyche_ngpu512): 189,471 MiB, NVLink Gen5 1,800 GB/s + NVSwitch across the 72-GPU rack, 4 × ConnectX-7 NDR 400 Gb/s per 4-GPU node",
    },
    Machine {
        name: "gb300",
        label: "GB300 NVL72",
        peak_flops: [Some(2450e12), Some(4900e12), Some(4900e12), Some(14700e12)],
        hbm_bytes: 284208.0 * MIB,
        hbm_bytes_per_s: 8e12,
        domain_gpus: 72,
        scale_up_bytes_per_s: 900e9,
        scale_up_share: NVLINK_NCCL_SHARE,
        nic_bytes_per_s: Some(100e9),
        host_bytes_per_s: NVLINK_C2C_COPY_BYTES_PER_S,
        #[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
        source: "[D]: 2,450 / 4,900 / 14,700 TFLOPS BF16 / FP8 / NVFP4, 8 TB/s, NVLink 1.8 TB/s; [M] (v5.1 theia_ngpu512): 284,208 MiB, a 72-GPU NVLink rack, 4 × ConnectX-8 XDR 800 Gb/s per 4-GPU node",
    },
    Machine {
        name: "mi300x",
        label: "MI300X",
        peak_flops: [Some(1300e12), Some(2610e12), None, None],
        hbm_bytes: 192e9,
        hbm_bytes_per_s: 5.3e12,
        domain_gpus: 8,
        scale_up_bytes_per_s: 448e9,
        scale_up_share: 1.0,
        nic_bytes_per_s: None,
        host_bytes_per_s: PCIE_GEN5_COPY_BYTES_PER_S,
        #[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
        source: "[S]: 1,300 / 2,610 TFLOPS BF16 / FP8, 192 GB at 5.3 TB/s, Infinity Fabric 7 links × 64 GB/s each way (448 GB/s) among 8 GPUs; NIC not fixed by the platform",
    },
    Machine {
        name: "mi325x",
        label: "MI325X",
        peak_flops: [Some(1300e12), Some(2610e12), None, None],
        hbm_bytes: 256e9,
        hbm_bytes_per_s: 6e12,
        domain_gpus: 8,
        scale_up_bytes_per_s: 448e9,
        scale_up_share: 1.0,
        nic_bytes_per_s: None,
        host_bytes_per_s: PCIE_GEN5_COPY_BYTES_PER_S,
        #[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
        source: "[S]: 1,300 / 2,610 TFLOPS BF16 / FP8, 256 GB at 6.0 TB/s, Infinity Fabric as MI300X; NIC not fixed by the platform",
    },
    Machine {
        name: "mi355x",
        label: "MI355X",
        peak_flops: [Some(2500e12), Some(5000e12), Some(5000e12), None],
        hbm_bytes: 288e9,
        hbm_bytes_per_s: 8e12,
        domain_gpus: 8,
        scale_up_bytes_per_s: 535.5e9,
        scale_up_share: 1.0,
        nic_bytes_per_s: None,
        host_bytes_per_s: PCIE_GEN5_COPY_BYTES_PER_S,
        #[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
        source: "[S]: 2,500 / 5,000 TFLOPS BF16 / FP8 (its 4-bit format is MXFP4, not NVFP4), 288 GB at 8.0 TB/s, Infinity Fabric 7 links × 76.5 GB/s each way (535.5 GB/s); NIC not fixed by the platform",
    },
];

impl Scenario {
    /// `mach=` or `prec=`: records the choice, then types the machine's values into the
    /// hardware inputs. A machine without the chosen precision is refused, naming both.
    pub(super) fn set_hardware(&mut self, key: super::Key, text: &str) -> Result<(), String> {
        let (mut machine, mut precision) = (self.llm.machine, self.llm.precision);
        if key == super::Key::Machine {
            machine = match text.trim() {
                "" | "custom" => None,
                name => Some(Machine::from_name(name).ok_or_else(|| {
                    trf!(
                        "“{}” is not a machine: {} or custom",
                        "“{}” 不是已知机型：{} 或 custom",
                        clip(text),
                        machine_names()
                    )
                })?),
            };
        } else {
            precision = Precision::from_name(text).ok_or_else(|| {
                trf!(
                    "“{}” is not one of bf16, fp8, mxfp8, nvfp4",
                    "“{}” 不是 bf16、fp8、mxfp8、nvfp4 之一",
                    clip(text)
                )
            })?;
        }
        if let Some(m) = machine {
            if m.peak(precision).is_none() {
                return Err(trf!(
                    "{} has no {} peak (its formats: {})",
                    "{} 没有 {} 峰值（它支持：{}）",
                    m.label,
                    precision.label(),
                    formats(m)
                ));
            }
        }
        let changed = (machine, precision) != (self.llm.machine, self.llm.precision);
        (self.llm.machine, self.llm.precision) = (machine, precision);
        if changed {
            self.apply_machine();
        }
        Ok(())
    }

    /// Types the chosen machine's values at the chosen precision into `peak`, `hbm`, `nvd`,
    /// `bnv` and (where the platform fixes one) `beff`; nothing without a machine.
    pub(super) fn apply_machine(&mut self) {
        let Some(m) = self.llm.machine else {
            return;
        };
        if let Some(peak) = m.peak(self.llm.precision) {
            self.llm.peak_flops_per_gpu = peak;
        }
        self.llm.walls.hbm_bytes = m.hbm_bytes;
        self.llm.walls.nvlink_domain_gpus = m.domain_gpus;
        self.plan.nvlink_bytes_per_s = m.scale_up_bus_bytes_per_s();
        if let Some(nic) = m.nic_bytes_per_s {
            self.llm.bus_bytes_per_s = nic;
        }
    }

    /// The base the link's hardware keys are written against: the preset's (or default)
    /// scenario with this scenario's machine and precision applied, so a link says
    /// `mach=gb200` and only the values that differ from the machine's.
    pub(super) fn hardware_base(&self) -> Scenario {
        let mut base = self.base();
        if (base.llm.machine, base.llm.precision) != (self.llm.machine, self.llm.precision) {
            (base.llm.machine, base.llm.precision) = (self.llm.machine, self.llm.precision);
            base.apply_machine();
        }
        base
    }
}

/// `a100, h100, …`: the menu's values.
fn machine_names() -> String {
    MACHINES
        .iter()
        .map(|m| m.name)
        .collect::<Vec<_>>()
        .join(crate::text::list_sep())
}

/// `BF16, FP8`: the formats a machine has a peak for.
fn formats(m: &Machine) -> String {
    Precision::ALL
        .into_iter()
        .filter(|&p| m.peak(p).is_some())
        .map(Precision::label)
        .collect::<Vec<_>>()
        .join(crate::text::list_sep())
}

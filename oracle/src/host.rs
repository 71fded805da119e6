//! Facts about the machine a backend runs on that can change its answers:
//! code generated for the host CPU (IREE's `iree@host`, lavapipe's LLVM
//! JIT behind both consumer oracles) depends on the ISA features found
//! there, so a version line names them and a verdict can be traced to the
//! machine that gave it.

/// The ISA features (as `/proc/cpuinfo` spells them) that change the code
/// LLVM generates for numeric kernels: vector width, fused multiply-add,
/// half-precision and bfloat16 conversions and dot products, matrix tiles.
/// x86-64 first, then AArch64.
const ISA_FEATURES: &[&str] = &[
    "sse4_1",
    "sse4_2",
    "avx",
    "avx2",
    "fma",
    "f16c",
    "avx_vnni",
    "avx512f",
    "avx512dq",
    "avx512cd",
    "avx512bw",
    "avx512vl",
    "avx512_vnni",
    "avx512_bf16",
    "avx512_fp16",
    "amx_tile",
    "amx_bf16",
    "amx_int8",
    "amx_fp16",
    "asimd",
    "fphp",
    "asimdhp",
    "asimddp",
    "bf16",
    "i8mm",
    "sve",
    "sve2",
];

/// `MODEL; FEATURES` from the text of `/proc/cpuinfo` (its first
/// processor): the `model name`, and the features of [`ISA_FEATURES`] its
/// `flags` (x86) or `Features` (AArch64) line lists, in that table's order.
pub fn describe_cpuinfo(cpuinfo: &str) -> String {
    let field = |name: &str| {
        cpuinfo.lines().find_map(|l| {
            let (key, value) = l.split_once(':')?;
            (key.trim() == name).then(|| value.trim().to_string())
        })
    };
    let model = field("model name").filter(|m| !m.is_empty()).unwrap_or_else(|| "unknown model".into());
    let flags = field("flags").or_else(|| field("Features")).unwrap_or_default();
    let present: Vec<&str> = flags.split_whitespace().collect();
    let features: Vec<&str> = ISA_FEATURES.iter().copied().filter(|f| present.contains(f)).collect();
    let features = if features.is_empty() { "none of the listed ISA features".to_string() } else { features.join(" ") };
    format!("{model}; {features}")
}

/// This machine's CPU as [`describe_cpuinfo`] puts it (`unknown model;
/// none of the listed ISA features` where `/proc/cpuinfo` cannot be read).
pub fn cpu() -> String {
    describe_cpuinfo(&std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_is_its_model_and_the_features_that_change_code() {
        let x86 = "processor\t: 0\nmodel name\t: AMD EPYC\nflags\t\t: fpu sse2 fma sse4_1 avx f16c avx2 bmi2\n\n\
                   processor\t: 1\nmodel name\t: AMD EPYC\nflags\t\t: fpu avx512f\n";
        assert_eq!(describe_cpuinfo(x86), "AMD EPYC; sse4_1 avx avx2 fma f16c");
        let arm = "processor\t: 0\nFeatures\t: fp asimd evtstrm fphp asimdhp sve\nCPU part\t: 0xd40\n";
        assert_eq!(describe_cpuinfo(arm), "unknown model; asimd fphp asimdhp sve");
        assert_eq!(describe_cpuinfo(""), "unknown model; none of the listed ISA features");
    }
}

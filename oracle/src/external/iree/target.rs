//! The CPU `iree-compile` generates code for, and what that means on this
//! machine (for the oracle's version line: a verdict of code compiled for
//! the host depends on the host).

/// The `--iree-llvmcpu-target-cpu` IREE compiles for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TargetCpu {
    /// `generic`: the baseline of the architecture (x86-64: SSE2, no FMA),
    /// the same code on every machine, so that a verdict does not depend
    /// on where the hunt ran. Also slightly faster to compile than `host`.
    #[default]
    Generic,
    /// `host`: the CPU the harness runs on, with every ISA feature LLVM
    /// finds there (FMA contraction, wider vectors, native f16/bf16
    /// conversions), which change generated code and may change results.
    Host,
}

impl TargetCpu {
    /// Its value of `--iree-llvmcpu-target-cpu`.
    pub const fn name(self) -> &'static str {
        match self {
            TargetCpu::Generic => "generic",
            TargetCpu::Host => "host",
        }
    }

    /// The `iree-compile` flag.
    pub fn flag(self) -> String {
        format!("--iree-llvmcpu-target-cpu={}", self.name())
    }

    /// What it compiles for, for a version line: `target-cpu generic`, or
    /// `target-cpu host (MODEL; FEATURES)` with this machine's CPU.
    pub fn describe(self) -> String {
        match self {
            TargetCpu::Generic => "target-cpu generic".into(),
            TargetCpu::Host => {
                format!("target-cpu host ({})", crate::host::cpu())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_name_the_target() {
        assert_eq!(TargetCpu::default(), TargetCpu::Generic);
        assert_eq!(TargetCpu::Generic.flag(), "--iree-llvmcpu-target-cpu=generic");
        assert_eq!(TargetCpu::Host.flag(), "--iree-llvmcpu-target-cpu=host");
        assert_eq!(TargetCpu::Generic.describe(), "target-cpu generic");
        assert!(TargetCpu::Host.describe().starts_with("target-cpu host ("));
    }
}

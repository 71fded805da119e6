//! Target environments, spelled as spirv-val spells them.
//!
//! One type for the whole harness: validation options, near-valid cases and
//! findings all carry a [`TargetEnv`], never a bare string.

use std::fmt;

/// A target environment: the SPIR-V version ceiling and whether the Vulkan
/// environment rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TargetEnv {
    /// The spirv-val name (`vulkan1.3`, `spv1.6`, ...).
    pub name: &'static str,
    /// The `spv_target_env` value of SPIRV-Tools' C API.
    pub spv_env: u32,
    /// Highest SPIR-V version accepted, as `(major, minor)`.
    pub max_version: (u32, u32),
    /// Whether the Vulkan environment rules apply.
    pub vulkan: bool,
}

// (name, spv_target_env value from libspirv.h, max SPIR-V version, vulkan).
// `universal1.x` are accepted as aliases of `spv1.x` (SPIRV-Tools' enum name).
const ENVS: &[(&str, u32, (u32, u32), bool)] = &[
    ("spv1.0", 0, (1, 0), false),
    ("vulkan1.0", 1, (1, 0), true),
    ("spv1.1", 2, (1, 1), false),
    ("opencl2.1", 3, (1, 0), false),
    ("opencl2.2", 4, (1, 2), false),
    ("opengl4.0", 5, (1, 0), false),
    ("opengl4.1", 6, (1, 0), false),
    ("opengl4.2", 7, (1, 0), false),
    ("opengl4.3", 8, (1, 0), false),
    ("opengl4.5", 9, (1, 0), false),
    ("spv1.2", 10, (1, 2), false),
    ("opencl1.2", 11, (1, 0), false),
    ("opencl1.2embedded", 12, (1, 0), false),
    ("opencl2.0", 13, (1, 0), false),
    ("opencl2.0embedded", 14, (1, 0), false),
    ("opencl2.1embedded", 15, (1, 0), false),
    ("opencl2.2embedded", 16, (1, 2), false),
    ("spv1.3", 17, (1, 3), false),
    ("vulkan1.1", 18, (1, 3), true),
    ("spv1.4", 20, (1, 4), false),
    ("vulkan1.1spv1.4", 21, (1, 4), true),
    ("spv1.5", 22, (1, 5), false),
    ("vulkan1.2", 23, (1, 5), true),
    ("spv1.6", 24, (1, 6), false),
    ("vulkan1.3", 25, (1, 6), true),
    ("vulkan1.4", 26, (1, 6), true),
];

impl TargetEnv {
    /// Parses a spirv-val `--target-env` name (`universal1.X` is accepted for `spv1.X`).
    pub fn parse(name: &str) -> Option<TargetEnv> {
        let lower = name.to_ascii_lowercase();
        let canonical = match lower.strip_prefix("universal") {
            Some(rest) => format!("spv{rest}"),
            None => lower,
        };
        ENVS.iter().find(|(n, ..)| *n == canonical).map(|&(name, spv_env, max_version, vulkan)| TargetEnv {
            name,
            spv_env,
            max_version,
            vulkan,
        })
    }

    /// Every name [`TargetEnv::parse`] accepts (without the `universal` aliases).
    pub fn names() -> impl Iterator<Item = &'static str> {
        ENVS.iter().map(|(n, ..)| *n)
    }

    /// Whether a module of SPIR-V `version` may be used in this environment.
    pub fn accepts_version(self, version: (u32, u32)) -> bool {
        version <= self.max_version
    }
}

impl TargetEnv {
    /// `vulkan1.3`, the environment valid cases are checked under.
    pub const VULKAN_1_3: TargetEnv = TargetEnv { name: "vulkan1.3", spv_env: 25, max_version: (1, 6), vulkan: true };

    /// `spv1.6`, the universal environment of the newest SPIR-V.
    pub const SPV_1_6: TargetEnv = TargetEnv { name: "spv1.6", spv_env: 24, max_version: (1, 6), vulkan: false };
}

impl Default for TargetEnv {
    fn default() -> Self {
        TargetEnv::VULKAN_1_3
    }
}

impl std::str::FromStr for TargetEnv {
    type Err = UnknownTargetEnv;

    fn from_str(s: &str) -> Result<TargetEnv, UnknownTargetEnv> {
        TargetEnv::parse(s).ok_or_else(|| UnknownTargetEnv(s.to_string()))
    }
}

/// A target environment name that spirv-val does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown target environment {0:?} (spirv-val names: {names})", names = TargetEnv::names().collect::<Vec<_>>().join(", "))]
pub struct UnknownTargetEnv(pub String);

impl serde::Serialize for TargetEnv {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name)
    }
}

impl<'de> serde::Deserialize<'de> for TargetEnv {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TargetEnv, D::Error> {
        let name = String::deserialize(d)?;
        TargetEnv::parse(&name).ok_or_else(|| serde::de::Error::custom(UnknownTargetEnv(name)))
    }
}

impl fmt::Display for TargetEnv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_and_alias() {
        let v = TargetEnv::parse("vulkan1.3").expect("vulkan1.3");
        assert!(v.vulkan && v.max_version == (1, 6) && v.spv_env == 25);
        assert_eq!(TargetEnv::parse("universal1.5"), TargetEnv::parse("spv1.5"));
        assert_eq!(TargetEnv::parse("vulkan1.2").map(|e| e.max_version), Some((1, 5)));
        assert!(TargetEnv::parse("vulkan9").is_none());
        assert!(!TargetEnv::parse("spv1.6").is_some_and(|e| e.vulkan));
        assert_eq!(TargetEnv::names().count(), ENVS.len());
        assert_eq!(TargetEnv::parse("vulkan1.3"), Some(TargetEnv::VULKAN_1_3));
        assert_eq!(TargetEnv::parse("spv1.6"), Some(TargetEnv::SPV_1_6));
    }

    #[test]
    fn serde_uses_the_spirv_val_name() {
        let json = serde_json::to_string(&TargetEnv::VULKAN_1_3).expect("serializes");
        assert_eq!(json, "\"vulkan1.3\"");
        let back: TargetEnv = serde_json::from_str("\"universal1.5\"").expect("alias parses");
        assert_eq!(back.name, "spv1.5");
        assert!(serde_json::from_str::<TargetEnv>("\"vulkan9\"").is_err());
    }
}

//! [`define_config!`]: a configuration struct declared once, as a table.
//!
//! Each field is written once, with its doc comment, attributes, default
//! and (optionally) its command-line flag; the struct, its `Default`, the
//! flags struct and the code that applies the flags all come from that one
//! list, as wasm-smith's configuration does. A field added to the table is
//! in the struct, has a default, is (de)serialized under its name, and,
//! when it has a flag, is a flag of every command that flattens the flags
//! struct: nothing is copied by hand.

/// Declares a configuration struct, its `Default` and its flags struct.
///
/// ```text
/// define_config! {
///     /// The struct's doc.
///     #[derive(...)]
///     pub struct Name / NameFlags {
///         /// A field's doc.
///         pub field: Type = default_expr,
///             flag(long, value_name = "N") "The flag's help." : FlagType => conversion;
///         pub other: Type = default_expr;
///     }
///     nested { probs: ProbabilityFlags }
/// }
/// ```
///
/// - The flags struct `NameFlags` has an `Option<FlagType>` per field with a
///   `flag(...)` (the clap `arg` attributes, applied with the `cli` feature),
///   whose help is the string given; `nested` flattens the flags of nested
///   configuration fields into it.
/// - `NameFlags::apply` sets each field whose flag was given to
///   `conversion(&value)?` (a `Fn(&FlagType) -> Result<Type, ConfigError>`).
/// - `pub struct Name / NameFlags: each T` declares a struct whose fields
///   are all of type `T` and also gives it `entries()` (name and value of
///   every field, in order) and `as_mut_slice()`.
macro_rules! define_config {
    (
        $(#[$meta:meta])*
        pub struct $name:ident / $flags:ident: each $elem:ty {
            $(
                $(#[$field_meta:meta])*
                pub $field:ident : $ty:ty = $default:expr
                $(, flag($($arg:tt)*) $help:literal : $flag_ty:ty => $conv:expr)?
                ;
            )*
        }
        $( nested { $( $nested:ident : $nested_flags:ty ),* $(,)? } )?
    ) => {
        define_config! {
            $(#[$meta])*
            pub struct $name / $flags {
                $(
                    $(#[$field_meta])*
                    pub $field : $ty = $default
                    $(, flag($($arg)*) $help : $flag_ty => $conv)?
                    ;
                )*
            }
            $( nested { $( $nested : $nested_flags ),* } )?
        }

        impl $name {
            /// Every field with its name, in declaration order.
            pub fn entries(&self) -> Vec<(&'static str, $elem)> {
                vec![$( (stringify!($field), self.$field), )*]
            }

            /// Every field, mutably, in declaration order.
            pub(crate) fn as_mut_slice(&mut self) -> Vec<&mut $elem> {
                vec![$( &mut self.$field, )*]
            }
        }
    };
    (
        $(#[$meta:meta])*
        pub struct $name:ident / $flags:ident {
            $(
                $(#[$field_meta:meta])*
                pub $field:ident : $ty:ty = $default:expr
                $(, flag($($arg:tt)*) $help:literal : $flag_ty:ty => $conv:expr)?
                ;
            )*
        }
        $( nested { $( $nested:ident : $nested_flags:ty ),* $(,)? } )?
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[$field_meta])* pub $field: $ty, )*
        }

        impl Default for $name {
            fn default() -> $name {
                $name { $( $field: $default, )* }
            }
        }

        #[doc = concat!("The command-line flags of [`", stringify!($name), "`]: each field is `None` unless its flag is given.")]
        #[derive(Clone, Debug, Default, PartialEq)]
        #[cfg_attr(feature = "cli", derive(clap::Args))]
        pub struct $flags {
            $($(
                #[doc = $help]
                #[cfg_attr(feature = "cli", arg($($arg)*))]
                pub $field: Option<$flag_ty>,
            )?)*
            $($(
                #[doc = concat!("The flags of `", stringify!($nested), "`.")]
                #[cfg_attr(feature = "cli", command(flatten))]
                pub $nested: $nested_flags,
            )*)?
        }

        impl $flags {
            #[doc = concat!("Sets the fields of `config` whose flags were given; an error names the flag whose value does not convert.")]
            pub fn apply(&self, config: &mut $name) -> Result<(), ConfigError> {
                $($(
                    if let Some(value) = &self.$field {
                        let convert: fn(&$flag_ty) -> Result<$ty, ConfigError> = $conv;
                        config.$field = convert(value)?;
                    }
                )?)*
                $($( self.$nested.apply(&mut config.$nested)?; )*)?
                Ok(())
            }
        }
    };
}

pub(crate) use define_config;

//! [`enum_with_all!`](crate::enum_with_all): an enum of unit variants
//! declared together with its list of every variant.

/// Declares an enum of unit variants and, from the same list, its
/// `ALL` constant: every variant in declaration order.
///
/// A hand-written `ALL: [T; N]` compiles while missing a variant as long as
/// `N` is lowered too, and its length has to be counted by hand; here the
/// list and its length come from the declaration, so a variant added to the
/// enum is in `ALL` and nothing is counted. The `ALL` line takes its own
/// doc comment and visibility:
///
/// ```
/// spvgraph_ir::enum_with_all! {
///     /// A colour.
///     #[derive(Clone, Copy, Debug, PartialEq, Eq)]
///     pub enum Colour {
///         /// Red.
///         Red,
///         /// Green.
///         Green,
///     }
///     /// Every colour, in order.
///     pub const ALL;
/// }
/// assert_eq!(Colour::ALL, [Colour::Red, Colour::Green]);
/// ```
#[macro_export]
macro_rules! enum_with_all {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$variant_meta:meta])* $variant:ident, )*
        }
        $(#[$all_meta:meta])*
        $all_vis:vis const ALL;
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $( $(#[$variant_meta])* $variant, )*
        }

        impl $name {
            $(#[$all_meta])*
            $all_vis const ALL: [$name; [$(stringify!($variant),)*].len()] = [$($name::$variant,)*];
        }
    };
}

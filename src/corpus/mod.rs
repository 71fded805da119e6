//! The regression corpus as something other implementations run: building
//! its valid cases with expected outputs ([`build`]), reading it
//! ([`cases`]), running a validator or an executor on every case and
//! judging it ([`check`], with command [`template`]s or the registry's
//! oracles), the per-operator and per-rule tables, JSON and JUnit XML
//! ([`report`]), promoting a hunt finding into `corpus/findings/`
//! ([`add`]), and running the findings' upstream reproducers
//! ([`reproduce`]) on every installed version of the tools ([`status`]);
//! the real networks of `corpus/networks/` are checked by [`networks`].

pub mod add;
pub mod build;
pub mod cases;
pub mod check;
pub mod networks;
pub mod report;
pub mod reproduce;
pub mod status;
pub mod template;

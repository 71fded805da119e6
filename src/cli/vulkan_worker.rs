//! `spvgraph vulkan-worker`: the worker process of the `vulkan` oracle. It
//! speaks the oracle's pipe protocol on standard input and output; people
//! do not run it by hand.

use super::Outcome;

/// Serve the `vulkan` oracle's worker protocol on standard input/output.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Serves until the oracle closes the pipe.
pub fn run(_args: Args) -> anyhow::Result<Outcome> {
    spvgraph_oracle::external::vulkan::worker::serve().map_err(|e| anyhow::anyhow!("vulkan-worker: {e}"))?;
    Ok(Outcome::Success)
}

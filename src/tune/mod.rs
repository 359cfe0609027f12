//! `aplc tune`: finds values for a program's threshold parameters that make it faster on given datasets, and writes
//! them to a tuning file (`prog.tuning`, `name=value` lines) that compiled programs read at run time.
//!
//! The search ([`search`]) is Munksgaard et al.'s structure-aware autotuner (PhD thesis, chapter 7): it follows the
//! program's threshold tree ([`crate::loops::parameters::ThresholdNode`]) from the deepest thresholds up, and for each
//! threshold tries only the values the program actually compared with it (the comparison log of `APLC_TUNING_LOG`),
//! because under the monotonicity assumption no other value can choose differently. It is pure: it runs the program
//! only through the [`Runner`] trait, so that tests can give it a cost model instead of a clock.
//!
//! The rest drives real runs: [`datasets`] reads the dataset files (a program's arguments), [`runner`] builds the
//! program once and times its executable, [`report`] writes the tuning file, the summary table and the JSON report,
//! and [`command`] puts them together for the command line, with the final honesty check: the tuned settings are timed
//! against the defaults once more, and never kept when they are slower.

pub mod command;
pub mod datasets;
pub mod report;
pub mod runner;
pub mod search;

use std::collections::{BTreeMap, BTreeSet};

/// Values of threshold parameters by name. A parameter that is absent keeps its default. Ordered, so that the
/// environment of a run, the progress lines and the tuning file come out in the same order every time.
pub type Settings = BTreeMap<String, i64>;

/// The values each threshold was compared with during a run, by parameter name.
pub type ComparedValues = BTreeMap<String, BTreeSet<i64>>;

/// What one measurement of a program on a dataset gave: its time (for real runs, the median of several timed runs) and
/// which values each threshold was compared with.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// Seconds; a smaller time is better. Synthetic runners may use any unit.
    pub time: f64,
    pub compared: ComparedValues,
}

/// Why a run gave no measurement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The program failed with these settings (a GPU version out of resources, say): the search counts the setting as
    /// infinitely slow and goes on, as the thesis's tuner does.
    Failed(String),
    /// Tuning cannot go on: the program printed something different from its default run (a compiler bug), or
    /// could not be started at all.
    Fatal(String),
}

/// Runs the program being tuned. `dataset` indexes the datasets the search was given; `settings` holds the
/// parameters to set (the others keep their defaults).
pub trait Runner {
    fn run(&mut self, dataset: usize, settings: &Settings) -> Result<Measurement, RunError>;
}

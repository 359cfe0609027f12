//! The structure-aware threshold search of Munksgaard et al. (PhD thesis, chapter 7: procedures TuneProgram,
//! TuneInvarThreshold and TuneVarThreshold), over a program's threshold tree.
//!
//! A threshold `T` guards two versions of a part of the program: `compared >= T` runs the `reached` version, anything
//! else the `otherwise` one. Setting `T` to `v` makes exactly the comparisons with `compared >= v` take `reached`, so
//! on one dataset the only settings that behave differently are the values the program compared with `T` (read from
//! the comparison log) and [`NEVER_REACHED`]; each of these candidates stands for the interval of settings that
//! behave like it. The monotonicity assumption (a version that wins at some compared value wins at every larger one)
//! makes the program's time unimodal over the sorted candidates, which allows a binary search when there are many.
//!
//! Per dataset:
//! 1. every threshold starts at [`NEVER_REACHED`] (the bottom version everywhere); one run times it and logs the
//!    compared values;
//! 2. the tree is tuned from the deepest thresholds up (post-order; siblings one after another in program order).
//!    For a node, its `otherwise` subtree is tuned first (with the node never reached, so that subtree runs); then,
//!    when its `reached` subtree has thresholds, the node is set to its smallest compared value (every comparison
//!    reached), one run times that and logs the subtree's compared values, and the subtree is tuned there; finally
//!    the node's candidates are timed with both subtrees fixed (the two ends are known already), exhaustively when
//!    there are at most [`SearchOptions::exhaustive_candidates`], else by a binary search for the minimum;
//! 3. the fastest candidate wins, except that the candidate the default value belongs to is kept when it is within
//!    [`SearchOptions::epsilon`] of the fastest, so that timing noise does not change a setting for nothing. The
//!    dataset's verdict for the node is the interval of the chosen candidate; a subtree the chosen setting never runs
//!    on this dataset has no verdict from it.
//!
//! Over datasets, each threshold's intervals are intersected and the value nearest the default inside the
//! intersection is chosen (the default itself when it lies inside). Where the intersection is empty (monotonicity
//! broken, or noise) each dataset's preferred value and the default are timed on every dataset, and the least total
//! time wins. A failed run counts as infinitely slow; the search is deterministic given the runner's answers.
//!
//! A program whose thresholds are each compared with one value per dataset (size-invariant) costs
//! `datasets × (1 + thresholds)` runs.

use super::{ComparedValues, Measurement, RunError, Runner, Settings};
use crate::loops::parameters::{Parameter, ThresholdNode, NEVER_REACHED};
use std::collections::BTreeMap;

/// The knobs of the search.
#[derive(Clone, Copy, Debug)]
pub struct SearchOptions {
    /// A relative margin: a setting other than the default must be faster than the default's candidate by more than
    /// this fraction of its time to be chosen, and the tuned settings may be at most this much slower than the
    /// defaults in the final check.
    pub epsilon: f64,
    /// At most this many candidates for a threshold (its compared values and [`NEVER_REACHED`]) are all timed; more are
    /// searched by bisection.
    pub exhaustive_candidates: usize,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            epsilon: 0.02,
            exhaustive_candidates: 6,
        }
    }
}

/// An inclusive interval of threshold values: the settings that choose the same versions on a dataset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    pub low: i64,
    pub high: i64,
}

impl Interval {
    /// Both intervals' common values, `None` when they have none.
    pub fn intersection(self, other: Interval) -> Option<Interval> {
        let low = self.low.max(other.low);
        let high = self.high.min(other.high);
        (low <= high).then_some(Interval { low, high })
    }

    /// The value of the interval nearest `value`: `value` itself when it lies inside.
    pub fn value_nearest(self, value: i64) -> i64 {
        value.clamp(self.low, self.high)
    }
}

/// What the search found on one dataset.
#[derive(Clone, Debug, PartialEq)]
pub struct DatasetResult {
    /// The time with every threshold at [`NEVER_REACHED`].
    pub bottom_time: f64,
    /// The time of the best settings found for this dataset alone.
    pub best_time: f64,
    /// Those settings, every threshold of the tree explicit.
    pub settings: Settings,
    /// For each threshold this dataset constrains, the interval of values that choose as [`Self::settings`] does.
    pub intervals: BTreeMap<String, Interval>,
    /// Every value each threshold was compared with, over this dataset's runs.
    pub compared: ComparedValues,
}

/// The outcome of the search over all datasets.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOutcome {
    /// The tuned settings: only the thresholds whose value differs from their default.
    pub settings: Settings,
    pub datasets: Vec<DatasetResult>,
    /// The thresholds whose intervals had no common value, settled by timing candidates on every dataset.
    pub conflicts: Vec<String>,
    /// The number of measurements the search made (each one call of [`Runner::run`]).
    pub runs: usize,
}

/// The final check of the tuned settings against the defaults, on every dataset.
#[derive(Clone, Debug, PartialEq)]
pub struct Verification {
    pub default_times: Vec<f64>,
    /// The times of the search's settings.
    pub tuned_times: Vec<f64>,
    /// Whether the search's settings are kept whole: no dataset is slower with them than with the defaults by more
    /// than the epsilon.
    pub keeps_tuned: bool,
    /// The settings kept: the search's, or (when they were slower somewhere) what is left of them after dropping
    /// thresholds one at a time until no dataset is slower than with the defaults; empty when nothing is left.
    pub kept: Settings,
    /// The times of [`Self::kept`] (the defaults' when it is empty).
    pub kept_times: Vec<f64>,
    /// The thresholds of the search's settings that were dropped, in the order they were.
    pub dropped: Vec<String>,
    pub runs: usize,
}

/// One measurement, as reported to the observer while tuning.
#[derive(Clone, Debug)]
pub struct Progress {
    /// The measurement's number, from 1, over the whole tuning (search and verification).
    pub run: usize,
    /// The dataset's index, from 0, and how many there are.
    pub dataset: usize,
    pub datasets: usize,
    /// What was measured: `bottom`, `threshold_i4=1200`, `default`, `tuned`.
    pub label: String,
    pub time: f64,
    /// Times to compare it with, named: `current` (the settings chosen so far on this dataset), `bottom`, `default`.
    pub references: Vec<(&'static str, f64)>,
}

/// Runs the search and the final check, counting measurements and reporting each one.
pub struct Tuner<'a> {
    runner: &'a mut dyn Runner,
    observer: &'a mut dyn FnMut(&Progress),
    options: SearchOptions,
    datasets: usize,
    runs: usize,
}

impl<'a> Tuner<'a> {
    pub fn new(
        runner: &'a mut dyn Runner,
        datasets: usize,
        options: SearchOptions,
        observer: &'a mut dyn FnMut(&Progress),
    ) -> Tuner<'a> {
        Tuner {
            runner,
            observer,
            options,
            datasets,
            runs: 0,
        }
    }

    /// The measurements made so far.
    pub fn runs(&self) -> usize {
        self.runs
    }

    /// Tunes the thresholds of `tree` on every dataset and combines the datasets' verdicts.
    pub fn search(&mut self, tree: &[ThresholdNode]) -> Result<SearchOutcome, String> {
        let first_run = self.runs;
        let mut datasets = Vec::new();
        for dataset in 0..self.datasets {
            datasets.push(self.search_dataset(tree, dataset)?);
        }
        let (settings, conflicts) = self.combine_datasets(tree, &datasets)?;
        Ok(SearchOutcome {
            settings,
            datasets,
            conflicts,
            runs: self.runs - first_run,
        })
    }

    /// Times the defaults and `tuned` on every dataset, and decides whether `tuned` is kept: it is dropped when it is
    /// slower than the defaults on any dataset by more than the epsilon. Empty `tuned` settings are the defaults and
    /// are timed once.
    pub fn verify(&mut self, tuned: &Settings) -> Result<Verification, String> {
        let first_run = self.runs;
        let (mut default_times, mut tuned_times) = (Vec::new(), Vec::new());
        for dataset in 0..self.datasets {
            let default_time = self.measure(dataset, &Settings::new(), "default", Vec::new())?.time;
            let tuned_time = match tuned.is_empty() {
                true => default_time,
                false => {
                    let references = vec![("default", default_time)];
                    self.measure(dataset, tuned, "tuned", references)?.time
                }
            };
            default_times.push(default_time);
            tuned_times.push(tuned_time);
        }
        let keeps_tuned = self.is_nowhere_slower(&tuned_times, &default_times);
        let (kept, kept_times, dropped) = match keeps_tuned {
            true => (tuned.clone(), tuned_times.clone(), Vec::new()),
            false => self.drop_thresholds_until_nowhere_slower(tuned, &tuned_times, &default_times)?,
        };
        Ok(Verification {
            default_times,
            tuned_times,
            keeps_tuned,
            kept,
            kept_times,
            dropped,
            runs: self.runs - first_run,
        })
    }

    /// Whether no dataset's time is worse than the default's beyond the epsilon.
    fn is_nowhere_slower(&self, times: &[f64], default_times: &[f64]) -> bool {
        times
            .iter()
            .zip(default_times)
            .all(|(time, default)| !self.is_slower_beyond_epsilon(*time, *default))
    }

    /// When the search's settings are slower than the defaults on some dataset (timing noise on a shared machine, or
    /// settings that suit each dataset alone but not together), drops one of their thresholds at a time (back to its
    /// default): each round times every setting with one more threshold dropped on every dataset, and goes on from the
    /// one whose worst ratio to the defaults is least, until a setting is nowhere slower (kept) or nothing is left
    /// (the defaults). At most `k(k+1)/2` settings for `k` thresholds, each timed on every dataset.
    fn drop_thresholds_until_nowhere_slower(
        &mut self,
        tuned: &Settings,
        tuned_times: &[f64],
        default_times: &[f64],
    ) -> Result<(Settings, Vec<f64>, Vec<String>), String> {
        let mut current = tuned.clone();
        let mut current_times = tuned_times.to_vec();
        let mut dropped = Vec::new();
        while !current.is_empty() {
            if self.is_nowhere_slower(&current_times, default_times) {
                return Ok((current, current_times, dropped));
            }
            let mut best: Option<(f64, String, Vec<f64>)> = None;
            for name in current.keys() {
                let mut candidate = current.clone();
                candidate.remove(name);
                let times = match candidate.is_empty() {
                    true => default_times.to_vec(),
                    false => self.time_on_every_dataset(&candidate, default_times, &format!("without {name}"))?,
                };
                let worst = times
                    .iter()
                    .zip(default_times)
                    .map(|(time, default)| time / default)
                    .fold(0.0, f64::max);
                if best.as_ref().is_none_or(|(least, _, _)| worst < *least) {
                    best = Some((worst, name.clone(), times));
                }
            }
            let Some((_, name, times)) = best else { break };
            current.remove(&name);
            current_times = times;
            dropped.push(name);
        }
        match current.is_empty() {
            true => Ok((Settings::new(), default_times.to_vec(), dropped)),
            false => Ok((current, current_times, dropped)),
        }
    }

    /// The times of `settings` on every dataset, labelled for the progress lines.
    fn time_on_every_dataset(
        &mut self,
        settings: &Settings,
        default_times: &[f64],
        label: &str,
    ) -> Result<Vec<f64>, String> {
        (0..self.datasets)
            .map(|dataset| {
                let references = vec![("default", default_times[dataset])];
                Ok(self.measure(dataset, settings, label, references)?.time)
            })
            .collect()
    }

    /// Whether `time` is worse than `reference` by more than the epsilon (an infinite time always is, unless the
    /// reference is infinite too).
    fn is_slower_beyond_epsilon(&self, time: f64, reference: f64) -> bool {
        time > reference * (1.0 + self.options.epsilon)
    }

    /// One measurement: a failed run is infinitely slow, a fatal one ends the tuning.
    fn measure(
        &mut self,
        dataset: usize,
        settings: &Settings,
        label: &str,
        references: Vec<(&'static str, f64)>,
    ) -> Result<Measurement, String> {
        self.runs += 1;
        let measurement = match self.runner.run(dataset, settings) {
            Ok(measurement) => measurement,
            Err(RunError::Failed(_)) => Measurement {
                time: f64::INFINITY,
                compared: ComparedValues::new(),
            },
            Err(RunError::Fatal(message)) => return Err(message),
        };
        (self.observer)(&Progress {
            run: self.runs,
            dataset,
            datasets: self.datasets,
            label: label.to_string(),
            time: measurement.time,
            references,
        });
        Ok(measurement)
    }

    /// Steps 1 and 2 of the module documentation on one dataset.
    fn search_dataset(&mut self, tree: &[ThresholdNode], dataset: usize) -> Result<DatasetResult, String> {
        let settings: Settings = all_parameters(tree)
            .into_iter()
            .map(|parameter| (parameter.name.clone(), NEVER_REACHED))
            .collect();
        let bottom = self.measure(dataset, &settings, "bottom", Vec::new())?;
        let mut search = DatasetSearch {
            tuner: self,
            dataset,
            settings,
            best_time: bottom.time,
            bottom_time: bottom.time,
            compared: bottom.compared,
            intervals: BTreeMap::new(),
        };
        search.tune_forest(tree)?;
        Ok(DatasetResult {
            bottom_time: search.bottom_time,
            best_time: search.best_time,
            settings: search.settings,
            intervals: search.intervals,
            compared: search.compared,
        })
    }

    /// The settings for all datasets together: each threshold's intersection of intervals (the value nearest its
    /// default), and the conflicts settled by extra runs, deepest threshold first.
    fn combine_datasets(
        &mut self,
        tree: &[ThresholdNode],
        datasets: &[DatasetResult],
    ) -> Result<(Settings, Vec<String>), String> {
        let mut settings = Settings::new();
        let mut conflicts = Vec::new();
        for parameter in all_parameters(tree) {
            let intervals: Vec<Interval> = datasets
                .iter()
                .filter_map(|dataset| dataset.intervals.get(&parameter.name).copied())
                .collect();
            let Some(first) = intervals.first() else {
                continue;
            };
            let common = intervals[1..]
                .iter()
                .try_fold(*first, |common, interval| common.intersection(*interval));
            match common {
                Some(common) => set_unless_default(&mut settings, parameter, common.value_nearest(parameter.default)),
                None => conflicts.push((parameter, intervals)),
            }
        }
        for (parameter, intervals) in &conflicts {
            let value = self.settle_conflict(parameter, intervals, &settings)?;
            set_unless_default(&mut settings, parameter, value);
        }
        Ok((
            settings,
            conflicts.iter().map(|(parameter, _)| parameter.name.clone()).collect(),
        ))
    }

    /// A threshold whose datasets want disjoint intervals: times each dataset's preferred value (the value nearest
    /// the default in its interval) and the default on every dataset, with the other thresholds as settled so far,
    /// and returns the value of least total time (the default when it is within the epsilon of the least).
    fn settle_conflict(
        &mut self,
        parameter: &Parameter,
        intervals: &[Interval],
        settled: &Settings,
    ) -> Result<i64, String> {
        let mut candidates: Vec<i64> = intervals
            .iter()
            .map(|interval| interval.value_nearest(parameter.default))
            .chain([parameter.default])
            .collect();
        candidates.sort_unstable();
        candidates.dedup();
        let mut totals = Vec::new();
        for &value in &candidates {
            let mut settings = settled.clone();
            set_unless_default(&mut settings, parameter, value);
            let label = format!("{}={} (conflict)", parameter.name, value);
            let mut total = 0.0;
            for dataset in 0..self.datasets {
                total += self.measure(dataset, &settings, &label, Vec::new())?.time;
            }
            totals.push(total);
        }
        let default_index = candidates.iter().position(|&value| value == parameter.default);
        let chosen = self.fastest_preferring(&totals, default_index);
        Ok(candidates[chosen])
    }

    /// The index of the least time, or `preferred` when its time is within the epsilon of the least. Ties go to the
    /// lower index, so that the choice is deterministic.
    fn fastest_preferring(&self, times: &[f64], preferred: Option<usize>) -> usize {
        let fastest = (0..times.len()).fold(0, |best, index| if times[index] < times[best] { index } else { best });
        match preferred {
            Some(preferred) if !self.is_slower_beyond_epsilon(times[preferred], times[fastest]) => preferred,
            _ => fastest,
        }
    }
}

/// Adds `value` for the parameter unless it is the default (absent settings keep their defaults).
fn set_unless_default(settings: &mut Settings, parameter: &Parameter, value: i64) {
    if value == parameter.default {
        settings.remove(&parameter.name);
    } else {
        settings.insert(parameter.name.clone(), value);
    }
}

/// Every parameter of the tree, deepest first: each node's `otherwise` subtree, its `reached` subtree, then the node
/// (the order the search tunes them in).
pub fn all_parameters(tree: &[ThresholdNode]) -> Vec<&Parameter> {
    let mut parameters = Vec::new();
    collect_post_order(tree, &mut parameters);
    parameters
}

fn collect_post_order<'t>(tree: &'t [ThresholdNode], parameters: &mut Vec<&'t Parameter>) {
    for node in tree {
        collect_post_order(&node.otherwise, parameters);
        collect_post_order(&node.reached, parameters);
        parameters.push(&node.parameter);
    }
}

/// The candidates of one threshold on one dataset: its sorted distinct compared values, then [`NEVER_REACHED`].
struct Candidates {
    values: Vec<i64>,
}

impl Candidates {
    /// How many candidates there are (the values and [`NEVER_REACHED`]).
    fn count(&self) -> usize {
        self.values.len() + 1
    }

    /// The index of [`NEVER_REACHED`], the last candidate.
    fn never_index(&self) -> usize {
        self.values.len()
    }

    /// The setting candidate `index` stands for.
    fn value(&self, index: usize) -> i64 {
        self.values.get(index).copied().unwrap_or(NEVER_REACHED)
    }

    /// The settings that behave as candidate `index`: above the previous compared value, up to this one.
    fn interval(&self, index: usize) -> Interval {
        let low = match index {
            0 => i64::MIN,
            _ => self.values[index - 1].saturating_add(1),
        };
        Interval {
            low,
            high: self.value(index),
        }
    }

    /// The candidate whose interval holds `value`.
    fn index_of_setting(&self, value: i64) -> usize {
        self.values.partition_point(|&compared| compared < value)
    }
}

/// The state of the search on one dataset: the current settings (every threshold explicit) and their time.
struct DatasetSearch<'t, 'a> {
    tuner: &'t mut Tuner<'a>,
    dataset: usize,
    settings: Settings,
    best_time: f64,
    bottom_time: f64,
    compared: ComparedValues,
    intervals: BTreeMap<String, Interval>,
}

impl DatasetSearch<'_, '_> {
    fn tune_forest(&mut self, nodes: &[ThresholdNode]) -> Result<(), String> {
        nodes.iter().try_for_each(|node| self.tune_node(node))
    }

    /// Tunes a node's subtrees, then the node itself (step 2 of the module documentation).
    fn tune_node(&mut self, node: &ThresholdNode) -> Result<(), String> {
        self.tune_forest(&node.otherwise)?;
        let name = &node.parameter.name;
        let candidates = Candidates {
            values: self
                .compared
                .get(name)
                .map(|values| values.iter().copied().collect())
                .unwrap_or_default(),
        };
        if candidates.values.is_empty() {
            // Never compared on this dataset: nothing to learn, and its `reached` subtree never runs either.
            return Ok(());
        }
        let mut known_times = BTreeMap::from([(candidates.never_index(), self.best_time)]);
        if !all_parameters(&node.reached).is_empty() {
            self.settings.insert(name.clone(), candidates.value(0));
            self.best_time = self.measure_current(&format!("{name}={} (reached)", candidates.value(0)))?;
            self.tune_forest(&node.reached)?;
            known_times.insert(0, self.best_time);
        }
        let chosen = self.choose_candidate(&node.parameter, &candidates, &mut known_times)?;
        self.settings.insert(name.clone(), candidates.value(chosen));
        self.best_time = known_times[&chosen];
        self.intervals.insert(name.clone(), candidates.interval(chosen));
        if chosen == candidates.never_index() {
            self.forget_verdicts(&node.reached);
        }
        if chosen == 0 {
            self.forget_verdicts(&node.otherwise);
        }
        Ok(())
    }

    /// Drops the verdicts of a subtree that the chosen settings never run on this dataset: any value is as good there.
    fn forget_verdicts(&mut self, subtree: &[ThresholdNode]) {
        for parameter in all_parameters(subtree) {
            self.intervals.remove(&parameter.name);
        }
    }

    /// Times the candidates a threshold needs (all of them when few, else a bisection) and returns the chosen index.
    fn choose_candidate(
        &mut self,
        parameter: &Parameter,
        candidates: &Candidates,
        known_times: &mut BTreeMap<usize, f64>,
    ) -> Result<usize, String> {
        let default_index = candidates.index_of_setting(parameter.default);
        if candidates.count() <= self.tuner.options.exhaustive_candidates {
            for index in 0..candidates.count() {
                self.time_candidate(parameter, candidates, index, known_times)?;
            }
        } else {
            self.bisect_for_minimum(parameter, candidates, known_times)?;
            self.time_candidate(parameter, candidates, default_index, known_times)?;
        }
        let indices: Vec<usize> = known_times.keys().copied().collect();
        let times: Vec<f64> = known_times.values().copied().collect();
        let preferred = indices.iter().position(|&index| index == default_index);
        Ok(indices[self.tuner.fastest_preferring(&times, preferred)])
    }

    /// The minimum of a unimodal time over the candidates: compares neighbours and keeps the half holding the
    /// minimum, as TuneVarThreshold does; about two runs per halving (fewer where times are known).
    fn bisect_for_minimum(
        &mut self,
        parameter: &Parameter,
        candidates: &Candidates,
        known_times: &mut BTreeMap<usize, f64>,
    ) -> Result<(), String> {
        let (mut low, mut high) = (0, candidates.never_index());
        while low < high {
            let middle = (low + high) / 2;
            let at_middle = self.time_candidate(parameter, candidates, middle, known_times)?;
            let after_middle = self.time_candidate(parameter, candidates, middle + 1, known_times)?;
            if at_middle <= after_middle {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        Ok(())
    }

    /// The time with the threshold at candidate `index` and every other threshold as it is now (measured once).
    fn time_candidate(
        &mut self,
        parameter: &Parameter,
        candidates: &Candidates,
        index: usize,
        known_times: &mut BTreeMap<usize, f64>,
    ) -> Result<f64, String> {
        if let Some(&time) = known_times.get(&index) {
            return Ok(time);
        }
        let mut settings = self.settings.clone();
        settings.insert(parameter.name.clone(), candidates.value(index));
        let label = format!("{}={}", parameter.name, describe_value(candidates.value(index)));
        let time = self.measure(&settings, &label)?;
        known_times.insert(index, time);
        Ok(time)
    }

    fn measure_current(&mut self, label: &str) -> Result<f64, String> {
        let settings = self.settings.clone();
        self.measure(&settings, label)
    }

    /// Measures, and adds the run's compared values to what this dataset has logged.
    fn measure(&mut self, settings: &Settings, label: &str) -> Result<f64, String> {
        let references = vec![("current", self.best_time), ("bottom", self.bottom_time)];
        let measurement = self.tuner.measure(self.dataset, settings, label, references)?;
        for (name, values) in measurement.compared {
            self.compared.entry(name).or_default().extend(values);
        }
        Ok(measurement.time)
    }
}

/// A setting as progress lines show it: `never` for [`NEVER_REACHED`].
pub fn describe_value(value: i64) -> String {
    match value {
        NEVER_REACHED => "never".to_string(),
        _ => value.to_string(),
    }
}

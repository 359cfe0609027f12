//! The threshold search of `aplc tune` (src/tune/search.rs) against synthetic cost models: no program runs and no
//! clock, so every expectation is exact. A model is a program of guarded sites (`compared >= threshold` chooses the
//! reached sites, else the otherwise ones) whose leaves cost what a version of a parallel construct would cost on a
//! machine with a few cores; the tuner's settings are compared with the best of all combinations of candidate values
//! found by brute force, and its run counts with the thesis's `datasets × (1 + thresholds)`.

use aplc::loops::parameters::{Parameter, ThresholdNode, NEVER_REACHED};
use aplc::tune::search::{SearchOptions, Tuner};
use aplc::tune::{ComparedValues, Measurement, RunError, Runner, Settings};
use std::collections::BTreeSet;

/// The cores of the modelled machine.
const CORES: f64 = 8.0;
/// The default of every modelled threshold, as the compiler's.
const DEFAULT: i64 = 32768;

/// A part of a modelled program: a version's cost, or a comparison choosing between two lists of sites.
#[derive(Clone, Debug)]
enum Site {
    Cost(f64),
    Guard {
        name: &'static str,
        compared: i64,
        reached: Vec<Site>,
        otherwise: Vec<Site>,
    },
}

fn guard(name: &'static str, compared: i64, reached: Vec<Site>, otherwise: Vec<Site>) -> Site {
    Site::Guard {
        name,
        compared,
        reached,
        otherwise,
    }
}

/// The value a threshold has under `settings`: its setting, else the default.
fn setting(settings: &Settings, name: &str) -> i64 {
    settings.get(name).copied().unwrap_or(DEFAULT)
}

/// Runs the sites: their total cost, logging each comparison.
fn evaluate(sites: &[Site], settings: &Settings, log: &mut ComparedValues) -> f64 {
    sites
        .iter()
        .map(|site| match site {
            Site::Cost(cost) => *cost,
            Site::Guard {
                name,
                compared,
                reached,
                otherwise,
            } => {
                log.entry(name.to_string()).or_default().insert(*compared);
                match *compared >= setting(settings, name) {
                    true => evaluate(reached, settings, log),
                    false => evaluate(otherwise, settings, log),
                }
            }
        })
        .sum()
}

/// A modelled program on its datasets, as a [`Runner`]. `failing` settings (a name and the least value that fails
/// when the guard is reached with it) make a run fail, as a GPU version out of resources would.
struct CostModel {
    datasets: Vec<Vec<Site>>,
    runs: usize,
    failing: Option<(&'static str, i64)>,
}

impl CostModel {
    fn new(datasets: Vec<Vec<Site>>) -> CostModel {
        CostModel {
            datasets,
            runs: 0,
            failing: None,
        }
    }

    fn cost(&self, dataset: usize, settings: &Settings) -> f64 {
        evaluate(&self.datasets[dataset], settings, &mut ComparedValues::new())
    }

    fn total_cost(&self, settings: &Settings) -> f64 {
        (0..self.datasets.len())
            .map(|dataset| self.cost(dataset, settings))
            .sum()
    }
}

impl Runner for CostModel {
    fn run(&mut self, dataset: usize, settings: &Settings) -> Result<Measurement, RunError> {
        self.runs += 1;
        let mut compared = ComparedValues::new();
        let time = evaluate(&self.datasets[dataset], settings, &mut compared);
        if let Some((name, least_failing)) = self.failing {
            let reached_with_failure = compared.get(name).is_some_and(|values| {
                values
                    .iter()
                    .any(|&value| value >= setting(settings, name) && value >= least_failing)
            });
            if reached_with_failure {
                return Err(RunError::Failed(format!("{name} reached at {least_failing} or more")));
            }
        }
        Ok(Measurement { time, compared })
    }
}

fn node(name: &str, reached: Vec<ThresholdNode>, otherwise: Vec<ThresholdNode>) -> ThresholdNode {
    ThresholdNode {
        parameter: Parameter {
            name: name.to_string(),
            default: DEFAULT,
            description: String::new(),
        },
        reached,
        otherwise,
    }
}

fn leaf(name: &str) -> ThresholdNode {
    node(name, Vec::new(), Vec::new())
}

/// Every threshold name of a tree.
fn names(tree: &[ThresholdNode]) -> Vec<String> {
    let mut names = Vec::new();
    for node in tree {
        names.push(node.parameter.name.clone());
        names.extend(self::names(&node.reached));
        names.extend(self::names(&node.otherwise));
    }
    names
}

/// The least total cost over every combination of the values that could matter: each threshold's compared values
/// on any dataset (under any settings), its default and [`NEVER_REACHED`].
fn brute_force_minimum(model: &CostModel, tree: &[ThresholdNode]) -> f64 {
    let names = names(tree);
    let mut everything_compared = ComparedValues::new();
    for sites in &model.datasets {
        collect_all_compared(sites, &mut everything_compared);
    }
    let candidates: Vec<Vec<i64>> = names
        .iter()
        .map(|name| {
            let mut values: BTreeSet<i64> = everything_compared.get(name).cloned().unwrap_or_default();
            values.extend([DEFAULT, NEVER_REACHED]);
            values.into_iter().collect()
        })
        .collect();
    let mut best = f64::INFINITY;
    let mut choice = vec![0; names.len()];
    loop {
        let settings: Settings = names
            .iter()
            .zip(&choice)
            .enumerate()
            .map(|(index, (name, &chosen))| (name.clone(), candidates[index][chosen]))
            .collect();
        best = best.min(model.total_cost(&settings));
        // The next combination, as an odometer.
        let mut position = 0;
        loop {
            if position == names.len() {
                return best;
            }
            choice[position] += 1;
            if choice[position] < candidates[position].len() {
                break;
            }
            choice[position] = 0;
            position += 1;
        }
    }
}

/// Every comparison in the sites, whichever branch a setting would take.
fn collect_all_compared(sites: &[Site], compared: &mut ComparedValues) {
    for site in sites {
        if let Site::Guard {
            name,
            compared: value,
            reached,
            otherwise,
        } = site
        {
            compared.entry(name.to_string()).or_default().insert(*value);
            collect_all_compared(reached, compared);
            collect_all_compared(otherwise, compared);
        }
    }
}

fn exact_options() -> SearchOptions {
    SearchOptions {
        epsilon: 0.0,
        ..SearchOptions::default()
    }
}

/// What a tuning gave: the search's settings, its runs, and the final check.
struct Tuned {
    settings: Settings,
    search_runs: usize,
    check_runs: usize,
    keeps_tuned: bool,
    conflicts: Vec<String>,
}

fn tune(model: &mut CostModel, tree: &[ThresholdNode], options: SearchOptions) -> Tuned {
    let datasets = model.datasets.len();
    let mut ignore = |_: &aplc::tune::search::Progress| {};
    let mut tuner = Tuner::new(model, datasets, options, &mut ignore);
    let search = tuner.search(tree).expect("the search ends");
    let verification = tuner.verify(&search.settings).expect("the check ends");
    Tuned {
        settings: search.settings,
        search_runs: search.runs,
        check_runs: verification.runs,
        keeps_tuned: verification.keeps_tuned,
        conflicts: search.conflicts,
    }
}

/// Row sums `+/m` of an R×C matrix: `outer` compares the rows; reached, the rows are spread over the cores and each
/// summed sequentially; otherwise each row's reduction has its own threshold on its work, and runs on every core
/// (paying a synchronisation per row) or on one.
fn row_sums(rows: i64, columns: i64) -> Vec<Site> {
    let (r, c) = (rows as f64, columns as f64);
    let outer_parallel = Site::Cost(r * c / r.min(CORES) + 2000.0);
    let row_parallel = Site::Cost(r * (c / CORES + 600.0));
    let row_sequential = Site::Cost(r * c);
    vec![guard(
        "outer_1",
        rows,
        vec![outer_parallel],
        vec![guard("threshold_2", columns, vec![row_parallel], vec![row_sequential])],
    )]
}

fn row_sums_tree() -> Vec<ThresholdNode> {
    vec![node("outer_1", Vec::new(), vec![leaf("threshold_2")])]
}

#[test]
fn row_sums_reach_the_brute_force_minimum_on_many_short_and_few_long_rows() {
    let tree = row_sums_tree();
    let mut model = CostModel::new(vec![row_sums(200_000, 16), row_sums(4, 800_000), row_sums(1000, 1000)]);
    let tuned = tune(&mut model, &tree, exact_options());
    assert_eq!(model.total_cost(&tuned.settings), brute_force_minimum(&model, &tree));
    // Many short rows want the outer loop parallel, few long rows their reductions: both thresholds move.
    assert!(model.total_cost(&tuned.settings) < model.total_cost(&Settings::new()));
    assert!(tuned.keeps_tuned);
    assert!(tuned.conflicts.is_empty());
}

/// A matrix product `A+.×B` of M×K by K×N: `outer` compares the rows M (reached: rows on the cores, each row's
/// columns and dot products sequential); otherwise the columns of each row have a threshold on their work N×K
/// (reached: columns on the cores), and otherwise each dot product's reduction has one on K.
fn matrix_product(m: i64, k: i64, n: i64) -> Vec<Site> {
    let (mf, kf, nf) = (m as f64, k as f64, n as f64);
    let work = mf * kf * nf;
    vec![guard(
        "outer_1",
        m,
        vec![Site::Cost(work / mf.min(CORES) + 3000.0)],
        vec![guard(
            "threshold_2",
            n * k,
            vec![Site::Cost(mf * (nf * kf / nf.min(CORES) + 800.0))],
            vec![guard(
                "threshold_3",
                k,
                vec![Site::Cost(mf * nf * (kf / CORES + 400.0))],
                vec![Site::Cost(work)],
            )],
        )],
    )]
}

fn matrix_product_tree() -> Vec<ThresholdNode> {
    vec![node(
        "outer_1",
        Vec::new(),
        vec![node("threshold_2", Vec::new(), vec![leaf("threshold_3")])],
    )]
}

#[test]
fn a_matrix_product_reaches_the_brute_force_minimum_on_tall_square_and_wide_shapes() {
    let tree = matrix_product_tree();
    let mut model = CostModel::new(vec![
        matrix_product(20_000, 64, 64),
        matrix_product(300, 300, 300),
        matrix_product(2, 64, 20_000),
        matrix_product(1, 100_000, 1),
    ]);
    let tuned = tune(&mut model, &tree, exact_options());
    assert_eq!(model.total_cost(&tuned.settings), brute_force_minimum(&model, &tree));
}

#[test]
fn with_the_default_epsilon_the_result_is_within_the_epsilon_of_the_minimum_per_threshold() {
    let tree = matrix_product_tree();
    let mut model = CostModel::new(vec![matrix_product(20_000, 64, 64), matrix_product(2, 64, 20_000)]);
    let tuned = tune(&mut model, &tree, SearchOptions::default());
    let allowed = brute_force_minimum(&model, &tree) * 1.02f64.powi(3);
    assert!(model.total_cost(&tuned.settings) <= allowed);
}

/// A node whose reached version has thresholds of its own (an offloaded construct whose kernel has an inner
/// choice): `offload_1` compares the work; reached, a kernel whose inner loop has `threshold_2` (comparing the
/// inner size); otherwise host code with `threshold_3` on the work.
fn offloaded(work: i64, inner: i64) -> Vec<Site> {
    let (w, i) = (work as f64, inner as f64);
    vec![guard(
        "offload_1",
        work,
        vec![
            Site::Cost(50_000.0),
            guard(
                "threshold_2",
                inner,
                vec![Site::Cost(w / 64.0 + 100.0 * i.sqrt())],
                vec![Site::Cost(w / 16.0)],
            ),
        ],
        vec![guard(
            "threshold_3",
            work,
            vec![Site::Cost(w / CORES + 5000.0)],
            vec![Site::Cost(w)],
        )],
    )]
}

#[test]
fn a_reached_subtree_is_tuned_with_its_node_reached_and_reaches_the_minimum() {
    let tree = vec![node("offload_1", vec![leaf("threshold_2")], vec![leaf("threshold_3")])];
    let mut model = CostModel::new(vec![
        offloaded(10_000_000, 5_000),
        offloaded(40_000, 40),
        offloaded(2_000, 2_000),
    ]);
    let tuned = tune(&mut model, &tree, exact_options());
    assert_eq!(model.total_cost(&tuned.settings), brute_force_minimum(&model, &tree));
    // Size-invariant: each dataset costs one bottom run and one run per threshold.
    assert_eq!(tuned.search_runs, 3 * (1 + 3));
    assert!(tuned.conflicts.is_empty());
}

/// `k` independent constructs (siblings), each compared once per run with a size that differs by dataset.
fn independent_constructs(k: usize, size: i64) -> Vec<Site> {
    (0..k)
        .map(|index| {
            let work = size * (index as i64 + 1);
            guard(
                NAMES[index],
                work,
                vec![Site::Cost(work as f64 / CORES + 20_000.0)],
                vec![Site::Cost(work as f64)],
            )
        })
        .collect()
}

const NAMES: [&str; 5] = [
    "threshold_a",
    "threshold_b",
    "threshold_c",
    "threshold_d",
    "threshold_e",
];

#[test]
fn a_size_invariant_program_costs_datasets_times_one_plus_thresholds_runs() {
    for (k, sizes) in [
        (1, vec![1000, 1_000_000]),
        (3, vec![500, 50_000, 5_000_000]),
        (5, vec![10, 100_000]),
    ] {
        let tree: Vec<ThresholdNode> = NAMES[..k].iter().map(|name| leaf(name)).collect();
        let datasets: Vec<Vec<Site>> = sizes.iter().map(|&size| independent_constructs(k, size)).collect();
        let d = datasets.len();
        let mut model = CostModel::new(datasets);
        let tuned = tune(&mut model, &tree, exact_options());
        assert_eq!(tuned.search_runs, d * (1 + k), "k = {k}, d = {d}");
        // The final check times the defaults and the tuned settings on every dataset.
        let check = if tuned.settings.is_empty() { d } else { 2 * d };
        assert_eq!(tuned.check_runs, check);
        assert_eq!(model.runs, tuned.search_runs + tuned.check_runs);
        assert_eq!(model.total_cost(&tuned.settings), brute_force_minimum(&model, &tree));
    }
}

#[test]
fn defaults_that_are_already_best_are_kept() {
    // Parallel pays from about 22857 up (w/8 + 20000 < w): the default 32768 lies between the datasets' works 1000
    // and 10^6 that want sequential and parallel, so no setting can do better.
    let tree = vec![leaf("threshold_a")];
    let mut model = CostModel::new(vec![
        independent_constructs(1, 1000),
        independent_constructs(1, 1_000_000),
    ]);
    let tuned = tune(&mut model, &tree, SearchOptions::default());
    assert!(tuned.settings.is_empty(), "{:?}", tuned.settings);
    assert!(tuned.keeps_tuned);
}

#[test]
fn a_difference_within_the_epsilon_keeps_the_default() {
    // Parallel is 1% faster at both works. At 10^5 the default (32768) runs it already; at 1000 the default runs
    // the sequential version, 1% slower: within the 2% epsilon, so the default stays. Without the epsilon, 1000 wins.
    let site = |work: i64| {
        guard(
            "threshold_a",
            work,
            vec![Site::Cost(work as f64 * 0.99)],
            vec![Site::Cost(work as f64)],
        )
    };
    let tree = vec![leaf("threshold_a")];
    let mut model = CostModel::new(vec![vec![site(1000)], vec![site(100_000)]]);
    let tuned = tune(&mut model, &tree, SearchOptions::default());
    assert!(tuned.settings.is_empty(), "{:?}", tuned.settings);
    let mut exact_model = CostModel::new(vec![vec![site(1000)], vec![site(100_000)]]);
    let exact = tune(&mut exact_model, &tree, exact_options());
    assert_eq!(exact.settings, Settings::from([("threshold_a".to_string(), 1000)]));
}

/// A loop whose iterations compare one threshold with many different sizes (size-variant), 2^0 .. 2^(steps-1).
fn size_variant(steps: u32, overhead: f64) -> Vec<Site> {
    (0..steps)
        .map(|step| {
            let work = 1i64 << step;
            guard(
                "threshold_a",
                work,
                vec![Site::Cost(work as f64 / CORES + overhead)],
                vec![Site::Cost(work as f64)],
            )
        })
        .collect()
}

#[test]
fn a_size_variant_threshold_is_bisected_to_the_minimum_in_few_runs() {
    let tree = vec![leaf("threshold_a")];
    let mut model = CostModel::new(vec![size_variant(24, 3000.0), size_variant(20, 3000.0)]);
    let tuned = tune(&mut model, &tree, exact_options());
    assert_eq!(model.total_cost(&tuned.settings), brute_force_minimum(&model, &tree));
    // 25 and 21 candidates: a bisection needs about 2 log2 of that per dataset, far fewer than trying them all.
    assert!(tuned.search_runs <= 2 * (1 + 2 * 5 + 1), "{} runs", tuned.search_runs);
    // Parallel pays from 3429 on: the smallest compared value above it is 4096.
    assert_eq!(tuned.settings, Settings::from([("threshold_a".to_string(), 4096)]));
}

#[test]
fn a_failing_version_counts_as_infinitely_slow() {
    // The parallel version is faster everywhere but fails from work 10^6 on (out of resources, say).
    let tree = vec![leaf("threshold_a")];
    let mut model = CostModel::new(vec![
        independent_constructs(1, 100),
        independent_constructs(1, 2_000_000),
    ]);
    model.failing = Some(("threshold_a", 1_000_000));
    let tuned = tune(&mut model, &tree, exact_options());
    let value = tuned.settings.get("threshold_a").copied().unwrap_or(DEFAULT);
    assert!(value > 2_000_000, "the failing version must not be chosen: {value}");
    assert!(tuned.keeps_tuned);
}

#[test]
fn datasets_that_disagree_are_settled_by_the_least_total_time() {
    // Not monotone: parallel wins at work 1000 and 10^6 but loses at 50000. The datasets' intervals are disjoint.
    let site = |work: i64, parallel: f64| {
        guard(
            "threshold_a",
            work,
            vec![Site::Cost(parallel)],
            vec![Site::Cost(work as f64)],
        )
    };
    let tree = vec![leaf("threshold_a")];
    let mut model = CostModel::new(vec![vec![site(1000, 500.0)], vec![site(50_000, 90_000.0)]]);
    let tuned = tune(&mut model, &tree, exact_options());
    assert_eq!(tuned.conflicts, ["threshold_a"]);
    assert_eq!(model.total_cost(&tuned.settings), brute_force_minimum(&model, &tree));
}

#[test]
fn a_fatal_run_stops_the_search() {
    struct Broken;
    impl Runner for Broken {
        fn run(&mut self, _: usize, settings: &Settings) -> Result<Measurement, RunError> {
            match settings.values().all(|&value| value == NEVER_REACHED) {
                true => Ok(Measurement {
                    time: 1.0,
                    compared: ComparedValues::from([("threshold_a".to_string(), BTreeSet::from([5]))]),
                }),
                false => Err(RunError::Fatal("the output changed".to_string())),
            }
        }
    }
    let mut ignore = |_: &aplc::tune::search::Progress| {};
    let mut runner = Broken;
    let mut tuner = Tuner::new(&mut runner, 1, SearchOptions::default(), &mut ignore);
    assert_eq!(
        tuner.search(&[leaf("threshold_a")]).err(),
        Some("the output changed".to_string())
    );
}

#[test]
fn tuned_settings_slower_than_the_defaults_in_the_final_check_are_not_kept() {
    // A machine that slows down once the search is over: after the search's two runs (bottom, then the threshold at
    // the compared value, which wins), every run of non-default settings costs three times as much, so the final
    // check finds the tuned settings slower than the defaults.
    struct Drifting {
        model: CostModel,
    }
    impl Runner for Drifting {
        fn run(&mut self, dataset: usize, settings: &Settings) -> Result<Measurement, RunError> {
            let mut measurement = self.model.run(dataset, settings)?;
            if self.model.runs > 2 && !settings.is_empty() {
                measurement.time *= 3.0;
            }
            Ok(measurement)
        }
    }
    let mut runner = Drifting {
        model: CostModel::new(vec![independent_constructs(1, 30_000)]),
    };
    let mut ignore = |_: &aplc::tune::search::Progress| {};
    let mut tuner = Tuner::new(&mut runner, 1, exact_options(), &mut ignore);
    let search = tuner.search(&[leaf("threshold_a")]).unwrap();
    assert!(!search.settings.is_empty());
    let verification = tuner.verify(&search.settings).unwrap();
    assert!(!verification.keeps_tuned);
    assert!(verification.tuned_times[0] > verification.default_times[0]);
}

#[test]
fn the_search_is_deterministic() {
    let tree = matrix_product_tree();
    let datasets = || vec![matrix_product(20_000, 64, 64), matrix_product(300, 300, 300)];
    let mut first = CostModel::new(datasets());
    let mut second = CostModel::new(datasets());
    let (a, b) = (
        tune(&mut first, &tree, exact_options()),
        tune(&mut second, &tree, exact_options()),
    );
    assert_eq!((a.settings, a.search_runs), (b.settings, b.search_runs));
}

#[test]
fn progress_numbers_the_runs_and_names_the_settings() {
    let tree = vec![leaf("threshold_a")];
    let mut model = CostModel::new(vec![independent_constructs(1, 1_000_000)]);
    let mut lines = Vec::new();
    let mut record = |progress: &aplc::tune::search::Progress| lines.push(aplc::tune::command::progress_line(progress));
    {
        let mut tuner = Tuner::new(&mut model, 1, exact_options(), &mut record);
        let search = tuner.search(&tree).unwrap();
        tuner.verify(&search.settings).unwrap();
    }
    assert_eq!(lines[0], "tune: run 1 (dataset 1/1) bottom: 1000000000 ms");
    assert!(
        lines[1].starts_with("tune: run 2 (dataset 1/1) threshold_a=1000000: "),
        "{}",
        lines[1]
    );
    assert!(lines.last().unwrap().contains(" default"));
}

/// A random program that obeys the monotonicity assumption: sibling thresholds, each compared with a few works per
/// dataset (several works make it size-variant), whose parallel version costs `work / cores + overhead` (the
/// overhead differs by threshold) and whose sequential version costs `work`.
fn monotone_program(overheads: &[f64], works: &[Vec<i64>]) -> Vec<Site> {
    let mut sites = Vec::new();
    for (index, overhead) in overheads.iter().enumerate() {
        for &work in &works[index] {
            sites.push(guard(
                NAMES[index],
                work,
                vec![Site::Cost(work as f64 / CORES + overhead)],
                vec![Site::Cost(work as f64)],
            ));
        }
    }
    sites
}

mod monotone_models {
    use super::*;
    use proptest::prelude::*;

    /// Thresholds' overheads, and per dataset per threshold the works compared with it.
    fn models() -> impl Strategy<Value = (Vec<f64>, Vec<Vec<Vec<i64>>>)> {
        (1usize..=2, 1usize..=3).prop_flat_map(|(thresholds, datasets)| {
            let overheads = proptest::collection::vec(100.0f64..50_000.0, thresholds);
            let works = proptest::collection::vec(
                proptest::collection::vec(proptest::collection::vec(1i64..2_000_000, 1..=9), thresholds),
                datasets,
            );
            (overheads, works)
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

        #[test]
        fn the_tuner_reaches_the_brute_force_minimum_of_monotone_programs((overheads, works) in models()) {
            let tree: Vec<ThresholdNode> = NAMES[..overheads.len()].iter().map(|name| leaf(name)).collect();
            let datasets = works.iter().map(|works| monotone_program(&overheads, works)).collect();
            let mut model = CostModel::new(datasets);
            let tuned = tune(&mut model, &tree, exact_options());
            let minimum = brute_force_minimum(&model, &tree);
            prop_assert!((model.total_cost(&tuned.settings) - minimum).abs() <= minimum * 1e-12);
            prop_assert!(tuned.conflicts.is_empty());
        }
    }
}

#[test]
fn a_final_check_drops_the_thresholds_that_made_a_dataset_slower_and_keeps_the_rest() {
    // Two independent constructs whose thresholds both win in the search; once the search is over, settings that
    // change threshold_b cost three times as much (a machine whose behaviour drifted for that construct), settings
    // that change only threshold_a keep their gain.
    struct DriftingForOne {
        model: CostModel,
    }
    impl Runner for DriftingForOne {
        fn run(&mut self, dataset: usize, settings: &Settings) -> Result<Measurement, RunError> {
            let search_over = self.model.runs >= 3;
            let mut measurement = self.model.run(dataset, settings)?;
            if search_over && settings.contains_key("threshold_b") {
                measurement.time *= 3.0;
            }
            Ok(measurement)
        }
    }
    let mut runner = DriftingForOne {
        model: CostModel::new(vec![independent_constructs(2, 30_000)]),
    };
    let mut ignore = |_: &aplc::tune::search::Progress| {};
    let mut tuner = Tuner::new(&mut runner, 1, exact_options(), &mut ignore);
    // Defaults that never reach, so that the search's choice (run in parallel) differs from both defaults.
    let never_by_default = |name: &str| {
        let mut node = leaf(name);
        node.parameter.default = NEVER_REACHED;
        node
    };
    let tree = [never_by_default("threshold_a"), never_by_default("threshold_b")];
    let search = tuner.search(&tree).unwrap();
    assert_eq!(
        search.settings.keys().cloned().collect::<Vec<_>>(),
        ["threshold_a", "threshold_b"]
    );
    let verification = tuner.verify(&search.settings).unwrap();
    assert!(!verification.keeps_tuned);
    assert_eq!(verification.dropped, ["threshold_b"]);
    assert_eq!(verification.kept.keys().cloned().collect::<Vec<_>>(), ["threshold_a"]);
    assert!(verification.kept_times[0] < verification.default_times[0]);
}

//! What `aplc tune` writes: the tuning file (`name=value` lines after `#` comments with the figures they rest on),
//! the summary table on standard output, and the same figures as JSON (`--report FILE`, for bench/tune). The JSON is
//! written by hand: the crate has no serialisation library, and the document is small and flat.

use super::datasets::Dataset;
use super::search::{SearchOutcome, Verification};
use super::Settings;
use crate::loops::parameters::Parameter;

/// Everything one tuning measured and decided.
#[derive(Clone, Debug)]
pub struct TuningReport {
    /// The program as named on the command line.
    pub program: String,
    /// `jit` or `opencl`.
    pub backend: &'static str,
    /// Timed runs per measurement (their median is the measurement).
    pub timed_runs: usize,
    pub epsilon: f64,
    /// The program's thresholds, deepest first.
    pub thresholds: Vec<Parameter>,
    pub datasets: Vec<Dataset>,
    pub search: SearchOutcome,
    pub verification: Verification,
    /// Child processes started in all (reference, warm-up and timed runs).
    pub executions: usize,
}

impl TuningReport {
    /// The settings written to the tuning file: the search's, unless the final check found them slower.
    pub fn kept_settings(&self) -> Settings {
        self.verification.kept.clone()
    }

    /// Measurements in all: the search's and the final check's.
    pub fn measurements(&self) -> usize {
        self.search.runs + self.verification.runs
    }

    /// The final check's time of the settings that are kept, on a dataset.
    pub fn kept_time(&self, dataset: usize) -> f64 {
        self.verification.kept_times[dataset]
    }

    /// The datasets on which the search's settings were slower than the defaults beyond the epsilon.
    fn slower_datasets(&self) -> Vec<usize> {
        let verification = &self.verification;
        (0..self.datasets.len())
            .filter(|&dataset| {
                verification.tuned_times[dataset] > verification.default_times[dataset] * (1.0 + self.epsilon)
            })
            .collect()
    }
}

/// Milliseconds with a precision that suits the magnitude (as bench/run prints them); `failed` for an infinite time.
pub fn format_milliseconds(seconds: f64) -> String {
    if !seconds.is_finite() {
        return "failed".to_string();
    }
    let milliseconds = seconds * 1000.0;
    match milliseconds {
        ms if ms >= 100.0 => format!("{ms:.0} ms"),
        ms if ms >= 1.0 => format!("{ms:.1} ms"),
        ms => format!("{ms:.2} ms"),
    }
}

/// `name=value` lines.
fn settings_lines(settings: &Settings) -> String {
    settings
        .iter()
        .map(|(name, value)| format!("{name}={value}\n"))
        .collect()
}

/// The tuning file: comments saying how it was made and what it measured, then the settings that differ from the
/// defaults (none when the defaults were kept).
pub fn tuning_file_text(report: &TuningReport) -> String {
    let mut text = format!(
        "# aplc tune {} --backend {}: the median of {} timed run(s) per measurement, epsilon {}\n",
        report.program, report.backend, report.timed_runs, report.epsilon
    );
    for (index, dataset) in report.datasets.iter().enumerate() {
        text.push_str(&format!(
            "# dataset {}: {}: default {}, tuned {}\n",
            index + 1,
            dataset.describe(),
            format_milliseconds(report.verification.default_times[index]),
            format_milliseconds(report.kept_time(index)),
        ));
    }
    text.push_str(&format!(
        "# {} measurements (search {}, final check {}), {} program runs\n",
        report.measurements(),
        report.search.runs,
        report.verification.runs,
        report.executions
    ));
    text.push_str(&verdict_comment(report));
    text.push_str(&settings_lines(&report.kept_settings()));
    text
}

/// The comment lines that say which settings the file holds and why.
fn verdict_comment(report: &TuningReport) -> String {
    let proposed = &report.search.settings;
    if report.thresholds.is_empty() {
        return "# the program has no threshold parameters: nothing to tune\n".to_string();
    }
    if proposed.is_empty() {
        return "# defaults kept: the search found no better settings\n".to_string();
    }
    if !report.verification.keeps_tuned {
        let slower: Vec<String> = report
            .slower_datasets()
            .iter()
            .map(|index| (index + 1).to_string())
            .collect();
        let proposed_text: Vec<String> = proposed.iter().map(|(name, value)| format!("{name}={value}")).collect();
        if report.verification.kept.is_empty() {
            return format!(
                "# defaults kept: the search's settings ({}) were slower than the defaults on dataset(s) {} in the \
                 final check, and so was every part of them\n",
                proposed_text.join(" "),
                slower.join(", ")
            );
        }
        return format!(
            "# the search's settings ({}) were slower than the defaults on dataset(s) {} in the final check; without \
             {} they are nowhere slower:\n",
            proposed_text.join(" "),
            slower.join(", "),
            report.verification.dropped.join(", ")
        );
    }
    let mut text = String::new();
    if !report.search.conflicts.is_empty() {
        text.push_str(&format!(
            "# the datasets disagreed on {}: settled by the least total time\n",
            report.search.conflicts.join(", ")
        ));
    }
    text.push_str("# tuned settings (the other thresholds keep their defaults):\n");
    text
}

/// The table `aplc tune` prints at the end: per dataset the default and tuned times and their ratio, then the
/// measurements made and the settings written.
pub fn summary_table(report: &TuningReport, tuning_file: &str) -> String {
    let mut rows = vec![[
        "dataset".to_string(),
        "default".to_string(),
        "tuned".to_string(),
        "tuned/default".to_string(),
    ]];
    for (index, dataset) in report.datasets.iter().enumerate() {
        let (default, tuned) = (report.verification.default_times[index], report.kept_time(index));
        rows.push([
            format!("{}. {}", index + 1, dataset.describe()),
            format_milliseconds(default),
            format_milliseconds(tuned),
            format!("{:.3}", tuned / default),
        ]);
    }
    let mut text = aligned_rows(&rows);
    text.push_str(&format!(
        "{} measurements of {} timed run(s) each (search {}, final check {}); {} program runs in all\n",
        report.measurements(),
        report.timed_runs,
        report.search.runs,
        report.verification.runs,
        report.executions
    ));
    let kept = report.kept_settings();
    let settings = match kept.is_empty() {
        true => "the defaults".to_string(),
        false => kept
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect::<Vec<_>>()
            .join(" "),
    };
    text.push_str(&format!("settings: {settings}\n"));
    if !report.verification.keeps_tuned && !report.search.settings.is_empty() {
        text.push_str(verdict_comment(report).trim_start_matches("# "));
    }
    text.push_str(&format!("wrote {tuning_file}\n"));
    text
}

/// Rows of cells as columns padded to their widest cell (widths in characters).
fn aligned_rows(rows: &[[String; 4]]) -> String {
    let widths: Vec<usize> = (0..4)
        .map(|column| rows.iter().map(|row| row[column].chars().count()).max().unwrap_or(0))
        .collect();
    let mut text = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, width)| format!("{cell}{}", " ".repeat(width - cell.chars().count())))
            .collect();
        text.push_str(cells.join("  ").trim_end());
        text.push('\n');
    }
    text
}

/// A JSON string literal.
fn json_string(text: &str) -> String {
    let mut literal = String::from("\"");
    for character in text.chars() {
        match character {
            '"' => literal.push_str("\\\""),
            '\\' => literal.push_str("\\\\"),
            '\n' => literal.push_str("\\n"),
            '\t' => literal.push_str("\\t"),
            '\r' => literal.push_str("\\r"),
            character if (character as u32) < 0x20 => literal.push_str(&format!("\\u{:04x}", character as u32)),
            character => literal.push(character),
        }
    }
    literal.push('"');
    literal
}

/// A JSON number of seconds, `null` for a failed (infinite) time.
fn json_seconds(seconds: f64) -> String {
    match seconds.is_finite() {
        true => format!("{seconds:.6}"),
        false => "null".to_string(),
    }
}

/// A JSON object of settings: `{"threshold_i4": 1200}`.
fn json_settings(settings: &Settings) -> String {
    let members: Vec<String> = settings
        .iter()
        .map(|(name, value)| format!("{}: {value}", json_string(name)))
        .collect();
    format!("{{{}}}", members.join(", "))
}

/// The report as JSON (`--report FILE`): the program, backend, measurement counts, the thresholds with their defaults
/// and chosen values, and per dataset its arguments and times in seconds.
pub fn json_text(report: &TuningReport) -> String {
    let thresholds: Vec<String> = report
        .thresholds
        .iter()
        .map(|parameter| {
            format!(
                "{{\"name\": {}, \"default\": {}}}",
                json_string(&parameter.name),
                parameter.default
            )
        })
        .collect();
    let datasets: Vec<String> = (0..report.datasets.len())
        .map(|index| json_dataset(report, index))
        .collect();
    let conflicts: Vec<String> = report.search.conflicts.iter().map(|name| json_string(name)).collect();
    format!(
        "{{\n  \"program\": {},\n  \"backend\": {},\n  \"timed_runs\": {},\n  \"epsilon\": {},\n  \"measurements\": {},\n  \
         \"search_measurements\": {},\n  \"check_measurements\": {},\n  \"executions\": {},\n  \"kept_tuned\": {},\n  \
         \"proposed\": {},\n  \"settings\": {},\n  \"dropped\": [{}],\n  \"conflicts\": [{}],\n  \"thresholds\": [{}],\n  \"datasets\": [\n    {}\n  ]\n}}\n",
        json_string(&report.program),
        json_string(report.backend),
        report.timed_runs,
        report.epsilon,
        report.measurements(),
        report.search.runs,
        report.verification.runs,
        report.executions,
        report.verification.keeps_tuned,
        json_settings(&report.search.settings),
        json_settings(&report.kept_settings()),
        report
            .verification
            .dropped
            .iter()
            .map(|name| json_string(name))
            .collect::<Vec<_>>()
            .join(", "),
        conflicts.join(", "),
        thresholds.join(", "),
        datasets.join(",\n    ")
    )
}

/// One dataset's JSON object.
fn json_dataset(report: &TuningReport, index: usize) -> String {
    let dataset = &report.datasets[index];
    let arguments: Vec<String> = dataset.arguments.iter().map(|argument| json_string(argument)).collect();
    let file = match &dataset.file {
        Some(file) => json_string(&file.display().to_string()),
        None => "null".to_string(),
    };
    let searched = &report.search.datasets[index];
    let per_dataset: Settings = searched
        .settings
        .iter()
        .filter(|(name, _)| searched.intervals.contains_key(*name))
        .map(|(name, value)| (name.clone(), *value))
        .collect();
    format!(
        "{{\"file\": {file}, \"arguments\": [{}], \"default_seconds\": {}, \"proposed_seconds\": {}, \
         \"tuned_seconds\": {}, \"bottom_seconds\": {}, \"search_best_seconds\": {}, \"dataset_settings\": {}}}",
        arguments.join(", "),
        json_seconds(report.verification.default_times[index]),
        json_seconds(report.verification.tuned_times[index]),
        json_seconds(report.kept_time(index)),
        json_seconds(searched.bottom_time),
        json_seconds(searched.best_time),
        json_settings(&per_dataset)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_escape_quotes_backslashes_and_control_characters() {
        assert_eq!(json_string("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
    }

    #[test]
    fn milliseconds_keep_three_significant_digits_or_so() {
        assert_eq!(format_milliseconds(0.0412), "41.2 ms");
        assert_eq!(format_milliseconds(0.250), "250 ms");
        assert_eq!(format_milliseconds(f64::INFINITY), "failed");
    }
}

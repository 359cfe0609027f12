//! Dataset files of `aplc tune --dataset FILE`: the program's arguments for one training run (what `⎕ArgInt` and
//! `⎕ArgDouble` read), separated by white space on one or more lines; `#` starts a comment to the end of its line.
//! A file with no arguments at all is a dataset too (the program's built-in sizes).

use std::path::{Path, PathBuf};

/// One dataset: the file it came from (for the report) and the program arguments it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dataset {
    /// The file's name as given on the command line; `None` for the default dataset of a tuning without files.
    pub file: Option<PathBuf>,
    pub arguments: Vec<String>,
}

impl Dataset {
    /// The dataset of a tuning without `--dataset`: no arguments.
    pub fn without_arguments() -> Dataset {
        Dataset {
            file: None,
            arguments: Vec::new(),
        }
    }

    /// How reports name the dataset: its file and arguments (`square.txt (1000 1000)`).
    pub fn describe(&self) -> String {
        let arguments = match self.arguments.is_empty() {
            true => "no arguments".to_string(),
            false => self.arguments.join(" "),
        };
        match &self.file {
            Some(file) => format!("{} ({arguments})", file.display()),
            None => format!("({arguments})"),
        }
    }
}

/// The arguments in a dataset file's text: its words, with `#` comments removed.
pub fn parse_dataset_text(text: &str) -> Vec<String> {
    text.lines()
        .map(|line| line.split('#').next().unwrap_or(""))
        .flat_map(str::split_whitespace)
        .map(str::to_string)
        .collect()
}

/// Reads a dataset file; the error is a usage error worded for the command line.
pub fn read_dataset(path: &Path) -> Result<Dataset, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read the dataset {}: {error}", path.display()))?;
    Ok(Dataset {
        file: Some(path.to_path_buf()),
        arguments: parse_dataset_text(&text),
    })
}

/// The datasets of `--dataset FILE...` in order, or the one dataset without arguments when there are no files.
pub fn read_datasets(paths: &[PathBuf]) -> Result<Vec<Dataset>, String> {
    if paths.is_empty() {
        return Ok(vec![Dataset::without_arguments()]);
    }
    paths.iter().map(|path| read_dataset(path)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_on_several_lines_are_the_arguments_and_comments_are_dropped() {
        let text = "# tall and skinny\n20000 64 # rows, columns\n\n  64\t# inner\n";
        assert_eq!(parse_dataset_text(text), ["20000", "64", "64"]);
    }

    #[test]
    fn a_file_of_comments_has_no_arguments() {
        assert!(parse_dataset_text("# nothing\n\n").is_empty());
    }
}

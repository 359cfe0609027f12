//! System commands: the lines that start with `)`. They act on the session rather than being APL.

/// One parsed system command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SystemCommand {
    /// `)off`: leave the session.
    Off,
    /// `)vars`: the names that denote arrays.
    Vars,
    /// `)fns`: the names that denote functions and operators.
    Fns,
    /// `)erase name ...`: forget names.
    Erase(Vec<String>),
    /// `)clear`: forget everything.
    Clear,
    /// `)load file.apl`: run a script's statements in the session.
    Load(String),
    /// `)tail`: the typed TAIL of the last line that ran.
    Tail,
    /// `)time`: toggle the per-line phase timings.
    Time,
    /// `)help`: list the commands.
    Help,
}

/// What `)help` prints.
pub const HELP_TEXT: &str = "\
)vars          names of arrays
)fns           names of functions and operators
)erase names   forget the names
)clear         forget everything
)load file     run a script's statements in this session
)tail          the typed TAIL of the last line
)time          show (or stop showing) parse/elaborate/infer/run times after each line
)off           leave (Ctrl-D does too)";

/// Whether a line is a system command (its first non-blank character is `)`).
pub fn is_system_command(line: &str) -> bool {
    line.trim_start().starts_with(')')
}

/// Parses a system command line; the error is the message to show.
pub fn parse_system_command(line: &str) -> Result<SystemCommand, String> {
    let text = line.trim().trim_start_matches(')');
    let mut words = text.split_whitespace();
    let name = words.next().unwrap_or("").to_lowercase();
    let arguments: Vec<String> = words.map(str::to_string).collect();
    let no_arguments = |command: SystemCommand| {
        if arguments.is_empty() {
            Ok(command)
        } else {
            Err(format!("){name} takes no arguments"))
        }
    };
    match name.as_str() {
        "off" => no_arguments(SystemCommand::Off),
        "vars" => no_arguments(SystemCommand::Vars),
        "fns" => no_arguments(SystemCommand::Fns),
        "clear" => no_arguments(SystemCommand::Clear),
        "tail" => no_arguments(SystemCommand::Tail),
        "time" => no_arguments(SystemCommand::Time),
        "help" => no_arguments(SystemCommand::Help),
        "erase" if arguments.is_empty() => Err(")erase needs the names to erase".to_string()),
        "erase" => Ok(SystemCommand::Erase(arguments)),
        "load" => match arguments.as_slice() {
            [file] => Ok(SystemCommand::Load(file.clone())),
            _ => Err(")load needs one file name".to_string()),
        },
        "" => Err("a system command name is missing after )".to_string()),
        _ => Err(format!("unknown system command ){name} (try )help)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse_case_insensitively_with_their_arguments() {
        assert_eq!(parse_system_command(")OFF"), Ok(SystemCommand::Off));
        assert_eq!(
            parse_system_command("  )erase a b"),
            Ok(SystemCommand::Erase(vec!["a".into(), "b".into()]))
        );
        assert_eq!(
            parse_system_command(")load x.apl"),
            Ok(SystemCommand::Load("x.apl".into()))
        );
    }

    #[test]
    fn bad_commands_are_explained() {
        assert!(parse_system_command(")frobnicate")
            .unwrap_err()
            .contains("unknown system command )frobnicate"));
        assert!(parse_system_command(")erase").is_err());
        assert!(parse_system_command(")vars x").is_err());
        assert!(parse_system_command(")load").is_err());
    }
}

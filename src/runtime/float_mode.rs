//! The float mode of a program (`--float`, or the `⍝ aplc: float NAME` pragma): whether double arithmetic stops on
//! results that are not finite real numbers, as Dyalog APL does, or lets IEEE 754's ∞ and NaN flow. Every backend
//! reads it: the interpreters through their host, native code through the code generator's options.

/// What double arithmetic does when a result is not a finite real number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FloatMode {
    /// As Dyalog APL: a DOMAIN ERROR whenever a result from finite arguments is ∞ or NaN (`1e308×10`, `*1000`),
    /// a division by zero (other than `0÷0`, which is 1) or the logarithm of a number that is not positive.
    #[default]
    Dyalog,
    /// As IEEE 754 arithmetic (C, earlier APL compilers): those results are ∞, ¯∞ or NaN, which flow on and print as
    /// `∞`, `¯∞` and `NaN`. `0÷0` is still 1; conversions to integers (`⌊`, indices, counts) of such values, the
    /// factorial of a negative integer and complex division by zero are still DOMAIN ERRORs.
    Ieee,
}

impl FloatMode {
    /// The name used by `--float` and the `⍝ aplc: float NAME` pragma.
    pub fn name(self) -> &'static str {
        match self {
            FloatMode::Dyalog => "dyalog",
            FloatMode::Ieee => "ieee",
        }
    }

    pub fn from_name(name: &str) -> Option<FloatMode> {
        [FloatMode::Dyalog, FloatMode::Ieee]
            .into_iter()
            .find(|mode| mode.name() == name)
    }

    /// Whether the checks of Dyalog's mode are made.
    pub fn checks_finite_results(self) -> bool {
        self == FloatMode::Dyalog
    }
}

//! Combining fragments of syntax into many inputs, reproducibly.
//!
//! Each [`Dim`] is one choice an input makes (a field's type, a fn's return type, the
//! attribute's arguments...). [`cases`] builds, for every option of every dimension, a few
//! inputs that use that option: half with every other choice clean (so the option is the only
//! odd thing in the input), half with every other choice drawn from all options. Choices come
//! from a fixed seed, so a failure reproduces.

/// An input: the attribute's arguments and the item, as source text.
pub type Case = (String, String);

/// Builds an input from the fragments a picker draws.
pub type Build = fn(&mut Picker) -> Case;

/// One choice an input makes, and the fragments it can be: the first `clean` options are well
/// formed and raise no error together, the others are odd or wrong in some way.
pub struct Dim {
    pub name: &'static str,
    pub clean: usize,
    /// A clean input has at least one of these (a doc comment, without which a lint fires).
    pub needed: bool,
    pub options: &'static [&'static str],
}

/// Draws fragments from a fixed-seed generator, with one dimension forced to one option.
pub struct Picker {
    state: u64,
    /// Draw only clean options (for the dimensions not forced).
    clean: bool,
    forced: Option<(&'static str, usize)>,
}

impl Picker {
    pub fn new(seed: u64, clean: bool, forced: Option<(&'static str, usize)>) -> Self {
        Picker {
            state: seed,
            clean,
            forced,
        }
    }

    pub fn clean(&self) -> bool {
        self.clean
    }

    /// SplitMix64: enough randomness for choosing fragments, and no dependency.
    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn is_forced(&self, dim: &Dim) -> bool {
        matches!(self.forced, Some((name, _)) if name == dim.name)
    }

    pub fn pick(&mut self, dim: &Dim) -> &'static str {
        match self.forced {
            Some((name, i)) if name == dim.name => dim.options[i],
            _ if self.clean => dim.options[self.below(dim.clean)],
            _ => dim.options[self.below(dim.options.len())],
        }
    }

    /// Up to `max` fragments of `dim`, each on a line of its own: at least one when `dim` is
    /// forced (so that its option is used), or needed in a clean input; none when a clean
    /// input can have none.
    pub fn some(&mut self, dim: &Dim, max: usize) -> String {
        let (least, most) = match self.clean {
            _ if self.is_forced(dim) => (1, max),
            true if dim.clean == 0 => (0, 0),
            true => (usize::from(dim.needed), max),
            false => (0, max),
        };
        let n = least + self.below(most - least + 1);
        (0..n)
            .map(|_| self.pick(dim))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Inputs for one macro, `(attribute arguments, item)`: `per_option` for each option of each
/// of `dims`, built by `build`.
pub fn cases(dims: &[&Dim], per_option: usize, build: Build) -> Vec<Case> {
    let mut out = Vec::new();
    for (d, dim) in dims.iter().enumerate() {
        for option in 0..dim.options.len() {
            for k in 0..per_option {
                let seed = ((d as u64) << 40) ^ ((option as u64) << 20) ^ k as u64;
                let mut picker = Picker::new(seed, k % 2 == 0, Some((dim.name, option)));
                out.push(build(&mut picker));
            }
        }
    }
    out
}

/// `n` inputs made of clean options only.
pub fn clean_cases(n: u64, build: Build) -> Vec<Case> {
    (0..n)
        .map(|seed| build(&mut Picker::new(seed, true, None)))
        .collect()
}

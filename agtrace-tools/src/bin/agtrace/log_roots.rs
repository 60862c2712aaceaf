//! One `--<agent>-dir` flag per provider (with its environment variable), made from the
//! provider table rather than written out per agent.

use std::path::PathBuf;

use agtrace_tools::config::Config;
use agtrace_tools::model::Provider;
use clap::{Arg, ArgMatches, Args, Command, FromArgMatches};

/// The log roots given on the command line or in the environment.
#[derive(Clone, Default)]
pub struct LogRoots {
    given: Vec<(Provider, PathBuf)>,
}

impl LogRoots {
    /// Adds `later`'s roots, which replace these for the same agent.
    pub fn extend(&mut self, later: &LogRoots) {
        for (p, dir) in &later.given {
            self.given.retain(|(q, _)| q != p);
            self.given.push((*p, dir.clone()));
        }
    }

    /// Sets the roots that were given in `config`.
    pub fn apply(&self, config: &mut Config) {
        for (p, dir) in &self.given {
            config.set_root(*p, dir.clone());
        }
    }
}

impl FromArgMatches for LogRoots {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut roots = LogRoots::default();
        roots.update_from_arg_matches(m)?;
        Ok(roots)
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        for p in Provider::ALL {
            if let Some(dir) = m.get_one::<PathBuf>(p.spec().flag) {
                self.given.retain(|(q, _)| *q != p);
                self.given.push((p, dir.clone()));
            }
        }
        Ok(())
    }
}

impl Args for LogRoots {
    fn augment_args(mut cmd: Command) -> Command {
        for p in Provider::ALL {
            let spec = p.spec();
            cmd = cmd.arg(
                Arg::new(spec.flag)
                    .long(spec.flag)
                    .env(spec.env)
                    .value_name("DIR")
                    .value_parser(clap::value_parser!(PathBuf))
                    .help(format!(
                        "{} log folder [default: ~/{}]",
                        spec.title, spec.home_root
                    )),
            );
        }
        cmd
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

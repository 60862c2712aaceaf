//! `agtrace`: serve the trace tools over MCP, or call them from the command line.

fn main() -> std::process::ExitCode {
    agtrace_tools::cli::main()
}

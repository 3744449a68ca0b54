// A command table with a command that has neither a file in examples/hlomem/commands/ nor a line
// in the documents: `docs: a command the documents lack fails` runs check_docs commands on it.
static Command const commands[] = {
    {"report", hlomem_cli::run_report},
    {"frobnicate", hlomem_cli::run_frobnicate},
};

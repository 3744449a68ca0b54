// A planted test file named after no header and listed nowhere: `check_docs tests` must report it.

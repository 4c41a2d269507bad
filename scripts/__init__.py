"""Set-up, model download, corpus and benchmark scripts (run as files from the
repository root); a package only so that tests can import scripts/measure."""

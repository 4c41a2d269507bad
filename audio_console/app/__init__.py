"""The application: the command line (cli), the recognize subcommand and the registry of games; it wires every layer below it."""

"""The game-independent console: the session loop, menu, saves and event log."""

"""Galaxis (Ravensburger, 1980): find four hidden spaceships by querying space buoys."""

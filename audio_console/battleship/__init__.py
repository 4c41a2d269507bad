"""Battleship: Outer Space: sink a fleet hidden in three sectors by calling whole rows and columns."""

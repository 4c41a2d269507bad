"""Base helpers every layer may use: settings, the words of numbers and sentences, the board views' words, and the one safe way to read and write files. They import nothing of the package."""

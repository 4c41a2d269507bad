"""Where messages go: the text line, and the sound sink (signals and speech)."""

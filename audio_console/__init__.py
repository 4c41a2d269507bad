"""audio_console: a voice- and sound-driven console for blind and visually
impaired players of Galaxis, Battleship: Outer Space and Arkade."""

__version__ = "0.1.0"

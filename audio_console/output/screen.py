"""The one clear of the screen: when the console is passed in hot-seat play, the
secret part (the points a team typed, a player's fleet) leaves the screen and its
scrollback, so that the next team's screen reader or eyes cannot find it. Nothing
else ever redraws. A player alone at a private screen may keep it (keep_screen)."""
from __future__ import annotations

from audio_console.output.message import Message
from audio_console.output.windows_console import clear_with_cls, sequences_work

# Cursor home, erase the screen, then the scrollback: in this order, as `clear` does,
# because some terminals (tmux, xterm with its scroll-on-clear) push an erased screen
# into the scrollback. xterm, tmux, the Linux console, Windows Terminal and macOS
# Terminal know all three; a Windows console once they are turned on (windows_console.py).
CLEAR = "\x1b[H\x1b[2J\x1b[3J"


def clear_for(whom: str, public: list[Message] | None = None) -> Message:
    """The message that clears the screen for `whom` ("team 2", "player 1"); the text
    of the `public` messages (what the other side hears anyway) is shown again after it."""
    lines = tuple(message.text for message in public or [] if message.text)
    return Message(f"Screen cleared for {whom}.", clear_for=whom, public=lines)


def is_terminal(out) -> bool:
    isatty = getattr(out, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:           # a closed stream
        return False


def clear_screen(message: Message, out, keep: bool) -> Message | None:
    """Clear `out` for a clear_for message; the line to show instead (None: no screen
    to clear, as when the output goes to a file or a pipe, so nothing is said)."""
    if not is_terminal(out):
        return None
    if keep:
        return Message(f"Screen kept for {message.clear_for}.")
    if not clear_terminal(out):
        return Message(f"Screen not cleared for {message.clear_for}: this console cannot clear it. "
                       f"Clear it yourself before {message.clear_for} looks.",
                       signal="error")
    out.write("".join(line + "\n" for line in message.public))
    out.flush()
    return message


def clear_terminal(out) -> bool:
    """Clear the terminal `out` and its scrollback; False when it cannot be done."""
    out.flush()
    if not sequences_work(out):       # a Windows console that takes no terminal sequences
        return clear_with_cls()
    out.write(CLEAR)
    return True

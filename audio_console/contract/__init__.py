"""The game contract: what every game gives the session (a GameAdapter answering with
Replies, a GameInfo declaring it) and the parts games share (hot-seat passing)."""

"""audio-console: the command line (README.md, "Playing"; docs/architecture.md).

    audio-console [--game NAME] [game options] [--seed N] [--text | --no-speech |
                  --no-signals] [--screen-reader | --no-screen-reader]
                  [--input keys|voice|both] [--log FILE] [--save FILE]
                  [--resume] [--record FILE.wav] [--voice-trace FILE]
    audio-console recognize --game GAME FILE.wav ...

Commands are read from standard input, one a line, exactly as typed at the
keyboard; the end of input saves and exits cleanly.
"""
from __future__ import annotations

import argparse
import queue
import random
import signal
import sys
import threading
from pathlib import Path

from audio_console.contract.base import InputError
from audio_console.console.session import Session
from audio_console.console.typed import read_keys
from audio_console.console.save_options import options_checker
from audio_console.console.slots import in_progress
from audio_console.console.saved_start import open_saved
from audio_console.console.storage import EventLog
from audio_console.base.files import not_a_file, reason, resolved
from audio_console.contract.game_options import Option, ParagraphHelpFormatter, games_help
from audio_console.app.games import GAMES, HELP_ORDER
from audio_console.output.presenter import OutputClosed, Presenter, keep_standard_streams, print_line
from audio_console.output.sink import NullSink
from audio_console.base.settings import CHOICES, Settings, data_dir


QUIT_WAIT = 0.8               # seconds the spoken "Goodbye." may take: quitting is quick
QUIT_WAIT_UNSAVED = 4.0       # "The game could not be saved" is heard whole
OUTPUT_CLOSED = 3             # exit code: the text output took no more lines (docs/files.md)
# The listener cannot tell when a screen reader speaks (prismatoid does not say), so it
# does not stop listening then, as it does for the console's own voice.
READER_AND_MICROPHONE = ("The microphone also hears your screen reader: say headphones on if you wear them, "
                         "or push to talk.")


class OneLineParser(argparse.ArgumentParser):
    """A mistake on the command line is one line, the error first (not the usage first)."""

    def error(self, message: str):
        self.exit(2, f"audio-console: {message}. audio-console --help lists the options.\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="audio-console",
        description="A voice- and sound-driven console for Galaxis, Battleship: Outer Space and Arkade.",
        formatter_class=ParagraphHelpFormatter,
        epilog=games_help([(info.title, info.options) for info in HELP_ORDER]) + "\n\nAlso: "
               "audio-console recognize --game GAME [--phase PHASE] [--model FOLDER] FILE.wav ... "
               "decodes recorded commands with the console's recognizer and prints what it heard "
               "and the command it took, one JSON line a file (audio-console recognize --help for more).")
    parser.add_argument("--game", choices=sorted(GAMES), help="start this game (without it: the menu)")
    add_game_options(parser)
    parser.add_argument("--seed", type=int, help="seed for a repeatable game")
    add_console_options(parser)
    return parser


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """Every game's options (GameInfo.options), each flag once, under its heading."""
    groups: dict[str, argparse._ArgumentGroup] = {}
    added: dict[str, Option] = {}
    for info in HELP_ORDER:
        for option in info.options:
            if option.flag in added:
                if added[option.flag] != option:    # two games, one flag: one meaning
                    raise ValueError(f"{info.name} declares {option.flag} unlike another game")
                continue
            added[option.flag] = option
            if option.group not in groups:
                groups[option.group] = parser.add_argument_group(option.group)
            option.add_to(groups[option.group])


def add_console_options(parser: argparse.ArgumentParser) -> None:
    """The options of the console itself: output, screen reader, input, files."""
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--text", action="store_true", help="text lines only: no speech, no signals")
    output.add_argument("--no-speech", action="store_true",
                        help="text lines and signals (for a screen reader, which reads the lines)")
    output.add_argument("--no-signals", action="store_true", help="text lines and speech")
    parser.add_argument("--keep-screen", action=argparse.BooleanOptionalAction, default=None,
                        help="two players at one console: keep the screen when it is passed (default: "
                             "cleared, with its scrollback); remembered for next time")
    parser.add_argument("--screen-reader", action=argparse.BooleanOptionalAction, default=None,
                        help="speak through your running screen reader (NVDA, JAWS, VoiceOver, Orca, "
                             "Speech Dispatcher) instead of the console's voice; remembered for next time")
    parser.add_argument("--input", choices=CHOICES["input"], default=None,
                        help="how you give commands; remembered for next time (first time: keys)")
    parser.add_argument("--model", help="speech model folder: Whisper (CTranslate2) or vosk (default: models/, else the built-in Whisper tiny.en)")
    parser.add_argument("--log", type=Path, help="append every game event as a JSON line")
    parser.add_argument("--voice-trace", type=Path, metavar="FILE",
                        help="append what voice input heard, a JSON line an event (why a command was missed)")
    parser.add_argument("--save", type=Path, help="save file (default: in the data folder)")
    parser.add_argument("--resume", action="store_true", help="continue the saved game")
    parser.add_argument("--record", type=Path, metavar="FILE.wav", help="record everything played")


def options_not_for(args, parser) -> str | None:
    """Why a game option given does not apply (--game battleship --option 2), or None."""
    by_game = {name: {option.dest for option in info.options} for name, info in GAMES.items()}
    flags = {a.dest: a.option_strings[0] for a in parser._actions if a.option_strings}
    for dest in sorted(set().union(*by_game.values())):
        value = getattr(args, dest, None)
        if value is None or value is False:
            continue
        if args.game is None:
            if args.resume:
                continue         # a resumed game keeps its own options
            return f"{flags[dest]} is a game option: name the game with --game"
        if dest not in by_game[args.game]:
            return f"{flags[dest]} does not apply to {GAMES[args.game].title}"
    return None


def say(text: str) -> None:
    """A line from outside the session (the sound engine, the listener): never raises,
    a closed output is noticed at the session's next line."""
    try:
        print_line(text)
    except OutputClosed:
        pass


def tell_stderr(text: str) -> None:
    try:
        print(text, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


class Notices:
    """Lines from the sound engine (no device, a recording that fails) go to the session's
    input queue: those from before the game starts are told first, the others between
    inputs, printed and spoken like any notice; once the session has ended, printed."""

    def __init__(self, inputs: queue.Queue) -> None:
        self.inputs: queue.Queue | None = inputs

    def __call__(self, text: str) -> None:
        inputs = self.inputs
        if inputs is None:
            say(text)
        else:
            inputs.put(("notice", text))

    def pending(self) -> list[str]:
        """The lines waiting in the queue (taken out of it)."""
        lines = []
        while self.inputs is not None:
            try:
                source, item = self.inputs.get_nowait()
            except queue.Empty:
                break
            if source == "notice":
                lines.append(item)
        return lines

    def stop(self) -> None:
        """The session has ended: lines still waiting for it, and those to come, are printed."""
        lines = self.pending()
        self.inputs = None
        for line in lines:
            say(line)


def open_sound(args, settings: Settings, notify=say):
    if args.text:
        if args.record is not None:
            notify(f"The recording cannot be written: --text plays no sound ({args.record}); "
                "use --no-speech or --no-signals to record.")
            return NullSink(f"Nothing was recorded: --text plays no sound ({args.record}).")
        return NullSink()
    try:
        from audio_console.audio import open_sound as open_engine
    except ImportError:
        return NullSink()
    if sys.platform.startswith("linux"):
        # PortAudio's ALSA "Expression '...' failed" lines, when the audio server dies, would
        # be read aloud by a screen reader: kept off stderr (only in the console's own process).
        from audio_console.audio.stderr_filter import filter_stderr
        filter_stderr()
    from audio_console.voice import server_echo_cancel as server_echo
    voice = (args.input or settings.input) in ("voice", "both")
    server = server_echo.load(notify) if server_echo.wanted(voice, settings.headphones) else None
    sink = open_engine(settings, speech=not args.no_speech, signals=not args.no_signals,
                       record_path=args.record, notify=notify)
    sink.echo_cancelled_by_server = server is not None   # the listener then only listens
    return sink


def make_presenter(args, settings: Settings, sink) -> tuple[Presenter, str | None]:
    """The presenter, speaking through the screen reader when that is wanted (and
    remembered); with the line to say when none is found."""
    presenter = Presenter(sink=sink, speech=not (args.text or args.no_speech),
                          signals=not (args.text or args.no_signals), keep_screen=settings.keep_screen)
    if args.screen_reader is not None:
        settings.screen_reader = args.screen_reader
    if not (settings.screen_reader and presenter.speech):
        return presenter, None
    line = presenter.use_screen_reader(True)
    return presenter, None if presenter.reader is not None else line


def _stop_on_signal(signum, frame) -> None:
    raise KeyboardInterrupt   # handled like Ctrl-C: "Stopped. The game is saved."


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    keep_standard_streams()
    if argv[:1] == ["recognize"]:
        from audio_console.app.recognize import main as recognize
        return recognize(argv[1:])
    args = parse_args(argv)
    settings = Settings.load()
    if args.keep_screen is not None:     # a player alone at a private screen sets it once
        settings.keep_screen = args.keep_screen
    # A symlinked save is read, replaced, parked and kept aside beside its target: the link stays.
    save_path = resolved(args.save or data_dir() / "game.json")
    inputs: queue.Queue = queue.Queue()
    notices = Notices(inputs)
    sink = open_sound(args, settings, notices)
    presenter, reader_line = make_presenter(args, settings, sink)
    log = EventLog(args.log)
    session = Session(presenter, settings, GAMES, save_path, log, barge_in=settings.barge_in)
    # A closed terminal or a kill ends the session cleanly; the game is already saved.
    for name in ("SIGTERM", "SIGHUP"):      # Windows has no SIGHUP
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _stop_on_signal)
    code = 0
    try:
        for note in notices.pending() + list(settings.notes):
            session.tell(note)
        if reader_line:
            session.tell(reader_line)
        if not start(args, session):
            return 2
        # A hands-free player sets --input voice once; later plain starts listen too.
        if args.input is not None:
            settings.input = args.input
        if settings.input in ("voice", "both"):
            session.listener = open_listener(args, settings, sink, inputs)
        if session.listener is not None and presenter.reader is not None and not settings.headphones:
            session.tell(READER_AND_MICROPHONE, signal=None)
        threading.Thread(target=read_keys, args=(inputs,), daemon=True).start()
        session.run(inputs)
    except KeyboardInterrupt:
        say("Stopped. The game is saved." if session.saved and not session.save_problem else "Stopped.")
    except OutputClosed as closed:
        # The lines are the product: with no output the session ends, every move saved.
        saved = " the game is saved;" if session.saved and session.keeps_save and not session.save_problem else ""
        why = reason(closed.error) if closed.error else "it is closed"
        tell_stderr(f"audio-console: the output takes no more lines ({why});{saved} ending.")
        code = OUTPUT_CLOSED
    finally:
        notices.stop()
        close(session, sink, log)
    return code


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The command line, checked: a game option of another game, a --save that is a folder."""
    parser = build_parser()
    args = parser.parse_args(argv)
    unused = options_not_for(args, parser)
    if unused:
        parser.error(unused)
    if args.save is not None and args.save.name in ("", ".", ".."):     # "/", ".", "": no file name
        parser.error(f"argument --save: {str(args.save)!r} is a folder; give a file name, like game.json")
    kind = args.save is not None and not_a_file(args.save)     # --save /dev/null: refused, never replaced
    if kind:
        parser.error(f"argument --save: {str(args.save)!r} is {kind}, not a file; give a file name, like game.json")
    return args


def close(session: Session, sink, log: EventLog) -> None:
    """The end of a session: listener, settings, the last speech, screen reader, files."""
    if session.listener is not None:
        session.listener.stop()
    session.settings.save()
    # The goodbye is heard; the rest of a long queue is not waited for (a recording
    # without a device renders it at once).
    finish = getattr(sink, "finish", None)
    wait = QUIT_WAIT_UNSAVED if session.save_problem else QUIT_WAIT
    finish(wait) if finish else sink.wait_until_idle(wait)
    session.presenter.close_reader()
    sink.close()
    log.close()
    if line := getattr(sink, "recording_end", lambda: None)():
        say(line)       # said when it failed, and again as the last line: no file left unsaid


def start(args, session: Session) -> bool:
    """Open the menu, a new game, or the saved one. False: nothing could start."""
    if open_saved(session, args.resume):
        return True
    session.check_options = options_checker(GAMES)
    session.seed = args.seed
    if args.game is None:
        session.open_menu()
        return True
    info = GAMES[args.game]
    seed = args.seed if args.seed is not None else random.randrange(2 ** 31)
    mine = [saved for saved in in_progress(session.save_path, GAMES, session.check_options)
            if saved.game == info.name]
    practice = getattr(args, "practice", None)     # a drill leaves the saved game alone
    if mine and not args.resume and not practice:   # never replaced without asking
        session.open_menu(mine, start=(info, info.options_from_args(args), seed))
        return True
    try:
        session.open_game(info, info.options_from_args(args), seed)
    except InputError as error:
        why = str(error).rstrip(".")     # one sentence, one full stop
        print(f"audio-console: cannot start {info.title}: {why}. audio-console --help lists the options.",
              file=sys.stderr, flush=True)
        return False
    return True


def open_listener(args, settings: Settings, sink, inputs: "queue.Queue"):
    try:
        from audio_console.voice import open_listener as open_voice
    except ImportError:
        say("Voice input is not available in this version; use the keyboard.")
        return None
    trace = None
    if args.voice_trace is not None:
        from audio_console.voice.trace import VoiceTrace
        trace = VoiceTrace(args.voice_trace)
        if trace.problem:
            say(trace.problem)
    listener = open_voice(settings, sink, say, model_path=args.model, trace=trace)
    if listener is not None:
        # what the player must hear from the listener (speech cut, microphone stopped) is
        # spoken by the session like any reply
        listener.start(lambda heard: inputs.put(("voice", heard)),
                       on_notice=lambda line: inputs.put(("notice", line)))
    return listener


if __name__ == "__main__":
    raise SystemExit(main())

# Shared set-up for scripts/play and scripts/test; source it, don't run it.
# Installs the Debian packages the dependencies need (as root), makes the
# virtual environment, installs the package, and can start PulseAudio.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${AUDIO_CONSOLE_VENV:-$ROOT/.venv}"

# Debian packages: espeak-ng (pyttsx3's voice), libportaudio2 (sounddevice),
# alsa-utils, pulseaudio and its utilities (the audio server and test sinks),
# sox and flite (test speech and signal analysis).
DEBIAN_PACKAGES=(espeak-ng libespeak-ng1 libportaudio2 alsa-utils pulseaudio pulseaudio-utils sox flite)

say() { printf 'audio-console set-up: %s\n' "$*" >&2; }

ensure_debian_packages() {
    local missing=() pkg
    for pkg in "${DEBIAN_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        say "installing Debian packages: ${missing[*]}"
        # apt's chatter ("debconf: delaying package configuration ...") goes to a log,
        # shown only when the step fails: a screen reader would read it all
        local log
        log="$(mktemp)"
        if ! { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"; } >"$log" 2>&1; then
            say "installing the Debian packages failed:"
            tail -n 25 "$log" >&2
            rm -f "$log"
            return 1
        fi
        rm -f "$log"
    else
        say "these Debian packages are missing: ${missing[*]}"
        say "install them with: sudo apt-get install ${missing[*]}"
        return 1
    fi
}

# Run a command with its chatter kept in a log (a screen reader would read it all);
# show the end of the log only when the command fails.
quietly() {
    local log="$VENV/setup.log"
    if ! "$@" >>"$log" 2>&1; then
        say "this step failed: $*"
        tail -n 25 "$log" >&2
        return 1
    fi
}

ensure_venv() {
    local extras="$1" stamp
    if [ ! -x "$VENV/bin/python" ]; then
        say "creating the virtual environment in $VENV"
        python3 -m venv "$VENV"
        quietly "$VENV/bin/python" -m pip install -q --upgrade pip
    fi
    # Reinstall only when the project's requirements changed.
    stamp="$VENV/.installed-$(cat "$ROOT/pyproject.toml" | sha256sum | cut -c1-16)-$extras"
    if [ ! -f "$stamp" ]; then
        say "installing audio_console${extras:+[$extras]} (first run takes a few minutes)"
        quietly "$VENV/bin/python" -m pip install -q -e "$ROOT${extras:+[$extras]}"
        rm -f "$VENV"/.installed-*
        touch "$stamp"
    fi
}

# A PulseAudio server with two null sinks for the tests: the console plays into
# "console_out"; "console_mic" is played into by tests and its monitor is the
# console's microphone.
start_pulseaudio() {
    if ! pactl info >/dev/null 2>&1; then
        pulseaudio -D --exit-idle-time=-1 --disallow-exit >/dev/null 2>&1 || true
        local i
        for i in $(seq 1 50); do pactl info >/dev/null 2>&1 && break; sleep 0.1; done
    fi
    pactl info >/dev/null 2>&1 || { say "PulseAudio did not start; audio tests will be skipped"; return 0; }
    local sink
    for sink in console_out console_mic; do
        pactl list short sinks | awk '{print $2}' | grep -qx "$sink" ||
            pactl load-module module-null-sink sink_name="$sink" >/dev/null
    done
    pactl set-default-sink console_out
    pactl set-default-source console_mic.monitor
    export AUDIO_CONSOLE_TEST_SINK=console_out
}

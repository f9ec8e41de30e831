#!/bin/sh
# A headless demo of choosy: a throwaway HOME with three desktop apps whose "executables"
# only record what they are given, then the catalog, a choice and the launched argv.
#   demo.sh CHOOSY [DIR]
# With DIR the sandbox is made there and kept: after `. DIR/env` a shell has the demo's
# environment, and each command the demo printed does the same again there.
set -eu
choosy=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
if [ $# -ge 2 ]; then
    # A demo over an earlier one's preferences would not show what it says.
    if [ -n "$(ls -A "$2" 2>/dev/null)" ]; then echo "demo.sh: $2 is not empty" >&2; exit 2; fi
    mkdir -p "$2"
    sandbox=$(cd "$2" && pwd)
else
    sandbox=$(mktemp -d)
    trap 'rm -rf "$sandbox"' EXIT
fi
# One stream: a redirected or piped demo keeps every line, in order.
exec 2>&1

# quote WORD: WORD as one shell word that pastes back as itself.
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

{
    echo "export HOME=$(quote "$sandbox/home") XDG_DATA_HOME=$(quote "$sandbox/home/.local/share")" \
        "XDG_CONFIG_HOME=$(quote "$sandbox/home/.config") XDG_CACHE_HOME=$(quote "$sandbox/home/.cache")" \
        "XDG_DATA_DIRS=$(quote "$sandbox/usr/share") PATH=$(quote "$sandbox/bin:/usr/bin:/bin")" \
        "CHOOSY_OFFLINE=1 NO_COLOR=1"
    # Headless wherever it runs: no GUI picker, the same output on a desktop as on a server.
    echo "unset DISPLAY WAYLAND_DISPLAY CHOOSY_PICKER CHOOSY_ALWAYS_DISPLAY_PICKER"
} > "$sandbox/env"
. "$sandbox/env"
mkdir -p "$XDG_DATA_HOME/applications" "$sandbox/bin" "$sandbox/log"
ln -sf "$choosy" "$sandbox/bin/choosy"
: > "$sandbox/log/launched"

app() { # app ID NAME PROGRAM MIMETYPES
    cat > "$sandbox/bin/$3" <<SCRIPT
#!/bin/sh
echo "  $3 started with:\$(for a in "\$@"; do printf " [%s]" "\$a"; done)" >> "$sandbox/log/launched"
SCRIPT
    chmod +x "$sandbox/bin/$3"
    printf '[Desktop Entry]\nType=Application\nName=%s\nExec=%s %%u\nMimeType=%s\n' "$2" "$3" "$4" \
        > "$XDG_DATA_HOME/applications/$1"
}
app firefox.desktop Firefox firefox "x-scheme-handler/http;x-scheme-handler/https;"
app chromium.desktop Chromium chromium "x-scheme-handler/http;x-scheme-handler/https;"
app org.mozilla.Thunderbird.desktop Thunderbird thunderbird "x-scheme-handler/mailto;"

# show COMMAND: prints the command line, then runs exactly that line.
show() { printf '\n$ %s\n' "$1"; eval "$1"; }
# Launched apps are detached: wait (up to 5 s) for the recorder's line, then show it.
launched() {
    tries=0
    while [ ! -s "$sandbox/log/launched" ] && [ "$tries" -lt 50 ]; do sleep 0.1; tries=$((tries + 1)); done
    cat "$sandbox/log/launched"
    : > "$sandbox/log/launched"
}

echo "A sandbox with Firefox, Chromium and Thunderbird installed (recorder apps), and no display:"
echo "choosy warns that each app it starts may not be able to show itself."
show "choosy list"
show "choosy list browser"
show "choosy describe email"
echo
echo "# No default browser yet and two installed: a picker asks. This picker is a command"
echo "# that shows the choice lines it reads on stdin and answers 'Chromium (always)'."
picker='while IFS= read -r line; do echo "  picker shows: $line"; done >&2; echo "Chromium (always)"'
show "choosy open Browser browse url=https://example.org --picker $(quote "$picker")"
launched
echo
echo "# Chromium is now the default: no picker."
show "choosy default browser"
show "choosy open browser browse url=https://example.org/again"
launched
echo
echo "# Twitter has no Linux client in the catalog: its web app opens in the default browser,"
echo "# and each app gets only the parameters it understands."
show "choosy open Twitter show_profile profile_screenname=choosyapp unused=ignored --json"
launched
echo
echo "# Email has Thunderbird and the Gmail web app: make Thunderbird the default."
show "choosy default email thunderbird"
show "choosy open email compose to=ada@example.org subject='Hello there' --dry-run"
show "choosy handle 'mailto:ada@example.org?subject=From%20a%20link'"
launched

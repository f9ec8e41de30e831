#!/bin/sh
# A headless demo of choosy: a throwaway HOME with three desktop apps whose "executables"
# only record what they are given, then the catalog, a choice and the launched argv.
set -eu
choosy=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
sandbox=$(mktemp -d)
trap 'rm -rf "$sandbox"' EXIT
export HOME="$sandbox/home" XDG_DATA_HOME="$sandbox/home/.local/share" XDG_CONFIG_HOME="$sandbox/home/.config" \
       XDG_CACHE_HOME="$sandbox/home/.cache" XDG_DATA_DIRS="$sandbox/usr/share" PATH="$sandbox/bin:/usr/bin:/bin" \
       CHOOSY_OFFLINE=1 NO_COLOR=1
mkdir -p "$XDG_DATA_HOME/applications" "$sandbox/bin" "$sandbox/log"

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

show() { printf '\n$ %s\n' "$*"; "$@"; }
launched() { sleep 0.3; cat "$sandbox/log/launched"; : > "$sandbox/log/launched"; }

echo "A sandbox with Firefox, Chromium and Thunderbird installed (recorder apps)."
show "$choosy" list
show "$choosy" list browser
show "$choosy" describe email
echo
echo "# No default browser yet and two installed: a picker asks. This picker is a command"
echo "# that shows the choice lines it reads on stdin and answers 'Chromium (always)'."
show "$choosy" open Browser browse url=https://example.org --picker "tee /dev/stderr | grep -m1 -x 'Chromium (always)'" 2>&1
launched
echo
echo "# Chromium is now the default: no picker."
show "$choosy" default browser
show "$choosy" open browser browse url=https://example.org/again
launched
echo
echo "# Twitter has no Linux client in the catalog: its web app opens in the default browser,"
echo "# and each app gets only the parameters it understands."
show "$choosy" open Twitter show_profile profile_screenname=choosyapp unused=ignored --json
launched
echo
echo "# Email has Thunderbird and the Gmail web app: make Thunderbird the default."
show "$choosy" default email thunderbird
show "$choosy" open email compose to=ada@example.org subject="Hello there" --dry-run
show "$choosy" handle 'mailto:ada@example.org?subject=From%20a%20link'
launched

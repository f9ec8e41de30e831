#!/bin/sh
# The directories of `make install`, so that `make uninstall` removes the ones install
# created, and only those: a directory that was there before (/usr/local/share/man) stays.
#   install-dirs.sh create DESTDIR RECORD DIR...   makes each DIR under DESTDIR and adds each
#                                                  one it made (and each parent) to RECORD
#   install-dirs.sh remove DESTDIR RECORD          removes the recorded directories that are
#                                                  empty, deepest first
# Paths in RECORD leave DESTDIR out; an empty RECORD records nothing (a package's directories
# belong to its package manager).
set -eu
action=$1 root=$2 record=$3
shift 3
case $action in
create)
    made=""
    for dir in "$@"; do
        missing="$dir"
        while [ "$missing" != / ] && [ ! -d "$root$missing" ]; do
            made="$made$missing
"
            missing=$(dirname "$missing")
        done
        install -d "$root$dir"
    done
    if [ -n "$record" ]; then
        # A second install made nothing: what the first one made is kept.
        { [ -f "$root$record" ] && cat "$root$record"; printf '%s' "$made"; } | sort -u > "$root$record.new"
        mv "$root$record.new" "$root$record"
        chmod 644 "$root$record"
    fi
    ;;
remove)
    [ -n "$record" ] && [ -f "$root$record" ] || exit 0
    recorded=$(cat "$root$record")
    rm -f "$root$record"
    # Longest paths first: a directory's children go before it.
    printf '%s\n' "$recorded" | awk '{ print length, $0 }' | sort -rn | cut -d' ' -f2- | while IFS= read -r dir; do
        if [ -n "$dir" ] && [ -d "$root$dir" ]; then rmdir --ignore-fail-on-non-empty "$root$dir"; fi
    done
    ;;
*)
    echo "usage: $0 create|remove DESTDIR RECORD [DIR...]" >&2
    exit 2
    ;;
esac

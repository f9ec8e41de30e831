#!/bin/sh
# Prints where `make install` puts the fish completion for a DATADIR: DATADIR's own
# fish/vendor_completions.d when fish searches it, else the vendor directory fish itself was
# built with. fish reads XDG_DATA_DIRS to find more vendor directories, but a console or SSH
# login often has it unset, and then /usr/local/share is not searched. Without fish on PATH,
# DATADIR's own directory.
set -eu
own="$1/fish/vendor_completions.d"
# Asked with XDG_DATA_DIRS unset, the case to cover, and an empty config directory, so that no
# config.fish of the user's runs and fish writes its variables nowhere that stays. The answer
# lists the user's own data directory first and the directory fish was built with last.
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT
searched=$(env -u XDG_DATA_DIRS XDG_CONFIG_HOME="$config" fish -c 'printf "%s\n" $__fish_vendor_completionsdirs' 2>/dev/null </dev/null) || searched=""
if [ -z "$searched" ] || printf '%s\n' "$searched" | grep -qxF "$own"; then
    echo "$own"
else
    printf '%s\n' "$searched" | tail -n 1
fi

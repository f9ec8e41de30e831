#!/bin/sh
# Usage: scripts/fish-completions-note.sh DIR — after `make install`, says on stderr how to make
# fish find the completion installed in DIR when fish would not look there by itself.
#
# fish looks in the vendor_completions.d of its user data directory (~/.local/share/fish, so a
# PREFIX=~/.local install is found), of each directory of XDG_DATA_DIRS, and of the one it was
# built with. A console or SSH login often has XDG_DATA_DIRS unset, and then /usr/local/share is
# not searched. make install writes nothing outside its PREFIX unless asked by name
# (FISH_COMPLETIONSDIR=…), so it says what to do instead. Without fish, nothing to say.
set -eu
dir=$1
command -v fish >/dev/null 2>&1 || exit 0
# Asked with XDG_DATA_DIRS unset, the case to cover, and an empty config directory, so that no
# config.fish of the user's runs and fish writes its variables nowhere that stays.
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT
searched=$(env -u XDG_DATA_DIRS XDG_CONFIG_HOME="$config" fish -c 'printf "%s\n" $__fish_vendor_completionsdirs' 2>/dev/null </dev/null) || exit 0
printf '%s\n' "$searched" | grep -qxF "$dir" && exit 0
cat >&2 <<NOTE
make install: fish does not look in $dir by itself when XDG_DATA_DIRS is unset
  (as a console or SSH login often leaves it). Either add to ~/.config/fish/config.fish:
    set -p fish_complete_path $dir
  or install the completion where fish itself looks:
    make install FISH_COMPLETIONSDIR=$(printf '%s\n' "$searched" | tail -n 1)
NOTE

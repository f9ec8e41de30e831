#!/bin/sh
# Installs the Debian packages given as arguments that are not installed yet (as root, or
# through sudo), so every make target works on a fresh machine.
set -eu
missing=""
for package in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $package"
    fi
done
[ -z "$missing" ] && exit 0
echo "Installing:$missing"
if [ "$(id -u)" -eq 0 ]; then
    run=""
elif command -v sudo >/dev/null 2>&1; then
    run="sudo"
else
    echo "error: please install:$missing (apt-get install -y$missing)" >&2
    exit 1
fi
$run apt-get -o DPkg::Lock::Timeout=600 update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $run apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $missing >/dev/null

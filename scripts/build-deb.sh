#!/bin/sh
# Builds the Debian package of choosy with dpkg-deb, from a release binary:
#   build-deb.sh BINARY DEBDIR     writes DEBDIR/choosy_<version>_<arch>.deb and prints its path
# The files are those of `make install PREFIX=/usr`, in Debian's places, plus the control
# data and docs from packaging/deb/. The same tree and toolchain give the same .deb, byte for
# byte: every timestamp is the changelog entry's date, files are compressed without names or
# times, dpkg-deb orders the archive itself, and the binary loses the one thing that differs
# from one build to the next (below).
set -eu
binary=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
debdir=$2
source=$(cd "$(dirname "$0")/.." && pwd)
packaging=$source/packaging/deb

upstream=$("$binary" --version | sed -n 's/^choosy //p')
version=$(dpkg-parsechangelog -l "$packaging/changelog" -S Version)
case $version in
"$upstream"-*) ;;
*)
    echo "build-deb.sh: packaging/deb/changelog is at $version but the binary is choosy $upstream: add an entry for $upstream-1" >&2
    exit 1
    ;;
esac
SOURCE_DATE_EPOCH=$(dpkg-parsechangelog -l "$packaging/changelog" -S Timestamp)
export SOURCE_DATE_EPOCH
arch=$(dpkg --print-architecture)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# debian/choosy is where dpkg-shlibdeps expects a package's files.
tree=$work/debian/choosy
umask 022
mkdir -p "$tree/DEBIAN"
# dpkg owns a package's directories, so install records none.
make -s -C "$source" install DESTDIR="$tree" PREFIX=/usr BINARY="$binary" DIRS_RECORD= \
    ZSH_COMPLETIONSDIR=/usr/share/zsh/vendor-completions FISH_COMPLETIONSDIR=/usr/share/fish/vendor_completions.d
# As dh_strip does, .comment goes (compiler version strings). .swift_modhash holds a nonce
# swiftc draws anew for every object it compiles, read by nothing at run time: it is zeroed
# (removing it, an allocated section, would drop the RELRO segment), and the build ID the
# linker computed over it is computed again from what is left. So two builds of the same tree
# with the same toolchain give the same bytes.
bin=$tree/usr/bin/choosy
objcopy --dump-section .swift_modhash="$work/modhash" "$bin" "$work/unused"
head -c "$(wc -c < "$work/modhash")" /dev/zero > "$work/modhash"
objcopy --remove-section=.comment --update-section .swift_modhash="$work/modhash" "$bin"
debugedit --build-id --build-id-seed="choosy_$version" "$bin" >/dev/null
gzip -9n "$tree/usr/share/man/man1/choosy.1"
doc=$tree/usr/share/doc/choosy
install -d "$doc"
install -m 644 "$packaging/copyright" "$doc/copyright"
gzip -9n < "$packaging/changelog" > "$doc/changelog.Debian.gz"
chmod 644 "$doc/changelog.Debian.gz"
install -d "$tree/usr/share/lintian/overrides"
install -m 644 "$packaging/lintian-overrides" "$tree/usr/share/lintian/overrides/choosy"

# The libraries the binary links (libc6: the Makefile links libstdc++ in), with the version it needs.
printf 'Source: choosy\n\nPackage: choosy\nArchitecture: any\n' > "$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O -e"$tree/usr/bin/choosy" | sed -n 's/^shlibs:Depends=//p')
# dpkg-shlibdeps reads symbols only; the packed relative relocations of the Makefile's link
# need the glibc that knows them (it names GLIBC_ABI_DT_RELR), 2.36.
if readelf -V "$bin" | grep -q GLIBC_ABI_DT_RELR; then
    glibc=$(printf '%s\n' "$depends" | sed -n 's/.*libc6 (>= \([^)]*\)).*/\1/p')
    if [ -n "$glibc" ] && dpkg --compare-versions "$glibc" lt 2.36; then
        depends=$(printf '%s\n' "$depends" | sed "s/libc6 (>= $glibc)/libc6 (>= 2.36)/")
    fi
fi
rm "$work/debian/control"
installed_size=$(du -sk "$tree/usr" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$installed_size/" \
    -e "s/@DEPENDS@/$depends/" "$packaging/control" > "$tree/DEBIAN/control"
(cd "$tree" && find usr -type f | LC_ALL=C sort | xargs md5sum) > "$tree/DEBIAN/md5sums"
chmod 644 "$tree/DEBIAN/control" "$tree/DEBIAN/md5sums"

find "$tree" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +
mkdir -p "$debdir"
deb=$debdir/choosy_${version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$tree" "$deb" >/dev/null
echo "$deb"

#!/bin/sh
# Builds the libFuzzer targets fuzz/<target>/main.swift into .build/fuzz/<target>.
#
# SwiftPM cannot build with -sanitize=fuzzer, so the targets live outside the package: the
# library is compiled once, instrumented for libFuzzer and AddressSanitizer and with
# -enable-testing (the targets check internal invariants), into a static library that each
# target links. The bundled catalog source and the CSystem C shims are made here the way the
# package build makes them. Only what changed since the last run is rebuilt.
set -eu
cd "$(dirname "$0")/.."

SWIFTC=${SWIFTC:-swiftc}
CLANG=${CLANG:-clang}
OUT=.build/fuzz
TARGETS=${FUZZ_TARGETS:-"desktop-entry exec-command-line url-template x-callback catalog web-url json link-pattern profiles-ini profile-groups site-rules clean-links mimeapps-list hook-output http-validator process-files shorteners scheme-cache display-text window-systems mime-globs mime-magic history"}
SANITIZE="-sanitize=fuzzer,address"

# stale OUTPUT INPUT...: true when OUTPUT is missing or older than any INPUT.
stale() {
    output=$1
    shift
    [ ! -e "$output" ] && return 0
    for input in "$@"; do
        [ "$input" -nt "$output" ] && return 0
    done
    return 1
}

mkdir -p "$OUT/modules/CSystem" "$OUT/obj"

if stale "$OUT/catalog-embedder" Sources/catalog-embedder/main.swift; then
    echo "fuzz: building catalog-embedder"
    "$SWIFTC" -O Sources/catalog-embedder/main.swift -o "$OUT/catalog-embedder"
fi
if stale "$OUT/BundledCatalogData.swift" "$OUT/catalog-embedder" catalog/app-data/*.json; then
    "$OUT/catalog-embedder" "$OUT/BundledCatalogData.swift" catalog/app-data/*.json
fi

# CSystem is a C target; SwiftPM writes its module map, so this does too.
printf 'module CSystem {\n    header "%s/Sources/CSystem/include/csystem.h"\n    export *\n}\n' "$PWD" \
    > "$OUT/modules/CSystem/module.modulemap.new"
if ! cmp -s "$OUT/modules/CSystem/module.modulemap.new" "$OUT/modules/CSystem/module.modulemap"; then
    mv "$OUT/modules/CSystem/module.modulemap.new" "$OUT/modules/CSystem/module.modulemap"
else
    rm "$OUT/modules/CSystem/module.modulemap.new"
fi
# libFuzzer's functions a target may call (its custom mutator calls LLVMFuzzerMutate).
mkdir -p "$OUT/modules/LibFuzzer"
printf 'module LibFuzzer {\n    header "%s/fuzz/common/include/libfuzzer.h"\n    export *\n}\n' "$PWD" \
    > "$OUT/modules/LibFuzzer/module.modulemap"
for source in Sources/CSystem/*.c; do
    object="$OUT/obj/$(basename "$source" .c).o"
    if stale "$object" "$source" Sources/CSystem/include/*.h; then
        "$CLANG" -c -O2 -I Sources/CSystem/include "$source" -o "$object"
    fi
done

LIBRARY_SOURCES=$(find Sources/ChoosyKit -name '*.swift' | sort)
# shellcheck disable=SC2086 # the source list is meant to split into words
if stale "$OUT/libChoosyKit.a" $LIBRARY_SOURCES "$OUT/BundledCatalogData.swift" fuzz/build.sh; then
    echo "fuzz: building the instrumented library (a minute or two)"
    # shellcheck disable=SC2086
    # -package-name: the targets see ChoosyKit's package-wide API, as the tests do.
    "$SWIFTC" -parse-as-library -module-name ChoosyKit -package-name choosy -swift-version 6 -O -enable-testing $SANITIZE \
        -I Sources/CCurl -I "$OUT/modules" \
        -emit-module -emit-module-path "$OUT/modules/ChoosyKit.swiftmodule" \
        -emit-library -static -o "$OUT/libChoosyKit.a" \
        $LIBRARY_SOURCES "$OUT/BundledCatalogData.swift"
fi

for target in $TARGETS; do
    if stale "$OUT/$target" "fuzz/$target/main.swift" fuzz/common/*.swift fuzz/common/include/*.h "$OUT/libChoosyKit.a"; then
        echo "fuzz: building $target"
        "$SWIFTC" -parse-as-library -package-name choosy -swift-version 6 -O $SANITIZE -use-ld=lld \
            -I Sources/CCurl -I "$OUT/modules" \
            "fuzz/$target/main.swift" fuzz/common/*.swift "$OUT/libChoosyKit.a" "$OUT"/obj/*.o \
            -o "$OUT/$target"
    fi
done

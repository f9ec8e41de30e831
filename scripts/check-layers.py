#!/usr/bin/env python3
"""Fails when a folder of Sources/ChoosyKit uses a folder above it in doc/ARCHITECTURE.md.

A folder "uses" another when one of its files names a type, function or constant that the
other declares at top level (comments and string literals are ignored). Run by `make test`.
"""
import collections
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = os.path.join(ROOT, "Sources", "ChoosyKit")
ARCHITECTURE = os.path.join(ROOT, "doc", "ARCHITECTURE.md")

DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|private|fileprivate|final|open|indirect)\s+)*"
    r"(?:struct|class|enum|protocol|typealias|actor|func|let|var)\s+([A-Za-z_][A-Za-z0-9_]*)",
    re.M,
)
IDENTIFIER = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")


def layers():
    text = open(ARCHITECTURE, encoding="utf-8").read()
    block = text.split("<!-- layers -->", 1)[1].split("<!-- /layers -->", 1)[0]
    return re.findall(r"^\d+\. `([A-Za-z]+)`", block, re.M)


def code(text):
    """The text without comments and string literals, which name things without using them."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"""(?:.|\n)*?"""', '""', text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


def main():
    order = layers()
    folders = sorted(d for d in os.listdir(SOURCES) if os.path.isdir(os.path.join(SOURCES, d)))
    problems = [f"folder {f} is not in the layers of doc/ARCHITECTURE.md" for f in folders if f not in order]
    problems += [f"layer {f} of doc/ARCHITECTURE.md is no folder of Sources/ChoosyKit" for f in order if f not in folders]
    owner, sources = {}, collections.defaultdict(list)
    for folder in folders:
        for name in sorted(os.listdir(os.path.join(SOURCES, folder))):
            if name.endswith(".swift"):
                text = code(open(os.path.join(SOURCES, folder, name), encoding="utf-8").read())
                sources[folder].append((name, text))
                for match in DECLARATION.finditer(text):
                    owner.setdefault(match.group(1), folder)
    rank = {folder: index for index, folder in enumerate(order)}
    for folder in folders:
        for name, text in sources[folder]:
            for word in sorted(set(IDENTIFIER.findall(text))):
                used = owner.get(word)
                if used and used != folder and folder in rank and used in rank and rank[used] > rank[folder]:
                    problems.append(f"Sources/ChoosyKit/{folder}/{name} uses {word} of {used}, a layer above {folder}")
    for problem in problems:
        print("check-layers: " + problem, file=sys.stderr)
    if problems:
        return 1
    print(f"layers OK: {len(folders)} folders, each using only the ones below it")
    return 0


if __name__ == "__main__":
    sys.exit(main())

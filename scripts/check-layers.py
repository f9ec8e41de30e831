#!/usr/bin/env python3
"""Fails when a folder of Sources/ChoosyKit uses a folder above it in doc/ARCHITECTURE.md,
when a real side-effect seam is built anywhere but in the composition root, or when a part
takes a closure that doc/ARCHITECTURE.md's table of closures does not list.

A folder "uses" another when one of its files names a type, function or constant that the
other declares at top level (comments and string literals are ignored). The real seams
(doc/ARCHITECTURE.md, "One composition root") are built only in the files of COMPOSITION_ROOT; everything below gets
them passed in. A part takes a closure through an `@escaping` parameter, or as a stored
closure of a type with no such parameter (its initializer is the compiler's); the table must
name the closure in its first column and the part in its second. Run by `make test`.
"""
import collections
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = os.path.join(ROOT, "Sources", "ChoosyKit")
ARCHITECTURE = os.path.join(ROOT, "doc", "ARCHITECTURE.md")

DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|final|open|indirect|nonisolated)\s+)*"
    r"(?:struct|class|enum|protocol|typealias|actor|func|let|var)\s+([A-Za-z_][A-Za-z0-9_]*)",
    re.M,
)
# The real implementations of the side-effect protocols, and the files allowed to build them.
REAL_SEAMS = ("LocalFileSystem", "PosixProcessRunner", "SystemClock", "CurlHTTPClient", "SDBusMessageBus",
              "SocketDisplayProbe", "SQLiteLibraryReader", "StandardErrorDiagnostics",
              "UnixLocalSockets", "XCBServer")
COMPOSITION_ROOT = {"Commands/Choosy.swift", "Commands/ChoosyAction.swift", "Commands/CommandContext.swift"}
CONSTRUCTION = re.compile(r"\b(" + "|".join(REAL_SEAMS) + r")\s*\(")
IDENTIFIER = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
TYPE = re.compile(
    r"^(\s*)(?:@\w+\s+)*(?:(?:public|package|internal|private|fileprivate|final|indirect)\s+)*"
    r"(?:struct|class|enum|actor|extension|protocol)\s+([A-Za-z_][\w.]*)"
)
STORED_CLOSURE = re.compile(
    r"^\s+(?:(?:package|private|fileprivate|internal|public)(?:\(set\))?\s+)*(?:let|var)\s+(\w+)\s*:\s*(?:@\w+\s+)*"
    r"\(?\((?:[^()]|\([^()]*\))*\)\s*(?:throws(?:\(\w+\))?\s*)?->[^=]*$"
)
ESCAPING = re.compile(r"(\w+)\s*:\s*@escaping")
# Closures that are no collaborator given by a builder: a JSON shape's reading, what a grammar
# option sets, the composition root's own, and PickerRequest's memo of its `site`.
CLOSURES_OF_THEIR_OWN = {"JSONShape", "CommandGrammar", "Choosy", "FoundSite"}


def layers():
    text = open(ARCHITECTURE, encoding="utf-8").read()
    block = text.split("<!-- layers -->", 1)[1].split("<!-- /layers -->", 1)[0]
    return re.findall(r"^\d+\. `([A-Za-z]+)`", block, re.M)


def closure_table():
    """(closure names, part names) of each row of the table of closures."""
    text = open(ARCHITECTURE, encoding="utf-8").read()
    rows = re.findall(r"^\| (`[^|]*) \| ([^|]*) \| [^|]* \|$", text, re.M)
    return [(set(re.findall(r"`(\w+)`", names)), set(re.findall(r"`(\w+)", parts))) for names, parts in rows]


def closures(path):
    """(line, part, closure) of each closure the file's types take from whoever builds them."""
    escaping, stored, stack = [], [], []
    for number, line in enumerate(open(path, encoding="utf-8"), start=1):
        if line.strip().startswith("//"):
            continue
        indent = len(line) - len(line.lstrip())
        stack = [(i, name) for i, name in stack if i < indent]
        declared = TYPE.match(line)
        if declared:
            stack.append((indent, declared.group(2)))
            continue
        parts = tuple(name for _, name in stack)
        if not parts:
            continue
        escaping += [(number, parts, m.group(1)) for m in ESCAPING.finditer(line)]
        match = STORED_CLOSURE.match(line)
        if match:
            stored.append((number, parts, match.group(1)))
    takes = {parts for _, parts, _ in escaping}
    return escaping + [entry for entry in stored if entry[1] not in takes]


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
    for folder in folders:
        for name, text in sources[folder]:
            if f"{folder}/{name}" not in COMPOSITION_ROOT:
                for built in sorted(set(m.group(1) for m in CONSTRUCTION.finditer(text))):
                    # A seam's own file may define it (`init(`), which is no construction.
                    if not re.search(r"\bstruct\s+" + built + r"\b|\bclass\s+" + built + r"\b", text):
                        problems.append(f"Sources/ChoosyKit/{folder}/{name} builds {built}, which only the composition root may")
    table = closure_table()
    for folder in folders:
        for name, _ in sources[folder]:
            for line, parts, closure in closures(os.path.join(SOURCES, folder, name)):
                if CLOSURES_OF_THEIR_OWN & set(parts):
                    continue
                if not any(closure in names and set(parts) & owners for names, owners in table):
                    problems.append(
                        f"Sources/ChoosyKit/{folder}/{name}:{line}: {'.'.join(parts)} takes the closure `{closure}`, "
                        "which the table of closures in doc/ARCHITECTURE.md does not list")
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
    print(f"layers OK: {len(folders)} folders, each using only the ones below it; real seams built only in the composition root; every closure a part takes in the table")
    return 0


if __name__ == "__main__":
    sys.exit(main())

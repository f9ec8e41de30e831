#!/usr/bin/env python3
"""Fails when a comment cites a section of a document of the repository that the document
does not have, so that a comment keeps pointing at text that exists when the text moves.

A citation is a document and a quoted section, in any of these forms:
`(README, "Usage")`, `(doc/links-and-rules.md, "Site rules")`, `README "Shell completion"`,
`the README's "Shell aliases"`, and several sections at once (`doc/spec-choices.md, "URLs"
and "Launching"`). `README` is README.md at the top; any other path is from the top. A section
exists when the document has it as a Markdown heading, as the bold words a paragraph or a list
item opens with (`**Launching.** …`, `**Desktop entries** (…)`) or, for a man page, as
`.SH`/`.SS`; backticks and case aside, the
cited name is the heading or the heading's part before its colon. Comments are read in the
Swift, Python and shell files and the fuzzing dictionaries of SCANNED. Run by `make check` and
`make test`.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCANNED = ("Sources", "Tests", "fuzz", "scripts", "bench", "Examples", "Plugins")
# Data from outside, and inputs, not comments of choosy's own.
SKIPPED = ("Tests/Fixtures", "fuzz/corpus")
EXTENSIONS = (".swift", ".py", ".sh", ".dict")

QUOTED = r'"([^"\n]+)"'
CITATION = re.compile(
    r"(?<![\w/.-])(README(?:\.md)?|(?:[\w.-]+/)*[A-Za-z][\w.-]*\.(?:md|1))(?:'s)?,?\s+" + QUOTED
    + r"((?:\s*(?:,|and|or)\s*" + QUOTED + r")*)"
)
FURTHER = re.compile(QUOTED)


def comments(path, text):
    """The file's comments as runs of consecutive comment lines: (first line number, text of
    the run joined by spaces, the line number of each character's line)."""
    swift = path.endswith(".swift")
    python = path.endswith(".py")
    runs, current, in_docstring = [], None, False
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        body = None
        if python and (in_docstring or stripped.startswith('"""')):
            body = stripped.replace('"""', "")
            if stripped.count('"""') % 2 == 1:
                in_docstring = not in_docstring
        elif swift and stripped.startswith("//"):
            body = stripped.lstrip("/")
        elif not swift and stripped.startswith("#"):
            body = stripped.lstrip("#!")
        if body is None:
            current = None
            continue
        body = body.strip()
        if current is None:
            current = [number, "", []]
            runs.append(current)
        elif current[1]:
            current[1] += " "
            current[2].append(number)
        current[1] += body
        current[2].extend([number] * len(body))
    return runs


def normalized(name):
    return " ".join(name.replace("`", "").split()).rstrip(".:").casefold()


def sections(path):
    """The names a document's sections can be cited by, or None when it does not exist."""
    if not os.path.isfile(path):
        return None
    names, fenced = set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        run_in = re.match(r"(?:[-*]\s+)?\*\*([^*]+)\*\*", line)
        man = re.match(r'\.S[HS]\s+"?(.*?)"?\s*$', line)
        for match in (heading, run_in, man):
            if match:
                name = normalized(match.group(1))
                names.add(name)
                names.add(name.split(": ", 1)[0])
    return names


def main():
    problems, cited, known = [], 0, {}
    for top in SCANNED:
        for directory, subdirectories, files in os.walk(os.path.join(ROOT, top)):
            relative_directory = os.path.relpath(directory, ROOT)
            if relative_directory.startswith(SKIPPED):
                subdirectories[:] = []
                continue
            subdirectories.sort()
            for name in sorted(files):
                if not name.endswith(EXTENSIONS):
                    continue
                relative = os.path.join(relative_directory, name)
                text = open(os.path.join(ROOT, relative), encoding="utf-8", errors="replace").read()
                for _, run, lines in comments(relative, text):
                    for match in CITATION.finditer(run):
                        document = "README.md" if match.group(1).startswith("README") else match.group(1)
                        if document not in known:
                            known[document] = sections(os.path.join(ROOT, document))
                        line = lines[match.start()] if lines else 0
                        names = [match.group(2)] + FURTHER.findall(match.group(3) or "")
                        for section in names:
                            cited += 1
                            if known[document] is None:
                                problems.append(f"{relative}:{line}: cites {document}, which does not exist")
                            elif normalized(section) not in known[document]:
                                problems.append(f'{relative}:{line}: cites "{section}" of {document}, which has no such section')
    for problem in problems:
        print("check-citations: " + problem, file=sys.stderr)
    if problems:
        return 1
    print(f"citations OK: {cited} cited sections, each a heading of its document")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Check the catalog's desktop IDs against the desktop entries of Debian's own packages.

Usage: python3 verify.py [--output FILE]   (default: VERIFIED.md next to this script)

For every catalog app that Debian packages (PACKAGES below) it downloads the package with
`apt-get download` (nothing is installed), extracts it with `dpkg-deb -x` into a temporary
directory and checks each desktop ID the app names (see catalog/README.md, "Checking the
catalog against Debian"): the entry is in the package, it is Type=Application, its MimeType
registers the scheme the catalog relies on, and its Exec takes a URL or a path. Flatpak and
Snap IDs, and apps Debian does not package, are reported as not checkable here.

Writes the report, prints a summary line, and exits 1 if any claim is WRONG, 2 if it could
not check (no apt, a download failed, a catalog app missing from the tables below).
Standard library only.
"""

import datetime
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

# Catalog app key -> the Debian packages that hold its desktop entries. A package that this
# archive does not know (an app packaged only in later releases) is reported, not fatal.
PACKAGES = {
    "firefox": ["firefox-esr"],
    "chromium": ["chromium"],
    "gnome_web": ["epiphany-browser"],
    "falkon": ["falkon"],
    "konqueror": ["konqueror"],
    "qutebrowser": ["qutebrowser"],
    "thunderbird": ["thunderbird"],
    "evolution": ["evolution"],
    "geary": ["geary"],
    "kmail": ["kmail"],
    "claws_mail": ["claws-mail"],
    "neomutt": ["neomutt"],
    "mutt": ["mutt"],
    "gnome_maps": ["gnome-maps"],
    "marble": ["marble"],
    "telegram_desktop": ["telegram-desktop"],
    "nheko": ["nheko"],
    "fractal": ["fractal"],
    "neochat": ["neochat"],
    "mpv": ["mpv"],
    "vlc": ["vlc"],
    "celluloid": ["celluloid"],
    "smplayer": ["smplayer"],
    "haruna": ["haruna"],
    "gnome_videos": ["totem"],
    "dragon_player": ["dragonplayer"],
    "parole": ["parole"],
    "gnome_text_editor": ["gnome-text-editor"],
    "gedit": ["gedit"],
    "kate": ["kate"],
    "kwrite": ["kwrite"],
    # vim-gtk3 and the other GUI builds of Vim take gvim.desktop from vim-gui-common, every
    # build of Vim takes vim.desktop from vim-common.
    "gvim": ["vim-gui-common"],
    "vim": ["vim-common"],
    "neovim": ["neovim-runtime"],
    "emacs": ["emacs-gtk"],
    "micro": ["micro"],
    "mousepad": ["mousepad"],
    "pluma": ["pluma"],
    "featherpad": ["featherpad"],
    "geany": ["geany"],
    "transmission": ["transmission-gtk", "transmission-qt"],
    "qbittorrent": ["qbittorrent"],
    "deluge": ["deluge-gtk"],
    "ktorrent": ["ktorrent"],
    "fragments": ["fragments"],
    "gnome_calls": ["gnome-calls"],
    "linphone": ["linphone-desktop"],
    # contrib; the package's entry is steam.desktop.
    "steam": ["steam-installer"],
}

# Catalog apps with desktop IDs that no Debian package provides, and where they come from.
NOT_IN_DEBIAN = {
    "element_desktop": "Element's own .deb (packages.element.io) and Flathub",
    "discord": "Discord's own .deb, Flathub and the Snap Store",
    "spotify": "Spotify's own .deb, Flathub and the Snap Store",
    "slack": "Slack's own .deb, Flathub and the Snap Store",
    "teams_for_linux": "its own .deb, Flathub and the Snap Store",
    "librewolf": "LibreWolf's own repository and Flathub",
    "waterfox": "Waterfox's own builds and Flathub",
    "floorp": "Floorp's own repository and Flathub",
    "google_chrome": "Google's own .deb and Flathub",
    "brave_browser": "Brave's own .deb, Flathub and the Snap Store",
    "vivaldi": "Vivaldi's own .deb, Flathub and the Snap Store",
    "microsoft_edge": "Microsoft's own .deb and Flathub",
    "opera": "Opera's own .deb, Flathub and the Snap Store",
    "mailspring": "Mailspring's own .deb, Flathub and the Snap Store",
    "signal_desktop": "Signal's own .deb, Flathub and the Snap Store",
    "showtime": "GNOME 49 and later, and Flathub; Debian 12 ships Totem",
    "freetube": "FreeTube's own .deb and Flathub",
    "vscode": "Microsoft's own .deb, Flathub and the Snap Store",
    "vscodium": "VSCodium's own .deb, Flathub and the Snap Store",
    "zed": "Zed's own installer and Flathub",
    "sublime_text": "Sublime HQ's own .deb, Flathub and the Snap Store",
    "zoom": "Zoom's own .deb, Flathub and the Snap Store",
    "zoom_phone": "Zoom's own .deb, Flathub and the Snap Store",
    "jitsi_meet_desktop": "Jitsi's own .deb and AppImage, and Flathub",
    "zapzap": "Flathub (com.rtosta.zapzap)",
}

# Desktop IDs of Debian-packaged apps that come from somewhere other than Debian's package
# (and that are not shaped like a Flatpak or Snap ID, or are one only in shape).
ELSEWHERE = {
    "firefox.desktop": "Mozilla's own .deb and other distributions' firefox package; Debian ships Firefox ESR",
    "chromium-browser.desktop": "other distributions' Chromium package (Fedora's, Ubuntu's before the Snap)",
    "telegramdesktop.desktop": "the entry Telegram's own build writes when it registers itself",
    "sm.puri.Calls.desktop": "GNOME Calls' app ID in Purism's releases, before org.gnome.Calls",
}

FLATPAK_ID_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*){2,}\.desktop$")
SNAP_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*_[A-Za-z0-9][A-Za-z0-9.-]*\.desktop$")
URL_FIELD_CODES = ("u", "U", "f", "F")

OK = "ok"
WRONG = "WRONG"
UNCHECKABLE = "not checkable here"


class VerifyError(Exception):
    """Something that stops the check itself (not a wrong claim)."""


def run(argv, cwd=None):
    try:
        done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    except OSError as e:
        raise VerifyError("cannot run %s: %s" % (argv[0], e))
    if done.returncode != 0:
        raise VerifyError("%s failed (status %d):\n%s" % (" ".join(argv), done.returncode, done.stderr.strip()))
    return done.stdout


# ---------------------------------------------------------------------- catalog
def load_catalog(data_dir):
    """[(type key, [app, ...])] in file order."""
    types = []
    for path in sorted(glob.glob(os.path.join(data_dir, "*.json"))):
        with open(path, encoding="utf-8") as f:
            app_type = json.load(f)[0]
        types.append((app_type["key"], app_type["apps"]))
    return types


def scheme_claim(type_key, app):
    """The x-scheme-handler the app's desktop entries must register, or None for apps that
    take a file or URL on their command line (app_url_scheme file:)."""
    if type_key == "browser":
        return "http"
    scheme = app["app_url_scheme"].split(":", 1)[0].lower()
    return None if scheme == "file" else scheme


# ---------------------------------------------------------------------- apt
def candidate(package):
    """(version, suite) apt would download, or None when the archive has no such package."""
    out = run(["apt-cache", "policy", package])
    match = re.search(r"^\s*Candidate:\s*(\S+)", out, re.M)
    if not match or match.group(1) == "(none)":
        return None
    version = match.group(1)
    table = out.split("Version table:", 1)[-1].splitlines()
    for i, line in enumerate(table):
        fields = line.replace("***", " ").split()
        if fields and fields[0] == version and i + 1 < len(table):
            origin = table[i + 1].split()
            if len(origin) >= 3:
                return version, origin[2].split("/")[0]
    return version, "?"


def resolve_packages(packages):
    """package -> (version, suite) or None, running apt-get update once if apt knows nothing
    of some of them yet."""
    found = {p: candidate(p) for p in packages}
    if any(v is None for v in found.values()):
        run(["apt-get", "update", "-qq"])
        found.update({p: candidate(p) for p, v in found.items() if v is None})
    return found


def download_and_extract(packages, workdir):
    """package -> its extracted tree under workdir."""
    debs = os.path.join(workdir, "debs")
    os.mkdir(debs)
    run(["apt-get", "download", "-qq"] + sorted(packages), cwd=debs)
    trees = {}
    for package in sorted(packages):
        matches = glob.glob(os.path.join(debs, glob.escape(package) + "_*.deb"))
        if len(matches) != 1:
            raise VerifyError("apt-get download left %d files for %s" % (len(matches), package))
        tree = os.path.join(workdir, "x", package)
        os.makedirs(tree)
        run(["dpkg-deb", "-x", matches[0], tree])
        trees[package] = tree
    return trees


# ---------------------------------------------------------------------- desktop entries
def desktop_entries(tree):
    """desktop file ID -> path, for usr/share/applications/**.desktop in an extracted package
    (ID = path below applications/ with / turned into -)."""
    root = os.path.join(tree, "usr", "share", "applications")
    entries = {}
    for directory, _, files in os.walk(root):
        for name in files:
            if name.endswith(".desktop"):
                path = os.path.join(directory, name)
                entries[os.path.relpath(path, root).replace(os.sep, "-")] = path
    return entries


def unescape(value):
    """A string value with the Desktop Entry escapes \\s \\n \\t \\r \\\\ resolved."""
    return re.sub(r"\\([sntr\\])", lambda m: {"s": " ", "n": "\n", "t": "\t", "r": "\r", "\\": "\\"}[m.group(1)], value)


def read_entry(path):
    """The untranslated keys of the [Desktop Entry] group, or None if the file cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    keys, group = {}, None
    for line in lines:
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            group = line[1:-1]
        elif group == "Desktop Entry" and "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            keys.setdefault(key.strip(), value.strip())
    return keys


def field_codes(exec_line):
    """The field codes of an Exec value (%% is a literal percent sign, not a code)."""
    return re.findall(r"%(.)", unescape(exec_line).replace("%%", ""))


def entry_claims(package, entry, scheme):
    """[(claim, verdict, detail)] for one desktop entry found in a package."""
    claims = [("is in %s" % package, OK, "")]
    if entry is None:
        return claims + [("can be read", WRONG, "not a readable UTF-8 file (a link out of the package?)")]
    kind = entry.get("Type", "")
    claims.append(("is Type=Application", OK if kind == "Application" else WRONG,
                   "" if kind == "Application" else "it is Type=%s" % (kind or "(none)")))
    if scheme is not None:
        mime = [m.strip() for m in entry.get("MimeType", "").split(";") if m.strip()]
        want = "x-scheme-handler/" + scheme
        handlers = [m for m in mime if m.startswith("x-scheme-handler/")]
        claims.append(("registers %s" % want, OK if want in mime else WRONG,
                       "" if want in mime else "its MimeType has %s" % (", ".join(handlers) or "no x-scheme-handler")))
    exec_line = entry.get("Exec", "")
    codes = [c for c in field_codes(exec_line) if c in URL_FIELD_CODES]
    claims.append(("Exec takes a URL or path (%u %U %f %F)", OK if codes else WRONG,
                   "`Exec=%s`" % exec_line if codes else "`Exec=%s` has none" % exec_line))
    return claims


def id_shape(desktop_id):
    if FLATPAK_ID_RE.match(desktop_id):
        return "a Flatpak's app ID; Flatpak exports are not in Debian packages"
    if SNAP_ID_RE.match(desktop_id):
        return "a Snap's `<snap>_<app>` ID; Snap entries are not in Debian packages"
    return None


# ---------------------------------------------------------------------- checking
def check_app(type_key, app, versions, trees):
    """(header line, [(desktop ID, claim, verdict, detail)]) for one native catalog app."""
    key = app["key"]
    if key in NOT_IN_DEBIAN:
        return "No Debian package (%s)." % NOT_IN_DEBIAN[key], [
            (d, "is this app's desktop entry", UNCHECKABLE, "no Debian package") for d in app["desktop_ids"]]
    packages = PACKAGES[key]
    known = [p for p in packages if versions[p] is not None]
    header = "Debian package%s: %s." % ("s" if len(packages) > 1 else "", ", ".join(
        "`%s` %s (%s)" % (p, versions[p][0], versions[p][1]) if versions[p] else "`%s` (not in this archive)" % p
        for p in packages))
    entries = {}
    for package in known:
        for desktop_id, path in desktop_entries(trees[package]).items():
            entries.setdefault(desktop_id, (package, path))
    scheme = scheme_claim(type_key, app)
    rows = []
    for desktop_id in app["desktop_ids"]:
        if desktop_id in entries:
            package, path = entries[desktop_id]
            for claim, verdict, detail in entry_claims(package, read_entry(path), scheme):
                rows.append((desktop_id, claim, verdict, detail))
            continue
        why = ELSEWHERE.get(desktop_id) or id_shape(desktop_id)
        if not known:
            verdict, why = UNCHECKABLE, "this archive has no package %s" % " or ".join(packages)
        elif why:
            verdict = UNCHECKABLE
        else:
            verdict, why = WRONG, "no such entry in %s (it has %s)" % (
                " or ".join(known), ", ".join(sorted(entries)) or "no desktop entries")
        rows.append((desktop_id, "is in %s" % " or ".join(packages), verdict, why))
    return header, rows


def table_problems(types):
    """Catalog apps the tables above do not cover, and table keys the catalog does not have."""
    native = {a["key"] for _, apps in types for a in apps if a.get("desktop_ids")}
    problems = ["catalog app %r is in neither PACKAGES nor NOT_IN_DEBIAN" % k
                for k in sorted(native - set(PACKAGES) - set(NOT_IN_DEBIAN))]
    problems += ["%r in the tables is not a catalog app with desktop_ids" % k
                 for k in sorted((set(PACKAGES) | set(NOT_IN_DEBIAN)) - native)]
    problems += ["%r is in both PACKAGES and NOT_IN_DEBIAN" % k for k in sorted(set(PACKAGES) & set(NOT_IN_DEBIAN))]
    return problems


def release_name():
    try:
        with open("/etc/os-release", encoding="utf-8") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return "Debian"


# ---------------------------------------------------------------------- report
def render(types, results, web_apps, counts):
    out = [
        "# The catalog checked against Debian's packages",
        "",
        "Written by `make catalog-verify` (`catalog/verify.py`) on %s, from the packages of %s"
        % (datetime.date.today().isoformat(), release_name()),
        "as `apt-get download` fetched them (nothing was installed). For each catalog app with",
        "desktop IDs, every ID is looked up among the package's `usr/share/applications/**.desktop`",
        "entries and checked: it is there, it is `Type=Application`, its `MimeType` registers the",
        "scheme the catalog relies on (`x-scheme-handler/http` for browsers; none for apps that",
        "open files and URLs from their command line), and its `Exec` takes a URL or a path.",
        "",
        "%d claims: %d ok, %d WRONG, %d not checkable here." % (
            sum(counts.values()), counts[OK], counts[WRONG], counts[UNCHECKABLE]),
    ]
    for type_key, apps in types:
        rows = [(app, results[app["key"]]) for app in apps if app["key"] in results]
        if not rows:
            continue
        out += ["", "## %s" % type_key]
        for app, (header, claims) in rows:
            out += ["", "### %s (`%s`)" % (app["name"], app["key"]), "", header, "",
                    "| desktop ID | claim | verdict |", "| --- | --- | --- |"]
            for desktop_id, claim, verdict, detail in claims:
                out.append("| `%s` | %s | %s |" % (desktop_id, claim, verdict + (": " + detail if detail else "")))
    out += ["", "## Web apps", "",
            "These open through the browser and name no desktop IDs: %s." % ", ".join("`%s`" % k for k in web_apps)]
    return "\n".join(out) + "\n"


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    output = os.path.join(here, "VERIFIED.md")
    if len(argv) == 3 and argv[1] == "--output":
        output = argv[2]
    elif len(argv) != 1:
        print("usage: verify.py [--output FILE]", file=sys.stderr)
        return 2
    types = load_catalog(os.path.join(here, "app-data"))
    try:
        problems = table_problems(types)
        if problems:
            raise VerifyError("the package tables in verify.py do not match the catalog:\n  " + "\n  ".join(problems))
        packages = sorted({p for ps in PACKAGES.values() for p in ps})
        versions = resolve_packages(packages)
        with tempfile.TemporaryDirectory(prefix="choosy-verify-") as workdir:
            trees = download_and_extract([p for p in packages if versions[p]], workdir)
            results = {app["key"]: check_app(type_key, app, versions, trees)
                       for type_key, apps in types for app in apps if app.get("desktop_ids")}
    except VerifyError as e:
        print("verify.py: %s" % e, file=sys.stderr)
        return 2
    counts = {OK: 0, WRONG: 0, UNCHECKABLE: 0}
    for key, (_, claims) in sorted(results.items()):
        for desktop_id, claim, verdict, detail in claims:
            counts[verdict] += 1
            if verdict == WRONG:
                print("verify.py: WRONG: %s: %s %s: %s" % (key, desktop_id, claim, detail), file=sys.stderr)
    web_apps = [a["key"] for _, apps in types for a in apps if not a.get("desktop_ids")]
    with open(output, "w", encoding="utf-8") as f:
        f.write(render(types, results, web_apps, counts))
    print("%d claims: %d ok, %d WRONG, %d not checkable here; wrote %s" % (
        sum(counts.values()), counts[OK], counts[WRONG], counts[UNCHECKABLE], output))
    return 1 if counts[WRONG] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

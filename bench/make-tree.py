#!/usr/bin/env python3
"""Generates an isolated XDG tree with N desktop entries for `make bench`.

    bench/make-tree.py N DIRECTORY

DIRECTORY gets its own HOME, XDG_DATA_HOME, XDG_DATA_DIRS (two system data directories),
XDG_CONFIG_HOME, XDG_CONFIG_DIRS and XDG_CACHE_HOME; a bin/ directory with a stub executable
for every Exec= program (GLib only lists entries whose program is on PATH); a mimeapps.list
that makes firefox.desktop the default for https (and Thunderbird for mailto:); a user
catalog file (choosy's $XDG_CONFIG_HOME/choosy/catalog/) that adds Lagrange to the browser
type by its gemini: scheme only, without desktop_ids, so that every choosy command about
browsers looks a scheme up in choosy's desktop index (the path that could depend on N); and
env / env.args files with the variables to use (env-sources / env-sources.args: the same with a
configuration that adds 50 rules by source app, and a cache directory of its own).

The entries are realistic: names and comments with translations, Categories, Keywords,
MimeType lists drawn from real MIME types, desktop actions, some NoDisplay, some in
subdirectories (kde4/, wine/Programs/...), and, among them, Firefox, Chromium, Thunderbird
and Lagrange. The output depends only on N (fixed random seed). The caller runs
update-desktop-database on the applications directories (for gio and xdg-mime's
mimeinfo.cache).
"""

import json
import os
from shlex import quote
import random
import shutil
import stat
import sys

WORDS = (
    "atlas birch cedar delta ember fjord gale harbor iris juniper kestrel lumen meadow nova "
    "orbit pebble quartz raven sierra tundra umber vortex willow xenon yarrow zephyr amber "
    "basil cobalt dune echo flint grove haze indigo jade kelp lotus moss nectar onyx pine "
    "quill reef sage thistle ultra vale wren yonder zinc arbor blaze coral drift"
).split()
KINDS = [
    ("Viewer", "Graphics;Viewer;", ["image/png", "image/jpeg", "image/gif", "image/webp", "image/tiff", "image/svg+xml", "image/bmp"]),
    ("Player", "AudioVideo;Player;", ["video/mp4", "video/x-matroska", "video/webm", "audio/mpeg", "audio/ogg", "audio/flac", "audio/x-wav", "application/x-mpegurl"]),
    ("Editor", "Utility;TextEditor;", ["text/plain", "text/x-csrc", "text/x-python", "text/markdown", "application/x-shellscript", "text/x-makefile", "application/json", "application/xml"]),
    ("Office", "Office;", ["application/pdf", "application/vnd.oasis.opendocument.text", "application/msword", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "text/csv", "application/rtf"]),
    ("Archiver", "Utility;Archiving;", ["application/zip", "application/x-tar", "application/gzip", "application/x-7z-compressed", "application/x-xz", "application/vnd.rar"]),
    ("Chat", "Network;InstantMessaging;", ["x-scheme-handler/irc", "x-scheme-handler/ircs", "x-scheme-handler/xmpp", "x-scheme-handler/tg", "x-scheme-handler/sgnl", "x-scheme-handler/matrix"]),
    ("Downloader", "Network;FileTransfer;", ["x-scheme-handler/magnet", "application/x-bittorrent", "x-scheme-handler/ftp", "x-scheme-handler/sftp"]),
    ("Terminal", "System;TerminalEmulator;", []),
    ("Settings", "Settings;DesktopSettings;", []),
    ("Game", "Game;ArcadeGame;", ["x-scheme-handler/steam"]),
]
LANGUAGES = ["de", "fr", "es", "it", "pt_BR", "ja", "zh_CN", "ru", "nl", "pl"]


def entry_text(name, generic, comment, program, mime_types, categories, rng, no_display=False, terminal=False):
    lines = ["[Desktop Entry]", "Version=1.0", "Type=Application", f"Name={name}"]
    for language in rng.sample(LANGUAGES, rng.randint(2, len(LANGUAGES))):
        lines.append(f"Name[{language}]={name} ({language})")
    lines.append(f"GenericName={generic}")
    for language in rng.sample(LANGUAGES, rng.randint(0, 6)):
        lines.append(f"GenericName[{language}]={generic} [{language}]")
    lines.append(f"Comment={comment}")
    for language in rng.sample(LANGUAGES, rng.randint(0, 6)):
        lines.append(f"Comment[{language}]={comment} [{language}]")
    field = "%U" if any(m.startswith("x-scheme-handler/") for m in mime_types) else "%F"
    lines.append(f"Exec={program} {field}")
    lines.append(f"Icon={program}")
    lines.append(f"Terminal={'true' if terminal else 'false'}")
    lines.append(f"Categories={categories}")
    lines.append("Keywords=" + "".join(w + ";" for w in rng.sample(WORDS, 4)))
    if mime_types:
        lines.append("MimeType=" + "".join(m + ";" for m in mime_types))
    lines.append("StartupNotify=true")
    if no_display:
        lines.append("NoDisplay=true")
    actions = rng.sample(["new-window", "new-document", "preferences", "quit"], rng.randint(0, 2))
    if actions:
        lines.append("Actions=" + "".join(a + ";" for a in actions))
    for action in actions:
        lines += ["", f"[Desktop Action {action}]", f"Name={action.replace('-', ' ').title()}", f"Exec={program} --{action}"]
    return "\n".join(lines) + "\n"


KNOWN = [
    # (directory key, relative path, program, name, mime types)
    ("system", "firefox.desktop", "firefox", "Firefox Web Browser",
     ["text/html", "text/xml", "application/xhtml+xml", "application/vnd.mozilla.xul+xml", "x-scheme-handler/http", "x-scheme-handler/https"]),
    ("system", "chromium.desktop", "chromium", "Chromium Web Browser",
     ["text/html", "application/xhtml+xml", "x-scheme-handler/http", "x-scheme-handler/https"]),
    ("system", "org.mozilla.Thunderbird.desktop", "thunderbird", "Thunderbird Mail",
     ["message/rfc822", "x-scheme-handler/mailto", "text/calendar", "text/vcard"]),
    ("system", "fi.skyjake.Lagrange.desktop", "lagrange", "Lagrange",
     ["x-scheme-handler/gemini", "x-scheme-handler/gopher", "x-scheme-handler/finger", "text/gemini"]),
]

# The user's own catalog adds an app the bundled one lacks, without desktop_ids: choosy finds
# it by its scheme, which is what its desktop index (and the index's cache) is for.
USER_CATALOG = """[
  {
    "key": "browser",
    "apps": [
      {
        "key": "lagrange",
        "name": "Lagrange",
        "app_url_scheme": "gemini:",
        "docs": "https://gmi.skyjake.fi/lagrange/",
        "actions": [{"key": "browse", "url_format": "{{url}}"}]
      }
    ]
  }
]
"""


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make-tree.py N DIRECTORY")
    count, root = int(sys.argv[1]), os.path.abspath(sys.argv[2])
    if count < len(KNOWN):
        sys.exit(f"N must be at least {len(KNOWN)}")
    rng = random.Random(count)
    if os.path.exists(root):
        shutil.rmtree(root)
    home = os.path.join(root, "home")
    paths = {
        "HOME": home,
        "XDG_DATA_HOME": os.path.join(home, ".local/share"),
        "XDG_CONFIG_HOME": os.path.join(home, ".config"),
        "XDG_CACHE_HOME": os.path.join(home, ".cache"),
        "XDG_CONFIG_DIRS": os.path.join(root, "etc/xdg"),
    }
    data_dirs = [os.path.join(root, "usr/local/share"), os.path.join(root, "usr/share")]
    bin_dir = os.path.join(root, "bin")
    applications = {
        "user": os.path.join(paths["XDG_DATA_HOME"], "applications"),
        "local": os.path.join(data_dirs[0], "applications"),
        "system": os.path.join(data_dirs[1], "applications"),
    }
    for directory in list(paths.values()) + list(applications.values()) + [bin_dir]:
        os.makedirs(directory, exist_ok=True)

    stub = os.path.join(bin_dir, ".stub")
    with open(stub, "w") as f:
        f.write("#!/bin/sh\nexit 0\n")
    os.chmod(stub, 0o755)

    def program_stub(program):
        path = os.path.join(bin_dir, program)
        if not os.path.lexists(path):
            os.symlink(".stub", path)

    ids = []

    def write(where, relative, text):
        ids.append(relative.replace("/", "-"))
        path = os.path.join(applications[where], relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)

    for where, relative, program, name, mime_types in KNOWN:
        program_stub(program)
        write(where, relative, entry_text(name, "Mail Client" if "Mail" in name else "Web Browser",
                                          f"Use {name}", program, mime_types, "Network;WebBrowser;", rng))

    used = set()
    for number in range(count - len(KNOWN)):
        while True:
            first, second = rng.choice(WORDS), rng.choice(WORDS)
            kind, categories, pool = rng.choice(KINDS)
            base = f"{first}-{second}-{kind.lower()}"
            if base not in used:
                break
            base = f"{base}{number}"
            if base not in used:
                break
        used.add(base)
        name = f"{first.title()} {second.title()} {kind}"
        program = base
        program_stub(program)
        mime_types = rng.sample(pool, rng.randint(0, len(pool))) if pool else []
        text = entry_text(name, kind, f"A {kind.lower()} named after {first} and {second}", program,
                          mime_types, categories, rng, no_display=rng.random() < 0.05,
                          terminal=kind == "Terminal" and rng.random() < 0.3)
        roll = rng.random()
        if roll < 0.04:
            where, relative = "user", f"{base}.desktop"
        elif roll < 0.08:
            where, relative = "user", f"wine/Programs/{first.title()}/{base}.desktop"
        elif roll < 0.15:
            where, relative = "local", f"{base}.desktop"
        elif roll < 0.22:
            where, relative = "system", f"kde4/{base}.desktop"
        elif roll < 0.45:
            where, relative = "system", f"org.{first}.{second.title()}{kind}.desktop"
        else:
            where, relative = "system", f"{base}.desktop"
        write(where, relative, text)

    os.makedirs(os.path.join(paths["XDG_CONFIG_HOME"], "choosy", "catalog"))
    with open(os.path.join(paths["XDG_CONFIG_HOME"], "choosy", "catalog", "local.json"), "w") as f:
        f.write(USER_CATALOG)

    # 50 site rules, as a user gathers them (domains, exact hosts, path prefixes, ask), none of
    # them example.org's: `handle` reads them all and still opens the default browser.
    rules = []
    for i in range(50):
        site = [f"site{i}.example.net", f"=www.site{i}.example.com", f"git{i}.example.org.uk/work-org/team{i}", f"docs{i}.example.io"][i % 4]
        rules.append({"site": site, "ask": True} if i % 10 == 9 else {"site": site, "app": ["firefox", "chromium"][i % 2]})
    with open(os.path.join(paths["XDG_CONFIG_HOME"], "choosy", "rules.json"), "w") as f:
        json.dump({"version": 1, "rules": rules}, f, indent=2)

    with open(os.path.join(paths["XDG_CONFIG_HOME"], "mimeapps.list"), "w") as f:
        f.write(
            "[Default Applications]\n"
            "text/html=firefox.desktop\n"
            "x-scheme-handler/https=firefox.desktop\n"
            "x-scheme-handler/mailto=org.mozilla.Thunderbird.desktop\n"
            "message/rfc822=org.mozilla.Thunderbird.desktop\n"
        )

    # The same configuration with 50 rules by source besides (`--from`, every tenth for `*`),
    # for entries of the tree: no ancestor of the bench runs one, so `handle` looks at every
    # ancestor and still opens the default browser (env-sources, env-sources.args). It has a
    # cache of its own, as a user with these rules has: the site rule index in the cache
    # stands for one rules.json, so a shared one would make one of the two read rules.json
    # whole on every run.
    sources_config = os.path.join(root, "config-sources")
    sources_cache = os.path.join(home, ".cache-sources")
    shutil.copytree(paths["XDG_CONFIG_HOME"], sources_config)
    for i in range(50):
        site = "*" if i % 10 == 0 else [f"site{i}.example.net", f"=www.site{i}.example.com", f"docs{i}.example.io"][i % 3]
        rules.append({"site": site, "from": ids[i % len(ids)], "app": ["chromium", "firefox"][i % 2]})
    with open(os.path.join(sources_config, "choosy", "rules.json"), "w") as f:
        json.dump({"version": 1, "rules": rules}, f, indent=2)

    variables = dict(paths)
    variables["XDG_DATA_DIRS"] = ":".join(data_dirs)
    variables["PATH"] = f"{bin_dir}:/usr/local/bin:/usr/bin:/bin"
    variables["LANG"] = "C.UTF-8"
    variables["NO_COLOR"] = "1"
    for suffix, config, cache in (("", paths["XDG_CONFIG_HOME"], paths["XDG_CACHE_HOME"]), ("-sources", sources_config, sources_cache)):
        variables["XDG_CONFIG_HOME"] = config
        variables["XDG_CACHE_HOME"] = cache
        # For sh: `. env` (what else could change the answers is unset).
        with open(os.path.join(root, "env" + suffix), "w") as f:
            f.write("unset XDG_CURRENT_DESKTOP XDG_SESSION_DESKTOP DESKTOP_SESSION KDE_FULL_SESSION GNOME_DESKTOP_SESSION_ID "
                    "LC_ALL LC_MESSAGES LANGUAGE CHOOSY_PICKER CHOOSY_ALWAYS_DISPLAY_PICKER CHOOSY_OFFLINE "
                    "CHOOSY_CATALOG_URL CHOOSY_CACHE_TTL CHOOSY_DEVELOPMENT_MODE CHOOSY_SOURCE\n")
            for key, value in variables.items():
                f.write(f"export {key}={quote(value)}\n")
            f.write("APPLICATIONS_DIRS=" + quote(" ".join(applications[k] for k in ("user", "local", "system"))) + "\n")
        # For a command line: `env -i $(cat env.args) choosy …` (what hyperfine runs for scaling).
        with open(os.path.join(root, "env" + suffix + ".args"), "w") as f:
            f.write(" ".join(f"{key}={quote(value)}" for key, value in variables.items()) + "\n")


if __name__ == "__main__":
    main()

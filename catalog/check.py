#!/usr/bin/env python3
"""Validate choosy's bundled catalog (catalog/app-data/*.json).

Usage: python3 check.py [CATALOG_DIR]   (default: the directory holding this script)

Prints every problem found and exits 1 if there is any, 0 otherwise.
Standard library only.
"""

import json
import os
import re
import sys
from urllib.parse import unquote, unquote_plus, urlsplit

MIN_TYPES = 10
MIN_APPS = 40

KEY_RE = re.compile(r"^[a-z0-9_]+$")
PLACEHOLDER_RE = re.compile(r"\{\{([^{}]*)\}\}")
SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:$")
URL_START_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
SCHEME_NAME_RE = re.compile(r"^[a-z][a-z0-9+.-]*$")
MIME_TYPE_RE = re.compile(r"^[a-z0-9][a-z0-9!#$&^_.+-]*/[a-z0-9][a-z0-9!#$&^_.+-]*$")
WEB_SCHEME_RE = re.compile(r"^https?://[^/?#\s]+(/[^\s]*)?$")
DOCS_RE = re.compile(r"^https://[^/\s]+(/\S*)?$")
DESKTOP_ID_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+-]*\.desktop$")
SNAP_ID_RE = re.compile(r"^([a-z0-9][a-z0-9-]*)_[A-Za-z0-9][A-Za-z0-9.-]*\.desktop$")
FLATPAK_ID_RE = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*){2,})\.desktop$")
PROFILE_FORMATS = ("firefox", "chromium")
PROFILE_PLACEHOLDER = "{{profile}}"

# Types the catalog must provide, with the action and parameter keys that choosy's
# built-in handling (README, "choosy handle") and the upstream data rely on.
REQUIRED_TYPES = {
    "browser": ({"browse"}, {"url"}),
    "email": ({"compose"}, {"to", "cc", "bcc", "subject", "body"}),
    "maps": ({"show_location", "search", "get_directions"},
             {"query", "start_address", "end_address", "latitude", "longitude", "latitude_longitude"}),
    "twitter": ({"show_profile", "post", "status", "search", "retweet", "favorite", "follow"},
                {"text", "url_in_tweet", "reference_tweet_id", "via", "hashtags", "related",
                 "profile_screenname", "user_id", "callback_url"}),
}

# The web links the bundled catalog must turn into actions (README, "Links in the catalog"):
# for each family, a type, an action and a host its patterns must cover.
REQUIRED_LINKS = [
    ("twitter", "show_profile", "x.com"), ("twitter", "status", "x.com"), ("twitter", "post", "x.com"),
    ("twitter", "show_profile", "twitter.com"), ("twitter", "status", "twitter.com"), ("twitter", "post", "twitter.com"),
    ("video_call", "join_meeting", "zoom.us"), ("video_call", "join_meeting", "meet.jit.si"),
    ("chat", "open_chat", "t.me"), ("matrix", "open_room", "matrix.to"), ("matrix", "open_user", "matrix.to"),
    ("maps", "show_location", "www.google.com"), ("maps", "search", "www.google.com"),
    ("maps", "show_location", "www.openstreetmap.org"), ("maps", "search", "www.openstreetmap.org"),
    ("video", "play", "www.youtube.com"),
]

LINK_LABEL_RE = re.compile(r"^[A-Za-z0-9-]+$")
LINK_KEY_RE = re.compile(r"^[A-Za-z0-9_]+$")


PLACEHOLDER_KINDS = {
    "digits": re.compile(r"^[0-9]+$"),
    "number": re.compile(r"^-?[0-9]+(\.[0-9]+)?$"),
    "word": re.compile(r"^[A-Za-z0-9_]+$"),
}
LENGTH_RE = re.compile(r"^([0-9]{1,6})(?:-([0-9]{1,6}))?$")


class Placeholder:
    """`{{key}}`, `{{_}}` or `{{key:kind:min-max}}` (README, "Links in the catalog")."""

    def __init__(self, key, kind, length):
        self.key, self.kind, self.length = key, kind, length

    def accepts(self, value):
        if self.kind is None:
            return True
        if self.length and not self.length[0] <= len(value) <= self.length[1]:
            return False
        return PLACEHOLDER_KINDS[self.kind].match(value) is not None


def parse_link_pattern(pattern):
    """The pattern read by the same rules as choosy's own reader (LinkPattern.swift):
    (host, includes_subdomains, path segments, query items, fragment or None), with the
    placeholder keys it uses. Raises ValueError saying what is wrong."""
    keys = []

    def placeholder(text):
        if not text.startswith("{{") or "}}" not in text:
            raise ValueError("a '{{' in %r is never closed" % text)
        inside, rest = text[2:].split("}}", 1)
        required = inside.endswith("!")
        if required:
            inside = inside[:-1]
        fields = inside.split(":")
        name = fields[0]
        if not LINK_KEY_RE.match(name) or len(fields) > 3:
            raise ValueError("placeholder {{%s}} is not {{key}} or {{key:kind}} with a key of letters, digits and '_'" % inside)
        kind = fields[1] if len(fields) > 1 else None
        if kind is not None and kind not in PLACEHOLDER_KINDS:
            raise ValueError("placeholder {{%s}} has an unknown kind %r (digits, number or word)" % (inside, kind))
        length = None
        if len(fields) > 2:
            m = LENGTH_RE.match(fields[2])
            low, high = (int(m.group(1)), int(m.group(2) or m.group(1))) if m else (0, 0)
            if not m or low < 1 or low > high:
                raise ValueError("placeholder {{%s}} has a length that is not N or MIN-MAX" % inside)
            length = (low, high)
        if name != "_":
            if name in keys:
                raise ValueError("placeholder {{%s}} appears twice" % name)
            keys.append(name)
        return Placeholder(None if name == "_" else name, kind, length), required, rest

    def segment(text):
        parts = []
        while text:
            if text.startswith("{{"):
                p, required, text = placeholder(text)
                if required:
                    raise ValueError("'!' marks required query items only")
                if parts and isinstance(parts[-1], Placeholder):
                    raise ValueError("two placeholders touch (a literal must separate them)")
                parts.append(p)
            else:
                literal = text.split("{{", 1)[0]
                if "{" in literal or "}" in literal:
                    raise ValueError("a brace in %r opens or closes no placeholder" % text)
                parts.append(literal)
                text = text[len(literal):]
        return parts

    def query_items(text):
        """(name, how, expected, occurrence): how is "optional", "required", "literal",
        "present" (a name alone) or "parts" (text with placeholders, matched like a segment)."""
        items = []
        for item in [i for i in text.split("&") if i]:
            name, eq, value = item.partition("=")
            name = unquote_plus(name)
            if not name or "{" in name or "}" in name:
                raise ValueError("query item %r has no name, or a placeholder for one" % item)
            occurrence = sum(1 for n, how, _, _ in items if n == name and how != "present")
            if not eq:
                if any(n == name and how == "present" for n, how, _, _ in items):
                    raise ValueError("query item %r is asked to be present twice" % name)
                items.append((name, "present", None, 0))
                continue
            invalid = "query item %r must be name, name={{key}}, name={{key!}}, name={{_!}}, name=text or text with placeholders" % item
            if value.startswith("{{") and value.find("}}") == len(value) - 2:
                p, required, after = placeholder(value)
                if after or (p.key is None and p.kind is None and not required):
                    raise ValueError(invalid)
                items.append((name, "required" if required else "optional", p, occurrence))
            elif "{" in value or "}" in value:
                parts = [unquote_plus(p) if isinstance(p, str) else p for p in segment(value)]
                items.append((name, "parts", parts, occurrence))
            elif not value:
                raise ValueError(invalid)
            else:
                items.append((name, "literal", unquote_plus(value), occurrence))
        return items

    def host_labels(host):
        """The host's labels, last first: a string, or a Placeholder taking the whole label."""
        labels = []
        for label in host.split("."):
            if label.startswith("{{"):
                p, required, after = placeholder(label)
                if required or after:
                    raise ValueError("its host %r is not a domain name" % host)
                labels.append(p)
            elif not LINK_LABEL_RE.match(label):
                raise ValueError("its host %r is not a domain name" % host)
            else:
                labels.append(label.lower())
        # A placeholder needs a literal label before the last one to stand on.
        if any(not isinstance(l, str) for l in labels) and not any(isinstance(l, str) for l in labels[:-1]):
            raise ValueError("its host %r has no literal label before the last one" % host)
        return labels[::-1]

    scheme, sep, rest = pattern.partition("://")
    if not sep or scheme.lower() not in ("https", "http"):
        raise ValueError("it does not start with https://")
    rest, _, fragment = rest.partition("#") if "#" in rest else (rest, "", None)
    rest, _, query = rest.partition("?") if "?" in rest else (rest, "", None)
    host, slash, path = rest.partition("/")
    subdomains = host.startswith("*.")
    labels = host_labels(host[2:] if subdomains else host)
    texts = path.split("/") if slash else []
    if texts and texts[-1] == "":
        texts.pop()
    segments = []
    for text in texts:
        if text == "":
            raise ValueError("it has an empty path segment ('//')")
        segments.append(segment(text))
    items = query_items(query) if query is not None else []
    parsed_fragment = None
    if fragment is not None:
        if fragment == "":
            raise ValueError("its fragment is empty")
        fpath, mark, fquery = fragment.partition("?")
        fsegments = [[unquote(p) if isinstance(p, str) else p for p in segment(t)] for t in fpath.split("/")]
        fitems = query_items(fquery) if mark else []
        if mark and not fitems:
            raise ValueError("its fragment has a '?' with no query items after it")
        parsed_fragment = (fsegments, fitems)
    return labels, subdomains, segments, items, parsed_fragment, keys


def link_pattern_problem(pattern):
    """Why `pattern` is not a link pattern, or None, with the placeholder keys it uses."""
    try:
        return None, parse_link_pattern(pattern)[5]
    except ValueError as e:
        return str(e), []


def _match_segment(parts, text, decoded, params, plus_is_space=False):
    if not parts:
        return text == ""
    part, rest = parts[0], parts[1:]
    if isinstance(part, str):
        return text.startswith(part) and _match_segment(rest, text[len(part):], decoded, params, plus_is_space)
    end = len(text)
    if rest and isinstance(rest[0], str):
        end = text.find(rest[0], 1)
        if end < 0:
            return False
    if end <= 0:
        return False
    value = text[:end] if decoded else (unquote_plus if plus_is_space else unquote)(text[:end])
    if not part.accepts(value):
        return False
    if part.key:
        params[part.key] = value
    return _match_segment(rest, text[end:], decoded, params, plus_is_space)


def _match_segments(segments, texts, decoded, params, plus_is_space=False):
    if len(texts) > len(segments) and texts and texts[-1] == "":
        texts = texts[:-1]
    return len(texts) == len(segments) and all(
        _match_segment(s, t, decoded, params, plus_is_space) for s, t in zip(segments, texts))


def _match_items(items, text, plus_is_space, params):
    values = {}
    for item in (text or "").split("&"):
        if not item:
            continue
        name, _, value = item.partition("=")
        if plus_is_space:
            name, value = unquote_plus(name), unquote_plus(value)
        values.setdefault(name, []).append(value)
    for name, how, expected, occurrence in items:
        present = values.get(name)
        value = present[occurrence] if present and occurrence < len(present) else None
        if how == "present":
            if present is None:
                return False
        elif how == "literal":
            if value != expected:
                return False
        elif how == "parts":
            if value is None or not _match_segment(expected, value, True, params):
                return False
        elif value:
            if not expected.accepts(value):
                return False
            if expected.key:
                params[expected.key] = value
        elif how == "required":
            return False
    return True


def _match_host(labels, subdomains, name, params):
    """The host's labels against the pattern's, last first; placeholders take a whole label."""
    got = name.split(".")[::-1]
    if len(got) < len(labels) or (len(got) > len(labels) and not subdomains):
        return False
    for label, text in zip(labels, got):
        if isinstance(label, str):
            if label != text:
                return False
        elif not text or not label.accepts(text):
            return False
        elif label.key:
            params[label.key] = text
    return True


def match_link(parsed, link, plus_is_space=False):
    """The parameters a parsed pattern takes from `link`, or None; hosts as ASCII, lowercased,
    without a trailing dot (the bundled examples need no more of the URL standard)."""
    labels, subdomains, segments, items, fragment, _ = parsed
    url = urlsplit(link)
    if url.scheme.lower() not in ("http", "https"):
        return None
    params = {}
    if not _match_host(labels, subdomains, (url.hostname or "").rstrip("."), params):
        return None
    if not _match_segments(segments, url.path.split("/")[1:] if url.path else [], False, params, plus_is_space):
        return None
    if items and not _match_items(items, url.query, True, params):
        return None
    if fragment is not None:
        decoded = unquote(url.fragment)
        fpath, _, fquery = decoded.partition("?")
        if not url.fragment or not _match_segments(fragment[0], fpath.split("/"), True, params):
            return None
        if fragment[1] and not _match_items(fragment[1], fquery, False, params):
            return None
    return params


def specificity(parsed):
    _, subdomains, segments, items, fragment, _ = parsed
    literal = lambda s: all(isinstance(p, str) for p in s)
    return (0 if subdomains else 1,
            sum(1 for s in segments if literal(s)) + sum(1 for s in (fragment[0] if fragment else []) if literal(s)),
            sum(1 for _, how, _, _ in items if how in ("literal", "present", "parts")))


def host_is_covered(pattern, host):
    try:
        labels, subdomains = parse_link_pattern(pattern)[:2]
    except ValueError:
        return False
    return _match_host(labels, subdomains, host, {})


# Keys used by the upstream iOS data (shared/fixtures/choosy-data) for other apps;
# reusing them here would merge a Linux app into an unrelated iOS entry.
UPSTREAM_APP_KEYS = {
    "chrome", "gmail", "googlemaps", "waze", "tweetbot", "twitterific", "echofon",
    "twittelator", "mail", "safari", "twitter", "maps", "mailbox", "ymail", "dispatch",
}


def is_web_scheme(scheme):
    """A web app: its app_url_scheme is http(s) (README, "Web apps")."""
    return isinstance(scheme, str) and scheme.lower().startswith(("http:", "https:"))


def nonempty_str(value):
    return isinstance(value, str) and value.strip() != ""


class Checker:
    def __init__(self, root):
        self.root = root
        self.data_dir = os.path.join(root, "app-data")
        self.problems = []
        self.app_keys = {}  # key -> "type/file"
        self.type_count = 0
        self.types = {}  # key -> (action keys, parameter keys)
        self.app_count = 0
        self.links = []  # (type key, action, pattern)
        self.matchers = []  # (type key, action, parsed pattern, link_param, parameters, plus_is_space, examples, where)
        self.type_names = {}

    def err(self, where, msg):
        self.problems.append("%s: %s" % (where, msg))

    # ------------------------------------------------------------------ files
    def run(self):
        if not os.path.isdir(self.data_dir):
            self.err(self.data_dir, "directory missing")
            return
        names = sorted(n for n in os.listdir(self.data_dir) if not n.startswith("."))
        for name in names:
            path = os.path.join(self.data_dir, name)
            if not name.endswith(".json"):
                self.err(path, "unexpected file (only <type_key>.json belongs here)")
                continue
            self.check_file(path, name[: -len(".json")])
        for tkey, (need_actions, need_params) in sorted(REQUIRED_TYPES.items()):
            where = os.path.join("app-data", tkey + ".json")
            if tkey not in self.types:
                self.err(where, "required app type %r is missing" % tkey)
                continue
            have_actions, have_params = self.types[tkey]
            for k in sorted(need_actions - have_actions):
                self.err(where, "required action %r is not declared" % k)
            for k in sorted(need_params - have_params):
                self.err(where, "required parameter %r is not declared" % k)
        for tkey, action, host in REQUIRED_LINKS:
            if not any(t == tkey and a == action and host_is_covered(p, host) for t, a, p in self.links):
                self.err(self.data_dir, "no link pattern of %r makes %s links %r" % (tkey, host, action))
        self.check_examples_hold()
        if self.type_count < MIN_TYPES:
            self.err(self.data_dir, "only %d app types, need at least %d" % (self.type_count, MIN_TYPES))
        if self.app_count < MIN_APPS:
            self.err(self.data_dir, "only %d apps, need at least %d" % (self.app_count, MIN_APPS))

    def check_file(self, path, stem):
        where = os.path.relpath(path, self.root)
        try:
            with open(path, "rb") as f:
                raw = f.read()
            text = raw.decode("utf-8")
        except (OSError, UnicodeDecodeError) as e:
            self.err(where, "cannot read as UTF-8: %s" % e)
            return
        try:
            data = json.loads(text)
        except ValueError as e:
            self.err(where, "invalid JSON: %s" % e)
            return
        if text != json.dumps(data, indent=2, ensure_ascii=False) + "\n":
            self.err(where, "not pretty-printed with 2-space indentation "
                            "(json.dumps(data, indent=2, ensure_ascii=False) plus a final newline)")
        if not KEY_RE.match(stem):
            self.err(where, "file name %r does not match ^[a-z0-9_]+$" % stem)
        if not isinstance(data, list) or len(data) != 1:
            self.err(where, "must be a JSON array holding exactly one app type")
            return
        self.check_type(where, stem, data[0])

    # ------------------------------------------------------------------ type
    def check_type(self, where, stem, t):
        if not isinstance(t, dict):
            self.err(where, "app type must be an object")
            return
        self.type_count += 1
        key = t.get("key")
        if not isinstance(key, str) or not KEY_RE.match(key):
            self.err(where, "type key %r does not match ^[a-z0-9_]+$" % (key,))
        elif key != stem:
            self.err(where, "type key %r differs from the file name %r" % (key, stem + ".json"))
        if not nonempty_str(t.get("name")):
            self.err(where, "type needs a human-readable name")
        elif not t["name"][0].isupper():
            self.err(where, "type name %r should be capitalized" % t["name"])

        params = self.check_named_list(where, t, "parameters", need_description=True)
        actions = self.check_named_list(where, t, "actions", need_description=False)
        self.check_type_schemes(where, t, params)
        if isinstance(key, str):
            self.types[key] = (actions, params)
            if nonempty_str(t.get("name")):
                self.type_names[key] = t["name"]

        apps = t.get("apps")
        if not isinstance(apps, list) or not apps:
            self.err(where, "type needs a non-empty 'apps' array")
            return
        for i, a in enumerate(apps):
            self.check_app(where, key, i, a, params, actions)
        self.check_links(where, key, t, params, actions, apps)

    def check_links(self, where, type_key, t, params, actions, apps):
        """`links`: web links that mean one of the type's actions."""
        links = t.get("links")
        if links is None:
            return
        if not isinstance(links, list) or not links:
            self.err(where, "'links' must be a non-empty array")
            return
        app_keys = {a.get("key") for a in apps if isinstance(a, dict)}
        seen = set()
        for i, link in enumerate(links):
            w = "%s: links[%d]" % (where, i)
            if not isinstance(link, dict):
                self.err(w, "must be an object")
                continue
            unknown = set(link) - {"action", "pattern", "link_param", "apps", "parameters", "plus_is_space", "note", "examples"}
            if unknown:
                self.err(w, "unknown fields %s" % sorted(unknown))
            pattern = link.get("pattern")
            if not nonempty_str(pattern):
                self.err(w, "needs a pattern")
                continue
            w = "%s %r" % (w, pattern)
            if pattern in seen:
                self.err(w, "the same pattern appears twice")
            seen.add(pattern)
            problem, keys = link_pattern_problem(pattern)
            if problem:
                self.err(w, "invalid pattern: " + problem)
            for name in keys:
                if name not in params:
                    self.err(w, "placeholder {{%s}} is not a declared parameter of the type" % name)
            action = link.get("action")
            if action not in actions:
                self.err(w, "action %r is not declared by the type" % (action,))
            link_param = link.get("link_param")
            if link_param is not None and link_param not in params:
                self.err(w, "link_param %r is not a declared parameter of the type" % (link_param,))
            only = link.get("apps")
            if only is not None:
                if not isinstance(only, list) or not only or not all(isinstance(k, str) for k in only):
                    self.err(w, "'apps' must be a non-empty array of app keys")
                else:
                    for k in only:
                        if k not in app_keys:
                            self.err(w, "'apps' names %r, which is no app of the type" % k)
            if "note" in link and not nonempty_str(link["note"]):
                self.err(w, "'note' must be a non-empty string (where the app reads this form)")
            fixed = link.get("parameters", {})
            if not isinstance(fixed, dict) or not all(isinstance(k, str) and k in params and nonempty_str(v) for k, v in fixed.items()):
                self.err(w, "'parameters' must map declared parameters of the type to text")
                fixed = {}
            if not isinstance(link.get("plus_is_space", False), bool):
                self.err(w, "'plus_is_space' must be true or false")
            examples = self.check_examples(w, link.get("examples", []), actions, params)
            if type_key != "browser" and action in actions:
                taken = [e for e in examples if e.get("action") == action]
                missed = [e for e in examples if e.get("action") != action]
                if len(examples) < 2 or not taken or not missed:
                    self.err(w, "needs at least two examples: one it takes, one near miss it does not")
            if not problem:
                self.links.append((type_key, action, pattern))
                self.matchers.append((type_key, action, parse_link_pattern(pattern), link_param, fixed,
                                      link.get("plus_is_space") is True, examples, w))

    def check_examples(self, w, examples, actions, params):
        """`examples`: [{"link", "action", "parameters"}] or [{"link", "browser": true}]."""
        if not isinstance(examples, list):
            self.err(w, "'examples' must be an array")
            return []
        good = []
        for i, e in enumerate(examples):
            where = "%s: examples[%d]" % (w, i)
            if not isinstance(e, dict) or not nonempty_str(e.get("link")):
                self.err(where, "needs a link")
                continue
            if e.get("browser") is True:
                if set(e) != {"link", "browser"}:
                    self.err(where, "a browser example is {\"link\", \"browser\": true} only")
                    continue
            elif set(e) - {"link", "action", "parameters", "urls"} or not isinstance(e.get("parameters"), dict) \
                    or not all(isinstance(v, str) for v in e["parameters"].values()):
                self.err(where, "must be {\"link\", \"action\", \"parameters\": {…}, \"urls\": {…}} or {\"link\", \"browser\": true}")
                continue
            elif not isinstance(e.get("urls"), dict) or not all(isinstance(k, str) and nonempty_str(v) for k, v in e["urls"].items()):
                self.err(where, "'urls' must map each native app that takes the link to the URL it gets, byte for byte")
                continue
            good.append(e)
        return good

    def check_examples_hold(self):
        """Every example through the matcher, with the whole catalog's links loaded: the most
        specific pattern wins, a tie goes to catalog order (types by name, links in order)."""
        order = sorted(self.matchers, key=lambda m: self.type_names.get(m[0], m[0]).lower())
        for type_key, action, _, _, _, _, examples, w in self.matchers:
            for e in examples:
                best = None
                for t, a, parsed, link_param, fixed, plus, _, _ in order:
                    spec = specificity(parsed)
                    if best is not None and spec <= best[0]:
                        continue
                    got = match_link(parsed, e["link"], plus)
                    if got is None:
                        continue
                    got.update(fixed)
                    if link_param:
                        got[link_param] = e["link"]
                    best = (spec, t, a, got)
                if e.get("browser"):
                    if best is not None and best[1] != "browser":
                        self.err(w, "example %r should stay in the browser, but is %s %s %r" % (e["link"], best[1], best[2], best[3]))
                elif best is None:
                    self.err(w, "example %r: no pattern takes it" % e["link"])
                elif (best[1], best[2], best[3]) != (type_key, e["action"], e["parameters"]):
                    self.err(w, "example %r should be %s %s %r, but is %s %s %r"
                             % (e["link"], type_key, e["action"], e["parameters"], best[1], best[2], best[3]))

    def check_type_schemes(self, where, t, params):
        """`schemes` and type-level `url_format`: what any handler of those schemes can do
        (README "Apps the catalog does not name")."""
        schemes = t.get("schemes")
        if schemes is not None:
            if not isinstance(schemes, list) or not schemes:
                self.err(where, "'schemes' must be a non-empty array of scheme names")
                schemes = []
            for scheme in schemes:
                if not isinstance(scheme, str) or not SCHEME_NAME_RE.match(scheme):
                    self.err(where, "scheme %r is not a lowercase URL scheme name (no colon)" % (scheme,))
        mime_types = t.get("mime_types")
        if mime_types is not None:
            if not isinstance(mime_types, list) or not mime_types:
                self.err(where, "'mime_types' must be a non-empty array of MIME types")
                mime_types = []
            for mime_type in mime_types:
                if not isinstance(mime_type, str) or not MIME_TYPE_RE.match(mime_type):
                    self.err(where, "MIME type %r is not a lowercase media/subtype" % (mime_type,))
        actions = t.get("actions") if isinstance(t.get("actions"), list) else []
        for i, action in enumerate(actions):
            if not isinstance(action, dict) or "url_format" not in action:
                continue
            w = "%s: actions[%d] %r" % (where, i, action.get("key"))
            if not schemes:
                self.err(w, "a type-level url_format needs the type's 'schemes'")
                continue
            fmt = action["url_format"]
            self.check_format(w, fmt, params, False)
            if nonempty_str(fmt) and not fmt.startswith("{{") and fmt.split(":", 1)[0].lower() not in schemes:
                self.err(w, "a type-level url_format must be written in one of the type's schemes %r" % (schemes,))

    def check_named_list(self, where, t, field, need_description):
        items = t.get(field)
        keys = set()
        if not isinstance(items, list):
            self.err(where, "'%s' must be an array" % field)
            return keys
        for i, item in enumerate(items):
            w = "%s: %s[%d]" % (where, field, i)
            if not isinstance(item, dict):
                self.err(w, "must be an object")
                continue
            k = item.get("key")
            if not isinstance(k, str) or not KEY_RE.match(k):
                self.err(w, "key %r does not match ^[a-z0-9_]+$" % (k,))
                continue
            if k in keys:
                self.err(w, "duplicate key %r" % k)
            keys.add(k)
            if not nonempty_str(item.get("name")):
                self.err(w, "%r needs a name" % k)
            if need_description and not nonempty_str(item.get("description")):
                self.err(w, "%r needs a one-sentence description" % k)
        return keys

    # ------------------------------------------------------------------ app
    def check_app(self, where, type_key, i, a, params, actions):
        if not isinstance(a, dict):
            self.err("%s: apps[%d]" % (where, i), "must be an object")
            return
        self.app_count += 1
        key = a.get("key")
        w = "%s: app %r" % (where, key if key is not None else i)
        if not isinstance(key, str) or not KEY_RE.match(key):
            self.err(w, "app key must be snake_case (^[a-z0-9_]+$)")
        else:
            if key in self.app_keys:
                self.err(w, "app key already used in %s" % self.app_keys[key])
            else:
                self.app_keys[key] = where
            if key in UPSTREAM_APP_KEYS:
                self.err(w, "app key %r is an upstream iOS key; choose another" % key)
        if not nonempty_str(a.get("name")):
            self.err(w, "app needs a name")

        scheme = a.get("app_url_scheme")
        web = is_web_scheme(scheme)
        if not isinstance(scheme, str) or not scheme:
            self.err(w, "app needs an app_url_scheme")
        elif type_key == "browser":
            if scheme not in ("http:", "https:"):
                self.err(w, "the browser type holds installed browsers only (app_url_scheme 'http:'); "
                            "web apps and other schemes are not allowed there, got %r" % scheme)
        elif web:
            if not WEB_SCHEME_RE.match(scheme):
                self.err(w, "web app scheme must be an http(s)://host URL, got %r" % scheme)
        elif not SCHEME_RE.match(scheme):
            self.err(w, "app_url_scheme must be a scheme with its colon (e.g. 'mailto:'), got %r" % scheme)

        # desktop ids: required for native apps (and every browser), absent for web apps
        native = type_key == "browser" or not web
        ids = a.get("desktop_ids")
        if native:
            if not isinstance(ids, list) or not ids:
                self.err(w, "needs a non-empty desktop_ids list")
            else:
                seen = set()
                for d in ids:
                    if not isinstance(d, str) or not DESKTOP_ID_RE.match(d):
                        self.err(w, "bad desktop id %r (must end in .desktop)" % (d,))
                    elif d in seen:
                        self.err(w, "duplicate desktop id %r" % d)
                    else:
                        seen.add(d)
        elif ids is not None:
            self.err(w, "web apps open through the browser and carry no desktop_ids")

        if "profiles" in a or "private" in a or "new_window" in a:
            if type_key != "browser":
                self.err(w, "'profiles', 'private' and 'new_window' belong to browsers only")
            self.check_profiles(w, a.get("profiles"), ids if isinstance(ids, list) else [])
            self.check_options(w, "private", a.get("private"))
            self.check_options(w, "new_window", a.get("new_window"))

        docs = a.get("docs")
        if not isinstance(docs, str) or not DOCS_RE.match(docs):
            self.err(w, "needs a 'docs' https:// URL, got %r" % (docs,))
        if "note" in a and not nonempty_str(a["note"]):
            self.err(w, "'note' must be a non-empty string")

        app_actions = a.get("actions")
        if not isinstance(app_actions, list) or not app_actions:
            self.err(w, "needs a non-empty 'actions' array")
            return
        seen_actions = set()
        for j, act in enumerate(app_actions):
            aw = "%s action[%d]" % (w, j)
            if not isinstance(act, dict):
                self.err(aw, "must be an object")
                continue
            ak = act.get("key")
            if ak not in actions:
                self.err(aw, "action %r is not declared in the type's actions" % (ak,))
            if ak in seen_actions:
                self.err(aw, "action %r listed twice" % (ak,))
            seen_actions.add(ak)
            self.check_format(aw, act.get("url_format"), params, web and type_key != "browser")

    def check_profiles(self, w, profiles, ids):
        """`profiles` (README "Profiles and private windows"): a format, where each desktop ID's
        variant keeps its profile list, and the arguments that select a profile."""
        if profiles is None:
            return
        if not isinstance(profiles, dict):
            self.err(w, "'profiles' must be an object")
            return
        if profiles.get("format") not in PROFILE_FORMATS:
            self.err(w, "profiles format must be one of %r, got %r" % (PROFILE_FORMATS, profiles.get("format")))
        args = profiles.get("args")
        if not self.is_argument_list(args):
            self.err(w, "profiles args must be a non-empty array of non-empty strings")
        else:
            if not any(PROFILE_PLACEHOLDER in arg for arg in args):
                self.err(w, "profiles args must use %s" % PROFILE_PLACEHOLDER)
            for arg in args:
                if PLACEHOLDER_RE.sub("", arg.replace(PROFILE_PLACEHOLDER, "")) != arg.replace(PROFILE_PLACEHOLDER, ""):
                    self.err(w, "profiles arg %r has a placeholder other than %s" % (arg, PROFILE_PLACEHOLDER))
        paths = profiles.get("paths")
        if not isinstance(paths, dict) or not paths:
            self.err(w, "profiles paths must be a non-empty object of desktop ID -> path")
            return
        for desktop_id, written in paths.items():
            pw = "%s: profiles path of %r" % (w, desktop_id)
            if desktop_id not in ids:
                self.err(pw, "is not one of the app's desktop_ids")
            # An array: the places the browser chooses between, the one it used first.
            candidates = written if isinstance(written, list) and written else [written]
            for path in candidates:
                self.check_profile_path(pw, path, desktop_id)

    def check_profile_path(self, pw, path, desktop_id):
        """One place a variant keeps its profile list: under ~ or $XDG_CONFIG_HOME, and under
        a Flatpak's or Snap's own home for their IDs."""
        if not isinstance(path, str) or not path.startswith(("~/", "$XDG_CONFIG_HOME/")):
            self.err(pw, "must start with ~/ or $XDG_CONFIG_HOME/, got %r" % (path,))
            return
        snap = SNAP_ID_RE.match(desktop_id)
        flatpak = FLATPAK_ID_RE.match(desktop_id)
        if snap:
            homes = tuple("~/snap/%s/%s/" % (snap.group(1), part) for part in ("common", "current"))
            if not path.startswith(homes):
                self.err(pw, "a Snap keeps its files under %s or %s, got %r" % (homes[0], homes[1], path))
        elif flatpak:
            home = "~/.var/app/%s/" % flatpak.group(1)
            if not path.startswith(home):
                self.err(pw, "a Flatpak keeps its files under %s, got %r" % (home, path))
        elif path.startswith(("~/.var/app/", "~/snap/")):
            self.err(pw, "a distro package's files are not under a Flatpak's or Snap's home: %r" % path)

    def check_options(self, w, name, args):
        """`private`, `new_window`: the options that open a private window, a new window."""
        if args is None:
            return
        if not self.is_argument_list(args):
            self.err(w, "'%s' must be a non-empty array of non-empty strings" % name)
        elif not all(arg.startswith("-") and not PLACEHOLDER_RE.search(arg) for arg in args):
            self.err(w, "'%s' holds command-line options, without placeholders, got %r" % (name, args))

    @staticmethod
    def is_argument_list(value):
        return isinstance(value, list) and value and all(nonempty_str(v) for v in value)

    def check_format(self, w, fmt, params, web):
        if not nonempty_str(fmt):
            self.err(w, "needs a url_format")
            return
        if re.search(r"\s", fmt):
            self.err(w, "url_format contains whitespace")
        for name in PLACEHOLDER_RE.findall(fmt):
            if name not in params:
                self.err(w, "placeholder {{%s}} is not a declared parameter of the type" % name)
        rest = PLACEHOLDER_RE.sub("", fmt)
        if "{{" in rest or "}}" in rest:
            self.err(w, "unbalanced {{ }} in %r" % fmt)
        if fmt.startswith("{{"):
            return  # a leading placeholder supplies the whole URL or path
        if web:
            if not fmt.lower().startswith(("https://", "http://")):
                self.err(w, "a web app's url_format must be an http(s) URL, got %r" % fmt)
        elif not URL_START_RE.match(fmt):
            self.err(w, "url_format must start with a scheme or a placeholder, got %r" % fmt)


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    c = Checker(root)
    c.run()
    for p in c.problems:
        print("check.py: " + p, file=sys.stderr)
    if c.problems:
        print("catalog has %d problem(s)" % len(c.problems), file=sys.stderr)
        return 1
    print("catalog OK: %d app types, %d apps" % (c.type_count, c.app_count))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

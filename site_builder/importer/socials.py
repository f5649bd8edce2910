"""An al-folio author's social links, as ``author.links`` in site.yaml (``site_builder.profile``).

al-folio keeps them in ``_data/socials.yml`` since v0.13 (``github_username: octocat``,
``scholar_userid: ...``, ``mastodon_username: sigmoid.social/@me``), and in
``_config.yml`` before that, beside every other setting, so there only the keys
al-folio knows as socials are read. Each maps to the profile's link kind in a form
``profile.link_url`` accepts; a key with no kind here (Semantic Scholar, DBLP, a
custom social) is reported at its line, since the author may want to add it by hand.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from site_builder.importer.report import Note
from site_builder.profile import link_url

# al-folio's key -> the profile's link kind.
KINDS = {
    "email": "email",
    "github_username": "github",
    "scholar_userid": "scholar",
    "orcid_id": "orcid",
    "arxiv_id": "arxiv",
    "x_username": "x",
    "twitter_username": "x",  # before al-folio renamed it
    "mastodon_username": "mastodon",
    "bluesky_url": "bluesky",
    "linkedin_username": "linkedin",
}
# The other socials al-folio knows: read from ``_config.yml`` only to be reported.
OTHERS = frozenset({
    "acm_id", "blogger_url", "dblp_url", "discord_id", "facebook_id", "flickr_id",
    "gitlab_username", "hal_id", "ieee_id", "inspirehep_id", "instagram_id", "kaggle_id",
    "keybase_username", "lastfm_id", "lattes_id", "leetcode_id", "medium_username", "osf_id",
    "pinterest_id", "publons_id", "quora_username", "research_gate_profile", "scopus_id",
    "semanticscholar_id", "spotify_id", "stackoverflow_id", "strava_userid", "telegram_username",
    "unsplash_id", "wechat_qr", "whatsapp_number", "wikidata_id", "wikipedia_id", "work_url",
    "youtube_id", "zotero_username",
})  # fmt: skip
# Display switches in socials.yml, not links: the feed is in this site's header already.
SWITCHES = ("rss_icon",)
MASTODON_PATH = re.compile(r"(?:https?://)?([\w-]+(?:\.[\w-]+)+)/@([\w.]+)/?")


def read(source: Path, config: dict[str, Any], notes: list[Note]) -> dict[str, str]:
    """The profile's links from the site's socials, in al-folio's order; notes for the rest."""
    socials = source / "_data" / "socials.yml"
    if socials.is_file():
        data, text = read_yaml(socials, notes), socials.read_text(encoding="utf-8")
        where, keys = socials, list(data)
    else:  # an older al-folio: the socials among _config.yml's settings
        data, where = config, source / "_config.yml"
        text = where.read_text(encoding="utf-8") if where.is_file() else ""
        keys = [k for k in data if k in KINDS or k in OTHERS]
    links: dict[str, str] = {}
    for key in keys:
        value = data[key]
        if value is None or value == "" or key in SWITCHES:
            continue
        line = _line(text, key)
        kind = KINDS.get(key)
        if kind is None:
            why = "a custom social" if isinstance(value, dict) else f"no '{key}' link here"
            notes.append(Note(where, line, f"{key} not brought across: {why}"))
            continue
        value = _short_form(kind, str(value).strip())
        problem, _url = link_url(kind, value)
        if problem:
            notes.append(Note(where, line, f"{key} not brought across: {problem}"))
        elif kind in links:
            message = f"{key}: the profile has one {kind} link; the first is kept"
            notes.append(Note(where, line, message))
        else:
            links[kind] = value
    return links


def read_yaml(path: Path, notes: list[Note]) -> dict[str, Any]:
    """A YAML mapping of the old site (empty, with a note, if it does not read as one)."""
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, OSError, UnicodeDecodeError) as exc:
        mark = getattr(exc, "problem_mark", None)
        notes.append(Note(path, mark.line + 1 if mark else None, f"not read: {exc}"))
        return {}
    return data if isinstance(data, dict) else {}


def _short_form(kind: str, value: str) -> str:
    """al-folio writes a Mastodon account as ``instance/@user``; the profile, ``@user@instance``."""
    if kind == "mastodon":
        found = MASTODON_PATH.fullmatch(value)
        if found:
            return f"@{found.group(2)}@{found.group(1)}"
    return value


def _line(text: str, key: str) -> int | None:
    found = re.search(rf"(?m)^{re.escape(key)}[ \t]*:", text)
    return text.count("\n", 0, found.start()) + 1 if found else None


LINE_BREAK = re.compile(r"(?i)<br\s*/?>|</?(?:p|div)\b[^>]*>")


def html_lines(value: str) -> list[str]:
    """al-folio's ``subtitle`` and ``more_info`` are HTML lines: each line as Markdown,
    links kept, icons and styling dropped."""
    value = re.sub(
        r"(?is)<a\b[^>]*?\bhref\s*=\s*[\"']?([^\"'\s>]+)[^>]*>(.*?)</a\s*>",
        lambda m: f"[{plain(m.group(2))}]({m.group(1)})",
        value,
    )
    return [text for text in (_text(part) for part in LINE_BREAK.split(value)) if text]


def plain(value: str) -> str:
    """The text of HTML lines on one line, a middle dot between them (a description)."""
    return " · ".join(t for t in (_text(part) for part in LINE_BREAK.split(value)) if t)


def _text(value: str) -> str:
    """Text without its tags, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", value)).split())

"""``author:`` as a profile: what site.yaml accepts, where it says a mistake is, and what
the home page and its JSON-LD show."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from site_builder.config import load_config
from site_builder.errors import BuildError
from site_builder.meta import home_meta
from site_builder.profile import link_url
from tests.pubsite import make_site, parse_html, render

PROFILE = """author:
  name: Yichi Zhang
  photo: img/me.png
  bio: PhD student at [Michigan](https://umich.edu), on *embodied* agents.
  links:
    github: 594zyc
    scholar: xkBBhY8AAAAJ
    orcid: 0000-0002-1825-0097
    arxiv: zhang_y_1
    x: "@yichi"
    mastodon: "@yichi@sigmoid.social"
    bluesky: yichi.bsky.social
    linkedin: yichi-zhang
    email: yichi@example.org"""


def _site(tmp_path: Path, author: str) -> Path:
    return make_site(tmp_path / "site", author, "12wang3.bib")


def test_the_string_form_still_works(tmp_path: Path) -> None:
    config = load_config(_site(tmp_path, "author: Zhuo Wang"))
    assert config.author == "Zhuo Wang" and config.profile is None
    assert home_meta(config).json_ld == ""  # no profile, no Person: the home page as before


def test_the_mapping_form(tmp_path: Path) -> None:
    config = load_config(_site(tmp_path, PROFILE))
    profile = config.profile
    assert profile is not None
    assert config.author == profile.name == "Yichi Zhang"  # templates keep using the name
    assert profile.photo is not None
    assert (profile.photo.path, profile.photo.width, profile.photo.height) == (
        "static/img/me.png",
        96,
        120,
    )
    assert [(link.kind, link.url) for link in profile.links] == [
        ("github", "https://github.com/594zyc"),
        ("scholar", "https://scholar.google.com/citations?user=xkBBhY8AAAAJ"),
        ("orcid", "https://orcid.org/0000-0002-1825-0097"),
        ("arxiv", "https://arxiv.org/a/zhang_y_1"),
        ("x", "https://x.com/yichi"),
        ("mastodon", "https://sigmoid.social/@yichi"),
        ("bluesky", "https://bsky.app/profile/yichi.bsky.social"),
        ("linkedin", "https://www.linkedin.com/in/yichi-zhang"),
        ("email", "mailto:yichi@example.org"),
    ]


def test_the_home_page_shows_photo_bio_and_labelled_icons(tmp_path: Path) -> None:
    rendered = render(_site(tmp_path, PROFILE))
    section = parse_html(rendered.home).find("section", "profile")
    assert section is not None
    img = section.find("img")
    assert img is not None
    assert img.attrs == {
        "class": "profile-photo",
        "src": "static/img/me.png",  # relative to the home page: works under any base path
        "alt": "Photo of Yichi Zhang",
        "width": "96",
        "height": "120",
    }
    bio = section.find("div", "profile-bio")
    assert bio is not None and bio.text.strip() == "PhD student at Michigan, on embodied agents."
    links = section.find_all("a")[1:]  # the bio's own link first
    assert len(links) == 9
    for link in links:
        svg = link.find("svg")
        assert svg is not None and svg.attrs["aria-hidden"] == "true"
        assert svg.find("path") is not None  # drawn inline: no icon font, no request
        assert link.find("span", "visually-hidden") is not None
        assert link.attrs["title"] == link.text  # the accessible name, also shown on hover
    rels = {link.text: link.attrs.get("rel") for link in links}
    assert rels["Mastodon"] == "me"
    assert [name for name, rel in rels.items() if rel] == ["Mastodon"]
    assert "<link" not in rendered.home.split("</head>")[1]  # no stylesheet in the body


def test_the_json_ld_is_a_person(tmp_path: Path) -> None:
    rendered = render(_site(tmp_path, PROFILE))
    found = re.search(r'<script type="application/ld\+json">(.*?)</script>', rendered.home)
    assert found is not None
    assert json.loads(found.group(1)) == {
        "@context": "https://schema.org",
        "@type": "Person",
        "name": "Yichi Zhang",
        "url": "https://example.org/",
        "image": "https://example.org/static/img/me.png",
        "description": "PhD student at Michigan, on embodied agents.",
        "email": "mailto:yichi@example.org",
        "sameAs": [
            "https://github.com/594zyc",
            "https://scholar.google.com/citations?user=xkBBhY8AAAAJ",
            "https://orcid.org/0000-0002-1825-0097",
            "https://arxiv.org/a/zhang_y_1",
            "https://x.com/yichi",
            "https://sigmoid.social/@yichi",
            "https://bsky.app/profile/yichi.bsky.social",
            "https://www.linkedin.com/in/yichi-zhang",
        ],
    }


@pytest.mark.parametrize(
    ("author", "line", "message"),
    [
        ("author:\n  nmae: A B", 3, "unknown key 'nmae' in author (did you mean 'name'?)"),
        ("author:\n  bio: hi", 2, "'author' needs a 'name' (text)"),
        ("author:\n  name: ''", 3, "'author' needs a 'name' (text)"),
        ("author:\n  name: A B\n  photo: img/none.png", 4, "photo not found: static/img/none.png"),
        ("author:\n  name: A B\n  photo: ../site.yaml", 4,
         "the photo must be a file under static/, got '../site.yaml'"),
        ("author:\n  name: A B\n  photo: css/site.css", 4,
         "cannot read the size of static/css/site.css: use a PNG, JPEG, GIF or WebP"),
        ("author:\n  name: A B\n  bio: [a, b]", 4, "author 'bio' must be text"),
        ("author:\n  name: A B\n  links: [github]", 4,
         "author 'links' must be a mapping such as {github: octocat}"),
        ("author:\n  name: A B\n  links:\n    githbu: octocat", 5,
         "unknown key 'githbu' in author.links (did you mean 'github'?)"),
        ("author:\n  name: A B\n  links:\n    facebook: me", 5,
         "unknown key 'facebook' in author.links (known: github, scholar, orcid, arxiv, x, "
         "mastodon, bluesky, linkedin, email)"),
        ("author:\n  name: A B\n  links:\n    github: octocat\n    orcid: 1234", 6,
         "author link 'orcid': '1234' is not a URL nor 0000-0002-1825-0097"),
        ("author:\n  name: A B\n  links:\n    mastodon: me", 5,
         "author link 'mastodon': 'me' is not a URL nor @user@instance.social"),
        ("author:\n  name: A B\n  links:\n    email: 12", 5,
         "author link 'email': '12' is not a URL nor you@example.org"),
        ("author:\n  name: A B\n  links:\n    email: [a]", 5,
         "author link 'email' must be text, such as you@example.org"),
    ],
)  # fmt: skip
def test_profile_mistakes_stop_at_their_line(
    tmp_path: Path, author: str, line: int, message: str
) -> None:
    # site.yaml's first line is the title, so the author block starts on line 2
    with pytest.raises(BuildError) as caught:
        load_config(_site(tmp_path, author))
    assert str(caught.value) == f"site.yaml:{line}: {message}"


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("publications: missing.bib", "site.yaml:4: publications file not found: missing.bib"),
        ("publications: papers.txt", "site.yaml:4: 'publications' must name a .bib file"),
    ],
)
def test_publications_setting(tmp_path: Path, value: str, problem: str) -> None:
    root = make_site(tmp_path / "site", "author: A B")
    (root / "site.yaml").write_text(
        (root / "site.yaml").read_text(encoding="utf-8") + value + "\n", encoding="utf-8"
    )
    with pytest.raises(BuildError) as caught:
        load_config(root)
    assert str(caught.value) == problem


@pytest.mark.parametrize(
    ("kind", "value", "url"),
    [
        ("github", "https://github.com/octocat", "https://github.com/octocat"),  # a URL as is
        ("github", "@octocat", "https://github.com/octocat"),
        ("x", "https://twitter.com/someone", "https://twitter.com/someone"),
        ("mastodon", "https://fosstodon.org/@me", "https://fosstodon.org/@me"),
        ("bluesky", "did:plc:abc123", "https://bsky.app/profile/did:plc:abc123"),
        ("email", "mailto:me@example.org", "mailto:me@example.org"),
        ("orcid", "0000-0001-5109-370X", "https://orcid.org/0000-0001-5109-370X"),
    ],
)
def test_link_forms(kind: str, value: str, url: str) -> None:
    assert link_url(kind, value) == ("", url)


def test_a_javascript_url_is_not_a_link() -> None:
    problem, url = link_url("github", "javascript:alert(1)")
    assert problem and not url

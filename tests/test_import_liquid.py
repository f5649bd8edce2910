"""Jekyll's Liquid loops and includes run on import, as Jekyll ran them (issue 25): a blind
set's project notes looped over their front matter to include one code file per language,
and over ``site.data`` to draw a table of timings."""

from __future__ import annotations

import re
from pathlib import Path

from site_builder.importer import import_posts
from site_builder.importer.report import ImportReport
from tests.conftest import ROOT, make_site

POST = """---
title: Models
langs: "Julia,Python"
nburl: "https://example.org/nb"
---

Fit in each language:

{% assign lang_array = page.langs | split: ',' %}

{% for lang in lang_array %}
  {% assign lower = lang | downcase %}

<div class="code" id="{{lower}}">
<p>
  <a href="{{page.nburl}}/fit_{{lower}}.ipynb">Full {{lang}} example</a>
</p>
    {% if lower == "julia" %}
      {% highlight julia %}{% include_relative snippets/fit_{{lower}}.jl %}{% endhighlight %}
    {% else %}
      {% highlight python %}{% include_relative snippets/fit_{{lower}}.py %}{% endhighlight %}
    {% endif %}
</div>
{% endfor %}

<table id="times">
  {% for row in site.data.timings.fit %}
    {% if forloop.first %}
    <tr>
      {% for pair in row %}
        <th>{{ pair[0] }}</th>
      {% endfor %}
    </tr>
    {% endif %}

    {% tablerow pair in row %}
      {{ pair[1] }}
    {% endtablerow %}
  {% endfor %}
</table>

{% for post in site.posts %}
- {{ post.title }}
{% endfor %}
"""


def old_site(root: Path) -> Path:
    (root / "_posts" / "snippets").mkdir(parents=True)
    (root / "_data" / "timings").mkdir(parents=True)
    (root / "_config.yml").write_text("title: Old\nbaseurl: /old\n")
    (root / "_data" / "timings" / "fit.csv").write_text("lang,seconds\njulia,1.5\npython,2.5\n")
    (root / "_posts" / "snippets" / "fit_julia.jl").write_text("using Turing\n\nx = 1\n")
    (root / "_posts" / "snippets" / "fit_python.py").write_text("import pyro\n\nx = 1\n")
    (root / "_posts" / "2020-07-26-models.md").write_text(POST)
    return root


def import_one(tmp_path: Path, post: str) -> tuple[str, ImportReport]:
    """``post`` as ``old/_posts/2020-01-01-a.md``, imported: its Markdown and the report."""
    old = tmp_path / "old"
    (old / "_posts").mkdir(parents=True)
    (old / "_posts" / "2020-01-01-a.md").write_text(post)
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content" / "posts")
    return (site / "content" / "posts" / "a.md").read_text(), report


def test_liquid_loops_over_page_and_site_data_are_run_and_files_included(
    tmp_path: Path,
) -> None:
    from site_builder.build import build
    from site_builder.config import load_config

    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old_site(tmp_path / "old"), site / "content" / "posts")
    written = (site / "content" / "posts" / "models.md").read_text()
    # one block per language, each with its file as a code block set off from the <div>
    assert '<div class="code" id="julia">' in written
    assert '<a href="https://example.org/nb/fit_python.ipynb">Full Python example</a>' in written
    assert "</p>\n\n```julia\nusing Turing\n\nx = 1\n```\n\n</div>" in written
    assert "```python\nimport pyro\n\nx = 1\n```" in written
    # the CSV's rows as a table: one HTML block, no blank line or indented tag to break it
    table = written[written.index('<table id="times">') : written.index("</table>")]
    assert "\n\n" not in table and "\n <" not in table
    assert "<th>lang</th>\n<th>seconds</th>" in table and "2.5" in table
    # a loop over what the import cannot know (site.posts) stays, named at its line
    notes = [str(n) for n in report.notes]
    assert notes == [
        "old/_posts/2020-07-26-models.md:42: Liquid {% for post in site.posts %} block kept: "
        "site.posts is undefined",
        "old/_posts/2020-07-26-models.md:42: Liquid tag not converted: "
        "{% for post in site.posts %}",
        "old/_posts/2020-07-26-models.md:43: Liquid expression not converted: {{ post.title }}",
        "old/_posts/2020-07-26-models.md:44: Liquid tag not converted: {% endfor %}",
    ]
    assert "assign" not in written
    build(load_config(site), site / "public")
    page = (site / "public" / "posts" / "models" / "index.html").read_text()
    code = " ".join(re.findall(r"(?s)<pre\b.*?</pre>", page))
    assert "Turing" in code and "pyro" in code and "<th>seconds</th>" in page
    shown = re.sub(r"(?s)<!--.*?-->", "", page)
    assert "include_relative" not in shown and "{{" not in shown and "{%" not in shown


def test_an_include_relative_outside_the_site_or_missing_is_left_out_and_named(
    tmp_path: Path,
) -> None:
    (tmp_path / "secret.txt").write_text("secret\n")
    written, report = import_one(
        tmp_path,
        "---\ntitle: A\n---\n\nOne.\n\n{% include_relative ../../secret.txt %}\n\n"
        "{% include_relative gone.md %}\n",
    )
    assert "secret\n" not in written.replace("secret.txt", "")
    assert [str(n) for n in report.notes] == [
        "old/_posts/2020-01-01-a.md:7: include_relative ../../secret.txt: "
        "no such text file in the site; left out",
        "old/_posts/2020-01-01-a.md:9: include_relative gone.md: "
        "no such text file in the site; left out",
    ]


def test_page_values_are_filled_in_and_a_heading_repeating_the_title_goes(tmp_path: Path) -> None:
    """``# {{page.title}}`` under a comment (the project notes' layout): Jekyll wrote the
    title there, which the template shows already; ``{{ page.subtitle }}`` is its value;
    ``{{ "now" | date }}`` (the time of the build) is no front matter value: reported."""
    written, report = import_one(
        tmp_path,
        "---\ntitle: GP models\nsubtitle: In five languages\n---\n\n<!--\nnote\n-->\n\n"
        '# {{page.title}}\n\n*{{ page.subtitle | upcase }}*, {{ "now" | date: "%Y" }}.\n',
    )
    assert "# GP models" not in written and "<!--\nnote\n-->" in written
    assert "*IN FIVE LANGUAGES*, <!-- not imported:" in written
    assert [str(n) for n in report.notes] == [
        'old/_posts/2020-01-01-a.md:12: Liquid expression not converted: {{ "now" | date: "%Y" }}'
    ]


def test_page_previous_and_next_link_the_posts_around_it(tmp_path: Path) -> None:
    """``[the previous post]({{ page.previous.url }})`` (a series): Jekyll's post before this
    one by date, at its address here; the first post has none, which is reported."""
    old = tmp_path / "old"
    (old / "_posts").mkdir(parents=True)
    for name in ("2020-02-15-Proximal", "2020-04-04-Prox-Linear", "2024-01-25-Bernstein"):
        (old / "_posts" / f"{name}.md").write_text(
            "---\ntitle: T\n---\n\nIn the [previous post]({{ page.previous.url }}), "
            "then [the next]({{ page.next.url }}).\n"
        )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content" / "posts")
    middle = (site / "content" / "posts" / "prox-linear.md").read_text()
    assert "[previous post](../proximal/), then [the next](../bernstein/)." in middle
    assert [str(n) for n in report.notes] == [
        "old/_posts/2020-02-15-Proximal.md:5: Liquid expression not converted: "
        "{{ page.previous.url }}",
        "old/_posts/2024-01-25-Bernstein.md:5: Liquid expression not converted: "
        "{{ page.next.url }}",
    ]

"""Untrusted text (record fields, file names, the URL) on a Streamlit page, never as markup.

Streamlit renders Markdown (and, with ``unsafe_allow_html``, HTML) in ``st.markdown``,
``st.title``, ``st.caption``, alerts, radio options and tooltips: a record's side, modifier
reason or title could put a link, a remote image or a styled span into the page. Free text goes
out through ``st.text``/``st.code`` (no Markdown at all); where a Markdown element is needed for
the layout, :func:`escape_markdown` makes the text literal.
"""

from __future__ import annotations

import html
import re

# CommonMark lets any ASCII punctuation character be backslash-escaped, which makes it literal.
# Escaped: every character that starts or ends some Markdown, GFM or Streamlit syntax (emphasis,
# links, images, autolinks such as www.x.y or a@b.c, code, HTML tags and entities, headings,
# lists, tables, strike-through, directives such as :red[x], math). Left alone, for readable
# text: , ; ? / ' " % = (no syntax on one line).
_SYNTAX = re.compile(r"""([\\`*_{}\[\]<>()#+\-.!|~:$@&^])""")


# GFM turns bare URLs and e-mail addresses into links *after* escapes are resolved (the
# "autolink literal" extension scans the text), so a backslash cannot stop it: an invisible
# WORD JOINER (U+2060) between "http"/"www"/"mailto"/"xmpp" and what follows, and before "@",
# breaks the patterns while the text reads the same.
WORD_JOINER = "\u2060"
_AUTOLINK_START = re.compile(r"(https?|www|mailto|xmpp)(?=[:.])", re.IGNORECASE)


def escape_markdown(text: object) -> str:
    """``text`` as literal Markdown on one line: every character that could be Markdown syntax
    escaped, bare URLs and e-mail addresses defused, runs of whitespace (line breaks included)
    one space."""
    one_line = " ".join(str(text).split())
    defused = _AUTOLINK_START.sub(rf"\1{WORD_JOINER}", one_line).replace("@", WORD_JOINER + "@")
    return _SYNTAX.sub(r"\\\1", defused)


def escape_plotly(text: object) -> str:
    """``text`` for a Plotly label or hover text, which understand a few HTML tags (links,
    spans with styles): entities are shown as the characters they stand for."""
    return html.escape(str(text), quote=True)

"""Who a viewer page is for (issue 20): locally (``wake view``, ``wake scribe``) the person at
the machine, who may see everything and view as any side; in hosted mode (``wake serve``) what
the capability link in the page's address allows — a side's view, the umpire's, or without a
valid link what every side has seen. The link's token is checked against the hashes the store
keeps; nothing else in the address says who someone is."""

from __future__ import annotations

import argparse

import streamlit as st

from domain.errors import WakeError
from domain.scribe.table import Access, resolve
from domain.store import GameStore

TOKEN_PARAM = "key"


@st.cache_resource(max_entries=4)
def _store(location: str) -> GameStore:
    return GameStore(location)


def page_access(args: argparse.Namespace) -> Access:
    """This page's access: ``local`` unless the server runs hosted."""
    if not getattr(args, "hosted", False):
        return Access("local")
    token = st.query_params.get(TOKEN_PARAM)
    try:
        return resolve(_store(args.store), token)
    except WakeError:
        return Access("public")

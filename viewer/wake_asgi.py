"""Wake's viewer server: the Streamlit app (``viewer/app.py``) as an ``st.App`` with one more
route, the components' files served for good (``viewer/asset_route.py``). ``wake view``,
``wake serve`` and ``wake scribe`` run this file with ``streamlit run``, which finds ``app``
here and serves it; the script arguments after ``--`` reach ``app.py`` as before."""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from streamlit import config

from viewer.asset_route import asset_routes
from viewer.components import serve_by_route

serve_by_route()
app = st.App(
    Path(__file__).with_name("app.py"),
    routes=asset_routes(str(config.get_option("server.baseUrlPath") or "")),
)

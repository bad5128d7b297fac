"""Wake's viewer server: the Streamlit app (``viewer/app.py``) as an ``st.App`` with two more
routes: the components' files served for good (``viewer/asset_route.py``) and a scribe's
page asking whether its game moved on (``viewer/scribe/watch.py``). ``wake view``,
``wake serve`` and ``wake scribe`` run this file with ``streamlit run``, which finds ``app``
here and serves it; the script arguments after ``--`` reach ``app.py`` as before."""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from streamlit import config

from viewer.asset_route import asset_routes
from viewer.components import serve_by_route
from viewer.scribe.watch import watch_routes

serve_by_route()
_base = str(config.get_option("server.baseUrlPath") or "")
app = st.App(Path(__file__).with_name("app.py"), routes=asset_routes(_base) + watch_routes(_base))

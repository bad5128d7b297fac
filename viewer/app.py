"""Wake replay viewer, the script Streamlit runs (``wake view``; or ``streamlit run
viewer/app.py -- [--store S] [--game ID | --record F]``). The pages live in
``viewer/replay_app.py``, a module: Python compiles it once per process, whereas Streamlit
compiles its script again whenever the last page was closed (issue 21 item 12)."""

from viewer.replay_app import run_pages

run_pages()

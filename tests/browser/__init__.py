"""Browser tests of the Streamlit replay viewer (real Chromium via Playwright, no pytest plugin)."""

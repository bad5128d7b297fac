"""Wake replay viewer (Streamlit); knows read models only, never rules."""

"""The scribe's page (issue 20): recording a real tabletop game in the browser."""

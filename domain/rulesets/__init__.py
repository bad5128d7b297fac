"""Rule systems implemented on the Wake engine."""

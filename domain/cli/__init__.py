"""The ``wake`` command-line interface."""

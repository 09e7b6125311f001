"""Figures: every plot function takes ``ax=None`` (or ``axes=None`` for a grid), creates what it
needs, and returns what it drew on."""

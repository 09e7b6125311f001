"""Experiments: what the chapter, the notebooks and the main job measure, returned as
dataclasses. Nothing here prints or draws."""

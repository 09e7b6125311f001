"""The main job: the command line and its sections, the only layer that prints."""

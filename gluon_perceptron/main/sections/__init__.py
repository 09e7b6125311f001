"""The main job's sections, one module per part of the chapter. A section is a function
``section(opts: Options) -> list[Path]``: it runs experiments, draws their figures, saves them
and prints a short summary."""

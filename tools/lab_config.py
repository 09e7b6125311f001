"""JupyterLab's configuration for the project's notebooks (``bash run.sh notebooks`` and the
JupyterLab test pass it with ``--config``).

A notebook that names the project's kernel (``gluon-perceptron``) is served with the
``language_info`` that kernel reports (this Python's version: the kernel is ``.venv``'s Python,
as is the server). Without it, JupyterLab writes the kernel's ``language_info`` into the
notebook as soon as the kernel starts, and marks every notebook modified when it opens. The
sources keep no ``language_info`` (it names a Python version): jupytext's
``notebook_metadata_filter`` in ``pyproject.toml`` drops it again when a notebook is saved.
"""

import platform

from jupytext.async_contentsmanager import AsyncTextFileContentsManager

KERNEL = "gluon-perceptron"
#: What ipykernel reports for this Python (``IPythonKernel.language_info``).
LANGUAGE_INFO = {
    "name": "python", "version": platform.python_version(), "mimetype": "text/x-python",
    "codemirror_mode": {"name": "ipython", "version": 3}, "pygments_lexer": "ipython3",
    "nbconvert_exporter": "python", "file_extension": ".py",
}


class ProjectContentsManager(AsyncTextFileContentsManager):
    """jupytext's contents manager (the .py sources open as notebooks), which also gives the
    project's notebooks their kernel's ``language_info``."""

    async def get(self, path, content=True, type=None, format=None, **kwargs):
        model = await super().get(path, content=content, type=type, format=format, **kwargs)
        if content and model.get("type") == "notebook":
            metadata = model["content"]["metadata"]
            if metadata.get("kernelspec", {}).get("name") == KERNEL:
                metadata.setdefault("language_info", dict(LANGUAGE_INFO))
        return model


c = get_config()  # noqa: F821 - the name Jupyter's config loader provides
c.ServerApp.contents_manager_class = ProjectContentsManager

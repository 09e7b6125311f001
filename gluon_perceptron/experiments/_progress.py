"""Progress without printing: experiments take an optional ``progress`` callable.

Experiments never print or draw progress bars themselves. A long loop runs over
``track(items, progress, desc=...)``: with ``progress=None`` (the default) that is ``items``
itself; the main job passes ``functools.partial(tqdm, disable=...)``, a notebook may pass
``tqdm.auto.tqdm``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

#: A wrapper like ``tqdm``: called as ``progress(items, desc=..., total=...)``, returns an iterable.
Progress = Callable[..., Iterable[Any]]


def track(items: Iterable[Any], progress: Progress | None, **labels) -> Iterable[Any]:
    """``items`` itself, or wrapped by ``progress(items, **labels)`` when one is given."""
    return items if progress is None else progress(items, **labels)

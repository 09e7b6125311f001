"""The chapter's own code: ``getfake`` (its sampler, one candidate at a time) and the
perceptron step that updates ``w, b`` in place; and both in MXNet's NumPy interface
(``getfake_np``, ``perceptron_np``), as *Dive into Deep Learning* writes MXNet today.

Public names load on first use.
"""

from .._lazy import export

__all__, __getattr__, __dir__ = export(__name__, {
    "sampler": ("getfake", "PRINTED_TRACE", "SamplingError"),
    "perceptron_step": ("perceptron",),
    "numpy_interface": ("getfake_np", "perceptron_np"),
})

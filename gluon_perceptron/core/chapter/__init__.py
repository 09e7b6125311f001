"""The chapter's own code: ``getfake`` (its sampler, one candidate at a time) and the
perceptron step that updates ``w, b`` in place; and both in MXNet's NumPy interface
(``getfake_np``, ``perceptron_np``), as *Dive into Deep Learning* writes MXNet today.

Public names load on first use; ``getfake`` itself is reached as ``gp.getfake`` (the module
:mod:`.getfake` has its name, so the package cannot export the function under it).
"""

from .._lazy import export

__all__, __getattr__, __dir__ = export(__name__, {
    "getfake": ("PRINTED_TRACE", "SamplingError"),
    "step": ("perceptron",),
    "numpy_interface": ("getfake_np", "perceptron_np"),
})

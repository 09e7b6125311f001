"""The chapter's own code: ``getfake`` (its sampler, one candidate at a time) and the
perceptron step that updates ``w, b`` in place."""

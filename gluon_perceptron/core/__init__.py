"""The algorithms: data, the chapter's code, the epoch kernel, losses, SGD, Gluon, geometry and
bounds, multiclass, relaxation and datasets. Nothing here imports pyplot or tqdm, or prints."""

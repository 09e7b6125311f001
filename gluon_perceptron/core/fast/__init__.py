"""Private compiled or vectorised twins of the readable trainers (``engine="fast"``), each tested bit for bit against its readable loop."""

"""The theory, computed: separability and margins (linear and quadratic programs), the mistake
bounds, the relaxation method, and what a perceptron can express."""

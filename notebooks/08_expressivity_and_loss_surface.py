# %% [markdown]
# # 8. Expressivity and the loss surface
#
# A single perceptron can compute AND, OR and NOT, but not XOR. And its training rule is a
# subgradient step on a piecewise-linear loss, which we can draw for a two-point example.

# %%
import matplotlib.pyplot as plt
import numpy as np

import gluon_perceptron as gp

# %% [markdown]
# ## AND, OR, NOT
#
# Encode true as +1 and false as −1, and read the perceptron lin(x) = w·x + b as true when
# it is positive. The book's weights are AND = x₁ + x₂ − 1, OR = x₁ + x₂ + 1, NOT = −x₁.
# The truth tables:

# %%
for name in gp.theory.BOOLEAN_PERCEPTRONS:
    print(gp.experiments.format_truth_table(name))

# %% [markdown]
# No score is ever 0, so each table is unambiguous. The perceptron rule also *finds* weights
# for these functions when trained on their truth tables:

# %%
for name in ("AND", "OR", "NOT"):
    run = gp.theory.learn_boolean(name)
    X, Y = gp.theory.boolean_data(name)
    print(f"{name}: converged={run.converged} after {run.updates} updates, w={run.w}, "
          f"b={run.b}, table correct: {np.array_equal(gp.predict(run.w, run.b, X), Y)}")

# %% [markdown]
# ## XOR has no perceptron
#
# XOR wants lin < 0 at (−1,−1) and (+1,+1), and lin > 0 at (−1,+1) and (+1,−1). Add the
# first two conditions: 2b < 0. Add the last two: 2b > 0. No (w, b) can do both (Minsky and
# Papert). A linear program (`gp.theory.is_separable`) agrees. The perceptron never stops
# updating: every pass makes a mistake, and its weights go around a cycle.

# %%
X, Y = gp.xor_data()
print("separable:", gp.theory.is_separable(X, Y))
run = gp.theory.learn_boolean("XOR", max_epochs=1000)
path, period = gp.theory.xor_cycle()
print(f"after {run.epochs} passes: converged={run.converged}, updates per pass "
      f"{sorted(set(run.updates_per_epoch))}")
print(f"the weights at the end of a pass repeat every {period} pass(es); largest |weight| "
      f"seen: {np.abs(path.thetas).max():g}")

# %% [markdown]
# ## The loss surface of a two-point example
#
# Without a bias (pad a constant feature if you need one), the perceptron's loss on an
# example is max(0, −y w·x). For (1,1) labelled −1 and (2,1) labelled +1, the total is
#
# L(w) = max(0, w₁ + w₂) + max(0, −2w₁ − w₂).
#
# It is zero on the cone w₁ + w₂ ≤ 0 ≤ 2w₁ + w₂ (shaded below) and rises linearly
# elsewhere (level sets 1, 2, …). From w = 0 the perceptron updates on every example with
# y w·x ≤ 0, and the path zig-zags into the zero-loss cone.

# %%
path = gp.rosenblatt.update_path(*gp.theory.two_point_data(), max_epochs=100, bias=False)
print(f"{path.updates} updates, converged={path.converged}, final w = {path.w}, "
      f"loss there = {gp.theory.total_perceptron_loss(path.w, *gp.theory.two_point_data())}")
gp.plots.plot_loss_surface(path=path)
plt.show()

# %% [markdown]
# The run stops at w = (2, −3), inside the cone, where both examples have margin exactly 1.
# The updates are subgradient steps on L with step 1. At the kink y w·x = 0 the rule takes
# the subgradient −y x, the one that moves, and that is how the run leaves w = 0.

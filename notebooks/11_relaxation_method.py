# %% [markdown]
# # 11. The relaxation method: the perceptron as a solver of inequalities
#
# Pad each example with a constant 1 and fold its label in, $a_i = y_i\,(x_i, 1)$, and the
# perceptron's task becomes a system of linear inequalities in $\tilde w = (w, b)$: find
# $\tilde w$ with $a_i^\top \tilde w > 0$ for every $i$, problem (1.3) of the notes.
#
# In 1954 Agmon, and Motzkin and Schoenberg, solved *any* system $A^\top w \le c$ (one
# inequality $a_i^\top w \le c_i$ per column of $A$) with a close cousin of the perceptron.
# Pick an inequality $I_t$; if it is violated, move $w$ towards its half-space:
#
# $$w \leftarrow w - \eta\, \frac{(a_{I_t}^\top w - c_{I_t})^+}{\|a_{I_t}\|^2}\, a_{I_t},
# \qquad \eta \in (0, 2].$$
#
# With $\eta = 1$ the step lands exactly on the boundary: an orthogonal projection. With
# $\eta = 2$ it goes as far again on the other side: a reflection. Values in between under- or
# over-shoot. Unlike the perceptron, whose step has a fixed length, the step here is as long
# as the violation requires.

# %%
import numpy as np

import gluon_perceptron as gp
from gluon_perceptron.core.relaxation import RULES

# %% [markdown]
# ## Projections against reflections, in the plane
#
# Two inequalities, $|w_2| \le 0.1\,(w_1 - 1)$, leave a thin wedge with its apex at $(1, 0)$.
# Start at $(0, 0.5)$ and visit the two inequalities in turn. Projections land on one edge,
# which puts them outside the other, and the zig-zag creeps towards the apex in ever smaller
# steps without getting in. Reflections overshoot and are inside after 13 steps.

# %%
A, c = gp.wedge_system(0.1)
w0 = np.array([0.0, 0.5])
runs = {f"eta = {eta:g}": gp.relaxation_method(A, c, eta=eta, w0=w0, max_iterations=60,
                                                record=True)
        for eta in (1.0, 2.0)}
gp.plot_wedge_paths(runs, A, c)
for name, res in runs.items():
    print(f"{name}: converged={res.converged} after {res.iterations} iterations, "
          f"max violation {res.max_violation:.2e}")

# %% [markdown]
# Exact feasibility is too much to ask of projections: they approach such a corner only
# geometrically. So `gp.relaxation_method` stops when every inequality holds up to a small
# `tol` (default $10^{-9}$), never runs past `max_iterations`, and reports `converged=True`
# only after checking the returned $w$ against every inequality, straight from `A` and `c`.

# %%
exact = gp.relaxation_method(A, c, eta=1.0, w0=w0, max_iterations=2000, tol=0.0)
tolerant = gp.relaxation_method(A, c, eta=1.0, w0=w0, max_iterations=2000)
print("tol = 0:    converged", exact.converged, "after", exact.iterations, "iterations")
print("tol = 1e-9: converged", tolerant.converged, "after", tolerant.iterations, "iterations")

# %% [markdown]
# ## "0 or not 0" as a system of inequalities
#
# `gp.perceptron_system(X, Y)` builds the system for a labelled dataset: column
# $a_i = -y_i\,(x_i, 1)$ and $c_i = -1$, so that $a_i^\top \tilde w \le c_i$ says
# $y_i\,(w^\top x_i + b) \ge 1$. Any positive right-hand side would do, since scaling a
# solution scales its margins; 1 just turns the strict "$> 0$" into a closed system the
# method can reach. On the 8x8 digits of notebook 9 that is 1,348 inequalities in 65 unknowns.

# %%
split = gp.digits_split(seed=0)
Y = gp.one_vs_rest(split.y_train, 0)
A, c = gp.perceptron_system(split.X_train, Y)
print("A:", A.shape, " c:", c.shape)

# %% [markdown]
# ## Which inequality next?
#
# Remark 1.38 of the notes lists ways to choose $I_t$:
#
# * **cyclic**: $1, 2, \dots, n, 1, 2, \dots$, as the perceptron does;
# * **randomized**: independently, with probability proportional to $\|a_i\|^2$;
# * **permuted**: a fresh random order in every epoch;
# * **maximal distance**: the half-space farthest from $w$,
#   $\max_i (a_i^\top w - c_i)^+ / \|a_i\|$;
# * **maximal residual**: the largest violation $\max_i (a_i^\top w - c_i)^+$.
#
# The first three pick an index blind and often find it already satisfied (an iteration with
# no move); the greedy two look at every inequality and always move. We count *iterations*,
# moves or not, until the system is solved, with a bound of 50 epochs.

# %%
table = gp.compare_rules(A, c, max_iterations=50 * len(Y))
gp.plot_rule_comparison(table)
print("rule           " + "".join(f"eta={eta:<8g}" for eta in gp.ETAS))
for rule in RULES:
    print(f"{rule:15s}" + "".join(
        f"{table[(rule, eta)].iterations:<8d}{' ' if table[(rule, eta)].converged else '*'}   "
        for eta in gp.ETAS))
print("* not feasible at the bound")

# %% [markdown]
# Reading the table:
#
# * Reflections win. For every rule $\eta = 2$ solves the system in fewer iterations than
#   $\eta = 1$; with plain projections the blind rules are still outside after 50 epochs,
#   creeping like the wedge above.
# * Looking before moving pays here. The greedy rules finish in far fewer iterations, though
#   each of their iterations scans all 1,348 inequalities.
#
# Every $w$ reported feasible was checked against all the inequalities; it is a separator of
# the training set, and classifies the test set too.

# %%
best = table[("max_distance", 2.0)]
w, b = best.w[:-1], best.w[-1]
print("smallest training margin y (w.x + b):", np.min(Y * (split.X_train @ w + b)).round(4))
print("test accuracy:", 1 - gp.error_rate(w, b, split.X_test, gp.one_vs_rest(split.y_test, 0)))

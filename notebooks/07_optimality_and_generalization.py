# %% [markdown]
# # Optimality and generalization
#
# Two more theorems about the perceptron, each run rather than just quoted:
#
# * **Theorem 1.34** (optimality): no deterministic learner can promise fewer than
#   min(1/γ², d) mistakes on data with margin γ. The perceptron's R²/γ² matches that when
#   the dimension is large.
# * **Theorem 2.6** (Vapnik–Chervonenkis): trained to convergence on N random points, the
#   perceptron errs on a new point with probability at most E[R²/γ²]/(N+1).

# %%
import matplotlib.pyplot as plt
import mxnet as mx
import numpy as np

import gluon_perceptron as gp

mx.random.seed(0)
np.random.seed(0)

# %% [markdown]
# ## An adversary that forces n = min(1/γ², d) mistakes
#
# The adversary shows the basis vectors e₁, e₂, … one at a time. After the learner has
# predicted a label, the adversary announces the opposite one. Every round is a mistake. The
# data is still separable with margin γ: the vector w* = γ Σ yᵢ eᵢ has norm γ√n ≤ 1 and gives
# every example the margin γ. `adversary_run` plays this against the chapter's perceptron
# step (or against any object with `predict` and `update`).

# %%
for gamma, d in [(0.5, 50), (0.2, 50), (0.1, 50), (0.1, 500)]:
    run = gp.adversary_run(gamma, d)
    w = run.witness
    print(f"gamma = {gamma:4}, d = {d:3d}: n = {run.n:3d}, mistakes = {run.mistakes:3d}, "
          f"||w*|| = {np.linalg.norm(w):.3f}, smallest margin of w* = "
          f"{np.min(run.Y * (run.X @ w)):.3f}")

# %% [markdown]
# On this dataset the best possible margin is exactly 1/√n and R = 1, so Novikoff's bound
# R²/γ₂² equals n. The perceptron without bias, trained on the adversary's data, makes
# exactly n updates. The bound is reached, so it cannot be improved in general.

# %%
run = gp.adversary_run(0.1, 500)
opt = gp.optimal_margin(run.X, run.Y, bias=False)
path = gp.update_path(run.X, run.Y, max_epochs=10, bias=False)
print(f"gamma_2 = {opt.gamma:.4f} (1/sqrt(n) = {1 / np.sqrt(run.n):.4f}), "
      f"bound R^2/gamma_2^2 = {opt.bound:.1f}, perceptron updates = {path.updates}")

# %% [markdown]
# The theorem covers every deterministic learner, not only the perceptron. A learner that
# always answers +1 also loses every round:

# %%
class AlwaysPositive:
    def predict(self, x):
        return 1.0

    def update(self, x, y):
        pass


print(gp.adversary_run(0.25, 30, learner=AlwaysPositive()).mistakes, "mistakes out of 16")

# %% [markdown]
# ## Leave-one-out and the generalization bound
#
# The proof of Theorem 2.6 goes through leave-one-out. Train on all N+1 points, and let I be
# the set of points the run ever updated on. A point outside I can be held out without
# changing the run, and the final weights classify it correctly. So the number of
# leave-one-out errors is at most |I|. |I| is at most the number of mistakes, which is at
# most R²/γ². `leave_one_out` retrains only for the points in I; `tests/test_theory.py`
# checks that this gives the same answer as retraining N+1 times.
#
# `generalization_experiment` repeats this over many random draws. It also trains on the
# first N points and counts errors on fresh points from the same plane, a second, direct
# estimate of the held-out error. For the bound we use the optimal padded margin, which gives
# the smallest bound R_a²/γ₂² (with R_a² = R² + 1 for the bias).

# %%
sizes = [25, 50, 100, 200, 400]
stats = [gp.generalization_experiment(n, 30, epsilon=0.5, test_points=200) for n in sizes]
print("   N   leave-one-out   fresh points   |I|/(N+1)   bound")
for n, s in zip(sizes, stats):
    print(f"{n:4d}   {s['loo'].mean():13.4f}   {s['test'].mean():12.4f}   "
          f"{s['support'].mean():9.4f}   {s['bound'].mean():.3f}")

# %%
fig, ax = plt.subplots(figsize=(6.5, 4.2))
for key, label in [("bound", "E[R_a^2/gamma_2^2]/(N+1)"), ("support", "|I|/(N+1)"),
                   ("loo", "leave-one-out error"), ("test", "error on fresh points")]:
    ax.plot(sizes, [np.mean(s[key]) for s in stats], "o-", label=label)
ax.set(xscale="log", yscale="log", xlabel="N", ylabel="mean over 30 draws")
ax.legend()
plt.show()

# %% [markdown]
# The theorem holds in every row: the leave-one-out error is below |I|/(N+1), which is below
# the bound. The bound is loose, more than 1 for the smallest N. It falls as N grows, but more
# slowly than 1/N (larger samples come with smaller margins, so E[R²/γ²] grows), while the
# measured errors fall much faster. The leave-one-out and fresh-point columns estimate the same
# expectation; with 30 draws they are noisy, but of the same size.

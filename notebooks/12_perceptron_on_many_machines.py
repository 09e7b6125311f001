# ---
# jupyter:
#   kernelspec:
#     display_name: Python (gluon_perceptron)
#     language: python
#     name: gluon-perceptron
# ---

# %% [markdown]
# ---
# numbering:
#   enumerator: "12.%s"
# ---
# # 12. The perceptron on many machines
#
# *Runs on the kernel **Python (gluon_perceptron)**, this repository's `.venv`: open it with `bash run.sh notebooks`, which installs both.*
#
# MXNet's selling point was scale: the same code on one machine or many, through its KVStore
# parameter server (ps-lite). A *scheduler* introduces the processes to each other, *servers*
# hold arrays under integer keys and sum what is pushed to them, and *workers* compute. With
# `kvstore="dist_sync"` a `pull` returns the sum of the `push`es of **every** worker in that
# round, so the workers move in lockstep.
#
# The perceptron does not average gradients; it makes passes. The classic way to distribute
# it is **iterative parameter mixing** {cite:p}`mcdonald2010`: cut the data into $W$
# shards; every round, each worker makes one perceptron pass over its shard starting from the
# mixed weights $\theta^{(n-1)} = (w, b)$, ending at $\theta_i$ after $k_{i,n}$ mistakes; then
#
# $$\theta^{(n)} = \sum_{i=1}^{W} \mu_{i,n}\, \theta_i, \qquad \mu_{i,n} = \tfrac{1}{W}
# \ \text{(uniform)} \quad\text{or}\quad \mu_{i,n} = \tfrac{k_{i,n}}{\sum_j k_{j,n}}
# \ \text{(weighted)}.$$
#
# Rounds stop at the first one without a mistake on any shard. With one worker this is the
# perceptron itself.

# %%
import gluon_perceptron as gp

import tempfile

import numpy as np

# %% [markdown]
# ## One round, from the source
#
# One round of parameter mixing is `gp.distributed.mixing_round`:

# %%
gp.show_source(gp.distributed.mixing_round)

# %% [markdown]
# * Every shard copies $\theta^{(n-1)} = (w, b)$ and makes **one** pass of `gp.train`'s fast
#   engine over its examples (`fast_pass` updates `w` and `b` in place and returns the number of
#   mistakes $k_{i,n}$); its row is $(w_i, b_i, k_{i,n}, \text{seconds})$. In a cluster,
#   `exchange` is the parameter server's push and pull, which hands back every worker's row in
#   rank order.
# * The mixing: $\mu_{i,n} = 1/W$ (uniform) or $k_{i,n}/\sum_j k_{j,n}$ (weighted), then the sum
#   $\sum_i \mu_{i,n} \theta_i$, shard 0 first, in the data's dtype. A round without mistakes
#   mixes nothing (`None`): the weights already separate every shard.
#
# `train_mixed` and every worker of the cluster repeat `mixing_round` until a round makes no
# mistake, which is why a cluster run and
# {py:func}`gluon_perceptron.core.distributed.mixing.train_mixed` agree bit for bit.

# %% [markdown]
# ## The launcher at work: roles, ranks, logs
#
# `gp.distributed.train_distributed` starts a scheduler, one server and two workers as child processes,
# all on 127.0.0.1 (`DMLC_PS_ROOT_URI` and `DMLC_NODE_HOST`), on a free port, one log per role.
# The scheduler gives the workers their **ranks** (not the launch order): the worker of rank
# $i$ takes shard $i$. Each round a worker writes its row $(w_i, b_i, k_i)$ into its own row of
# a $W \times (d + 3)$ array of zeros and pushes it; the server's sum is then every row at once,
# whatever order the pushes arrived in, and every worker mixes the rows in rank order, so all
# of them hold the same weights, bit for bit, and stop on the same round. When the call
# returns, every process it started has been stopped by its PID. (The main job,
# `bash run.sh chapter`, runs the same cluster on 200 points instead of these 300.)

# %%
gp.show_source(gp.distributed.train_distributed, gp.distributed.train_mixed)

# %% [markdown]
# `train_distributed` hands one job to the launcher, which starts the processes and collects the
# result; `train_mixed` cuts the data into `shards` and repeats `mixing_round` in this process.
# `gp.sample_separable` is shown in [notebook 01](01_separable_data.ipynb).

# %%
fake = gp.sample_separable(300, 5, 0.1, seed=0)
X, Y = fake.X.asnumpy(), fake.Y.asnumpy()
with tempfile.TemporaryDirectory() as logs:
    run = gp.distributed.train_distributed(X, Y, workers=2, mixing="uniform", log_dir=logs,
                                           timeout=300)
    for role, pid in run.pids.items():
        print(f"{role:9s} pid {pid}")
    print("launch index -> rank:", run.ranks)
    print("worker 0's log:", run.logs["worker 0"].read_text().strip().splitlines()[0])
same = gp.distributed.train_mixed(X, Y, shards=2, mixing="uniform")
assert run.w.tobytes() == same.w.tobytes() and run.b == same.b  # bit for bit

# %% [markdown]
# The cluster made {eval}`run.epochs` rounds ({eval}`run.updates_per_epoch[0]`
# mistakes in the first, none in the last), and its weights are those of
# `train_mixed(shards=2)` bit for bit (the `assert` above checks it). On a toy set the
# start-up (starting the processes and connecting them; a mixing worker loads only MXNet's C
# library, as its log says, not the Python package) dwarfs everything, and an exchange costs
# more than a pass over 150 examples: in this run the start-up took {eval}`f"{run.startup_seconds:.1f}"` s, an
# exchange (push and pull) {eval}`f"{1e3 * np.nanmedian(run.exchange_seconds):.2f}"` ms and a local pass
# {eval}`f"{1e3 * np.median(run.pass_seconds):.3f}"` ms (medians over the rounds; timings vary from run to run).
# Distribution pays only when a pass is long.
#
# ## Mixing against one perceptron

# %% mystnb={"figure": {"caption": "Left: rounds to separate against the number of workers W for both mixings, one perceptron dashed. Right: where the time goes."}}
prose = {}  # the numbers the prose below shows
Xh, Yh = gp.experiments.hard_separable(4000, 200, 0.1, seed=0)
speed = gp.experiments.mixing_speedup(Xh, Yh, workers=(1, 2, 4, 8), max_epochs=2000)
axes = gp.plots.plot_mixing_speedup(speed)
passes = dict(zip(speed.method, speed.passes))
speed_train_passes = passes["train"]
for kind in ("uniform", "weighted"):
    rounds = [passes[f"{kind} W={w}"] for w in (2, 4, 8)]
    prose[f"speed_{kind}_min"] = min(rounds)
    prose[f"speed_{kind}_max"] = max(rounds)

# %% [markdown]
# `gp.distributed.train_mixed` is the same algorithm in one process (the tests check that it equals the
# cluster bit for bit). On a hard separable set, uniform mixing needs fewer *rounds* than the
# perceptron needs passes: each round, every shard's pass moves the weights, and the average of
# $W$ such moves is a better step than one. Mixing weighted by mistakes, though, follows the
# shard that erred most and is slower. On this set the perceptron needs
# {eval}`speed_train_passes` passes; uniform mixing with $W = 2, 4, 8$ needs
# {eval}`prose['speed_uniform_min']` to {eval}`prose['speed_uniform_max']` rounds, weighted mixing
# {eval}`prose['speed_weighted_min']` to {eval}`prose['speed_weighted_max']`. (The time on the right is
# the longest shard's passes, the time $W$ machines would need if exchanges were free.)
# Over 40 such sets on seeds no notebook prints, uniform mixing needs fewer rounds than the
# perceptron needs passes, at every W, on nearly every draw (at least 35 of 40); weighted
# mixing needs more rounds than uniform mixing at every W on nearly every draw (at least 36 of
# 40), and more rounds than the perceptron needs passes at W = 2 on about half of the draws (15
# to 31 of 40) but at W = 8 on most (at least 30 of 40). `tests/experiments/test_claims.py` checks these
# counts on 40 sets of its own, `bash run.sh claims` on fresh seeds.

# %% [markdown]
# ## The bound
#
# :::{prf:theorem} Mixing bound (McDonald, Hall & Mann, Theorem 3)
# :label: thm-mixing-bound
#
# Let $\tilde x_j = (x_j, 1)$ with $\|\tilde x_j\| \le R$, and let a unit vector $u$ separate
# the data with margin $\gamma > 0$: $y_j\, u^\top \tilde x_j \ge \gamma$ for every $j$. Then
# iterative parameter mixing with learning rate 1 and any convex mixing weights $\mu_{i,n}$
# satisfies, for every number of rounds $N$,
#
# $$\sum_{n=1}^{N} \sum_{i=1}^{W} \mu_{i,n}\, k_{i,n} \le \frac{R^2}{\gamma^2}.$$
# :::
#
# :::{prf:proof}
# Write $M_N$ for the left side. We show by induction on $N$ that the mixed weights satisfy
# $u^\top \theta^{(N)} \ge \gamma M_N$ and $\|\theta^{(N)}\|^2 \le R^2 M_N$; both hold at
# $N = 0$, where $\theta = 0$. In round $n$, shard $i$ starts from $\theta^{(n-1)}$, and each of
# its $k_{i,n}$ mistakes adds $y_j \tilde x_j$: as in Novikoff's proof
# ([notebook 03](03_convergence_theorem.ipynb)), it raises $u^\top \theta$ by at least $\gamma$
# and $\|\theta\|^2$ by at most $R^2$ (the cross term $2 y_j \theta^\top \tilde x_j$ is
# $\le 0$ on a mistake). So $u^\top \theta_i \ge u^\top \theta^{(n-1)} + \gamma k_{i,n}$ and
# $\|\theta_i\|^2 \le \|\theta^{(n-1)}\|^2 + R^2 k_{i,n}$. Mixing is a convex combination:
# the first inequality averages linearly, and $\|\sum_i \mu_{i,n} \theta_i\|^2 \le
# \sum_i \mu_{i,n} \|\theta_i\|^2$ by convexity of the squared norm, so both claims pass to
# $\theta^{(n)}$ with $M_n = M_{n-1} + \sum_i \mu_{i,n} k_{i,n}$. Finally, by Cauchy-Schwarz,
# $\gamma M_N \le u^\top \theta^{(N)} \le \|\theta^{(N)}\| \le R \sqrt{M_N}$, hence
# $M_N \le R^2/\gamma^2$. With one shard, $M_N$ is the number of mistakes and this is
# Novikoff's bound.
# :::
#
# Uniform mixing: at most $W R^2/\gamma^2$ mistakes in all. Weighted mixing: every round with
# a mistake adds $\sum_i k_{i,n}^2 / \sum_i k_{i,n} \ge 1$, so at most $R^2/\gamma^2$ such
# rounds. `DistributedResult.mixed_mistakes` is $M_N$. Measured on getfake data for
# $W = 1, 2, 4$, both mixings, 5 draws each (the main job runs 4):

# %% mystnb={"figure": {"caption": "The mixed mistakes of every run against the bound of the theorem, log-log: the points lie below the dashed line, measured = bound."}}
bound = gp.experiments.mixing_bound_experiment(trials=5, seed=0)
ax = gp.plots.plot_mixing_bound(bound)

# %% [markdown]
# All {eval}`int(np.sum(bound.ratio <= 1))` of the {eval}`bound.ratio.size` runs are within the bound, as
# the theorem says they must be, and far below it: the measured $M_N$ is at most
# {eval}`f"{bound.ratio.max():.3f}"` of $R^2/\gamma^2$ (median {eval}`f"{np.median(bound.ratio):.3f}"`).

# %% [markdown]
# ## No separator: what mixing does to noise

# %% mystnb={"figure": {"caption": "Training error of the mixed weights, round by round, on data with flipped labels, one line per worker count; dashed: the share flipped."}}
noisy = gp.experiments.nonseparable_mixing(seed=0)
ax = gp.plots.plot_nonseparable_mixing(noisy)
for w, err in zip(noisy.workers, noisy.error):
    prose[f"noisy_{w}"] = err[-10:].mean()

# %% [markdown]
# Over 20 draws (seeds 0 to 19; the main job runs only the first), the training error of the
# mixed weights, averaged over the last 10 of 40 rounds: on these draws it falls with $W$ on
# average. Over 40 draws on seeds no notebook prints, $W = 8$ is below $W = 1$ on most draws
# (at least 30 of 40): `tests/experiments/test_claims.py` checks it, and `bash run.sh claims` measures it
# again on fresh seeds.

# %%
last = np.array([gp.experiments.nonseparable_mixing(seed=s).error[:, -10:].mean(axis=1)
                 for s in range(20)])
for w, err in zip(noisy.workers, last.T):
    prose[f"noisy_mean_{w}"] = err.mean()

# %% [markdown]
# Flip 10% of the labels and no plane separates the data: the perceptron never stops, and its
# last weights jump around. The mixed weights are averages, and averages of many shards'
# weights jump less, the averaged perceptron's effect (compare
# [notebook 05](05_black_and_white.ipynb)). One draw first; a single draw need not fall at
# every step. On this one, the mean training error over the last 10 rounds is
# {eval}`f"{prose['noisy_1']:.3f}"`, {eval}`f"{prose['noisy_2']:.3f}"`, {eval}`f"{prose['noisy_4']:.3f}"` and
# {eval}`f"{prose['noisy_8']:.3f}"` for $W = 1, 2, 4, 8$:

# %% [markdown]
# Averaged over the {eval}`len(last)` draws, the error is {eval}`f"{prose['noisy_mean_1']:.3f}"`,
# {eval}`f"{prose['noisy_mean_2']:.3f}"`, {eval}`f"{prose['noisy_mean_4']:.3f}"` and {eval}`f"{prose['noisy_mean_8']:.3f}"`
# for $W = 1, 2, 4, 8$, and $W = 8$ is below $W = 1$ on {eval}`int(np.sum(last[:, -1] < last[:, 0]))` of them (a count on these 20 draws,
# not a frequency: the one above is measured on 40 others).

# %% [markdown]
# ## Gluon on `dist_sync`
#
# Gluon's own data parallelism: each worker runs `Dense(1)` with the perceptron loss on its
# shard and `gluon.Trainer("sgd", kvstore=kv)`; the servers sum the gradients and apply the
# step. That is one SGD step on the global batch (every worker's local batch, concatenated),
# so it matches one process stepping over the concatenated batches, to float rounding. The
# traps: call `trainer.step(W * batch_size)`; start every worker from the same weights; one
# KVStore per process; keep `update_on_kvstore` at its default.

# %%
gp.show_source(gp.distributed.train_gluon_distributed, gp.distributed.train_gluon_sharded)

# %% [markdown]
# `train_gluon_distributed` starts the cluster with the `gluon` job; `train_gluon_sharded` is the
# one-process reference: it orders the rows as the workers' batches would be concatenated and
# steps once per global batch of `shards * batch_size` rows.

# %%
sgd = dict(batch_size=4, max_epochs=3, learning_rate=0.5)
d = gp.distributed.train_gluon_distributed(X, Y, workers=2, **sgd)
ref = gp.distributed.train_gluon_sharded(X, Y, shards=2, **sgd)

# %% [markdown]
# Mistakes per epoch: {eval}`list(d.updates_per_epoch)` on the cluster,
# {eval}`list(ref.updates_per_epoch)` in one process; the weights differ by at most
# {eval}`f"{np.abs(d.w - ref.w).max():.1e}"`, float rounding.

# %% [markdown]
# ## On several hosts
#
# Nothing in the algorithm knows it runs on one machine. On several hosts the scheduler runs on
# one of them, and every process gets `DMLC_PS_ROOT_URI` = that host's address and
# `DMLC_PS_ROOT_PORT`; `DMLC_NODE_HOST` becomes each process's own address. The speed-up is
# limited by the exchange per round (one push and one pull of $W (d + 3)$ numbers, a network
# round trip) against the local pass (proportional to the shard's size), and by stragglers:
# `dist_sync` waits for the slowest worker every round.

# %% [markdown]
# ## When the network is slow
#
# Across hosts every round also pays the network: a push and a pull, each a request and its
# answer, so $k \approx 2$ round trips of $\tau$ seconds per round (`benchmarks/distributed.py`
# measures it across network namespaces with every packet delayed). One machine needs $p_1$
# passes of $P$ seconds; $W$ workers need $r_W$ rounds, each a pass over a shard ($P / W$), the
# exchange $e_0$ of this machine's cluster, and the round trips:
#
# $$\text{speed-up} = \frac{p_1 P}{r_W\,(P / W + e_0 + k \tau)}, \qquad
# \text{mixing pays while}\quad r_W\,(e_0 + k \tau) < p_1 P - r_W P / W .$$
#
# The rounds times the round trips must stay below the pass time the workers save. Below, the
# model is fed with what this notebook measured: $p_1$ and $r_W$ on the hard set above
# (uniform mixing, $W = 4$) and $e_0$ from the cluster at the top; the pass time $P$ stands for
# the size of the data. A short pass pays for no network at all; a pass of a second absorbs
# round trips of a continent.

# %% mystnb={"figure": {"caption": "Modelled speed-up of uniform mixing with W = 4 over one machine against the network round trip, one curve per one-machine pass time; a dot marks where a curve crosses 1 (mixing stops paying)."}}
latency = gp.experiments.mixing_latency(
    speed, exchange_seconds=float(np.nanmedian(run.exchange_seconds)), workers=4,
    max_round_trip=0.05)
ax = gp.plots.plot_mixing_latency(latency)
print(f"p1 = {latency.passes_one} passes, r_W = {latency.rounds} rounds, "
      f"e0 = {1e3 * latency.exchange_seconds:.2f} ms, k = {latency.trips_per_round:g}")
for P, tau in zip(latency.pass_seconds, latency.break_even):
    pays = "never" if np.isnan(tau) else f"while a round trip is under {1e3 * tau:.1f} ms"
    print(f"a pass of {1e3 * P:6g} ms: mixing pays {pays}")

# %% [markdown]
# ## Summary
#
# * Iterative parameter mixing: every worker makes a pass over its shard, then the weights are
#   averaged, uniformly or weighted by mistakes; the cluster on a parameter server and
#   `train_mixed` in one process end with the same weights, bit for bit.
# * Uniform mixing needs fewer rounds than one perceptron needs passes, and weighted mixing more
#   (frequencies over 40 sets); McDonald, Hall and Mann's bound holds for any convex mixing
#   weights.
# * On a toy set the start-up and the exchanges cost more than the passes: distribution pays
#   only when a pass is long; across hosts each round also pays about two network round trips,
#   and mixing pays while the rounds times the round trips stay below the pass time saved.
# * Gluon's own `dist_sync` training is one SGD step on the global batch.

# %% [markdown]
# ## Exercises
#
# Two exercises on parameter mixing. Where you write code, a checker of the package runs your function against the package's own on many cases, ties and edge cases included, and says in one sentence what differs (`gp.exercises.check_...`). The solutions are folded; try first.

# %% [markdown]
# :::{exercise}
# :label: ex-12-mix
# Write one round's mixing: `mix(thetas, mistakes, mixing)` gets the workers' parameters
# $\theta_i = (w_i, b_i)$ as the rows of `thetas`, their mistakes $k_i$ in this round, and
# `mixing` of `"uniform"` ($\mu_i = 1/W$) or `"weighted"` ($\mu_i = k_i / \sum_j k_j$), and
# returns $\sum_i \mu_i \theta_i$. Check it with `gp.exercises.check_mixing(mix)`.
# :::

# %% [markdown]
# :::{solution-start} ex-12-mix
# :class: dropdown
# :::
# The weights $\mu$ form one vector, and the mixed parameters are one matrix product. A worker
# without a mistake this round gets weight 0 in weighted mixing: its $\theta_i$ is the last
# round's mix, which the others already moved away from.

# %% jupyter={"source_hidden": true}
def mix(thetas, mistakes, mixing):
    workers = len(thetas)
    mu = np.full(workers, 1 / workers) if mixing == "uniform" else mistakes / mistakes.sum()
    return mu @ thetas


gp.exercises.check_mixing(mix)

# %% [markdown]
# :::{solution-end}
# :::

# %% [markdown]
# :::{exercise}
# :label: ex-12-same-shards
# Suppose every worker holds a copy of the *same* data. Show that uniform mixing then makes
# every round equal to one pass of the plain perceptron, whatever $W$. What does that say about
# the speed-up to expect from mixing?
# :::

# %% [markdown]
# :::{solution} ex-12-same-shards
# :class: dropdown
# All workers start a round from the same $\theta^{(n-1)}$ and pass over the same examples in
# the same order, so they end at the same $\theta_i$, and the uniform mix of $W$ equal vectors
# is that vector: one pass of the perceptron per round, with $W$ times the work. Mixing gains
# only from shards that differ, each worker passing over $1/W$ of the data per round; how
# many more rounds that costs is what the speed-up figure above measures.
# :::

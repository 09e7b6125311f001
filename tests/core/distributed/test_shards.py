"""Shards from files: ``train_distributed(shards=...)`` and ``train_mixed(shards=[...])``.

The files hold exactly the contiguous blocks :func:`shard_bounds` cuts from the in-memory data,
so every run must equal the in-memory run bit for bit. Clusters bind 127.0.0.1; the
``no_children_left`` fixture checks (and kills by PID) that no child process survives a test.
Four clusters in all (several jobs share one), so the file stays well under a minute.
"""

import tempfile
import tracemalloc

import numpy as np
import pytest
from procfs import no_children_left  # noqa: F401 - an autouse fixture

import gluon_perceptron as gp
from gluon_perceptron.core._validation import MIXINGS
from gluon_perceptron.core.data import idx
from gluon_perceptron.core.distributed import cluster_training, launcher, shards, worker
from gluon_perceptron.core.distributed.launcher import DistributedError
from gluon_perceptron.core.distributed.mixing import shard_bounds


def _data(kind: str, seed: int, n: int = 150, d: int = 6):
    rng = np.random.default_rng(seed)
    if kind == "noisy":  # not separable
        X = rng.normal(size=(n, d))
        Y = np.where(X[:, 0] + 0.3 * rng.normal(size=n) > 0, 1.0, -1.0)
        return X, Y
    X = rng.normal(size=(n, d))
    u = rng.normal(size=d)
    Y = np.where(X @ u + 0.2 > 0, 1.0, -1.0)
    X = X + 0.3 * Y[:, None] * u / np.linalg.norm(u)  # a margin: a few rounds suffice
    return (X.astype(np.float32), Y.astype(np.float32)) if kind == "float32" else (X, Y)


def _write(folder, X, Y, W: int, kind: str) -> list:
    """The blocks of ``shard_bounds(n, W)`` as shard files of ``kind``."""
    pairs: list[tuple] = []
    for i, (a, b) in enumerate(shard_bounds(X.shape[0], W)):
        x, y = X[a:b], Y[a:b]
        fx, fy = folder / f"{kind}-x{i}", folder / f"{kind}-y{i}"
        if kind == "npy":
            np.save(fx.with_suffix(".npy"), x)
            np.save(fy.with_suffix(".npy"), y.astype(np.int8))
            pairs.append((str(fx.with_suffix(".npy")), fy.with_suffix(".npy")))
        elif kind == "npy-fortran":
            np.save(fx.with_suffix(".npy"), np.asfortranarray(x))
            np.save(fy.with_suffix(".npy"), y[:, None])  # one column
            pairs.append((fx.with_suffix(".npy"), fy.with_suffix(".npy")))
        elif kind == "memmap":
            x.tofile(fx)
            y.tofile(fy)
            pairs.append((np.memmap(fx, x.dtype, "r", shape=x.shape),
                          np.memmap(fy, y.dtype, "r", shape=y.shape)))
        elif kind == "memmap-fortran-offset":
            with open(fx, "wb") as f:
                f.write(b"\0" * 24)  # a header of the user's own
                x.T.tofile(f)  # column-major
            np.save(fy.with_suffix(".npy"), y)
            pairs.append((np.memmap(fx, x.dtype, "r", offset=24, shape=x.shape, order="F"),
                          np.load(fy.with_suffix(".npy"), mmap_mode="r")))
        elif kind == "idx":  # big-endian floats on disk
            idx.write_idx(fx, x)
            idx.write_idx(fy, y.astype(np.int8))
            pairs.append((fx, fy))
        elif kind == "idx.gz":
            idx.write_idx(fx, x, compress=True)
            idx.write_idx(fy, y.astype(np.int16), compress=True)
            pairs.append((fx, fy))
        else:
            raise AssertionError(kind)
    return pairs


KINDS = ["npy", "npy-fortran", "memmap", "memmap-fortran-offset", "idx", "idx.gz"]
DATASETS = [("float32", 1, None), ("float64", 2, None), ("noisy", 3, 15)]


def _same(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _assert_same_run(d, m):
    assert _same(d.w, m.w) and np.float64(d.b).tobytes() == np.float64(m.b).tobytes()
    assert d.updates_per_epoch == m.updates_per_epoch and d.converged == m.converged
    assert _same(d.shard_updates, m.shard_updates)
    assert _same(d.mixing_weights, m.mixing_weights)


# ---------------------------------------------------------------- one process: train_mixed

@pytest.mark.parametrize("kind", KINDS)
def test_train_mixed_on_files_is_train_mixed_in_memory(kind, tmp_path):
    for name, seed, max_epochs in DATASETS:
        X, Y = _data(name, seed, n=100)
        for W in (1, 3):
            pairs = _write(tmp_path, X, Y, W, f"{kind}")
            for mix in MIXINGS:
                ref = gp.distributed.train_mixed(X, Y, shards=W, max_epochs=max_epochs,
                                                 mixing=mix)
                got = gp.distributed.train_mixed(shards=pairs, max_epochs=max_epochs,
                                                 mixing=mix)
                _assert_same_run(got, ref)
                assert got.workers == W


def test_unequal_shards_are_kept_as_given(tmp_path):
    """A file is a shard as it is: 30 + 70 rows are not re-cut into 50 + 50."""
    X, Y = _data("float64", 4, n=100)
    np.save(tmp_path / "x0.npy", X[:30])
    np.save(tmp_path / "x1.npy", X[30:])
    np.save(tmp_path / "y0.npy", Y[:30])
    np.save(tmp_path / "y1.npy", Y[30:])
    pairs = [(tmp_path / "x0.npy", tmp_path / "y0.npy"), (tmp_path / "x1.npy",
                                                         tmp_path / "y1.npy")]
    got = gp.distributed.train_mixed(shards=pairs, max_epochs=1)
    from gluon_perceptron.core.fast.training_fast import fast_pass

    w, b = np.zeros(6), np.zeros(1)
    k0 = fast_pass(np.ascontiguousarray(X[:30]), np.ascontiguousarray(Y[:30]), w, b)
    assert got.shard_updates[0, 0] == k0
    assert not _same(got.w, gp.distributed.train_mixed(X, Y, shards=2, max_epochs=1).w)


def test_train_mixed_on_files_checks_separability(tmp_path):
    X, Y = _data("noisy", 3, n=90)
    pairs = _write(tmp_path, X, Y, 2, "npy")
    with pytest.raises(ValueError, match="the shards' data is not linearly separable"):
        gp.distributed.train_mixed(shards=pairs)


# ----------------------------------------------------------------- bad shard lists, no launch

@pytest.fixture
def no_launch(monkeypatch):
    started = []
    monkeypatch.setattr(launcher.subprocess, "Popen", lambda *a, **k: started.append(a))
    yield
    assert not started


def _bad_cases(tmp_path):
    X, Y = _data("float64", 2, n=20)
    good = _write(tmp_path, X, Y, 2, "npy")
    np.save(tmp_path / "x-d5.npy", X[:10, :5])
    np.save(tmp_path / "x-f32.npy", X[:10].astype(np.float32))
    np.save(tmp_path / "x-int.npy", np.ones((10, 6), dtype=np.int64))
    np.save(tmp_path / "x-1d.npy", X[:10, 0])
    np.save(tmp_path / "y-short.npy", Y[:9])
    np.save(tmp_path / "y-2d.npy", np.ones((10, 2)))
    np.save(tmp_path / "y-str.npy", np.array(["a"] * 10))
    (tmp_path / "notes.txt").write_text("hello, not an array\n")
    idx.write_idx(tmp_path / "cut.idx", X[:10])
    raw = (tmp_path / "cut.idx").read_bytes()
    (tmp_path / "cut.idx").write_bytes(raw[:-3])
    mm = np.load(good[0][0], mmap_mode="r")
    y1 = good[1][1]
    return [
        ("both", dict(X=X, Y=Y, shards=good), ValueError, "either X, Y .* or shards"),
        ("neither", dict(), ValueError, "needs the data"),
        ("not a list", dict(shards=good[0][0]), TypeError, "list of \\(features, labels\\)"),
        ("empty", dict(shards=[]), ValueError, "shards is empty"),
        ("not a pair", dict(shards=[(good[0][0],)]), TypeError, r"shards\[0\] must be a pair"),
        ("missing", dict(shards=[good[0], (tmp_path / "nope.npy", y1)]), FileNotFoundError,
         r"shards\[1\] features: .*nope.npy' does not exist"),
        ("folder", dict(shards=[(tmp_path, y1)]), FileNotFoundError, "is a folder"),
        ("other d", dict(shards=[good[0], (tmp_path / "x-d5.npy", y1)]), ValueError,
         r"same number of features and dtype.*shards\[1\].* is 5 x float64"),
        ("other dtype", dict(shards=[good[0], (tmp_path / "x-f32.npy", y1)]), ValueError,
         "same number of features and dtype"),
        ("int features", dict(shards=[(tmp_path / "x-int.npy", y1)]), ValueError,
         "must be float32 or float64"),
        ("1-D features", dict(shards=[(tmp_path / "x-1d.npy", y1)]), ValueError,
         "must be a 2-D array"),
        ("short labels", dict(shards=[(good[1][0], tmp_path / "y-short.npy")]), ValueError,
         "have 10 rows but labels .* have 9"),
        ("2-D labels", dict(shards=[(good[1][0], tmp_path / "y-2d.npy")]), ValueError,
         "labels .* must be 1-D"),
        ("text labels", dict(shards=[(good[1][0], tmp_path / "y-str.npy")]), ValueError,
         "must hold the numbers -1 and \\+1"),
        ("not npy nor idx", dict(shards=[(tmp_path / "notes.txt", y1)]), ValueError,
         "neither a .npy file .* nor an IDX file"),
        ("truncated idx", dict(shards=[(tmp_path / "cut.idx", y1)]), ValueError,
         "truncated: the header announces shape \\(10, 6\\)"),
        ("in memory", dict(shards=[(X[:10], y1)]), TypeError, "is an array in memory"),
        ("memmap slice", dict(shards=[(mm[:5], y1)]), ValueError, "slice or view"),
        ("workers", dict(shards=good, workers=3), ValueError,
         "workers=3 but shards lists 2 shards"),
        ("servers", dict(shards=good, servers=10**6), ValueError, "MAX_PROCESSES_PER_CORE"),
        ("max_epochs", dict(shards=good, max_epochs=0), ValueError, "max_epochs"),
        ("mixing", dict(shards=good, mixing="mean"), ValueError, "mixing"),
    ]


def test_bad_shard_lists_are_refused_before_any_process_starts(tmp_path, no_launch):
    for _label, kwargs, error, match in _bad_cases(tmp_path):
        with pytest.raises(error, match=match):
            gp.distributed.train_distributed(**kwargs)
        if "X" not in kwargs and "workers" not in kwargs and "servers" not in kwargs \
                and kwargs:  # train_mixed shares the checks (its shards= is the list)
            with pytest.raises(error, match=match):
                gp.distributed.train_mixed(**kwargs)
    X, Y = _data("float64", 2, n=20)
    with pytest.raises(ValueError, match="train_mixed takes either X, Y"):
        gp.distributed.train_mixed(X, Y, shards=_write(tmp_path, X, Y, 2, "npy"))
    with pytest.raises(ValueError, match="train_mixed needs the data"):
        gp.distributed.train_mixed(shards=2)


def test_the_in_memory_api_is_unchanged(no_launch):
    X, Y = _data("float64", 2)
    with pytest.raises(ValueError, match="only 150 examples"):
        gp.distributed.train_distributed(X, Y, workers=200, max_epochs=3)
    with pytest.raises(ValueError, match="workers"):
        gp.distributed.train_distributed(X, Y, workers=0, max_epochs=3)
    with pytest.raises(ValueError, match="needs the data"):
        gp.distributed.train_distributed(X, max_epochs=3)


def test_a_worker_checks_its_own_shard(tmp_path):
    """What a worker does with its shard, in this process: bad labels, non-finite features and
    a non-separable shard (``max_epochs=None``) are named with the shard's index and files."""
    X, Y = _data("float64", 2, n=40)
    Yb, Xb = Y.copy(), X.copy()
    Yb[25] = 0.0
    Xb[30, 2] = np.nan
    Xc, Yc = X.copy(), Y.copy()  # shard 1 (rows 20..39) holds one point with both labels
    Xc[35], Yc[35] = Xc[25], -Yc[25]
    bad = []
    for i, (x, y, kind) in enumerate([(X, Yb, "npy"), (Xb, Y, "npy"), (Xc, Yc, "idx")]):
        (tmp_path / str(i)).mkdir()
        pairs = _write(tmp_path / str(i), x, y, 2, kind)
        bad.append(shards.check_shards(pairs)[0])
    cases = [(bad[0], "the labels of shard 1 .*npy-y1.npy.* must hold only -1 and \\+1, "
                      "found \\[0\\]"),
             (bad[1], "the features of shard 1 .*npy-x1.npy.* must be finite"),
             (bad[2], "shard 1 .*idx-x1.*idx-y1.*and so the whole data is not linearly "
                      "separable")]
    for described, match in cases:
        job = {"shards": described, "max_epochs": None}
        with pytest.raises(ValueError, match=match):
            worker._my_shard(tmp_path, 0, job, 1, 2)
    with pytest.raises(RuntimeError, match="lists 2 shards for 3 workers"):
        worker._my_shard(tmp_path, 0, {"shards": bad[0], "max_epochs": 3}, 0, 3)


# ------------------------------------------------------------------------ clusters: equality

def test_clusters_on_shard_files_equal_the_in_memory_runs(tmp_path):
    """W = 2 and 3: every file kind, both mixings, as jobs of one cluster per W, beside the
    in-memory job on the same rows; all equal ``train_mixed(X, Y, shards=W)`` bit for bit."""
    for W in (2, 3):
        jobs, refs = [], []
        for name, seed, max_epochs in DATASETS:
            X, Y = _data(name, seed, n=100)
            for kind in KINDS:
                mix = MIXINGS[(len(jobs) + W) % 2]
                folder = tmp_path / f"{W}-{name}"
                folder.mkdir(exist_ok=True)
                described = shards.check_shards(_write(folder, X, Y, W, kind))[0]
                jobs.append((described, None, max_epochs, mix))
                refs.append(gp.distributed.train_mixed(X, Y, shards=W, max_epochs=max_epochs,
                                                       mixing=mix))
            jobs.append((X, Y, max_epochs, "uniform"))  # in memory, same cluster
            refs.append(gp.distributed.train_mixed(X, Y, shards=W, max_epochs=max_epochs))
        runs = cluster_training._train_distributed(jobs, workers=W, timeout=300)
        for d, ref in zip(runs, refs):
            _assert_same_run(d, ref)
            assert sorted(d.ranks.values()) == list(range(W))


def test_the_caller_never_loads_the_rows(tmp_path, monkeypatch):
    """A public call on 4 MB of shards: this process reads no row (no np.load without
    mmap_mode, no IDX read, no memmap page touched) and its Python/numpy allocations peak below
    half a shard's features (1 MB); ``max_epochs=None`` is checked in the workers, shard by
    shard. (The peak counts every thread of the process while the cluster runs: 180 kB alone,
    423 kB once in a pytest-xdist worker of a loaded machine, over the 400 kB this test first
    allowed.)"""
    X, Y = _data("float64", 5, n=25_000, d=20)
    pairs = _write(tmp_path, X, Y, 2, "npy")
    files = {str(p) for pair in pairs for p in pair}
    load = np.load

    def guarded_load(file, mmap_mode=None, **kwargs):
        if str(file) in files and mmap_mode is None:
            raise AssertionError(f"the caller loaded {file}")
        return load(file, mmap_mode=mmap_mode, **kwargs)

    monkeypatch.setattr(np, "load", guarded_load)
    monkeypatch.setattr(idx, "_read_file", lambda *a: pytest.fail("the caller read IDX data"))
    # a temporary folder of its own: the call scans the temporary folder for task folders of
    # dead runs (lifeline.reclaim_task_folders), a list of every entry, and a shared /tmp of
    # 1,600 entries alone took the peak to 400 kB, whatever the data
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    tracemalloc.start()
    try:
        d = gp.distributed.train_distributed(shards=pairs, mixing="weighted", timeout=300)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    monkeypatch.undo()
    assert peak < X.nbytes / 4, f"the caller allocated {peak:,} bytes"
    ref = gp.distributed.train_mixed(X, Y, shards=2, mixing="weighted")
    _assert_same_run(d, ref)
    assert d.converged and gp.error_rate(d.w, d.b, X, Y) == 0


def test_bad_labels_in_a_shard_end_the_run_naming_it(tmp_path):
    X, Y = _data("float64", 2, n=60)
    Y = Y.copy()
    Y[45] = 2.0  # in shard 1 (rows 30..59)
    pairs = _write(tmp_path, X, Y, 2, "memmap")
    # the data's fault, named by its shard: the ValueError the worker raised, not the
    # DistributedError of "worker j" (a launch index, which need not be the shard's rank)
    with pytest.raises(ValueError) as info:
        gp.distributed.train_distributed(shards=pairs, max_epochs=5, timeout=300,
                                         log_dir=tmp_path / "logs")
    err = info.value
    assert not isinstance(err, DistributedError) and "worker" not in str(err)
    assert "the labels of shard 1" in str(err) and "memmap-y1" in str(err)
    assert "must hold only -1 and +1, found [2.0]" in str(err)


def test_the_shards_module_describes_without_reading(tmp_path, monkeypatch):
    X, Y = _data("float32", 1, n=20)
    pairs = _write(tmp_path, X, Y, 2, "idx.gz") + _write(tmp_path, X, Y, 2, "idx")
    monkeypatch.setattr(idx, "_read_file", lambda *a: pytest.fail("read"))
    described, d, dtype = shards.check_shards(pairs)
    assert (d, dtype) == (6, "float32") and [s["rows"] for s in described] == [10, 10] * 2
    assert [s["features"]["kind"] for s in described] == ["idx.gz"] * 2 + ["idx"] * 2
    assert described[0]["features"]["dtype"] == ">f4"


def test_a_cluster_started_by_hand_runs_the_same_job(tmp_path):
    """The multi-host recipe on one host: ``write_task``, then a scheduler, a server and two
    ``python -m ...worker TASK`` processes that know each other only by the ``DMLC_*``
    variables (here started by ``launch_cluster``), then ``read_results``."""
    import sys

    X, Y = _data("float32", 7, n=80)
    pairs = _write(tmp_path, X, Y, 2, "idx")
    task = tmp_path / "task"
    cluster_training.write_task(task, pairs, max_epochs=50, mixing="weighted")
    run = launcher.launch_cluster([sys.executable, "-m", cluster_training.WORKER_MODULE, str(task)],
                                  workers=2, servers=1, timeout=300, log_dir=tmp_path / "logs")
    assert all(code == 0 for role, code in run.returncodes.items() if role.startswith("worker"))
    got = cluster_training.read_results(task)
    _assert_same_run(got, gp.distributed.train_mixed(X, Y, shards=2, max_epochs=50,
                                                     mixing="weighted"))
    assert sorted(got.ranks.values()) == [0, 1]
    (task / "result-1.npz").unlink()
    with pytest.raises(FileNotFoundError, match="rank 1 has not finished"):
        cluster_training.read_results(task)

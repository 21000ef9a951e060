"""pyproject.toml and environment.yml pin the same packages at the same versions."""

from __future__ import annotations

import sys
from pathlib import Path

import yaml
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def pyproject_pins() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    env = {**default_environment(), "python_version": "3.11", "python_full_version": "3.11.0"}
    pins = {}
    extras = project["optional-dependencies"]
    for line in [*project["dependencies"], *extras["dev"], *extras["lab"]]:  # lab: what Binder opens
        req = Requirement(line)
        if req.marker is None or req.marker.evaluate(env):
            (spec,) = req.specifier
            assert spec.operator == "==", f"{line} is not pinned exactly"
            pins[canonicalize_name(req.name)] = spec.version
    return pins


def conda_pins() -> dict[str, str]:
    deps = yaml.safe_load((ROOT / "environment.yml").read_text())["dependencies"]
    pins = {}
    for dep in deps:
        if isinstance(dep, str) and "=" in dep:
            name, version = dep.split("=", 1)
            if name != "python":
                pins[canonicalize_name(name)] = version
    return pins


def pip_pins() -> dict[str, str]:
    """The packages environment.yml takes from PyPI (not on conda-forge), but the `he` extra's."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extra = {canonicalize_name(Requirement(d).name) for d in project["optional-dependencies"]["he"]}
    deps = yaml.safe_load((ROOT / "environment.yml").read_text())["dependencies"]
    (pip_deps,) = [d["pip"] for d in deps if isinstance(d, dict) and "pip" in d]
    pins = {}
    for dep in pip_deps:
        req = Requirement(dep)
        (spec,) = req.specifier
        assert spec.operator == "==", f"{dep} is not pinned exactly"
        if canonicalize_name(req.name) not in extra:
            pins[canonicalize_name(req.name)] = spec.version
    return pins


def test_every_pyproject_pin_is_in_environment_yml() -> None:
    conda, pip = conda_pins(), pip_pins()
    assert not conda.keys() & pip.keys(), "a package pinned both from conda-forge and from PyPI"
    assert pyproject_pins() == conda | pip


def test_he_extra_is_pinned_in_environment_yml() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    env = {**default_environment(), "python_version": "3.11", "python_full_version": "3.11.0",
           "sys_platform": "linux", "platform_machine": "x86_64"}  # fmt: skip
    (pin,) = [
        Requirement(d) for d in project["optional-dependencies"]["he"] if Requirement(d).marker.evaluate(env)
    ]
    deps = yaml.safe_load((ROOT / "environment.yml").read_text())["dependencies"]
    (pip_deps,) = [d["pip"] for d in deps if isinstance(d, dict) and "pip" in d]
    assert f"{pin.name}{pin.specifier}" in pip_deps


def test_python_310_pins_exist_for_every_marker_split_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    env310 = {**default_environment(), "python_version": "3.10", "python_full_version": "3.10.0"}
    names = [
        Requirement(d).name
        for d in project["dependencies"]
        if Requirement(d).marker is None or Requirement(d).marker.evaluate(env310)
    ]
    names311 = list(pyproject_pins())
    extras = [*project["optional-dependencies"]["dev"], *project["optional-dependencies"]["lab"]]
    optional = {canonicalize_name(Requirement(d).name) for d in extras}
    assert {canonicalize_name(n) for n in names} >= set(names311) - optional


def test_every_extra_is_pinned_exactly() -> None:
    """The optional extras (``he``, ``cluster``, ``lab``) are pinned like the dependencies."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for extra, lines in project["optional-dependencies"].items():
        for line in lines:
            (spec,) = Requirement(line).specifier
            assert spec.operator == "==", f"[{extra}] {line} is not pinned exactly"
    assert "lab" in project["optional-dependencies"], "JupyterLab (make lab) is the `lab` extra"

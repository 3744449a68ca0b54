"""pip install . for hlomem's Python module, built by CMake from this checkout (pyproject.toml names
this setuptools backend and holds the project's metadata).

The extension is the CMake target hlomem_python (python/CMakeLists.txt): setup.py configures this
checkout in the build_ext temporary folder with the interpreter pip runs, builds that target alone
and puts hlomem/_hlomem*.so beside the package's Python files. Nothing is downloaded: CMake,
a C++17 compiler, Boost, pybind11 and the Python headers come from Debian
(scripts/install-deps.sh), setuptools from the interpreter, so build isolation is not needed:

    python3 -m venv --system-site-packages /tmp/hlomem-venv
    /tmp/hlomem-venv/bin/pip install --no-build-isolation .

CMAKE_ARGS adds options to the configuration (e.g. -DCMAKE_CXX_COMPILER_LAUNCHER=ccache);
CMAKE_BUILD_PARALLEL_LEVEL sets the build's jobs (default 2).
"""

import os
import pathlib
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


class CMakeExtension(Extension):
    """An extension that CMake builds: no sources for setuptools to compile."""

    def __init__(self, name, target):
        super().__init__(name, sources=[])
        self.target = target


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = pathlib.Path(self.build_temp).resolve() / "cmake"
        configure = [
            "cmake", "-S", str(ROOT), "-B", str(build),
            "-DCMAKE_BUILD_TYPE=Release",
            f"-DPython_EXECUTABLE={sys.executable}",
            "-DHLOMEM_BUILD_PYTHON=ON", "-DHLOMEM_BUILD_TESTS=OFF", "-DHLOMEM_INSTALL=OFF",
            *shlex.split(os.environ.get("CMAKE_ARGS", "")),
        ]
        subprocess.run(configure, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        subprocess.run(["cmake", "--build", str(build), "--target", ext.target, "-j", jobs], check=True)
        built = sorted((build / "python" / "hlomem").glob("_hlomem*.so"))
        if len(built) != 1:
            raise RuntimeError(f"expected one hlomem/_hlomem*.so in {build / 'python'}, found {built}")
        destination = pathlib.Path(self.get_ext_fullpath(ext.name))
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], destination)


setup(
    # name, version, description, readme, python version and license: pyproject.toml's [project].
    packages=["hlomem"],
    package_dir={"": "python"},
    package_data={"hlomem": ["__init__.pyi", "py.typed"]},
    ext_modules=[CMakeExtension("hlomem._hlomem", target="hlomem_python")],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
    # Out of CMake's build/ (the README's), and ignored by git like it.
    options={"build": {"build_base": "build-python"}},
)

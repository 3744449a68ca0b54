#!/usr/bin/env bash
# Installs hlomem's build and test dependencies from Debian 12 when they are missing:
# cmake, ninja, g++, Boost 1.74 headers (Spirit X3, Graph), Catch2 2.13, and for the Python module
# pybind11 2.10, the Python headers, pytest and setuptools (for `pip install .`). Nothing is downloaded
# from anywhere else. Safe to run repeatedly; it only calls apt when something is absent.
# Optional packages are named as arguments: `install-deps.sh clang chromium` (chromium renders
# the pages of `hlomem timeline` in the browser tests, which are skipped without it).
set -euo pipefail

missing=()
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v make >/dev/null 2>&1 || missing+=(make)
# Ninja: the README builds with it, which compiles the objects of every target side by side (make
# finishes a target before it starts the next one that links it).
command -v ninja >/dev/null 2>&1 || missing+=(ninja-build)
[ -f /usr/include/boost/spirit/home/x3.hpp ] || missing+=(libboost-dev)
[ -f /usr/include/catch2/catch.hpp ] || missing+=(catch2)
# The Python module (python/) and its tests, for Debian's interpreter /usr/bin/python3.
for pkg in python3-dev pybind11-dev python3-pybind11 python3-pytest python3-setuptools python3-venv; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
# Extra packages a caller asks for, e.g. `install-deps.sh clang chromium`.
for pkg in "$@"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: everything is already installed"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"

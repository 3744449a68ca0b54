# hlomem_find_python(FOUND): finds the Python interpreter with its headers, then pybind11 (its CMake
# config, from Debian's pybind11-dev), and sets FOUND to whether both were found. Debian's
# interpreter, /usr/bin/python3, is preferred when it exists: a python3 earlier on PATH (pyenv)
# would not see Debian's python3-pybind11 and python3-pytest. Give -DPython_EXECUTABLE=... for
# another (setup.py gives the interpreter pip runs).
include_guard(GLOBAL)

macro(hlomem_find_python found)
  if(NOT DEFINED Python_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python_EXECUTABLE /usr/bin/python3)
  endif()
  if(NOT Python_FOUND)
    find_package(Python 3.7 COMPONENTS Interpreter Development.Module QUIET)
  endif()
  if(Python_FOUND AND NOT pybind11_FOUND)
    find_package(pybind11 2.10 CONFIG QUIET)
  endif()
  if(Python_FOUND AND pybind11_FOUND)
    set(${found} ON)
  else()
    set(${found} OFF)
  endif()
endmacro()

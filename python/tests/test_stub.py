"""The type stub (__init__.pyi) names every public function, class and member of the module, and
nothing the module lacks, so that type checkers and editors see the API as it is."""

import ast
import pathlib

import hlomem

STUB = pathlib.Path(hlomem.__file__).with_name("__init__.pyi")


def stub_names():
    tree = ast.parse(STUB.read_text())
    top, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {n.name if isinstance(n, ast.FunctionDef) else n.target.id
                                  for n in node.body if isinstance(n, (ast.FunctionDef, ast.AnnAssign))}
    return top, members


def test_the_stub_is_the_module():
    top, members = stub_names()
    assert set(hlomem.__all__) == top - {n for n in top if n.startswith("_") and n != "__version__"}
    for name, stubbed in members.items():
        cls = getattr(hlomem, name)
        if issubclass(cls, Exception):
            continue  # attributes set on each instance
        public = {m for m in dir(cls) if not m.startswith("_")} | ({"_repr_html_"} & set(dir(cls))) | ({"__eq__", "__getitem__"} & stubbed)
        assert public == stubbed, name

"""Errors: hlomem.ParseError carries file, line, column and the offending line, as the C++ error does."""

import pytest

import hlomem
from conftest import DATA

# tests/data/malformed/KIND-NAME.txt and the C++ error for it, KIND-NAME.expected (as the tool prints
# it); "parsed" when the text reads but contradicts itself (then it is no parse error).
MALFORMED = sorted(p.name for p in (DATA / "malformed").glob("*.txt")
                   if not p.with_suffix(".expected").read_text().startswith("parsed"))
SHAPES = [name for name in MALFORMED if name.startswith("shape-")]
# Their first line is not yet what their kind starts with, so by content they are of no kind
# (the C++ test hands them to their kind's parser by name).
NO_KIND = ["hlo-no-hlomodule.txt", "mur-no-total.txt"]
TEXTS = [name for name in MALFORMED if not name.startswith("shape-") and name not in NO_KIND]


def test_the_malformed_inputs_are_all_there():
    assert len(TEXTS) >= 20 and len(SHAPES) >= 5


def check_parts(e, expected):
    assert isinstance(e, ValueError)
    first, line, caret = expected.splitlines()
    assert first == f"{e.file}:{e.line}:{e.column}: error: {e.reason}"
    assert line == e.source_line
    # the caret under the column; tabs kept so that it lines up however tabs are shown
    assert caret == "".join("\t" if c == "\t" else " " for c in line[:e.caret]) + "^"


@pytest.mark.parametrize("name", TEXTS)
def test_parse_errors_say_what_the_tool_says(in_data, name):
    expected = (DATA / "malformed" / name).with_suffix(".expected").read_text()
    with pytest.raises(hlomem.ParseError) as caught:
        hlomem.load("malformed/" + name)
    assert str(caught.value) + "\n" == expected
    check_parts(caught.value, expected)


@pytest.mark.parametrize("name", NO_KIND)
def test_text_of_no_kind_is_no_parse_error(in_data, name):
    with pytest.raises(ValueError, match="not a kind of XLA text hlomem reads") as caught:
        hlomem.load("malformed/" + name)
    assert not isinstance(caught.value, hlomem.ParseError)


@pytest.mark.parametrize("name", SHAPES)
def test_shape_errors_say_what_the_library_says(name):
    path = DATA / "malformed" / name
    expected = path.with_suffix(".expected").read_text().replace("malformed/" + name, "<shape>", 1)
    with pytest.raises(hlomem.ParseError) as caught:
        hlomem.shape(path.read_text().rstrip("\n"))
    assert str(caught.value) + "\n" == expected
    check_parts(caught.value, expected)


def test_a_parse_error_in_text_names_the_text():
    text = (DATA / "malformed" / "hlo-bad-layout.txt").read_text()
    with pytest.raises(hlomem.ParseError) as caught:
        hlomem.load(text, name="cell 3")
    e = caught.value
    assert (e.file, e.line, e.column, e.expected) == ("cell 3", 4, 28, "',' or ')'")
    assert e.source_line == "  ROOT a = f32[8]{0:T(8,128} parameter(0)"


def test_a_missing_file_is_file_not_found():
    with pytest.raises(FileNotFoundError, match="cannot open 'no/such/file.txt'"):
        hlomem.load("no/such/file.txt")


def test_text_of_no_kind_hlomem_reads():
    with pytest.raises(ValueError, match="not a kind of XLA text hlomem reads") as caught:
        hlomem.load("hello\nworld\n")
    assert not isinstance(caught.value, hlomem.ParseError)


def test_load_refuses_what_is_neither_path_nor_text():
    with pytest.raises(TypeError, match="not int"):
        hlomem.load(42)


def test_shape_errors():
    with pytest.raises(hlomem.ParseError) as caught:
        hlomem.shape("f32[8,128]{1,1}")
    e = caught.value
    assert (e.file, e.line, e.column) == ("<shape>", 1, 14)
    assert "minor_to_major lists dimension 1 twice" in e.reason
    with pytest.raises(hlomem.ShapeError):
        hlomem.shape("f32[?]{0}").padded_bytes


def test_a_dump_without_live_ranges_has_no_timeline(in_data):
    dump = hlomem.load((DATA / "synthetic" / "newest_simple-buffer-assignment.txt").read_bytes())
    with pytest.raises(ValueError, match="no live ranges"):
        dump.timeline()
    with pytest.raises(ValueError, match="size_function takes 'xla' or 'tpu'"):
        hlomem.load("seeds/002_b0117d631587537a.txt").timeline(size_function="gpu")

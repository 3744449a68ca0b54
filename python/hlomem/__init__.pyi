"""Type hints for hlomem (the extension hlomem._hlomem and hlomem.from_jax)."""

import os
from typing import Any, Dict, List, Optional, Sequence, Union

__version__: str

class ParseError(ValueError):
    """Text that does not read: the message is file:line:column: error: reason, the line, a caret."""

    file: str
    """The file as named: a path, the name given to text ('<text>'), '<shape>'."""
    line: int
    """1-based line."""
    column: int
    """1-based column, in bytes from the start of the line."""
    expected: str
    """What the grammar expected ("']'"); empty for other errors."""
    reason: str
    """Why, without the place: "expected ']'", "unknown primitive type 'x32'"."""
    source_line: str
    """The offending line (cut to a window around the column when very long)."""
    caret: int
    """0-based position of the column within source_line."""

class ShapeError(ValueError):
    """A shape operation without an answer: the size of an unbounded (?) dimension, a size past int64."""

class Shape:
    """An XLA shape read from its text, with its sizes under XLA's rules (`hlomem shape`)."""

    @property
    def padded_bytes(self) -> int:
        """XLA's ShapeUtil::ArraySize: tiles, L(n), E(n) and splits applied (tuples: arrays added up)."""
    @property
    def unpadded_bytes(self) -> int:
        """Bytes without tiling padding: what XProf and TPU out-of-memory reports call unpadded."""
    @property
    def byte_size_of(self) -> int:
        """XLA's ShapeUtil::ByteSizeOf (a tuple: its 8-byte pointer table)."""
    @property
    def elements(self) -> int:
        """Elements (tuples: of their arrays, added up)."""
    @property
    def tuple_table_bytes(self) -> int:
        """Bytes of the pointer tables of a tuple and its nested tuples; 0 for an array."""
    @property
    def physical(self) -> str:
        """The shape the tiled layout stores: bf16[512,28,4,128,2,1] for bf16[4096,3584]{1,0:T(8,128)(2,1)}."""
    @property
    def is_tuple(self) -> bool:
        """Whether it is a tuple."""
    def explain(self) -> str:
        """Where the padding comes from, dimension by dimension, and the changes that would remove it."""
    def __eq__(self, other: object) -> bool:
        """XLA's Shape::Equal."""

class LogicalValue:
    """A logical value of the buffer assignment: what `hlomem report --json` lists in 'values'."""

    @property
    def id(self) -> int: ...
    @property
    def name(self) -> str:
        """The defining instruction."""
    @property
    def index(self) -> str:
        """Its shape index in the instruction's result: '{}', '{0,1}'."""
    @property
    def phi(self) -> bool: ...
    @property
    def color(self) -> Optional[int]:
        """The memory space (`@0`); None in old dumps."""
    @property
    def allocation(self) -> Optional[int]:
        """The index of its allocation; None when it has none."""
    @property
    def offset(self) -> int:
        """Within the allocation."""
    @property
    def size(self) -> int:
        """The assigned size."""
    @property
    def shape(self) -> Optional[str]: ...
    @property
    def instruction_shape(self) -> Optional[str]:
        """The defining instruction's result shape (from its Used-values block)."""
    @property
    def live_range(self) -> Optional[List[int]]:
        """[start, end] in program order; None without live ranges."""
    @property
    def op_type(self) -> Optional[str]: ...
    @property
    def op_name(self) -> Optional[str]: ...
    @property
    def source_file(self) -> Optional[str]: ...
    @property
    def source_line(self) -> Optional[int]: ...
    @property
    def origin(self) -> Dict[str, Any]:
        """Where its bytes come from (docs/TOOL.md, `origin`): kind ('own', 'argument', 'output', 'inherited', 'none'), how, the source traced to, argument, argument_name, argument_shape, donated, output, through, stack (the Python stack of that source, outermost frame first: a list of dicts with file_name, function_name, line, column; None without the module's stack tables)."""
    def to_dict(self) -> Dict[str, Any]:
        """Exactly its entry of to_dict()['values']."""

class Allocation:
    """An allocation of the buffer assignment: what `hlomem report --json` lists in 'allocations'."""

    @property
    def index(self) -> int: ...
    @property
    def size(self) -> int: ...
    @property
    def color(self) -> int: ...
    @property
    def kind(self) -> str:
        """'parameter', 'constant', 'thread_local', 'output', 'temp', ..."""
    @property
    def parameter(self) -> Optional[int]:
        """The entry parameter number of a parameter allocation."""
    @property
    def parameter_shape_index(self) -> Optional[str]:
        """A parameter's shape index; None (and absent from to_dict()) for other allocations."""
    @property
    def parameter_shape(self) -> Optional[str]:
        """A parameter's shape; None (and absent from to_dict()) for other allocations."""
    @property
    def output_shape(self) -> Optional[str]: ...
    @property
    def constant(self) -> bool: ...
    @property
    def thread_local(self) -> bool: ...
    @property
    def maybe_live_out(self) -> bool: ...
    @property
    def preallocated_temp(self) -> bool: ...
    @property
    def values(self) -> List[LogicalValue]:
        """Its values, the Dump's own LogicalValue objects (to_dict() lists their ids)."""
    def to_dict(self) -> Dict[str, Any]:
        """Exactly its entry of to_dict()['allocations']."""

class SourceLine:
    """A source line's share of a color's peak (Color.peak_by_source)."""

    @property
    def source_file(self) -> Optional[str]:
        """None for the values without a source."""
    @property
    def source_line(self) -> Optional[int]: ...
    @property
    def origin(self) -> str:
        """The kind of origin of its values: 'own', 'inherited', 'output', 'argument', or 'none' for no source."""
    @property
    def argument(self) -> Optional[int]:
        """N for the row of argument N of the function (source_file and source_line None)."""
    @property
    def bytes(self) -> int:
        """Bytes of the peak its values hold (shared bytes once)."""
    @property
    def values(self) -> List[int]:
        """The ids of its values live at the peak."""
    @property
    def text(self) -> Optional[str]:
        """The line's text from the program's source file (as written, or below Dump.source_roots); None where not found. Not in to_dict()."""
    def to_dict(self) -> Dict[str, Any]: ...

class HoldingNode:
    """A node of a color's peak by op_name prefix or by Python stack frame."""

    @property
    def name(self) -> str: ...
    @property
    def bytes(self) -> int:
        """Bytes of the peak held under it (its values and its children's)."""
    @property
    def values(self) -> List[int]:
        """The ids of the values held at this node itself."""
    @property
    def children(self) -> List["HoldingNode"]: ...
    def to_dict(self) -> Dict[str, Any]: ...

class Color:
    """A color (memory space) of the buffer assignment: what `hlomem report --json` lists in 'colors'."""

    @property
    def color(self) -> int: ...
    @property
    def allocated_bytes(self) -> int: ...
    @property
    def peak_live_bytes(self) -> Optional[int]:
        """Most bytes live at once (memory shared by aliases once); None without live ranges."""
    @property
    def peak_time(self) -> Optional[int]: ...
    @property
    def peak_instruction(self) -> Optional[str]: ...
    @property
    def temp_allocated_bytes(self) -> Optional[int]: ...
    @property
    def temp_lower_bound_bytes(self) -> Optional[int]:
        """The least any allocator needs for the temps."""
    @property
    def temp_smallest_bytes(self) -> Optional[int]:
        """The smallest temp arenas hlomem's exact search finds; None where one was not searched."""
    @property
    def temp_smallest_proven(self) -> Optional[bool]:
        """Whether temp_smallest_bytes is proven smallest."""
    @property
    def lower_bound_bytes(self) -> Optional[int]: ...
    @property
    def padded_bytes(self) -> Optional[int]: ...
    @property
    def unpadded_bytes(self) -> Optional[int]: ...
    @property
    def peak_by_source(self) -> List[SourceLine]:
        """The peak by source line, largest first; they add up to the peak."""
    @property
    def peak_by_op_name(self) -> Optional[HoldingNode]: ...
    @property
    def peak_by_stack_frame(self) -> Optional[HoldingNode]: ...
    def to_dict(self) -> Dict[str, Any]:
        """Exactly its entry of to_dict()['colors'] (keys absent there are None here)."""

class Inconsistency:
    """Where a dump contradicts itself (to_dict()['warnings'])."""

    @property
    def line(self) -> int:
        """The line of the dump; 0 for the dump as a whole."""
    @property
    def message(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...

class HeldNode:
    """A node of Dump.peak_by_source's tree by op_name or by stack frame."""

    @property
    def name(self) -> str: ...
    @property
    def bytes(self) -> int:
        """The bytes held there and below: its values' and its children's."""
    @property
    def values(self) -> List[PeakValue]: ...
    @property
    def children(self) -> List["HeldNode"]: ...
    def __getitem__(self, key: str) -> Any:
        """The attribute `key`, as the dict this was before 0.11 gave it (kept for one release)."""
    def to_dict(self) -> Dict[str, Any]: ...

class SourceGroup:
    """A source line's share of a color's peak in Dump.peak_by_source(by='source_line')."""

    @property
    def source_file(self) -> Optional[str]:
        """None for an argument or no source."""
    @property
    def source_line(self) -> Optional[int]: ...
    @property
    def origin(self) -> str:
        """The kind of source the bytes are traced to (Value.origin's kind)."""
    @property
    def argument(self) -> Optional[int]:
        """The parameter number of an argument; None otherwise."""
    @property
    def label(self) -> str: ...
    @property
    def bytes(self) -> int: ...
    @property
    def values(self) -> List[PeakValue]:
        """The largest first."""
    def __getitem__(self, key: str) -> Any:
        """The attribute `key`, as the dict this was before 0.11 gave it (kept for one release)."""
    def to_dict(self) -> Dict[str, Any]: ...

class PeakSources:
    """One color's peak in Dump.peak_by_source: its moment and bytes, and the groups by source line or
    the tree by op_name or stack frame (the other is None, and not in to_dict())."""

    @property
    def color(self) -> int: ...
    @property
    def time(self) -> int: ...
    @property
    def instruction(self) -> str: ...
    @property
    def bytes(self) -> int: ...
    @property
    def groups(self) -> Optional[List[SourceGroup]]: ...
    @property
    def tree(self) -> Optional[HeldNode]: ...
    def __getitem__(self, key: str) -> Any:
        """The attribute `key`, as the dict this was before 0.11 gave it (kept for one release)."""
    def to_dict(self) -> Dict[str, Any]: ...

class BreakdownValue:
    """A value live at a color's peak, as the text report lists the largest (Dump.breakdown)."""

    @property
    def id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def index(self) -> str: ...
    @property
    def bytes(self) -> int: ...
    @property
    def allocation(self) -> int: ...
    @property
    def allocation_kind(self) -> str: ...
    @property
    def shape(self) -> Optional[str]: ...
    def __getitem__(self, key: str) -> Any:
        """The attribute `key`, as the dict this was before 0.11 gave it (kept for one release)."""
    def to_dict(self) -> Dict[str, Any]: ...

class ColorBreakdown:
    """What is live at one color's peak (Dump.breakdown): the peak and the largest values there."""

    @property
    def color(self) -> int: ...
    @property
    def allocated_bytes(self) -> int: ...
    @property
    def peak_bytes(self) -> int: ...
    @property
    def peak_time(self) -> int: ...
    @property
    def peak_instruction(self) -> str: ...
    @property
    def live_values(self) -> int: ...
    @property
    def values(self) -> List[BreakdownValue]:
        """The largest values live there, largest first."""
    def __getitem__(self, key: str) -> Any:
        """The attribute `key`, as the dict this was before 0.11 gave it (kept for one release)."""
    def to_dict(self) -> Dict[str, Any]: ...

class Violation:
    """A violation of soundness (Dump.check), as `hlomem check --json` lists it in 'violations'
    (to_dict() has its keys, and severity and column besides)."""

    @property
    def kind(self) -> str: ...
    @property
    def severity(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def allocation(self) -> Optional[int]: ...
    @property
    def values(self) -> List[int]:
        """The ids of the values it names."""
    @property
    def sources(self) -> List[Dict[str, Any]]:
        """Each value's id, op_type, op_name, source_file, source_line and origin, as the JSON's."""
    @property
    def message(self) -> str: ...
    def __getitem__(self, key: str) -> Any:
        """The attribute `key`, as the dict this was before 0.11 gave it (kept for one release)."""
    def to_dict(self) -> Dict[str, Any]: ...

class Prediction:
    """How hlomem.assign predicted an assignment (Dump.prediction)."""

    @property
    def backend(self) -> str:
        """'gpu', 'cpu' or 'tpu'."""
    @property
    def backend_source(self) -> str:
        """'given', 'inferred' or 'default'."""
    @property
    def backend_reason(self) -> str: ...
    @property
    def alignment(self) -> int:
        """The temp alignment followed."""
    @property
    def algorithm(self) -> str: ...
    @property
    def module(self) -> str:
        """The module's file, or the name given to its text."""
    def __getitem__(self, key: str) -> Any:
        """The attribute `key`, as the dict this was before 0.11 gave it (kept for one release)."""
    def to_dict(self) -> Dict[str, Any]: ...

class PeakValue:
    """A value at a peak and its bytes there: under XLA's rule at XLA's peak (Dump.peak.values), or
    the bytes of the peak it holds, shared bytes once (Dump.peak_by_source)."""

    @property
    def id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def index(self) -> str: ...
    @property
    def bytes(self) -> int: ...
    def __getitem__(self, key: str) -> Any:
        """The attribute `key`, as the dict a peak_by_source value was before 0.11 gave it (kept for one release)."""
    def to_dict(self) -> Dict[str, Any]: ...

class MemoryAnalysis:
    """What jax's compiled.memory_analysis() reports (XLA's CompiledMemoryStats), computed by XLA's
    rules; each figure None where no text states it (the code size, a peak without live ranges)."""

    @property
    def generated_code_size_in_bytes(self) -> Optional[int]: ...
    @property
    def argument_size_in_bytes(self) -> Optional[int]: ...
    @property
    def output_size_in_bytes(self) -> Optional[int]: ...
    @property
    def alias_size_in_bytes(self) -> Optional[int]: ...
    @property
    def temp_size_in_bytes(self) -> Optional[int]: ...
    @property
    def host_generated_code_size_in_bytes(self) -> Optional[int]: ...
    @property
    def host_argument_size_in_bytes(self) -> Optional[int]: ...
    @property
    def host_output_size_in_bytes(self) -> Optional[int]: ...
    @property
    def host_alias_size_in_bytes(self) -> Optional[int]: ...
    @property
    def host_temp_size_in_bytes(self) -> Optional[int]: ...
    @property
    def peak_memory_in_bytes(self) -> Optional[int]: ...
    @property
    def total_allocation_bytes(self) -> Optional[int]: ...
    @property
    def indefinite_allocations(self) -> Optional[int]: ...
    @property
    def peak_unpadded_heap_bytes(self) -> Optional[int]: ...
    @property
    def peak(self) -> Dict[str, Any]:
        """How the peak was reached: static_bytes, static_unpadded_bytes, heap_bytes, color, time, instruction, values."""
    @property
    def notes(self) -> List[str]: ...
    def to_dict(self) -> Dict[str, Any]:
        """The report's 'memory_analysis' object."""

class Peak:
    """XLA's peak (HloLiveRange's) recomputed: the report's live_range.peak_* keys."""

    @property
    def time(self) -> int: ...
    @property
    def instruction(self) -> str: ...
    @property
    def bytes(self) -> int:
        """XLA's running sum at the peak."""
    @property
    def listed_bytes(self) -> int:
        """The sizes of the values listed there, added up."""
    @property
    def rule(self) -> str:
        """'instruction_shape' or 'value_subshape': the listing's sizes and order, older XLA's (each
        value its defining instruction's whole shape, by id) or the newest's (each its own shape, by
        size); the moment and `bytes` are the same under both."""
    @property
    def stated_time(self) -> Optional[int]:
        """The peak the dump states, if it does."""
    @property
    def matches_stated(self) -> bool: ...
    @property
    def values(self) -> List[PeakValue]: ...
    def to_dict(self) -> Dict[str, Any]: ...

class TimelineColor:
    """A color of a timeline: what `hlomem timeline --json` lists in 'colors'."""

    @property
    def color(self) -> int: ...
    @property
    def allocated_bytes(self) -> int: ...
    @property
    def peak_bytes(self) -> int: ...
    @property
    def peak_time(self) -> int: ...
    @property
    def peak_instruction(self) -> str: ...
    @property
    def unpadded_bytes_at_peak(self) -> int: ...
    @property
    def live_at_peak(self) -> int:
        """How many values are live at the peak."""
    @property
    def values(self) -> int:
        """Values on the time axis."""
    @property
    def drawn(self) -> int: ...
    @property
    def aggregated(self) -> int: ...
    @property
    def bands(self) -> int: ...
    @property
    def unranged_values(self) -> int: ...
    def to_dict(self) -> Dict[str, Any]: ...

class BytePair:
    """A byte count of A and of B, and its change."""

    @property
    def a(self) -> int: ...
    @property
    def b(self) -> int: ...
    @property
    def delta(self) -> int:
        """b - a."""
    def to_dict(self) -> Dict[str, int]: ...

class Sides:
    """A figure of A and of B: a time, an instruction, the ids of the values live (None: not measured)."""

    @property
    def a(self) -> Any: ...
    @property
    def b(self) -> Any: ...
    def to_dict(self) -> Dict[str, Any]: ...

class KindBytes:
    """Bytes allocated to one kind of allocation in A and B."""

    @property
    def kind(self) -> str: ...
    @property
    def a(self) -> int: ...
    @property
    def b(self) -> int: ...
    @property
    def delta(self) -> int: ...
    def to_dict(self) -> Dict[str, Any]: ...

class SourceLineChange:
    """A source line's bytes at A's and B's peaks."""

    @property
    def source_file(self) -> Optional[str]: ...
    @property
    def source_file_b(self) -> Optional[str]:
        """B's path of the file (source_file is A's); None when B has none of it."""
    @property
    def relative_file(self) -> Optional[str]:
        """The file as shown: the path tail A's and B's paths share when they differ, else its path."""
    @property
    def source_line(self) -> Optional[int]: ...
    @property
    def argument(self) -> Optional[int]:
        """N for the row of argument N of the function (the files and line None)."""
    @property
    def a(self) -> int: ...
    @property
    def b(self) -> int: ...
    @property
    def delta(self) -> int: ...
    @property
    def values_a(self) -> List[int]: ...
    @property
    def values_b(self) -> List[int]: ...
    def to_dict(self) -> Dict[str, Any]: ...

class DiffColor:
    """A color of a diff: what `hlomem diff --json` lists in 'colors'."""

    @property
    def color(self) -> int: ...
    @property
    def allocated_bytes(self) -> BytePair: ...
    @property
    def peak_live_bytes(self) -> BytePair: ...
    @property
    def peak_time(self) -> Sides: ...
    @property
    def peak_instruction(self) -> Sides: ...
    @property
    def live_at_peak(self) -> Sides:
        """The ids of the values live at each side's peak, largest first."""
    @property
    def allocated_by_kind(self) -> List[KindBytes]: ...
    @property
    def peak_by_source(self) -> List[SourceLineChange]:
        """Largest change first."""
    @property
    def padded_bytes(self) -> BytePair: ...
    @property
    def unpadded_bytes(self) -> BytePair: ...
    @property
    def temp_allocated_bytes(self) -> BytePair: ...
    @property
    def temp_lower_bound_bytes(self) -> BytePair: ...
    @property
    def temp_above_bound_bytes(self) -> BytePair:
        """Fragmentation of the temp arena: what XLA allocated above the bound."""
    def to_dict(self) -> Dict[str, Any]: ...

class Timeline:
    """Memory over program order per color (`hlomem timeline`): live bytes, the peak, every buffer."""

    def page(self) -> str:
        """The self-contained HTML page (`hlomem timeline -o OUT.html`)."""
    def save_page(self, path: Union[str, os.PathLike[str]]) -> None:
        """Writes page() to path, as `hlomem timeline -o PATH.html` does; OSError when it cannot."""
    def html(self) -> str:
        """page(), by its name before 0.11 (kept for one release)."""
    def svg(self) -> str:
        """The static SVG picture (`hlomem timeline -o OUT.svg`)."""
    def to_json(self) -> str:
        """The summary as `hlomem timeline --json` prints it."""
    def to_dict(self) -> Dict[str, Any]:
        """The summary as a dict: exactly what `hlomem timeline --json` prints."""
    @property
    def colors(self) -> List[TimelineColor]:
        """Per color: peak bytes, time and instruction, what was drawn (to_dict()['colors'])."""
    def save(self, path: Union[str, os.PathLike[str]]) -> None:
        """Writes the page (.html, .htm: save_page()) or the SVG picture (.svg)."""
    def _repr_html_(self) -> str:
        """The page inline in Jupyter, in a sandboxed iframe."""

class Dump:
    """An XLA text read by hlomem.load, of the kind its content says.

    The buffer-assignment views (allocations ... timeline) work on a dump and on a file of one HLO
    module, whose assignment hlomem derives from the module's schedule and live ranges.
    """

    @property
    def kind(self) -> str:
        """'buffer_assignment', 'live_range', 'memory_usage_report', 'hlo_module', 'oom_log' or 'minimalloc_csv'."""
    @property
    def name(self) -> str:
        """The path it was read from, or the name given to text (default '<text>')."""
    @property
    def live_range_file(self) -> Optional[str]:
        """The separate -live-range.txt read with a dump, or None."""
    @property
    def memory_usage_report_file(self) -> Optional[str]:
        """The -memory-usage-report.txt the dump was checked against, or None."""
    def to_json(self, *, strip_roots: Sequence[str] = ...) -> str:
        """`hlomem report --json FILE`, byte for byte; strip_roots: as `--strip-root` names them."""
    def to_dict(self, *, strip_roots: Sequence[str] = ...) -> Union[Dict[str, Any], List[Dict[str, Any]]]:
        """Exactly the dict `hlomem report --json FILE` prints (a list for a file of several modules)."""
    def report(self, top: int = 20, *, strip_roots: Sequence[str] = ...) -> str:
        """`hlomem report FILE` as text; `top` values listed at each peak; strip_roots: the folders
        source files are shown below (`--strip-root`)."""
    @property
    def assignment_dict(self) -> Dict[str, Any]:
        """The buffer-assignment report of the dump, or of the assignment derived from the module."""
    @property
    def total_bytes(self) -> int:
        """Bytes of all allocations."""
    @property
    def allocations(self) -> List[Allocation]:
        """Every allocation: index, size, color, kind, parameter, flags, its values."""
    @property
    def values(self) -> List[LogicalValue]:
        """Every logical value (made once): id, name, index, allocation, offset, size, shape, live_range, metadata."""
    def values_frame(self) -> Any:
        """The values as a pandas DataFrame (a column a LogicalValue attribute); ImportError without pandas."""
    @property
    def colors(self) -> List[Color]:
        """Per color: allocated bytes, peak live bytes with its time and instruction, bounds, padding, the peak by source."""
    @property
    def warnings(self) -> List[Inconsistency]:
        """Where the dump contradicts itself: line, message."""
    @property
    def peak(self) -> Optional[Peak]:
        """XLA's peak recomputed: time, instruction, bytes, listed_bytes, rule, stated_time, matches_stated, values."""
    def breakdown(self, top: int = 20) -> List[ColorBreakdown]:
        """Per color: its peak and the `top` largest values live there, largest first."""
    @property
    def module_file(self) -> Optional[str]:
        """The module read with a dump for the sources of its values, or None."""
    def peak_by_source(self, by: str = "source_line") -> List[PeakSources]:
        """Per color, the peak's bytes by 'source_line' (groups: source_file, source_line, origin kind, argument, label), 'op_name' or 'stack_frame' (trees); each value's bytes go to the source they are traced to (Value.origin); they add up to the peak."""
    def check(self, size_function: Optional[str] = None) -> List[Violation]:
        """Soundness violations (`hlomem check`): kind, severity, line, column, allocation, values, sources (each value's op_type, op_name, source_file, source_line), message."""
    def liveness(self) -> str:
        """XLA's HloLiveRange text of the assignment (`hlomem liveness` for a module)."""
    def timeline(self, size_function: Optional[str] = None, max_rectangles: int = 2000) -> Timeline:
        """Memory over program order per color, drawn inline in Jupyter; save(path) writes it."""
    @property
    def text(self) -> str:
        """The text it was read from; for hlomem.assign, the dump `hlomem assign` prints."""
    @property
    def source_roots(self) -> List[str]:
        """Folders the program's source files are looked for below (`--source-root`), for SourceLine.text and the timeline page."""
    @source_roots.setter
    def source_roots(self, roots: Sequence[str]) -> None: ...
    @property
    def prediction(self) -> Optional[Prediction]:
        """Set by assign: backend, backend_source ('given', 'inferred', 'default'), backend_reason, alignment, algorithm, module; None otherwise."""
    def what_if(
        self,
        donate: Union[int, Sequence[int]] = ...,
        remat: Union[str, Sequence[str]] = ...,
        offload: Union[str, Sequence[str]] = ...,
        from_time: Optional[int] = None,
        chain: int = 0,
    ) -> WhatIf:
        """Edits evaluated on the module (`hlomem whatif`): donations (parameter numbers), then
        remats, then offloads (instruction names), each in the order given; a remat or offload
        splits at from_time, or at XLA's peak; a remat may recompute up to `chain` of its operands
        in turn (`--chain`). ValueError without a module (a dump read without
        its module) and for a name the module lacks."""
    @property
    def memory_analysis(self) -> Optional[MemoryAnalysis]:
        """What compiled.memory_analysis() would report, by XLA's rules (a dump's assignment, or the
        assignment predicted for a file of one module); None for other kinds of text."""
    jax_memory_analysis: Optional[Dict[str, Dict[str, Optional[int]]]]
    """Set by from_jax: {figure: {'jax': bytes or None, 'hlomem': bytes or None}} for every figure; None otherwise."""

class WhatIf:
    """Edits evaluated on a scheduled module (`hlomem whatif`): the peaks before and after, each
    edit with its cost or XLA's reason to refuse it; str() is the tool's text."""

    def to_json(self) -> str:
        """`hlomem whatif --json`, byte for byte."""
    def to_dict(self) -> Dict[str, Any]:
        """`hlomem whatif --json` as a dict: module, before, edits, after."""
    @property
    def accepted(self) -> bool:
        """Whether every edit was accepted (the tool exits 1 when one is refused)."""
    def emit_module(self) -> str:
        """The module's text with the accepted edits written in (`--emit-module`)."""
    def page(self) -> str:
        """The self-contained HTML page of `hlomem whatif --page`: each memory space's live bytes
        before and after the edits, the edited values marked."""
    def save_page(self, path: Union[str, os.PathLike[str]]) -> None:
        """Writes page() to path, as `hlomem whatif --page PATH` does; OSError when it cannot."""
    def report(self) -> str:
        """What `hlomem whatif` prints (text), as str() gives it."""

class Advice:
    """The edits that bring each memory space under a budget (`hlomem advise`): ranked candidates,
    the smallest set found, what stands in the way; str() is the tool's text."""

    def to_json(self) -> str:
        """`hlomem advise --json`, byte for byte."""
    def to_dict(self) -> Dict[str, Any]:
        """`hlomem advise --json` as a dict: module, colors, set, exact_search, candidates, refused."""
    @property
    def fits(self) -> bool:
        """Whether the set brings every memory space under its budget (the tool exits 1 when not)."""
    def emit_module(self) -> str:
        """The module's text with the set written in (`--emit-module`)."""
    def page(self) -> str:
        """The self-contained HTML page of `hlomem advise --page`: the set applied, each memory
        space's live bytes before and after it and its budget, the edited values marked."""
    def save_page(self, path: Union[str, os.PathLike[str]]) -> None:
        """Writes page() to path, as `hlomem advise --page PATH` does; OSError when it cannot."""
    def report(self) -> str:
        """What `hlomem advise` prints (text), as str() gives it."""

class Knob:
    """A setting a diff's changes look like, and whether it took effect (to_dict()['knobs'][i])."""

    @property
    def knob(self) -> str:
        """'donation', 'remat', 'offload', 'scheduling', 'layout' or 'fusion'."""
    @property
    def effect(self) -> str:
        """'took_effect', 'no_effect' or 'partly'."""
    @property
    def bytes_at_peak(self) -> int:
        """B's bytes held by the knob's values at B's peak minus A's at A's (negative: freed)."""
    @property
    def values(self) -> List[Dict[str, Any]]:
        """The values (or parameters) it is about, the largest first: side ('a' or 'b'), id, name, bytes."""
    @property
    def text(self) -> str:
        """What changed, and the evidence, in one sentence."""

class Diff:
    """Why memory changed between two compilations of one program (`hlomem diff A B`), the verdict first."""

    @property
    def a(self) -> Optional[Dump]:
        """A, the baseline (None when A is a snapshot)."""
    @property
    def b(self) -> Optional[Dump]:
        """B (None when B is a snapshot)."""
    def to_json(self) -> str:
        """`hlomem diff --json A B`, byte for byte."""
    def to_dict(self) -> Dict[str, Any]:
        """Exactly the dict `hlomem diff --json A B` prints."""
    def report(self) -> str:
        """`hlomem diff A B` as text."""
    @property
    def verdict(self) -> List[str]:
        """What explains most of the change, in sentences, the most telling first."""
    @property
    def knobs(self) -> List[Knob]:
        """The settings the changes look like, each saying whether it took effect, the largest move at the peak first."""
    @property
    def total_bytes(self) -> BytePair:
        """'Total bytes used' of A and B and its change (a, b, delta)."""
    @property
    def colors(self) -> List[DiffColor]:
        """Per color: allocated and peak live bytes of A and B, the peak's moment, bytes by kind, the peak by source line, padding, the temp arena (to_dict()['colors'])."""
    @property
    def matched_values(self) -> int:
        """How many values of A were matched with one of B (the list: to_dict()['matched_values'])."""
    @property
    def only_in_a(self) -> int:
        """How many values of A match none of B."""
    @property
    def only_in_b(self) -> int:
        """How many values of B match none of A."""
    @property
    def changes(self) -> int:
        """How many matched values changed size, shape or live range."""
    def page(self) -> str:
        """The self-contained HTML page (`hlomem diff -o OUT.html A B`); ValueError when a side is
        a snapshot, which keeps no live ranges."""
    def save_page(self, path: Union[str, os.PathLike[str]]) -> None:
        """Writes page() to path, as `hlomem diff -o PATH A B` does; OSError when it cannot."""
    def html(self) -> str:
        """page(), by its name before 0.11 (kept for one release)."""
    def save(self, path: Union[str, os.PathLike[str]]) -> None:
        """save_page(), by its name before 0.11 (kept for one release), for a path ending .html or .htm."""
    def _repr_html_(self) -> str:
        """The page inline in Jupyter, in a sandboxed iframe."""
    @property
    def not_compared(self) -> List[str]:
        """What the diff cannot compare because a side is a snapshot (empty for two dumps or modules)."""
    def gate(self, fail_above: Optional[str] = None, *, measure: str = "peak", fail_on_unused_donation: bool = False) -> List[str]:
        """The gate of `hlomem diff --fail-above X --measure M --fail-on-unused-donation`: its failures,
        one line each (empty: it passes). fail_above: bytes ('1048576') or a percentage ('2%');
        measure: 'peak' or 'total'."""
    def markdown(self, *, rows: int = 10, fail_above: Optional[str] = None, measure: str = "peak",
                 fail_on_unused_donation: bool = False) -> str:
        """`hlomem diff --format markdown`, for a pull-request comment."""

class Snapshot:
    """A compilation's memory as `hlomem snapshot` writes it: a small, deterministic JSON to keep in git."""

    def to_json(self) -> str:
        """`hlomem snapshot`'s JSON, byte for byte."""
    def to_dict(self) -> Dict[str, Any]:
        """The snapshot as a dict."""
    def save(self, path: Union[str, os.PathLike[str]]) -> None:
        """Writes the snapshot (NAME.hlomem.json), as `hlomem snapshot -o`."""
    @property
    def total_bytes(self) -> int:
        """The bytes of every allocation."""
    @property
    def peak_bytes(self) -> Dict[int, Optional[int]]:
        """Each color's peak of live bytes (None without live ranges)."""

_Loadable = Union[Dump, str, bytes, os.PathLike[str]]
_Comparable = Union[Dump, Snapshot, str, bytes, os.PathLike[str]]

def snapshot(text_or_compiled: Any, *, top: int = 10, strip_roots: Sequence[str] = ...) -> Snapshot:
    """A Snapshot (`hlomem snapshot`) of a jax.stages.Compiled (its as_text()), a Dump, or anything
    load() reads; top: how many values at each peak it keeps; strip_roots: folders source paths
    are kept below."""

def advise(text_or_compiled: Any, *, budget: Union[int, str], top: int = 10, against: str = "peak") -> Advice:
    """The edits that bring each memory space of a scheduled module under a budget (`hlomem
    advise`): a jax.stages.Compiled, a Dump with a module, or anything load() reads; budget: bytes
    or a percent of each color's peak ('90%'); top: candidates listed; against: 'peak' or
    'memory_analysis' (the budget on compiled.memory_analysis()'s peak, checked on the edited module)."""

def what_if(
    text_or_compiled: Any,
    *,
    donate: Union[int, Sequence[int]] = ...,
    remat: Union[str, Sequence[str]] = ...,
    offload: Union[str, Sequence[str]] = ...,
    from_time: Optional[int] = None,
    chain: int = 0,
) -> WhatIf:
    """Edits evaluated on a scheduled module (`hlomem whatif`), beside advise(): a
    jax.stages.Compiled, a Dump with a module, or anything load() reads; the WhatIf Dump.what_if
    gives."""

def assert_memory(
    text_or_compiled: Any,
    path: Union[str, os.PathLike[str]],
    *,
    tolerance: Union[str, int] = "2%",
    measure: str = "peak",
    fail_on_unused_donation: bool = False,
    update: Optional[bool] = None,
    strip_roots: Sequence[str] = ...,
) -> Optional[Diff]:
    """Asserts that a compilation's memory did not grow past its snapshot at path: writes the
    snapshot when path is missing or when asked (update=True, or HLOMEM_UPDATE_SNAPSHOTS=1) and
    returns None; otherwise raises AssertionError with the gate's failures and the verdict when a
    color's peak (measure='total': its allocated bytes) grew by more than tolerance, and returns
    the Diff when it did not."""

def diff(a: _Comparable, b: _Comparable, *, top: int = 10, strip_roots: Sequence[str] = ...) -> Diff:
    """Compares two compilations (`hlomem diff A B`): Dumps of buffer-assignment dumps or scheduled
    modules, anything load() reads, or snapshots (a Snapshot, or a .hlomem.json file; then only
    what a snapshot keeps is compared, Diff.not_compared says what not); top: how many values each list of largest changes holds;
    strip_roots: folders source files are shown below (`--strip-root`). A file under different
    roots in a and b (two checkouts, two machines) is one file either way.
    ValueError when a side holds no buffer assignment."""

def assign(
    module: _Loadable,
    backend: Optional[str] = None,
    algorithm: Optional[str] = None,
    alignment: Optional[int] = None,
    *,
    time_limit: float = 10.0,
) -> Dump:
    """XLA's buffer assignment predicted from a scheduled HLO module (`hlomem assign`), as a Dump of
    the dump XLA would write (Dump.text; Dump.prediction says how). backend: 'gpu', 'cpu', 'tpu' or
    None (inferred); algorithm: one of hlomem's allocators for the temp heaps instead of best-fit;
    alignment: of temp buffers, a power of two; time_limit: seconds per heap for improve and exact.
    Warns when the module is not scheduled."""

def load(
    source: Union[str, bytes, os.PathLike[str]],
    *,
    name: Optional[str] = None,
    live_range: Optional[str] = None,
    memory_usage_report: Optional[str] = None,
    module: Optional[str] = None,
) -> Dump:
    """Reads an XLA text: a path (os.PathLike, or a str of one line) or the text (a str of several lines, bytes).

    Raises ParseError when the text does not read, FileNotFoundError when a file cannot be read,
    ValueError for text of no kind hlomem reads.
    """

def shape(text: str) -> Shape:
    """Reads an XLA shape such as 'bf16[4096,3584]{1,0:T(8,128)(2,1)}'; ParseError when it does not read."""

def from_jax(compiled: Any, *, name: str = "<jax>") -> Dump:
    """Loads compiled.as_text() (a jax.stages.Compiled, duck-typed; jax is not imported), with
    compiled.memory_analysis()'s figures next to hlomem's in Dump.jax_memory_analysis."""

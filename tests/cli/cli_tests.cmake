# Tests of the hlomem tool: each runs it with fixed arguments and compares its output with a file
# in this folder. Expected figures come from docs/FORMATS.md 4.5 and the seed dumps.
hlomem_cli_test("shape prints sizes and the physical shape" 0 shape_text.out -
  shape "bf16[4096,3584]{1,0:T(8,128)(2,1)}" "f32[3,5]{1,0:T(8,128)}"
  "pred[64,512,2048]{2,1,0:T(8,128)E(32)}" "(f32[2], s32[])")
hlomem_cli_test("shape --json" 0 shape_json.out -
  shape --json "f32[3,5]{1,0:T(2,2)}" "f32[ 100 ]{0:T(8,128)}")
hlomem_cli_test("shape reports a parse error with its column and exits 2" 2 shape_error_ok_part.out shape_error.err
  shape "f32[8,128]{1,1}" "s4[123,456]{1,0:T(2,128)E(4)}")
hlomem_cli_test("shape without arguments prints usage and exits 2" 2 - shape_usage.err shape)
hlomem_cli_test("unknown command exits 2" 2 - unknown_command.err frobnicate)
hlomem_cli_test("report on the TPU seed dump" 0 report_tpu_seed.out -
  report data/seeds/002_b0117d631587537a.txt)
hlomem_cli_test("report of a JAX 0.11 dump with its module beside: the eight donations it used" 0 report_mlp_donations.out -
  report data/jax_0_11/mlp_step_1024-buffer-assignment.txt)
hlomem_cli_test("report of a module whose two donors no output took: both unused" 0 report_unused_donation.out -
  report data/hand/unused_donation.hlo)
# JAX 0.11 writes `stack_frame_id=N` and no source_file: with the module beside the dump, each value
# gets frame N's line. At the peak (60.00MiB at 22) make_pairs.py:18 holds the 32MiB cuBLAS
# workspace custom-call.3{1} (frame 7), custom-call.3{0} and its table and the tanh activations
# wrapped_tanh, .1, .2 (frame 3): 48.00MiB; line 26 (frame 5) gemm_fusion_dot_general.18.
hlomem_cli_test("report of a JAX 0.11 dump gives its values the lines of their stack frames" 0 report_grad_ckpt_sources.out -
  report data/jax_0_11/grad_ckpt-buffer-assignment.txt)
# The module alone: the same peak, by source line, from the assignment derived from it.
hlomem_cli_test("report of a JAX 0.11 module: what holds its peak, by source line" 0 report_grad_ckpt_module.out -
  report data/jax_0_11/grad_ckpt.txt)
hlomem_cli_test("report --json with a memory-usage report to check against" 0 report_scan_while_phi.json -
  report --json --top 3 data/corpus/lorrax/lorrax_scan_while_phi.buffer_assignment.txt
  --memory-usage-report data/corpus/lorrax/lorrax_scan_while_phi.memory_usage_report.txt)
# What holds the peak by source line: the top 2 of 4 lines and the rest summed, the op_name tree
# two levels deep; the lines add up to the peak (93.76MiB at 43).
hlomem_cli_test("report names the source lines that hold the peak (--top, --depth)" 0 report_fft_sources.out -
  report --top 2 --depth 2 data/corpus/lorrax/lorrax_fft_cublas_while.buffer_assignment.txt)
# The same with --strip-root: the two lines of fft_helpers.py below lorrax_A, the rest unchanged.
hlomem_cli_test("report --strip-root shows source files below the root" 0 report_fft_strip_root.out -
  report --top 2 --depth 2 --strip-root /global/u2/j/jackm/software/lorrax_A data/corpus/lorrax/lorrax_fft_cublas_while.buffer_assignment.txt)
hlomem_cli_test("report with a separate live-range file in the newest format" 0 report_newest_simple.out -
  report data/synthetic/newest_simple-buffer-assignment.txt --live-range data/synthetic/newest_simple-live-range.txt)
# A folder XLA dumped into: the five JAX 0.11 compilations, each with the peak_memory_in_bytes JAX's
# compiled.memory_analysis() reported for it (data/jax_0_11/*.memory_analysis.json: 67108896 twice,
# 60833856, 24117336, 16814080), largest first; three without a -live-range.txt, whose live ranges
# come from the module beside the dump.
hlomem_cli_test("report of a dump folder lists every compilation by its memory_analysis() peak" 0 report_jax_0_11_dir.out -
  report data/jax_0_11)
hlomem_cli_test("report --json of a dump folder" 0 report_jax_0_11_dir.json -
  report --json data/jax_0_11)
hlomem_cli_test("report on a live-range file alone" 0 report_live_range_only.out -
  report data/synthetic/newest_simple-live-range.txt)
hlomem_cli_test("report on a memory-usage report" 0 report_memory_usage.out -
  report data/corpus/lorrax/lorrax_psum_4gpu.memory_usage_report.txt)
hlomem_cli_test("report on a malformed dump exits 2 with line and column" 2 - report_malformed.err
  report data/synthetic/malformed_flag.txt)
hlomem_cli_test("check on a sound seed dump exits 0" 0 check_tpu_seed.out -
  check data/seeds/002_b0117d631587537a.txt)
hlomem_cli_test("check reports overlaps and color mismatches and exits 1" 1 check_unsound.out -
  check data/synthetic/unsound.txt)
hlomem_cli_test("graph writes the interference graph of one memory space" 0 graph_tpu_color1.dot -
  graph --color 1 data/seeds/002_b0117d631587537a.txt)
hlomem_cli_test("graph --allocations writes the allocation-level graph" 0 graph_psum_allocations.dot -
  graph --allocations data/corpus/lorrax/lorrax_psum_4gpu.buffer_assignment.txt)

# hlomem report on HLO modules. The figures were checked against the dumps with a separate
# script: entry parameter and result bytes (sums of element counts × widths over the ENTRY
# parameter lines and the ROOT tuple), the 72 aliases of 004 and the bytes of parameters 0..71,
# computations by kind (distinct calls= / to_apply= targets), and the ten largest array results
# (bf16[8,8192,32768] = 4 GiB first in 004). The TPU-tiled bf16[3,5]{1,0:T(8,128)(2,1)} pads to
# one 8×128 tile of 2-byte elements: 2048 bytes (docs/FORMATS.md 4.5).
hlomem_cli_test("report on seed 001" 0 report_001.out -
  report data/seeds/001_a0c5460ce1af2dbe.txt)
hlomem_cli_test("report --json on seed 004" 0 report_004_json.out -
  report --json data/seeds/004_c00fd3afea504246.txt)
hlomem_cli_test("report on a file with two modules" 0 report_two_modules.out -
  report data/hand/two_modules.hlo)
hlomem_cli_test("report --json on a file with two modules prints an array" 0 report_two_modules_json.out -
  report --json data/hand/two_modules.hlo)
hlomem_cli_test("report shows a parse error with its position and exits 2" 2 - report_error.err
  report data/hand/undefined_operand.hlo)
hlomem_cli_test("report with an unknown option exits 2" 2 - report_unknown_option.err report --bogus data/seeds/001_a0c5460ce1af2dbe.txt)

# hlomem liveness: XLA's HloLiveRange from the module alone, in the newest XLA's text. The expected
# text of scan_while_phi is, up to `Live ranges at 7 (peak):`, the HloLiveRange section the (older)
# XLA appended to that module's buffer-assignment dump, byte for byte; from there on it is the
# newest form of the same moment and the same nine values (that dump lists them the older way, as
# tests/unit/hlo/liveness.test.cpp checks), by size with running sums, and their stack-trace
# breakdown, checked by hand against XLA's rules (docs/FORMATS.md 6.2, 6.3: the while body's
# param.5 under the while's op_name, the arguments under theirs). The conditional's ranges and peak
# were derived by hand (tests/unit/hlo/liveness.test.cpp); its peak_values are those four values by
# size and its stack_trace_breakdown puts t.neg and t.r under the conditional `c` and its branch.
hlomem_cli_test("liveness prints the HloLiveRange text XLA wrote for the module" 0 liveness_scan_while_phi.out -
  liveness data/corpus/lorrax/lorrax_scan_while_phi.after_opt.hlo)
hlomem_cli_test("liveness --json" 0 liveness_conditional.json -
  liveness --json data/hand/liveness_conditional.hlo)
# A module with metadata: each value's source from its instruction (fft.2.0 at fft_helpers.py:86,
# input_transpose_fusion at isdf_fitting.py:335), and the derived peak by source line.
hlomem_cli_test("liveness --json gives each value its source and the peak by source line" 0 liveness_donated_sources.json -
  liveness --json data/corpus/lorrax/lorrax_donated_param_output_alias.after_opt.hlo)
# Each value's origin with its Python stack, outermost first, from the StackFrames table as XLA
# prints it (parent_frame_id one higher): dot.2 <module> -> forward:12 -> dense:41; tanh.3, which
# states only stack_frame_id=4, <module> -> forward:13, its line model.py:13.
hlomem_cli_test("liveness --json gives each value the Python stack of its source" 0 liveness_stack_frames.json -
  liveness --json data/hand/stack_frames.hlo)
# The newest XLA's HloLiveRange text: JAX 0.11's XLA wrote it for grad_plain and grad_ckpt; from the
# peak on (its moment, the values by size with running sums, the stack-trace breakdown) hlomem's
# is that file byte for byte (above it the get-tuple-elements the module does not print are named
# `custom-call.3#0`, XLA's `get-tuple-element.3`: cli/liveness_tail.cmake).
foreach(program grad_plain grad_ckpt)
  add_test(NAME "cli: liveness of ${program} prints XLA's newest peak listing and stack-trace breakdown"
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:hlomem-cli> -DWORKING_DIRECTORY=${CMAKE_CURRENT_SOURCE_DIR}
      -DMODULE=data/jax_0_11/${program}.txt -DEXPECTED=data/jax_0_11/${program}-live-range.txt
      -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/liveness_tail.cmake)
endforeach()
hlomem_cli_test("liveness on a buffer-assignment dump exits 2" 2 - liveness_not_module.err
  liveness data/seeds/002_b0117d631587537a.txt)
hlomem_cli_test("liveness without FILE exits 2" 2 - liveness_no_file.err liveness)
hlomem_cli_test("graph on a bare module uses the derived values and live ranges" 0 graph_module_conditional.dot -
  graph data/hand/liveness_conditional.hlo)

hlomem_cli_test("explain the real TPU report: sizes recomputed, padding explained" 0 explain_tpu_real.out -
  explain data/oom/tpu_oom_pytorch_xla_3041.txt)
hlomem_cli_test("explain --json the real GPU report, cut off in its third buffer" 0 explain_gpu_real.json -
  explain --json data/oom/gpu_oom_jax_13428.txt)
hlomem_cli_test("explain a TPU report behind glog headers" 0 explain_tpu_glog.out -
  explain data/oom/synthetic/tpu_glog_prefixed.txt)
hlomem_cli_test("explain --json TPU shapes printed without tiles" 0 explain_tpu_untiled.json -
  explain --json data/oom/synthetic/tpu_untiled_indented.txt)
hlomem_cli_test("explain two GPU reports behind TensorFlow headers" 0 explain_gpu_two_reports.out -
  explain data/oom/synthetic/gpu_tf_prefixed_two_reports.txt)
hlomem_cli_stdin_test("explain - reads standard input" data/oom/synthetic/tpu_cut_mid_shape.txt 0 explain_stdin.out -
  explain -)
hlomem_cli_test("explain a malformed shape inside a report: a note at its line and column, the rest read" 0
  explain_malformed.out - explain data/oom/synthetic/tpu_malformed_shape.txt)
hlomem_cli_test("explain --json a real summary broken over two lines, then the user's question" 0
  explain_paste_summary.json - explain --json data/oom/pastes/lwm_60.txt)
hlomem_cli_test("explain a real paste that starts inside an entry, behind TensorFlow headers" 0
  explain_paste_excerpt.out - explain data/oom/pastes/pytorch_xla_1965_b.txt)
hlomem_cli_test("explain the older reservation form with its capacity lines" 0 explain_paste_reservation.out -
  explain data/oom/pastes/pytorch_xla_1735.txt)
hlomem_cli_test("explain --json a GPU paste behind Ray's tags and lost colour codes" 0 explain_paste_gpu.json -
  explain --json data/oom/pastes/alpa_759.txt)
# Issue 32: the one-line messages of XLA's error pages, a BFC log that fits in total but not in
# one free chunk (JAX 0.11.2 on an H100), and a report joined with its module.
hlomem_cli_test("explain the sample messages of XLA's error pages E0100, E0101, E1000" 0 explain_error_pages.out -
  explain data/oom/messages/xla_error_pages.txt)
hlomem_cli_test("explain --json the OOM debugging page's allocation, GPU failure and utilization line" 0
  explain_oom_debugging.json - explain --json data/oom/messages/xla_oom_debugging.txt)
hlomem_cli_test("explain a BFC log on an H100: does not fit, then fits but fragmented" 0 explain_bfc_fragmented.out -
  explain data/oom/messages/h100_jax_0_11_fragmented.txt)
hlomem_cli_test("explain real rematerialization warnings" 0 explain_rematerialization.out -
  explain data/oom/messages/enzyme_jax_1363.txt)
hlomem_cli_test("explain --module joins the peak buffers with the module's instructions and source lines" 0
  explain_module_join.out - explain --module data/oom/messages/h100_jax_0_11_jit_big.hlo.txt
  data/oom/synthetic/gpu_peak_buffers_jit_big.txt)
hlomem_cli_test("explain --json --module" 0 explain_module_join.json - explain --json --module
  data/oom/messages/h100_jax_0_11_jit_big.hlo.txt data/oom/synthetic/gpu_peak_buffers_jit_big.txt)
hlomem_cli_test("explain a file without a report exits 2" 2 - explain_no_report.err
  explain data/seeds/002_b0117d631587537a.txt)
hlomem_cli_test("explain without a file prints usage and exits 2" 2 - explain_usage.err explain)

# hlomem timeline. The peaks are those `hlomem report` prints for each color (report_tpu_seed.out:
# 2.52GiB at 78 (fusion) for seed 002); the trace of the small tiled dump shows the assigned and
# unpadded counters (4096 + 4096 + 6144 at 2; f32[3,100]{1,0:T(8,128)} holds 1200 bytes of data).
# --source-root: the JAX 0.11 modules name /work/main/devcheck/make_pairs.py, found below
# data/jax_0_11/source_root (a stand-in; its README) and not below a folder that does not exist,
# which is said on standard error; the page goes to /dev/null (tests/unit/load/source_text.test.cpp
# checks its source_text).
hlomem_cli_test("timeline --source-root names the source files it did not find" 0 timeline_source_root.out timeline_source_root_missing.err
  timeline -o /dev/null --format html --source-root data/no-such-folder data/jax_0_11/grad_ckpt-buffer-assignment.txt)
hlomem_cli_test("timeline --source-root finds the source file below the root" 0 timeline_source_root.out -
  timeline -o /dev/null --format html --source-root data/jax_0_11/source_root data/jax_0_11/grad_ckpt-buffer-assignment.txt)
hlomem_cli_test("timeline --source-root needs an HTML page" 2 - timeline_source_root_svg.err
  timeline -o - --format svg --source-root data data/jax_0_11/grad_ckpt-buffer-assignment.txt)
hlomem_cli_test("timeline prints each color's peak and what it drew" 0 timeline_tpu_seed.out -
  timeline data/seeds/002_b0117d631587537a.txt)
hlomem_cli_test("timeline --json on seed 000" 0 timeline_000.json -
  timeline --json data/seeds/000_5960cad812240b69.txt)
hlomem_cli_test("timeline --trace - writes a Chrome/Perfetto trace of a tiled dump" 0 timeline_trace_padded.json -
  timeline --trace - data/synthetic/tpu_padded-buffer-assignment.txt)
hlomem_cli_test("timeline --max-rectangles aggregates small values into bands" 0 timeline_bands.out -
  timeline --max-rectangles 10 data/seeds/002_b0117d631587537a.txt)
hlomem_cli_test("timeline -o - --format svg finds the separate live-range file" 0 timeline_newest_simple.svg -
  timeline -o - --format svg data/synthetic/newest_simple-buffer-assignment.txt)
hlomem_cli_test("timeline of a dump without live ranges exits 2" 2 - timeline_no_live_range.err
  timeline data/synthetic/legacy_address.txt)
hlomem_cli_test("timeline -o with an unknown extension exits 2" 2 - timeline_bad_output.err
  timeline -o out.png data/seeds/002_b0117d631587537a.txt)

# The page of each dump with buffer assignments: self-contained (always), and rendered by headless
# Chromium (skipped with a message when it is not installed; CI installs it): the rectangles drawn
# (one per value with a live range: 132 of 135 in 000, whose 3 thread-local values have none), the
# peaks, the rows of the peak tables (at most 50 values per color) and no script errors. The card
# of a value opened by #value=ID shows its padding and the metadata of its instruction, escaped.
find_program(HLOMEM_CHROMIUM NAMES chromium chromium-browser google-chrome-stable google-chrome)
if(NOT HLOMEM_CHROMIUM)
  message(STATUS "chromium not found: the browser tests of hlomem timeline will be skipped")
endif()
# hlomem_timeline_page_test(DUMP RECTANGLES PEAKS TABLE_ROWS [CARD_VALUE ID CARD_TEXTS TEXT...]
#                           [SOURCE_ROWS N SOURCE_ROW PANEL:RANK HIGHLIGHT "ID ID ..."])
function(hlomem_timeline_page_test dump rectangles peaks rows)
  cmake_parse_arguments(PARSE_ARGV 4 page "" "CARD_VALUE;SOURCE_ROWS;SOURCE_ROW;HIGHLIGHT" "CARD_TEXTS")
  get_filename_component(name ${dump} NAME_WE)
  set(common -DPROGRAM=$<TARGET_FILE:hlomem-cli> -DDUMP=${dump} -DSOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR}
    -DEXPECTED_RECTANGLES=${rectangles} "-DEXPECTED_PEAKS=${peaks}" -DEXPECTED_TABLE_ROWS=${rows})
  add_test(NAME "timeline: the page of ${name} is self-contained"
    COMMAND ${CMAKE_COMMAND} ${common} -DMODE=structure -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/timeline/structure
      -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/timeline_page.cmake)
  set(card)
  if(DEFINED page_CARD_VALUE)
    set(card -DCARD_VALUE=${page_CARD_VALUE} "-DCARD_TEXTS=${page_CARD_TEXTS}")
  endif()
  if(DEFINED page_SOURCE_ROWS)
    list(APPEND card -DSOURCE_ROWS=${page_SOURCE_ROWS} -DSOURCE_ROW=${page_SOURCE_ROW} "-DEXPECTED_HIGHLIGHT=${page_HIGHLIGHT}")
  endif()
  add_test(NAME "browser: the page of ${name} renders in headless Chromium"
    COMMAND ${CMAKE_COMMAND} ${common} -DMODE=browser -DCHROMIUM=${HLOMEM_CHROMIUM} ${card}
      -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/timeline/browser -DSCREENSHOT=${CMAKE_CURRENT_BINARY_DIR}/timeline/${name}.png
      -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/timeline_page.cmake)
  set_tests_properties("browser: the page of ${name} renders in headless Chromium" PROPERTIES
    SKIP_REGULAR_EXPRESSION "SKIPPED: chromium not found" TIMEOUT 120)
endfunction()
hlomem_timeline_page_test(data/seeds/000_5960cad812240b69.txt 132 "0:1092637220" 50)
hlomem_timeline_page_test(data/seeds/002_b0117d631587537a.txt 83 "0:2709520384 1:58720256 2:52 4:4096" 24
  CARD_VALUE 153 CARD_TEXTS "value 153: fusion.10{0}" "f32[32,512,14336]{2,1,0:T(8,128)}" "939,524,096 bytes (896.00MiB)"
  "allocation 6 (preallocated-temp, 1.97GiB), offset 81,920" "24-78 (from fusion.10 to fusion)")
hlomem_timeline_page_test(data/seeds/003_3a38346822a50a7e.txt 68 "0:1210" 7
  CARD_VALUE 470 CARD_TEXTS "value 470: loop_pad_fusion" "<th>op_name</th><td>xla__update_slice</td>"
  "xla_gpu_model_runner.py:1401")
# What holds the peak, by source line: the fft/while dump's peak (93.76MiB at 43) is held by three
# lines of 25MiB each, an output traced to line 164, the function's ten arguments (values 110-119)
# and one 8-byte value with no source (report --json: peak_by_source, 15 rows); hovering the fifth
# bar, argument 4 (psi_c_yr), must light exactly its one rectangle, value 114.
hlomem_timeline_page_test(data/corpus/lorrax/lorrax_fft_cublas_while.buffer_assignment.txt 42 "0:98314552" 15
  CARD_VALUE 94 CARD_TEXTS "value 94: " "fft_helpers.py:343"
  SOURCE_ROWS 15 SOURCE_ROW 0:4 HIGHLIGHT "114")
hlomem_timeline_page_test(data/synthetic/tpu_padded-buffer-assignment.txt 4 "0:16384" 3
  CARD_VALUE 1 CARD_TEXTS "2,896 bytes (2.8KiB), 3.41x the unpadded size" "<td>jit(&lt;lambda&gt;)/exp</td>" "/src/model &amp; " ".py:12")
# hlomem repack. XLA's arenas are reproduced exactly (the heap re-run with XLA's keys, the pointer
# tables laid out as CombineTempAllocations does); --no-times keeps the output free of run times,
# and the searches finish well within their time limits, so that the output is the same everywhere.
hlomem_cli_test("repack on seed 000: every algorithm against XLA's arena and the bound" 0 repack_000.out -
  repack --no-times data/seeds/000_5960cad812240b69.txt)
hlomem_cli_test("repack on the four arenas of the TPU seed with XLA's best fit" 0 repack_002_best_fit.out -
  repack --no-times --algorithm best-fit data/seeds/002_b0117d631587537a.txt)
hlomem_cli_test("repack --json" 0 repack_scatter_json.out -
  repack --json --no-times data/corpus/lorrax/lorrax_scatter_while_threadlocal.buffer_assignment.txt)
hlomem_cli_test("repack --output - writes MiniMalloc's published solution of its README example" 0 repack_readme_exact.csv -
  repack --algorithm exact --output - data/hand/minimalloc_readme.csv)
hlomem_cli_test("repack checks a MiniMalloc solution and exits 1 when it is invalid" 1 repack_bad_solution.out -
  repack --no-times --algorithm best-fit data/hand/minimalloc_bad_solution.csv)
hlomem_cli_test("repack reports a CSV number that overflows with its position and exits 2" 2 - repack_overflow.err
  repack data/hand/minimalloc_overflow.csv)
hlomem_cli_test("repack with an unknown algorithm exits 2" 2 - repack_unknown_algorithm.err
  repack --algorithm bogus data/hand/minimalloc_readme.csv)
# repack --capacity asks MiniMalloc's question: does it fit? The README example fits its 12 bytes
# (MiniMalloc's own example run) and not 11, below its lower bound. The lorrax arena's lower bound
# is 257 bytes, but its four 128-byte-aligned buffers need 260: the exact search proves 259 too
# small by exhausting its tree, and places them in 260.
hlomem_cli_test("repack --capacity: every algorithm fits the README example in 12 bytes" 0 repack_capacity_fits.out -
  repack --no-times --capacity 12 data/hand/minimalloc_readme.csv)
hlomem_cli_test("repack --capacity below the lower bound exits 1" 1 repack_capacity_below_bound.out -
  repack --no-times --capacity 11 data/hand/minimalloc_readme.csv)
# Its loop state lives in two segments, where the exact search (which places a group over its whole
# span) proves nothing: 259 bytes stay undecided rather than being called impossible.
hlomem_cli_test("repack --capacity: a real arena not placed within 259 bytes exits 1 and claims no proof" 1 repack_capacity_segments.out -
  repack --no-times --algorithm exact --capacity 259 data/corpus/lorrax/lorrax_scatter_while_threadlocal.buffer_assignment.txt)
hlomem_cli_test("repack --capacity --json: the exact search places a real arena at its optimum" 0 repack_capacity_json.out -
  repack --json --no-times --algorithm exact --capacity 260 data/corpus/lorrax/lorrax_scatter_while_threadlocal.buffer_assignment.txt)
hlomem_cli_test("repack --capacity needs a positive number" 2 - repack_capacity_zero.err
  repack --capacity 0 data/hand/minimalloc_readme.csv)
# repack on an HLO module: the temp arenas `hlomem assign` predicts for it (here XLA's own 288
# bytes, heap offsets and pointer table as XLA's dump has them), placed again; the bytes that must
# stack prove 260 optimal.
hlomem_cli_test("repack on a module places the temp arenas hlomem assign predicts" 0 repack_module_scatter.out -
  repack --no-times data/corpus/lorrax/lorrax_scatter_while_threadlocal.after_opt.hlo)
hlomem_cli_stdin_test("repack - reads a dump from standard input once" data/seeds/000_5960cad812240b69.txt 0 repack_stdin.out -
  repack --no-times -)

# hlomem assign: XLA's buffer assignment predicted from the scheduled module. For scan_while_phi
# every allocation, offset and total agrees with the dump XLA wrote
# (data/corpus/lorrax/lorrax_scan_while_phi.buffer_assignment.txt); value ids, the order of
# positions and uses and the peak's listing are the module-derived ones (hlo/liveness.hpp): the
# newest XLA's listing with its stack-trace breakdown, where that older dump lists the same values
# the older way. That XLA aligned GPU temps at 128 bytes (XLA before June 2025; today's: 256), which
# the module does not say: --alignment 128, as its dump shows (loop_compare_fusion at offset 128).
hlomem_cli_test("assign predicts XLA's buffer assignment of scan_while_phi" 0 assign_scan_while_phi.out
  assign_scan_while_phi.err assign --alignment 128 data/corpus/lorrax/lorrax_scan_while_phi.after_opt.hlo)
hlomem_cli_test("assign --json prints report --json of the prediction" 0 assign_psum_4gpu.json assign_psum_4gpu.err
  assign --json data/corpus/lorrax/lorrax_psum_4gpu.after_opt.hlo)
hlomem_cli_test("assign with a given backend and alignment" 0 assign_conditional_cpu.out assign_conditional_cpu.err
  assign --backend cpu --alignment 256 data/corpus/lorrax/lorrax_conditional.after_opt.hlo)
hlomem_cli_test("assign refuses a dump, which is not a module, and exits 2" 2 - assign_not_module.err
  assign data/corpus/lorrax/lorrax_psum_4gpu.buffer_assignment.txt)
hlomem_cli_test("assign refuses an unknown backend and exits 2" 2 - assign_bad_backend.err
  assign --backend npu data/corpus/lorrax/lorrax_psum_4gpu.after_opt.hlo)
# hlomem diff on the bundled pairs of compilations (data/corpus/compilations). The totals are the
# dumps' `Total bytes used` (3666346368 and 2618818944 for the resharding, 268297668 and 268761356
# for the scan windows) and XLA's peaks the moments they state (11 and 7; 113 for both windows);
# the matches and the peaks of assigned bytes are checked by hand in tests/unit/diff/assignment_diff.test.cpp.
# B's scan window has one value more than A's (loop_add_fusion, 230400 bytes), which the peak of
# color 0 holds: it grows by exactly 463688 bytes (+0.17%), so --fail-above 463687 and 0.1% fail
# and 463688 and 1% do not.
set(hlomem_pairs data/corpus/compilations)
hlomem_cli_test("diff of the resharding in two orders leads with the verdict" 0 diff_reshard.out -
  diff ${hlomem_pairs}/reshard_xfirst.buffer_assignment.txt ${hlomem_pairs}/reshard_yfirst.buffer_assignment.txt)
hlomem_cli_test("diff --json of the resharding in two orders" 0 diff_reshard.json -
  diff --json ${hlomem_pairs}/reshard_xfirst.buffer_assignment.txt ${hlomem_pairs}/reshard_yfirst.buffer_assignment.txt)
hlomem_cli_test("diff of the scan windows: renamed fusions matched by metadata" 0 diff_scan_window_ba.out -
  diff --top 3 ${hlomem_pairs}/scan_window_b.buffer_assignment.txt ${hlomem_pairs}/scan_window_a.buffer_assignment.txt)
hlomem_cli_test("diff --fail-above 0.1% exits 1 when the peak grew by 0.17%" 1 diff_scan_window_ba.out diff_fail_above_percent.err
  diff --top 3 --fail-above 0.1% ${hlomem_pairs}/scan_window_b.buffer_assignment.txt ${hlomem_pairs}/scan_window_a.buffer_assignment.txt)
hlomem_cli_test("diff --fail-above 1% exits 0 when the peak grew by 0.17%" 0 diff_scan_window_ba.out -
  diff --top 3 --fail-above 1% ${hlomem_pairs}/scan_window_b.buffer_assignment.txt ${hlomem_pairs}/scan_window_a.buffer_assignment.txt)
hlomem_cli_test("diff --fail-above BYTES exits 1 one byte below the growth" 1 diff_scan_window_ba.out diff_fail_above_bytes.err
  diff --top 3 --fail-above 463687 ${hlomem_pairs}/scan_window_b.buffer_assignment.txt ${hlomem_pairs}/scan_window_a.buffer_assignment.txt)
hlomem_cli_test("diff --fail-above BYTES exits 0 at the growth" 0 diff_scan_window_ba.out -
  diff --top 3 --fail-above 463688 ${hlomem_pairs}/scan_window_b.buffer_assignment.txt ${hlomem_pairs}/scan_window_a.buffer_assignment.txt)
hlomem_cli_test("diff of a module's derived assignment against its dump" 0 diff_module_dump.out -
  diff ${hlomem_pairs}/reshard_xfirst.after_opt.hlo ${hlomem_pairs}/reshard_xfirst.buffer_assignment.txt)
hlomem_cli_test("diff of a dump against itself: every value matched, nothing changed" 0 diff_self.out -
  diff ${hlomem_pairs}/sternheimer_core_a.buffer_assignment.txt ${hlomem_pairs}/sternheimer_core_a.buffer_assignment.txt)
# jit__batched_chol compiled from two checkouts (data/corpus/regressions): cholesky_2d.py under
# /global/homes/j/jackm/software/lorrax_B in A and /pscratch/sd/j/jackm/lorrax_sandbox/sources/lorrax_D
# in B is one file, one row per line shown by the tail the paths share: line 204 holds 4608016
# bytes at A's peak and 8192016 at B's (tests/unit/diff/source_files.test.cpp adds them up from
# the dumps); its values are matched by metadata (69 of 75). Stripping both roots prints the same.
set(hlomem_chol data/corpus/regressions/jit__batched_chol)
hlomem_cli_test("diff of two checkouts: one row per source line, shown by the common path tail" 0 diff_chol_checkouts.out -
  diff --top 3 ${hlomem_chol}_06a294ff.buffer_assignment.txt ${hlomem_chol}_68697f6f.buffer_assignment.txt)
hlomem_cli_test("diff --strip-root of two checkouts prints the same rows" 0 diff_chol_checkouts.out -
  diff --top 3 --strip-root /global/homes/j/jackm/software/lorrax_B --strip-root /pscratch/sd/j/jackm/lorrax_sandbox/sources/lorrax_D/
  ${hlomem_chol}_06a294ff.buffer_assignment.txt ${hlomem_chol}_68697f6f.buffer_assignment.txt)
hlomem_cli_test("diff of a file that cannot be read exits 2" 2 - diff_missing.err
  diff ${hlomem_pairs}/nonexistent.txt ${hlomem_pairs}/sternheimer_core_a.buffer_assignment.txt)
hlomem_cli_test("diff of a live-range text exits 2" 2 - diff_not_assignment.err
  diff data/synthetic/newest_simple-live-range.txt ${hlomem_pairs}/sternheimer_core_a.buffer_assignment.txt)
hlomem_cli_test("diff with one file prints usage and exits 2" 2 - diff_usage.err
  diff ${hlomem_pairs}/sternheimer_core_a.buffer_assignment.txt)
hlomem_cli_test("diff --fail-above with no number exits 2" 2 - diff_bad_threshold.err
  diff --fail-above lots ${hlomem_pairs}/reshard_xfirst.buffer_assignment.txt ${hlomem_pairs}/reshard_yfirst.buffer_assignment.txt)

# Snapshots and the gate (issue 33). cli/snapshot_chol.json is `hlomem snapshot` of A of the chol
# pair: its one source file kept as `cholesky_2d.py` (below the folder its paths share), so B's
# checkout writes the same paths; the diff of that snapshot with B prints the figures of the diff
# of the two dumps (tests/unit/diff/snapshot.test.cpp holds them equal) and says what it cannot
# compare. The gate: the scan windows' peak and total of color 0 both grow by 463688 bytes, so
# --measure total fails as --measure peak does; the hand module of JAX 0.11's unused donation
# (data/hand/unused_donation.hlo) leaves both its buffer_donor entries unused.
hlomem_cli_test("snapshot of a dump: relative paths, deterministic JSON" 0 snapshot_chol.json -
  snapshot ${hlomem_chol}_06a294ff.buffer_assignment.txt)
hlomem_cli_test("snapshot of the other checkout keeps the same relative path" 0 snapshot_chol_b.json -
  snapshot ${hlomem_chol}_68697f6f.buffer_assignment.txt)
hlomem_cli_test("diff of a snapshot and a dump says what it cannot compare" 0 diff_snapshot_chol.out -
  diff cli/snapshot_chol.json ${hlomem_chol}_68697f6f.buffer_assignment.txt)
hlomem_cli_test("diff --json of a snapshot and a dump" 0 diff_snapshot_chol.json -
  diff --json cli/snapshot_chol.json ${hlomem_chol}_68697f6f.buffer_assignment.txt)
hlomem_cli_test("diff of a snapshot against itself: no change in memory" 0 diff_snapshot_self.out -
  diff cli/snapshot_chol.json ${hlomem_chol}_06a294ff.buffer_assignment.txt)
hlomem_cli_test("diff --format markdown of two checkouts, for a pull-request comment" 0 diff_chol_markdown.md -
  diff --format markdown ${hlomem_chol}_06a294ff.buffer_assignment.txt ${hlomem_chol}_68697f6f.buffer_assignment.txt)
hlomem_cli_test("diff --format markdown of a snapshot with a passing gate" 0 diff_snapshot_chol_markdown.md -
  diff --format markdown --rows 2 --fail-above 2% cli/snapshot_chol.json ${hlomem_chol}_68697f6f.buffer_assignment.txt)
hlomem_cli_test("diff --format markdown with a failing gate exits 1" 1 diff_scan_window_markdown.md diff_fail_above_percent.err
  diff --format markdown --fail-above 0.1% ${hlomem_pairs}/scan_window_b.buffer_assignment.txt ${hlomem_pairs}/scan_window_a.buffer_assignment.txt)
hlomem_cli_test("diff --measure total --fail-above BYTES exits 1 one byte below the growth" 1 diff_scan_window_ba.out diff_fail_above_total.err
  diff --top 3 --measure total --fail-above 463687 ${hlomem_pairs}/scan_window_b.buffer_assignment.txt ${hlomem_pairs}/scan_window_a.buffer_assignment.txt)
hlomem_cli_test("diff --measure total --fail-above BYTES exits 0 at the growth" 0 diff_scan_window_ba.out -
  diff --top 3 --measure total --fail-above 463688 ${hlomem_pairs}/scan_window_b.buffer_assignment.txt ${hlomem_pairs}/scan_window_a.buffer_assignment.txt)
hlomem_cli_test("diff --measure with neither peak nor total exits 2" 2 - diff_bad_measure.err
  diff --measure most --fail-above 1% ${hlomem_pairs}/reshard_xfirst.buffer_assignment.txt ${hlomem_pairs}/reshard_yfirst.buffer_assignment.txt)
hlomem_cli_test("snapshot of a module with unused buffer donors lists them" 0 snapshot_unused_donation.json -
  snapshot data/hand/unused_donation.hlo)
hlomem_cli_test("diff --fail-on-unused-donation exits 1 for B's unused donors" 1 diff_unused_donation.out diff_unused_donation.err
  diff --fail-on-unused-donation cli/snapshot_unused_donation.json data/hand/unused_donation.hlo)
hlomem_cli_test("diff without --fail-on-unused-donation exits 0 on the same pair" 0 diff_unused_donation.out -
  diff cli/snapshot_unused_donation.json data/hand/unused_donation.hlo)
hlomem_cli_test("diff of a snapshot that is not JSON exits 2 with its line and column" 2 - diff_bad_snapshot.err
  diff data/hand/snapshot_trailing_comma.hlomem.json ${hlomem_chol}_06a294ff.buffer_assignment.txt)
hlomem_cli_test("diff -o of a snapshot exits 2" 2 - diff_snapshot_page.err
  diff -o out.html cli/snapshot_chol.json ${hlomem_chol}_06a294ff.buffer_assignment.txt)

# The page of `hlomem diff -o`: self-contained, and rendered by headless Chromium with both sides'
# buffers (9 values with live ranges on each side of the resharding), their peaks (A's assigned
# bytes peak at 9, B's at 11, as the text output says) and 17 rows of deltas.
set(hlomem_diff_page -DPROGRAM=$<TARGET_FILE:hlomem-cli> -DSOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR}
  -DA=${hlomem_pairs}/reshard_xfirst.buffer_assignment.txt -DB=${hlomem_pairs}/reshard_yfirst.buffer_assignment.txt
  "-DEXPECTED_PEAKS=a0:2618818584 b0:2618818560" "-DEXPECTED_DELTAS=0:-24" -DEXPECTED_RECTANGLES=18 -DEXPECTED_ROWS=17)
add_test(NAME "diff: the page of the resharding pair is self-contained"
  COMMAND ${CMAKE_COMMAND} ${hlomem_diff_page} -DMODE=structure -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/diff/structure
    -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/diff_page.cmake)
add_test(NAME "browser: the diff page of the resharding pair renders in headless Chromium"
  COMMAND ${CMAKE_COMMAND} ${hlomem_diff_page} -DMODE=browser -DCHROMIUM=${HLOMEM_CHROMIUM}
    -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/diff/browser -DSCREENSHOT=${CMAKE_CURRENT_BINARY_DIR}/diff/reshard.png
    -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/diff_page.cmake)
set_tests_properties("browser: the diff page of the resharding pair renders in headless Chromium" PROPERTIES
  SKIP_REGULAR_EXPRESSION "SKIPPED: chromium not found" TIMEOUT 120)
hlomem_cli_test("whatif offloads a value to S(5) and refuses a donation with XLA's reason, exit 1" 1
  whatif_fft_cublas_while.out - whatif --offload fft.8.0 --donate 0 data/corpus/lorrax/lorrax_fft_cublas_while.after_opt.hlo)
hlomem_cli_test("whatif names an instruction the module lacks, exit 2" 2 - whatif_no_instruction.err
  whatif --remat nosuch data/corpus/lorrax/lorrax_cpu_true_divide.after_opt.hlo)
hlomem_cli_test("advise at 90% of the peak: one offload fits, with its source line and op_name" 0
  advise_fft_cublas_while.out - advise --budget 90% data/corpus/lorrax/lorrax_fft_cublas_while.after_opt.hlo)
hlomem_cli_test("advise --json on a dump with its module beside it: nothing to move, what stands in the way" 1
  advise_dump_with_module.json - advise --budget 90% --json --top 3
  data/synthetic/module_0004.jit_left_ifft_after_optimizations-buffer-assignment.txt)

# The budget against compiled.memory_analysis()'s peak: 98314560 bytes for the FFT module (the
# predicted figure, 8 bytes above its live peak 98314552); 90% of it is 88483104, 8 more than the
# live budget above; the set is written into the module, read back and predicted at 74230080.
hlomem_cli_test("advise --against memory_analysis: the budget on peak_memory_in_bytes, checked on the edited module" 0
  advise_fft_memory_analysis.out - advise --budget 90% --against memory_analysis --top 2
  data/corpus/lorrax/lorrax_fft_cublas_while.after_opt.hlo)
# JAX reported 67108896 bytes for grad_ckpt (data/jax_0_11/grad_ckpt.memory_analysis.json), above
# its 60.00MiB live peak: a budget of that live peak fits as it is against the peak and not against
# memory_analysis(), where nothing can move (the cuBLAS workspace is a custom-call's tuple element).
hlomem_cli_test("advise --against memory_analysis --json: a budget the live peak meets and JAX's figure does not" 1
  advise_grad_ckpt_memory_analysis.json - advise --budget 62914576 --against memory_analysis --json --top 0
  data/jax_0_11/grad_ckpt.txt)
hlomem_cli_test("advise --against names what it takes" 2 - advise_against_unknown.err
  advise --budget 90% --against live data/jax_0_11/grad_ckpt.txt)

# The page of `hlomem whatif --page` and `hlomem advise --page`: self-contained, each color's live
# bytes before and after with their peaks (color 0 98314552 bytes before, 74230072 after the
# offload of fft.8.0, as whatif_fft_cublas_while.out says; color 5, the host, 26214400 after) and
# the offloaded value marked; rendered by headless Chromium with its script's checks passing.
set(hlomem_whatif_page -DPROGRAM=$<TARGET_FILE:hlomem-cli> -DSOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR}
  "-DEXPECTED_PEAKS=before0:98314552 after0:74230072 before5:0 after5:26214400" "-DEXPECTED_MARKS=offload fft.8.0")
set(hlomem_fft_while data/corpus/lorrax/lorrax_fft_cublas_while.after_opt.hlo)
add_test(NAME "whatif: the page before and after an offload is self-contained"
  COMMAND ${CMAKE_COMMAND} ${hlomem_whatif_page} -DMODE=structure -DNAME=whatif-offload
    "-DARGS=whatif;--offload;fft.8.0;${hlomem_fft_while}" -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/whatif/structure
    -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/whatif_page.cmake)
add_test(NAME "advise: the page of the set at 90% of the peak is self-contained"
  COMMAND ${CMAKE_COMMAND} ${hlomem_whatif_page} -DMODE=structure -DNAME=advise-90
    "-DARGS=advise;--budget;90%;${hlomem_fft_while}" -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/whatif/structure
    -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/whatif_page.cmake)
add_test(NAME "browser: the what-if page of the advice renders in headless Chromium"
  COMMAND ${CMAKE_COMMAND} ${hlomem_whatif_page} -DMODE=browser -DCHROMIUM=${HLOMEM_CHROMIUM} -DNAME=advise-90
    "-DARGS=advise;--budget;90%;${hlomem_fft_while}" -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/whatif/browser
    -DSCREENSHOT=${CMAKE_CURRENT_BINARY_DIR}/whatif/advise-90.png -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/whatif_page.cmake)
set_tests_properties("browser: the what-if page of the advice renders in headless Chromium" PROPERTIES
  SKIP_REGULAR_EXPRESSION "SKIPPED: chromium not found" TIMEOUT 120)

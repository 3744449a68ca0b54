# Tests of the hlomem tool: each runs it with fixed arguments and compares its output with a file
# in this folder. Expected figures come from docs/xla-formats.md 4.5 and the seed dumps.
hlomem_cli_test("shape prints sizes and the physical shape" 0 shape_text.out -
  shape "bf16[4096,3584]{1,0:T(8,128)(2,1)}" "f32[3,5]{1,0:T(8,128)}"
  "pred[64,512,2048]{2,1,0:T(8,128)E(32)}" "(f32[2], s32[])")
hlomem_cli_test("shape --json" 0 shape_json.out -
  shape --json "f32[3,5]{1,0:T(2,2)}" "f32[ 100 ]{0:T(8,128)}")
hlomem_cli_test("shape reports a parse error with its column and exits 2" 2 shape_error_ok_part.out shape_error.err
  shape "f32[8,128]{1,1}" "s4[123,456]{1,0:T(2,128)E(4)}")
hlomem_cli_test("shape without arguments prints usage and exits 2" 2 - shape_usage.err shape)
hlomem_cli_test("unknown command exits 2" 2 - unknown_command.err frobnicate)

# hlomem report on HLO modules. The figures were checked against the dumps with a separate
# script: entry parameter and result bytes (sums of element counts × widths over the ENTRY
# parameter lines and the ROOT tuple), the 72 aliases of 004 and the bytes of parameters 0..71,
# computations by kind (distinct calls= / to_apply= targets), and the ten largest array results
# (bf16[8,8192,32768] = 4 GiB first in 004). The TPU-tiled bf16[3,5]{1,0:T(8,128)(2,1)} pads to
# one 8×128 tile of 2-byte elements: 2048 bytes (docs/xla-formats.md 4.5).
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
hlomem_cli_test("report without a file prints usage and exits 2" 2 - report_usage.err report)

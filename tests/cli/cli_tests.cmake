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

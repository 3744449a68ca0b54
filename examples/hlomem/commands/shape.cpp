// commands/shape.cpp: `hlomem shape [--json] SHAPE...` — parse XLA shapes and print their sizes.
//
//   $ hlomem shape 'f32[3,5]{1,0:T(8,128)}'
//   f32[3,5]{1,0:T(8,128)}
//     elements        15
//     unpadded        60 bytes (60B)
//     byte_size_of    60 bytes (60B)
//     padded          4096 bytes (4.0KiB)
//     padding         4036 bytes, 68.27x the unpadded size
//     physical        f32[1,1,8,128]
#include <cstdint>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <hlomem/hlomem.hpp>

#include "../arguments.hpp"
#include "../cli.hpp"
#include "../input.hpp"

namespace hlomem_cli {
namespace {

constexpr char const* shape_usage =
    "usage: hlomem shape [--json] SHAPE... | -\n"
    "\n"
    "Parses each XLA shape and prints its canonical text, element count, sizes and the\n"
    "physical shape its tiled layout stores. '-' reads one shape per line from standard input.\n"
    "\n"
    "  unpadded      bytes without tiling; an E(n) that widens elements counts as padding\n"
    "                (what XProf and TPU out-of-memory reports call 'unpadded')\n"
    "  byte_size_of  XLA's ShapeUtil::ByteSizeOf (a tuple: its 8-byte pointer table)\n"
    "  padded        XLA's ShapeUtil::ArraySize: tiles, L(n), E(n) and split configs applied\n"
    "For tuples, elements/unpadded/padded add up the tuple's arrays.\n"
    "\n"
    "  --json        print a JSON array, one object per shape, with the keys input, shape,\n"
    "                elements, unpadded_bytes, byte_size_of, padded_bytes, padding_bytes,\n"
    "                expansion, physical_shape, arrays, tuple_table_bytes\n"
    "Exit status: 0 when every shape parsed, 2 otherwise (errors go to standard error).\n";

}  // namespace

int run_shape(arguments const& args, std::ostream& out, std::ostream& err) {
    bool as_json = false;
    std::vector<std::pair<std::string, std::string>> inputs;  // (name for messages, text)
    argument_reader a("shape", shape_usage, args, err);
    while (a.next()) {
        if (a.is("--json")) {
            as_json = true;
        } else if (a.is_help()) {
            return a.help(out);
        } else if (a.is("-")) {
            auto in = read_input("-", err);
            if (!in) return exit_error;
            std::istringstream lines(in->text);
            std::string line;
            for (int n = 1; std::getline(lines, line); ++n) {
                if (!line.empty() && line.back() == '\r') line.pop_back();
                if (line.find_first_not_of(" \t") == std::string::npos) continue;
                inputs.emplace_back("<stdin line " + std::to_string(n) + ">", line);
            }
        } else if (a.current().substr(0, 2) == "--") {
            return a.unknown_option();  // a lone "-x" is read as a shape, and its error says why
        } else {
            inputs.emplace_back("<argument " + std::to_string(inputs.size() + 1) + ">", a.operand());
        }
    }
    if (inputs.empty()) return a.usage();
    int status = exit_ok;
    std::vector<hlomem::basic_shape_facts<hlomem::view_policy>> facts;
    for (auto const& [name, text] : inputs) {
        auto parsed = hlomem::try_parse_shape<hlomem::view_policy>(text, name);
        if (!parsed) {
            err << parsed.error() << '\n';
            status = exit_error;
            continue;
        }
        facts.push_back(hlomem::shape_facts_of(text, std::move(*parsed)));
    }
    if (as_json) {
        hlomem::json_writer json(out);
        json.begin_array();
        for (auto const& f : facts) hlomem::write_shape_facts_json(json, f);
        json.end_array();
        json.finish();
    } else {
        for (std::size_t i = 0; i < facts.size(); ++i) {
            if (i > 0) out << '\n';
            hlomem::print_shape_facts_text(out, facts[i]);
        }
    }
    return status;
}

}  // namespace hlomem_cli

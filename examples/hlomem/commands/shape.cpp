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
#include "../json_writer.hpp"

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

/// The figures `hlomem shape` prints for one shape; sizes are absent for unbounded shapes.
struct shape_facts {
    std::string input;
    hlomem::shape shape;
    std::optional<hlomem::shape_totals> totals;
    std::int64_t byte_size_of = 0;
    std::string physical;
    std::string undefined_reason;
};

inline shape_facts facts_of(std::string input, hlomem::shape s) {
    shape_facts f{std::move(input), std::move(s), std::nullopt, 0, {}, {}};
    try {
        f.totals = hlomem::totals_of(f.shape);
        f.byte_size_of = hlomem::byte_size_of(f.shape);
        f.physical = hlomem::to_string(hlomem::tiled_physical_shape(f.shape));
    } catch (hlomem::shape_error const& e) {
        f.totals.reset();
        f.undefined_reason = e.what();
    }
    return f;
}

inline void print_facts_text(std::ostream& out, shape_facts const& f) {
    auto bytes = [](std::int64_t b) { return std::to_string(b) + " bytes (" + hlomem::human_bytes(b) + ")"; };
    out << hlomem::to_string(f.shape) << '\n';
    if (!f.totals) {
        out << "  sizes           " << f.undefined_reason << '\n';
        return;
    }
    auto const& t = *f.totals;
    if (f.shape.is_tuple()) {
        out << "  tuple of " << t.arrays << (t.arrays == 1 ? " array" : " arrays")
            << "; elements, unpadded and padded add up its arrays\n";
    }
    out << "  elements        " << t.elements << '\n';
    out << "  unpadded        " << bytes(t.unpadded_bytes) << '\n';
    out << "  byte_size_of    " << bytes(f.byte_size_of) << '\n';
    out << "  padded          " << bytes(t.padded_bytes) << '\n';
    std::int64_t const padding = t.padded_bytes - t.unpadded_bytes;
    out << "  padding         " << padding << " bytes";
    if (t.unpadded_bytes > 0 && padding != 0) {
        out << ", " << fixed2(static_cast<double>(t.padded_bytes) / static_cast<double>(t.unpadded_bytes))
            << "x the unpadded size";
    }
    out << '\n';
    if (f.shape.is_tuple()) out << "  tuple tables    " << bytes(t.tuple_table_bytes) << '\n';
    out << "  physical        " << f.physical << '\n';
}

inline void print_facts_json(json_writer& json, shape_facts const& f) {
    json.begin_object();
    json.member("input", f.input);
    json.member("shape", hlomem::to_string(f.shape));
    if (f.totals) {
        auto const& t = *f.totals;
        json.member("elements", t.elements);
        json.member("unpadded_bytes", t.unpadded_bytes);
        json.member("byte_size_of", f.byte_size_of);
        json.member("padded_bytes", t.padded_bytes);
        json.member("padding_bytes", t.padded_bytes - t.unpadded_bytes);
        json.key("expansion");
        if (t.unpadded_bytes > 0) {
            json.value(static_cast<double>(t.padded_bytes) / static_cast<double>(t.unpadded_bytes));
        } else {
            json.null();
        }
        json.member("physical_shape", f.physical);
        json.member("arrays", t.arrays);
        json.member("tuple_table_bytes", t.tuple_table_bytes);
    } else {
        for (char const* k : {"elements", "unpadded_bytes", "byte_size_of", "padded_bytes", "padding_bytes",
                              "expansion", "physical_shape"}) {
            json.key(k).null();
        }
        json.member("undefined_reason", f.undefined_reason);
    }
    json.end_object();
}

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
    std::vector<shape_facts> facts;
    for (auto const& [name, text] : inputs) {
        auto parsed = hlomem::try_parse_shape(text, name);
        if (!parsed) {
            err << parsed.error() << '\n';
            status = exit_error;
            continue;
        }
        facts.push_back(facts_of(text, std::move(*parsed)));
    }
    if (as_json) {
        json_writer json(out);
        json.begin_array();
        for (auto const& f : facts) print_facts_json(json, f);
        json.end_array();
        json.finish();
    } else {
        for (std::size_t i = 0; i < facts.size(); ++i) {
            if (i > 0) out << '\n';
            print_facts_text(out, facts[i]);
        }
    }
    return status;
}

}  // namespace hlomem_cli

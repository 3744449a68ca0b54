// hlomem/output/shape_report.hpp: what `hlomem shape` prints for a shape: its canonical text, its
// elements, unpadded, ByteSizeOf and padded bytes, the padding and its expansion, the tuple tables
// and the physical shape its tiles store (core/shape_size.hpp, core/padding.hpp); as text
// (print_shape_facts_text) and as a JSON object (write_shape_facts_json).
#ifndef HLOMEM_OUTPUT_SHAPE_REPORT_HPP
#define HLOMEM_OUTPUT_SHAPE_REPORT_HPP

#include <cstdint>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <hlomem/core/human_bytes.hpp>
#include <hlomem/core/padding.hpp>
#include <hlomem/core/shape.hpp>
#include <hlomem/core/shape_size.hpp>
#include <hlomem/core/tiling.hpp>
#include <hlomem/output/json_writer.hpp>
#include <hlomem/output/percent.hpp>

namespace hlomem {

/// The figures `hlomem shape` prints for one shape; sizes are absent for unbounded shapes.
template <class P = default_policy>
struct basic_shape_facts {
    std::string input;
    basic_shape<P> shape;
    std::optional<shape_totals> totals;
    std::int64_t byte_size_of = 0;
    std::string physical;
    std::string undefined_reason;
};
using shape_facts = basic_shape_facts<>;

/// The figures of `s`, read as `input`; an unbounded shape has no sizes, and says why.
template <class P>
basic_shape_facts<P> shape_facts_of(std::string input, basic_shape<P> s) {
    basic_shape_facts<P> f{std::move(input), std::move(s), std::nullopt, 0, {}, {}};
    try {
        f.totals = totals_of(f.shape);
        f.byte_size_of = byte_size_of(f.shape);
        f.physical = to_string(tiled_physical_shape(f.shape));
    } catch (shape_error const& e) {
        f.totals.reset();
        f.undefined_reason = e.what();
    }
    return f;
}

/// The figures as `hlomem shape` prints them, one per line.
template <class P>
void print_shape_facts_text(std::ostream& out, basic_shape_facts<P> const& f) {
    auto bytes = [](std::int64_t b) { return std::to_string(b) + " bytes (" + human_bytes(b) + ")"; };
    out << to_string(f.shape) << '\n';
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

/// The figures as one object of `hlomem shape --json`.
template <class P>
void write_shape_facts_json(json_writer& json, basic_shape_facts<P> const& f) {
    json.begin_object();
    json.member("input", f.input);
    json.member("shape", to_string(f.shape));
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

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_SHAPE_REPORT_HPP

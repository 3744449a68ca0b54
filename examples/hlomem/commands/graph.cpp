// commands/graph.cpp: `hlomem graph [--dot|--graphml] FILE` — writes a dump's interference graph
// (Boost's write_graphviz / write_graphml), vertices colored by memory space. FILE may be a bare
// HLO module: the loader then derives its assignment.
#include <algorithm>
#include <optional>
#include <ostream>
#include <string>

#include <boost/graph/graphml.hpp>
#include <boost/graph/graphviz.hpp>
#include <boost/property_map/dynamic_property_map.hpp>

#include <hlomem/hlomem.hpp>

#include "../arguments.hpp"
#include "../cli.hpp"
#include "../input.hpp"

namespace hlomem_cli {
namespace {

constexpr char const* graph_usage =
    "usage: hlomem graph [--dot|--graphml] [--color N] [--allocation N] [--temps] [--allocations] FILE\n"
    "\n"
    "Writes the interference graph of a buffer-assignment dump to standard output: one vertex\n"
    "per logical value with a live range, an edge between two values of the same color whose\n"
    "live ranges overlap. Vertices are filled by memory space (color). FILE may also be a\n"
    "scheduled HLO module: its values and live ranges are then derived as `hlomem liveness`\n"
    "does, each HloBuffer (values XLA must keep in one buffer) is an allocation of its own, and\n"
    "sizes are the layouts' padded sizes (TPU's when the layouts are tiled).\n"
    "\n"
    "  --dot            Graphviz (default)     --graphml        GraphML\n"
    "  --color N        only values of color N\n"
    "  --allocation N   only values of allocation N\n"
    "  --temps          only values of preallocated-temp allocations\n"
    "  --allocations    allocations as vertices: two interfere when any of their values do\n";

/// A fill color per memory space, so that HBM (0), VMEM (1) and others stand apart.
char const* memory_space_fill(std::int64_t color) {
    static char const* const palette[] = {"#9ecae1", "#fdae6b", "#a1d99b", "#bcbddc", "#fc9272", "#d9d9d9"};
    return palette[static_cast<std::size_t>(color < 0 ? 5 : std::min<std::int64_t>(color, 5))];
}

}  // namespace

int run_graph(arguments const& args, std::ostream& out, std::ostream& err) {
    bool graphml = false, allocations = false;
    hlomem::interference_options options;
    std::optional<std::string> file;
    argument_reader a("graph", graph_usage, args, err);
    // A number after --color or --allocation; nullopt (and a message when it is not a number).
    auto number = [&]() -> std::optional<std::int64_t> {
        std::string const flag = a.operand();
        auto const v = a.value();
        if (!v) return std::nullopt;
        auto const n = decimal(*v);
        if (!n) err << "hlomem graph: " << flag << " needs a number\n";
        return n;
    };
    while (a.next()) {
        if (a.is("--dot")) {
            graphml = false;
        } else if (a.is("--graphml")) {
            graphml = true;
        } else if (a.is("--allocations")) {
            allocations = true;
        } else if (a.is("--temps")) {
            options.temps_only = true;
        } else if (a.is("--color")) {
            auto v = number();
            if (!v) return exit_error;
            options.color = *v;
        } else if (a.is("--allocation")) {
            auto v = number();
            if (!v) return exit_error;
            options.allocation = static_cast<std::size_t>(*v);
        } else if (a.is_help()) {
            return a.help(out);
        } else if (auto status = a.take_file_or_unexpected(file)) {
            return *status;
        }
    }
    if (!file) return a.usage();
    auto in = open_input(*file, err);
    if (!in) return exit_error;
    if (in->kind != hlomem::dump_kind::buffer_assignment && in->kind != hlomem::dump_kind::hlo_module) {
        err << "hlomem graph: " << *file
            << ": neither a buffer-assignment dump nor an HLO module (it should start with 'BufferAssignment:' or "
               "'HloModule name, ...')\n";
        return exit_error;
    }
    hlomem::load_options load_options;
    load_options.derive_assignment = true;
    auto const* loaded = load(*in, load_options, err);
    if (!loaded) return exit_error;
    if (loaded->derived) {
        for (auto const& n : loaded->derived->notes) err << "hlomem graph: note: " << n.message << '\n';
    }
    auto const* ba = loaded->assignment();

    if (allocations) {
        auto g = hlomem::make_allocation_interference_graph(*ba, options);
        if (graphml) {
            boost::dynamic_properties dp;
            dp.property("index", get(&hlomem::allocation_vertex::index, g));
            dp.property("size", get(&hlomem::allocation_vertex::size, g));
            dp.property("color", get(&hlomem::allocation_vertex::color, g));
            boost::write_graphml(out, g, dp, true);
        } else {
            boost::write_graphviz(out, g, [&](std::ostream& os, std::size_t v) {
                auto const& a = g[v];
                os << "[label=\"allocation " << a.index << "\\n" << hlomem::to_string(a.kind) << "\\n"
                   << hlomem::human_bytes(a.size) << "\", style=filled, fillcolor=\"" << memory_space_fill(a.color) << "\"]";
            });
        }
        return exit_ok;
    }
    auto g = hlomem::make_interference_graph(*ba, options);
    if (graphml) {
        boost::dynamic_properties dp;
        dp.property("id", get(&hlomem::value_vertex::id, g));
        dp.property("name", get(&hlomem::value_vertex::name, g));
        dp.property("size", get(&hlomem::value_vertex::size, g));
        dp.property("offset", get(&hlomem::value_vertex::offset, g));
        dp.property("color", get(&hlomem::value_vertex::color, g));
        boost::write_graphml(out, g, dp, true);
    } else {
        boost::write_graphviz(out, g, [&](std::ostream& os, std::size_t v) {
            auto const& x = g[v];
            os << "[label=\"" << x.id << " " << x.name << "\\n" << hlomem::human_bytes(x.size) << " live " << x.range.start
               << "-" << x.range.end << "\", style=filled, fillcolor=\"" << memory_space_fill(x.color) << "\"]";
        });
    }
    return exit_ok;
}

}  // namespace hlomem_cli

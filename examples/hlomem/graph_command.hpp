// graph_command.hpp: `hlomem graph [--dot|--graphml] FILE` — writes a dump's interference graph
// (Boost's write_graphviz / write_graphml), vertices colored by memory space.
#ifndef HLOMEM_EXAMPLES_GRAPH_COMMAND_HPP
#define HLOMEM_EXAMPLES_GRAPH_COMMAND_HPP

#include <optional>
#include <ostream>
#include <string>

#include <boost/graph/graphml.hpp>
#include <boost/graph/graphviz.hpp>
#include <boost/property_map/dynamic_property_map.hpp>

#include <hlomem/hlomem.hpp>

#include "cli.hpp"
#include "derived_model.hpp"

namespace hlomem_cli {

inline constexpr char const* graph_usage =
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
inline char const* memory_space_fill(std::int64_t color) {
    static char const* const palette[] = {"#9ecae1", "#fdae6b", "#a1d99b", "#bcbddc", "#fc9272", "#d9d9d9"};
    return palette[static_cast<std::size_t>(color < 0 ? 5 : std::min<std::int64_t>(color, 5))];
}

inline int run_graph(arguments const& args, std::ostream& out, std::ostream& err) {
    bool graphml = false, allocations = false;
    hlomem::interference_options options;
    std::optional<std::string> file;
    auto number = [&](std::size_t& i, std::string_view flag) -> std::optional<std::int64_t> {
        if (i + 1 >= args.size()) return std::nullopt;
        std::string const v(args[++i]);
        if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos) {
            err << "hlomem graph: " << flag << " needs a number\n";
            return std::nullopt;
        }
        return std::stoll(v);
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string_view const a = args[i];
        if (a == "--dot") {
            graphml = false;
        } else if (a == "--graphml") {
            graphml = true;
        } else if (a == "--allocations") {
            allocations = true;
        } else if (a == "--temps") {
            options.temps_only = true;
        } else if (a == "--color") {
            auto v = number(i, a);
            if (!v) return exit_error;
            options.color = *v;
        } else if (a == "--allocation") {
            auto v = number(i, a);
            if (!v) return exit_error;
            options.allocation = static_cast<std::size_t>(*v);
        } else if (a == "--help" || a == "-h") {
            out << graph_usage;
            return exit_ok;
        } else if ((a.size() > 1 && a[0] == '-' && a != "-") || file) {
            return usage_error(err, "graph", "unexpected argument '" + std::string(a) + "'");
        } else {
            file = std::string(a);
        }
    }
    if (!file) {
        err << graph_usage;
        return exit_error;
    }
    auto ba = load_assignment_or_module(*file, "graph", err);
    if (!ba) return exit_error;

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

#endif  // HLOMEM_EXAMPLES_GRAPH_COMMAND_HPP

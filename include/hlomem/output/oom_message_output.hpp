// hlomem/output/oom_message_output.hpp: the parts of `hlomem explain`'s output
// (output/oom_explanation.hpp) for the verdict of every report (dump/oom_verdict.hpp), the figures
// of the one-line messages and the BFC allocator's log, and the join of a report's entries and
// tags with an HLO module (`explain --module`): the instruction an entry names (a TPU `XLA
// label: %fusion.10 = ...`, a tag `output of xor_convert_fusion@{}`) or whose op_name a GPU entry's
// `Operator:` carries, with its computation, op_name and source line.
#ifndef HLOMEM_OUTPUT_OOM_MESSAGE_OUTPUT_HPP
#define HLOMEM_OUTPUT_OOM_MESSAGE_OUTPUT_HPP

#include <algorithm>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <hlomem/core/printed_size.hpp>
#include <hlomem/dump/oom_report.hpp>
#include <hlomem/hlo/attribution.hpp>
#include <hlomem/hlo/metadata.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/hlo/opcode.hpp>
#include <hlomem/output/json_writer.hpp>

namespace hlomem {

/// An instruction of the module an entry points at.
struct oom_source {
    std::string instruction;
    std::string computation;
    std::string opcode;
    std::string op_name;      ///< c_unescape'd
    std::string source_file;
    std::int64_t source_line = 0;
};

/// The module's instructions by name and by op_name (the first instruction with that op_name).
struct oom_module_index {
    std::string module;
    std::unordered_map<std::string, oom_source> by_name;
    std::unordered_map<std::string, oom_source> by_op_name;
};

template <class P>
oom_module_index index_module(basic_hlo_module<P> const& m) {
    oom_module_index out;
    out.module = std::string(std::string_view(m.name()));
    for (instruction_id i = 0; i < m.instruction_count(); ++i) {
        auto const& in = m.instruction(i);
        oom_source s;
        s.instruction = std::string(std::string_view(in.name));
        s.computation = std::string(std::string_view(m.computation(in.computation).name));
        s.opcode = std::string(to_string(in.opcode));
        if (auto const* md = m.metadata(i)) {
            s.op_name = c_unescape(std::string_view(md->op_name));
            // JAX 0.5 and later print a stack_frame_id into the module's StackFrames instead of
            // source_file and source_line (hlo/stack_frames.hpp).
            auto const at = metadata_position(*md, &m.stack_frame_index());
            s.source_file = c_unescape(at.file);
            s.source_line = at.line;
        }
        // An op_name names the instructions of a fusion and the fusion itself: the one in the
        // entry computation (the fusion, whose buffer a report lists) is kept.
        if (!s.op_name.empty()) {
            auto [it, added] = out.by_op_name.emplace(s.op_name, s);
            if (!added && m.computation(in.computation).is_entry && it->second.computation != s.computation) it->second = s;
        }
        out.by_name.emplace(s.instruction, std::move(s));
    }
    return out;
}

namespace detail::oom_explanation {

/// The instruction `e` points at in `index`: by the name its label or tag gives, else (GPU
/// entries, whose label is an opcode) by the op_name of its `Operator:`.
template <class P>
oom_source const* source_of(oom_module_index const& index, basic_oom_entry<P> const& e) {
    if (e.label_instruction && !e.label_instruction->name.empty()) {
        auto it = index.by_name.find(std::string(std::string_view(e.label_instruction->name)));
        if (it != index.by_name.end()) return &it->second;
    }
    std::string_view const op(e.operator_text);
    auto const at = op.find("op_name=\"");
    if (at != std::string_view::npos) {
        auto const close = op.find('"', at + 9);
        if (close != std::string_view::npos) {
            auto it = index.by_op_name.find(c_unescape(op.substr(at + 9, close - at - 9)));
            if (it != index.by_op_name.end()) return &it->second;
        }
    }
    return nullptr;
}

/// `    in module jit_f: %fusion.10 (fusion) in computation main, op_name "...", model.py:212`
template <class P>
void print_source_text(std::ostream& out, oom_module_index const& index, basic_oom_entry<P> const& e) {
    auto const* s = source_of(index, e);
    if (!s) {
        out << "    in module " << index.module << ": no instruction matches its label or op_name\n";
        return;
    }
    out << "    in module " << index.module << ": %" << s->instruction << " (" << s->opcode << ") in computation " << s->computation;
    if (!s->op_name.empty()) out << ", op_name \"" << s->op_name << '"';
    if (!s->source_file.empty()) out << ", " << s->source_file << (s->source_line > 0 ? ":" + std::to_string(s->source_line) : std::string());
    out << '\n';
}

template <class P>
void print_source_json(json_writer& json, oom_module_index const& index, basic_oom_entry<P> const& e) {
    json.key("module");
    auto const* s = source_of(index, e);
    if (!s) {
        json.null();
        return;
    }
    json.begin_object();
    json.member("instruction", s->instruction);
    json.member("computation", s->computation);
    json.member("opcode", s->opcode);
    json.key("op_name");
    s->op_name.empty() ? json.null() : json.value(s->op_name);
    json.key("source_file");
    s->source_file.empty() ? json.null() : json.value(s->source_file);
    json.key("source_line");
    s->source_line > 0 ? json.value(s->source_line) : json.null();
    json.end_object();
}

/// `does_not_fit` -> `does not fit`
inline std::string outcome_words(std::string_view outcome) {
    std::string out(outcome);
    for (auto& c : out) c = c == '_' ? ' ' : c;
    return out;
}

inline void print_verdict_text(std::ostream& out, oom_verdict const& v) {
    out << "  verdict: " << v.time << ", " << outcome_words(v.outcome) << ": " << v.text << '\n';
    for (auto const& n : v.not_told) out << "  not told: " << n << '\n';
}

inline void print_verdict_json(json_writer& json, oom_verdict const& v) {
    json.key("verdict").begin_object();
    json.member("time", v.time);
    json.member("outcome", v.outcome);
    json.key("over_by_bytes");
    v.over_by ? json.value(*v.over_by) : json.null();
    json.member("text", v.text);
    json.key("not_told").begin_array();
    for (auto const& n : v.not_told) json.value(n);
    json.end_array();
    json.end_object();
}

/// The owners of in-use chunks, most bytes first (then in the order first seen).
template <class Bfc>
std::vector<std::size_t> executables_by_bytes(Bfc const& b) {
    std::vector<std::size_t> order(b.in_use_by_executable.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        return b.in_use_by_executable[x].bytes > b.in_use_by_executable[y].bytes;
    });
    return order;
}

/// The figures of the one-line messages and the BFC log that the summary lines do not show.
template <class P>
void print_message_text(std::ostream& out, basic_oom_report<P> const& r) {
    if (!r.program_name.empty() || r.program_load) out << "  program load" << (r.program_name.empty() ? std::string() : " '" + std::string(std::string_view(r.program_name)) + "'") << '\n';
    if (!r.device.empty()) out << "  device " << r.device << '\n';
    if (r.utilization) out << "  utilization " << r.utilization->text << "%\n";
    if (r.kind != oom_report_kind::bfc) return;
    auto const& b = r.bfc;
    auto const xla = [](std::int64_t v) { return format_size(v, size_function_kind::xla); };
    if (!b.allocator.empty()) out << "  allocator " << b.allocator << (b.not_a_failure ? " (the caller says: not a failure)" : "") << '\n';
    if (!b.bins.empty()) {
        std::int64_t chunks = 0, in_use = 0;
        for (auto const& bin : b.bins) {
            chunks += bin.total_chunks;
            in_use += bin.chunks_in_use;
        }
        out << "  bins: " << b.bins.size() << ", " << chunks << " chunks, " << in_use << " in use\n";
    }
    if (b.chunks_in_use + b.chunks_free > 0) {
        out << "  chunk lines: " << b.chunks_in_use << " in use (" << xla(b.in_use_chunk_bytes) << "), " << b.chunks_free << " free ("
            << xla(b.free_chunk_bytes) << ", the largest " << xla(b.largest_free_chunk) << ")\n";
    }
    if (!b.in_use_by_executable.empty()) {
        out << "  in use by executable (the chunks' allocation_annotation):\n";
        for (std::size_t i : executables_by_bytes(b)) {
            auto const& o = b.in_use_by_executable[i];
            out << "    " << o.executable << ": " << xla(o.bytes) << " in " << o.chunks << (o.chunks == 1 ? " chunk\n" : " chunks\n");
        }
    }
    if (!b.chunk_sizes.empty()) out << "  chunk sizes in use: " << b.chunk_sizes.size() << " lines\n";
    if (b.sum_in_use) out << "  sum of in-use chunks " << b.sum_in_use->text << '\n';
    if (b.memory_limit) {
        out << "  memory_limit_ " << *b.memory_limit << (b.region_allocated ? ", region allocated " + std::to_string(*b.region_allocated) : std::string())
            << (b.available ? ", available " + std::to_string(*b.available) : std::string()) << '\n';
    }
    if (!b.stats.empty()) {
        out << "  stats:";
        for (std::size_t i = 0; i < b.stats.size(); ++i) out << (i == 0 ? " " : ", ") << b.stats[i].first << ' ' << b.stats[i].second.text;
        out << '\n';
    }
}

/// `"key": bytes` of a printed figure, or null.
template <class P>
void bytes_member(json_writer& json, char const* key, std::optional<basic_reported_size<P>> const& r) {
    json.key(key);
    r ? json.value(r->size.nominal_bytes) : json.null();
}

template <class P>
void print_message_json(json_writer& json, basic_oom_report<P> const& r) {
    json.key("program_name");
    r.program_name.empty() ? json.null() : json.value(r.program_name);
    json.member("program_load", r.program_load);
    json.key("device");
    r.device.empty() ? json.null() : json.value(r.device);
    json.key("utilization_percent");
    r.utilization ? json.value(r.utilization->value()) : json.null();
    if (r.kind != oom_report_kind::bfc) return;
    auto const& b = r.bfc;
    json.key("bfc").begin_object();
    json.member("allocator", b.allocator);
    json.member("not_a_failure", b.not_a_failure);
    json.key("bins").begin_array();
    for (auto const& bin : b.bins) {
        json.begin_object();
        json.member("bin_size", bin.bin_size);
        json.member("total_chunks", bin.total_chunks);
        json.member("chunks_in_use", bin.chunks_in_use);
        bytes_member(json, "allocated_bytes", bin.allocated);
        bytes_member(json, "in_use_bytes", bin.in_use);
        json.member("line", bin.line);
        json.end_object();
    }
    json.end_array();
    json.member("chunks_in_use", b.chunks_in_use);
    json.member("chunks_free", b.chunks_free);
    json.member("free_chunk_bytes", b.free_chunk_bytes);
    json.member("largest_free_chunk", b.largest_free_chunk);
    json.key("in_use_by_executable").begin_array();
    for (std::size_t i : executables_by_bytes(b)) {
        auto const& o = b.in_use_by_executable[i];
        json.begin_object();
        json.member("executable", o.executable);
        json.member("chunks", o.chunks);
        json.member("bytes", o.bytes);
        json.end_object();
    }
    json.end_array();
    bytes_member(json, "sum_in_use_bytes", b.sum_in_use);
    json.key("memory_limit");
    b.memory_limit ? json.value(*b.memory_limit) : json.null();
    json.key("stats").begin_object();
    for (auto const& s : b.stats) json.member(s.first, s.second.size.nominal_bytes);
    json.end_object();
    json.end_object();
}

}  // namespace detail::oom_explanation

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_OOM_MESSAGE_OUTPUT_INSTANTIATIONS(EXTERN, P) \
    EXTERN template oom_module_index index_module<P>(basic_hlo_module<P> const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_OOM_MESSAGE_OUTPUT_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_OOM_MESSAGE_OUTPUT_HPP

// hlomem/whatif/apply.hpp: the edits a what-if accepted, written into the module's own text, so
// that hlomem (and XLA's tools) read the edited module back and its derived peak is the estimate.
//
//   auto m = hlomem::parse_hlo_module(text);
//   hlomem::what_if w(m);
//   w.apply(hlomem::what_if_edit::remat(i, t));
//   std::string edited = hlomem::emit_module(text, w);   // the module `m` was parsed from
//   std::string bare = hlomem::without_input_output_alias(text);
//
// What is written, as XLA prints it:
//   donate   an entry `{1}: (0, {}, may-alias)` in the header's `input_output_alias={ ... }`;
//   remat    the defining instruction's line again, named NAME.remat, right before the first
//            use it serves; those uses name the clone (HloRematerialization's clone; a fusion
//            clone calls the same fused computation); when they read the value through bitcasts
//            or a fusion element's get-tuple-element, those lines follow, each named FORWARDER.remat
//            and reading the clone before it;
//   offload  `NAME.to_host = (S5, S, u32[]) copy-start(NAME)` and its copy-done right after the
//            last read kept, `NAME.to_device = (S, S5, u32[]) copy-start(NAME.to_host_done)` and
//            its copy-done right before the next read, which names the last copy-done; S5 is the
//            value's shape with `S(5)` in its layout (host memory). When the later reads go
//            through a bitcast or a get-tuple-element, NAME is that instruction's and S its shape.
// Only lines are added and operands renamed: every other byte of the text is kept.
#ifndef HLOMEM_WHATIF_APPLY_HPP
#define HLOMEM_WHATIF_APPLY_HPP

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include <hlomem/core/shape_text.hpp>
#include <hlomem/whatif/what_if.hpp>

namespace hlomem {

namespace detail {

inline bool hlo_name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

/// The operand list of an instruction line, `(` to its `)`: after ` = `, the shape (tuples and
/// comments balanced) and the opcode.
inline std::pair<std::size_t, std::size_t> operand_list(std::string_view line) {
    std::size_t i = line.find(" = ");
    if (i == std::string_view::npos) return {0, 0};
    i += 3;
    int depth = 0;
    for (; i < line.size(); ++i) {
        char const c = line[i];
        if (c == '(' || c == '[' || c == '{') ++depth;
        if (c == ')' || c == ']' || c == '}') --depth;
        if (c == ' ' && depth == 0) break;
    }
    std::size_t const open = line.find('(', i);
    if (open == std::string_view::npos) return {0, 0};
    depth = 0;
    for (std::size_t j = open; j < line.size(); ++j) {
        if (line[j] == '(' || line[j] == '{' || line[j] == '[') ++depth;
        if (line[j] == ')' || line[j] == '}' || line[j] == ']') --depth;
        if (depth == 0) return {open, j};
    }
    return {0, 0};
}

/// `line` with every operand `from` named `to`.
inline std::string rename_operand(std::string_view line, std::string_view from, std::string_view to) {
    if (from.empty()) return std::string(line);  // no name to find (and find("") never moves on)
    auto const [open, close] = operand_list(line);
    std::string out(line.substr(0, open));
    std::size_t i = open;
    while (i < close) {
        std::size_t const at = line.find(from, i);
        if (at == std::string_view::npos || at >= close) break;
        bool const whole = !hlo_name_char(line[at - 1]) && !hlo_name_char(line[at + from.size()]);
        out.append(line.substr(i, at - i));
        out.append(whole ? to : from);
        i = at + from.size();
    }
    out.append(line.substr(i));
    return out;
}

/// The line of the instruction whose text starts at `offset`: [start, end) without the newline.
inline std::pair<std::size_t, std::size_t> line_at(std::string_view text, std::size_t offset) {
    std::size_t const start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
    std::size_t const first = start == std::string_view::npos || offset == 0 ? 0 : start + 1;
    std::size_t const end = std::min(text.find('\n', offset), text.size());
    return {first, end};
}

}  // namespace detail

/// The text without the header's `input_output_alias={ ... }`: the module as if nothing were
/// donated. Throws hlomem::error when the braces do not close on the HloModule line.
inline std::string without_input_output_alias(std::string_view text) {
    std::size_t const header_end = std::min(text.find('\n'), text.size());
    std::size_t const at = text.substr(0, header_end).find(", input_output_alias={");
    if (at == std::string_view::npos) return std::string(text);
    int depth = 0;
    std::size_t i = text.find('{', at);
    for (; i < header_end; ++i) {
        if (text[i] == '{') ++depth;
        if (text[i] == '}' && --depth == 0) break;
    }
    if (i >= header_end) throw error("the HloModule line's input_output_alias={ is not closed on that line");
    return std::string(text.substr(0, at)) + std::string(text.substr(i + 1));
}

/// The module's text with the accepted edits of `w` written in; `text` is the one its module was
/// parsed from (instruction offsets point into it).
template <class P>
std::string emit_module(std::string_view text, basic_what_if<P> const& w) {
    auto const& m = w.module();
    std::unordered_set<std::string> names;
    for (auto const& inst : m.instructions()) names.insert(std::string(std::string_view(inst.name)));
    auto fresh = [&](std::string base) {
        std::string name = base;
        for (int n = 1; names.count(name); ++n) name = base + "." + std::to_string(n);
        names.insert(name);
        return name;
    };
    auto line_of = [&](instruction_id i) {
        auto const [first, end] = detail::line_at(text, m.instruction(i).offset);
        return std::string(text.substr(first, end - first));
    };
    bool const percent = line_of(m.entry_computation().root).find('%') != std::string::npos;
    std::string const sigil = percent ? "%" : "";
    std::vector<std::string> lines(m.instruction_count());  // each rewritten line, empty when kept
    std::vector<std::vector<std::pair<std::size_t, std::string>>> before(m.instruction_count());
    std::vector<std::string> aliases;
    for (auto const& e : w.edits()) {
        if (e.edit.kind == what_if_kind::donate) {
            std::string index = to_string(basic_shape_index<P>(
                typename basic_shape_index<P>::container_type(e.edit.parameter_index.begin(), e.edit.parameter_index.end())));
            std::string output = to_string(basic_shape_index<P>(
                typename basic_shape_index<P>::container_type(e.output_index.begin(), e.output_index.end())));
            aliases.push_back(output + ": (" + std::to_string(e.edit.parameter_number) + ", " + index + ", may-alias)");
            continue;
        }
        // The instruction the later readers read: the value's, or the bitcast they read it through
        // (the last clone, or what the copies copy).
        instruction_id const x = e.inserted.back().source;
        std::string const name(std::string_view(m.instruction(x).name));
        std::string const shape = to_string(m.shape_of(x));
        std::string reader_name;
        if (e.edit.kind == what_if_kind::remat) {
            std::vector<std::pair<std::string, std::string>> cloned;  // a bitcast's clone reads the clone
            for (auto const& in : e.inserted) {
                std::string const source(std::string_view(m.instruction(in.source).name));
                std::string clone = line_of(in.source);
                cloned.emplace_back(source, fresh(source + ".remat"));
                clone.replace(clone.find(source), source.size(), cloned.back().second);
                for (auto const& [from, to] : cloned) clone = detail::rename_operand(clone, from, to);
                before[in.before].emplace_back(in.slot, std::move(clone));
            }
            reader_name = cloned.back().second;
        } else {
            auto host_shape = m.shape_of(x);
            host_shape.mutable_layout().memory_space = 5;
            std::string const host = to_string(host_shape);
            std::string const to_host = fresh(name + ".to_host"), to_host_done = fresh(name + ".to_host_done");
            std::string const to_device = fresh(name + ".to_device");
            reader_name = fresh(name + ".to_device_done");
            auto const& in = e.inserted;
            before[in[0].before].emplace_back(in[0].slot, "  " + sigil + to_host + " = (" + host + ", " + shape +
                                                             ", u32[]) copy-start(" + sigil + name + ")");
            before[in[1].before].emplace_back(in[1].slot, "  " + sigil + to_host_done + " = " + host + " copy-done(" + sigil + to_host + ")");
            before[in[2].before].emplace_back(in[2].slot, "  " + sigil + to_device + " = (" + shape + ", " + host +
                                                             ", u32[]) copy-start(" + sigil + to_host_done + ")");
            before[in[3].before].emplace_back(in[3].slot, "  " + sigil + reader_name + " = " + shape + " copy-done(" + sigil + to_device + ")");
        }
        for (instruction_id u : e.rewired) {
            if (lines[u].empty()) lines[u] = line_of(u);
            lines[u] = detail::rename_operand(lines[u], name, reader_name);
        }
    }
    // Written in text order: the header, then each instruction's inserted lines and its line.
    std::string out;
    out.reserve(text.size() + 256);
    std::size_t copied = 0;
    std::size_t const header_end = std::min(text.find('\n'), text.size());
    std::string header(text.substr(0, header_end));
    if (!aliases.empty()) {
        std::string joined;
        for (auto const& a : aliases) joined += (joined.empty() ? "" : ", ") + a;
        std::size_t const at = header.find("input_output_alias={ ");
        if (at != std::string::npos) {
            header.insert(at + 21, joined + ", ");
        } else {
            std::size_t const scheduled = header.find("is_scheduled=true");
            std::size_t const place = scheduled != std::string::npos ? scheduled + 17 : std::min(header.find(','), header.size());
            header.insert(place, ", input_output_alias={ " + joined + " }");
        }
    }
    out += header;
    copied = header_end;
    for (instruction_id i = 0; i < m.instruction_count(); ++i) {
        if (before[i].empty() && lines[i].empty()) continue;
        auto const [first, end] = detail::line_at(text, m.instruction(i).offset);
        out.append(text.substr(copied, first - copied));
        std::sort(before[i].begin(), before[i].end());
        for (auto const& [slot, line] : before[i]) out += line + "\n";
        out += lines[i].empty() ? std::string(text.substr(first, end - first)) : lines[i];
        copied = end;
    }
    out.append(text.substr(copied));
    return out;
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_APPLY_INSTANTIATIONS(EXTERN, P) \
    EXTERN template std::string emit_module<P>(std::string_view, basic_what_if<P> const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_APPLY_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_WHATIF_APPLY_HPP

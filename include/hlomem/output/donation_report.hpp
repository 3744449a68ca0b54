// hlomem/output/donation_report.hpp: the donations of a compilation (hlo/donation.hpp) as JSON and
// as text, the same in `hlomem report`, `hlomem snapshot` and `hlomem diff`:
//
//   donations
//     used: parameter 0 f32[1024]{0} (4.0KiB) is output {0}
//     unused: parameter 1 f32[8]{0} (32B) was donated (buffer_donor) and no output took it: no output of
//       its size (32 bytes) in memory space 0
//     could alias: parameter 2 f32[16]{0} (64B) and output {1}, of the same shape (donate the parameter to reuse its buffer)
#ifndef HLOMEM_OUTPUT_DONATION_REPORT_HPP
#define HLOMEM_OUTPUT_DONATION_REPORT_HPP

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/core/human_bytes.hpp>
#include <hlomem/hlo/donation.hpp>

#include <hlomem/output/json_writer.hpp>

namespace hlomem {

/// The donations as one JSON object: donors_known, used, unused, could_alias.
inline void write_donations_json(json_writer& json, donation_analysis const& d) {
    json.begin_object();
    json.member("donors_known", d.donors_known);
    for (auto const& [key, list] : {std::pair<char const*, std::vector<parameter_donation> const*>{"used", &d.used},
                                    std::pair<char const*, std::vector<parameter_donation> const*>{"unused", &d.unused}}) {
        json.key(key).begin_array();
        for (auto const& p : *list) {
            json.begin_object();
            json.member("parameter", p.parameter_number);
            json.member("parameter_index", p.parameter_index);
            json.member("shape", p.shape);
            json.member("bytes", p.bytes);
            if (!p.output_index.empty()) json.member("output_index", p.output_index);
            if (list == &d.unused) json.member("why", p.why.empty() ? std::nullopt : std::optional<std::string>(p.why));
            json.end_object();
        }
        json.end_array();
    }
    json.key("could_alias").begin_array();
    for (auto const& c : d.could_alias) {
        json.begin_object();
        json.member("parameter", c.parameter_number);
        json.member("parameter_index", c.parameter_index);
        json.member("output_index", c.output_index);
        json.member("shape", c.shape);
        json.member("bytes", c.bytes);
        json.member("donated", c.donated);
        json.end_object();
    }
    json.end_array();
    json.end_object();
}

/// The donations as text, one finding a line, each line starting with `indent`.
inline void print_donations_text(std::ostream& out, donation_analysis const& d, std::string_view indent) {
    auto param = [](std::int64_t n, std::string const& index, std::string const& shape, std::int64_t bytes) {
        return "parameter " + std::to_string(n) + (index == "{}" ? std::string() : " " + index) + " " + shape +
               (bytes ? " (" + human_bytes(bytes) + ")" : std::string());
    };
    for (auto const& p : d.used) out << indent << "used: " << param(p.parameter_number, p.parameter_index, p.shape, p.bytes) << " is output " << p.output_index << '\n';
    for (auto const& p : d.unused) {
        out << indent << "unused: " << param(p.parameter_number, p.parameter_index, p.shape, p.bytes)
            << " was donated (buffer_donor) and no output took it" << (p.why.empty() ? std::string() : ": " + p.why) << '\n';
    }
    for (auto const& c : d.could_alias) {
        out << indent << "could alias: " << param(c.parameter_number, c.parameter_index, c.shape, c.bytes) << " and output " << c.output_index
            << ", of the same shape" << (c.donated ? "" : " (donate the parameter to reuse its buffer)") << '\n';
    }
    if (!d.donors_known) out << indent << "donations not used: not known (the dump does not list buffer_donor; read its module with it)\n";
    if (d.used.empty() && d.unused.empty() && d.could_alias.empty() && d.donors_known) out << indent << "no donation, and no parameter of an output's shape\n";
}

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_DONATION_REPORT_HPP

// hlomem/placement/minimalloc_csv.hpp: writes problems and placements as MiniMalloc's CSV, the
// format MiniMalloc, idealloc and OmniMalloc read, so that a problem extracted from an XLA dump can
// be solved by them and their answer checked by hlomem (parser/minimalloc_csv.hpp reads it back).
//
//   id,lower,upper,size              a problem: half-open lifespans [lower, upper)
//   b1,0,3,4
//   id,lower,upper,size,offset       a solution adds the offset
//   b1,0,3,4,8
//   id,lower,upper,size,alignment    an alignment column when any buffer needs one other than 1
//
// Columns are written in this order, `alignment` only when some alignment is not 1, `offset` only
// when every buffer has one. MiniMalloc's format has no sharing groups: a buffer live in several
// segments (problem.hpp) is written as one row per segment, `ID` for the first and `ID/2`, `ID/3`,
// ... for the others, with the buffer's offset on each; read back, they are independent buffers,
// so a solver may then separate what XLA keeps at one offset.
#ifndef HLOMEM_PLACEMENT_MINIMALLOC_CSV_HPP
#define HLOMEM_PLACEMENT_MINIMALLOC_CSV_HPP

#include <algorithm>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <hlomem/placement/problem.hpp>

namespace hlomem {

/// Writes `p` as MiniMalloc CSV. Throws allocation_error for an id that CSV cannot hold (empty, or
/// with a comma or a line break) or when only some buffers have offsets.
inline void write_minimalloc_csv(std::ostream& os, allocation_problem const& p) {
    bool const aligned = std::any_of(p.buffers.begin(), p.buffers.end(), [](auto const& b) { return b.alignment != 1; });
    auto const placed = static_cast<std::size_t>(
        std::count_if(p.buffers.begin(), p.buffers.end(), [](auto const& b) { return b.offset.has_value(); }));
    if (placed != 0 && placed != p.buffers.size()) {
        throw allocation_error("hlomem: " + std::to_string(p.buffers.size() - placed) + " of " +
                               std::to_string(p.buffers.size()) + " buffers have no offset; a MiniMalloc solution needs all");
    }
    bool const offsets = !p.buffers.empty() && placed == p.buffers.size();
    os << "id,lower,upper,size" << (aligned ? ",alignment" : "") << (offsets ? ",offset" : "") << '\n';
    for (auto const& b : p.buffers) {
        if (b.id.empty() || b.id.find_first_of(",\r\n") != std::string::npos) {
            throw allocation_error("hlomem: buffer id '" + b.id + "' cannot be written as a CSV field");
        }
        std::vector<lifespan> const spans = b.segments.empty() ? std::vector<lifespan>{b.span} : b.segments;
        for (std::size_t k = 0; k < spans.size(); ++k) {
            os << b.id;
            if (k > 0) os << '/' << k + 1;
            os << ',' << spans[k].lower << ',' << spans[k].upper << ',' << b.size;
            if (aligned) os << ',' << b.alignment;
            if (offsets) os << ',' << *b.offset;
            os << '\n';
        }
    }
}

inline std::string to_minimalloc_csv(allocation_problem const& p) {
    std::ostringstream os;
    write_minimalloc_csv(os, p);
    return os.str();
}

}  // namespace hlomem

#endif  // HLOMEM_PLACEMENT_MINIMALLOC_CSV_HPP

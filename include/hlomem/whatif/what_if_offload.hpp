// hlomem/whatif/what_if_offload.hpp: the host offload of basic_what_if (whatif/what_if.hpp): a
// value copied to memory space 5 after its last read before the split and back before the next.
#ifndef HLOMEM_WHATIF_WHAT_IF_OFFLOAD_HPP
#define HLOMEM_WHATIF_WHAT_IF_OFFLOAD_HPP

#include <cstdint>
#include <string>

#include <hlomem/whatif/what_if.hpp>

namespace hlomem {

// Host offloading's four instructions (xla/service/host_offloader.cc): copy-start to S(5) and its
// copy-done right after the last read kept, copy-start back and its copy-done right before the
// next read. Copy-done reads every buffer of its copy-start (HloValue::ComputeUses), so the
// device value lives until the first copy-done and the host value until the second.
template <class P>
void basic_what_if<P>::offload_values(std::size_t k, instruction_id x, std::size_t last_kept, logical_time before,
                                      std::size_t last_use, what_if_outcome& out) {
    auto const& m = *m_;
    auto const& shape = m.shape_of(x);  // the position copied: the value, or a bitcast of it
    std::string const name(std::string_view(m.instruction(x).name));
    if (!shape.has_layout()) {
        out.reason = name + " has no layout to put in memory space 5";
        return;
    }
    // Where the copies to host go: right after the last read kept (an entry instruction or the
    // definition), so right before the entry instruction that follows it.
    if (last_kept % detail::what_if_axis::per_time != detail::what_if_axis::per_time - 1) {
        out.reason = name + "'s last read before the copy is an instruction an earlier edit inserted";
        return;
    }
    instruction_id const kept = live_->sequence()[detail::what_if_axis::time_of_slot(last_kept)];
    instruction_id const after = next_in_computation(kept);
    logical_time const to_host = *insertion_time_before(after);
    if (to_host == before || axis_.inserted_at(to_host) + 2 >= detail::what_if_axis::per_time ||
        axis_.inserted_at(before) + 2 >= detail::what_if_axis::per_time) {
        out.reason = to_host == before ? name + " is read again right after: nothing to free between"
                                       : "no room for the copies: 3 instructions at most are inserted before one";
        return;
    }
    auto host = shape;
    host.mutable_layout().memory_space = 5;
    auto const context = basic_shape<P>::make_array(primitive_type::u32, {});
    auto const to_host_shape = basic_shape<P>::make_tuple({host, shape, context});
    auto const to_device_shape = basic_shape<P>::make_tuple({shape, host, context});
    // Each value of a copy-start weighs its whole tuple in XLA's peak moment (compute_xla_peak).
    std::int64_t const to_host_xla = byte_size_of(to_host_shape, 8), to_device_xla = byte_size_of(to_device_shape, 8);
    std::int64_t const bytes = buffer_bytes(k);
    std::int64_t const table = value_size_of(to_host_shape, sizes_).value_or(0);
    std::int64_t const context_bytes = value_size_of(context, sizes_).value_or(0);
    std::size_t const cs0 = hold(to_host), cd0 = hold(to_host), cs1 = hold(before), cd1 = hold(before);
    auto add = [&](std::int64_t xla, std::int64_t color, std::int64_t hw, std::size_t first, std::size_t last) {
        std::size_t const v = add_value(xla, color, hw);
        set_range(v, first, last);
        set_segments(buffer_of_[v], {{first, last}});
    };
    std::int64_t const color = values_[k].color;
    add(to_host_xla, 0, table, cs0, cd0);
    add(to_host_xla, 5, value_size_of(host, sizes_).value_or(0), cs0, cd1);
    add(to_host_xla, 0, context_bytes, cs0, cd0);
    add(to_device_xla, 0, table, cs1, cd1);
    add(to_device_xla, color, bytes, cs1, last_use);
    add(to_device_xla, 0, context_bytes, cs1, cd1);
    set_range(k, values_[k].first, cd0);
    set_segments(buffer_of_[k], {{values_[k].first, cd0}});
    edited_[k] = true;
    log_.push_back({log_entry::flag, k, 0, 0, {}});
    out.bytes_to_host = out.bytes_to_device = bytes;
    instruction_id const reader = live_->sequence()[static_cast<std::size_t>(before)];
    out.inserted.push_back({inserted_role::copy_start_to_host, x, after, cs0});
    out.inserted.push_back({inserted_role::copy_done_to_host, x, after, cd0});
    out.inserted.push_back({inserted_role::copy_start_to_device, x, reader, cs1});
    out.inserted.push_back({inserted_role::copy_done_to_device, x, reader, cd1});
}

}  // namespace hlomem

#endif  // HLOMEM_WHATIF_WHAT_IF_OFFLOAD_HPP

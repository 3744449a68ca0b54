// hlomem/whatif/edit.hpp: the three edits a what-if evaluates on a scheduled module, what each
// costs, and where an accepted one puts its instructions (what apply.hpp writes as HLO text).
//
//   auto d = hlomem::what_if_edit::donate(0, {});        // parameter 0 at {} shares an output
//   auto r = hlomem::what_if_edit::remat(fusion_7, 40);  // re-run fusion.7 for its reads from 40 on
//   auto o = hlomem::what_if_edit::offload(fusion_7, 40);// to host after its last read before 40,
//                                                        // back before its first read from 40 on
//
// The three follow XLA:
//   donate   the module's input_output_alias (xla/service/hlo_input_output_alias_config.cc): an
//            output of the same shape and size shares the parameter's HloBuffer, so the
//            parameter's live range ends at its last use instead of the schedule's end
//            (xla/hlo/utils/hlo_live_range.cc, CalculateBufferStartEndMap).
//   remat    HloRematerialization (xla/service/hlo_rematerialization.cc, RematerializeInstruction):
//            the defining instruction is cloned right before the first use at or after `from`,
//            those uses read the clone; the original dies at its last use before `from`; its
//            operands stay live until the clone runs, or, up to `chain` of them, are recomputed in
//            turn right before it when they would otherwise live on past their last read (a block
//            of instructions, as RematerializeBestBlock picks them, up to max_block_size). A fusion
//            counts as one instruction.
//   offload  host offloading (xla/service/host_offloader.cc): copy-start/copy-done to memory
//            space 5 (`S(5)`) right after the last use before `from`, and back right before the
//            first use at or after it. The copies' tuples and contexts are buffers too.
// A value's reads through a bitcast (which forwards the value, defining none) are its uses: when
// the uses from `from` on all read one bitcast, offload's copy-start reads that bitcast and remat
// clones the bitcasts too, right behind the clone (HloRematerialization re-creates them). An
// element of a multi-output fusion is named by its get-tuple-element: offload copies it read
// through that; remat re-runs the whole fusion (every element and the index table are values of
// the clone; the bytes recomputed are all its elements') and clones the get-tuple-element behind it.
#ifndef HLOMEM_WHATIF_EDIT_HPP
#define HLOMEM_WHATIF_EDIT_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/dump/live_range.hpp>
#include <hlomem/hlo/module.hpp>

namespace hlomem {

enum class what_if_kind : std::uint8_t { donate, remat, offload };

constexpr std::string_view to_string(what_if_kind k) noexcept {
    switch (k) {
        case what_if_kind::donate: return "donate";
        case what_if_kind::remat: return "remat";
        case what_if_kind::offload: return "offload";
    }
    return "unknown";
}

/// One edit, before it is evaluated.
struct what_if_edit {
    what_if_kind kind = what_if_kind::donate;
    std::int64_t parameter_number = -1;          ///< donate: the entry parameter
    std::vector<std::int64_t> parameter_index;   ///< donate: its shape index
    instruction_id instruction = no_instruction; ///< remat, offload: the value's defining instruction
    logical_time from = 0;                       ///< remat, offload: uses at or after it read the clone / the copy back
    std::size_t chain = 0;                       ///< remat: operands at most recomputed in turn before the clone

    static what_if_edit donate(std::int64_t parameter, std::vector<std::int64_t> index = {}) {
        what_if_edit e;
        e.kind = what_if_kind::donate;
        e.parameter_number = parameter;
        e.parameter_index = std::move(index);
        return e;
    }
    static what_if_edit remat(instruction_id i, logical_time from, std::size_t chain = 0) {
        what_if_edit e;
        e.kind = what_if_kind::remat;
        e.instruction = i;
        e.from = from;
        e.chain = chain;
        return e;
    }
    static what_if_edit offload(instruction_id i, logical_time from) {
        what_if_edit e = remat(i, from);
        e.kind = what_if_kind::offload;
        return e;
    }
};

/// What an inserted instruction is, in the order an offload writes its four.
enum class inserted_role : std::uint8_t { clone, copy_start_to_host, copy_done_to_host, copy_start_to_device, copy_done_to_device };

/// An instruction an accepted edit inserts: written right before the line of entry instruction
/// `before`, after those inserted there earlier.
struct inserted_instruction {
    inserted_role role = inserted_role::clone;
    instruction_id source = no_instruction;  ///< the instruction cloned, or the value copied
    instruction_id before = no_instruction;
    std::size_t slot = 0;                    ///< its place on the edit's time axis
};

/// An edit as evaluated: accepted (then applied to the what-if) or refused, with XLA's reason.
struct what_if_outcome {
    what_if_edit edit;
    bool accepted = false;
    std::string reason;                          ///< why it was refused, in XLA's terms
    std::int64_t instructions_recomputed = 0;    ///< remat: 1 (a fusion counts as one), and each operand recomputed in turn
    std::int64_t bytes_recomputed = 0;           ///< remat: the bytes the clone writes
    std::int64_t bytes_to_host = 0;              ///< offload: bytes copied each way
    std::int64_t bytes_to_device = 0;
    std::size_t value = npos;                    ///< the value it moves: an index into liveness().dataflow().values()
    std::vector<std::int64_t> output_index;      ///< donate: the output that shares the buffer
    std::vector<instruction_id> rewired;         ///< remat, offload: users now reading the clone / copy
    std::vector<inserted_instruction> inserted;  ///< remat: the operands' clones, the clone, its forwarders; offload: the four copies
};

}  // namespace hlomem

#endif  // HLOMEM_WHATIF_EDIT_HPP

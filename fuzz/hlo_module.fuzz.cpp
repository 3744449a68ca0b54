// Fuzz target: HLO module text (parser/hlo_module.hpp). For every input: no crash; an error names
// a position in the input; a module that parses is consistent with itself: every operand is an
// instruction of the module, users are the inverse of operands, every call names a computation,
// every computation's instructions lie inside the module, async starts and dones pair up.
#include <hlomem/dump.hpp>
#include <hlomem/hlo.hpp>
#include <hlomem/memory.hpp>
#include <hlomem/parser/hlo_module.hpp>
#include <hlomem/placement.hpp>

#include <algorithm>

#include "fuzz_check.hpp"

using hlomem_fuzz::check;

namespace {

template <class P>
void check_module(hlomem::basic_hlo_module<P> const& m) {
    std::size_t const n = m.instruction_count();
    check(m.entry() < m.computation_count(), "the entry computation exists");
    for (hlomem::computation_id c = 0; c < m.computation_count(); ++c) {
        for (hlomem::instruction_id i : m.computation(c).instructions()) check(i < n, "a computation's instruction exists");
        for (hlomem::hlo_call const& caller : m.callers(c)) check(caller.caller < n, "a caller exists");
    }
    for (hlomem::instruction_id i = 0; i < n; ++i) {
        for (hlomem::instruction_id o : m.operands(i)) {
            check(o < n, "an operand exists");
            auto const users = m.users(o);
            check(std::find(users.begin(), users.end(), i) != users.end(), "an instruction is a user of its operands");
        }
        for (hlomem::hlo_call const& call : m.calls(i)) check(call.callee < m.computation_count(), "a called computation exists");
        if (hlomem::is_async_start(m.instruction(i).opcode)) {
            hlomem::instruction_id const done = m.async_done_of(i);
            if (done != hlomem::no_instruction) check(done < n && m.async_start_of(done) == i, "async start and done pair up");
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    std::string_view const text = hlomem_fuzz::as_text(data, size);
    auto viewed = hlomem::try_parse_hlo_modules<hlomem::view_policy>(text, "<fuzz>");
    if (!viewed) {
        hlomem_fuzz::check_error(viewed.error(), text, "<fuzz>");
        return 0;
    }
    for (auto const& m : *viewed) check_module(m);
    auto owned = hlomem::try_parse_hlo_modules(text, "<fuzz>");
    check(bool(owned) && owned->size() == viewed->size(), "both policies read the same modules");
    return 0;
}

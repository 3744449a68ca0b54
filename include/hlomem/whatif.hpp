// hlomem/whatif.hpp: what-if edits on a scheduled module (donate, remat, offload), the edited
// module as HLO text, and advice under a memory budget.
#ifndef HLOMEM_WHATIF_HPP
#define HLOMEM_WHATIF_HPP

#include <hlomem/whatif/advise.hpp>
#include <hlomem/whatif/advise_memory_analysis.hpp>
#include <hlomem/whatif/apply.hpp>
#include <hlomem/whatif/edit.hpp>
#include <hlomem/whatif/edit_request.hpp>
#include <hlomem/whatif/max_tree.hpp>
#include <hlomem/whatif/what_if.hpp>

#endif  // HLOMEM_WHATIF_HPP

// hlomem/diff/knob_verdict.hpp: what a diff says about the settings that differ between two
// compilations (diff/knobs.hpp finds them): the knob a change looks like, whether it took effect,
// and the bytes it moved at the peak.
//
//   for (auto const& k : d.knobs)   // assignment_diff::knobs, largest move at the peak first
//       std::cout << to_string(k.knob) << ": " << to_string(k.effect) << ", " << k.bytes_at_peak << '\n';
#ifndef HLOMEM_DIFF_KNOB_VERDICT_HPP
#define HLOMEM_DIFF_KNOB_VERDICT_HPP

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hlomem {

/// The settings a user turns between two compilations, by what they do to the buffers:
///   donation    donate_argnums: parameters that became (or stopped being) aliases of outputs
///   remat       jax.checkpoint policies and XLA's rematerialization: values computed again
///   offload     memory_kind="pinned_host", host offload: values moved to host memory
///   scheduling  the scheduler's flags: the same values live longer or shorter
///   layout      layouts and tiling: the same values with another layout or padding
///   fusion      fusion decisions: buffers that appeared or vanished
enum class knob_kind : std::uint8_t { donation, remat, offload, scheduling, layout, fusion };

/// Whether the setting did what it is for: all of it, none of it (the policy changed and the
/// buffers did not), or a part.
enum class knob_effect : std::uint8_t { took_effect, no_effect, partly };

/// The names `diff --json` writes (`"knob"`, `"effect"`).
inline constexpr std::string_view to_string(knob_kind k) noexcept {
    switch (k) {
        case knob_kind::donation: return "donation";
        case knob_kind::remat: return "remat";
        case knob_kind::offload: return "offload";
        case knob_kind::scheduling: return "scheduling";
        case knob_kind::layout: return "layout";
        case knob_kind::fusion: return "fusion";
    }
    return "fusion";
}

inline constexpr std::string_view to_string(knob_effect e) noexcept {
    switch (e) {
        case knob_effect::took_effect: return "took_effect";
        case knob_effect::no_effect: return "no_effect";
        case knob_effect::partly: return "partly";
    }
    return "partly";
}

/// A value (or, from a snapshot, a parameter) a verdict is about.
struct knob_value {
    char side = 'b';        ///< 'a' or 'b': whose value it is
    std::int64_t id = -1;   ///< its id in that side's dump; -1 for a parameter a snapshot names
    std::string name;       ///< `wrapped_tanh.4`, `custom-call.10{0}`, `parameter 1 {}`
    std::int64_t bytes = 0;  ///< its size
};

struct knob_verdict {
    knob_kind knob = knob_kind::fusion;
    knob_effect effect = knob_effect::took_effect;
    /// B − A of the bytes the knob's values hold at each side's peak (memory/peak_holdings.hpp:
    /// bytes two values share count once), summed over the colors; negative: the knob freed them.
    std::int64_t bytes_at_peak = 0;
    std::vector<knob_value> values;  ///< the largest first, at most 20
    std::string text;                ///< one line: what changed and the evidence
};

}  // namespace hlomem

#endif  // HLOMEM_DIFF_KNOB_VERDICT_HPP

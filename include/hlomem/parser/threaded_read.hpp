// hlomem/parser/threaded_read.hpp: a large buffer-assignment dump read on several threads
// (`read_in_parts`), giving exactly the model that the one-thread read gives.
//
// A dump's sections are independent until the end: the allocations (with their value lines and
// `Total bytes used`), the `Used values:` blocks, and the HloLiveRange text. The blocks, some
// three quarters of a dump's bytes, split further at any line that starts with '<' (only a
// block's first line does: `<19 x.65 @0>`). Each part is read by its own builder into a model of
// its own, on the threads (the blocks' values into one vector a thread, block_store); the longest
// parts go first (the allocations, then the live ranges), so that the threads finish together.
// Line numbers are counted within each part and moved by the lines of the parts before it. Then
// the parts become one model, equal to the one-thread read:
//
//  - the shape tables are merged in text order (the whole text would have interned them so);
//  - XLA prints the Used-values blocks in value-id order (BufferAssignment::ToVerboseString walks
//    HloAliasAnalysis's values, sorted by id), one block per value line. When the parts' blocks
//    are so, the blocks already are the model's values in id order: each thread joins its parts'
//    blocks to their value lines (found by id) in their final places, and nothing is sorted.
//    Where every value line has its block, block j of part k is the value made from value line
//    offset[k] + j, into which the block's fields move; otherwise the blocks move to their
//    places and take their value lines' fields;
//  - a dump whose blocks are out of order, or a value line without a block, takes the general
//    merge instead (each part's values joined one by one, then sorted by id: `merge`, `finish`);
//  - the lookup by name is sorted in pieces and merged on the threads; meanwhile one thread frees
//    the parts and another attaches the live ranges (in XLA's order they need no lookup).
//
// Any part that fails to read, or parts that disagree (a block that names its value otherwise
// than its value line, a value with two blocks), make the whole text read on one thread, for
// the error the one-thread read gives.
#ifndef HLOMEM_PARSER_THREADED_READ_HPP
#define HLOMEM_PARSER_THREADED_READ_HPP

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/dump/live_range.hpp>
#include <hlomem/parser/block_store.hpp>
#include <hlomem/parser/buffer_assignment_builder.hpp>
#include <hlomem/parser/buffer_assignment_grammar.hpp>
#include <hlomem/parser/dump_common.hpp>
#include <hlomem/parser/dump_parts.hpp>
#include <hlomem/parser/read_statistics.hpp>
#include <hlomem/parser/value_id_index.hpp>
#include <hlomem/parser/worker_threads.hpp>

namespace hlomem::parser::dump {

/// Dumps from this size on are read on several threads when the process may use several
/// processors: below it, starting threads costs about what they save.
inline constexpr std::size_t threaded_read_bytes = std::size_t(4) << 20;

/// How the parts join in id order (the fast join, see the top of this file), when the blocks come
/// in id order and every value line has its block: where each block part's values start in the
/// model, and which value line (an index into the first part's values) each place joins, and back.
struct id_order_plan {
    std::vector<std::size_t> offset;         // per part: where its blocks go
    std::vector<std::size_t> new_index;      // per value line: its place in the model
    std::vector<std::size_t> line_of_block;  // per place in the model: its value line, or npos
    std::size_t size = 0;                    // values in the model (blocks)
};

/// The plan for joining `models` (index 0: the allocations part) in id order, or nullopt when
/// the blocks are out of id order, a value line has no block, or a block names its value
/// otherwise than the value line (for that error the whole text is read). Looks up every
/// block's id on the threads.
template <class P>
std::optional<id_order_plan> plan_id_order(basic_buffer_assignment<P> const& first, block_store<P>& store,
                                           value_id_index& by_id, std::size_t threads, step_timer& timer) {
    std::size_t const n = store.of_part.size();
    id_order_plan plan;
    plan.offset.assign(n, 0);
    // The parts' id ranges (first block to last) must follow each other; within them the
    // threads check each part's order, so no two parts name one value line.
    std::int64_t last_id = -1;
    for (std::size_t k = 1; k < n; ++k) {
        std::size_t const size = store.size(k);
        plan.offset[k] = plan.size;
        plan.size += size;
        if (size == 0) continue;
        auto const* const blocks = store.begin(k);
        if (blocks[0].id <= last_id || blocks[size - 1].id < blocks[0].id) return std::nullopt;
        last_id = blocks[size - 1].id;
    }
    auto const& lines = first.values;
    plan.new_index.assign(lines.size(), npos);
    plan.line_of_block.assign(plan.size, npos);
    std::vector<char> usable(n, 1);
    std::vector<std::size_t> joined(n, 0);
    for_each_on_threads(n - 1, threads, [&](std::size_t part) {
        timer.count([&] {
            std::size_t const k = part + 1;
            auto const* const blocks = store.begin(k);
            for (std::size_t j = 0; j < store.size(k); ++j) {
                auto const& v = blocks[j];
                if (j > 0 && v.id <= blocks[j - 1].id) {
                    usable[k] = 0;
                    return;
                }
                std::size_t const from = by_id.find(v.id);
                if (from == npos) continue;
                // The one-thread read checks this as it meets the block (builder::block).
                auto const& line = lines[from];
                if (std::string_view(line.name) != std::string_view(v.name) || line.index != v.index) {
                    usable[k] = 0;
                    return;
                }
                plan.new_index[from] = plan.offset[k] + j;
                plan.line_of_block[plan.offset[k] + j] = from;
                ++joined[k];
            }
        });
    });
    std::size_t total_joined = 0;
    for (std::size_t k = 1; k < n; ++k) {
        if (!usable[k]) return std::nullopt;
        total_joined += joined[k];
    }
    if (total_joined != lines.size()) return std::nullopt;
    return plan;
}

/// What a value line gives a value beyond its name and index (which its block repeats).
struct value_line_fields {
    std::size_t allocation;
    std::int64_t offset;
    std::int64_t size;
    std::int64_t color;
    std::size_t line;
    shape_id shape;
    bool has_color;
    bool index_printed;
    bool is_phi;
    bool cross_color;
};

/// One threaded read of a dump split into `parts` (read_in_parts runs its steps in order): the
/// model and the builder each part reads into, and the steps that read them on the threads and
/// join them into one model. Each step times itself into `stats` when it is given.
template <class P>
struct threaded_reader {
    std::string_view file;
    char const* begin;
    char const* end;
    std::size_t threads;
    read_statistics* stats;
    std::vector<dump_part> parts;
    std::vector<basic_buffer_assignment<P>> models;
    std::vector<std::size_t> line_ends;  // line ends in each part
    std::vector<std::optional<buffer_assignment_builder<P>>> builders;
    std::vector<char> failed;
    block_store<P> store;
    std::vector<std::size_t> lines_before;  // lines of the text before each part

    threaded_reader(std::string_view f, char const* b, char const* e, std::size_t t, read_statistics* s,
                    std::vector<dump_part> p)
        : file(f), begin(b), end(e), threads(t), stats(s), parts(std::move(p)), models(parts.size()),
          line_ends(parts.size(), 0), builders(parts.size()), failed(parts.size(), 0), store(threads, parts.size()),
          lines_before(parts.size(), 0) {}

    /// Reads every part on the threads; false when any part fails to read.
    bool read_parts() {
        step_timer parts_timer(stats ? &stats->parts : nullptr);
        // The longest parts first, so that what is left at the end is the blocks' parts, each about
        // as short as another: the allocations with their value lines (in the generated dumps, 42 ms of
        // the 120 ms the parts take at 10^5 values, for 14% of the text), then the live ranges (12 ms;
        // taken last, as in text order, they kept one thread busy while the other stood idle), then the
        // blocks in text order.
        std::vector<std::size_t> order(parts.size());
        for (std::size_t k = 0; k < parts.size(); ++k) order[k] = k;
        if (parts.back().kind == part_kind::live_range) std::rotate(order.begin() + 1, order.end() - 1, order.end());
        std::size_t const block_bytes = static_cast<std::size_t>(
            (parts.back().kind == part_kind::live_range ? parts.back().first : end) - parts[1].first);
        for_each_on_workers(parts.size(), threads, [&](std::size_t task, std::size_t worker) {
            std::size_t const k = order[task];
            double const part_start = stats ? thread_seconds() : 0;
            parts_timer.count([&] {
                try {
                    read_part(k, worker, block_bytes);
                } catch (...) {
                    failed[k] = 1;
                }
            });
            if (stats) stats->part_cpu_s[k] = thread_seconds() - part_start;
        });
        parts_timer.stop();
        return std::find(failed.begin(), failed.end(), 1) == failed.end();
    }

    /// Reads part `k` on worker thread `worker` with a builder of its own, into its model (the
    /// blocks' values into the worker's vector of `store`, of which the blocks take `block_bytes`).
    void read_part(std::size_t k, std::size_t worker, std::size_t block_bytes) {
        auto const& part = parts[k];
        auto& b = builders[k].emplace(file, begin, end, models[k]);
        // The first part's table is the one every value ends in; the others hold their blocks'.
        if (k > 0) {
            b.by_id = value_id_index(static_cast<std::size_t>(part.last - part.first), first_block_id(part));
            b.ids_ascending = true;
        }
        // The value lines' values reserved by the one-thread read's rule, for the whole text:
        // grown by doubling, they would be moved at each step into pages touched afresh,
        // on the longest part.
        if (part.kind == part_kind::allocations) b.reserve_for(static_cast<std::size_t>(end - begin));
        // The live ranges without the value lines (read by the first part meanwhile): room for
        // as many as the part's lines may hold (`    x{}:0-1`, 12 bytes at least), which
        // grown by doubling touched 18 MB of fresh pages at 10^5 values, for 7 MB of ranges.
        if (part.kind == part_kind::live_range) b.live_ranges_hint = static_cast<std::size_t>(part.last - part.first) / 12;
        // A part of the blocks appends to its worker's vector (block_store), lent to its
        // model while it reads.
        bool const blocks = part.kind == part_kind::used_values || part.kind == part_kind::used_values_head;
        auto& values = store.by_worker[worker];
        if (blocks) {
            // A worker reads about its share of the blocks; twice that, so that one that
            // takes more (another thread held up) seldom regrows. With two threads, all.
            store.reserve(worker, 2 * block_bytes / threads);
            store.of_part[k] = {worker, values.size(), values.size()};
            b.first_value = values.size();
            models[k].values.swap(values);
        }
        b.start_lines_at(part.first, 1);
        try {
            switch (part.kind) {
                case part_kind::allocations: run(b, allocations_part_rule, part.first, part.last); break;
                case part_kind::used_values_head: run(b, used_values_head_part_rule, part.first, part.last); break;
                case part_kind::used_values: run(b, used_values_part_rule, part.first, part.last); break;
                case part_kind::live_range: run(b, live_range_part_rule, part.first, part.last); break;
            }
        } catch (...) {
            if (blocks) models[k].values.swap(values);
            throw;
        }
        if (blocks) {
            models[k].values.swap(values);
            store.of_part[k].last = values.size();
        }
        line_ends[k] = b.line_of(part.last) - 1;
    }

    /// Joins the parts that read into one model: in id order where the plan allows (the fast
    /// join), else one by one (the general merge); nullopt where the parts disagree.
    std::optional<basic_buffer_assignment<P>> join() {
        step_timer merge_timer(stats ? &stats->merge : nullptr);
        auto& whole = *builders[0];
        // The last allocation's value lines (`Total bytes used`, which the allocations part's rule
        // requires, ends it already; finish() does it for the general merge).
        whole.end_allocation();
        basic_buffer_assignment<P>& ba = models[0];
        for (std::size_t k = 1; k < parts.size(); ++k) lines_before[k] = lines_before[k - 1] + line_ends[k - 1];
        std::optional<id_order_plan> const plan = plan_id_order(ba, store, whole.by_id, threads, merge_timer);
        if (!plan) return merge_one_by_one(merge_timer);
        join_in_id_order(*plan, merge_timer);
        merge_timer.stop();
        finish_in_id_order(*plan);
        ba.file = std::string(file);
        return std::move(ba);
    }

    /// The general merge: each part's values joined to the first part's one by one, then sorted
    /// by id (`merge`, `finish`); nullopt where the parts disagree.
    std::optional<basic_buffer_assignment<P>> merge_one_by_one(step_timer& merge_timer) {
        auto& whole = *builders[0];
        merge_timer.count([&] {
            for (std::size_t k = 1; k < parts.size(); ++k) {
                store.give_back(k, models[k].values);
                builders[k]->shift_lines(lines_before[k]);
                if (!whole.merge(*builders[k])) {
                    failed[0] = 1;
                    return;
                }
            }
        });
        merge_timer.stop();
        if (stats) stats->merge_serial_s = stats->merge.cpu_s;
        if (failed[0]) return std::nullopt;
        step_timer finish_timer(stats ? &stats->finish : nullptr);
        finish_timer.count([&] { whole.finish(); });
        finish_timer.stop();
        if (stats) stats->finish_serial_s = stats->finish.cpu_s;
        basic_buffer_assignment<P>& ba = models[0];
        ba.file = std::string(file);
        return std::move(ba);
    }

    /// The fast join, in the vector that holds the value lines: the shapes are merged in text
    /// order first, then each block joins its value line in its place in id order (on the threads).
    void join_in_id_order(id_order_plan const& plan, step_timer& merge_timer) {
        basic_buffer_assignment<P>& ba = models[0];
        std::vector<std::vector<shape_id>> shape_ids(parts.size());
        double const serial_start = stats ? thread_seconds() : 0;
        merge_timer.count([&] {
            for (std::size_t k = 1; k < parts.size(); ++k) {
                shape_ids[k] = ba.shapes.merge(models[k].shapes);
                ba.has_used_values = ba.has_used_values || models[k].has_used_values;
            }
            // Blocks of values without a value line: the model holds more values than value lines.
            if (ba.values.size() < plan.size) ba.values.resize(plan.size);
        });
        if (stats) stats->merge_serial_s = thread_seconds() - serial_start;
        if (plan.size == plan.new_index.size()) {
            move_blocks_into_values(plan, shape_ids, merge_timer);
        } else {
            move_blocks_to_places(plan, shape_ids, merge_timer);
        }
    }

    /// Every value line has its block and every block its value line: both in id order, so
    /// block j of part k is the value line at offset[k] + j, a value the first part already
    /// made (place_values). Each thread moves its parts' blocks into those values: no value is
    /// made twice, nothing is copied aside.
    void move_blocks_into_values(id_order_plan const& plan, std::vector<std::vector<shape_id>> const& shape_ids,
                                 step_timer& merge_timer) {
        basic_buffer_assignment<P>& ba = models[0];
        for_each_on_threads(parts.size() - 1, threads, [&](std::size_t part) {
            merge_timer.count([&] {
                std::size_t const k = part + 1;
                auto* const blocks = store.begin(k);
                for (std::size_t j = 0; j < store.size(k); ++j) {
                    auto& v = ba.values[plan.offset[k] + j];
                    buffer_assignment_builder<P>::take_block(v, blocks[j]);
                    if (v.instruction_shape != no_shape) v.instruction_shape = shape_ids[k][v.instruction_shape];
                    v.block_line += lines_before[k];
                }
            });
        });
    }

    /// Some blocks have no value line: what each value line gives is copied aside (on the
    /// threads), then each block moves to its place in id order (on the threads) and takes its
    /// value line's fields.
    void move_blocks_to_places(id_order_plan const& plan, std::vector<std::vector<shape_id>> const& shape_ids,
                               step_timer& merge_timer) {
        basic_buffer_assignment<P>& ba = models[0];
        std::size_t const line_count = plan.new_index.size();
        // Written before read, on the threads: no value-initialization pass over it.
        std::unique_ptr<value_line_fields[]> const fields(new value_line_fields[line_count]);
        for_each_on_threads(threads, threads, [&](std::size_t share) {
            merge_timer.count([&] {
                for (std::size_t i = line_count * share / threads; i < line_count * (share + 1) / threads; ++i) {
                    auto const& v = ba.values[i];
                    fields[i] = value_line_fields{v.allocation, v.offset, v.size, v.color.value_or(0), v.line, v.shape,
                                                  v.color.has_value(), v.index_printed, v.is_phi, v.cross_color};
                }
            });
        });
        for_each_on_threads(parts.size() - 1, threads, [&](std::size_t part) {
            merge_timer.count([&] {
                std::size_t const k = part + 1;
                auto const ours = [&](shape_id id) { return id == no_shape ? id : shape_ids[k][id]; };
                auto* const blocks = store.begin(k);
                for (std::size_t j = 0; j < store.size(k); ++j) {
                    std::size_t const to = plan.offset[k] + j;
                    auto& v = ba.values[to];
                    v = std::move(blocks[j]);
                    v.instruction_shape = ours(v.instruction_shape);
                    v.block_line += lines_before[k];
                    std::size_t const from = plan.line_of_block[to];
                    if (from == npos) continue;
                    auto const& f = fields[from];
                    v.allocation = f.allocation;
                    v.offset = f.offset;
                    v.size = f.size;
                    v.color = f.has_color ? std::optional<std::int64_t>(f.color) : std::nullopt;
                    v.line = f.line;
                    v.shape = f.shape;
                    v.index_printed = f.index_printed;
                    v.is_phi = f.is_phi;
                    v.cross_color = f.cross_color;
                }
            });
        });
    }

    /// The end of the fast join: the lookup by name, the live ranges and freeing the parts, on
    /// the threads.
    void finish_in_id_order(id_order_plan const& plan) {
        basic_buffer_assignment<P>& ba = models[0];
        std::size_t const line_count = plan.new_index.size();
        step_timer finish_timer(stats ? &stats->finish : nullptr);
        std::optional<basic_hlo_live_range<P>> live;
        if (parts.back().kind == part_kind::live_range) {
            builders.back()->shift_lines(lines_before.back());
            live = std::move(builders.back()->live);
        }
        // The lookup by name in pieces on the threads, and its merges (reindex). With the pieces, two
        // tasks taken first: one frees the parts and renumbers the allocations' values, the other
        // attaches the live ranges as far as it can without the lookup (attach_live_range_lines).
        // The lines it matched by looking ahead are checked against the lookup on the threads; what
        // it left is attached on this thread with the lookup, and a failed check (a value name
        // repeated, in a damaged dump) attaches them all again there.
        bool first_run = true;
        std::size_t live_line = 0, next_value = 0;
        std::vector<std::size_t> guessed;
        ba.reindex(2 * threads, [&](std::size_t pieces, auto const& piece) {
            std::size_t const before = first_run ? 2 : 0;
            first_run = false;
            for_each_on_threads(pieces + before, threads, [&](std::size_t task) {
                finish_timer.count([&] {
                    if (task >= before) return piece(task - before);
                    if (task == 1) {
                        if (live) live_line = attach_live_range_lines(ba, *live, 0, next_value, false, &guessed);
                        return;
                    }
                    // Where every value line has its block, each value kept its place (new_index is
                    // the identity).
                    if (plan.size != line_count) {
                        for (auto& a : ba.allocations) {
                            for (auto& vi : a.values) vi = plan.new_index[vi];
                        }
                    }
                    for (std::size_t k = 1; k < models.size(); ++k) models[k] = basic_buffer_assignment<P>();
                    for (auto& b : builders) b.reset();
                    store.by_worker.clear();
                });
            });
        });
        if (live) {
            std::atomic<bool> guessed_right{true};
            for_each_on_threads(guessed.empty() ? 0 : threads, threads, [&](std::size_t share) {
                finish_timer.count([&] {
                    for (std::size_t i = guessed.size() * share / threads; i < guessed.size() * (share + 1) / threads; ++i) {
                        auto const& r = live->buffer_live_ranges[guessed[i]];
                        if (ba.value_index(std::string_view(r.name), r.index) != r.value) guessed_right = false;
                    }
                });
            });
            double const rest_start = stats ? thread_seconds() : 0;
            if (guessed_right) {
                attach_live_range_lines(ba, *live, live_line, next_value, true);
                ba.live_range = std::move(*live);
            } else {
                attach_live_range(ba, std::move(*live));
            }
            if (stats) stats->finish_serial_s = thread_seconds() - rest_start;
        }
        finish_timer.stop();
        if (stats) {
            stats->in_id_order = true;
            stats->finish.cpu_s += stats->finish_serial_s;
        }
    }
};

/// The dump [begin, end) read in parts on `threads` threads; nullopt when any part fails to read
/// or the parts disagree (the caller reads it whole, for the error the whole text gives). `stats`,
/// when given, receives where the time went.
template <class P>
std::optional<basic_buffer_assignment<P>> read_in_parts(std::string_view file, char const* begin, char const* end,
                                                        std::size_t threads, read_statistics* stats = nullptr) {
    step_timer split_timer(stats ? &stats->split : nullptr);
    std::vector<dump_part> parts;
    // Eight parts a thread: the last part to finish then leaves the other threads idle briefly.
    split_timer.count([&] { parts = split_dump(begin, end, static_cast<std::size_t>(end - begin) / (8 * threads) + 1); });
    split_timer.stop();
    if (stats) stats->part_cpu_s.assign(parts.size(), 0);
    if (parts.size() < 2) return std::nullopt;
    threaded_reader<P> reader(file, begin, end, threads, stats, std::move(parts));
    if (!reader.read_parts()) return std::nullopt;
    return reader.join();
}

}  // namespace hlomem::parser::dump

#endif  // HLOMEM_PARSER_THREADED_READ_HPP

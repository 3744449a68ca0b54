// hlomem/output/json_elements.hpp: the elements of a long JSON array written on two threads and
// handed to the stream in order. The values of a large dump's `report --json` are most of its
// text (60,075 objects, 55 of the 68 MB of a 52 MB dump's report) and were a fifth of its
// instructions, written on one thread after a read on two.
//
// The array is cut into runs of `run` elements. This thread writes the runs 0, 2, 4, ... into the
// document's writer; another writes the runs 1, 3, 5, ... into two texts of its own, in turn
// (json_writer::later_elements), and this thread copies each to the stream after the run before
// it (json_writer::raw_elements). The other thread waits while both its texts wait to be copied,
// so that at most two runs are held whatever the length, and the memory they take is reused
// rather than touched afresh. Each thread keeps its own state (a report's value_text_cache), so
// nothing written is shared: the text is the one a single writer writes.
#ifndef HLOMEM_OUTPUT_JSON_ELEMENTS_HPP
#define HLOMEM_OUTPUT_JSON_ELEMENTS_HPP

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <ostream>
#include <streambuf>
#include <string>
#include <system_error>
#include <thread>

#include <hlomem/output/json_writer.hpp>

namespace hlomem {

namespace detail {

/// A stream buffer that appends what it is given to a string (a json_writer hands it 256 KiB at a
/// time).
class string_sink : public std::streambuf {
public:
    explicit string_sink(std::string& text) : text_(text) {}

protected:
    std::streamsize xsputn(char const* p, std::streamsize n) override {
        text_.append(p, static_cast<std::size_t>(n));
        return n;
    }
    int_type overflow(int_type c) override {
        if (!traits_type::eq_int_type(c, traits_type::eof())) text_.push_back(traits_type::to_char_type(c));
        return traits_type::not_eof(c);
    }

private:
    std::string& text_;
};

}  // namespace detail

/// How write_elements cuts and shares an array: `threads` (two are used at most; one writes
/// everything in order) and `run` elements handed over at a time.
struct elements_options {
    std::size_t threads = 1;
    std::size_t run = 1024;
};

/// Writes the elements [0, n) of the array `json` has open: `write(w, state, i)` writes element
/// i with the writer `w`, `state` being what `make_state()` made for the thread writing it. With
/// two threads and more than one run of elements, they write alternate runs (see the top of this
/// file); the text is what one writer writes. An exception of either thread is rethrown here once
/// both have stopped.
template <class MakeState, class Write>
void write_elements(json_writer& json, std::size_t n, MakeState const& make_state, Write const& write, elements_options options) {
    std::size_t const run = std::max<std::size_t>(options.run, 1);
    if (options.threads < 2 || n <= run) {
        auto state = make_state();
        for (std::size_t i = 0; i < n; ++i) write(json, state, i);
        return;
    }
    struct handover {
        std::mutex mutex;
        std::condition_variable changed;
        std::string texts[2];
        bool full[2] = {false, false};
        bool stop = false;  // this thread is done (or failed): the other writes no more
        bool failed = false;
        std::exception_ptr error;
    } h;
    json_writer::later_elements const at{json.here()};
    auto other = [&] {
        try {
            detail::string_sink sinks[2] = {detail::string_sink(h.texts[0]), detail::string_sink(h.texts[1])};
            std::ostream streams[2] = {std::ostream(&sinks[0]), std::ostream(&sinks[1])};
            json_writer writers[2] = {json_writer(streams[0], at), json_writer(streams[1], at)};
            auto state = make_state();
            for (std::size_t r = 1, k = 0; r * run < n; r += 2, ++k) {
                std::size_t const slot = k % 2;
                {
                    std::unique_lock<std::mutex> lock(h.mutex);
                    h.changed.wait(lock, [&] { return h.stop || !h.full[slot]; });
                    if (h.stop) return;
                }
                h.texts[slot].clear();
                for (std::size_t i = r * run; i < std::min(n, (r + 1) * run); ++i) write(writers[slot], state, i);
                writers[slot].flush();
                {
                    std::lock_guard<std::mutex> lock(h.mutex);
                    h.full[slot] = true;
                }
                h.changed.notify_all();
            }
        } catch (...) {
            std::lock_guard<std::mutex> lock(h.mutex);
            h.failed = true;
            h.error = std::current_exception();
            h.changed.notify_all();
        }
    };
    std::thread thread;
    try {
        thread = std::thread(other);
    } catch (std::system_error const&) {
        write_elements(json, n, make_state, write, elements_options{1, run});  // no second thread to be had
        return;
    }
    auto stop_other = [&] {
        {
            std::lock_guard<std::mutex> lock(h.mutex);
            h.stop = true;
        }
        h.changed.notify_all();
        thread.join();
    };
    try {
        auto state = make_state();
        for (std::size_t r = 0, k = 0; r * run < n; ++r) {
            if (r % 2 == 0) {
                for (std::size_t i = r * run; i < std::min(n, (r + 1) * run); ++i) write(json, state, i);
                continue;
            }
            std::size_t const slot = k++ % 2;
            {
                std::unique_lock<std::mutex> lock(h.mutex);
                h.changed.wait(lock, [&] { return h.full[slot] || h.failed; });
                if (!h.full[slot]) break;  // the other thread failed: its error is rethrown below
            }
            json.raw_elements(h.texts[slot]);
            {
                std::lock_guard<std::mutex> lock(h.mutex);
                h.full[slot] = false;
            }
            h.changed.notify_all();
        }
    } catch (...) {
        stop_other();
        throw;
    }
    stop_other();
    if (h.error) std::rethrow_exception(h.error);
}

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_JSON_ELEMENTS_HPP

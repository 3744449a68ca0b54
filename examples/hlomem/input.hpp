// input.hpp: how the commands of the hlomem tool read their files: through the library's loader
// (<hlomem/load.hpp>), with its errors printed as the tool has always printed them.
#ifndef HLOMEM_EXAMPLES_INPUT_HPP
#define HLOMEM_EXAMPLES_INPUT_HPP

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <hlomem/load.hpp>

namespace hlomem_cli {

/// `value`, moved to where it stays until the process exits, never destroyed: the models a command
/// reads (a 50 MB dump's is some 50 MB in tens of thousands of blocks) are not taken apart one
/// block at a time when the command returns, some 10 ms of its time; the process's exit hands
/// their memory back at once. What the command writes is flushed as before (std::cout at exit).
/// The values stay reachable from a holder that a static pointer keeps, so LeakSanitizer counts
/// them as still reachable, not as leaks. For the tool's commands only: a library call that kept
/// its results this way would grow with every call.
template <class T>
std::decay_t<T>& keep_until_exit(T&& value) {
    struct kept {
        virtual ~kept() = default;
    };
    struct holder final : kept {
        explicit holder(T&& v) : value(std::forward<T>(v)) {}
        std::decay_t<T> value;
    };
    static auto* const kept_values = new std::vector<std::unique_ptr<kept>>();
    auto h = std::make_unique<holder>(std::forward<T>(value));
    auto& out = h->value;
    kept_values->push_back(std::move(h));
    return out;
}

/// A parse error as the parser wrote it (file:line:column, the line, a caret); a file that
/// cannot be read after "hlomem: ".
inline void print_load_error(std::ostream& err, hlomem::load_error const& e) {
    if (e.failure != hlomem::load_failure::unparsable) err << "hlomem: ";
    err << e.message << '\n';
}

/// The text of `path` ("-": standard input), read once; nullopt after saying why on `err`.
inline std::optional<hlomem::input> read_input(std::string const& path, std::ostream& err) {
    auto in = hlomem::read_input(path);
    if (!in) {
        print_load_error(err, in.error());
        return std::nullopt;
    }
    return std::move(*in);
}

/// The text of one file as the commands read it: a regular file mapped into memory whole (private,
/// read-only, its pages populated at once), else (standard input, a pipe, an empty file, a file
/// that cannot be mapped) read whole once (hlomem::read_input). A mapped 50 MB dump costs a few
/// milliseconds where reading it into a string (zeroed first, then copied) costs some 40. A file
/// truncated by another process while mapped would end the process with SIGBUS; a command reads
/// its input once, at the start.
class input_text {
public:
    input_text(input_text const&) = delete;
    input_text& operator=(input_text const&) = delete;
    ~input_text() {
        if (mapped_ != nullptr) ::munmap(mapped_, size_);
    }

    /// `path` ("-": standard input) mapped or read; the error hlomem::read_input gives otherwise.
    static hlomem::load_result<std::shared_ptr<input_text const>> open(std::string const& path) {
        auto read = [&]() -> hlomem::load_result<std::shared_ptr<input_text const>> {
            auto in = hlomem::read_input(path);
            if (!in) return in.error();
            std::shared_ptr<input_text> out(new input_text);
            out->read_ = std::move(in->text);
            return std::shared_ptr<input_text const>(std::move(out));
        };
        if (path == "-") return read();
        int const fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) return hlomem::load_error{hlomem::load_failure::unreadable, path, "cannot open '" + path + "'"};
        struct stat st {};
        void* mapped = MAP_FAILED;
        if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
            int flags = MAP_PRIVATE;
#ifdef MAP_POPULATE
            flags |= MAP_POPULATE;
#endif
            mapped = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, flags, fd, 0);
        }
        ::close(fd);
        if (mapped == MAP_FAILED) return read();
        std::shared_ptr<input_text> out(new input_text);
        out->mapped_ = mapped;
        out->size_ = static_cast<std::size_t>(st.st_size);
        return std::shared_ptr<input_text const>(std::move(out));
    }

    std::string_view text() const noexcept {
        return mapped_ != nullptr ? std::string_view(static_cast<char const*>(mapped_), size_) : std::string_view(read_);
    }

private:
    input_text() = default;
    void* mapped_ = nullptr;
    std::size_t size_ = 0;
    std::string read_;
};

/// An input opened by open_input: its text (kept alive by whatever views it) and its kind.
struct opened_input {
    std::string path;  ///< as given; "-" is standard input
    std::shared_ptr<input_text const> text;
    hlomem::dump_kind kind = hlomem::dump_kind::unknown;

    /// What messages about modules and logs call it (hlomem::input::name()).
    std::string name() const { return path == "-" ? std::string("<stdin>") : path; }
};

/// The loaded model of an opened input, with the text its views point into.
template <class P>
struct loaded_input : hlomem::basic_loaded<P> {
    std::shared_ptr<input_text const> text;
};

/// `path` ("-": standard input) opened once; nullopt after saying why on `err`.
inline std::optional<opened_input> open_input(std::string const& path, std::ostream& err) {
    auto text = input_text::open(path);
    if (!text) {
        print_load_error(err, text.error());
        return std::nullopt;
    }
    hlomem::dump_kind const kind = hlomem::detect_dump_kind((*text)->text());
    return opened_input{path, std::move(*text), kind};
}

/// `in` read into its model, viewing its text (hlomem::load_view, as hlomem::load reads an
/// input), kept until the process exits (keep_until_exit); null after saying why on `err`.
template <class P = hlomem::default_policy>
loaded_input<P>* load(opened_input const& in, hlomem::load_options const& options, std::ostream& err) {
    auto loaded = hlomem::load_view<P>(in.text->text(), in.path, options);
    if (!loaded) {
        print_load_error(err, loaded.error());
        return nullptr;
    }
    return &keep_until_exit(loaded_input<P>{std::move(*loaded), in.text});
}

/// `in` read into its model (hlomem::load), kept until the process exits (keep_until_exit); null
/// after saying why on `err`.
template <class P = hlomem::default_policy>
hlomem::basic_loaded<P>* load(hlomem::input in, hlomem::load_options const& options, std::ostream& err) {
    auto loaded = hlomem::load<P>(std::move(in), options);
    if (!loaded) {
        print_load_error(err, loaded.error());
        return nullptr;
    }
    return &keep_until_exit(std::move(*loaded));
}

/// The buffer-assignment dump at `path`, with the live ranges `options` name or find, kept until
/// the process exits (keep_until_exit); null after saying why on `err`. What check and timeline
/// read. A command that keeps no name past the model reads with the view policy: no string of its
/// own for every name and instruction text.
template <class P = hlomem::default_policy>
loaded_input<P>* load_dump(std::string const& path, hlomem::load_options const& options, std::ostream& err) {
    auto in = open_input(path, err);
    if (!in) return nullptr;
    if (in->kind != hlomem::dump_kind::buffer_assignment) {
        err << "hlomem: " << path << ": not a buffer-assignment dump (it should start with 'BufferAssignment:')\n";
        return nullptr;
    }
    return load<P>(*in, options, err);
}

}  // namespace hlomem_cli

#endif  // HLOMEM_EXAMPLES_INPUT_HPP

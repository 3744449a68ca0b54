// input.hpp: how the commands of the hlomem tool read their files: through the library's loader
// (<hlomem/load.hpp>), with its errors printed as the tool has always printed them.
#ifndef HLOMEM_EXAMPLES_INPUT_HPP
#define HLOMEM_EXAMPLES_INPUT_HPP

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <hlomem/load.hpp>
#include <hlomem/load/mapped_file.hpp>

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

/// An input opened by open_input: its text (kept alive by whatever views it) and its kind.
struct opened_input {
    std::string path;  ///< as given; "-" is standard input
    std::shared_ptr<hlomem::mapped_text const> text;
    hlomem::dump_kind kind = hlomem::dump_kind::unknown;

    /// What messages about modules and logs call it (hlomem::input::name()).
    std::string name() const { return path == "-" ? std::string("<stdin>") : path; }
};

/// `path` ("-": standard input) opened once; nullopt after saying why on `err`.
inline std::optional<opened_input> open_input(std::string const& path, std::ostream& err) {
    auto text = hlomem::mapped_text::open(path);
    if (!text) {
        print_load_error(err, text.error());
        return std::nullopt;
    }
    hlomem::dump_kind const kind = hlomem::detect_dump_kind((*text)->text());
    return opened_input{path, std::move(*text), kind};
}

/// `in` read into its model, viewing its text (hlomem::load_view, as hlomem::load reads an
/// input), kept until the process exits (keep_until_exit); null after saying why on `err`. Every
/// command reads with view_policy: no string of its own for every name and instruction text, and
/// the tool links the library compiled for that policy alone (hlomem::compiled_view).
inline hlomem::mapped_loaded<hlomem::view_policy>* load(opened_input const& in, hlomem::load_options const& options, std::ostream& err) {
    auto loaded = hlomem::load_view<hlomem::view_policy>(in.text->text(), in.path, options);
    if (!loaded) {
        print_load_error(err, loaded.error());
        return nullptr;
    }
    return &keep_until_exit(hlomem::mapped_loaded<hlomem::view_policy>{std::move(*loaded), in.text});
}

/// The buffer-assignment dump at `path`, with the live ranges `options` name or find, kept until
/// the process exits (keep_until_exit); null after saying why on `err`. What check and timeline
/// read.
inline hlomem::mapped_loaded<hlomem::view_policy>* load_dump(std::string const& path, hlomem::load_options const& options, std::ostream& err) {
    auto in = open_input(path, err);
    if (!in) return nullptr;
    if (in->kind != hlomem::dump_kind::buffer_assignment) {
        err << "hlomem: " << path << ": not a buffer-assignment dump (it should start with 'BufferAssignment:')\n";
        return nullptr;
    }
    return load(*in, options, err);
}

}  // namespace hlomem_cli

#endif  // HLOMEM_EXAMPLES_INPUT_HPP

// hlomem/load/mapped_file.hpp: a file's text mapped into memory rather than read, for programs
// that parse large dumps with view_policy (whose models view the text, so it must stay where it
// is): the hlomem tool reads every input this way.
//
//   auto text = hlomem::mapped_text::open("module-buffer-assignment.txt");   // or "-"
//   if (!text) std::cerr << text.error().message << '\n';
//   auto loaded = hlomem::load_mapped<hlomem::view_policy>("dump.txt");       // the model and its text
#ifndef HLOMEM_LOAD_MAPPED_FILE_HPP
#define HLOMEM_LOAD_MAPPED_FILE_HPP

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define HLOMEM_HAS_MMAP 1
#else
#define HLOMEM_HAS_MMAP 0
#endif

#include <hlomem/load/input.hpp>
#include <hlomem/load/loaded.hpp>

namespace hlomem {

/// The text of one file: a regular file mapped into memory whole (private,
/// read-only, its pages populated at once), else (standard input, a pipe, an empty file, a file
/// that cannot be mapped) read whole once (read_input). A mapped 50 MB dump costs a few
/// milliseconds where reading it into a string (zeroed first, then copied) costs some 40. A file
/// truncated by another process while mapped would end the process with SIGBUS: map a file that
/// nothing else is writing.
class mapped_text {
public:
    mapped_text(mapped_text const&) = delete;
    mapped_text& operator=(mapped_text const&) = delete;
    ~mapped_text() {
#if HLOMEM_HAS_MMAP
        if (mapped_ != nullptr) ::munmap(mapped_, size_);
#endif
    }

    /// `path` ("-": standard input) mapped or read; the error read_input gives otherwise.
    static load_result<std::shared_ptr<mapped_text const>> open(std::string const& path) {
        auto read = [&]() -> load_result<std::shared_ptr<mapped_text const>> {
            auto in = read_input(path);
            if (!in) return in.error();
            std::shared_ptr<mapped_text> out(new mapped_text);
            out->read_ = std::move(in->text);
            return std::shared_ptr<mapped_text const>(std::move(out));
        };
        if (path == "-") return read();
#if HLOMEM_HAS_MMAP
        int const fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) return load_error{load_failure::unreadable, path, "cannot open '" + path + "'"};
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
        std::shared_ptr<mapped_text> out(new mapped_text);
        out->mapped_ = mapped;
        out->size_ = static_cast<std::size_t>(st.st_size);
        return std::shared_ptr<mapped_text const>(std::move(out));
#else
        return read();  // no mmap on this system: read whole once
#endif
    }

    std::string_view text() const noexcept {
        return mapped_ != nullptr ? std::string_view(static_cast<char const*>(mapped_), size_) : std::string_view(read_);
    }

private:
    mapped_text() = default;
    void* mapped_ = nullptr;
    std::size_t size_ = 0;
    std::string read_;
};

/// A loaded model together with the mapped text its views point into (with view_policy).
template <class P>
struct mapped_loaded : basic_loaded<P> {
    std::shared_ptr<mapped_text const> text;
};

/// `path` ("-": standard input) mapped (mapped_text::open) and read into its model
/// (load_view), which views the text that the result keeps alive.
template <class P = default_policy>
load_result<mapped_loaded<P>> load_mapped(std::string const& path, load_options const& options = {}) {
    auto text = mapped_text::open(path);
    if (!text) return text.error();
    auto loaded = load_view<P>((*text)->text(), path, options);
    if (!loaded) return loaded.error();
    return mapped_loaded<P>{std::move(*loaded), std::move(*text)};
}

}  // namespace hlomem

#endif  // HLOMEM_LOAD_MAPPED_FILE_HPP

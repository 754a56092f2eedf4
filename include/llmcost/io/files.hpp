#pragma once
/// \file
/// Files in and out, guarded: what the loaders read and what the tools write.
///
/// In: `read_input_file(path, limit)` reads a whole file only when it is a regular file of at most
/// `limit` bytes, checked before the first byte is read, so a device (`/dev/zero`), a FIFO (which
/// would block for ever), a folder or a file of gigabytes is refused at once with the path and the
/// rule. A UTF-8 byte-order mark (what some editors put first) is not part of the text: the parsers
/// skip it with `without_bom`.
///
/// Out: `write_output_file(path, bytes, inputs)` never replaces a file the same run reads (one of
/// `inputs`, compared as files, not as spellings), writes to a temporary file in the target's folder
/// and renames it over the target only once every byte is written and flushed, so a failure leaves
/// the old file as it was and no partial file behind. Each cause has its own message and rule id
/// (`write_error::id()`): no such folder, a folder as the target, no permission, disk full.
///
/// **Example**
/// \code
/// const std::string text = llmcost::io::read_input_file("config.json", llmcost::io::config_file_limit);
/// llmcost::io::write_output_file("frontier.svg", svg_text, {"config.json"});
/// \endcode

#include <llmcost/io/error.hpp>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace llmcost::io {

/// A `config.json` is a few kilobytes; 64 MiB leaves room for any real one.
inline constexpr std::uintmax_t config_file_limit = std::uintmax_t{64} << 20;
/// A table (catalog rows, measurements, a workload trace): 1 GiB, several million rows.
inline constexpr std::uintmax_t table_file_limit = std::uintmax_t{1} << 30;

/// `text` without a leading UTF-8 byte-order mark (EF BB BF).
[[nodiscard]] constexpr std::string_view without_bom(std::string_view text) noexcept {
    return text.starts_with("\xEF\xBB\xBF") ? text.substr(3) : text;
}

namespace detail::files {

/// "1 GiB", "64 MiB", "512 B": a limit as people read it.
[[nodiscard]] inline std::string size_text(std::uintmax_t bytes) {
    if (bytes >= (std::uintmax_t{1} << 30) && bytes % (std::uintmax_t{1} << 30) == 0)
        return std::to_string(bytes >> 30) + " GiB";
    if (bytes >= (std::uintmax_t{1} << 20) && bytes % (std::uintmax_t{1} << 20) == 0)
        return std::to_string(bytes >> 20) + " MiB";
    return std::to_string(bytes) + " B";
}

[[nodiscard]] inline std::string kind_of(std::filesystem::file_type t) {
    using std::filesystem::file_type;
    switch (t) {
        case file_type::directory: return "a folder";
        case file_type::fifo: return "a FIFO (named pipe)";
        case file_type::socket: return "a socket";
        case file_type::character: return "a character device";
        case file_type::block: return "a block device";
        default: return "not a regular file";
    }
}

}  // namespace detail::files

/// The whole of `file` as bytes, after checking, before reading, that it exists, is a regular file
/// (a link to one is followed) and holds at most `limit` bytes. Throws `load_error` naming the path
/// and the rule: [llmcost.input.regular_file], [llmcost.input.size_limit], or the system's reason.
[[nodiscard]] inline std::string read_input_file(const std::filesystem::path& file, std::uintmax_t limit) {
    namespace fs = std::filesystem;
    const std::string where = file.string();
    std::error_code ec;
    const fs::file_status st = fs::status(file, ec);
    if (st.type() == fs::file_type::not_found) throw load_error(where, {}, "cannot open file: no such file");
    if (ec) throw load_error(where, {}, "cannot open file: " + ec.message());
    if (st.type() != fs::file_type::regular)
        throw load_error(where, {},
                         "is " + detail::files::kind_of(st.type()) +
                             ": only a regular file can be read [" + std::string("llmcost.input.regular_file") + "]");
    const std::uintmax_t size = fs::file_size(file, ec);
    if (ec) throw load_error(where, {}, "cannot open file: " + ec.message());
    if (size > limit)
        throw load_error(where, {},
                         "is " + std::to_string(size) + " bytes, above the limit of " + detail::files::size_text(limit) +
                             " for this kind of file [" + std::string("llmcost.input.size_limit") + "]");
    std::ifstream in(file, std::ios::binary);
    if (!in) throw load_error(where, {}, "cannot open file for reading");
    std::string bytes(static_cast<std::size_t>(size), '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(size));
    bytes.resize(static_cast<std::size_t>(in.gcount()));  // the file may have shrunk meanwhile
    if (in.bad()) throw load_error(where, {}, "read error");
    return bytes;  // bytes appended while reading are not read: never more than the size checked
}

/// An output file the tool could not write. `id()` names the cause:
/// llmcost.output.overwrites_input, llmcost.output.no_folder, llmcost.output.is_folder,
/// llmcost.output.not_regular_file, llmcost.output.permission, llmcost.output.disk_full,
/// llmcost.output.write_failed. The old file, if any, is untouched.
class write_error : public std::runtime_error {
public:
    write_error(std::string path, std::string rule, std::string id)
        : std::runtime_error("llmcost: cannot write " + path + ": " + rule + " [" + id + "]"),
          path_(std::move(path)), rule_(std::move(rule)), id_(std::move(id)) {}
    [[nodiscard]] const std::string& path() const noexcept { return path_; }
    [[nodiscard]] const std::string& rule() const noexcept { return rule_; }
    [[nodiscard]] const std::string& id() const noexcept { return id_; }

private:
    std::string path_, rule_, id_;
};

/// The `write_error` for a system error `code` (an errno value) met while creating, writing,
/// flushing or renaming `path`'s temporary file: one message per cause.
[[nodiscard]] inline write_error write_error_for(const std::string& path, int code) {
    switch (code) {
        case ENOENT:
        case ENOTDIR:
            return {path, "no such folder", "llmcost.output.no_folder"};
        case EISDIR: return {path, "it is a folder", "llmcost.output.is_folder"};
        case EACCES:
        case EPERM:
            return {path, "permission denied (the folder or the file is not writable)", "llmcost.output.permission"};
        case EROFS: return {path, "the file system is read-only", "llmcost.output.permission"};
        case ENOSPC:
#ifdef EDQUOT
        case EDQUOT:
#endif
            return {path, "no space left on the device (the old file, if any, is kept)", "llmcost.output.disk_full"};
        default:
            return {path, std::error_code(code, std::generic_category()).message(), "llmcost.output.write_failed"};
    }
}

/// Writes `bytes` to `path` whole or not at all: refuses a path that is one of `inputs` (the files
/// this run reads), a folder or a special file; writes and flushes a temporary file next to the
/// target and renames it over the target. A link is followed: the file it points at is replaced.
/// Throws `write_error` (the old file untouched, the temporary file removed).
inline void write_output_file(const std::filesystem::path& path, std::string_view bytes,
                              std::span<const std::filesystem::path> inputs = {}) {
    namespace fs = std::filesystem;
    const std::string where = path.string();
    if (where.empty()) throw write_error(where, "an empty path", "llmcost.output.no_folder");
    std::error_code ec;
    fs::path target = path;
    if (fs::is_symlink(fs::symlink_status(path, ec))) {
        const fs::path resolved = fs::canonical(path, ec);
        if (!ec) target = resolved;
    }
    const fs::file_status st = fs::status(target, ec);
    if (st.type() == fs::file_type::directory) throw write_error(where, "it is a folder", "llmcost.output.is_folder");
    const bool exists = st.type() != fs::file_type::not_found && st.type() != fs::file_type::none;
    if (exists && st.type() != fs::file_type::regular)
        throw write_error(where, "it is " + detail::files::kind_of(st.type()) + ", not a regular file",
                          "llmcost.output.not_regular_file");
    if (exists)
        for (const fs::path& in : inputs) {
            std::error_code same;
            if (fs::equivalent(target, in, same) && !same)
                throw write_error(where, "it is an input of this run (" + in.string() + "); choose another name",
                                  "llmcost.output.overwrites_input");
        }
    fs::path folder = target.parent_path();
    if (folder.empty()) folder = ".";
    const fs::file_status fst = fs::status(folder, ec);
    if (fst.type() == fs::file_type::not_found) throw write_error(where, "no such folder", "llmcost.output.no_folder");
    if (fst.type() != fs::file_type::directory && fst.type() != fs::file_type::none)
        throw write_error(where, "no such folder (" + folder.string() + " is not a folder)", "llmcost.output.no_folder");

    // The temporary file: hidden, in the same folder (so the rename is atomic), unique to this process.
    static std::atomic<unsigned> serial{0};
    // Appended, not `"." + std::string`: g++ 12 at -O3 warns falsely on that (-Wrestrict, GCC bug 105329).
    std::string name = ".";
    name += target.filename().string();
    name += ".llmcost-";
    name += std::to_string(::getpid());
    name += '-';
    name += std::to_string(++serial);
    name += ".tmp";
    const fs::path temporary = folder / name;
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) throw write_error_for(where, errno);
    const auto fail = [&](int code) {
        ::close(fd);
        ::unlink(temporary.c_str());
        return write_error_for(where, code);
    };
    if (exists) {  // keep the replaced file's permissions
        struct stat old {};
        if (::stat(target.c_str(), &old) == 0) (void)::fchmod(fd, old.st_mode & 07777);
    }
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ::ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw fail(errno);
        }
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) throw fail(errno);
    if (::close(fd) != 0) {
        const int code = errno;
        ::unlink(temporary.c_str());
        throw write_error_for(where, code);
    }
    if (::rename(temporary.c_str(), target.c_str()) != 0) {
        const int code = errno;
        ::unlink(temporary.c_str());
        throw write_error_for(where, code);
    }
}

inline void write_output_file(const std::filesystem::path& path, std::string_view bytes,
                              std::initializer_list<std::filesystem::path> inputs) {
    write_output_file(path, bytes, std::span<const std::filesystem::path>(inputs.begin(), inputs.size()));
}

}  // namespace llmcost::io

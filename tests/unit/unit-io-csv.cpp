// llmcost::io::parse_csv: RFC 4180 fields, header lookup, and errors that name file, line, column.
#include <llmcost/io/csv.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

using namespace llmcost;

namespace {
using test::contains;
using test::message_of;
}  // namespace

TEST_CASE("csv: quoted fields, doubled quotes, CRLF and header lookup") {
    const io::csv_table t = io::parse_csv(
        "name,source,value\r\n"
        "a,\"x, y\",1.5\r\n"
        "\"b\",\"say \"\"hi\"\"\",\r\n"
        "c,\"two\nlines\",3\n",
        "t.csv");
    REQUIRE(t.size() == 3);
    CHECK(t.header() == std::vector<std::string>{"name", "source", "value"});
    CHECK(t.field(0, "source") == "x, y");
    CHECK(t.field(1, "name") == "b");
    CHECK(t.field(1, "source") == "say \"hi\"");
    CHECK(t.field(2, "source") == "two\nlines");
    CHECK(t.rows()[2].line == 4);
    CHECK(t.number(0, "value") == 1.5);
    CHECK_FALSE(t.number(1, "value").has_value());  // empty cell
    CHECK(t.find_column("nope") == std::nullopt);
}

TEST_CASE("csv: a file on disk, CRLF and quoted commas") {
    const io::csv_table t = io::load_csv(std::string(LLMCOST_FIXTURES_DIR) + "/csv/sample.csv");
    REQUIRE(t.size() == 2);
    CHECK(t.field(1, "source") == "MLA: latent, \"compressed\"");
    CHECK(t.number(1, "value") == 671.0);
}

TEST_CASE("csv: bad inputs name the file, the line and the column") {
    SUBCASE("unterminated quote points at the opening quote") {
        const std::string msg = message_of([] { return io::parse_csv("a,b\n1,\"oops\n2,3\n", "bad.csv"); });
        CHECK(contains(msg, "llmcost: bad.csv:2:3: unterminated quoted field"));
    }
    SUBCASE("wrong field count") {
        const std::string msg = message_of([] { return io::parse_csv("a,b,c\n1,2,3\n4,5\n", "bad.csv"); });
        CHECK(contains(msg, "bad.csv:3:1: wrong field count: expected 3 fields (as in the header), got 2"));
    }
    SUBCASE("text after a closing quote") {
        const std::string msg = message_of([] { return io::parse_csv("a,b\n\"1\"x,2\n", "bad.csv"); });
        CHECK(contains(msg, "bad.csv:2:4: unexpected character 'x' after a closing quote"));
    }
    SUBCASE("a quote inside an unquoted field") {
        const std::string msg = message_of([] { return io::parse_csv("a,b\n1,2\"3\n", "bad.csv"); });
        CHECK(contains(msg, "bad.csv:2:4: quote inside an unquoted field"));
    }
    SUBCASE("empty file") {
        CHECK(contains(message_of([] { return io::parse_csv("", "empty.csv"); }), "empty.csv: empty file"));
    }
    SUBCASE("unknown column and a non-number") {
        const io::csv_table t = io::parse_csv("a,b\n1,x\n", "t.csv");
        CHECK(contains(message_of([&] { return t.column("c"); }), "t.csv:1: key \"c\": no such column"));
        CHECK(contains(message_of([&] { return t.number(0, "b"); }), "t.csv:2:2: key \"b\" = \"x\": expected a number"));
    }
    SUBCASE("missing file") {
        CHECK(contains(message_of([] { return io::load_csv("/nonexistent/t.csv"); }),
                       "/nonexistent/t.csv: cannot open file: no such file"));
    }
}

// ---- hostile files (issue 18, io/files.hpp) ----------------------------------------------------

namespace {

/// A fresh scratch folder under the system's temporary folder, removed at the end of the test.
struct scratch {
    std::filesystem::path dir;
    scratch() {
        dir = std::filesystem::temp_directory_path() / ("llmcost-unit-" + std::to_string(::getpid()));
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
    }
    ~scratch() {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
    [[nodiscard]] std::filesystem::path file(const std::string& name, std::string_view text) const {
        std::ofstream(dir / name, std::ios::binary) << text;
        return dir / name;
    }
    [[nodiscard]] std::string read(const std::string& name) const {
        std::ifstream in(dir / name, std::ios::binary);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }
    [[nodiscard]] std::size_t entries() const {
        std::size_t n = 0;
        for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
        return n;
    }
};

std::string write_message(const std::filesystem::path& p, std::string_view text, std::vector<std::filesystem::path> inputs = {}) {
    try {
        io::write_output_file(p, text, inputs);
    } catch (const io::write_error& e) {
        return e.what();
    }
    return {};
}

}  // namespace

TEST_CASE("csv: a UTF-8 byte-order mark before the header is not part of the first column's name") {
    // Spreadsheets save one: EF BB BF, then "id". The column is "id", found by name.
    const io::csv_table t = io::parse_csv("\xEF\xBB\xBFid,value\nT01,2\n", "bom.csv");
    CHECK(t.field(0, "id") == "T01");
    CHECK(t.number(0, "value") == 2.0);
    CHECK(io::without_bom("\xEF\xBB\xBFx") == "x");
    CHECK(io::without_bom("\xEF\xBBx") == "\xEF\xBBx");  // a partial mark is text
    CHECK(io::without_bom("") == "");
}

TEST_CASE("files: only regular files within the limit are read, checked before reading") {
    const scratch s;
    // A device that never ends: refused by its kind, at once (it once read until memory ran out).
    CHECK(contains(message_of([] { return io::load_csv("/dev/zero"); }),
                   "/dev/zero: is a character device: only a regular file can be read [llmcost.input.regular_file]"));
    // A folder, and a FIFO (which would block the reader for ever).
    CHECK(contains(message_of([&] { return io::load_csv(s.dir); }), "is a folder: only a regular file"));
    const std::filesystem::path fifo = s.dir / "pipe.csv";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    CHECK(contains(message_of([&] { return io::load_csv(fifo); }), "pipe.csv: is a FIFO (named pipe)"));
    // Past the limit: a sparse file of 1 GiB + 1 byte is refused by its size, without reading it.
    const std::filesystem::path big = s.file("big.csv", "");
    std::filesystem::resize_file(big, (std::uintmax_t{1} << 30) + 1);
    CHECK(contains(message_of([&] { return io::load_csv(big); }),
                   "big.csv: is 1073741825 bytes, above the limit of 1 GiB for this kind of file [llmcost.input.size_limit]"));
    CHECK(contains(message_of([&] { return io::read_input_file(s.file("small.json", "{}"), 1); }),
                   "is 2 bytes, above the limit of 1 B"));
    CHECK(io::read_input_file(s.file("exact.json", "{}"), 2) == "{}");
    CHECK(contains(message_of([&] { return io::load_csv(s.dir / "missing.csv"); }), "no such file"));
}

TEST_CASE("files: an output is written whole, never over an input, with one message per cause") {
    const scratch s;
    // Written, and an old file replaced whole; no temporary file left behind.
    CHECK(write_message(s.dir / "out.svg", "<svg/>") == "");
    CHECK(s.read("out.svg") == "<svg/>");
    CHECK(write_message(s.dir / "out.svg", "<svg>2</svg>") == "");
    CHECK(s.read("out.svg") == "<svg>2</svg>");
    CHECK(s.entries() == 1);
    // The run's own input, however spelled: refused, untouched.
    const std::filesystem::path config = s.file("config.json", "{\"x\": 1}");
    CHECK(contains(write_message(s.dir / "." / "config.json", "<svg/>", {config}), "[llmcost.output.overwrites_input]"));
    CHECK(s.read("config.json") == "{\"x\": 1}");
    // A folder that does not exist; a folder as the target; a device.
    CHECK(contains(write_message(s.dir / "no" / "such" / "out.svg", "x"), "out.svg: no such folder [llmcost.output.no_folder]"));
    CHECK(contains(write_message(s.dir, "x"), "it is a folder [llmcost.output.is_folder]"));
    CHECK(contains(write_message("/dev/null", "x"), "not a regular file [llmcost.output.not_regular_file]"));
    CHECK(contains(write_message(s.dir / "out.svg" / "x.svg", "x"), "[llmcost.output.no_folder]"));
    CHECK(s.entries() == 2);
    // The causes a test cannot stage as any user (a full disk, a read-only or forbidden folder)
    // map from the system's error number.
    CHECK(io::write_error_for("a.svg", ENOSPC).id() == "llmcost.output.disk_full");
    CHECK(contains(io::write_error_for("a.svg", ENOSPC).what(), "cannot write a.svg: no space left on the device"));
    CHECK(io::write_error_for("a.svg", EACCES).id() == "llmcost.output.permission");
    CHECK(io::write_error_for("a.svg", EROFS).id() == "llmcost.output.permission");
    CHECK(io::write_error_for("a.svg", ENOENT).id() == "llmcost.output.no_folder");
    CHECK(io::write_error_for("a.svg", EISDIR).id() == "llmcost.output.is_folder");
    CHECK(io::write_error_for("a.svg", EIO).id() == "llmcost.output.write_failed");
    // Permission, where the test does not run as root (root writes anywhere).
    if (::geteuid() != 0) {
        const std::filesystem::path locked = s.dir / "locked";
        std::filesystem::create_directory(locked);
        std::filesystem::permissions(locked, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
        CHECK(contains(write_message(locked / "out.svg", "x"), "permission denied"));
        std::filesystem::permissions(locked, std::filesystem::perms::owner_all);
    }
}

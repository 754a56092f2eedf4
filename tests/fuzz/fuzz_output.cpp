// libFuzzer harness: the tool's writers and its number reader, the surfaces issue 18 added.
// The first byte picks one, the rest is its input:
//   0: report writers. The bytes, split at 0x1F, are the string fields of a two-row report; its CSV
//      (render_csv) must read back through io::parse_csv to the same fields, its JSON (render_json)
//      must be valid JSON holding each field as text::utf8_escaped gives it. A writer's exception
//      (nlohmann's type_error.316 on bytes that are not UTF-8 was one) or a field that comes back
//      otherwise is a finding.
//   1: output paths. The bytes are a path relative to a scratch folder (no "..", not absolute) and
//      a content (after the first NUL); io::write_output_file must write it whole (read back equal)
//      or throw a write_error and leave no temporary file. Anything else is a finding.
//   2: numbers. The bytes are a command-line number; read_decimal and read_count either refuse it
//      or give a value whose canonical text reads back to the same value.
#include "numbers.hpp"
#include "report.hpp"

#include <llmcost/io/csv.hpp>
#include <llmcost/io/files.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

namespace {

[[noreturn]] void finding(const char* what) {
    std::fprintf(stderr, "fuzz_output: %s\n", what);
    std::abort();
}

void writers(std::string_view bytes) {
    using namespace llmcost::cli;
    std::vector<std::string> values;
    std::string current;
    for (char c : bytes) {
        if (c == '\x1F') {
            values.push_back(std::move(current));
            current.clear();
        } else {
            current += c;
        }
    }
    values.push_back(std::move(current));
    report r{.layout = report::shape::array};
    for (int row = 0; row < 2; ++row) {
        record rec;
        rec.add("id", "id", std::string("r"));  // never an empty line, which a reader may skip
        for (std::size_t i = 0; i < values.size(); ++i) rec.add("k" + std::to_string(i), "label", values[i]);
        r.records.push_back(std::move(rec));
    }
    r.notes.push_back(values.front());
    // CSV: the same fields back.
    const std::string csv = render_csv(r);
    const llmcost::io::csv_table t = llmcost::io::parse_csv(csv, "fuzz.csv");  // a load_error escapes: a finding
    if (t.size() != 2) finding("CSV: not two rows back");
    for (std::size_t row = 0; row < 2; ++row)
        for (std::size_t i = 0; i < values.size(); ++i)
            if (t.field(row, "k" + std::to_string(i)) != values[i]) finding("CSV: a field came back changed");
    // JSON: valid, each field escaped.
    const nlohmann::json j = nlohmann::json::parse(render_json(r));  // a parse_error escapes: a finding
    for (std::size_t i = 0; i < values.size(); ++i)
        if (j["rows"][1]["k" + std::to_string(i)].get<std::string>() != llmcost::text::utf8_escaped(values[i]))
            finding("JSON: a field came back changed");
    (void)render_table(r);
}

void output_path(std::string_view bytes) {
    namespace fs = std::filesystem;
    const std::size_t nul = bytes.find('\0');
    const std::string name(bytes.substr(0, nul));
    const std::string_view content = nul == std::string_view::npos ? std::string_view() : bytes.substr(nul + 1);
    const fs::path rel(name);
    if (name.empty() || rel.is_absolute()) return;
    for (const fs::path& part : rel)
        if (part == "..") return;  // stays inside the scratch folder
    static const fs::path scratch = [] {
        const fs::path p = fs::temp_directory_path() / ("llmcost-fuzz-output-" + std::to_string(::getpid()));
        fs::create_directories(p / "sub");
        std::ofstream(p / "input.json") << "{}";
        return p;
    }();
    const fs::path target = scratch / rel;
    try {
        llmcost::io::write_output_file(target, content, {scratch / "input.json"});
        std::ifstream in(target, std::ios::binary);
        const std::string back{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        if (back != content) finding("write_output_file: the file holds other bytes");
        std::error_code ec;
        if (fs::equivalent(target, scratch / "input.json", ec)) finding("write_output_file: replaced an input");
    } catch (const llmcost::io::write_error&) {
    }
    std::error_code ec;
    // A temporary file is ".<target name>.llmcost-<pid>-<serial>.tmp"; the target itself may be
    // named anything, ".tmp" included, so it is never taken for one.
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(scratch, ec)) {
        const std::string leaf = e.path().filename().string();
        std::error_code same;
        if (leaf.starts_with(".") && leaf.find(".llmcost-") != std::string::npos && leaf.ends_with(".tmp") &&
            !fs::equivalent(e.path(), target, same))
            finding("write_output_file: a temporary file left behind");
    }
    // Keep the folder small and the input intact for the next input.
    for (const fs::directory_entry& e : fs::directory_iterator(scratch, ec))
        if (e.path().filename() != "input.json") fs::remove_all(e.path(), ec);
    fs::create_directories(scratch / "sub", ec);
    std::ofstream(scratch / "input.json") << "{}";
}

void numbers(std::string_view bytes) {
    double v = 0, back = 0;
    if (llmcost::cli::read_decimal(bytes, v).empty() && std::isfinite(v)) {
        if (!llmcost::cli::read_decimal(llmcost::cli::canonical(v), back).empty() || back != v)
            finding("read_decimal: the canonical text reads back otherwise");
    }
    if (llmcost::cli::read_count(bytes, 1, 1e15, v).empty() && (v < 1 || v > 1e15 || v != std::floor(v)))
        finding("read_count: accepted a value outside its range");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return -1;
    const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
    switch (data[0] % 3) {
        case 0: writers(rest); break;
        case 1: output_path(rest); break;
        default: numbers(rest); break;
    }
    return 0;
}

// libFuzzer harness: bytes → the catalog CSV loaders (llmcost::io::parse_hardware_csv and
// parse_models_csv, which share the RFC 4180 reader parse_csv). A load_error or an invalid_input
// is the loader doing its job; anything else — a crash, another exception type (it escapes and
// aborts), a sanitizer report, a hang — is a finding.
#include <llmcost/descriptors/validation.hpp>
#include <llmcost/io/error.hpp>
#include <llmcost/io/hardware_csv.hpp>
#include <llmcost/io/models_csv.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

template <class Load>
void expect_loaded_or_refused(Load load) {
    try {
        for (const auto& entry : load()) entry.validate();  // loaded entries are valid ones
    } catch (const llmcost::io::load_error& e) {
        if (e.path() != "fuzz.csv") std::abort();  // every message names the input
    } catch (const llmcost::invalid_input&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    expect_loaded_or_refused([&] { return llmcost::io::parse_hardware_csv(text, "fuzz.csv"); });
    expect_loaded_or_refused([&] { return llmcost::io::parse_models_csv(text, "fuzz.csv"); });
    return 0;
}

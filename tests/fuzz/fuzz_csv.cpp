// libFuzzer harness: bytes → the CSV loaders (llmcost::io::parse_hardware_csv, parse_models_csv
// and the request trace's parse_trace_csv, which share the RFC 4180 reader parse_csv). A load_error or an invalid_input
// is the loader doing its job; anything else — a crash, another exception type (it escapes and
// aborts), a sanitizer report, a hang — is a finding.
#include <llmcost/descriptors/validation.hpp>
#include <llmcost/io/error.hpp>
#include <llmcost/io/hardware_csv.hpp>
#include <llmcost/io/models_csv.hpp>
#include <llmcost/io/trace_csv.hpp>

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
    // A trace that loads has sorted, finite, non-negative times and whole, positive lengths.
    try {
        const auto trace = llmcost::io::parse_trace_csv(text, "fuzz.csv");
        for (std::size_t i = 0; i < trace.size(); ++i) {
            const auto& r = trace[i];
            if (!(r.arrival.value() >= 0.0) || !(r.input.value() >= 1.0) || !(r.output.value() >= 1.0)) std::abort();
            if (i > 0 && r.arrival < trace[i - 1].arrival) std::abort();
        }
    } catch (const llmcost::io::load_error& e) {
        if (e.path() != "fuzz.csv") std::abort();
    }
    return 0;
}
